// Vercel / Next.js edge runtime entry (the `edge-light` condition). Next's edge compilers (webpack
// and Turbopack) and Vercel turn a `.wasm?module` import into a precompiled `WebAssembly.Module`
// (an injected global): the edge runtime refuses to compile wasm from bytes, and edge routes
// cannot use top-level await, so the module is instantiated synchronously here, as in workerd.mjs.
// Locally (`next start`, `next dev`, `vercel dev`) that module is compiled in Node's main realm
// and handed into the edge `vm` context, where `instanceof WebAssembly.Module` is false; the glue
// (edge-glue.mjs, scripts/build-package.sh) therefore tests the module's brand, not its realm, and
// carries no default `new URL("turnwire_bg.wasm", import.meta.url)`, which would make bundlers
// ship the wasm a second time as an asset.
import { setCore } from "./core.mjs";
import * as glue from "./edge-glue.mjs";
import wasmModule from "./turnwire_bg.wasm?module";

glue.initSync({ module: wasmModule });
setCore(glue);

export * from "./edge-glue.mjs";
export * from "./api.mjs";
