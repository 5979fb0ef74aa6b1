// Browser (and default) entry: fetches the wasm file next to this module (bundlers such as
// Vite emit it as an asset) and instantiates it before the module finishes loading.
import init from "./turnwire.js";

await init({ module_or_path: new URL("./turnwire_bg.wasm", import.meta.url) });

export * from "./turnwire.js";
