//! Strict validator for OpenAI Chat Completions request bodies (provider-rules.md §2).
//!
//! [`validate`] walks one request body and reports every broken rule it can see, in document
//! order. Rule ids are the ones of provider-rules.md; `OAC-STRUCT` marks plain shape errors.
//!
//! Checked from one body (all of §2 is checkable from one body):
//!
//! - `OAC-STRUCT` — body is an object; `model` a non-empty string; `messages` a non-empty array
//!   of objects with a known role (`system`, `developer`, `user`, `assistant`, `tool`);
//!   `tool_calls` only on assistant messages, each `{id, type: "function", function: {name,
//!   arguments}}` with `arguments` a string that parses as JSON; tool messages carry a string
//!   `tool_call_id`; content is a string, an array of typed parts, or null; `tools[]` are
//!   `{type: "function", function: {name, description?, parameters?}}`.
//! - `OAC-01` every tool message sits in the contiguous run of tool messages right after an
//!   assistant message with `tool_calls`, and answers one of its ids.
//! - `OAC-02` every `tool_calls[].id` is answered in that run (missing ids listed).
//! - `OAC-03` `tool_calls[].id` and `tool_call_id` are at most 40 characters.
//! - `OAC-04` no empty call id, `tool_call_id`, function name, or `tool_calls: []`.
//! - `OAC-05` function names match `^[a-zA-Z0-9_-]{1,64}$` in `tools` and history; tool
//!   descriptions are at most 1024 characters.
//! - `OAC-06` content null/absent only on assistant messages with `tool_calls`; otherwise a
//!   non-empty string or non-empty array; with `tool_calls`, null or a non-empty string.
//! - `OAC-07` `image_url` parts only in user messages.
//! - `OAC-08` content part types by role: user {text, image_url, input_audio, file}, assistant
//!   {text, refusal}, system/developer/tool {text}.
//! - `OAC-09` tool-call ids unique across the request, and no id answered twice.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::providers::Violation;

/// Rule id for plain shape errors.
const STRUCT: &str = "OAC-STRUCT";
/// Maximum length of a tool-call id.
const MAX_CALL_ID_LEN: usize = 40;
/// Maximum length of a function name.
const MAX_NAME_LEN: usize = 64;
/// Maximum length of a tool description.
const MAX_DESCRIPTION_LEN: usize = 1024;

const OAC_01_MSG: &str = "Invalid parameter: messages with role 'tool' must be a response to a \
     preceeding message with 'tool_calls'.";
const OAC_05_PATTERN: &str = "string does not match pattern. Expected a string that matches the \
     pattern '^[a-zA-Z0-9_-]+$'.";
const EMPTY_STRING: &str =
    "empty string. Expected a string with minimum length 1, but got an empty string instead.";

/// Checks an OpenAI Chat Completions request body against every rule of provider-rules.md §2
/// (see the module documentation). Returns the violations in document order; an empty list
/// means the body passes.
///
/// ```
/// use turnwire::providers::openai_chat::validate::validate;
/// let body = serde_json::json!({
///     "model": "gpt-4.1", "messages": [{"role": "user", "content": "hi"}]
/// });
/// assert!(validate(&body).is_empty());
/// ```
pub fn validate(body: &Value) -> Vec<Violation> {
    let mut out = Findings::default();
    let Some(obj) = body.as_object() else {
        out.push(STRUCT, Path::root(), "request body must be a JSON object");
        return out.finish(body);
    };
    check_model(obj, &mut out);
    check_tools(obj, &mut out);
    if let Some(msgs) = parse_messages(obj, &mut out) {
        for msg in &msgs {
            check_tool_calls(msg, &mut out);
            check_tool_call_id(msg, &mut out);
            check_oac_06_content_presence(msg, &mut out);
            check_content_parts(msg, &mut out);
        }
        check_oac_01_02_tool_runs(&msgs, &mut out);
        check_oac_09_unique_call_ids(&msgs, &mut out);
    }
    out.finish(body)
}

// ---------------------------------------------------------------------------------------------
// Paths and ordering

/// One step of a JSON path.
#[derive(Debug, Clone)]
enum Seg {
    Key(&'static str),
    Idx(usize),
}

/// An owned JSON path (`$.messages[3].tool_calls[0].id`), built only when a violation is
/// reported.
#[derive(Debug, Clone, Default)]
struct Path(Vec<Seg>);

impl Path {
    fn root() -> Self {
        Path(Vec::new())
    }

    fn k(&self, key: &'static str) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Key(key));
        Path(segs)
    }

    fn i(&self, idx: usize) -> Self {
        let mut segs = self.0.clone();
        segs.push(Seg::Idx(idx));
        Path(segs)
    }

    fn msg(i: usize) -> Self {
        Path::root().k("messages").i(i)
    }

    fn render(&self) -> String {
        let mut s = String::from("$");
        for seg in &self.0 {
            match seg {
                Seg::Key(k) => {
                    s.push('.');
                    s.push_str(k);
                }
                Seg::Idx(i) => {
                    s.push('[');
                    s.push_str(&i.to_string());
                    s.push(']');
                }
            }
        }
        s
    }

    /// Position of the path in the document: object members by their position in the object,
    /// array elements by index; steps that do not exist sort last.
    fn order_key(&self, body: &Value) -> Vec<usize> {
        let mut cur = Some(body);
        let mut key = Vec::with_capacity(self.0.len());
        for seg in &self.0 {
            let (pos, next) = match (seg, cur) {
                (Seg::Key(k), Some(Value::Object(m))) => (
                    m.keys().position(|x| x == k).unwrap_or(usize::MAX),
                    m.get(*k),
                ),
                (Seg::Idx(i), Some(Value::Array(a))) => (*i, a.get(*i)),
                _ => (usize::MAX, None),
            };
            key.push(pos);
            cur = next;
        }
        key
    }
}

/// Violations collected in check order, sorted into document order at the end.
#[derive(Default)]
struct Findings(Vec<(Path, Violation)>);

impl Findings {
    fn push(&mut self, rule: &'static str, path: Path, message: impl Into<String>) {
        let rendered = path.render();
        self.0.push((path, Violation::new(rule, rendered, message)));
    }

    fn finish(self, body: &Value) -> Vec<Violation> {
        let mut keyed: Vec<(Vec<usize>, Violation)> = self
            .0
            .into_iter()
            .map(|(p, v)| (p.order_key(body), v))
            .collect();
        keyed.sort_by(|a, b| a.0.cmp(&b.0));
        keyed.into_iter().map(|(_, v)| v).collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Message view

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    System,
    Developer,
    User,
    Assistant,
    Tool,
}

impl Role {
    fn parse(s: &str) -> Option<Role> {
        match s {
            "system" => Some(Role::System),
            "developer" => Some(Role::Developer),
            "user" => Some(Role::User),
            "assistant" => Some(Role::Assistant),
            "tool" => Some(Role::Tool),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Role::System => "system",
            Role::Developer => "developer",
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    /// Content part types this role accepts (OAC-08).
    fn part_types(self) -> &'static [&'static str] {
        match self {
            Role::User => &["text", "image_url", "input_audio", "file"],
            Role::Assistant => &["text", "refusal"],
            Role::System | Role::Developer | Role::Tool => &["text"],
        }
    }
}

/// One message as far as it could be read.
struct Msg<'a> {
    idx: usize,
    obj: &'a Map<String, Value>,
    role: Option<Role>,
}

impl<'a> Msg<'a> {
    fn is(&self, role: Role) -> bool {
        self.role == Some(role)
    }

    fn path(&self) -> Path {
        Path::msg(self.idx)
    }

    /// The `tool_calls` array when present and an array.
    fn tool_calls(&self) -> Option<&'a [Value]> {
        self.obj
            .get("tool_calls")
            .and_then(Value::as_array)
            .map(Vec::as_slice)
    }

    /// Whether this is an assistant message with a non-empty `tool_calls` array.
    fn has_tool_calls(&self) -> bool {
        self.is(Role::Assistant) && self.tool_calls().is_some_and(|c| !c.is_empty())
    }

    /// `(index, id)` of every tool call with a string id.
    fn call_ids(&self) -> Vec<(usize, &'a str)> {
        self.tool_calls()
            .unwrap_or_default()
            .iter()
            .enumerate()
            .filter_map(|(j, c)| c.get("id").and_then(Value::as_str).map(|id| (j, id)))
            .collect()
    }

    fn tool_call_id(&self) -> Option<&'a str> {
        self.obj.get("tool_call_id").and_then(Value::as_str)
    }
}

/// Reads `messages`; reports shape errors; `None` when there is nothing to check further.
fn parse_messages<'a>(obj: &'a Map<String, Value>, out: &mut Findings) -> Option<Vec<Msg<'a>>> {
    let path = Path::root().k("messages");
    let msgs = match obj.get("messages") {
        None => {
            out.push(STRUCT, path, "Missing required parameter: 'messages'.");
            return None;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "messages must be an array");
            return None;
        }
    };
    if msgs.is_empty() {
        out.push(
            STRUCT,
            path,
            "empty array. Expected an array with minimum length 1, but got an empty array \
             instead.",
        );
        return None;
    }
    let mut parsed = Vec::with_capacity(msgs.len());
    for (i, m) in msgs.iter().enumerate() {
        let Some(mobj) = m.as_object() else {
            out.push(STRUCT, Path::msg(i), "message must be a JSON object");
            continue;
        };
        let role = match mobj.get("role").and_then(Value::as_str) {
            Some(r) => {
                let role = Role::parse(r);
                if role.is_none() {
                    out.push(
                        STRUCT,
                        Path::msg(i).k("role"),
                        format!(
                            "unknown role {r:?}; expected system, developer, user, assistant or \
                             tool"
                        ),
                    );
                }
                role
            }
            None => {
                out.push(
                    STRUCT,
                    Path::msg(i).k("role"),
                    "Missing required parameter: 'role'.",
                );
                None
            }
        };
        parsed.push(Msg {
            idx: i,
            obj: mobj,
            role,
        });
    }
    Some(parsed)
}

// ---------------------------------------------------------------------------------------------
// Top-level fields

fn check_model(obj: &Map<String, Value>, out: &mut Findings) {
    match obj.get("model") {
        Some(Value::String(s)) if !s.is_empty() => {}
        None => out.push(
            STRUCT,
            Path::root().k("model"),
            "Missing required parameter: 'model'.",
        ),
        Some(_) => out.push(
            STRUCT,
            Path::root().k("model"),
            "model must be a non-empty string",
        ),
    }
}

fn check_tools(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("tools");
    let tools = match obj.get("tools") {
        None | Some(Value::Null) => return,
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "tools must be an array");
            return;
        }
    };
    for (t, tool) in tools.iter().enumerate() {
        let tpath = path.i(t);
        if tool.get("type").and_then(Value::as_str) != Some("function") {
            out.push(STRUCT, tpath.k("type"), "tools[].type must be \"function\"");
        }
        let fpath = tpath.k("function");
        let Some(function) = tool.get("function").and_then(Value::as_object) else {
            out.push(
                STRUCT,
                fpath,
                "tools[].function must be an object with a name",
            );
            continue;
        };
        check_function_name(function.get("name"), &fpath.k("name"), out);
        match function.get("description") {
            None | Some(Value::Null) => {}
            Some(Value::String(d)) => check_oac_05_description(d, &fpath.k("description"), out),
            Some(_) => out.push(
                STRUCT,
                fpath.k("description"),
                "description must be a string",
            ),
        }
        if function
            .get("parameters")
            .is_some_and(|p| !p.is_object() && !p.is_null())
        {
            out.push(
                STRUCT,
                fpath.k("parameters"),
                "parameters must be a JSON Schema object",
            );
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Per-message checks

/// Shape of `tool_calls` plus OAC-03/04/05 on ids and names.
fn check_tool_calls(msg: &Msg<'_>, out: &mut Findings) {
    let path = msg.path().k("tool_calls");
    let calls = match msg.obj.get("tool_calls") {
        None | Some(Value::Null) => return,
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "tool_calls must be an array");
            return;
        }
    };
    if !msg.is(Role::Assistant) {
        out.push(
            STRUCT,
            path.clone(),
            "tool_calls is only allowed on assistant messages",
        );
    }
    if calls.is_empty() {
        out.push(
            "OAC-04",
            path,
            "empty array. Expected an array with minimum length 1, but got an empty array \
             instead.",
        );
        return;
    }
    for (j, call) in calls.iter().enumerate() {
        let cpath = path.i(j);
        if !call.is_object() {
            out.push(STRUCT, cpath, "tool call must be a JSON object");
            continue;
        }
        match call.get("id") {
            Some(Value::String(id)) => check_call_id(id, &cpath.k("id"), out),
            _ => out.push(
                STRUCT,
                cpath.k("id"),
                "Missing required parameter: 'id' (a string).",
            ),
        }
        if call.get("type").and_then(Value::as_str) != Some("function") {
            out.push(
                STRUCT,
                cpath.k("type"),
                "tool_calls[].type must be \"function\"",
            );
        }
        let fpath = cpath.k("function");
        let Some(function) = call.get("function").and_then(Value::as_object) else {
            out.push(
                STRUCT,
                fpath,
                "tool_calls[].function must be an object with name and arguments",
            );
            continue;
        };
        check_function_name(function.get("name"), &fpath.k("name"), out);
        check_arguments(function.get("arguments"), &fpath.k("arguments"), out);
    }
}

/// `function.arguments` is a string holding JSON.
fn check_arguments(args: Option<&Value>, path: &Path, out: &mut Findings) {
    match args {
        Some(Value::String(s)) => {
            if let Err(e) = serde_json::from_str::<Value>(s) {
                out.push(
                    STRUCT,
                    path.clone(),
                    format!("function.arguments is not valid JSON: {e}"),
                );
            }
        }
        _ => out.push(
            STRUCT,
            path.clone(),
            "function.arguments must be a string containing JSON",
        ),
    }
}

/// A tool message's `tool_call_id`: shape, OAC-03, OAC-04.
fn check_tool_call_id(msg: &Msg<'_>, out: &mut Findings) {
    if !msg.is(Role::Tool) {
        return;
    }
    let path = msg.path().k("tool_call_id");
    match msg.obj.get("tool_call_id") {
        Some(Value::String(id)) => check_call_id(id, &path, out),
        _ => out.push(
            STRUCT,
            path,
            "Missing required parameter: 'tool_call_id' (a string).",
        ),
    }
}

/// OAC-03 and OAC-04 on a call id or a `tool_call_id`.
fn check_call_id(id: &str, path: &Path, out: &mut Findings) {
    let len = id.chars().count();
    if len == 0 {
        out.push("OAC-04", path.clone(), EMPTY_STRING);
    } else if len > MAX_CALL_ID_LEN {
        out.push(
            "OAC-03",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_CALL_ID_LEN}, but \
                 got a string with length {len} instead."
            ),
        );
    }
}

/// Shape, OAC-04 (empty) and OAC-05 (pattern, length) on a function name.
fn check_function_name(name: Option<&Value>, path: &Path, out: &mut Findings) {
    let Some(name) = name.and_then(Value::as_str) else {
        out.push(
            STRUCT,
            path.clone(),
            "Missing required parameter: 'name' (a string).",
        );
        return;
    };
    let len = name.chars().count();
    if len == 0 {
        out.push("OAC-04", path.clone(), EMPTY_STRING);
    } else if !name
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        out.push("OAC-05", path.clone(), OAC_05_PATTERN);
    } else if len > MAX_NAME_LEN {
        out.push(
            "OAC-05",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_NAME_LEN}, but got \
                 a string with length {len} instead."
            ),
        );
    }
}

/// OAC-05: tool descriptions are at most 1024 characters.
fn check_oac_05_description(description: &str, path: &Path, out: &mut Findings) {
    let len = description.chars().count();
    if len > MAX_DESCRIPTION_LEN {
        out.push(
            "OAC-05",
            path.clone(),
            format!(
                "string too long. Expected a string with maximum length {MAX_DESCRIPTION_LEN}, \
                 but got a string with length {len} instead."
            ),
        );
    }
}

/// OAC-06: null/absent content only with tool_calls; otherwise non-empty content.
fn check_oac_06_content_presence(msg: &Msg<'_>, out: &mut Findings) {
    let path = msg.path().k("content");
    let with_calls = msg.has_tool_calls();
    match msg.obj.get("content") {
        None | Some(Value::Null) => {
            if !with_calls {
                out.push(
                    "OAC-06",
                    path,
                    "Invalid value for 'content': expected a string, got null.",
                );
            }
        }
        Some(Value::String(s)) => {
            if s.is_empty() {
                let msg_text = if with_calls {
                    "an assistant message with tool_calls must have null or non-empty content, \
                     not an empty string"
                } else {
                    "content must be a non-empty string"
                };
                out.push("OAC-06", path, msg_text);
            }
        }
        Some(Value::Array(parts)) => {
            if with_calls {
                out.push(
                    "OAC-06",
                    path,
                    "an assistant message with tool_calls must have null or a non-empty string \
                     content, not an array",
                );
            } else if parts.is_empty() {
                out.push("OAC-06", path, "content must not be an empty array");
            }
        }
        Some(_) => out.push(
            STRUCT,
            path,
            "content must be a string, an array of content parts, or null",
        ),
    }
}

/// Part shapes, OAC-07 (images only from users) and OAC-08 (part types by role).
fn check_content_parts(msg: &Msg<'_>, out: &mut Findings) {
    let Some(parts) = msg.obj.get("content").and_then(Value::as_array) else {
        return;
    };
    let cpath = msg.path().k("content");
    for (p, part) in parts.iter().enumerate() {
        let ppath = cpath.i(p);
        let Some(ty) = part.get("type").and_then(Value::as_str) else {
            out.push(
                STRUCT,
                ppath,
                "content part must be an object with a string `type`",
            );
            continue;
        };
        if let Some(role) = msg.role {
            if ty == "image_url" && role != Role::User {
                out.push(
                    "OAC-07",
                    ppath.clone(),
                    format!(
                        "Image URLs are only allowed for messages with role 'user', but this \
                         message with role '{}' contains an image URL.",
                        role.name()
                    ),
                );
            } else if !role.part_types().contains(&ty) {
                out.push(
                    "OAC-08",
                    ppath.k("type"),
                    format!(
                        "Invalid value: '{ty}'. Supported values for role '{}' are: {}.",
                        role.name(),
                        role.part_types()
                            .iter()
                            .map(|t| format!("'{t}'"))
                            .collect::<Vec<_>>()
                            .join(", ")
                    ),
                );
            }
        }
        check_part_fields(part, ty, &ppath, out);
    }
}

/// The payload field each known part type needs.
fn check_part_fields(part: &Value, ty: &str, path: &Path, out: &mut Findings) {
    let (field, ok, what): (&'static str, bool, &str) = match ty {
        "text" => (
            "text",
            part.get("text").is_some_and(Value::is_string),
            "a string",
        ),
        "refusal" => (
            "refusal",
            part.get("refusal").is_some_and(Value::is_string),
            "a string",
        ),
        "image_url" => (
            "image_url",
            part.get("image_url")
                .and_then(|u| u.get("url"))
                .is_some_and(Value::is_string),
            "an object with a string `url`",
        ),
        "input_audio" => (
            "input_audio",
            part.get("input_audio").is_some_and(Value::is_object),
            "an object",
        ),
        "file" => (
            "file",
            part.get("file").is_some_and(Value::is_object),
            "an object",
        ),
        _ => return,
    };
    if !ok {
        out.push(
            STRUCT,
            path.k(field),
            format!("a {ty:?} part needs `{field}` as {what}"),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Sequence rules

/// The open run of tool messages after an assistant message with tool_calls.
struct Run<'a> {
    assistant: usize,
    calls: Vec<&'a str>,
    answered: HashSet<&'a str>,
}

impl Run<'_> {
    /// OAC-02: every call id was answered before the run ended.
    fn close(self, out: &mut Findings) {
        let mut missing: Vec<&str> = Vec::new();
        for id in &self.calls {
            if !self.answered.contains(id) && !missing.contains(id) {
                missing.push(id);
            }
        }
        if !missing.is_empty() {
            out.push(
                "OAC-02",
                Path::msg(self.assistant),
                format!(
                    "An assistant message with 'tool_calls' must be followed by tool messages \
                     responding to each 'tool_call_id'. The following tool_call_ids did not have \
                     response messages: {}",
                    missing.join(", ")
                ),
            );
        }
    }
}

/// OAC-01 (tool messages answer the preceding tool_calls), OAC-02 (every call answered before
/// the next non-tool message) and the "answered twice" half of OAC-09.
fn check_oac_01_02_tool_runs(msgs: &[Msg<'_>], out: &mut Findings) {
    let mut run: Option<Run<'_>> = None;
    for msg in msgs {
        if msg.is(Role::Tool) {
            let Some(open) = run.as_mut() else {
                out.push("OAC-01", msg.path().k("role"), OAC_01_MSG);
                continue;
            };
            let Some(id) = msg.tool_call_id() else {
                continue;
            };
            if !open.calls.contains(&id) {
                out.push(
                    "OAC-01",
                    msg.path().k("tool_call_id"),
                    format!(
                        "{OAC_01_MSG} tool_call_id {id:?} matches no tool call of messages[{}].",
                        open.assistant
                    ),
                );
            } else if !open.answered.insert(id) {
                out.push(
                    "OAC-09",
                    msg.path().k("tool_call_id"),
                    format!("tool_call_id {id:?} is answered by more than one tool message"),
                );
            }
            continue;
        }
        if let Some(open) = run.take() {
            open.close(out);
        }
        if msg.has_tool_calls() {
            run = Some(Run {
                assistant: msg.idx,
                calls: msg.call_ids().into_iter().map(|(_, id)| id).collect(),
                answered: HashSet::new(),
            });
        }
    }
    if let Some(open) = run.take() {
        open.close(out);
    }
}

/// OAC-09: tool-call ids are unique across the request.
fn check_oac_09_unique_call_ids(msgs: &[Msg<'_>], out: &mut Findings) {
    let mut seen = HashSet::new();
    for msg in msgs.iter().filter(|m| m.is(Role::Assistant)) {
        for (j, id) in msg.call_ids() {
            if !id.is_empty() && !seen.insert(id) {
                out.push(
                    "OAC-09",
                    msg.path().k("tool_calls").i(j).k("id"),
                    format!("tool call id {id:?} is used more than once in the request"),
                );
            }
        }
    }
}
