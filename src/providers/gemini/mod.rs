//! Google Gemini generateContent (Google AI and Vertex AI): request rendering, stream
//! decoding and strict validation of request bodies.

mod call_ids;
pub(crate) use call_ids::minted_by_gemini;
pub(crate) mod decode;
pub(crate) mod read;
mod read_options;
pub(crate) mod relay;
pub(crate) mod render;
mod thinking;
pub mod validate;
