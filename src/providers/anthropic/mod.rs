//! Anthropic Messages API: request rendering and strict validation.

pub mod validate;
