//! AWS Bedrock Converse / ConverseStream: request rendering, stream decoding, the relay's
//! answers, the importer and strict validation (`../shared/research/hosts.md` §1).

pub(crate) mod decode;
pub(crate) mod read;
pub(crate) mod relay;
pub(crate) mod render;
pub mod validate;
