//! Tool-call id helpers: the same projection a render applies, for ids the caller handles
//! itself (for example to match a streamed reply's calls).

use serde::Deserialize;
use tsify::{Ts, Tsify};
use wasm_bindgen::prelude::*;

use super::{args, json_of};
use crate::error::{Error, ErrorCode};
use crate::ids::{IdFormat as CoreIdFormat, IdProjector};

/// A provider's tool-call id format: `"openai"` (`call_…` ≤ 40), `"anthropic"` (`toolu_…`),
/// `"responses"` (`call_…` ≤ 64), `"kimi"` (`functions.{name}:{index}`), `"mistral"` (9
/// alphanumerics), or a generic OpenAI-compatible server's `{ compat: { maxLen, alphanumeric } }`.
#[derive(Debug, Clone, Copy, Deserialize, Tsify)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub enum IdFormat {
    /// OpenAI Chat Completions.
    #[serde(rename = "openai")]
    OpenAi,
    /// Anthropic Messages.
    Anthropic,
    /// OpenAI Responses `call_id`.
    Responses,
    /// Kimi / Moonshot.
    Kimi,
    /// Mistral.
    Mistral,
    /// A generic OpenAI-compatible server.
    Compat {
        /// The longest id the server takes (9 to 255).
        #[serde(rename = "maxLen")]
        max_len: u32,
        /// Only ASCII letters and digits.
        #[serde(default)]
        alphanumeric: bool,
    },
}

/// One call for `projectToolIds`: its canonical id and its tool name (Kimi ids contain it).
#[derive(Debug, Clone, Deserialize, Tsify)]
#[serde(deny_unknown_fields)]
pub struct ToolCallRef {
    /// The canonical call id.
    pub id: String,
    /// The call's tool name.
    #[serde(default)]
    #[tsify(optional)]
    pub name: Option<String>,
}

fn read_format(format: &Ts<IdFormat>) -> Result<CoreIdFormat, Error> {
    let spec: IdFormat = serde_json::from_value(json_of(&format.js_value(), "the id format")?)
        .map_err(|e| {
            Error::new(
                ErrorCode::InvalidValue,
                "$",
                format!("invalid id format: {e}"),
            )
        })?;
    Ok(match spec {
        IdFormat::OpenAi => CoreIdFormat::OpenAi,
        IdFormat::Anthropic => CoreIdFormat::Anthropic,
        IdFormat::Responses => CoreIdFormat::Responses,
        IdFormat::Kimi => CoreIdFormat::Kimi,
        IdFormat::Mistral => CoreIdFormat::Mistral,
        IdFormat::Compat {
            max_len,
            alphanumeric,
        } => match u8::try_from(max_len) {
            Ok(max_len) if max_len >= 9 => CoreIdFormat::Compat {
                max_len,
                alphanumeric,
            },
            _ => {
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    "$.compat.maxLen",
                    format!("maxLen must be between 9 and 255, got {max_len}"),
                ))
            }
        },
    })
}

/// The provider id of one call (its canonical `id`, its `tool` name), as the first call of a
/// conversation would get it.
///
/// @example
/// ```ts
/// projectToolId("anthropic", "call_abc123", "read_file"); // "toolu_abc123"
/// ```
#[wasm_bindgen(js_name = projectToolId)]
pub fn project_tool_id(
    format: Ts<IdFormat>,
    #[wasm_bindgen(unchecked_param_type = "string")] id: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] tool: Option<JsValue>,
) -> Result<String, JsValue> {
    let id = args::string(id, "id")?;
    let tool = args::optional_string(tool, "tool")?;
    let mut projector = IdProjector::new(read_format(&format)?);
    Ok(projector.project(&id, tool.as_deref().unwrap_or_default()))
}

/// The ids of a conversation's calls, given in conversation order: what a render sends for
/// them (deterministic, injective, and an id never changes as the conversation grows).
///
/// @example
/// ```ts
/// projectToolIds("mistral", [{ id: "hist_tool_1", name: "grep" }, { id: "hist_tool_2" }]);
/// ```
#[wasm_bindgen(js_name = projectToolIds)]
pub fn project_tool_ids(
    format: Ts<IdFormat>,
    #[wasm_bindgen(unchecked_param_type = "ToolCallRef[]")] calls: &JsValue,
) -> Result<Vec<String>, JsValue> {
    let mut projector = IdProjector::new(read_format(&format)?);
    let calls: Vec<ToolCallRef> =
        serde_json::from_value(json_of(calls, "the calls")?).map_err(|e| {
            Error::new(
                ErrorCode::InvalidValue,
                "$",
                format!("calls must be an array of {{id, name?}} objects: {e}"),
            )
        })?;
    Ok(calls
        .iter()
        .map(|c| projector.project(&c.id, c.name.as_deref().unwrap_or_default()))
        .collect())
}

/// Whether `id` is lexically valid for `format` (prefix, characters, length).
///
/// @example
/// ```ts
/// isValidToolId("openai", "call_abc123"); // true
/// ```
#[wasm_bindgen(js_name = isValidToolId)]
pub fn is_valid_tool_id(
    format: Ts<IdFormat>,
    #[wasm_bindgen(unchecked_param_type = "string")] id: &JsValue,
) -> Result<bool, JsValue> {
    let id = args::string(id, "id")?;
    Ok(read_format(&format)?.is_valid(&id))
}
