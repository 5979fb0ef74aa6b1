//! The canonical transcript: the whole conversation, provider-neutral.

use serde::Deserialize;
use serde_json::{Map, Value};

use super::json_path::JsonPath;
use super::message::Message;
use super::node::{self, Node};
use super::node_text;
use crate::error::{Error, ErrorCode};
use crate::json;
use crate::vocab::Diagnostic;

/// An ordered list of messages in the JSON history shape of the TypeScript agent (IContent).
///
/// Reads either a bare array of messages or an object `{"messages": [...]}`; other members of
/// that object are kept in `extra`.
///
/// ```
/// use turnwire::Transcript;
/// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// assert_eq!(t.messages.len(), 1);
/// assert_eq!(t.to_json(), r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#);
/// # Ok::<(), turnwire::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Transcript {
    /// The messages, oldest first.
    pub messages: Vec<Message>,
    /// Members of a `{"messages": …}` wrapper other than `messages`.
    pub extra: Map<String, Value>,
    /// Repairs made while reading the JSON text (unpaired surrogates replaced, JavaScript
    /// values JSON cannot carry converted), each with the JSON path of the value. Every render
    /// reports them first; they are not part of the JSON history shape.
    pub read_repairs: Vec<Diagnostic>,
}

impl Transcript {
    /// A transcript of these messages.
    pub fn new(messages: Vec<Message>) -> Self {
        Transcript {
            messages,
            extra: Map::new(),
            read_repairs: Vec::new(),
        }
    }

    /// Parses JSON text. An unpaired UTF-16 surrogate escape (`"\ud83d"`, half an emoji cut
    /// by a JavaScript `slice`) is replaced by U+FFFD and reported in
    /// [`read_repairs`](Transcript::read_repairs), which every render lists first; a syntax
    /// error names the JSON path where the text broke.
    ///
    /// ```
    /// let t = turnwire::Transcript::from_json(r#"[{"speaker":"tool","blocks":[
    ///   {"type":"tool_response","callId":"c1","result":"cut \ud83d"}]}]"#)?;
    /// assert_eq!(t.read_repairs[0].path.as_deref(), Some("$[0].blocks[0].result"));
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn from_json(text: &str) -> Result<Transcript, Error> {
        // Read by turnwire's own parser: no `Value` tree for the messages and blocks, member
        // names borrowed (`node_text`); text it gives up on is parsed by serde_json, which
        // reports the errors.
        let (read, repairs) = json::parse_with_own(
            text,
            "$",
            "the transcript",
            |t| node_text::read_transcript(t).map(Transcript::from_node),
            |de| Value::deserialize(de).map(|v| Transcript::from_node(Node::Value(v))),
        )?;
        crate::memory::check("reading a transcript")?;
        let mut t = read?;
        json::report::push_capped(&mut t.read_repairs, json::report::surrogates(&repairs, "$"));
        Ok(t)
    }

    /// Reads a parsed JSON value.
    pub fn from_value(v: &Value) -> Result<Transcript, Error> {
        Transcript::from_value_owned(v.clone())
    }

    /// Reads a parsed JSON value it may take apart (no copy of the strings in it).
    ///
    /// ```
    /// let v = serde_json::json!([{"speaker": "human", "blocks": [{"type": "text", "text": "hi"}]}]);
    /// let t = turnwire::Transcript::from_value_owned(v)?;
    /// assert_eq!(t.messages.len(), 1);
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn from_value_owned(v: Value) -> Result<Transcript, Error> {
        Transcript::from_node(Node::Value(v))
    }

    /// Reads a document of the history shape: a message list or the wrapper object.
    fn from_node(v: Node<'_>) -> Result<Transcript, Error> {
        let root = JsonPath::Root;
        let v = match v.into_items() {
            Ok(items) => return Ok(Transcript::new(read_messages(items, &root)?)),
            Err(v) => v,
        };
        let mut extra = match v.into_members() {
            Ok(members) => members,
            Err(other) => {
                return Err(Error::new(
                    ErrorCode::InvalidType,
                    "$",
                    format!(
                        "a transcript is an array of messages or {{\"messages\": [...]}}, found {}",
                        other.type_name()
                    ),
                ))
            }
        };
        let msgs_path = root.key("messages");
        match node::take(&mut extra, "messages").map(Node::into_items) {
            Some(Ok(items)) => Ok(Transcript {
                messages: read_messages(items, &msgs_path)?,
                extra: node::into_map(extra),
                read_repairs: Vec::new(),
            }),
            Some(Err(other)) => Err(Error::new(
                ErrorCode::InvalidType,
                msgs_path.to_string(),
                format!("expected an array, found {}", other.type_name()),
            )),
            None => Err(Error::new(
                ErrorCode::MissingField,
                msgs_path.to_string(),
                "a transcript object needs a `messages` array",
            )),
        }
    }

    /// Writes the JSON history shape: a bare array, or the wrapper object when the input had
    /// other members.
    pub fn to_value(&self) -> Value {
        let messages = Value::Array(self.messages.iter().map(Message::write).collect());
        if self.extra.is_empty() {
            messages
        } else {
            let mut o = Map::new();
            o.insert("messages".into(), messages);
            for (k, v) in &self.extra {
                o.entry(k.clone()).or_insert_with(|| v.clone());
            }
            Value::Object(o)
        }
    }

    /// Writes compact JSON text.
    pub fn to_json(&self) -> String {
        self.to_value().to_string()
    }
}

fn read_messages(items: Vec<Node<'_>>, path: &JsonPath<'_>) -> Result<Vec<Message>, Error> {
    let mut out = Vec::with_capacity(items.len());
    for (i, m) in items.into_iter().enumerate() {
        // A message of the ordered-transcripts agent shape reads as the canonical one.
        let m = match m {
            Node::Object(members) if node::get(&members, "speaker").is_none() => {
                let v = Node::Object(members).into_value();
                Node::Value(super::agent_shape::canonical(&v).unwrap_or(v))
            }
            Node::Value(v) => Node::Value(super::agent_shape::canonical(&v).unwrap_or(v)),
            other => other,
        };
        out.push(Message::read_node(m, &path.index(i))?);
    }
    Ok(out)
}
