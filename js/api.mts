// The JavaScript half of the public API, which every runtime entry exports next to the wasm
// glue's (internal module: its list is the list of JS exports; index.d.ts gets their types).
export { ProviderError, isProviderError } from "./errors.mjs";
export { DEFAULT_BASE_URLS, providerRequest } from "./providers.mjs";
export { JsonArrayParser, SseParser } from "./sse.mjs";
export { streamTurn } from "./stream.mjs";
