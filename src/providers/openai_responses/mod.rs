//! OpenAI Responses API: request rendering, stream decoding and strict validation.

pub(crate) mod decode;
pub(crate) mod native;
pub(crate) mod read;
pub(crate) mod relay;
pub(crate) mod render;
pub mod validate;
