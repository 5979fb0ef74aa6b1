//! Anthropic Messages API: request rendering, stream decoding and strict validation.

pub(crate) mod betas;
pub(crate) mod context_edits;
pub(crate) mod decode;
pub(crate) mod read;
pub(crate) mod relay;
pub(crate) mod render;
pub(crate) mod thinking;
pub mod validate;
