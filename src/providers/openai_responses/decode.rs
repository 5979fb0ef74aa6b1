//! OpenAI Responses stream decoding (`"stream": true`, semantic server-sent events).
//!
//! Each SSE `data:` payload is one event, named by its `type`. Blocks are keyed by output item
//! id (`item_id` on deltas, `item.id` on item events; `output_index` when an id is missing):
//!
//! - `response.created`, `response.in_progress`, `response.queued`: response id and model;
//! - `response.output_item.added`: a `message` (text block), `reasoning` (thinking block with
//!   the `rs_…` id and any `encrypted_content`) or `function_call` (`call_id`, `name`) item
//!   starts;
//! - `response.output_text.delta`, `response.refusal.delta`: answer text (a refusal makes the
//!   stop reason `refusal`);
//! - `response.reasoning_summary_part.added` (parts after the first are separated by a blank
//!   line), `response.reasoning_summary_text.delta`, `response.reasoning_text.delta`:
//!   reasoning text;
//! - `response.function_call_arguments.delta` / `.done`: raw JSON argument text (the `done`
//!   text replaces what streamed);
//! - `response.output_item.done`: the item is finished; it is authoritative for the reasoning
//!   item's id, `encrypted_content` and summary, and for the call's arguments;
//! - `response.completed` / `response.incomplete` (`incomplete_details.reason`): the terminal
//!   events, with usage (input, cached, output and reasoning tokens);
//! - `response.failed` (`response.error`) and `error`: provider errors, which end the turn.
//!
//! Ignored: `response.content_part.added` / `.done`, `response.output_text.done`,
//! `response.refusal.done`, `response.reasoning_summary_text.done`,
//! `response.reasoning_summary_part.done`, `response.reasoning_text.done`,
//! `response.output_text.annotation.added`, the output list of `response.completed` (already
//! assembled from the events), and the progress events of built-in tools.
//!
//! Items of the built-in tools the API runs itself (`web_search_call`, `code_interpreter_call`,
//! `file_search_call`, `image_generation_call`, a server-run `tool_search_call`) and the
//! `compaction` item (ORS-20) become server-tool blocks, in their place, as their `done` event
//! gives them. A `message` item's `phase` labels its text (ORS-18). The client-tool calls
//! (`custom_tool_call`, `apply_patch_call`, `shell_call`, `local_shell_call`, a client
//! `tool_search_call`, `program`; ORS-19) become tool calls remembering their item, with the
//! arguments of their `done` item (their own delta events are not read).

use serde_json::{json, Value};

use super::native;
use crate::model::ProviderMeta;
use crate::streaming::ids::mint_call_id;
use crate::streaming::json::{count, index_key, minus, text};
use crate::streaming::state::StreamState;
use crate::streaming::wire::WireFormat;
use crate::streaming::{StopReason, StreamError, StreamOptions, Usage};

const FORMAT: &str = "OpenAI Responses";

/// The Responses event decoder.
#[derive(Debug, Clone, Default)]
pub(crate) struct Decoder {
    /// A refusal was streamed.
    refusal: bool,
}

/// The block key: the item id, else the output index.
fn key(event: &Value, item_id: Option<&str>) -> String {
    match item_id.filter(|i| !i.is_empty()) {
        Some(id) => id.to_string(),
        None => format!("out:{}", index_key(event, "output_index", "?")),
    }
}

/// Responses usage: `input_tokens` includes the cached tokens, `output_tokens` the reasoning.
fn usage(u: &Value) -> Usage {
    let cached = u
        .get("input_tokens_details")
        .and_then(|d| count(d, "cached_tokens"));
    Usage {
        input_tokens: minus(count(u, "input_tokens"), cached),
        output_tokens: count(u, "output_tokens"),
        cache_read_tokens: cached,
        cache_write_tokens: None,
        reasoning_tokens: u
            .get("output_tokens_details")
            .and_then(|d| count(d, "reasoning_tokens")),
    }
}

/// The texts of a list of parts (`output_text`, `refusal`, `summary_text`), joined.
fn joined(parts: Option<&Value>, fields: &[&str], separator: &str) -> String {
    let texts: Vec<&str> = parts
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter_map(|p| fields.iter().find_map(|f| text(p, f)))
                .collect()
        })
        .unwrap_or_default();
    texts.join(separator)
}

/// The `phase` of an assistant message item (ORS-18).
fn phase(item: &Value) -> Option<ProviderMeta> {
    text(item, "phase").map(|p| ProviderMeta::OpenAiPhase {
        phase: p.to_string(),
    })
}

fn message_text(item: &Value) -> String {
    joined(item.get("content"), &["text", "refusal"], "")
}

fn summary_text(item: &Value) -> String {
    joined(item.get("summary"), &["text"], "\n\n")
}

/// The reasoning item's continuity artifact.
fn reasoning_meta(item: &Value, fallback: Option<&ProviderMeta>) -> ProviderMeta {
    let (old_id, old_enc) = match fallback {
        Some(ProviderMeta::OpenAiReasoning {
            id,
            encrypted_content,
        }) => (id.clone(), encrypted_content.clone()),
        _ => (None, None),
    };
    ProviderMeta::OpenAiReasoning {
        id: text(item, "id").map(str::to_string).or(old_id),
        encrypted_content: text(item, "encrypted_content")
            .map(str::to_string)
            .or(old_enc),
    }
}

impl Decoder {
    fn call_id(item: &Value, s: &StreamState, o: &StreamOptions) -> String {
        match text(item, "call_id").filter(|c| !c.is_empty()) {
            Some(c) => c.to_string(),
            None => mint_call_id(
                "call_",
                s.response_id.as_deref(),
                o.id_seed.as_deref(),
                s.blocks.tool_count(),
                || s.blocks.fingerprint(),
            ),
        }
    }

    fn item_added(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        let item = v.get("item").unwrap_or(&Value::Null);
        let k = key(v, text(item, "id"));
        let a = &mut s.blocks;
        let r = match text(item, "type") {
            Some("message") => a.start_text(&k).and_then(|()| {
                if let Some(p) = phase(item) {
                    a.set_meta(&k, p);
                }
                a.text_delta(&k, &message_text(item))
            }),
            Some("reasoning") => a
                .start_thinking(&k, None, Some(reasoning_meta(item, None)))
                .and_then(|()| a.thinking_delta(&k, &summary_text(item))),
            Some("function_call") => {
                let id = Self::call_id(item, s, o);
                let name = text(item, "name").unwrap_or_default();
                s.blocks
                    .start_tool(&k, &id, name, None, None)
                    .and_then(|()| {
                        s.blocks
                            .tool_args(&k, text(item, "arguments").unwrap_or_default())
                    })
            }
            _ => match (native::call(item), native::server_item(item)) {
                (Some(c), _) => {
                    s.blocks
                        .start_tool(&k, &c.call_id, &c.name, Some(c.meta), Some(c.parameters))
                }
                (None, Some(server)) => s.blocks.start_server(&k, server),
                (None, None) => Ok(()),
            },
        };
        s.check(r);
    }

    fn item_done(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        let item = v.get("item").unwrap_or(&Value::Null);
        let k = key(v, text(item, "id"));
        let kind = text(item, "type");
        if let Some(server) = native::server_item(item) {
            s.blocks.finish_server(&k, server);
            return;
        }
        let client_tool = native::call(item);
        if client_tool.is_none() && !matches!(kind, Some("message" | "reasoning" | "function_call"))
        {
            return;
        }
        let known = s.blocks.is_open(&k);
        if !known {
            // Keep what the item holds, as if it had been announced.
            if kind == Some("function_call") || client_tool.is_some() {
                s.error(StreamError::UnknownToolComplete { key: k.clone() });
            } else {
                s.error(StreamError::UnknownBlockStop { key: k.clone() });
            }
            self.item_added(v, s, o);
        }
        let a = &mut s.blocks;
        if let Some(c) = client_tool {
            // the done item is authoritative for the arguments and the item's members (ORS-19)
            a.set_meta(&k, c.meta);
            let args = crate::json::write::to_string(&c.parameters);
            let r = a.complete_tool(&k, Some(&args));
            s.check(r);
            return;
        }
        let r = match kind {
            Some("function_call") => a.complete_tool(&k, text(item, "arguments")),
            Some("reasoning") => {
                let meta = reasoning_meta(item, a.meta_of(&k));
                a.set_meta(&k, meta);
                let summary = summary_text(item);
                if !summary.is_empty() {
                    a.set_content(&k, &summary);
                }
                a.close(&k)
            }
            _ => {
                if let Some(p) = phase(item) {
                    a.set_meta(&k, p);
                }
                let full = message_text(item);
                if a.content_of(&k).is_some_and(str::is_empty) && !full.is_empty() {
                    a.set_content(&k, &full);
                }
                a.close(&k)
            }
        };
        s.check(r);
    }

    fn end(&mut self, v: &Value, s: &mut StreamState, incomplete: bool) {
        let response = v.get("response").unwrap_or(&Value::Null);
        s.identify(text(response, "model"), text(response, "id"));
        if let Some(u) = response.get("usage").filter(|u| u.is_object()) {
            s.add_usage(&usage(u));
        }
        let reason = if incomplete {
            match response
                .get("incomplete_details")
                .and_then(|d| text(d, "reason"))
            {
                Some("max_output_tokens") => StopReason::MaxTokens,
                Some("content_filter") => StopReason::ContentFilter,
                Some(other) => StopReason::Other(other.to_string()),
                None => StopReason::Incomplete,
            }
        } else if self.refusal {
            StopReason::Refusal
        } else if s.blocks.has_tool_calls() {
            StopReason::ToolUse
        } else {
            StopReason::EndTurn
        };
        s.done(Some(reason));
    }

    /// A whole response object (a server that answered without streaming): each output item as
    /// if it had streamed, then the end its status says.
    fn whole(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        s.identify(text(v, "model"), text(v, "id"));
        if let Some(Value::Array(items)) = v.get("output") {
            for (i, item) in items.iter().enumerate() {
                let event = json!({"output_index": i, "item": item});
                self.item_added(&event, s, o);
                self.item_done(&event, s, o);
            }
        }
        let wrapped = json!({ "response": v });
        match text(v, "status") {
            Some("failed") => self.failed(&wrapped, s),
            Some("incomplete") => self.end(&wrapped, s, true),
            _ => self.end(&wrapped, s, false),
        }
    }

    fn failed(&mut self, v: &Value, s: &mut StreamState) {
        let response = v.get("response").unwrap_or(&Value::Null);
        s.identify(text(response, "model"), text(response, "id"));
        if let Some(u) = response.get("usage").filter(|u| u.is_object()) {
            s.add_usage(&usage(u));
        }
        let e = response.get("error").unwrap_or(&Value::Null);
        s.provider_error(
            text(e, "code").unwrap_or("failed"),
            text(e, "message").unwrap_or_default(),
        );
    }

    fn error_event(v: &Value, s: &mut StreamState) {
        let inner = v.get("error").unwrap_or(&Value::Null);
        let error_type = text(v, "code")
            .or_else(|| text(inner, "code"))
            .or_else(|| text(inner, "type"))
            .unwrap_or("error");
        let message = text(v, "message")
            .or_else(|| text(inner, "message"))
            .unwrap_or_default();
        s.provider_error(error_type, message);
    }
}

impl WireFormat for Decoder {
    fn api(&self) -> &'static str {
        crate::vocab::Provider::OpenAiResponses.wire_api()
    }

    fn terminal(&self) -> &'static str {
        "`response.completed`"
    }

    fn event(&mut self, v: &Value, s: &mut StreamState, o: &StreamOptions) {
        if text(v, "object") == Some("response") {
            self.whole(v, s, o);
            return;
        }
        let Some(kind) = text(v, "type") else {
            s.error(StreamError::unexpected(
                FORMAT,
                "an event needs a string `type`",
            ));
            return;
        };
        let item_key = || key(v, text(v, "item_id"));
        let delta = text(v, "delta").unwrap_or_default();
        let r = match kind {
            "response.created" | "response.in_progress" | "response.queued" => {
                let r = v.get("response").unwrap_or(&Value::Null);
                s.identify(text(r, "model"), text(r, "id"));
                Ok(())
            }
            "response.output_item.added" => {
                self.item_added(v, s, o);
                Ok(())
            }
            "response.output_item.done" => {
                self.item_done(v, s, o);
                Ok(())
            }
            "response.output_text.delta" => s.blocks.text_delta(&item_key(), delta),
            "response.refusal.delta" => {
                self.refusal = true;
                s.blocks.text_delta(&item_key(), delta)
            }
            "response.reasoning_summary_part.added" => {
                let k = item_key();
                let later = v.get("summary_index").and_then(Value::as_u64).unwrap_or(0) > 0;
                if later && s.blocks.content_of(&k).is_some_and(|t| !t.is_empty()) {
                    s.blocks.thinking_delta(&k, "\n\n")
                } else {
                    Ok(())
                }
            }
            "response.reasoning_summary_text.delta" | "response.reasoning_text.delta" => {
                s.blocks.thinking_delta(&item_key(), delta)
            }
            "response.function_call_arguments.delta" => s.blocks.tool_args(&item_key(), delta),
            "response.function_call_arguments.done" => {
                let k = item_key();
                match text(v, "arguments") {
                    Some(full) if !s.blocks.set_tool_args(&k, full) => {
                        Err(StreamError::UnknownToolComplete { key: k })
                    }
                    _ => Ok(()),
                }
            }
            "response.completed" => {
                self.end(v, s, false);
                Ok(())
            }
            "response.incomplete" => {
                self.end(v, s, true);
                Ok(())
            }
            "response.failed" => {
                self.failed(v, s);
                Ok(())
            }
            "error" => {
                Self::error_event(v, s);
                Ok(())
            }
            _ => Ok(()),
        };
        s.check(r);
    }
}
