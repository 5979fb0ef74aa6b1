// Browser (and default) entry: fetches the wasm file next to this module (bundlers such as
// Vite emit it as an asset) and instantiates it before the module finishes loading.
import { setCore } from "./core.mjs";
import * as glue from "./turnwire.js";

await glue.default({ module_or_path: new URL("./turnwire_bg.wasm", import.meta.url) });
setCore(glue);

export * from "./turnwire.js";
export * from "./api.mjs";
