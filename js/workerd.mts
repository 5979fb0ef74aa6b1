// Cloudflare Workers (workerd) entry: the runtime and wrangler compile a `.wasm` import into a
// `WebAssembly.Module`, so instantiation is synchronous and needs no fetch.
import wasmModule from "./turnwire_bg.wasm";
import { initSync } from "./turnwire.js";

initSync({ module: wasmModule });

export * from "./turnwire.js";
