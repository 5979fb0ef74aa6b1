//! OpenAI Responses API: request rendering and strict validation.

pub(crate) mod render;
pub mod validate;
