//! Chat Completions stream decoding (`"stream": true`), for OpenAI and every chat dialect
//! (Mistral, Kimi, DeepSeek, OpenAI-compatible servers).
//!
//! Each SSE `data:` payload is a `chat.completion.chunk`, or the literal `[DONE]`. Of the
//! chunk, turnwire reads:
//!
//! - `id` and `model` (the response id and the served model);
//! - `choices[0].delta.content` (a string, or Mistral's array of `text` / `thinking` chunks),
//!   appended to one text block;
//! - `choices[0].delta.reasoning_content` (DeepSeek, Kimi, vLLM, …) or, when absent,
//!   `delta.reasoning` (OpenRouter and others), appended to one thinking block that records the
//!   field name as its `sourceField`;
//! - `choices[0].delta.reasoning_details` (OpenRouter): its pieces joined by `index` (text
//!   concatenated, a later signature attached) into the one array of the thinking block's
//!   [`ProviderMeta::OpenRouterReasoningDetails`], which the next request to the same model on
//!   OpenRouter sends back whole (ORT-02); their text is the thinking text when the chunk has
//!   no `reasoning` string (`sourceField: "reasoning_details"`);
//! - `choices[0].delta.refusal`, appended to the text (the stop reason becomes `refusal`);
//! - `choices[0].delta.tool_calls[]`, one call per `index`: the first piece carries the call's
//!   `id` and `function.name`, later pieces carry `function.arguments` text (Mistral sends each
//!   call whole in one piece; Kimi's ids are `functions.{name}:{n}`, Mistral's 9 alphanumerics).
//!   A piece without `index` is keyed by its `id`. Calls complete at the finish reason;
//! - `choices[0].finish_reason` (`stop`, `tool_calls`, `length`, `content_filter`, …): the turn
//!   is finished (the stream is complete even if the usage chunk and `[DONE]` never come);
//! - `usage` of the chunk (with `stream_options.include_usage`, a last chunk with empty
//!   `choices`) or of `choices[0]` (Kimi): prompt, completion, cached tokens
//!   (`prompt_tokens_details.cached_tokens`, DeepSeek `prompt_cache_hit_tokens`, Kimi
//!   `cached_tokens`) and reasoning tokens (`completion_tokens_details.reasoning_tokens`);
//! - an `error` object in a chunk (OpenRouter and other gateways report mid-stream failures
//!   this way), or a chunk that is itself an error object, `"object": "error"` with `message`,
//!   `type` and `code` (Mistral's and vLLM's error shape), which ends the turn;
//! - `[DONE]`: the terminal marker.
//!
//! Ignored: `role`, `logprobs`, `system_fingerprint`, `service_tier`, choices other than the
//! first, the legacy `function_call` delta and audio deltas.

use serde_json::Value;

use super::reasoning_details;
use crate::model::ProviderMeta;
use crate::streaming::ids::mint_call_id;
use crate::streaming::json::{count, minus, text};
use crate::streaming::state::StreamState;
use crate::streaming::wire::WireFormat;
use crate::streaming::{StopReason, StreamError, StreamOptions, Usage};

const FORMAT: &str = "Chat Completions";

/// The one text block of a chat message.
const TEXT: &str = "content";
/// The one thinking block of a chat message.
const REASONING: &str = "reasoning";
/// The reasoning fields, in order of preference (servers that send both send the same text).
const REASONING_FIELDS: [&str; 2] = ["reasoning_content", "reasoning"];
/// OpenRouter's structured reasoning (ORT-02).
const DETAILS: &str = "reasoning_details";

/// The chat chunk decoder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder {
    /// Key of the call the last tool-call piece belonged to (for pieces with no index or id).
    last_tool: Option<String>,
    /// A refusal was streamed.
    refusal: bool,
}

/// `finish_reason` in turnwire's terms.
fn stop_reason(s: &str, refusal: bool) -> StopReason {
    match s {
        "stop" if refusal => StopReason::Refusal,
        "stop" => StopReason::EndTurn,
        "tool_calls" | "function_call" => StopReason::ToolUse,
        "length" | "model_length" => StopReason::MaxTokens,
        "content_filter" => StopReason::ContentFilter,
        "error" => StopReason::Error,
        other => StopReason::Other(other.to_string()),
    }
}

/// Chat usage: `prompt_tokens` includes the cached tokens, `completion_tokens` the reasoning.
fn usage(u: &Value) -> Usage {
    let cached = u
        .get("prompt_tokens_details")
        .and_then(|d| count(d, "cached_tokens"))
        .or_else(|| count(u, "prompt_cache_hit_tokens"))
        .or_else(|| count(u, "cached_tokens"));
    Usage {
        input_tokens: minus(count(u, "prompt_tokens"), cached),
        output_tokens: count(u, "completion_tokens"),
        cache_read_tokens: cached,
        cache_write_tokens: None,
        reasoning_tokens: u
            .get("completion_tokens_details")
            .and_then(|d| count(d, "reasoning_tokens")),
    }
}

/// The error type of an `error` object: its `type`, else its `code`.
fn error_type(e: &Value) -> String {
    match (e.get("type"), e.get("code")) {
        (Some(Value::String(t)), _) if !t.is_empty() => t.clone(),
        (_, Some(Value::String(c))) => c.clone(),
        (_, Some(Value::Number(n))) => n.to_string(),
        _ => "error".to_string(),
    }
}

impl Decoder {
    fn tool_piece(&mut self, tc: &Value, position: usize, s: &mut StreamState, o: &StreamOptions) {
        let id = text(tc, "id").filter(|x| !x.is_empty());
        let key = match (tc.get("index").and_then(Value::as_u64), id) {
            (Some(i), _) => format!("tool:{i}"),
            (None, Some(id)) => format!("tool:id:{id}"),
            (None, None) => self
                .last_tool
                .clone()
                .unwrap_or_else(|| format!("tool:at:{position}")),
        };
        let f = tc.get("function").unwrap_or(&Value::Null);
        let name = text(f, "name").filter(|x| !x.is_empty());
        // A piece with another id under an open index is a new call (servers that number
        // every whole call 0): the previous one is complete.
        let replaced = match (s.blocks.tool_of(&key), id) {
            (Some((open_id, _)), Some(id)) => open_id != id,
            _ => false,
        };
        if replaced {
            let r = s.blocks.complete_tool(&key, None);
            s.check(r);
        }
        if s.blocks.tool_of(&key).is_none() {
            let id = match id {
                Some(id) => id.to_string(),
                None => mint_call_id(
                    "call_",
                    s.response_id.as_deref(),
                    o.id_seed.as_deref(),
                    s.blocks.tool_count(),
                    || s.blocks.fingerprint(),
                ),
            };
            let r = s
                .blocks
                .start_tool(&key, &id, name.unwrap_or_default(), None, None);
            s.check(r);
        } else if let Some(name) = name {
            s.blocks.name_tool(&key, name);
        }
        let r = match f.get("arguments") {
            Some(Value::String(piece)) => s.blocks.tool_args(&key, piece),
            // Some servers send the arguments as an object.
            Some(v @ Value::Object(_)) => s.blocks.tool_args(&key, &v.to_string()),
            _ => Ok(()),
        };
        s.check(r);
        self.last_tool = Some(key);
    }

    fn content(&mut self, c: &Value, s: &mut StreamState) {
        match c {
            Value::String(t) => s.blocks.stream_text(TEXT, t),
            // Mistral's chunk arrays: `{"type": "text", "text"}` and
            // `{"type": "thinking", "thinking": [{"type": "text", "text"}]}`.
            Value::Array(parts) => {
                for p in parts {
                    match text(p, "type") {
                        Some("text") => s
                            .blocks
                            .stream_text(TEXT, text(p, "text").unwrap_or_default()),
                        Some("thinking") => {
                            let pieces: Vec<&str> = match p.get("thinking") {
                                Some(Value::String(t)) => vec![t.as_str()],
                                Some(Value::Array(a)) => {
                                    a.iter().filter_map(|x| text(x, "text")).collect()
                                }
                                _ => Vec::new(),
                            };
                            for t in pieces {
                                s.blocks.stream_thinking(REASONING, t, Some("thinking"));
                            }
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }

    fn choice(&mut self, c: &Value, s: &mut StreamState, o: &StreamOptions) {
        if let Some(u) = c.get("usage").filter(|u| u.is_object()) {
            s.add_usage(&usage(u));
        }
        // A whole `message` (a server that answered without streaming) reads as one delta.
        let d = c
            .get("delta")
            .or_else(|| c.get("message"))
            .unwrap_or(&Value::Null);
        let details = match d.get(DETAILS) {
            Some(Value::Array(pieces)) if !pieces.is_empty() => Some(pieces),
            _ => None,
        };
        if let Some((field, t)) = REASONING_FIELDS
            .iter()
            .find_map(|f| text(d, f).filter(|t| !t.is_empty()).map(|t| (*f, t)))
        {
            s.blocks.stream_thinking(REASONING, t, Some(field));
        } else if let Some(pieces) = details {
            let t = reasoning_details::readable_text(pieces);
            s.blocks.stream_thinking(REASONING, &t, Some(DETAILS));
        }
        if let Some(pieces) = details {
            reasoning_details_pieces(pieces, s);
        }
        if let Some(content) = d.get("content") {
            self.content(content, s);
        }
        if let Some(r) = text(d, "refusal").filter(|r| !r.is_empty()) {
            self.refusal = true;
            s.blocks.stream_text(TEXT, r);
        }
        if let Some(Value::Array(calls)) = d.get("tool_calls") {
            for (i, tc) in calls.iter().enumerate() {
                self.tool_piece(tc, i, s, o);
            }
        }
        if let Some(reason) = text(c, "finish_reason").filter(|r| !r.is_empty()) {
            let errors = s.blocks.complete_open_tools();
            s.check_all(errors);
            s.done(Some(stop_reason(reason, self.refusal)));
        }
    }
}

/// Joins OpenRouter's `reasoning_details` pieces into the meta of the thinking block (started
/// here when no reasoning text came before them).
fn reasoning_details_pieces(pieces: &[Value], s: &mut StreamState) {
    if !s.blocks.is_open(REASONING) {
        let _ = s.blocks.start_thinking(REASONING, Some(DETAILS), None);
    }
    let Some(meta) = s.blocks.meta_mut(REASONING) else {
        return;
    };
    if !matches!(meta, Some(ProviderMeta::OpenRouterReasoningDetails { .. })) {
        *meta = Some(ProviderMeta::OpenRouterReasoningDetails {
            details: Vec::new(),
        });
    }
    if let Some(ProviderMeta::OpenRouterReasoningDetails { details }) = meta {
        for p in pieces {
            reasoning_details::join(details, p);
        }
    }
}

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        crate::vocab::Provider::OpenAiChat.wire_api()
    }

    fn terminal(&self) -> &'static str {
        "a `finish_reason` or `[DONE]`"
    }

    fn event(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        if !v.is_object() {
            s.error(StreamError::unexpected(FORMAT, "a chunk is a JSON object"));
            return;
        }
        // `{"error": {...}}` (OpenAI, OpenRouter and other gateways), or the error object itself
        // as the chunk, `{"object": "error", "message", "type", "code"}` (Mistral, vLLM).
        let flat = (text(v, "object") == Some("error")).then_some(v);
        if let Some(e) = v.get("error").filter(|e| !e.is_null()).or(flat) {
            let message = match e {
                Value::String(m) => m.clone(),
                _ => text(e, "message").unwrap_or_default().to_string(),
            };
            s.provider_error(&error_type(e), &message);
            return;
        }
        s.identify(text(v, "model"), text(v, "id"));
        if let Some(u) = v.get("usage").filter(|u| u.is_object()) {
            s.add_usage(&usage(u));
        }
        if let Some(Value::Array(choices)) = v.get("choices") {
            let first = choices
                .iter()
                .find(|c| c.get("index").and_then(Value::as_u64).unwrap_or(0) == 0);
            if let Some(c) = first {
                self.choice(c, s, o);
            }
        }
    }

    fn ends_at_terminal(&self) -> bool {
        false
    }

    fn done_marker(&mut self, s: &mut StreamState) {
        if !s.terminal {
            let errors = s.blocks.complete_open_tools();
            s.check_all(errors);
            s.done(None);
        }
    }
}
