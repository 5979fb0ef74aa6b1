//! What every importer carries while it reads: the provenance of assistant turns, the tool
//! names of the calls seen so far (results often name only the call id), and the diagnostics.

use crate::fast_map::HashMap;

use serde_json::{Map, Value};

use crate::error::{Error, ErrorCode};
use crate::model::{Block, Message, Metadata, Provenance, Speaker};
use crate::vocab::{Diagnostic, DiagnosticCode, FaultClass};

/// The reading state of one import.
pub(crate) struct Reader {
    /// Provenance given to assistant messages.
    pub assistant: Provenance,
    /// Tool name by call id, for results that name only the id.
    pub names: HashMap<String, String>,
    /// Call ids read in another form (pi-ai's Responses `call_id|item_id`) → the canonical id,
    /// for the results that name them.
    pub renamed: HashMap<String, String>,
    /// What could not be carried as it was.
    pub diagnostics: Vec<Diagnostic>,
    /// The messages read so far.
    pub messages: Vec<Message>,
}

impl Reader {
    pub fn new(assistant: Provenance) -> Self {
        Reader {
            assistant,
            names: HashMap::default(),
            renamed: HashMap::default(),
            diagnostics: Vec::new(),
            messages: Vec::new(),
        }
    }

    /// Appends blocks as a message of `speaker` (nothing for no blocks); an assistant message
    /// gets the reader's provenance.
    pub fn push(&mut self, speaker: Speaker, blocks: Vec<Block>) {
        if blocks.is_empty() {
            return;
        }
        let mut m = Message::new(speaker, blocks);
        if speaker == Speaker::Ai && !self.assistant.is_empty() {
            m.metadata = Some(Metadata {
                provenance: self.assistant.clone(),
                extra: Map::new(),
            });
        }
        self.messages.push(m);
    }

    /// Appends blocks tagged with their speaker as one message per run of one speaker (a user
    /// turn that holds tool results and the user's own content: Gemini, Converse).
    pub fn push_runs(&mut self, blocks: Vec<(Speaker, Block)>) {
        let mut run: Option<(Speaker, Vec<Block>)> = None;
        for (speaker, block) in blocks {
            match run.as_mut() {
                Some((s, list)) if *s == speaker => list.push(block),
                _ => {
                    if let Some((s, list)) = run.take() {
                        self.push(s, list);
                    }
                    run = Some((speaker, vec![block]));
                }
            }
        }
        if let Some((s, list)) = run {
            self.push(s, list);
        }
    }

    /// What was read, with the options of a body when there was one.
    pub fn finish(self, options: Option<crate::request::RenderOptions>) -> super::Imported {
        super::Imported {
            transcript: crate::model::Transcript::new(self.messages),
            options,
            diagnostics: self.diagnostics,
        }
    }

    /// Keeps the members of a provider message that turnwire does not read (all but `known`)
    /// on the canonical message last pushed, so they survive in the transcript.
    pub fn keep_extra(&mut self, message: &Value, known: &[&str]) {
        let Value::Object(fields) = message else {
            return;
        };
        let extra: Map<String, Value> = fields
            .iter()
            .filter(|(k, _)| !known.contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        if let (false, Some(last)) = (extra.is_empty(), self.messages.last_mut()) {
            last.extra.extend(extra);
        }
    }

    /// Keeps a part the transcript has no block for as an opaque block, and says so.
    pub fn opaque(&mut self, part: Value, path: &str, what: &str) -> Block {
        self.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::ImportOpaque,
                FaultClass::CanonicalState,
                format!("{what} has no canonical block; it is kept as an opaque block, which renders leave out"),
            )
            .at_path(path),
        );
        Block::Other(part)
    }

    /// Notes a value that was read in another form than it had.
    pub fn note(&mut self, path: &str, message: impl Into<String>) {
        self.diagnostics.push(
            Diagnostic::new(
                DiagnosticCode::ImportConverted,
                FaultClass::CanonicalState,
                message,
            )
            .at_path(path),
        );
    }
}

/// The error of a value of the wrong JSON type.
pub(crate) fn wrong_type(path: &str, expected: &str, got: &Value) -> Error {
    Error::new(
        ErrorCode::InvalidType,
        path,
        format!(
            "expected {expected}, found {}",
            crate::model::type_name(got)
        ),
    )
}

/// The `type` of a part (`""` when it has none).
pub(crate) fn part_type(part: &Value) -> &str {
    part.get("type").and_then(Value::as_str).unwrap_or_default()
}

/// A string member, or the error naming its path.
pub(crate) fn string_at<'a>(v: &'a Value, key: &str, path: &str) -> Result<&'a str, Error> {
    match v.get(key) {
        Some(Value::String(s)) => Ok(s),
        Some(other) => Err(wrong_type(&format!("{path}.{key}"), "a string", other)),
        None => Err(Error::new(
            ErrorCode::MissingField,
            format!("{path}.{key}"),
            format!("required field `{key}` is missing"),
        )),
    }
}

/// Content parts as a list: a string is one text part, `null` none.
pub(crate) fn parts(content: &Value, path: &str) -> Result<Vec<Value>, Error> {
    match content {
        Value::Null => Ok(Vec::new()),
        Value::String(s) => Ok(vec![serde_json::json!({"type": "text", "text": s})]),
        Value::Array(a) => Ok(a.clone()),
        other => Err(wrong_type(
            path,
            "a string or an array of content parts",
            other,
        )),
    }
}

/// The provenance of the assistant turns of a `provider` history: its wire API, the caller's
/// model, else the body's.
pub(crate) fn provenance(
    provider: crate::vocab::Provider,
    body: Option<&Map<String, Value>>,
    source: &super::ImportSource,
) -> Provenance {
    let model = source.model.clone().or_else(|| {
        body.and_then(|b| b.get("model"))
            .and_then(Value::as_str)
            .map(|m| m.strip_prefix("models/").unwrap_or(m).to_string())
    });
    Provenance {
        provider: Some(provider.as_str().to_string()),
        api: Some(provider.wire_api().to_string()),
        model,
        endpoint: source.endpoint.clone(),
        host: source
            .host
            .or_else(|| body.and_then(host_of_body))
            .map(|h| h.as_str().to_string()),
        account: source.account.clone(),
    }
}

/// The host a request body names by its envelope: `anthropic_version` `bedrock-2023-05-31`
/// (Bedrock InvokeModel) or `vertex-2023-10-16` (Vertex AI), the host table's body versions.
pub(crate) fn host_of_body(body: &Map<String, Value>) -> Option<crate::vocab::Host> {
    let version = body.get("anthropic_version")?.as_str()?;
    crate::hosts::ROWS
        .iter()
        .find(|r| matches!(r.version, crate::hosts::VersionAt::Body(v) if v == version))
        .map(|r| r.host)
}
