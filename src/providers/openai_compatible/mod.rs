//! Other OpenAI-compatible chat servers (Groq, xAI, OpenRouter, Ollama's `/v1`, vLLM, ...):
//! strict validation with a configurable profile of what the server accepts. Also home of the
//! read-only body view the Mistral, Kimi and DeepSeek validators share.

pub mod validate;
