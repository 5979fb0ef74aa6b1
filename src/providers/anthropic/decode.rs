//! Anthropic Messages stream decoding (`"stream": true`, server-sent events).
//!
//! Each SSE `data:` payload is one event, named by its `type`:
//!
//! - `message_start`: message id, model and the first usage (input and cache tokens); a second
//!   one is a `duplicate_message_start` error and is ignored (the message is the first one's);
//! - `content_block_start`: a `text`, `thinking` (text + `signature`), `redacted_thinking`
//!   (`data`) or `tool_use` (`id`, `name`) block at `index`;
//! - `content_block_delta`: `text_delta`, `thinking_delta`, `signature_delta` and
//!   `input_json_delta` (raw JSON text of the tool input) for the block at `index`;
//! - `content_block_stop`: the block at `index` is done (a tool call's input is parsed here);
//! - `message_delta`: `stop_reason` and the final usage (output tokens are cumulative);
//! - `message_stop`: the terminal event;
//! - `error`: a provider error (`{"error": {"type", "message"}}`), which ends the turn.
//!
//! Server tools the API ran itself (`server_tool_use`, whose input streams like a tool call's,
//! and every `*_tool_result`) become server-tool blocks, kept byte for byte for replay.
//!
//! Ignored: `ping`, `citations_delta` and other unknown delta types, and blocks of other
//! unknown types with all their deltas.

use crate::fast_map::HashSet;

use serde_json::{json, Value};

use crate::model::{ProviderMeta, ServerToolBlock};
use crate::streaming::ids::mint_call_id;
use crate::streaming::json::{count, index_key, text};
use crate::streaming::wire::WireFormat;
use crate::streaming::{StopReason, StreamError, StreamOptions, Usage};

use crate::streaming::state::StreamState;

const FORMAT: &str = "Anthropic Messages";

/// The Anthropic SSE decoder: block keys are the content block indexes.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder {
    /// Indexes of blocks of unknown types: their events are skipped.
    ignored: HashSet<String>,
    /// The id of the `message_start` seen (empty when it had none); `None` before it.
    started: Option<String>,
}

/// Anthropic's `stop_reason` in turnwire's terms (its names are turnwire's, but `pause_turn`).
fn stop_reason(s: &str) -> StopReason {
    match s {
        "pause_turn" => StopReason::Pause,
        other => StopReason::parse(other),
    }
}

/// Anthropic usage: `input_tokens` already excludes cache reads and writes.
fn usage(u: &Value) -> Usage {
    Usage {
        input_tokens: count(u, "input_tokens"),
        output_tokens: count(u, "output_tokens"),
        cache_read_tokens: count(u, "cache_read_input_tokens"),
        cache_write_tokens: count(u, "cache_creation_input_tokens"),
        reasoning_tokens: None,
    }
}

impl Decoder {
    fn message_start(&mut self, v: &Value, s: &mut StreamState) {
        let Some(m) = v.get("message") else {
            s.error(StreamError::unexpected(
                FORMAT,
                "`message_start` without `message`",
            ));
            return;
        };
        let id = text(m, "id").unwrap_or_default();
        if let Some(first) = &self.started {
            s.error(StreamError::DuplicateMessageStart {
                id: crate::excerpt::excerpt(id),
                first: crate::excerpt::excerpt(first),
            });
            return;
        }
        self.started = Some(id.to_string());
        s.identify(text(m, "model"), text(m, "id"));
        answer_facts(m, m, s);
        if let Some(u) = m.get("usage") {
            s.add_usage(&usage(u));
        }
    }

    fn block_start(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        let key = index_key(v, "index", "");
        let block = v.get("content_block").unwrap_or(&Value::Null);
        self.ignored.remove(&key);
        let a = &mut s.blocks;
        let r = match text(block, "type") {
            Some("text") => a
                .start_text(&key)
                .and_then(|()| a.text_delta(&key, text(block, "text").unwrap_or_default())),
            Some("thinking") => {
                let r = a.start_thinking(&key, None, None).and_then(|()| {
                    a.thinking_delta(&key, text(block, "thinking").unwrap_or_default())
                });
                if let Some(sig) = text(block, "signature").filter(|x| !x.is_empty()) {
                    a.set_meta(
                        &key,
                        ProviderMeta::AnthropicSignature {
                            signature: sig.to_string(),
                        },
                    );
                }
                r
            }
            Some("redacted_thinking") => {
                let data = text(block, "data").unwrap_or_default().to_string();
                a.start_thinking(&key, None, Some(ProviderMeta::AnthropicRedacted { data }))
            }
            Some("tool_use") => {
                let id = match text(block, "id").filter(|x| !x.is_empty()) {
                    Some(id) => id.to_string(),
                    None => mint_call_id(
                        "toolu_",
                        s.response_id.as_deref(),
                        o.id_seed.as_deref(),
                        s.blocks.tool_count(),
                        || s.blocks.fingerprint(),
                    ),
                };
                let name = text(block, "name").unwrap_or_default();
                // `input` is `{}` at the start when the input streams; a non-empty one is the
                // whole input of a call that sends no deltas.
                let initial = block
                    .get("input")
                    .filter(|i| i.as_object().is_some_and(|m| !m.is_empty()))
                    .cloned();
                s.blocks.start_tool(&key, &id, name, None, initial)
            }
            Some(_) => match ServerToolBlock::from_anthropic(block) {
                Some(server) => s.blocks.start_server(&key, server),
                None => {
                    self.ignored.insert(key);
                    Ok(())
                }
            },
            None => Err(StreamError::unexpected(
                FORMAT,
                "`content_block_start` without a `content_block.type`",
            )),
        };
        s.check(r);
    }

    fn block_delta(&mut self, v: &Value, s: &mut StreamState) {
        let key = index_key(v, "index", "");
        if self.ignored.contains(&key) {
            return;
        }
        let d = v.get("delta").unwrap_or(&Value::Null);
        if text(d, "type") == Some("compaction_delta") {
            compaction_delta(s, &key, d);
        }
        let a = &mut s.blocks;
        let r = match text(d, "type") {
            Some("text_delta") => a.text_delta(&key, text(d, "text").unwrap_or_default()),
            Some("thinking_delta") => {
                a.thinking_delta(&key, text(d, "thinking").unwrap_or_default())
            }
            Some("signature_delta") => {
                let signature = text(d, "signature").unwrap_or_default().to_string();
                if a.set_meta(&key, ProviderMeta::AnthropicSignature { signature }) {
                    Ok(())
                } else {
                    Err(StreamError::OrphanReasoningDelta { key })
                }
            }
            Some("input_json_delta") if a.is_server(&key) => {
                a.server_input(&key, text(d, "partial_json").unwrap_or_default());
                Ok(())
            }
            Some("input_json_delta") => {
                a.tool_args(&key, text(d, "partial_json").unwrap_or_default())
            }
            Some("compaction_delta") => Ok(()),
            Some(_) => Ok(()),
            None => Err(StreamError::unexpected(
                FORMAT,
                "`content_block_delta` without a `delta.type`",
            )),
        };
        s.check(r);
    }

    fn block_stop(&mut self, v: &Value, s: &mut StreamState) {
        let key = index_key(v, "index", "");
        if self.ignored.remove(&key) {
            return;
        }
        let r = s.blocks.close(&key);
        s.check(r);
    }

    /// A whole message (a server that answered without streaming): its blocks as if they had
    /// streamed, then the end.
    fn whole(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        self.message_start(&json!({ "message": v }), s);
        if let Some(Value::Array(blocks)) = v.get("content") {
            for (i, block) in blocks.iter().enumerate() {
                self.block_start(&json!({"index": i, "content_block": block}), s, o);
                self.block_stop(&json!({ "index": i }), s);
            }
        }
        if let Some(reason) = text(v, "stop_reason") {
            s.stop_reason = Some(stop_reason(reason));
        }
        s.done(None);
    }

    fn message_delta(&mut self, v: &Value, s: &mut StreamState) {
        if let Some(reason) = v.get("delta").and_then(|d| text(d, "stop_reason")) {
            s.stop_reason = Some(stop_reason(reason));
        }
        answer_facts(v.get("delta").unwrap_or(&Value::Null), v, s);
        if let Some(u) = v.get("usage") {
            s.add_usage(&usage(u));
        }
    }
}

/// What the answer says besides its blocks, kept in the message's metadata: a refusal's
/// `stop_details` (with `fallback_credit_token`, `fallback_has_prefill_claim`, beta) as
/// `stopDetails`, and `input_transformations` (`thinking_dropped`,
/// `thinking_mismatch_allowed`; other entry types are skipped, as the SDK asks) as
/// `inputTransformations`. `details` holds `stop_details` (the message, or a `message_delta`'s
/// `delta`), `outer` holds `input_transformations` (the message, or the `message_delta`
/// event, whose list replaces the one of `message_start` after a server-side fallback).
fn answer_facts(details: &Value, outer: &Value, s: &mut StreamState) {
    if let Some(d) = details.get("stop_details").filter(|d| d.is_object()) {
        s.answer.insert("stopDetails".into(), d.clone());
    }
    if let Some(Value::Array(list)) = outer.get("input_transformations") {
        let known: Vec<Value> = list
            .iter()
            .filter(|t| {
                matches!(
                    text(t, "type"),
                    Some("thinking_dropped" | "thinking_mismatch_allowed")
                )
            })
            .cloned()
            .collect();
        s.answer
            .insert("inputTransformations".into(), Value::Array(known));
    }
}

/// A `compaction_delta`: the summary (and the opaque `encrypted_content`) of the `compaction`
/// block open under `key`.
fn compaction_delta(s: &mut StreamState, key: &str, d: &Value) {
    let Some(b) = s.blocks.server_block_mut(key) else {
        return;
    };
    for field in ["content", "encrypted_content"] {
        if let Some(part) = text(d, field) {
            let whole = match b.wire.get(field).and_then(Value::as_str) {
                Some(before) => format!("{before}{part}"),
                None => part.to_string(),
            };
            if let Value::Object(w) = &mut b.wire {
                w.insert(field.into(), Value::String(whole));
            }
        }
    }
}

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        crate::vocab::Provider::Anthropic.wire_api()
    }

    fn terminal(&self) -> &'static str {
        "`message_stop`"
    }

    fn event(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        match text(v, "type") {
            Some("message_start") => self.message_start(v, s),
            Some("content_block_start") => self.block_start(v, s, o),
            Some("content_block_delta") => self.block_delta(v, s),
            Some("content_block_stop") => self.block_stop(v, s),
            Some("message_delta") => self.message_delta(v, s),
            Some("message_stop") => s.done(None),
            Some("message") => self.whole(v, s, o),
            Some("error") => {
                let e = v.get("error").unwrap_or(&Value::Null);
                s.provider_error(
                    text(e, "type").unwrap_or("error"),
                    text(e, "message").unwrap_or_default(),
                );
            }
            // `ping` and event types added after this decoder was written.
            Some(_) => {}
            None => s.error(StreamError::unexpected(
                FORMAT,
                "an event needs a string `type`",
            )),
        }
    }
}
