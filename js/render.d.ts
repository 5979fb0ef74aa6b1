// Declarations of `turnwire/render`: the render module's functions and classes and the JS
// fetch shim, with the same types as the main entry's (index.d.ts). The render module has no
// importers, exporters, validators or relay; its `streamTurn` loads the stream decoders on the
// first streamed turn. Checked against the entry's runtime exports by tests/js/render.test.mjs.
export {
  Conversation,
  isTurnwireError,
  isValidToolId,
  memoryStats,
  normalize,
  projectToolId,
  projectToolIds,
  renderBody,
  renderForProvider,
  renderRequest,
  setMemoryBudget,
  wasmMemoryBytes,
  streamTurn,
  MAX_RETRY_AFTER_MS,
  ProviderError,
  TurnInFlightError,
  isProviderError,
  isTurnInFlightError,
  DEFAULT_BASE_URLS,
  providerRequest,
  JsonArrayParser,
  SseParser,
  AFTER_DONE_GRACE_MS,
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_ERROR_BODY_BYTES,
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_REPLY_BYTES,
  runToolCall,
  runToolCalls,
  toolDeclarations,
} from "./index.js";
export type * from "./index.js";
