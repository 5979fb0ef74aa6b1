//! The canonical model: provider-neutral messages, blocks and continuity metadata.
//!
//! This is the truth every render starts from. It reads and writes the JSON history shape of
//! the TypeScript agent (`{speaker, blocks, metadata}` with `text`, `thinking`, `tool_call`,
//! `tool_response`, `media` and `code` blocks) and keeps unknown blocks and fields verbatim.

mod agent_shape;
mod block;
mod compaction;
pub(crate) mod fallback;
mod json_path;
pub(crate) mod media_data;
mod message;
mod mime;
mod node;
mod node_text;
mod pairing;
mod provenance;
mod provider_meta;
mod read;
mod server_tool;
pub(crate) use read::type_name;
mod status;
mod tool_calls;
mod tool_change;
mod transcript;

pub use crate::vocab::SyntheticReason;
pub(crate) use block::NESTED_META_KEYS;
pub use block::{
    Block, CodeBlock, MediaBlock, MediaEncoding, TextBlock, ThinkingBlock, ToolCallBlock,
    ToolResponseBlock,
};
pub(crate) use compaction::{compacted_calls, record as compaction_record, separated};
pub use compaction::{compaction_range, safe_cut_points, COMPACTION_KEY};
pub use json_path::JsonPath;
pub use media_data::split_data_url;
pub use message::{Message, Metadata, Speaker};
pub(crate) use mime::{media_essence, media_type};
pub use provenance::{provider_family, Provenance};
pub use provider_meta::ProviderMeta;
pub use server_tool::{ServerToolBlock, ServerToolPhase};
pub use status::ToolStatus;
pub use tool_calls::{tool_calls, BlockRef, ToolCallState};
pub(crate) use tool_change::kept_changes;
pub use tool_change::{ToolChangeBlock, ToolChangeKind};
pub use transcript::Transcript;
