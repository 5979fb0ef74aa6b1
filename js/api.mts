// The JavaScript half of the public API, which every runtime entry exports next to the wasm
// glue's (internal module: its list is the list of JS exports; index.d.ts gets their types).
export { providerOfModel, turnwireMiddleware } from "./ai-sdk.mjs";
export { MAX_RETRY_AFTER_MS, ProviderError, TurnInFlightError, isProviderError, isTurnInFlightError } from "./errors.mjs";
export { countTokensRequest, DEFAULT_BASE_URLS, providerRequest, type CountingProvider } from "./providers.mjs";
export { repairingFetch } from "./repairing-fetch.mjs";
export { runToolCall, runToolCalls, toolDeclarations } from "./tools.mjs";
export { createRouter } from "./router.mjs";
export { runAgent } from "./agent.mjs";
export { compact, contextUsage } from "./compact.mjs";
export { addUsage, cost, loadSession, mergeUsage, saveSession } from "./session.mjs";
export { kvStore, memoryStore } from "./kv-store.mjs";
export { indexedDbStore } from "./idb-store.mjs";
export { redisStore } from "./redis-store.mjs";
export { SessionStoreError, isSessionStoreError } from "./store-error.mjs";
export { JsonArrayParser, SseParser } from "./sse.mjs";
export { signAwsRequest, type AwsCredentials, type SignAwsRequestOptions } from "./sigv4.mjs";
export { streamTurn } from "./stream.mjs";
export { AFTER_DONE_GRACE_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_ERROR_BODY_BYTES, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_REPLY_BYTES, DEFAULT_TURN_TIMEOUT_MS } from "./turn-limits.mjs";
