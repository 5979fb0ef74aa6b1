//! Token-counting requests: the body a provider's counting endpoint takes for the request a
//! render would send, so that a caller can ask the provider how many input tokens a turn costs
//! before sending it (or to decide when to compact).
//!
//! - Anthropic `POST /v1/messages/count_tokens`: the Messages body without what only shapes the
//!   answer (`max_tokens`, `stop_sequences`, sampling).
//! - OpenAI Responses `POST /responses/input_tokens`: the Responses body without `store`,
//!   `include`, `max_output_tokens`, `prompt_cache_key` and sampling.
//! - Gemini `POST /v1beta/models/{model}:countTokens`: the whole generateContent body as
//!   `generateContentRequest`, with its `model` (`models/{model}`), so that the system
//!   instruction and the tools are counted too.
//!
//! The other targets have no counting endpoint turnwire knows of: an `unsupported_option` error
//! names `$.provider`. A field given through `extra` that the endpoint does not take is left out
//! with a `request_field_dropped` diagnostic. The context window to compare the count with is
//! [`crate::context_window`].

use serde_json::{Map, Value};

use super::{render, RenderOptions, Rendered};
use crate::error::{Error, ErrorCode};
use crate::model::Transcript;
use crate::vocab::{Diagnostic, DiagnosticCode};
use crate::vocab::{Provider, TokenCounting};

/// The token-counting request for what [`render`] would send: its body, with the render's id
/// map, tool names and diagnostics.
///
/// ```
/// use turnwire::{render_count_tokens, Provider, RenderOptions, Transcript};
/// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// let out = render_count_tokens(&t, &RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"))?;
/// assert!(out.body.get("max_tokens").is_none());
/// assert_eq!(out.body["messages"][0]["role"], "user");
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn render_count_tokens(
    transcript: &Transcript,
    options: &RenderOptions,
) -> Result<Rendered, Error> {
    let Some(counting) = options.provider.token_counting() else {
        return Err(Error::new(
            ErrorCode::UnsupportedOption,
            "$.provider",
            format!("`{}` has no token-counting endpoint turnwire knows of (Anthropic, OpenAI Responses and Gemini have one)", options.provider),
        ));
    };
    let mut out = render(transcript, options)?;
    let Value::Object(body) = std::mem::take(&mut out.body) else {
        return Err(Error::new(
            ErrorCode::InvalidValue,
            "$",
            "a rendered body is a JSON object",
        ));
    };
    out.body = match counting {
        TokenCounting::GenerateContentRequest => {
            let mut request = Map::new();
            request.insert(
                "model".into(),
                format!("models/{}", options.model.trim_start_matches("models/")).into(),
            );
            request.extend(body);
            let mut wrapped = Map::new();
            wrapped.insert("generateContentRequest".into(), Value::Object(request));
            Value::Object(wrapped)
        }
        TokenCounting::Members(keeps) => {
            let mut kept = Map::new();
            for (k, v) in body {
                if keeps.contains(&k.as_str()) {
                    kept.insert(k, v);
                } else if options.extra.contains_key(&k) {
                    out.diagnostics.push(dropped(&k, options.provider));
                }
            }
            Value::Object(kept)
        }
    };
    Ok(out)
}

fn dropped(key: &str, provider: Provider) -> Diagnostic {
    crate::request::note(
        DiagnosticCode::RequestFieldDropped,
        format!("`{key}` is not a field of {provider}'s token-counting request; left out"),
    )
    .at_path(format!("$.extra.{key}"))
}
