// Node and Bun entry (ESM): loads the one optimised wasm file beside this one, synchronously,
// so `import { renderBody } from "turnwire"` needs no `await`. No top-level await either, so
// Node >= 20.19 can also `require()` this file.
import { readFileSync } from "node:fs";
import { setCore } from "./core.mjs";
import * as glue from "./turnwire.js";

glue.initSync({ module: readFileSync(new URL("./turnwire_bg.wasm", import.meta.url)) });
setCore(glue);

export * from "./turnwire.js";
export * from "./api.mjs";
