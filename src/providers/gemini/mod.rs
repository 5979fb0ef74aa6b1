//! Google Gemini generateContent (Google AI and Vertex AI): strict validation of request bodies.

pub mod validate;
