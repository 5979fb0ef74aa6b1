//! What a request asks for besides its history: the render options and their parts (cache,
//! controls, response format, server tools, limits, stop sequences, provider options, the
//! repair policy), checked and resolved once per call into [`Resolved`], which the normaliser's
//! options, the adapters and the incremental renderer read.

mod cache;
mod check;
mod controls;
mod headers;
mod limits;
mod options;
mod policy;
mod provider_options;
mod resolved;
mod response_format;
mod server_tools;
mod stop;
mod thinking_mode;

pub(crate) use resolved::Resolved;
pub(crate) use thinking_mode::{effort_level, note as thinking_note};

pub(crate) use cache::CachePlan;
pub use cache::{CacheBreakpoints, CacheOptions, CachePoint, CacheTtl, MAX_CACHE_KEY_CHARS};
pub(crate) use controls::note;
pub use controls::ToolChoice;
pub(crate) use headers::{is_header_param, HeaderPlan, BETA_HEADER};
pub use limits::{ANSWER_ROOM, KIMI_THINKING_MAX_TOKENS, RESPONSES_MIN_OUTPUT_TOKENS};
pub(crate) use response_format::{json_schema_members, not_strict, valid_format_name};
pub use response_format::{structured_output, ResponseFormat};
pub(crate) use server_tools::ServerToolPlan;
pub use server_tools::{ServerTool, ServerToolKind, UserLocation};

pub use options::owned_fields;
pub use options::{
    CompatOptions, RenderOptions, ThinkingOptions, ToolDeclaration, DEFAULT_MAX_TOKENS,
    DEFAULT_THINKING_BUDGET,
};
