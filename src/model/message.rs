//! Messages: a speaker and its ordered blocks.

use serde_json::{Map, Value};

use super::block::Block;
use super::json_path::JsonPath;
use super::node::{into_map, take, Node};
use super::provenance::Provenance;
use super::read::{into_array, into_object, put_opt_str, take_opt_str, wrong_type};
use crate::error::{Error, ErrorCode};

/// Who speaks.
///
/// ```
/// use turnwire::model::Speaker;
/// assert_eq!(Speaker::parse("ai"), Some(Speaker::Ai));
/// assert_eq!(Speaker::Tool.as_str(), "tool");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Speaker {
    /// The user (`human`).
    Human,
    /// The model (`ai`).
    Ai,
    /// Tool results (`tool`).
    Tool,
    /// A system prompt (`system`), hoisted into the provider's system slot when rendered.
    System,
}

impl Speaker {
    /// Parses the JSON spelling.
    pub fn parse(s: &str) -> Option<Speaker> {
        Some(match s {
            "human" => Speaker::Human,
            "ai" => Speaker::Ai,
            "tool" => Speaker::Tool,
            "system" => Speaker::System,
            _ => return None,
        })
    }

    /// The JSON spelling.
    pub const fn as_str(self) -> &'static str {
        match self {
            Speaker::Human => "human",
            Speaker::Ai => "ai",
            Speaker::Tool => "tool",
            Speaker::System => "system",
        }
    }
}

/// Message metadata: provenance plus whatever else the agent stored.
///
/// The JSON shape is the TypeScript agent's: `provider`, `model`, `providerBaseURL` (the
/// endpoint) and turnwire's `api`; every other member is kept as is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Metadata {
    /// Provider, API, model and endpoint that produced the message.
    pub provenance: Provenance,
    /// Other metadata members, kept for the round trip.
    pub extra: Map<String, Value>,
}

/// One message of the canonical transcript.
///
/// ```
/// use turnwire::model::{Block, Message, Speaker, TextBlock};
/// let m = Message::new(Speaker::Human, vec![Block::Text(TextBlock::new("hi"))]);
/// assert_eq!(m.speaker, Speaker::Human);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Message {
    /// Who speaks.
    pub speaker: Speaker,
    /// Ordered content.
    pub blocks: Vec<Block>,
    /// Metadata, when present in the input.
    pub metadata: Option<Metadata>,
    /// Unknown top-level members, kept for the round trip.
    pub extra: Map<String, Value>,
}

impl Message {
    /// A message with no metadata.
    pub fn new(speaker: Speaker, blocks: Vec<Block>) -> Self {
        Message {
            speaker,
            blocks,
            metadata: None,
            extra: Map::new(),
        }
    }

    /// The message's provenance (empty when unknown).
    pub fn provenance(&self) -> Provenance {
        self.metadata
            .as_ref()
            .map(|m| m.provenance.clone())
            .unwrap_or_default()
    }

    pub(crate) fn read(v: Value, path: &JsonPath<'_>) -> Result<Message, Error> {
        Message::read_node(Node::Value(v), path)
    }

    /// Reads one message of the JSON history shape.
    pub(crate) fn read_node(v: Node<'_>, path: &JsonPath<'_>) -> Result<Message, Error> {
        let mut obj = into_object(v, path)?;
        let speaker = match take(&mut obj, "speaker") {
            Some(Node::Value(Value::String(s))) => Speaker::parse(&s).ok_or_else(|| {
                Error::new(
                    ErrorCode::InvalidValue,
                    path.key("speaker").to_string(),
                    format!("speaker must be one of human, ai, tool, system; found `{s}`"),
                )
            })?,
            Some(other) => return Err(wrong_type(&path.key("speaker"), "a string", &other)),
            None => {
                return Err(Error::new(
                    ErrorCode::MissingField,
                    path.key("speaker").to_string(),
                    "required field `speaker` is missing",
                ))
            }
        };
        let blocks_path = path.key("blocks");
        let blocks = match take(&mut obj, "blocks") {
            Some(v) => {
                let arr = into_array(v, &blocks_path)?;
                let mut out = Vec::with_capacity(arr.len());
                for (i, b) in arr.into_iter().enumerate() {
                    out.push(Block::read(b, &blocks_path.index(i))?);
                }
                out
            }
            None => {
                return Err(Error::new(
                    ErrorCode::MissingField,
                    blocks_path.to_string(),
                    "required field `blocks` is missing",
                ))
            }
        };
        let metadata = match take(&mut obj, "metadata") {
            None | Some(Node::Value(Value::Null)) => None,
            Some(m) => {
                let mpath = path.key("metadata");
                let mut mo = into_object(m, &mpath)?;
                let provenance = Provenance {
                    provider: take_opt_str(&mut mo, "provider", &mpath)?,
                    api: take_opt_str(&mut mo, "api", &mpath)?,
                    model: take_opt_str(&mut mo, "model", &mpath)?,
                    endpoint: take_opt_str(&mut mo, "providerBaseURL", &mpath)?,
                    host: take_opt_str(&mut mo, "host", &mpath)?,
                    account: take_opt_str(&mut mo, "account", &mpath)?,
                };
                Some(Metadata {
                    provenance,
                    extra: into_map(mo),
                })
            }
        };
        Ok(Message {
            speaker,
            blocks,
            metadata,
            extra: into_map(obj),
        })
    }

    pub(crate) fn write(&self) -> Value {
        let mut o = Map::new();
        o.insert("speaker".into(), self.speaker.as_str().into());
        o.insert(
            "blocks".into(),
            Value::Array(self.blocks.iter().map(Block::write).collect()),
        );
        if let Some(m) = &self.metadata {
            let mut mo = Map::new();
            put_opt_str(&mut mo, "provider", &m.provenance.provider);
            put_opt_str(&mut mo, "api", &m.provenance.api);
            put_opt_str(&mut mo, "model", &m.provenance.model);
            put_opt_str(&mut mo, "providerBaseURL", &m.provenance.endpoint);
            put_opt_str(&mut mo, "host", &m.provenance.host);
            put_opt_str(&mut mo, "account", &m.provenance.account);
            for (k, v) in &m.extra {
                mo.entry(k.clone()).or_insert_with(|| v.clone());
            }
            o.insert("metadata".into(), Value::Object(mo));
        }
        for (k, v) in &self.extra {
            o.entry(k.clone()).or_insert_with(|| v.clone());
        }
        Value::Object(o)
    }
}
