// Cloudflare Workers (workerd) entry: the runtime and wrangler compile a `.wasm` import into a
// `WebAssembly.Module`, so instantiation is synchronous and needs no fetch.
import { setCore } from "./core.mjs";
import * as glue from "./turnwire.js";
import wasmModule from "./turnwire_bg.wasm";

glue.initSync({ module: wasmModule });
setCore(glue);

export * from "./turnwire.js";
export * from "./api.mjs";
