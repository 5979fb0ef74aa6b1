//! OpenAI Chat Completions: request rendering and strict validation.

pub mod render;
pub mod validate;
