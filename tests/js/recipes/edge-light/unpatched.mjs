// The control: wasm-bindgen's own glue (turnwire/init) given the same injected module. Its
// initSync tests `instanceof WebAssembly.Module`, which a module from another realm fails.
import { initSync } from "turnwire/init";
import wasmModule from "turnwire/wasm?module";

globalThis.__turnwireUnpatched = () => {
  try {
    initSync({ module: wasmModule });
    return "initialised";
  } catch (e) {
    return `${e?.name}: ${e?.message}`;
  }
};
