// The bounds of a streamed turn: their defaults, exported with streamTurn.
/** The default idle timeout of `streamTurn` (ms): reasoning models can think for minutes between events. */
export const DEFAULT_IDLE_TIMEOUT_MS = 300_000;
/**
 * The default longest a whole streamed turn may take (ms): one hour. The official SDKs time a
 * request out after 10 minutes (`DEFAULT_TIMEOUT = 600000` in openai and @anthropic-ai/sdk),
 * but only until the answer starts; Anthropic's SDK reckons up to 60 minutes for 128,000 output
 * tokens (`calculateNonstreamingTimeout`), so a long streamed turn gets that, and a stream that
 * trickles a byte at a time under the idle timeout still ends.
 */
export const DEFAULT_TURN_TIMEOUT_MS = 3_600_000;
/** The default most bytes one stream event may take before it is complete (16 MiB). */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/**
 * The default most bytes a whole streamed answer may take (64 MiB): an endless stream of valid
 * events (a model stuck in a loop behind a proxy, a hostile server) stops there instead of
 * growing the module's memory to its limit. A long reply is well under 1 MiB.
 */
export const DEFAULT_MAX_REPLY_BYTES = 64 * 1024 * 1024;
/** The default most bytes read of a non-2xx answer's body (64 KiB). */
export const DEFAULT_MAX_ERROR_BODY_BYTES = 64 * 1024;
/** How long a chat stream may take after its `finish_reason` for its usage chunk and `[DONE]` (ms). */
export const AFTER_DONE_GRACE_MS = 2_000;
