//! What every wire's stream decoder shares: the assembler that builds the canonical message,
//! the deltas, the errors, the options and the outcome. The decoder itself
//! ([`crate::decode`]) drives a wire's event parser (`providers/<wire>/decode.rs`) over them;
//! the public path of all of it is `turnwire::stream`.

mod assembler;
mod delta;
pub(crate) mod error;
pub(crate) mod event_stream;
pub(crate) mod ids;
pub(crate) mod json;
pub(crate) mod options;
pub(crate) mod outcome;
pub(crate) mod relay_frame;
pub(crate) mod state;
mod stop_reason;
pub(crate) mod surrogate_halves;
mod usage;
pub(crate) mod wire;

pub use delta::Delta;
pub use error::StreamError;
pub use options::StreamOptions;
pub use outcome::StreamOutcome;
pub use state::MAX_STREAM_ERRORS;
pub use stop_reason::StopReason;
pub use usage::Usage;
