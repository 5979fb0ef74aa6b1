//! Google Gemini generateContent (Google AI and Vertex AI): request rendering and strict
//! validation of request bodies.

pub(crate) mod render;
pub mod validate;
