//! OpenAI Responses API: strict validation of request bodies.

pub mod validate;
