//! Kimi / Moonshot (OpenAI-compatible chat): strict request validation.

pub mod validate;
