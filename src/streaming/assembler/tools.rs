//! Tool calls in the assembler: started with an id and a name, arguments kept as raw JSON
//! text, parsed once when the call completes.

use serde_json::{Map, Value};

use super::{Assembler, Content, Slot, ToolSlot};
use crate::model::ProviderMeta;
use crate::streaming::delta::Delta;
use crate::streaming::error::StreamError;

/// The arguments of a completed call: parsed JSON, or `{}` plus the raw text.
pub(super) fn parse_arguments(
    raw: &str,
    initial: Option<&Value>,
) -> Result<Value, (Value, String, String)> {
    if raw.trim().is_empty() {
        return Ok(initial
            .cloned()
            .unwrap_or_else(|| Value::Object(Map::new())));
    }
    crate::json::depth::from_str(raw)
        .map_err(|e| (Value::Object(Map::new()), raw.to_string(), e.to_string()))
}

impl Assembler {
    /// Starts a tool call. `initial` holds arguments given whole at the start, used when no
    /// argument text streams. A second call with an id already used is kept and reported.
    pub(crate) fn start_tool(
        &mut self,
        key: &str,
        id: &str,
        name: &str,
        meta: Option<ProviderMeta>,
        initial: Option<Value>,
    ) -> Result<(), StreamError> {
        let fresh_id = self.tool_ids.insert(id.to_string());
        let started = self.push_slot(
            key,
            Content::Tool(ToolSlot {
                id: id.to_string(),
                name: name.to_string(),
                raw: String::new(),
                initial,
                meta,
                done: None,
            }),
        );
        self.emit(Delta::ToolCallStart {
            id: id.to_string(),
            name: name.to_string(),
        });
        started?;
        if fresh_id {
            Ok(())
        } else {
            Err(StreamError::DuplicateToolCall { id: id.to_string() })
        }
    }

    /// The id and name of the open tool call under `key`.
    pub(crate) fn tool_of(&self, key: &str) -> Option<(&str, &str)> {
        let i = *self.open.get(key)?;
        match &self.slots.get(i)?.content {
            Content::Tool(t) => Some((&t.id, &t.name)),
            _ => None,
        }
    }

    /// Sets the name of the open tool call under `key` when it has none yet.
    pub(crate) fn name_tool(&mut self, key: &str, name: &str) {
        if let Some(Content::Tool(t)) = self.slot_mut(key).map(|s| &mut s.content) {
            if t.name.is_empty() {
                t.name = name.to_string();
            }
        }
    }

    /// Appends argument text to the open tool call under `key`. `OrphanToolDelta` when no call
    /// is open there (the piece is dropped: there is no call to attach it to).
    pub(crate) fn tool_args(&mut self, key: &str, delta: &str) -> Result<(), StreamError> {
        let id = match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Tool(t)) => {
                t.raw.push_str(delta);
                t.id.clone()
            }
            _ => {
                return Err(StreamError::OrphanToolDelta {
                    key: key.to_string(),
                })
            }
        };
        if !delta.is_empty() {
            self.emit(Delta::ToolCallArguments {
                id,
                delta: delta.to_string(),
            });
        }
        Ok(())
    }

    /// Replaces the argument text of the open tool call under `key` (an authoritative final
    /// event); false when no call is open there.
    pub(crate) fn set_tool_args(&mut self, key: &str, full: &str) -> bool {
        match self.slot_mut(key).map(|s| &mut s.content) {
            Some(Content::Tool(t)) => {
                t.raw = full.to_string();
                true
            }
            _ => false,
        }
    }

    /// Completes the open tool call under `key`, with `final_args` when the provider sent the
    /// whole arguments again, else with the text streamed. `UnknownToolComplete` when no call
    /// is open there; `InvalidArguments` when the text is not JSON (the call is kept with `{}`
    /// and its raw text).
    pub(crate) fn complete_tool(
        &mut self,
        key: &str,
        final_args: Option<&str>,
    ) -> Result<(), StreamError> {
        let Some(&i) = self.open.get(key) else {
            return Err(StreamError::UnknownToolComplete {
                key: key.to_string(),
            });
        };
        let Some(Slot {
            content: Content::Tool(t),
            ..
        }) = self.slots.get_mut(i)
        else {
            return Err(StreamError::UnknownToolComplete {
                key: key.to_string(),
            });
        };
        if let Some(f) = final_args {
            t.raw = f.to_string();
        }
        let (arguments, error) = match parse_arguments(&t.raw, t.initial.as_ref()) {
            Ok(v) => {
                t.done = Some((v.clone(), None));
                (v, None)
            }
            Err((v, raw, detail)) => {
                t.done = Some((v.clone(), Some(raw)));
                let e = StreamError::InvalidArguments {
                    id: t.id.clone(),
                    name: t.name.clone(),
                    detail,
                };
                (v, Some(e))
            }
        };
        let (id, name) = (t.id.clone(), t.name.clone());
        self.detach(key);
        self.emit(Delta::ToolCallComplete {
            id,
            name,
            arguments,
        });
        error.map_or(Ok(()), Err)
    }

    /// Adds a tool call that arrived whole (Gemini), started and completed at once.
    pub(crate) fn add_tool(
        &mut self,
        key: &str,
        id: &str,
        name: &str,
        arguments: Value,
        meta: Option<ProviderMeta>,
    ) -> Vec<StreamError> {
        let mut errors = Vec::new();
        if let Err(e) = self.start_tool(key, id, name, meta, Some(arguments)) {
            errors.push(e);
        }
        if let Err(e) = self.complete_tool(key, None) {
            errors.push(e);
        }
        errors
    }

    /// Completes every open tool call, in start order (chat formats complete all calls at the
    /// finish reason).
    pub(crate) fn complete_open_tools(&mut self) -> Vec<StreamError> {
        let keys: Vec<String> = self
            .slots
            .iter()
            .filter(|s| matches!(s.content, Content::Tool(_)))
            .filter_map(|s| s.key.clone())
            .collect();
        keys.iter()
            .filter_map(|k| self.complete_tool(k, None).err())
            .collect()
    }
}
