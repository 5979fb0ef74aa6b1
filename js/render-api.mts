// The JavaScript half of the render entries' API (internal module: its list is the list of JS
// exports `turnwire/render` has next to the render module's; render.d.ts declares them).
export { MAX_RETRY_AFTER_MS, ProviderError, TurnInFlightError, isProviderError, isTurnInFlightError } from "./errors.mjs";
export { countTokensRequest, DEFAULT_BASE_URLS, providerRequest, type CountingProvider } from "./providers.mjs";
export { JsonArrayParser, SseParser } from "./sse.mjs";
export { streamTurnOnRenderModule as streamTurn } from "./stream.mjs";
export { runToolCall, runToolCalls, toolDeclarations } from "./tools.mjs";
export { createRouterOnRenderModule as createRouter } from "./router.mjs";
export { runAgent } from "./agent.mjs";
export { compact, contextUsage } from "./compact.mjs";
export { addUsage, cost, loadSession, mergeUsage, saveSession } from "./session.mjs";
export { kvStore, memoryStore } from "./kv-store.mjs";
export { indexedDbStore } from "./idb-store.mjs";
export { redisStore } from "./redis-store.mjs";
export { SessionStoreError, isSessionStoreError } from "./store-error.mjs";
export { AFTER_DONE_GRACE_MS, DEFAULT_IDLE_TIMEOUT_MS, DEFAULT_MAX_ERROR_BODY_BYTES, DEFAULT_MAX_EVENT_BYTES, DEFAULT_MAX_REPLY_BYTES, DEFAULT_TURN_TIMEOUT_MS } from "./turn-limits.mjs";
