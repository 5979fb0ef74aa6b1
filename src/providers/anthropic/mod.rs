//! Anthropic Messages API: request rendering and strict validation.

pub mod render;
pub mod validate;
