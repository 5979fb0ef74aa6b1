//! The importers in JavaScript: `fromRequestBody`, `fromAnthropic`, `fromOpenAIChat`,
//! `fromResponsesInput`, `fromGemini` and `fromAiSdk` (see `crate::import`), and the AI SDK
//! exporter `toAiSdk` and `repairModelMessages` (see `crate::export`).

use serde_json::{Map, Value};
use wasm_bindgen::prelude::*;

use super::args::read_provider;
use super::validate::read_body;
use super::{json_of, to_js};
use crate::error::{Error, ErrorCode};
use crate::import::{self, ImportSource, Imported};
use crate::render::IdMap;
use crate::vocab::Provider;

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
    /** The host that served them (`"bedrock"`, `"vertex"`, `"deepseek"`…); when absent, a body's `anthropic_version` says it. */
    host?: Host;
    /** The account that served them, as you name it (an opaque label, never a key). */
    account?: string;
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
    let body = read_json_body(body)?;
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
/// A request body given as an object, JSON text or bytes, parsed.
pub(super) fn read_json_body(body: &JsValue) -> Result<Value, Error> {
    let bytes = read_body(body)?;
    let text = String::from_utf8_lossy(&bytes);
    Ok(crate::json::parse(&text, "$", "the request body")?.value)
}

fn optional_value(value: Option<JsValue>, what: &str) -> Result<Option<Value>, Error> {
    match value {
        Some(v) if !v.is_undefined() && !v.is_null() => Ok(Some(json_of(&v, what)?)),
        _ => Ok(None),
    }
}

/// `{provider?, model?, endpoint?, host?, account?}`.
pub(super) fn read_source(
    value: Option<JsValue>,
) -> Result<(Option<Provider>, ImportSource), Error> {
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
            host: text("host")?.map(|h| h.parse()).transpose()?,
            account: text("account")?,
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
    let diagnostics = diagnostics_value(&imported.diagnostics)?;
    o.insert("diagnostics".into(), diagnostics);
    to_js(&Value::Object(o))
}

/// Reads AI SDK `ModelMessage[]` (ai v5–v7) into `{ transcript, diagnostics }`: continuity from
/// each part's `providerOptions` (`anthropic.signature` / `redactedData`, `openai.itemId` +
/// `reasoningEncryptedContent`, `google.thoughtSignature`). `source.provider` and `source.model`
/// say who wrote the assistant turns (the AI SDK does not store it).
///
/// @example
/// ```ts
/// const { transcript } = fromAiSdk(result.response.messages, { provider: "anthropic", model: "claude-sonnet-4-5" });
/// ```
#[wasm_bindgen(js_name = fromAiSdk, unchecked_return_type = "Imported")]
pub fn from_ai_sdk(
    #[wasm_bindgen(unchecked_param_type = "unknown[]")] messages: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let messages = json_of(messages, "the messages")?;
    let (provider, source) = read_source(source)?;
    Ok(result(import::from_ai_sdk(&messages, provider, &source)?)?)
}

/// Writes a transcript as AI SDK `ModelMessage[]`, continuity tokens under the
/// `providerOptions` keys the `@ai-sdk/*` providers read back. Returns `{ messages,
/// diagnostics }` (blocks the shape has no place for). It writes what is there: use
/// `repairModelMessages`, or `normalize` first, for a history the AI SDK accepts.
///
/// @example
/// ```ts
/// const { messages } = toAiSdk(conversation.toJSON());
/// ```
#[wasm_bindgen(js_name = toAiSdk, unchecked_return_type = "{ messages: unknown[]; diagnostics: Diagnostic[] }")]
pub fn to_ai_sdk(transcript: &super::types::TranscriptInput) -> Result<JsValue, JsValue> {
    let t = super::read_transcript(transcript)?;
    Ok(exported(crate::export::to_ai_sdk(&t))?)
}

/// Repairs AI SDK `ModelMessage[]` for `options.provider` and `options.model` as a render would
/// (every tool call answered before the next user turn, so the AI SDK's
/// `MissingToolResultsError` cannot fire; continuity the model cannot replay dropped or turned
/// into text; system messages first; call ids in the target's format, `idMap` mapping the
/// input's to them; tool names `options.tools` declares that the target refuses renamed,
/// `toolNames` mapping them) and returns `{ messages, diagnostics, idMap, toolNames }` to pass
/// to `generateText` / `streamText`.
///
/// @example
/// ```ts
/// const { messages: repaired } = repairModelMessages(messages, { provider: "openai-chat", model: "gpt-5.2" });
/// await generateText({ model: openai.chat("gpt-5.2"), messages: repaired, allowSystemInMessages: true });
/// ```
#[wasm_bindgen(js_name = repairModelMessages, unchecked_return_type = "{ messages: unknown[]; diagnostics: Diagnostic[]; idMap?: Record<string, string>; toolNames?: Record<string, string> }")]
pub fn repair_model_messages(
    #[wasm_bindgen(unchecked_param_type = "unknown[]")] messages: &JsValue,
    options: tsify::Ts<crate::request::RenderOptions>,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let messages = json_of(messages, "the messages")?;
    let options = super::read_options(&options.js_value())?;
    let (_, source) = read_source(source)?;
    Ok(exported(crate::export::repair_model_messages(
        &messages, &options, &source,
    )?)?)
}

/// `{messages, diagnostics}` as plain JavaScript data.
fn exported(out: crate::export::Exported) -> Result<JsValue, Error> {
    let diagnostics = diagnostics_value(&out.diagnostics)?;
    let mut o = Map::new();
    o.insert("messages".into(), Value::Array(out.messages));
    o.insert("diagnostics".into(), diagnostics);
    for (key, pairs) in [("idMap", out.id_map), ("toolNames", out.tool_names)] {
        if !pairs.is_empty() {
            o.insert(
                key.into(),
                serde_json::to_value(IdMap(pairs)).unwrap_or_default(),
            );
        }
    }
    to_js(&Value::Object(o))
}

/// Reads a pi-ai `Context` (`systemPrompt`, `messages`, `tools`) or its messages into
/// `{ transcript, diagnostics }`: each assistant message's `provider` / `api` / `model` becomes
/// its provenance, and its signature fields are read as that `api` writes them.
///
/// @example
/// ```ts
/// const { transcript } = fromPiAi(context);
/// ```
#[wasm_bindgen(js_name = fromPiAi, unchecked_return_type = "Imported")]
pub fn from_pi_ai(
    #[wasm_bindgen(unchecked_param_type = "JsonObject | unknown[]")] context: &JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "ImportSource")] source: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let context = json_of(context, "the context")?;
    let (_, source) = read_source(source)?;
    Ok(result(import::from_pi_ai(&context, &source)?)?)
}

/// Writes a transcript as a pi-ai `Context` (`{ context, diagnostics }`): assistant messages
/// name their `provider`, `api` and `model` as pi-ai spells them, signatures sit where that
/// `api` reads them. Media other than base64 images has no pi-ai part and is reported.
///
/// @example
/// ```ts
/// const { context } = toPiAi(conversation.toJSON());
/// ```
#[wasm_bindgen(js_name = toPiAi, unchecked_return_type = "{ context: JsonObject; diagnostics: Diagnostic[] }")]
pub fn to_pi_ai(transcript: &super::types::TranscriptInput) -> Result<JsValue, JsValue> {
    let t = super::read_transcript(transcript)?;
    let out = crate::export::to_pi_ai(&t);
    let diagnostics = diagnostics_value(&out.diagnostics)?;
    let mut o = Map::new();
    o.insert("context".into(), out.context);
    o.insert("diagnostics".into(), diagnostics);
    Ok(to_js(&Value::Object(o))?)
}

/// Diagnostics as a JSON value.
pub(super) fn diagnostics_value(d: &[crate::vocab::Diagnostic]) -> Result<Value, Error> {
    serde_json::to_value(d).map_err(|e| {
        Error::new(
            ErrorCode::InvalidValue,
            "$",
            format!("the diagnostics could not be written: {e}"),
        )
    })
}
