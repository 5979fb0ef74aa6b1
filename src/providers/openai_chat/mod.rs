//! OpenAI Chat Completions: request rendering, stream decoding (also for the chat dialects:
//! Mistral, Kimi, DeepSeek, OpenAI-compatible servers) and strict validation.

pub(crate) mod decode;
pub(crate) mod read;
pub(crate) mod reasoning_details;
pub(crate) mod relay;
pub(crate) mod render;
pub(crate) mod thinking;
pub mod validate;
