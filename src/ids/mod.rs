//! Tool-call ID projection: canonical ids → each provider's lexical format.
//!
//! A transcript keeps provider-neutral canonical call ids (REQ-915-014). At render time one
//! [`IdProjector`] per render maps them, in call order, to the target's format (REQ-915-015,
//! provider-rules.md X4): deterministic, injective, never empty, and stable as the conversation
//! grows. [`ToolNameProjector`] does the same for tool names (OAC-05, ANT-20).
//!
//! # Examples
//!
//! ```
//! use turnwire::ids::{IdFormat, IdProjector, ToolNameProjector};
//! let mut names = ToolNameProjector::new();
//! let mut ids = IdProjector::new(IdFormat::OpenAi);
//! let name = names.project("fs.read");
//! let id = ids.project("toolu_01ABC", &name);
//! assert_eq!((name.as_str(), id.as_str()), ("fs_read", "call_01ABC"));
//! assert!(IdFormat::OpenAi.is_valid(&id));
//! ```

mod format;
pub(crate) mod hash;
mod projector;
mod tool_name;

pub use format::{is_anthropic_server_tool_id, IdFormat};
pub use projector::IdProjector;
pub use tool_name::ToolNameProjector;
