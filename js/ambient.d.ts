// The few host APIs the entries use, declared here so that the build needs no @types package.

declare module "node:fs" {
  export function readFileSync(path: URL): Uint8Array;
}

// turnwire/file-store (file-store.mts, file-lock.mts).
declare module "node:fs/promises" {
  export interface FileHandle {
    writeFile(data: string, encoding?: "utf8"): Promise<void>;
    appendFile(data: string, encoding: "utf8"): Promise<void>;
    read(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesRead: number }>;
    chmod(mode: number): Promise<void>;
    sync(): Promise<void>;
    stat(): Promise<{ size: number }>;
    close(): Promise<void>;
  }
  export function open(path: string, flags: "r" | "w" | "a" | "wx", mode?: number): Promise<FileHandle>;
  export function readFile(path: string, encoding: "utf8"): Promise<string>;
  export function readFile(path: string): Promise<Uint8Array>;
  export function readdir(path: string): Promise<string[]>;
  export function rename(from: string, to: string): Promise<void>;
  export function mkdir(path: string, options: { recursive: true; mode?: number }): Promise<string | undefined>;
  export function rm(path: string, options: { force: true; recursive?: boolean }): Promise<void>;
  export function stat(path: string): Promise<{ size: number; mtimeMs: number }>;
  export function unlink(path: string): Promise<void>;
}

declare module "node:os" {
  export function hostname(): string;
}

// file-lock.mts: whether a lock's holder still runs.
declare const process: { readonly pid: number; kill(pid: number, signal: 0): true };

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
