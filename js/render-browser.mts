// `turnwire/render` in browsers (and the default): fetches the render module next to this file
// (bundlers such as Vite emit it as an asset) before the module finishes loading. The stream
// module is fetched only when the first `streamTurn` needs its decoders.
import * as glue from "./turnwire_render.js";
import { useRenderModule } from "./render-module.mjs";

await glue.default({ module_or_path: new URL("./turnwire_render_bg.wasm", import.meta.url) });

/** Sets the memory budget of the render module and of the stream module (see the main entry's). */
export const setMemoryBudget = useRenderModule(glue, async () => {
  const stream = await import("./turnwire_stream.js");
  await stream.default({ module_or_path: new URL("./turnwire_stream_bg.wasm", import.meta.url) });
  return stream;
});

export * from "./turnwire_render.js";
export * from "./render-api.mjs";
