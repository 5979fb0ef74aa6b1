//! Request controls every agent sends: which tool the model may or must call (`toolChoice`)
//! and where it stops (`stopSequences`), checked against the options and resolved once per
//! render into what the body is sent with.
//!
//! What a provider refuses is repaired here, with a diagnostic, where a repair keeps the
//! caller's intent; what cannot be honoured at all is an error naming the option:
//! - a forced choice (`required`, a named tool) with no declared tools, or naming an undeclared
//!   tool, is an `invalid_value` error (nothing could satisfy it);
//! - a forced choice with thinking on, which Anthropic (ANT-36), Kimi (KIM-09) and DeepSeek
//!   (DSK-07) refuse, runs the request with thinking off (`thinking_disabled_for_request`);
//!   a model that always thinks (deepseek-reasoner, kimi-k2-thinking) gets `auto` instead
//!   (`tool_choice_lowered`);
//! - stop sequences a provider does not take (empty, whitespace-only for Anthropic, beyond its
//!   count or length limit, any on OpenAI Responses or on OpenAI reasoning models) are left out
//!   (`stop_sequences_adjusted`).

use std::fmt;

use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::Value;

use super::options::{RenderOptions, ThinkingOptions};
use super::response_format::ResponseFormat;
use crate::error::{Error, ErrorCode};
use crate::hosts::{HostRow, Refusal};
use crate::models::{ModelCaps, ReasoningField};
use crate::vocab::Provider;
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// Which tools the model may or must call: `"auto"` (it decides), `"none"` (no tool),
/// `"required"` (some tool), or `{"name": "read_file"}` (that tool).
///
/// ```
/// use turnwire::ToolChoice;
/// let c: ToolChoice = serde_json::from_str(r#"{"name": "read_file"}"#)?;
/// assert_eq!(c, ToolChoice::Tool("read_file".into()));
/// assert_eq!(serde_json::to_string(&ToolChoice::Required)?, r#""required""#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolChoice {
    /// The model decides (the providers' default when tools are declared).
    Auto,
    /// The model calls no tool.
    None,
    /// The model calls at least one tool.
    Required,
    /// The model calls this tool (its declared name).
    Tool(String),
}

impl ToolChoice {
    /// Whether the model must call a tool.
    pub fn forces_a_call(&self) -> bool {
        matches!(self, ToolChoice::Required | ToolChoice::Tool(_))
    }
}

impl fmt::Display for ToolChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ToolChoice::Auto => f.write_str("`auto`"),
            ToolChoice::None => f.write_str("`none`"),
            ToolChoice::Required => f.write_str("`required`"),
            ToolChoice::Tool(name) => write!(f, "the tool `{name}`"),
        }
    }
}

impl Serialize for ToolChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            ToolChoice::Auto => s.serialize_str("auto"),
            ToolChoice::None => s.serialize_str("none"),
            ToolChoice::Required => s.serialize_str("required"),
            ToolChoice::Tool(name) => {
                use serde::ser::SerializeMap;
                let mut m = s.serialize_map(Some(1))?;
                m.serialize_entry("name", name)?;
                m.end()
            }
        }
    }
}

impl<'de> Deserialize<'de> for ToolChoice {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        const EXPECTED: &str =
            "toolChoice must be \"auto\", \"none\", \"required\" or {\"name\": \"<a declared tool>\"}";
        match Value::deserialize(d)? {
            Value::String(s) => match s.as_str() {
                "auto" => Ok(ToolChoice::Auto),
                "none" => Ok(ToolChoice::None),
                "required" => Ok(ToolChoice::Required),
                other => Err(de::Error::custom(format!("{EXPECTED}, found \"{other}\""))),
            },
            Value::Object(mut o) => match (o.remove("name"), o.is_empty()) {
                (Some(Value::String(name)), true) if !name.is_empty() => Ok(ToolChoice::Tool(name)),
                _ => Err(de::Error::custom(EXPECTED)),
            },
            _ => Err(de::Error::custom(EXPECTED)),
        }
    }
}

/// The controls a request is sent with, after the checks and repairs above.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Controls {
    /// The tool choice to send (`None`: leave the field out).
    pub tool_choice: Option<ToolChoice>,
    /// The stop sequences to send (empty: leave the field out).
    pub stop: Vec<String>,
    /// The thinking setting the request is sent with when the tool choice changed it.
    pub thinking: Option<ThinkingOptions>,
    /// The structured output format to send.
    pub response_format: Option<ResponseFormat>,
    /// Gemini 2.x takes no function calls in a request with structured output (GEM-15): its
    /// `toolConfig` says `NONE` whenever the body declares functions.
    pub no_calls_with_json: bool,
    /// What was repaired, as diagnostics.
    pub notes: Vec<Diagnostic>,
}

/// A diagnostic of a repaired request control.
pub(crate) fn note(code: DiagnosticCode, message: String) -> Diagnostic {
    Diagnostic::new(code, FaultClass::ProviderProjection, message)
}

impl RenderOptions {
    /// Checks `toolChoice` and `stopSequences` and resolves what the request is sent with on
    /// `host` (`None`: the provider's own API).
    pub(crate) fn controls(
        &self,
        caps: ModelCaps,
        host: Option<&HostRow>,
    ) -> Result<Controls, Error> {
        let mut notes = Vec::new();
        let mut c = Controls {
            tool_choice: self.tool_choice.clone(),
            stop: self.stop_sequences(caps, &mut notes),
            thinking: None,
            response_format: None,
            no_calls_with_json: false,
            notes,
        };
        self.settle_response_format(&mut c)?;
        let Some(choice) = &self.tool_choice else {
            return Ok(c);
        };
        if choice.forces_a_call() && self.tools.is_empty() {
            return Err(Error::new(
                ErrorCode::InvalidValue,
                "$.toolChoice",
                format!("toolChoice asks for {choice}, but `tools` declares none"),
            ));
        }
        if let ToolChoice::Tool(name) = choice {
            if !self.tools.iter().any(|t| &t.name == name) {
                let declared: Vec<&str> = self.tools.iter().map(|t| t.name.as_str()).collect();
                return Err(Error::new(
                    ErrorCode::InvalidValue,
                    "$.toolChoice.name",
                    format!(
                        "toolChoice names `{name}`, which `tools` does not declare (declared: {})",
                        declared.join(", ")
                    ),
                ));
            }
        }
        if let Some(row) = host.filter(|r| r.refuses.contains(&Refusal::ToolChoiceAutoAny)) {
            if matches!(choice, ToolChoice::Auto | ToolChoice::Required) {
                c.tool_choice = None;
                c.notes.push(note(
                    DiagnosticCode::FeatureUnavailable,
                    format!(
                        "{}'s Anthropic-compatible endpoint refuses `tool_choice` `{}` (HST-02); it was left out{}",
                        row.host,
                        if *choice == ToolChoice::Auto { "auto" } else { "any" },
                        if *choice == ToolChoice::Auto { " (auto is the default)" } else { ": the model may answer without a tool call" }
                    ),
                ));
                return Ok(c);
            }
        }
        if choice.forces_a_call() && !caps.forced_tool_choice {
            // ANT-45: Fable 5.1 and Mythos 5.1 take no forced choice at all
            c.tool_choice = Some(ToolChoice::Auto);
            c.notes.push(note(
                DiagnosticCode::ToolChoiceLowered,
                format!("{} takes no forced tool choice (ANT-45: `tool_choice: type \"tool\" and \"any\" are not supported for this model.`); toolChoice {choice} was sent as `auto`", self.model),
            ));
            return Ok(c);
        }
        if choice.forces_a_call() {
            self.settle_thinking(choice, caps, &mut c);
        }
        Ok(c)
    }

    /// A forced choice where the provider refuses it with thinking on: thinking off for this
    /// request, or `auto` where the model always thinks.
    fn settle_thinking(&self, choice: &ToolChoice, caps: ModelCaps, c: &mut Controls) {
        let Some((rule, provider)) = self.provider.forced_choice_with_thinking() else {
            return;
        };
        let always = crate::models::always_thinks(self.provider, &self.model);
        let thinks = always
            || if self.provider == Provider::Anthropic {
                self.thinking_enabled()
            } else {
                match &self.thinking {
                    Some(t) => t.enabled,
                    // Kimi and DeepSeek thinking models think unless told not to.
                    None => caps.reasoning_field == ReasoningField::RequiredOnToolTurns,
                }
            };
        if !thinks {
            return;
        }
        if always {
            c.tool_choice = Some(ToolChoice::Auto);
            c.notes.push(note(
                DiagnosticCode::ToolChoiceLowered,
                format!("{} always thinks and {provider} refuses a forced tool choice with thinking ({rule}); toolChoice {choice} was sent as `auto`", self.model),
            ));
            return;
        }
        c.thinking = Some(ThinkingOptions {
            enabled: false,
            budget_tokens: None,
            effort: None,
            summary: None,
        });
        c.notes.push(note(
            DiagnosticCode::ThinkingDisabledForRequest,
            format!("toolChoice asks for {choice} and {provider} refuses a forced tool choice with thinking on ({rule}); this request runs with thinking off"),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::models;
    use crate::request::ToolDeclaration;
    use serde_json::json;

    fn options(provider: Provider, model: &str) -> RenderOptions {
        let mut o = RenderOptions::new(provider, model);
        o.tools = vec![ToolDeclaration::new(
            "read_file",
            "Read",
            json!({"type": "object"}),
        )];
        o
    }

    fn controls(o: &RenderOptions) -> Result<Controls, Error> {
        o.controls(models::capabilities_or_defaults(o.provider, &o.model), None)
    }

    #[test]
    fn tool_choice_reads_its_four_forms_and_refuses_others_with_the_expected_forms() {
        for (text, want) in [
            (r#""auto""#, ToolChoice::Auto),
            (r#""none""#, ToolChoice::None),
            (r#""required""#, ToolChoice::Required),
            (r#"{"name":"f"}"#, ToolChoice::Tool("f".into())),
        ] {
            let c: ToolChoice = serde_json::from_str(text).expect(text);
            assert_eq!(c, want);
            assert_eq!(serde_json::to_string(&c).ok().as_deref(), Some(text));
        }
        for bad in [
            r#""any""#,
            r#"{"name":""}"#,
            r#"{"name":"f","x":1}"#,
            "3",
            r#"{"type":"tool"}"#,
        ] {
            let e = serde_json::from_str::<ToolChoice>(bad)
                .expect_err(bad)
                .to_string();
            assert!(e.starts_with("toolChoice must be"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_forced_choice_needs_declared_tools_and_a_declared_name() {
        let mut o = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
        o.tool_choice = Some(ToolChoice::Required);
        let e = controls(&o).expect_err("no tools");
        assert_eq!(
            (e.code(), e.path()),
            (ErrorCode::InvalidValue, "$.toolChoice")
        );
        o.tool_choice = Some(ToolChoice::Auto);
        assert!(controls(&o).is_ok(), "auto needs no tools");
        let mut o = options(Provider::Gemini, "gemini-2.5-pro");
        o.tool_choice = Some(ToolChoice::Tool("write_file".into()));
        let e = controls(&o).expect_err("undeclared");
        assert_eq!(e.path(), "$.toolChoice.name");
        assert!(
            e.message().contains("declared: read_file"),
            "{}",
            e.message()
        );
    }

    #[test]
    fn a_forced_choice_turns_thinking_off_where_the_provider_refuses_both() {
        let on = Some(ThinkingOptions {
            enabled: true,
            budget_tokens: None,
            effort: None,
            summary: None,
        });
        for (provider, model, thinking, off) in [
            (Provider::Anthropic, "claude-sonnet-4-5", on.clone(), true),
            (Provider::Anthropic, "claude-sonnet-4-5", None, false),
            (Provider::Kimi, "kimi-k2.6", None, true),
            (Provider::Kimi, "kimi-k2-0905-preview", None, false),
            (Provider::DeepSeek, "deepseek-v4-pro", None, true),
            (Provider::DeepSeek, "deepseek-chat", None, false),
            (Provider::DeepSeek, "deepseek-chat", on.clone(), true),
            (Provider::OpenAiChat, "gpt-5.2", on.clone(), false),
        ] {
            let mut o = options(provider, model);
            o.thinking = thinking;
            o.tool_choice = Some(ToolChoice::Required);
            let c = controls(&o).expect("resolves");
            assert_eq!(c.thinking.is_some(), off, "{provider} {model}");
            assert_eq!(c.tool_choice, Some(ToolChoice::Required));
            assert_eq!(c.notes.len(), usize::from(off), "{provider} {model}");
        }
        for (provider, model) in [
            (Provider::DeepSeek, "deepseek-reasoner"),
            (Provider::Kimi, "kimi-k2-thinking"),
        ] {
            let mut o = options(provider, model);
            o.tool_choice = Some(ToolChoice::Tool("read_file".into()));
            let c = controls(&o).expect("resolves");
            assert_eq!(c.tool_choice, Some(ToolChoice::Auto), "{model}");
            assert_eq!(c.notes[0].code, DiagnosticCode::ToolChoiceLowered);
        }
    }

    #[test]
    fn stop_sequences_keep_what_each_provider_takes_and_say_what_they_left_out() {
        let five: Vec<String> = ["a", "b", "", "c", "d", "e", "a"]
            .map(String::from)
            .to_vec();
        for (provider, model, kept) in [
            (Provider::Anthropic, "claude-sonnet-4-5", 5),
            (Provider::OpenAiChat, "gpt-4.1", 4),
            (Provider::OpenAiChat, "o3", 0),
            (Provider::OpenAiResponses, "gpt-5.2", 0),
            (Provider::Gemini, "gemini-2.5-pro", 5),
            (Provider::Kimi, "kimi-k2-thinking", 5),
            (Provider::DeepSeek, "deepseek-chat", 5),
            (Provider::Mistral, "mistral-large-latest", 4),
        ] {
            let mut o = options(provider, model);
            o.stop_sequences = five.clone();
            let c = controls(&o).expect("resolves");
            assert_eq!(c.stop.len(), kept, "{provider} {model}");
            assert!(!c.notes.is_empty(), "{provider}: the empty one at least");
        }
        let mut o = options(Provider::Anthropic, "claude-sonnet-4-5");
        o.stop_sequences = vec!["\n".into(), "END".into()];
        let c = controls(&o).expect("resolves");
        assert_eq!(c.stop, ["END"]);
        assert_eq!(c.notes[0].path.as_deref(), Some("$.stopSequences[0]"));
        let mut o = options(Provider::Kimi, "kimi-k2-thinking");
        o.stop_sequences = vec!["x".repeat(33), "ok".into()];
        assert_eq!(controls(&o).expect("resolves").stop, ["ok"]);
    }
}
