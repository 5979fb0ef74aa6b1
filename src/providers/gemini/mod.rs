//! Google Gemini generateContent (Google AI and Vertex AI): request rendering, stream
//! decoding and strict validation of request bodies.

pub(crate) mod decode;
pub(crate) mod render;
pub mod validate;

/// The media types Gemini 3 takes inside a function response (`functionResponse.parts[]
/// .inlineData`); others are refused ("the mime_type: audio/mpeg is not supported in
/// `function_response.parts`").
pub(crate) const FUNCTION_RESPONSE_MEDIA: [&str; 5] = [
    "image/png",
    "image/jpeg",
    "image/webp",
    "application/pdf",
    "text/plain",
];
