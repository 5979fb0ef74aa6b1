//! The canonical transcript: the whole conversation, provider-neutral.

use serde_json::{Map, Value};

use super::json_path::JsonPath;
use super::message::Message;
use super::read::type_name;
use crate::error::{Error, ErrorCode};
use crate::json;
use crate::normalize::Diagnostic;

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
        let parsed = json::parse(text, "$", "the transcript")?;
        crate::memory::check("reading a transcript")?;
        let mut t = Transcript::from_value_owned(parsed.value)?;
        crate::memory::check("reading a transcript")?;
        json::report::push_capped(
            &mut t.read_repairs,
            json::report::surrogates(&parsed.repairs, "$"),
        );
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
        let root = JsonPath::Root;
        match v {
            Value::Array(items) => Ok(Transcript::new(read_messages(items, &root)?)),
            Value::Object(obj) => {
                let mut extra = obj;
                let msgs_path = root.key("messages");
                match extra.shift_remove("messages") {
                    Some(Value::Array(items)) => Ok(Transcript {
                        messages: read_messages(items, &msgs_path)?,
                        extra,
                        read_repairs: Vec::new(),
                    }),
                    Some(other) => Err(Error::new(
                        ErrorCode::InvalidType,
                        msgs_path.to_string(),
                        format!("expected an array, found {}", type_name(&other)),
                    )),
                    None => Err(Error::new(
                        ErrorCode::MissingField,
                        msgs_path.to_string(),
                        "a transcript object needs a `messages` array",
                    )),
                }
            }
            other => Err(Error::new(
                ErrorCode::InvalidType,
                "$",
                format!(
                    "a transcript is an array of messages or {{\"messages\": [...]}}, found {}",
                    type_name(&other)
                ),
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

fn read_messages(items: Vec<Value>, path: &JsonPath<'_>) -> Result<Vec<Message>, Error> {
    let mut out = Vec::with_capacity(items.len());
    for (i, m) in items.into_iter().enumerate() {
        // A message of the ordered-transcripts agent shape reads as the canonical one.
        let m = super::agent_shape::canonical(&m).unwrap_or(m);
        out.push(Message::read(m, &path.index(i))?);
    }
    Ok(out)
}
