// Deno entry: the wasm-bindgen `module` glue (deno-glue.mjs) instantiates the wasm through
// `import source`, which needs no permission; this adds the JS half of the API.
import { setCore } from "./core.mjs";
import * as glue from "./deno-glue.mjs";

setCore(glue);

export * from "./deno-glue.mjs";
export * from "./api.mjs";
