// `turnwire/init`: the raw glue for hosts that load the wasm themselves (browser types).
import init, { initSync, renderBody, type InitOutput } from "turnwire/init";

export async function load(url: URL): Promise<Uint8Array> {
  const exports: InitOutput = await init({ module_or_path: url });
  void exports.memory;
  return renderBody([], { provider: "anthropic", model: "claude-sonnet-4-5" });
}

export function loadSync(module: WebAssembly.Module): InitOutput {
  return initSync({ module });
}
