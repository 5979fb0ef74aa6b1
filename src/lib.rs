//! turnwire — one provider-neutral LLM conversation, a request body every provider accepts.
//!
//! The flow is one direction: a canonical [`Transcript`] is normalised (repairs reported as
//! [`Diagnostic`]s), then projected by a provider adapter into that provider's request body.
//!
//! ```
//! use turnwire::{render, Provider, RenderOptions, Transcript};
//! let t = Transcript::from_json(r#"[
//!   {"speaker":"human","blocks":[{"type":"text","text":"list files"}]},
//!   {"speaker":"ai","blocks":[{"type":"tool_call","id":"hist_tool_1","name":"ls","parameters":{}}]}
//! ]"#)?;
//! let out = render(&t, &RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"))?;
//! // the open call was closed with a synthetic result, so Anthropic accepts the body
//! assert!(turnwire::validate_request(Provider::Anthropic, &out.body).is_empty());
//! # Ok::<(), turnwire::Error>(())
//! ```

mod context_window;
mod conversation;
mod decode;
mod error;
mod excerpt;
pub mod export;
mod fast_map;
pub mod hosts;
pub mod ids;
pub mod import;
mod json;
pub mod memory;
pub mod model;
pub mod models;
pub mod normalize;
pub mod providers;
pub mod relay;
mod render;
mod request;
mod streaming;
mod vocab;

pub mod stream {
    //! Streaming in: provider response streams decoded into canonical assistant messages.
    //!
    //! A [`StreamDecoder`] takes the SSE `data:` payloads of one response, in order, and returns
    //! [`Delta`]s for a live view; [`StreamDecoder::finish`] returns a [`StreamOutcome`]: the
    //! canonical [`Message`](crate::model::Message) (speaker `ai`, blocks in the order they
    //! started, typed continuity metadata, provenance), its [`Usage`], its [`StopReason`], whether
    //! the stream was complete, and every [`StreamError`]. The message can be appended to the
    //! transcript as it is and rendered for any provider on the next turn; a partial message of
    //! an interrupted stream too (the normaliser closes its open calls and trims an aborted
    //! turn).
    //!
    //! ```
    //! use turnwire::stream::{StreamDecoder, StreamOptions};
    //! use turnwire::{Provider, Transcript};
    //! let mut d = StreamDecoder::new(Provider::OpenAiChat, StreamOptions::for_model("gpt-5.2"));
    //! for event in [
    //!     r#"{"id":"chatcmpl-1","model":"gpt-5.2-2025-12-11","choices":[{"index":0,"delta":{"role":"assistant","content":"Hello"}}]}"#,
    //!     r#"{"id":"chatcmpl-1","model":"gpt-5.2-2025-12-11","choices":[{"index":0,"delta":{"content":" there"},"finish_reason":"stop"}]}"#,
    //!     "[DONE]",
    //! ] {
    //!     d.push(event)?;
    //! }
    //! let out = d.finish();
    //! let stored = Transcript::new(vec![out.message.clone()]).to_json();
    //! assert_eq!(Transcript::from_json(&stored).unwrap().messages[0], out.message);
    //! # Ok::<(), turnwire::stream::StreamError>(())
    //! ```
    //!
    //! # The canonical message
    //!
    //! - **Order**: blocks appear in the order they started (a call that started before a
    //!   thinking block stays before it, whenever each completed). Tool arguments are kept as raw
    //!   JSON text while they stream and parsed once, when the call completes.
    //! - **Continuity metadata** (typed [`ProviderMeta`](crate::model::ProviderMeta)): Anthropic
    //!   thinking `signature` and `redacted_thinking` data; the Responses reasoning item's `rs_…`
    //!   id and `encrypted_content` (its summary is the thought); Gemini `thoughtSignature` on
    //!   the text, thought or call part it came on; chat reasoning text with the field it came in
    //!   (`reasoning_content`, `reasoning`, Mistral `thinking`) as the block's `sourceField`.
    //! - **Tool-call ids**: the provider's own id when it gives one (`toolu_…`, `call_…`, Mistral's
    //!   9 alphanumerics, Kimi's `functions.{name}:{n}`, the Responses `call_id`). The render-time
    //!   id projector keeps an id that is already valid for the target, so replaying to the same
    //!   provider sends the original id back (Kimi ids are always numbered
    //!   `functions.{name}:{n}` by call order across the conversation, which gives Kimi's own ids
    //!   back for a conversation Kimi alone produced; Gemini 3's own ids go back as
    //!   `functionCall.id` / `functionResponse.id`, GEM-22). Calls without an id (Gemini 2.x
    //!   mostly) get a deterministic one, `call_{responseId}_{n}` (`gemini_call_{responseId}_{n}`
    //!   for Gemini, never sent back as Gemini's), unique across a conversation because response
    //!   ids are; without a response id the [`StreamOptions::id_seed`] is used, and without either
    //!   a digest of the turn's content.
    //! - **Metadata**: `provider` (the turnwire provider name), `api` (`messages`,
    //!   `chat-completions`, `responses`, `generate-content`), `model` (the model the stream
    //!   reports, or the requested one when it reports none or a dated snapshot of it — see
    //!   [`StreamOptions`]), `providerBaseURL` (the endpoint option), and in the other members
    //!   `stopReason`, `usage` (when known), `incomplete: true` (when the stream ended early),
    //!   `responseId` (the provider's id of the response) and `responseModel` (the reported model,
    //!   when provenance names another).
    //! - **Partial messages**: a stream that ended before its terminal event keeps the text that
    //!   arrived, finished calls, and unfinished calls with whatever arguments parse (else `{}`,
    //!   with the raw text in the block's `rawArguments`); the outcome is `incomplete`, with an
    //!   `incomplete` error and one `unfinished_tool_call` error per open call.
    //!
    //! # Events per wire format
    //!
    //! | provider | handled | ignored |
    //! |---|---|---|
    //! | `anthropic` | `message_start` (id, model, usage; a second one is ignored with a `duplicate_message_start` error), `content_block_start` (`text`, `thinking`, `redacted_thinking`, `tool_use`), `content_block_delta` (`text_delta`, `thinking_delta`, `signature_delta`, `input_json_delta`), `content_block_stop`, `message_delta` (`stop_reason`, usage), `message_stop` (terminal), `error` | `ping`, `citations_delta`, unknown delta and event types, server-tool blocks (`server_tool_use`, `web_search_tool_result`, …) and their deltas |
    //! | `openai-chat`, `mistral`, `kimi`, `deepseek`, `openai-compatible` | chunk `id` / `model`; `choices[0].delta`: `content` (string, or Mistral's `text` / `thinking` chunk array), `reasoning_content` (else `reasoning`), OpenRouter's `reasoning_details` (joined by `index` into the thinking block's meta, ORT-02), `refusal`, `tool_calls[]` by `index` (by `id` when there is no index); `finish_reason` (the turn is finished); `usage` on the chunk or on `choices[0]` (Kimi), with cached (`prompt_tokens_details.cached_tokens`, DeepSeek `prompt_cache_hit_tokens`, Kimi `cached_tokens`) and reasoning tokens; an `error` object, or a chunk that is one (`"object": "error"`, Mistral, vLLM); `[DONE]` (terminal) | `role`, `logprobs`, `system_fingerprint`, `service_tier`, choices other than the first, the legacy `function_call` delta, audio |
    //! | `openai-responses` | `response.created` / `.in_progress` / `.queued` (id, model), `response.output_item.added` / `.done` for `message`, `reasoning` (id, `encrypted_content`, `summary`) and `function_call` (`call_id`, `name`, `arguments`) items, `response.output_text.delta`, `response.refusal.delta`, `response.reasoning_summary_part.added`, `response.reasoning_summary_text.delta`, `response.reasoning_text.delta`, `response.function_call_arguments.delta` / `.done`, `response.completed` / `response.incomplete` (terminal; usage with cached and reasoning tokens), `response.failed`, `error` | `response.content_part.added` / `.done`, `response.output_text.done`, `response.refusal.done`, `response.reasoning_summary_text.done`, `response.reasoning_summary_part.done`, `response.reasoning_text.done`, `response.output_text.annotation.added`, the `output` list of the terminal event, built-in tool items and events (web search, file search, code interpreter, image generation, MCP, custom tools) |
    //! | `gemini` | `responseId`, `modelVersion`; `candidates[0].content.parts[]`: `text`, `text` + `thought: true`, `functionCall` (`name`, `args`, `id`), `thoughtSignature` on any of them; `candidates[0].finishReason` (terminal); `usageMetadata` (prompt, cached, candidates, thoughts); `promptFeedback.blockReason`; an `error` object; a JSON array of chunks | `inlineData`, `fileData`, `executableCode`, `codeExecutionResult` parts, `safetyRatings`, `citationMetadata`, `groundingMetadata`, `avgLogprobs`, other candidates, `[DONE]` |
    //!
    //! | `bedrock-converse` | `messageStart`, `contentBlockStart` (`start.toolUse`), `contentBlockDelta` (`text`, `toolUse.input`, `reasoningContent` `text` / `signature` / `redactedContent`), `contentBlockStop`, `messageStop` (`stopReason`), `metadata` (`usage`, the last event), the exceptions (`throttlingException`, …) as `provider_error`; a whole `ConverseResponse`; the binary `application/vnd.amazon.eventstream` frames through [`StreamDecoder::push_bytes`] (`frame_crc_mismatch`, `frame_too_large`, `invalid_frame`) | the padding member `p`, `metrics`, `trace`, `citation` deltas, other content block starts; other event types are `unknown_event_type` |
    //!
    //! Details per format: the `decode` modules of `src/providers/anthropic`, `openai_chat`,
    //! `openai_responses`, `gemini` and `bedrock_converse`.

    pub use crate::decode::StreamDecoder;
    pub use crate::streaming::{
        Delta, StopReason, StreamError, StreamOptions, StreamOutcome, Usage, MAX_STREAM_ERRORS,
    };
}

pub use context_window::context_window;
pub use conversation::Fallback;
pub use conversation::{BodyPart, Conversation, RenderStats, DEFAULT_CACHE_TARGETS};
pub use error::{Error, ErrorCode};
pub use json::report::MAX_LISTED as MAX_LISTED_REPAIRS;
pub use json::MAX_DEPTH;
pub use model::Transcript;
pub use normalize::{
    normalize, Diagnostic, DiagnosticCode, FaultClass, ForeignThinking, NormalizeOptions,
    Normalized, OrphanPolicy, Pass, ToolChanges,
};
pub use providers::{
    validate_request, validate_request_for_host, validate_request_for_model, validate_request_text,
    validate_request_text_for_host, validate_request_with_headers, Provider, Violation,
};
pub use render::{
    owned_fields, render, render_body, render_count_tokens, render_owned, structured_output,
    CacheBreakpoints, CacheOptions, CachePoint, CacheTtl, CompatOptions, IdMap, RenderOptions,
    RenderReport, Rendered, ResponseFormat, ServerTool, ServerToolKind, ThinkingOptions,
    ToolChoice, ToolDeclaration, UserLocation, ANSWER_ROOM, DEFAULT_MAX_TOKENS,
    DEFAULT_THINKING_BUDGET, KIMI_THINKING_MAX_TOKENS, MAX_CACHE_KEY_CHARS,
    RESPONSES_MIN_OUTPUT_TOKENS,
};
pub use vocab::Host;

/// The README's Rust examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The JavaScript binding (feature `wasm`): the functions and the class the npm package
/// exports. Public so its wasm-bindgen tests (`tests/wasm.rs`) can call it; Rust users want
/// the items above instead.
#[cfg(feature = "wasm-bind")]
pub mod wasm;
