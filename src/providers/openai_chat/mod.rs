//! OpenAI Chat Completions: request rendering and strict validation.

pub mod validate;
