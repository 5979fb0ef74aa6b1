// `vite build` needs no configuration for turnwire. The exclude is for `vite dev`: its dependency
// pre-bundling moves the JS to node_modules/.vite/deps without the .wasm beside it, so the
// entry's `new URL("./turnwire_bg.wasm", import.meta.url)` would point at a missing file.
import { defineConfig } from "vite";

export default defineConfig({
  optimizeDeps: { exclude: ["turnwire"] },
  logLevel: "warn",
});
