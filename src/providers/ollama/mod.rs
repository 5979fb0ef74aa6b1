//! Ollama's native chat API, `POST /api/chat` (`../shared/research/hosts.md` §2): request
//! rendering, NDJSON stream decoding, the relay's answers, the importer and strict validation
//! (OLL rules in `docs/provider-rules-added.md`).

pub(crate) mod decode;
pub(crate) mod read;
pub(crate) mod relay;
pub(crate) mod render;
mod thinking;
pub mod validate;
