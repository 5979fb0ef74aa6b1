//! Bedrock ConverseStream decoding: the events inside the `application/vnd.amazon.eventstream`
//! frames (`streaming::event_stream` cuts them; `StreamDecoder::push_bytes` hands each one
//! here as `{"<:event-type>": payload}`, the shape the AWS SDKs yield and JSONL goldens hold).
//!
//! - `messageStart` (`role`);
//! - `contentBlockStart` with `start.toolUse {toolUseId, name}` (a call; other starts, such as
//!   server-tool results, are skipped with their deltas);
//! - `contentBlockDelta` at `contentBlockIndex`: `delta.text` (text blocks have no start
//!   event), `delta.toolUse.input` (the call's input as JSON text in pieces),
//!   `delta.reasoningContent.{text | signature | redactedContent}` (Claude's signed thinking,
//!   kept as an Anthropic signature, and its redacted thinking, kept byte for byte);
//! - `contentBlockStop` (a call's input is parsed here);
//! - `messageStop {stopReason}`: the turn is finished; the stream's last event is the
//!   `metadata` after it (`usage {inputTokens, outputTokens, totalTokens, cacheReadInputTokens,
//!   cacheWriteInputTokens}`; `inputTokens` excludes the cache reads and writes);
//! - the exceptions (`internalServerException`, `modelStreamErrorException`,
//!   `validationException`, `throttlingException`, `serviceUnavailableException`, any other
//!   `…Exception`): a provider error with the exception type and the payload's `message`,
//!   which ends the turn.
//!
//! A whole `ConverseResponse` (`output.message.content`, `stopReason`, `usage`) decodes as its
//! stream would.
//!
//! Ignored: the padding member `p` of every payload, `metrics`, `trace`, `citation` deltas and
//! other delta kinds added later. Any other event type is an `unknown_event_type` error.

use serde_json::{json, Value};

use crate::fast_map::HashSet;
use crate::model::ProviderMeta;
use crate::streaming::ids::mint_call_id;
use crate::streaming::json::{count, index_key, text};
use crate::streaming::state::StreamState;
use crate::streaming::wire::WireFormat;
use crate::streaming::{StopReason, StreamError, StreamOptions, Usage};

const FORMAT: &str = "Bedrock ConverseStream";

/// The ConverseStream decoder: block keys are the `contentBlockIndex`es.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder {
    /// Indexes of blocks of kinds this decoder does not read: their events are skipped.
    ignored: HashSet<String>,
}

/// Converse's `stopReason` in turnwire's terms.
fn stop_reason(s: &str) -> StopReason {
    match s {
        "content_filtered" | "guardrail_intervened" => StopReason::ContentFilter,
        other => StopReason::parse(other),
    }
}

/// Converse usage: `inputTokens` already excludes cache reads and writes; `totalTokens` is
/// their sum with the output.
fn usage(u: &Value) -> Usage {
    Usage {
        input_tokens: count(u, "inputTokens"),
        output_tokens: count(u, "outputTokens"),
        cache_read_tokens: count(u, "cacheReadInputTokens"),
        cache_write_tokens: count(u, "cacheWriteInputTokens"),
        reasoning_tokens: None,
    }
}

/// The block key of an event.
fn key_of(v: &Value) -> String {
    index_key(v, "contentBlockIndex", "")
}

impl Decoder {
    fn block_start(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        let key = key_of(v);
        self.ignored.remove(&key);
        let Some(call) = v.get("start").and_then(|st| st.get("toolUse")) else {
            self.ignored.insert(key);
            return;
        };
        let id = match text(call, "toolUseId").filter(|x| !x.is_empty()) {
            Some(id) => id.to_string(),
            None => mint_call_id(
                "tooluse_",
                s.response_id.as_deref(),
                o.id_seed.as_deref(),
                s.blocks.tool_count(),
                || s.blocks.fingerprint(),
            ),
        };
        let name = text(call, "name").unwrap_or_default();
        let r = s.blocks.start_tool(&key, &id, name, None, None);
        s.check(r);
    }

    fn block_delta(&mut self, v: &Value, s: &mut StreamState) {
        let key = key_of(v);
        if self.ignored.contains(&key) {
            return;
        }
        let Some(d) = v.get("delta").filter(|d| d.is_object()) else {
            s.error(StreamError::unexpected(
                FORMAT,
                "`contentBlockDelta` without a `delta` object",
            ));
            return;
        };
        if let Some(t) = text(d, "text") {
            s.blocks.stream_text(&key, t);
        }
        if let Some(call) = d.get("toolUse") {
            let r = s
                .blocks
                .tool_args(&key, text(call, "input").unwrap_or_default());
            s.check(r);
        }
        if let Some(r) = d.get("reasoningContent") {
            reasoning_delta(&key, r, s);
        }
    }

    fn block_stop(&mut self, v: &Value, s: &mut StreamState) {
        let key = key_of(v);
        if self.ignored.remove(&key) {
            return;
        }
        // A text block that streamed only empty pieces never opened: nothing to close.
        if s.blocks.is_open(&key) {
            let r = s.blocks.close(&key);
            s.check(r);
        }
    }

    fn message_stop(&mut self, v: &Value, s: &mut StreamState) {
        if let Some(fields) = v
            .get("additionalModelResponseFields")
            .filter(|f| f.is_object())
        {
            s.answer
                .insert("additionalModelResponseFields".into(), fields.clone());
        }
        s.done(text(v, "stopReason").map(stop_reason));
    }

    fn metadata(&mut self, v: &Value, s: &mut StreamState) {
        if let Some(u) = v.get("usage") {
            s.add_usage(&usage(u));
        }
        // `metadata` follows `messageStop`: the stream's last event.
        if s.terminal {
            s.closed = true;
        }
    }

    /// A whole `ConverseResponse` (a server that answered without streaming): its content
    /// blocks as if they had streamed, then its stop reason and usage.
    fn whole(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        let content = v
            .get("output")
            .and_then(|out| out.get("message"))
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array);
        for (i, block) in content.into_iter().flatten().enumerate() {
            let key = i.to_string();
            if let Some(t) = text(block, "text") {
                s.blocks.stream_text(&key, t);
            } else if let Some(call) = block.get("toolUse") {
                let start = json!({"contentBlockIndex": i, "start": {"toolUse": call}});
                self.block_start(&start, s, o);
                let input = call.get("input").map(Value::to_string);
                let r = s.blocks.complete_tool(&key, input.as_deref());
                s.check(r);
            } else if let Some(r) = block.get("reasoningContent") {
                let reasoning = r.get("reasoningText").unwrap_or(&Value::Null);
                let mut delta = reasoning.clone();
                if let Some(data) = r.get("redactedContent") {
                    delta = json!({ "redactedContent": data });
                }
                reasoning_delta(&key, &delta, s);
            }
            if s.blocks.is_open(&key) {
                let r = s.blocks.close(&key);
                s.check(r);
            }
        }
        self.message_stop(v, s);
        self.metadata(v, s);
    }

    /// One member of the event union.
    fn member(&mut self, name: &str, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        match name {
            "messageStart" => {}
            "contentBlockStart" => self.block_start(v, s, o),
            "contentBlockDelta" => self.block_delta(v, s),
            "contentBlockStop" => self.block_stop(v, s),
            "messageStop" => self.message_stop(v, s),
            "metadata" => self.metadata(v, s),
            exception if exception.ends_with("Exception") => {
                let message = text(v, "message")
                    .or_else(|| text(v, "Message"))
                    .or_else(|| text(v, "originalMessage"))
                    .unwrap_or_default();
                s.provider_error(exception, message);
                s.closed = true;
            }
            other => s.error(StreamError::UnknownEventType {
                event_type: crate::excerpt::excerpt(other),
            }),
        }
    }
}

/// `delta.reasoningContent`: thinking text, its signature, or redacted thinking.
fn reasoning_delta(key: &str, r: &Value, s: &mut StreamState) {
    let a = &mut s.blocks;
    if let Some(t) = text(r, "text") {
        a.stream_thinking(key, t, None);
    }
    let signature = text(r, "signature");
    let redacted = text(r, "redactedContent");
    if (signature.is_some() || redacted.is_some()) && !a.is_open(key) {
        let _ = a.start_thinking(key, None, None);
    }
    // Pieces of one signature (or redacted data) are joined.
    if let Some(piece) = signature {
        let signature = match a.meta_of(key) {
            Some(ProviderMeta::AnthropicSignature { signature }) => format!("{signature}{piece}"),
            _ => piece.to_string(),
        };
        a.set_meta(key, ProviderMeta::AnthropicSignature { signature });
    }
    if let Some(piece) = redacted {
        let data = match a.meta_of(key) {
            Some(ProviderMeta::AnthropicRedacted { data }) => format!("{data}{piece}"),
            _ => piece.to_string(),
        };
        a.set_meta(key, ProviderMeta::AnthropicRedacted { data });
    }
}

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        "converse"
    }

    fn terminal(&self) -> &'static str {
        "`messageStop`"
    }

    fn event(&mut self, event: &Value, s: &mut StreamState, o: &StreamOptions) {
        let Some(members) = event.as_object().filter(|m| !m.is_empty()) else {
            s.error(StreamError::unexpected(
                FORMAT,
                "an event is an object with one member named by its event type",
            ));
            return;
        };
        if members.contains_key("output") {
            self.whole(event, s, o);
            return;
        }
        for (name, v) in members {
            if s.closed {
                break;
            }
            self.member(name, v, s, o);
        }
    }

    /// `messageStop` ends the turn; the `metadata` event after it (usage) is the last one.
    fn ends_at_terminal(&self) -> bool {
        false
    }
}
