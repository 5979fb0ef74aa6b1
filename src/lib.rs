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
mod error;
mod excerpt;
pub mod export;
mod fast_map;
pub mod ids;
pub mod import;
mod incremental;
mod json;
pub mod memory;
pub mod model;
pub mod models;
pub mod normalize;
pub mod providers;
pub mod relay;
mod render;
pub mod stream;

pub use context_window::context_window;
pub use conversation::{BodyPart, Conversation, RenderStats, DEFAULT_CACHE_TARGETS};
pub use error::{Error, ErrorCode};
pub use incremental::Fallback;
pub use json::report::MAX_LISTED as MAX_LISTED_REPAIRS;
pub use json::MAX_DEPTH;
pub use model::Transcript;
pub use normalize::{
    normalize, Diagnostic, DiagnosticCode, FaultClass, ForeignThinking, NormalizeOptions,
    Normalized, OrphanPolicy, Pass,
};
pub use providers::{
    validate_request, validate_request_for_model, validate_request_text, Provider, Violation,
};
pub use render::{
    owned_fields, render, render_body, render_count_tokens, render_owned, structured_output,
    CacheBreakpoints, CacheOptions, CachePoint, CacheTtl, CompatOptions, IdMap, RenderOptions,
    RenderReport, Rendered, ResponseFormat, ServerTool, ServerToolKind, ThinkingOptions,
    ToolChoice, ToolDeclaration, UserLocation, ANSWER_ROOM, DEFAULT_MAX_TOKENS,
    DEFAULT_THINKING_BUDGET, KIMI_THINKING_MAX_TOKENS, MAX_CACHE_KEY_CHARS,
    RESPONSES_MIN_OUTPUT_TOKENS,
};

/// The README's Rust examples, compiled and run as doc tests.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The JavaScript binding (feature `wasm`): the functions and the class the npm package
/// exports. Public so its wasm-bindgen tests (`tests/wasm.rs`) can call it; Rust users want
/// the items above instead.
#[cfg(feature = "wasm-bind")]
pub mod wasm;
