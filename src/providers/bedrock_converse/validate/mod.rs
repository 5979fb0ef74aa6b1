//! Strict validator for Bedrock Converse request bodies (`../shared/research/hosts.md` §1.2,
//! `provider-rules.md` BDR rules), with AWS's `ValidationException` texts.
//!
//! Checked from one body:
//!
//! - `BDR-SCHEMA` `messages` is an array of `{role, content}`, the role `user` or `assistant`
//!   (a `system` role: `This model doesn't support system messages.`), the content an array of
//!   blocks that each hold exactly one member; no `model` or `stream` in the body [inferred].
//! - `BDR-01` every `toolUse` of an assistant turn has its `toolResult` in the next user turn:
//!   `Expected toolResult blocks at messages.N.content for the following Ids: …`.
//! - `BDR-03` `toolConfig` whenever the messages hold `toolUse` / `toolResult` blocks:
//!   `The toolConfig field must be defined when using toolUse and toolResult content blocks.`
//! - `BDR-04` no blank text, no empty content.
//! - `BDR-07` the first message is a user message; `BDR-08` the roles alternate.
//! - `BDR-09` every `toolResult` answers a `toolUse` of the previous assistant turn:
//!   `The number of toolResult blocks at messages.N.content exceeds the number of toolUse
//!   blocks of previous turn.`
//! - `BDR-02` ids, `BDR-05` an error result has content, `BDR-06` `json` results are objects,
//!   `BDR-10` results alone in their turn (Mistral, Meta: no text beside a `toolUse`), `BDR-11`
//!   unique ids, `BDR-13` object inputs, `BDR-14` signatures only for Claude, `BDR-15`
//!   reasoning only in assistant turns (Claude's signed, none for DeepSeek), `BDR-19` media,
//!   `BDR-20` `status` (`blocks`); `BDR-12` tool names (`tools`); `BDR-18` cache points
//!   (`cache`); `BDR-17` / `BDR-21` Claude's thinking and prefill rules behind `The model
//!   returned the following errors: ` (`claude`, the Anthropic validator on a Messages view).
//!
//! Texts no public 400 shows end with `[inferred]`.

mod blocks;
mod cache;
mod claude;
mod tools;
mod turns;

use serde_json::Value;

use crate::models::{bedrock_model, BedrockFamily};
use crate::providers::validate_support::{Findings, Path};
use crate::providers::Violation;

/// The prefix Bedrock puts before the errors Claude returns (aws/aws-sdk-java-v2#6277).
const CLAUDE_SAYS: &str = "The model returned the following errors: ";

/// The family of the URL's model, where it names one (an application inference profile or an
/// unknown vendor does not: only the family-independent rules hold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Family {
    Known(BedrockFamily),
    Unknown,
}

impl Family {
    fn of(model: Option<&str>) -> Family {
        match model.map(|m| bedrock_model(m).0) {
            Some(BedrockFamily::Other) | None => Family::Unknown,
            Some(f) => Family::Known(f),
        }
    }
}

/// Checks a Converse request body; `model` is the URL's model id where known (some rules
/// depend on the model's family). Returns the violations in document order.
///
/// ```
/// use turnwire::providers::bedrock_converse::validate::validate;
/// let body = serde_json::json!({"messages": [{"role": "assistant", "content": [{"text": "hi"}]}]});
/// assert!(validate(&body, None).iter().any(|v| v.rule == "BDR-07"));
/// ```
pub fn validate(body: &Value, model: Option<&str>) -> Vec<Violation> {
    let mut out = Findings::default();
    let family = Family::of(model);
    envelope(body, &mut out);
    turns::check(body, &mut out);
    blocks::check(body, family, &mut out);
    tools::check(body, &mut out);
    cache::check(body, family, &mut out);
    if let (Family::Known(BedrockFamily::Claude), Some(m)) = (family, model) {
        claude::check(body, &bedrock_model(m).1, &mut out);
    }
    out.finish(body)
}

/// [`validate`]'s rules on everything but `messages` (what `providerOptions` can change).
pub(crate) fn validate_envelope(body: &Value, model: Option<&str>) -> Vec<Violation> {
    let _ = model;
    let mut out = Findings::default();
    envelope(body, &mut out);
    out.finish(body)
}

/// `BDR-SCHEMA` on the envelope: the model and the stream are the URL's, never the body's.
fn envelope(body: &Value, out: &mut Findings) {
    let Some(obj) = body.as_object() else {
        out.push(
            "BDR-SCHEMA",
            Path::root(),
            "The request body must be a JSON object.",
        );
        return;
    };
    for (field, says) in [
        (
            "model",
            "the model id goes in the URL (`/model/{modelId}/converse`)",
        ),
        (
            "modelId",
            "the model id goes in the URL (`/model/{modelId}/converse`)",
        ),
        (
            "stream",
            "streaming is the `converse-stream` operation, not a body field",
        ),
    ] {
        if obj.contains_key(field) {
            out.push(
                "BDR-SCHEMA",
                Path::root().k(field),
                format!("Malformed input request: extraneous key [{field}] is not permitted: {says} [inferred]"),
            );
        }
    }
}
