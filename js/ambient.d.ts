// The few host APIs the entries use, declared here so that the build needs no @types package.

declare module "node:fs" {
  export function readFileSync(path: URL): Uint8Array;
}

// turnwire/file-store (file-store.mts).
declare module "node:fs/promises" {
  export function readFile(path: string, encoding: "utf8"): Promise<string>;
  export function writeFile(path: string, data: string, encoding: "utf8"): Promise<void>;
  export function appendFile(path: string, data: string, encoding: "utf8"): Promise<void>;
  export function rename(from: string, to: string): Promise<void>;
  export function mkdir(path: string, options: { recursive: true }): Promise<string | undefined>;
  export function rm(path: string, options: { force: true; recursive?: boolean }): Promise<void>;
  export function stat(path: string): Promise<{ size: number }>;
}

declare module "node:path" {
  export function join(...parts: string[]): string;
}

// workerd and bundlers that support it import a `.wasm` file as a compiled module.
declare module "*.wasm" {
  const module: WebAssembly.Module;
  export default module;
}

// Next.js and Vercel (edge-light.mts): `?module` makes the import a precompiled module.
declare module "*.wasm?module" {
  const module: WebAssembly.Module;
  export default module;
}
