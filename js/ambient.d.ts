// The few host APIs the entries use, declared here so that the build needs no @types package.

declare module "node:fs" {
  export function readFileSync(path: URL): Uint8Array;
}

// workerd and bundlers that support it import a `.wasm` file as a compiled module.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}
