//! The importers in JavaScript: `fromRequestBody`, `fromAnthropic`, `fromOpenAIChat`,
//! `fromResponsesInput` and `fromGemini` (see `crate::import`).

use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::validate::{read_body, read_provider};
use super::{json_of, to_js};
use crate::error::{Error, ErrorCode};
use crate::import::{self, ImportSource, Imported};
use crate::providers::Provider;

#[wasm_bindgen(typescript_custom_section)]
const TS_IMPORT: &'static str = r#"
/** Who wrote the assistant turns of an imported history, when the format does not say. */
export interface ImportSource {
    /** The chat dialect of `fromOpenAIChat` (default `"openai-chat"`). */
    provider?: Provider;
    /** The model of the assistant turns (a request body's own `model` otherwise; required for Gemini bodies). */
    model?: string;
    /** The base URL that served them. */
    endpoint?: string;
}

/** What an importer read. */
export interface Imported {
    /** The canonical transcript, continuity tokens typed with their provenance. */
    transcript: Transcript;
    /** The render options a request body implied (model, limits, tools, thinking, sampling, other fields as `extra`). */
    options?: RenderOptions;
    /** What the transcript could not carry as the input had it (`import_opaque`, `import_converted`), with JSON paths. */
    diagnostics: Diagnostic[];
}
"#;

/// Reads a request body turnwire renders for `provider`, or one another library built for that
/// API, back into `{ transcript, options, diagnostics }`: repair it and render it for any
/// provider. The body may be an object, JSON text or bytes.
///
/// @example
/// ```ts
/// const { transcript, options } = fromRequestBody("anthropic", bodyBuiltElsewhere);
/// const gemini = renderBody(transcript, { ...options, provider: "gemini", model: "gemini-2.5-pro" });
/// ```
#[wasm_bindgen(js_name = fromRequestBody, unchecked_return_type = "Imported")]
pub fn from_request_body(
    #[wasm_bindgen(unchecked_param_type = "Provider")] provider: &JsValue,
    #[wasm_bindgen(unchecked_param_type = "JsonObject | string | Uint8Array")] body: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let provider = read_provider(provider)?;
    let bytes = read_body(body)?;
    let text = String::from_utf8_lossy(&bytes);
    let body = crate::json::parse(&text, "$", "the request body")?.value;
    let (_, source) = read_source(source)?;
    Ok(result(import::from_request_body(
        provider, &body, &source,
    )?)?)
}

/// Reads Anthropic `messages` (and `system`) into `{ transcript, diagnostics }`.
///
/// @example
/// ```ts
/// const { transcript } = fromAnthropic(messages, system, { model: "claude-sonnet-4-5" });
/// ```
#[wasm_bindgen(js_name = fromAnthropic, unchecked_return_type = "Imported")]
pub fn from_anthropic(
    #[wasm_bindgen(unchecked_param_type = "unknown[]")] messages: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | unknown[] | null")] system: Option<
        JsValue,
    >,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let messages = json_of(messages, "the messages")?;
    let system = optional_value(system, "the system prompt")?;
    let (_, source) = read_source(source)?;
    Ok(result(import::from_anthropic(
        &messages,
        system.as_ref(),
        &source,
    )?)?)
}

/// Reads OpenAI Chat `messages` (any chat dialect: `source.provider`) into
/// `{ transcript, diagnostics }`.
///
/// @example
/// ```ts
/// const { transcript } = fromOpenAIChat(messages, { provider: "deepseek", model: "deepseek-reasoner" });
/// ```
#[wasm_bindgen(js_name = fromOpenAIChat, unchecked_return_type = "Imported")]
pub fn from_openai_chat(
    #[wasm_bindgen(unchecked_param_type = "unknown[]")] messages: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let messages = json_of(messages, "the messages")?;
    let (provider, source) = read_source(source)?;
    let provider = provider.unwrap_or(Provider::OpenAiChat);
    Ok(result(import::from_openai_chat(
        provider, &messages, &source,
    )?)?)
}

/// Reads OpenAI Responses `input` items (and `instructions`) into `{ transcript, diagnostics }`.
///
/// @example
/// ```ts
/// const { transcript } = fromResponsesInput(input, instructions, { model: "gpt-5.2" });
/// ```
#[wasm_bindgen(js_name = fromResponsesInput, unchecked_return_type = "Imported")]
pub fn from_responses_input(
    #[wasm_bindgen(unchecked_param_type = "string | unknown[]")] input: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "string | null")] instructions: Option<JsValue>,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let input = json_of(input, "the input")?;
    let instructions = optional_value(instructions, "the instructions")?;
    let (_, source) = read_source(source)?;
    Ok(result(import::from_responses_input(
        &input,
        instructions.as_ref(),
        &source,
    )?)?)
}

/// Reads Gemini `contents` (and `systemInstruction`) into `{ transcript, diagnostics }`.
///
/// @example
/// ```ts
/// const { transcript } = fromGemini(contents, systemInstruction, { model: "gemini-3-pro-preview" });
/// ```
#[wasm_bindgen(js_name = fromGemini, unchecked_return_type = "Imported")]
pub fn from_gemini(
    #[wasm_bindgen(unchecked_param_type = "unknown[]")] contents: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "JsonObject | null")] system_instruction: Option<
        JsValue,
    >,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let contents = json_of(contents, "the contents")?;
    let system = optional_value(system_instruction, "the system instruction")?;
    let (_, source) = read_source(source)?;
    Ok(result(import::from_gemini(
        &contents,
        system.as_ref(),
        &source,
    )?)?)
}

/// An optional argument: absent, `undefined` and `null` are none.
fn optional_value(value: Option<JsValue>, what: &str) -> Result<Option<Value>, Error> {
    match value {
        Some(v) if !v.is_undefined() && !v.is_null() => Ok(Some(json_of(&v, what)?)),
        _ => Ok(None),
    }
}

/// `{provider?, model?, endpoint?}`.
fn read_source(value: Option<JsValue>) -> Result<(Option<Provider>, ImportSource), Error> {
    let Some(Value::Object(o)) = optional_value(value, "the import source")? else {
        return Ok((None, ImportSource::default()));
    };
    let text = |key: &str| -> Result<Option<String>, Error> {
        match o.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(_) => Err(Error::new(
                ErrorCode::InvalidType,
                format!("$.{key}"),
                format!("the import source's `{key}` must be a string"),
            )),
        }
    };
    let provider = text("provider")?.map(|p| p.parse()).transpose()?;
    Ok((
        provider,
        ImportSource {
            model: text("model")?,
            endpoint: text("endpoint")?,
        },
    ))
}

/// `{transcript, options?, diagnostics}` as plain JavaScript data.
fn result(imported: Imported) -> Result<JsValue, Error> {
    let mut o = Map::new();
    o.insert("transcript".into(), imported.transcript.to_value());
    if let Some(options) = imported.options {
        let value = serde_json::to_value(&options).map_err(|e| {
            Error::new(
                ErrorCode::InvalidValue,
                "$",
                format!("the options could not be written: {e}"),
            )
        })?;
        o.insert("options".into(), value);
    }
    let diagnostics = serde_json::to_value(&imported.diagnostics).map_err(|e| {
        Error::new(
            ErrorCode::InvalidValue,
            "$",
            format!("the diagnostics could not be written: {e}"),
        )
    })?;
    o.insert("diagnostics".into(), diagnostics);
    to_js(&Value::Object(o))
}
