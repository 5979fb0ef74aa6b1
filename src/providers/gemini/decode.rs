//! Gemini `streamGenerateContent?alt=sse` stream decoding (Google AI and Vertex AI).
//!
//! Each SSE `data:` payload is a `GenerateContentResponse` chunk (a JSON array of chunks, the
//! shape without `alt=sse`, is decoded element by element). Of each chunk, turnwire reads:
//!
//! - `responseId` and `modelVersion`;
//! - `candidates[0].content.parts[]`, in order:
//!   - `{"text"}`: answer text; consecutive text parts (the pieces of one streamed part) join
//!     one text block until a part of another kind arrives;
//!   - `{"text", "thought": true}`: thought summary text, joined the same way into a thinking
//!     block;
//!   - `{"functionCall": {"name", "args", "id"?}}`: a whole tool call; its id is Gemini's when
//!     given (Gemini 3 always gives one, and wants it back: GEM-22), else
//!     `gemini_call_{responseId}_{n}` (`n` counts the turn's calls; the caller's `id_seed`
//!     replaces a missing response id, a digest of the turn's content replaces both);
//!   - `thoughtSignature`, a sibling of `text`, `thought` or `functionCall` in its part, is
//!     kept as that block's `GeminiThoughtSignature` (of parallel calls only the first is
//!     signed). A signed part is a block of its own, as Gemini sent it (GEM-24): it joins no
//!     text before or after it — also a signature-only `{"text": "", "thoughtSignature"}`
//!     part, which often ends a streamed answer, becomes an empty signed text block. Only
//!     unsigned pieces join one another;
//! - `candidates[0].finishReason`: the terminal field (`STOP` becomes `tool_use` when the turn
//!   called tools);
//! - `usageMetadata` (cumulative): `promptTokenCount`, `cachedContentTokenCount`,
//!   `candidatesTokenCount`, `thoughtsTokenCount`;
//! - `promptFeedback.blockReason` with no candidates: the prompt was blocked (ends the turn
//!   with `content_filter`);
//! - an `error` object (`{"code", "message", "status"}`), which ends the turn.
//!
//! `executableCode`, `codeExecutionResult`, `toolCall` and `toolResponse` parts (code the model
//! ran, server-side tools it called) become server-tool blocks, kept whole for replay.
//!
//! Ignored: `inlineData` and `fileData` parts,
//! `safetyRatings`, `citationMetadata`, `groundingMetadata`, `avgLogprobs`, candidates other
//! than the first, and `[DONE]` markers some gateways add.

use serde_json::{Map, Value};

use super::call_ids::MINTED_PREFIX;
use crate::model::{ProviderMeta, ServerToolBlock};
use crate::streaming::ids::mint_call_id;
use crate::streaming::json::{count, minus, plus, text};
use crate::streaming::state::StreamState;
use crate::streaming::wire::WireFormat;
use crate::streaming::{StopReason, StreamError, StreamOptions, Usage};

const FORMAT: &str = "Gemini generateContent";

/// Which kind of part the open block is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Lane {
    Text,
    Thought,
}

/// The Gemini chunk decoder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder {
    /// The open text or thought block and its key.
    open: Option<(Lane, String)>,
    /// Blocks opened so far (makes keys unique).
    opened: usize,
}

/// `finishReason` in turnwire's terms (`STOP` is decided by the caller).
fn stop_reason(s: &str) -> StopReason {
    match s {
        "STOP" => StopReason::EndTurn,
        "MAX_TOKENS" => StopReason::MaxTokens,
        "SAFETY" | "RECITATION" | "BLOCKLIST" | "PROHIBITED_CONTENT" | "SPII" | "IMAGE_SAFETY" => {
            StopReason::ContentFilter
        }
        other => StopReason::Other(other.to_string()),
    }
}

/// Gemini usage: the prompt count includes cached tokens; thoughts are counted apart from the
/// candidates.
fn usage(u: &Value) -> Usage {
    let cached = count(u, "cachedContentTokenCount");
    let thoughts = count(u, "thoughtsTokenCount");
    Usage {
        input_tokens: minus(count(u, "promptTokenCount"), cached),
        output_tokens: plus(count(u, "candidatesTokenCount"), thoughts),
        cache_read_tokens: cached,
        cache_write_tokens: None,
        reasoning_tokens: thoughts,
    }
}

impl Decoder {
    /// Closes the open text or thought block.
    fn close_lane(&mut self, s: &mut StreamState) {
        if let Some((_, key)) = self.open.take() {
            let _ = s.blocks.close(&key);
        }
    }

    /// The key of an open block of `lane`, opening one (and closing another) when needed.
    fn lane(&mut self, lane: Lane, s: &mut StreamState) -> String {
        if let Some((open, key)) = &self.open {
            if *open == lane {
                return key.clone();
            }
        }
        self.close_lane(s);
        self.opened = self.opened.saturating_add(1);
        let key = match lane {
            Lane::Text => format!("text:{}", self.opened),
            Lane::Thought => format!("thought:{}", self.opened),
        };
        let r = match lane {
            Lane::Text => s.blocks.start_text(&key),
            Lane::Thought => s.blocks.start_thinking(&key, None, None),
        };
        s.check(r);
        self.open = Some((lane, key.clone()));
        key
    }

    fn part(&mut self, p: &Value, s: &mut StreamState, o: &StreamOptions) {
        let signature = text(p, "thoughtSignature")
            .filter(|x| !x.is_empty())
            .map(|x| ProviderMeta::GeminiThoughtSignature {
                thought_signature: x.to_string(),
            });
        if let Some(call) = p.get("functionCall") {
            self.close_lane(s);
            let index = s.blocks.tool_count();
            let id = match text(call, "id").filter(|x| !x.is_empty()) {
                Some(id) => id.to_string(),
                None => mint_call_id(
                    MINTED_PREFIX,
                    s.response_id.as_deref(),
                    o.id_seed.as_deref(),
                    index,
                    || s.blocks.fingerprint(),
                ),
            };
            let name = text(call, "name").unwrap_or_default();
            let args = match call.get("args") {
                Some(a) if !a.is_null() => a.clone(),
                _ => Value::Object(Map::new()),
            };
            self.opened = self.opened.saturating_add(1);
            let key = format!("call:{}", self.opened);
            let errors = s.blocks.add_tool(&key, &id, name, args, signature);
            s.check_all(errors);
            return;
        }
        if let Some(server) = ServerToolBlock::from_gemini(p) {
            // Code the model ran, or a server-side tool it called: kept whole for replay.
            self.close_lane(s);
            s.blocks.add_server(server);
            return;
        }
        let piece = text(p, "text");
        if piece.is_none() && signature.is_none() {
            // inlineData, … are not assembled.
            return;
        }
        let lane = if p.get("thought").and_then(Value::as_bool) == Some(true) {
            Lane::Thought
        } else {
            Lane::Text
        };
        let mut key = self.lane(lane, s);
        let open_is_fresh = s.blocks.content_of(&key).is_some_and(str::is_empty)
            && s.blocks.meta_of(&key).is_none();
        if !open_is_fresh && (signature.is_some() || s.blocks.meta_of(&key).is_some()) {
            // GEM-24: a signed part stays the part it was; nothing joins it.
            self.close_lane(s);
            key = self.lane(lane, s);
        }
        let r = match lane {
            Lane::Text => s.blocks.text_delta(&key, piece.unwrap_or_default()),
            Lane::Thought => s.blocks.thinking_delta(&key, piece.unwrap_or_default()),
        };
        s.check(r);
        if let Some(m) = signature {
            s.blocks.set_meta(&key, m);
        }
    }

    fn chunk(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        if !v.is_object() {
            s.error(StreamError::unexpected(FORMAT, "a chunk is a JSON object"));
            return;
        }
        if let Some(e) = v.get("error").filter(|e| !e.is_null()) {
            let error_type = match (e.get("status"), e.get("code")) {
                (Some(Value::String(st)), _) => st.clone(),
                (_, Some(c)) if !c.is_null() => c.to_string(),
                _ => "error".to_string(),
            };
            s.provider_error(&error_type, text(e, "message").unwrap_or_default());
            return;
        }
        s.identify(text(v, "modelVersion"), text(v, "responseId"));
        let candidate = v
            .get("candidates")
            .and_then(Value::as_array)
            .and_then(|c| c.first());
        if let Some(c) = candidate {
            if let Some(Value::Array(parts)) = c.get("content").and_then(|x| x.get("parts")) {
                for p in parts {
                    self.part(p, s, o);
                }
            }
        }
        if let Some(u) = v.get("usageMetadata").filter(|u| u.is_object()) {
            s.add_usage(&usage(u));
        }
        if let Some(reason) = candidate.and_then(|c| text(c, "finishReason")) {
            self.close_lane(s);
            let r = match stop_reason(reason) {
                StopReason::EndTurn if s.blocks.has_tool_calls() => StopReason::ToolUse,
                r => r,
            };
            s.done(Some(r));
        } else if candidate.is_none() {
            let blocked = v.get("promptFeedback").and_then(|f| text(f, "blockReason"));
            if blocked.is_some() {
                s.done(Some(StopReason::ContentFilter));
            }
        }
    }
}

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        crate::vocab::Provider::Gemini.wire_api()
    }

    fn terminal(&self) -> &'static str {
        "a chunk with a `finishReason`"
    }

    fn event(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        match v {
            Value::Array(chunks) => {
                for c in chunks {
                    self.chunk(c, s, o);
                }
            }
            _ => self.chunk(v, s, o),
        }
    }
}
