//! The JavaScript binding (see `scripts/build-package.sh`), one crate for three modules:
//! `--features wasm` builds the main module (everything below); `wasm-render` the render module
//! of `turnwire/render` (rendering, normalising, `Conversation`, tool ids, memory, errors) and
//! `wasm-stream` the stream module it loads on the first streamed turn (`StreamDecoder`, memory,
//! errors). `wasm-bind` is what the three share.
//!
//! Everything here is a thin boundary over the core: values come in as JS values (converted to
//! `serde_json::Value` through `JSON.stringify`, so JavaScript sees exactly JSON semantics) or as
//! JSON text, go through the same readers as the Rust API and the command line, and come back
//! as plain JS objects (maps as plain objects, `null` kept as `null`). Every failure is a thrown
//! `TurnwireError` (`errors.rs`); nothing here panics, so a failed call leaves the module usable.
//! A caller's value is only looked at through `typeof` checks and the `catch` imports of
//! `guarded.rs`: a JS exception thrown through wasm would leave a `Conversation` borrowed for
//! good (see there).
//!
//! Exports (camelCase in JavaScript): `renderForProvider`, `renderBody`, `renderRequest`
//! (`render.rs`), the
//! importers `fromRequestBody`, `fromAnthropic`, `fromOpenAIChat`, `fromResponsesInput`,
//! `fromGemini`, `fromAiSdk`, `fromPiAi`, the exporters `toAiSdk`, `toPiAi` and
//! `repairModelMessages` (`import.rs`),
//! `normalize` (`normalize.rs`), `validateRequest` (`validate.rs`), `projectToolId`,
//! `projectToolIds`, `isValidToolId` (`ids.rs`), the `Conversation` class
//! (`conversation.rs`), the `StreamDecoder` class (`stream.rs`), `isTurnwireError`
//! (`errors.rs`), `setMemoryBudget` and `memoryStats` (`memory.rs`) and `wasmMemoryBytes`
//! (here). The hand-written TypeScript of the transcript
//! shape is in `types.rs`.

mod args;
#[cfg(feature = "wasm-render")]
mod bodies;
mod body_types;
#[cfg(feature = "wasm-render")]
mod compaction;
#[cfg(feature = "wasm-render")]
mod conversation;
#[cfg(feature = "wasm-render")]
mod conversation_edit;
mod errors;
mod guarded;
#[cfg(feature = "wasm-render")]
mod ids;
#[cfg(feature = "wasm")]
mod import;
mod memory;
#[cfg(feature = "wasm-render")]
mod normalize;
#[cfg(feature = "wasm")]
mod relay;
#[cfg(feature = "wasm-render")]
mod render;
#[cfg(feature = "wasm")]
mod request;
#[cfg(feature = "wasm-stream")]
mod stream;
mod text;
mod types;
#[cfg(feature = "wasm")]
mod validate;

#[cfg(feature = "wasm-render")]
pub use conversation::Conversation;
pub use errors::is_turnwire_error;
#[cfg(feature = "wasm-render")]
pub use ids::{is_valid_tool_id, project_tool_id, project_tool_ids, IdFormat, ToolCallRef};
#[cfg(feature = "wasm")]
pub use import::{
    from_ai_sdk, from_anthropic, from_gemini, from_openai_chat, from_pi_ai, from_request_body,
    from_responses_input, repair_model_messages, to_ai_sdk, to_pi_ai,
};
pub use memory::{memory_stats, set_memory_budget, MemoryStats};
#[cfg(feature = "wasm-render")]
pub use normalize::{normalize_js, NormalizeResult};
#[cfg(feature = "wasm-render")]
pub use render::{render_body, render_for_provider, render_request};
#[cfg(feature = "wasm-stream")]
pub use stream::StreamDecoder;
pub use types::{MessageInput, TranscriptInput};
#[cfg(feature = "wasm")]
pub use validate::validate_request_js;

use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::error::{Error, ErrorCode};
#[cfg(feature = "wasm-render")]
use crate::model::Transcript;
#[cfg(feature = "wasm-render")]
use crate::request::RenderOptions;

/// Converts a JS value to JSON as `JSON.stringify` would (`undefined` members left out, `toJSON`
/// honoured; a string is a JSON string, not JSON text), values JSON cannot carry converted and
/// unpaired surrogates replaced by U+FFFD. For small arguments (id formats, stream options);
/// `what` names the value in errors.
fn json_of(value: &JsValue, what: &str) -> Result<serde_json::Value, Error> {
    let text = text::stringify(value, what, "$")?.text;
    Ok(crate::json::parse(&text, "$", what)?.value)
}

#[cfg(feature = "wasm-render")]
/// Reads a transcript given as a JS value or as JSON text; conversions of values JSON cannot
/// carry join the transcript's read repairs.
fn read_transcript(value: &JsValue) -> Result<Transcript, Error> {
    read_transcript_sized(value).map(|(t, _)| t)
}

#[cfg(feature = "wasm-render")]
/// [`read_transcript`] with the length of the JSON text it was read from (a body written from
/// it is about as long, so a buffer of that size rarely has to grow).
fn read_transcript_sized(value: &JsValue) -> Result<(Transcript, usize), Error> {
    if let Some(text) = text::string_text(value) {
        return Ok((Transcript::from_json(&text)?, text.len()));
    }
    let converted = text::stringify(value, "the transcript", "$")?;
    let mut t = Transcript::from_json(&converted.text)?;
    crate::json::report::push_capped(&mut t.read_repairs, converted.repairs);
    Ok((t, converted.text.len()))
}

#[cfg(feature = "wasm-render")]
thread_local! {
    /// The last render options read, with their JSON text: an agent renders every turn with the
    /// same options, whose tool schemas can be tens of KB to parse again.
    static LAST_OPTIONS: std::cell::RefCell<Option<(String, std::rc::Rc<RenderOptions>)>> =
        const { std::cell::RefCell::new(None) };
}

#[cfg(feature = "wasm-render")]
/// Reads render options given as a JS object. Options whose JSON text is the last call's (and
/// that needed no conversion on the way) are that call's, read once.
fn read_options(value: &JsValue) -> Result<std::rc::Rc<RenderOptions>, Error> {
    if !value.is_object() {
        return Err(Error::new(
            ErrorCode::InvalidType,
            "$",
            format!(
                "render options must be an object like {{provider, model}}, found {}",
                errors::js_type_name(value)
            ),
        ));
    }
    let converted = text::stringify(value, "the render options", "$")?;
    let plain = converted.repairs.is_empty();
    if plain {
        let last = LAST_OPTIONS.with(|last| {
            last.borrow()
                .as_ref()
                .filter(|(text, _)| *text == converted.text)
                .map(|(_, options)| options.clone())
        });
        if let Some(options) = last {
            return Ok(options);
        }
    }
    let mut options = RenderOptions::from_json(&converted.text)?;
    crate::json::report::push_capped(&mut options.read_repairs, converted.repairs);
    let options = std::rc::Rc::new(options);
    if plain {
        LAST_OPTIONS.with(|last| *last.borrow_mut() = Some((converted.text, options.clone())));
    }
    Ok(options)
}

/// Serialises an output as plain JS data: maps as plain objects, `null` as `null`. It goes
/// through JSON text and the host's `JSON.parse`, which builds the objects faster than one
/// boundary call per value and keeps a per-type serialiser out of the `.wasm`. The text is
/// handed over in pure ASCII (`json::write` says why).
fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, Error> {
    let text = serde_json::to_string(value).map_err(|e| not_json(&e))?;
    parse_result(&text)
}

/// The error of a result that could not be written as JSON text.
fn not_json(e: &dyn std::fmt::Display) -> Error {
    Error::new(
        ErrorCode::InvalidValue,
        "$",
        format!("the result could not be converted to JSON: {e}"),
    )
}

/// The host's `JSON.parse` of a result's JSON text.
fn parse_result(text: &str) -> Result<JsValue, Error> {
    parse_ascii(&crate::json::write::ascii_escaped(text))
}

/// [`parse_result`] for text already in pure ASCII.
fn parse_ascii(text: &str) -> Result<JsValue, Error> {
    js_sys::JSON::parse(text).map_err(|e| {
        Error::new(
            ErrorCode::InvalidValue,
            "$",
            format!(
                "the result could not be converted to a JavaScript value: {}",
                errors::describe(&e)
            ),
        )
    })
}

#[cfg(feature = "wasm-stream")]
/// [`to_js`] for one large value (a stream's reply): its JSON text is measured first and written
/// into a buffer of exactly that size, so no doubling buffer holds up to twice the text.
fn to_js_exact(value: &serde_json::Value) -> Result<JsValue, Error> {
    let mut bytes = Vec::with_capacity(crate::json::write::written_len_ascii(value));
    crate::json::write::write_value_ascii(&mut bytes, value);
    let text = String::from_utf8(bytes).map_err(|e| not_json(&e))?;
    parse_ascii(&text)
}

/// The size of this module's WebAssembly memory in bytes. It grows when needed and never
/// shrinks; a value that stays put across many calls means nothing is leaking.
#[wasm_bindgen::prelude::wasm_bindgen(js_name = wasmMemoryBytes)]
pub fn wasm_memory_bytes() -> f64 {
    #[cfg(target_arch = "wasm32")]
    let pages = core::arch::wasm32::memory_size::<0>();
    #[cfg(not(target_arch = "wasm32"))]
    let pages = 0usize;
    // At most 65,536 pages of 64 KiB: exact in an f64.
    pages as f64 * 65_536.0
}

#[cfg(test)]
mod tests {
    use tsify::Tsify;

    use crate::error::ErrorCode;
    use crate::vocab::Provider;
    use crate::vocab::SyntheticReason;
    use crate::vocab::SyntheticReasonCode;

    /// The TypeScript unions written by hand name exactly the Rust values.
    #[test]
    fn hand_written_unions_match_the_rust_enums() {
        let names: Vec<String> = Provider::ALL
            .iter()
            .map(|p| format!("\"{}\"", p.as_str()))
            .collect();
        assert!(<Provider as Tsify>::DECL
            .ends_with(&format!("\nexport type Provider = {};", names.join(" | "))));
        let reasons: Vec<String> = [
            SyntheticReason::MissingResult,
            SyntheticReason::PendingResult,
            SyntheticReason::OpenAtEnd,
            SyntheticReason::ReconstructedCall,
            SyntheticReason::Compacted,
        ]
        .iter()
        .map(|r| format!("\"{}\"", r.as_str()))
        .collect();
        assert!(<SyntheticReasonCode as Tsify>::DECL.ends_with(&format!(
            "\nexport type SyntheticReasonCode = {};",
            reasons.join(" | ")
        )));
        // every variant: a new one fails to compile here until it is listed above
        for r in [
            SyntheticReason::MissingResult,
            SyntheticReason::PendingResult,
            SyntheticReason::OpenAtEnd,
            SyntheticReason::ReconstructedCall,
            SyntheticReason::Compacted,
        ] {
            match r {
                SyntheticReason::MissingResult
                | SyntheticReason::PendingResult
                | SyntheticReason::OpenAtEnd
                | SyntheticReason::ReconstructedCall
                | SyntheticReason::Compacted => {}
            }
        }
    }

    /// The derived `ErrorCode` union uses the stable strings.
    #[test]
    fn error_code_serialises_as_its_stable_string() {
        for code in [
            ErrorCode::InvalidJson,
            ErrorCode::InvalidType,
            ErrorCode::MissingField,
            ErrorCode::InvalidValue,
            ErrorCode::UnknownProvider,
            ErrorCode::UnsupportedProvider,
            ErrorCode::EmptyTranscript,
            ErrorCode::ReadFailed,
            ErrorCode::UnsupportedModel,
            ErrorCode::OutOfMemory,
            ErrorCode::OutOfRange,
            ErrorCode::UnsupportedOption,
            ErrorCode::Freed,
            ErrorCode::ReentrantCall,
        ] {
            let quoted = format!("\"{}\"", code.as_str());
            assert_eq!(serde_json::to_string(&code).ok(), Some(quoted.clone()));
            assert!(<ErrorCode as Tsify>::DECL.contains(&quoted), "{quoted}");
        }
    }
}
