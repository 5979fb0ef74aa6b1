//! Strict validator for Anthropic Messages request bodies (provider-rules.md §1).
//!
//! [`validate`] walks one request body and reports every broken rule it can see, in document
//! order. Rule ids are the ones of provider-rules.md; `ANT-STRUCT` marks plain shape errors
//! (wrong types, missing fields, unknown roles or block types).
//!
//! Checked from one body:
//!
//! - `ANT-STRUCT` — body is an object; `model` a non-empty string; `max_tokens` a positive
//!   integer; `thinking` is `enabled` (integer `budget_tokens` ≥ 1024 and below `max_tokens`),
//!   `adaptive` or `disabled`; `system` a string or text blocks; `tools[]` have a `name` and (for
//!   custom tools) an `input_schema` object; `messages` a non-empty array of `user`/`assistant`
//!   messages whose content is a string or an array of known blocks with the right fields.
//! - `ANT-01` first message is `user`. `ANT-02` roles alternate.
//! - `ANT-03` each `tool_result` answers a `tool_use` of the immediately previous assistant
//!   message (also: `tool_result` inside an assistant message).
//! - `ANT-04` each `tool_use` is answered in the very next message, which is a user message
//!   (also: a request ending on an assistant `tool_use`; `tool_use` inside a user message).
//! - `ANT-05` after `tool_use`, the user message starts with its `tool_result` blocks.
//! - `ANT-06` at most one `tool_result` per `tool_use` id in a message (a late duplicate in a
//!   later message is reported by `ANT-03`).
//! - `ANT-07` `tool_use` ids unique across the request.
//! - `ANT-08` `tool_use.id` / `tool_result.tool_use_id` match `^[a-zA-Z0-9_-]{1,64}$`;
//!   `server_tool_use.id` matches `^srvtoolu_[a-zA-Z0-9_]+$`.
//! - `ANT-09` no empty or whitespace-only text (text blocks, text inside `tool_result`, system
//!   text blocks, string `content`, string `tool_result` content) and no empty content array.
//! - `ANT-10` thinking on and the request ends in an open tool loop (last message: a user message
//!   with `tool_result` blocks): the final assistant message starts with `thinking` or
//!   `redacted_thinking`. Earlier, closed loops need no thinking.
//! - `ANT-11` an assistant message holding thinking starts with it (also: thinking blocks inside
//!   a user message).
//! - `ANT-13` `thinking` blocks carry a non-empty string `signature`.
//! - `ANT-15` thinking off: a final assistant message holds no thinking.
//! - `ANT-16` an assistant message does not end with a thinking block.
//! - `ANT-17` `redacted_thinking` carries non-empty string `data`.
//! - `ANT-18` at most 4 `cache_control` markers across tools, system and messages (nested
//!   `tool_result` content included).
//! - `ANT-19` images (also inside `tool_result`): media type jpeg/png/gif/webp; base64 alphabet and
//!   padding; decoded size ≤ 5 MB; leading bytes match the declared media type.
//! - `ANT-20` declared tool names match `^[a-zA-Z0-9_-]{1,64}$` and are unique; when `tools` is
//!   sent, every `tool_use.name` in history is a declared name.
//!
//! Not checkable from one body:
//!
//! - `ANT-12` a signature is valid only for the provider, model, conversation and system prompt
//!   that produced it; checking it needs Anthropic's key and the original response.
//! - `ANT-14` immutability of the latest assistant message's thinking needs the original response
//!   to compare against.
//! - `ANT-21` is a Bedrock (Converse) rule; this validator checks the first-party body.
//! - `ANT-19` image dimensions (≤ 8000 px) would need image decoding; not checked.

use std::collections::HashSet;

use serde_json::{Map, Value};

use crate::model::media_data::{base64_decoded_len, base64_prefix, sniff_image};
use crate::providers::Violation;

/// Rule id for plain shape errors.
const STRUCT: &str = "ANT-STRUCT";
/// Strict id length limit (Bedrock `toolUseId` is 1..64; first-party has no captured maximum).
const MAX_ID_LEN: usize = 64;
/// Tool names: provider-rules.md quotes both 64 (older pattern) and 128 (newer limit); the strict
/// validator uses 64 so a body valid here is valid for both.
const MAX_TOOL_NAME_LEN: usize = 64;
/// Maximum number of `cache_control` markers in one request.
const MAX_CACHE_MARKERS: usize = 4;
/// Maximum decoded size of a base64 image.
const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
/// Minimum extended-thinking budget.
const MIN_THINKING_BUDGET: u64 = 1024;
/// Accepted image media types.
const IMAGE_MEDIA_TYPES: [&str; 4] = ["image/jpeg", "image/png", "image/gif", "image/webp"];
/// Server-tool block types that may appear in history; accepted without deeper checks.
const SERVER_BLOCK_TYPES: [&str; 9] = [
    "web_search_tool_result",
    "web_fetch_tool_result",
    "code_execution_tool_result",
    "bash_code_execution_tool_result",
    "text_editor_code_execution_tool_result",
    "mcp_tool_use",
    "mcp_tool_result",
    "container_upload",
    "search_result",
];

const ANT_01_MSG: &str = "first message must use the \"user\" role";
const ANT_05_TAIL: &str = "Messages following `tool_use` blocks must begin with a matching number \
     of `tool_result` blocks.";
const ANT_09_EMPTY: &str = "text content blocks must be non-empty";
const ANT_09_BLANK: &str = "text content blocks must contain non-whitespace text";
const ANT_10_TAIL: &str = "When `thinking` is enabled, a final `assistant` message must start \
     with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). \
     We recommend you include thinking blocks from previous turns. To avoid this requirement, \
     disable `thinking`.";
const ANT_15_MSG: &str = "When thinking is disabled, an `assistant` message in the final position \
     cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.";
const ANT_16_MSG: &str = "The final block in an assistant message cannot be `thinking`.";

/// Checks an Anthropic Messages request body against every rule of provider-rules.md §1 that
/// can be checked from one body (see the module documentation). Returns the violations in
/// document order; an empty list means the body passes.
///
/// ```
/// use turnwire::providers::anthropic::validate::validate;
/// let body = serde_json::json!({
///     "model": "claude-sonnet-4-5", "max_tokens": 64,
///     "messages": [{"role": "user", "content": "hi"}]
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
    let max_tokens = check_max_tokens(obj, &mut out);
    let thinking_on = check_thinking_config(obj, max_tokens, &mut out);
    check_system(obj, &mut out);
    let declared = check_tools(obj, &mut out);
    if let Some(msgs) = parse_messages(obj, &mut out) {
        for (i, msg) in msgs.iter().enumerate() {
            check_message_blocks(i, msg, &mut out);
        }
        check_ant_01_first_user(&msgs, &mut out);
        check_ant_02_alternation(&msgs, &mut out);
        check_ant_03_results_answer_previous(&msgs, &mut out);
        check_ant_04_uses_answered_next(&msgs, &mut out);
        check_ant_05_results_first(&msgs, &mut out);
        check_ant_06_one_result_per_use(&msgs, &mut out);
        check_ant_07_unique_tool_use_ids(&msgs, &mut out);
        check_ant_10_open_loop_starts_with_thinking(&msgs, thinking_on, &mut out);
        check_ant_11_thinking_first(&msgs, &mut out);
        check_ant_15_final_thinking_when_off(&msgs, thinking_on, &mut out);
        check_ant_16_not_ending_with_thinking(&msgs, &mut out);
        check_ant_20_history_names(&msgs, declared.as_ref(), &mut out);
    }
    check_ant_18_cache_markers(obj, &mut out);
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

/// An owned JSON path (`$.messages[3].content[0].id`), built only when a violation is reported.
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

    fn block(i: usize, b: usize) -> Self {
        Path::msg(i).k("content").i(b)
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
    User,
    Assistant,
}

impl Role {
    fn name(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
        }
    }
}

/// The content of one message as far as it could be read.
enum Content<'a> {
    Text(&'a str),
    Blocks(&'a [Value]),
    Invalid,
}

/// One message as far as it could be read.
struct Msg<'a> {
    role: Option<Role>,
    content: Content<'a>,
}

impl<'a> Msg<'a> {
    /// Content blocks with their index (none for string or unreadable content).
    fn blocks(&self) -> impl Iterator<Item = (usize, &'a Value)> {
        let slice: &'a [Value] = match self.content {
            Content::Blocks(b) => b,
            _ => &[],
        };
        slice.iter().enumerate()
    }

    /// Blocks of one type with their index.
    fn blocks_of(&self, ty: &'static str) -> impl Iterator<Item = (usize, &'a Value)> {
        self.blocks()
            .filter(move |(_, b)| block_type(b) == Some(ty))
    }

    /// `(block index, id)` of every `tool_use` block with a string id.
    fn tool_use_ids(&self) -> Vec<(usize, &'a str)> {
        self.blocks_of("tool_use")
            .filter_map(|(b, v)| v.get("id").and_then(Value::as_str).map(|id| (b, id)))
            .collect()
    }

    /// `(block index, id)` of every `tool_result` block with a string `tool_use_id`.
    fn tool_result_ids(&self) -> Vec<(usize, &'a str)> {
        self.blocks_of("tool_result")
            .filter_map(|(b, v)| {
                v.get("tool_use_id")
                    .and_then(Value::as_str)
                    .map(|id| (b, id))
            })
            .collect()
    }

    fn is(&self, role: Role) -> bool {
        self.role == Some(role)
    }

    fn has_thinking(&self) -> bool {
        self.blocks().any(|(_, b)| is_thinking_block(b))
    }
}

fn block_type(b: &Value) -> Option<&str> {
    b.get("type").and_then(Value::as_str)
}

fn is_thinking_block(b: &Value) -> bool {
    matches!(block_type(b), Some("thinking" | "redacted_thinking"))
}

/// Reads `messages`; reports shape errors; `None` when there is nothing to check further.
fn parse_messages<'a>(obj: &'a Map<String, Value>, out: &mut Findings) -> Option<Vec<Msg<'a>>> {
    let path = Path::root().k("messages");
    let msgs = match obj.get("messages") {
        None => {
            out.push(STRUCT, path, "messages: Field required");
            return None;
        }
        Some(Value::Array(a)) => a,
        Some(_) => {
            out.push(STRUCT, path, "messages must be an array");
            return None;
        }
    };
    if msgs.is_empty() {
        out.push(STRUCT, path, "messages must contain at least one message");
        return None;
    }
    let parsed = msgs
        .iter()
        .enumerate()
        .map(|(i, m)| parse_message(i, m, out))
        .collect();
    Some(parsed)
}

fn parse_message<'a>(i: usize, m: &'a Value, out: &mut Findings) -> Msg<'a> {
    let Some(obj) = m.as_object() else {
        out.push(STRUCT, Path::msg(i), "message must be a JSON object");
        return Msg {
            role: None,
            content: Content::Invalid,
        };
    };
    let role = match obj.get("role").and_then(Value::as_str) {
        Some("user") => Some(Role::User),
        Some("assistant") => Some(Role::Assistant),
        Some(other) => {
            out.push(
                STRUCT,
                Path::msg(i).k("role"),
                format!(
                    "role must be \"user\" or \"assistant\", found {other:?} (system text goes \
                     in the top-level `system` field)"
                ),
            );
            None
        }
        None => {
            out.push(
                STRUCT,
                Path::msg(i).k("role"),
                "role: Field required (\"user\" or \"assistant\")",
            );
            None
        }
    };
    let content = match obj.get("content") {
        Some(Value::String(s)) => Content::Text(s),
        Some(Value::Array(a)) => Content::Blocks(a),
        Some(_) => {
            out.push(
                STRUCT,
                Path::msg(i).k("content"),
                "content must be a string or an array of content blocks",
            );
            Content::Invalid
        }
        None => {
            out.push(STRUCT, Path::msg(i).k("content"), "content: Field required");
            Content::Invalid
        }
    };
    Msg { role, content }
}

// ---------------------------------------------------------------------------------------------
// Top-level fields

fn check_model(obj: &Map<String, Value>, out: &mut Findings) {
    match obj.get("model") {
        None => out.push(STRUCT, Path::root().k("model"), "model: Field required"),
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(_) => out.push(
            STRUCT,
            Path::root().k("model"),
            "model must be a non-empty string",
        ),
    }
}

/// Returns `max_tokens` when it is valid.
fn check_max_tokens(obj: &Map<String, Value>, out: &mut Findings) -> Option<u64> {
    let path = Path::root().k("max_tokens");
    match obj.get("max_tokens") {
        None => {
            out.push(STRUCT, path, "max_tokens: Field required");
            None
        }
        Some(v) => match v.as_u64() {
            Some(n) if n > 0 => Some(n),
            _ => {
                out.push(STRUCT, path, "max_tokens must be a positive integer");
                None
            }
        },
    }
}

/// Returns whether thinking is on (`enabled` or `adaptive`).
fn check_thinking_config(
    obj: &Map<String, Value>,
    max_tokens: Option<u64>,
    out: &mut Findings,
) -> bool {
    let path = Path::root().k("thinking");
    let Some(cfg) = obj.get("thinking") else {
        return false;
    };
    let Some(cfg) = cfg.as_object() else {
        out.push(STRUCT, path, "thinking must be an object");
        return false;
    };
    match cfg.get("type").and_then(Value::as_str) {
        Some("enabled") => {
            let bpath = path.k("budget_tokens");
            match cfg.get("budget_tokens").and_then(Value::as_u64) {
                None => out.push(
                    STRUCT,
                    bpath,
                    "thinking.budget_tokens must be a positive integer when thinking is enabled",
                ),
                Some(n) if n < MIN_THINKING_BUDGET => out.push(
                    STRUCT,
                    bpath,
                    "thinking.budget_tokens: Input should be greater than or equal to 1024",
                ),
                Some(n) => {
                    if max_tokens.is_some_and(|max| n >= max) {
                        out.push(
                            STRUCT,
                            bpath,
                            "`max_tokens` must be greater than `thinking.budget_tokens`",
                        );
                    }
                }
            }
            true
        }
        Some("adaptive") => true,
        Some("disabled") => false,
        _ => {
            out.push(
                STRUCT,
                path.k("type"),
                "thinking.type must be \"enabled\", \"adaptive\" or \"disabled\"",
            );
            false
        }
    }
}

fn check_system(obj: &Map<String, Value>, out: &mut Findings) {
    let path = Path::root().k("system");
    match obj.get("system") {
        None | Some(Value::String(_)) => {}
        Some(Value::Array(blocks)) => {
            for (b, block) in blocks.iter().enumerate() {
                let bpath = path.i(b);
                if block_type(block) == Some("text") {
                    check_text_block(block, &bpath, out);
                } else {
                    out.push(STRUCT, bpath, "system blocks must be text blocks");
                }
            }
        }
        Some(_) => out.push(
            STRUCT,
            path,
            "system must be a string or an array of text blocks",
        ),
    }
}

/// Checks `tools`; returns the declared names when `tools` is a readable array.
fn check_tools<'a>(obj: &'a Map<String, Value>, out: &mut Findings) -> Option<HashSet<&'a str>> {
    let path = Path::root().k("tools");
    let tools = match obj.get("tools")? {
        Value::Array(a) => a,
        _ => {
            out.push(STRUCT, path, "tools must be an array");
            return None;
        }
    };
    let mut names = HashSet::new();
    for (t, tool) in tools.iter().enumerate() {
        let tpath = path.i(t);
        let Some(tool_obj) = tool.as_object() else {
            out.push(STRUCT, tpath, "tool must be a JSON object");
            continue;
        };
        match tool_obj.get("name").and_then(Value::as_str) {
            None => out.push(STRUCT, tpath.k("name"), "name: Field required (a string)"),
            Some(name) => {
                check_ant_20_tool_name(name, &tpath.k("name"), out);
                if !names.insert(name) {
                    out.push("ANT-20", tpath.k("name"), "Tool names must be unique.");
                }
            }
        }
        let custom = matches!(tool_obj.get("type"), None | Some(Value::Null))
            || tool_obj.get("type").and_then(Value::as_str) == Some("custom");
        if custom && !tool_obj.get("input_schema").is_some_and(Value::is_object) {
            out.push(
                STRUCT,
                tpath.k("input_schema"),
                "input_schema: Field required (a JSON Schema object)",
            );
        }
        if tool_obj.get("description").is_some_and(|d| !d.is_string()) {
            out.push(
                STRUCT,
                tpath.k("description"),
                "description must be a string",
            );
        }
    }
    Some(names)
}

// ---------------------------------------------------------------------------------------------
// Blocks

/// Shape checks and the per-block rules (ANT-08, ANT-09, ANT-13, ANT-17, ANT-19, misplaced
/// blocks) for one message.
fn check_message_blocks(i: usize, msg: &Msg<'_>, out: &mut Findings) {
    match msg.content {
        Content::Text(s) => check_text(s, &Path::msg(i).k("content"), out),
        Content::Blocks([]) => out.push(
            "ANT-09",
            Path::msg(i).k("content"),
            "all messages must have non-empty content",
        ),
        Content::Blocks(_) | Content::Invalid => {}
    }
    for (b, block) in msg.blocks() {
        check_block(msg.role, block, &Path::block(i, b), out);
    }
}

fn check_block(role: Option<Role>, block: &Value, path: &Path, out: &mut Findings) {
    if !block.is_object() {
        out.push(STRUCT, path.clone(), "content block must be a JSON object");
        return;
    }
    let Some(ty) = block_type(block) else {
        out.push(STRUCT, path.k("type"), "content block type: Field required");
        return;
    };
    match ty {
        "text" => check_text_block(block, path, out),
        "image" => check_image(block, path, out),
        "document" => check_document(block, path, out),
        "tool_use" => {
            if role == Some(Role::User) {
                out.push(
                    "ANT-04",
                    path.clone(),
                    "`tool_use` blocks may only appear in assistant messages",
                );
            }
            check_tool_use(block, path, out);
        }
        "tool_result" => {
            if role == Some(Role::Assistant) {
                out.push(
                    "ANT-03",
                    path.clone(),
                    "`tool_result` blocks may only appear in user messages",
                );
            }
            check_tool_result(block, path, out);
        }
        "thinking" | "redacted_thinking" => {
            if role == Some(Role::User) {
                out.push(
                    "ANT-11",
                    path.clone(),
                    format!("`{ty}` blocks may only appear in assistant messages"),
                );
            }
            if ty == "thinking" {
                check_thinking_block(block, path, out);
            } else {
                check_ant_17_redacted(block, path, out);
            }
        }
        "server_tool_use" => check_server_tool_use(block, path, out),
        t if SERVER_BLOCK_TYPES.contains(&t) => {}
        other => out.push(
            STRUCT,
            path.k("type"),
            format!("unknown content block type {other:?}"),
        ),
    }
}

/// ANT-09 on a text value (block text, string content, string tool_result content).
fn check_text(text: &str, path: &Path, out: &mut Findings) {
    if text.is_empty() {
        out.push("ANT-09", path.clone(), ANT_09_EMPTY);
    } else if text.trim().is_empty() {
        out.push("ANT-09", path.clone(), ANT_09_BLANK);
    }
}

fn check_text_block(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("text") {
        Some(Value::String(s)) => check_text(s, &path.k("text"), out),
        _ => out.push(STRUCT, path.k("text"), "text block needs a string `text`"),
    }
}

fn check_document(block: &Value, path: &Path, out: &mut Findings) {
    if !block.get("source").is_some_and(Value::is_object) {
        out.push(
            STRUCT,
            path.k("source"),
            "document block needs a `source` object",
        );
    }
}

fn check_tool_use(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("id") {
        Some(Value::String(id)) => check_ant_08_id(id, &path.k("id"), out),
        _ => out.push(
            STRUCT,
            path.k("id"),
            "tool_use.id: Field required (a string)",
        ),
    }
    if !block.get("name").is_some_and(Value::is_string) {
        out.push(
            STRUCT,
            path.k("name"),
            "tool_use.name: Field required (a string)",
        );
    }
    if !block.get("input").is_some_and(Value::is_object) {
        out.push(
            STRUCT,
            path.k("input"),
            "tool_use.input must be a JSON object",
        );
    }
}

fn check_server_tool_use(block: &Value, path: &Path, out: &mut Findings) {
    let ipath = path.k("id");
    match block.get("id").and_then(Value::as_str) {
        None => out.push(
            STRUCT,
            ipath,
            "server_tool_use.id: Field required (a string)",
        ),
        Some(id) => {
            let rest = id.strip_prefix("srvtoolu_").unwrap_or("");
            let ok =
                !rest.is_empty() && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !ok {
                out.push(
                    "ANT-08",
                    ipath,
                    "String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'",
                );
            }
        }
    }
}

fn check_tool_result(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("tool_use_id") {
        Some(Value::String(id)) => check_ant_08_id(id, &path.k("tool_use_id"), out),
        _ => out.push(
            STRUCT,
            path.k("tool_use_id"),
            "tool_result.tool_use_id: Field required (a string)",
        ),
    }
    if block.get("is_error").is_some_and(|e| !e.is_boolean()) {
        out.push(
            STRUCT,
            path.k("is_error"),
            "tool_result.is_error must be a boolean",
        );
    }
    let cpath = path.k("content");
    match block.get("content") {
        None => {}
        Some(Value::String(s)) => check_text(s, &cpath, out),
        Some(Value::Array(items)) => {
            for (k, item) in items.iter().enumerate() {
                let ipath = cpath.i(k);
                match block_type(item) {
                    Some("text") => check_text_block(item, &ipath, out),
                    Some("image") => check_image(item, &ipath, out),
                    Some("document") => check_document(item, &ipath, out),
                    Some("search_result") => {}
                    _ => out.push(
                        STRUCT,
                        ipath,
                        "tool_result content blocks must be text, image, document or \
                         search_result blocks",
                    ),
                }
            }
        }
        Some(_) => out.push(
            STRUCT,
            cpath,
            "tool_result.content must be a string or an array of content blocks",
        ),
    }
}

fn check_thinking_block(block: &Value, path: &Path, out: &mut Findings) {
    if !block.get("thinking").is_some_and(Value::is_string) {
        out.push(
            STRUCT,
            path.k("thinking"),
            "thinking block needs a string `thinking`",
        );
    }
    check_ant_13_signature(block, path, out);
}

// ---------------------------------------------------------------------------------------------
// ID and name patterns

fn is_id_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '-'
}

/// ANT-08: `^[a-zA-Z0-9_-]{1,64}$` on tool_use ids and tool_result references.
fn check_ant_08_id(id: &str, path: &Path, out: &mut Findings) {
    if id.is_empty() {
        out.push(
            "ANT-08",
            path.clone(),
            "String should have at least 1 character",
        );
    } else if !id.chars().all(is_id_char) {
        out.push(
            "ANT-08",
            path.clone(),
            "String should match pattern '^[a-zA-Z0-9_-]+$'",
        );
    } else if id.len() > MAX_ID_LEN {
        out.push(
            "ANT-08",
            path.clone(),
            format!(
                "String should have at most {MAX_ID_LEN} characters (strict limit), found {}",
                id.len()
            ),
        );
    }
}

/// ANT-20: declared tool names match `^[a-zA-Z0-9_-]{1,64}$`.
fn check_ant_20_tool_name(name: &str, path: &Path, out: &mut Findings) {
    if name.is_empty() || !name.chars().all(is_id_char) {
        out.push(
            "ANT-20",
            path.clone(),
            "String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
        );
    } else if name.len() > MAX_TOOL_NAME_LEN {
        out.push(
            "ANT-20",
            path.clone(),
            format!(
                "String should have at most {MAX_TOOL_NAME_LEN} characters (strict limit), found \
                 {}",
                name.len()
            ),
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Ordering and tool pairing rules

/// ANT-01: the first message uses the user role.
fn check_ant_01_first_user(msgs: &[Msg<'_>], out: &mut Findings) {
    if msgs.first().is_some_and(|m| m.is(Role::Assistant)) {
        out.push("ANT-01", Path::msg(0).k("role"), ANT_01_MSG);
    }
}

/// ANT-02: no two consecutive messages with the same role.
fn check_ant_02_alternation(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, pair) in msgs.windows(2).enumerate() {
        if let [prev, cur] = pair {
            if let (Some(a), Some(b)) = (prev.role, cur.role) {
                if a == b {
                    out.push(
                        "ANT-02",
                        Path::msg(i + 1).k("role"),
                        format!(
                            "roles must alternate between \"user\" and \"assistant\", but found \
                             multiple \"{}\" roles in a row",
                            b.name()
                        ),
                    );
                }
            }
        }
    }
}

/// Ids of the `tool_use` blocks of message `i - 1` when it is an assistant message.
fn previous_tool_use_ids<'a>(msgs: &[Msg<'a>], i: usize) -> Vec<&'a str> {
    i.checked_sub(1)
        .and_then(|p| msgs.get(p))
        .filter(|m| m.is(Role::Assistant))
        .map(|m| m.tool_use_ids().into_iter().map(|(_, id)| id).collect())
        .unwrap_or_default()
}

/// ANT-03: every tool_result in a user message answers a tool_use of the previous message.
fn check_ant_03_results_answer_previous(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::User) {
            continue;
        }
        let prev = previous_tool_use_ids(msgs, i);
        for (b, id) in msg.tool_result_ids() {
            if !prev.contains(&id) {
                out.push(
                    "ANT-03",
                    Path::block(i, b).k("tool_use_id"),
                    format!(
                        "unexpected `tool_use_id` found in `tool_result` blocks: {id}. Each \
                         `tool_result` block must have a corresponding `tool_use` block in the \
                         previous message."
                    ),
                );
            }
        }
    }
}

/// ANT-04: every tool_use of an assistant message is answered in the next (user) message.
fn check_ant_04_uses_answered_next(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::Assistant) {
            continue;
        }
        let uses = msg.tool_use_ids();
        if uses.is_empty() {
            continue;
        }
        let answered: Vec<&str> = msgs
            .get(i + 1)
            .filter(|m| m.is(Role::User))
            .map(|m| m.tool_result_ids().into_iter().map(|(_, id)| id).collect())
            .unwrap_or_default();
        let mut missing: Vec<&str> = Vec::new();
        for (_, id) in uses {
            if !answered.contains(&id) && !missing.contains(&id) {
                missing.push(id);
            }
        }
        if !missing.is_empty() {
            out.push(
                "ANT-04",
                Path::msg(i),
                format!(
                    "`tool_use` ids were found without `tool_result` blocks immediately after: \
                     {}. Each `tool_use` block must have a corresponding `tool_result` block in \
                     the next message.",
                    missing.join(", ")
                ),
            );
        }
    }
}

/// ANT-05: in a user message after tool_use, no other block precedes a tool_result.
fn check_ant_05_results_first(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::User) {
            continue;
        }
        let expected = previous_tool_use_ids(msgs, i).len();
        if expected == 0 {
            continue;
        }
        let first_other = msg
            .blocks()
            .find(|(_, b)| block_type(b) != Some("tool_result"))
            .map(|(b, _)| b);
        let last_result = msg.blocks_of("tool_result").map(|(b, _)| b).last();
        if let (Some(other), Some(result)) = (first_other, last_result) {
            if other < result {
                out.push(
                    "ANT-05",
                    Path::block(i, other),
                    format!(
                        "Did not find {expected} `tool_result` block(s) at the beginning of this \
                         message. {ANT_05_TAIL}"
                    ),
                );
            }
        }
    }
}

/// ANT-06: at most one tool_result per tool_use id within a message.
fn check_ant_06_one_result_per_use(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        let mut seen = HashSet::new();
        for (b, id) in msg.tool_result_ids() {
            if !seen.insert(id) {
                out.push(
                    "ANT-06",
                    Path::block(i, b).k("tool_use_id"),
                    format!("more than one `tool_result` block for `tool_use` id {id}"),
                );
            }
        }
    }
}

/// ANT-07: tool_use ids are unique across the request.
fn check_ant_07_unique_tool_use_ids(msgs: &[Msg<'_>], out: &mut Findings) {
    let mut seen = HashSet::new();
    for (i, msg) in msgs.iter().enumerate() {
        for (b, id) in msg.tool_use_ids() {
            if !seen.insert(id) {
                out.push(
                    "ANT-07",
                    Path::block(i, b).k("id"),
                    "`tool_use` ids must be unique",
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Thinking rules

/// ANT-10: thinking on, the request ends in an open tool loop (the last message is a user
/// message with tool_result blocks), so the final assistant message starts with thinking.
fn check_ant_10_open_loop_starts_with_thinking(
    msgs: &[Msg<'_>],
    thinking_on: bool,
    out: &mut Findings,
) {
    if !thinking_on || msgs.len() < 2 {
        return;
    }
    let last_idx = msgs.len() - 1;
    let Some(last) = msgs.get(last_idx) else {
        return;
    };
    // An open loop: the last message is a user message carrying tool_result blocks (they
    // should come first, but a misplaced result still opens the loop; ANT-05 reports that).
    let open_loop = last.is(Role::User) && last.blocks_of("tool_result").next().is_some();
    if !open_loop {
        return;
    }
    let a = last_idx - 1;
    let Some(asst) = msgs.get(a).filter(|m| m.is(Role::Assistant)) else {
        return;
    };
    let (path, found) = match asst.content {
        Content::Text(_) => (Path::msg(a).k("content"), "text".to_string()),
        Content::Blocks(blocks) => match blocks.first() {
            Some(first) if is_thinking_block(first) => return,
            Some(first) => (
                Path::block(a, 0).k("type"),
                block_type(first).unwrap_or("unknown").to_string(),
            ),
            None => return,
        },
        Content::Invalid => return,
    };
    out.push(
        "ANT-10",
        path,
        format!("Expected `thinking` or `redacted_thinking`, but found `{found}`. {ANT_10_TAIL}"),
    );
}

/// ANT-11: an assistant message that holds thinking starts with a thinking block.
fn check_ant_11_thinking_first(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::Assistant) || !msg.has_thinking() {
            continue;
        }
        if let Some((_, first)) = msg.blocks().next() {
            if !is_thinking_block(first) {
                out.push(
                    "ANT-11",
                    Path::block(i, 0),
                    format!(
                        "If an assistant message contains any thinking blocks, the first block \
                         must be thinking or redacted_thinking. Found {}.",
                        block_type(first).unwrap_or("unknown")
                    ),
                );
            }
        }
    }
}

/// ANT-13: thinking blocks carry a non-empty signature.
fn check_ant_13_signature(block: &Value, path: &Path, out: &mut Findings) {
    let spath = path.k("signature");
    match block.get("signature") {
        None | Some(Value::Null) => out.push("ANT-13", spath, "thinking.signature: Field required"),
        Some(Value::String(s)) if !s.is_empty() => {}
        Some(_) => out.push(
            "ANT-13",
            spath,
            "thinking.signature must be a non-empty string",
        ),
    }
}

/// ANT-15: with thinking off, a final assistant message holds no thinking.
fn check_ant_15_final_thinking_when_off(msgs: &[Msg<'_>], thinking_on: bool, out: &mut Findings) {
    if thinking_on {
        return;
    }
    let Some((i, last)) = msgs.iter().enumerate().next_back() else {
        return;
    };
    if !last.is(Role::Assistant) {
        return;
    }
    if let Some((b, _)) = last.blocks().find(|(_, b)| is_thinking_block(b)) {
        out.push("ANT-15", Path::block(i, b), ANT_15_MSG);
    }
}

/// ANT-16: an assistant message does not end with a thinking block.
fn check_ant_16_not_ending_with_thinking(msgs: &[Msg<'_>], out: &mut Findings) {
    for (i, msg) in msgs.iter().enumerate() {
        if !msg.is(Role::Assistant) {
            continue;
        }
        if let Some((b, last)) = msg.blocks().last() {
            if is_thinking_block(last) {
                out.push("ANT-16", Path::block(i, b), ANT_16_MSG);
            }
        }
    }
}

/// ANT-17: redacted_thinking blocks carry non-empty `data`.
fn check_ant_17_redacted(block: &Value, path: &Path, out: &mut Findings) {
    match block.get("data") {
        Some(Value::String(s)) if !s.is_empty() => {}
        _ => out.push(
            "ANT-17",
            path.k("data"),
            "redacted_thinking.data must be a non-empty string",
        ),
    }
}

// ---------------------------------------------------------------------------------------------
// Cache markers, images, tool names in history

/// ANT-18: at most 4 cache_control markers (tools, then system, then messages).
fn check_ant_18_cache_markers(obj: &Map<String, Value>, out: &mut Findings) {
    let mut markers: Vec<Path> = Vec::new();
    let has_marker = |v: &Value| v.get("cache_control").is_some_and(|c| !c.is_null());
    if let Some(Value::Array(tools)) = obj.get("tools") {
        for (t, tool) in tools.iter().enumerate() {
            if has_marker(tool) {
                markers.push(Path::root().k("tools").i(t).k("cache_control"));
            }
        }
    }
    if let Some(Value::Array(blocks)) = obj.get("system") {
        for (b, block) in blocks.iter().enumerate() {
            if has_marker(block) {
                markers.push(Path::root().k("system").i(b).k("cache_control"));
            }
        }
    }
    if let Some(Value::Array(msgs)) = obj.get("messages") {
        for (i, m) in msgs.iter().enumerate() {
            let Some(Value::Array(blocks)) = m.get("content") else {
                continue;
            };
            for (b, block) in blocks.iter().enumerate() {
                if has_marker(block) {
                    markers.push(Path::block(i, b).k("cache_control"));
                }
                if let Some(Value::Array(items)) = block.get("content") {
                    for (k, item) in items.iter().enumerate() {
                        if has_marker(item) {
                            markers.push(Path::block(i, b).k("content").i(k).k("cache_control"));
                        }
                    }
                }
            }
        }
    }
    let found = markers.len();
    if let Some(fifth) = markers.into_iter().nth(MAX_CACHE_MARKERS) {
        out.push(
            "ANT-18",
            fifth,
            format!(
                "A maximum of {MAX_CACHE_MARKERS} blocks with cache_control may be provided. \
                 Found {found}."
            ),
        );
    }
}

/// ANT-19 and shape checks for an image block.
fn check_image(block: &Value, path: &Path, out: &mut Findings) {
    let spath = path.k("source");
    let Some(source) = block.get("source").and_then(Value::as_object) else {
        out.push(STRUCT, spath, "image block needs a `source` object");
        return;
    };
    match source.get("type").and_then(Value::as_str) {
        Some("base64") => check_base64_image(source, &spath, out),
        Some("url") => {
            if source
                .get("url")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                out.push(
                    STRUCT,
                    spath.k("url"),
                    "image source.url must be a non-empty string",
                );
            }
        }
        Some("file") => {
            if source
                .get("file_id")
                .and_then(Value::as_str)
                .is_none_or(str::is_empty)
            {
                out.push(
                    STRUCT,
                    spath.k("file_id"),
                    "image source.file_id must be a non-empty string",
                );
            }
        }
        _ => out.push(
            STRUCT,
            spath.k("type"),
            "image source.type must be \"base64\", \"url\" or \"file\"",
        ),
    }
}

fn check_base64_image(source: &Map<String, Value>, spath: &Path, out: &mut Findings) {
    let media = source.get("media_type").and_then(Value::as_str);
    let media = match media {
        Some(m) if IMAGE_MEDIA_TYPES.contains(&m) => Some(m),
        _ => {
            out.push(
                "ANT-19",
                spath.k("media_type"),
                "image media_type must be one of image/jpeg, image/png, image/gif, image/webp",
            );
            None
        }
    };
    let dpath = spath.k("data");
    let Some(data) = source.get("data").and_then(Value::as_str) else {
        out.push(STRUCT, dpath, "image source.data must be a base64 string");
        return;
    };
    let decoded_len = match base64_decoded_len(data) {
        Ok(n) => n,
        Err(why) => {
            out.push(
                "ANT-19",
                dpath,
                format!("image data is not valid base64: {why}"),
            );
            return;
        }
    };
    if decoded_len > MAX_IMAGE_BYTES {
        out.push(
            "ANT-19",
            dpath,
            format!("image exceeds 5 MB maximum: {decoded_len} bytes > {MAX_IMAGE_BYTES} bytes"),
        );
        return;
    }
    let Some(media) = media else {
        return;
    };
    match sniff_image(&base64_prefix(data)) {
        Some(actual) if actual == media => {}
        Some(_) => out.push(
            "ANT-19",
            dpath,
            format!("Image does not match the provided media type {media}"),
        ),
        None => out.push(
            "ANT-19",
            dpath,
            format!(
                "Image does not match the provided media type {media} (data is not a JPEG, \
                 PNG, GIF or WebP image)"
            ),
        ),
    }
}

/// ANT-20: with `tools` sent, every tool_use name in history is declared.
fn check_ant_20_history_names(
    msgs: &[Msg<'_>],
    declared: Option<&HashSet<&str>>,
    out: &mut Findings,
) {
    let Some(declared) = declared else {
        return;
    };
    for (i, msg) in msgs.iter().enumerate() {
        for (b, block) in msg.blocks_of("tool_use") {
            if let Some(name) = block.get("name").and_then(Value::as_str) {
                if !declared.contains(name) {
                    out.push(
                        "ANT-20",
                        Path::block(i, b).k("name"),
                        format!("tool_use name {name:?} is not declared in `tools`"),
                    );
                }
            }
        }
    }
}
