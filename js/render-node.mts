// `turnwire/render` in Node and Bun: reads the render module beside this file synchronously (no
// top-level await); the stream module is read when the first `streamTurn` needs its decoders.
import { readFileSync } from "node:fs";
import * as glue from "./turnwire_render.js";
import { useRenderModule } from "./render-module.mjs";

glue.initSync({ module: readFileSync(new URL("./turnwire_render_bg.wasm", import.meta.url)) });

/** Sets the memory budget of the render module and of the stream module (see the main entry's). */
export const setMemoryBudget = useRenderModule(glue, async () => {
  const stream = await import("./turnwire_stream.js");
  stream.initSync({ module: readFileSync(new URL("./turnwire_stream_bg.wasm", import.meta.url)) });
  return stream;
});

export * from "./turnwire_render.js";
export * from "./render-api.mjs";
