//! Reading a Converse request body back into a transcript (`fromRequestBody("bedrock-converse")`).
//!
//! Skeleton of issue 32: refused with `unsupported_provider` until the importer lands.

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::providers::read::{ImportSource, Imported};

/// A whole Converse body: its history and the options it implies.
pub(crate) fn from_body(
    body: &Map<String, Value>,
    source: &ImportSource,
) -> Result<Imported, Error> {
    let _ = (body, source);
    Err(Error::new(
        ErrorCode::UnsupportedProvider,
        "$",
        "this build does not import Bedrock Converse bodies yet",
    ))
}
