//! OpenAI Responses client-tool items (ORS-19): the Codex-style tools the client runs that are
//! no `function_call`s — `custom_tool_call`, `apply_patch_call`, `shell_call`,
//! `local_shell_call`, `tool_search_call` (client-executed) and `program` — and their outputs.
//!
//! Each is read as a neutral tool call or result so that another provider sees an ordinary
//! tool call with its arguments as JSON, and the result as text:
//!
//! | item | neutral call name | parameters | result |
//! |---|---|---|---|
//! | `custom_tool_call` | its `name` | `{"input": <the input string>}` | `output` (text and media, as `function_call_output`) |
//! | `apply_patch_call` | `apply_patch` | `{"operation": {type, path, diff?}}` | `output`; a `failed` status is the error |
//! | `shell_call` | `shell` | `{"action": {commands, timeout_ms?, max_output_length?}}` | `output` (the `{stdout, stderr, outcome}` list) |
//! | `local_shell_call` | `local_shell` | `{"action": {type, command, env, …}}` | `output` (a JSON string); the output's `id` is the call's `call_id` |
//! | `tool_search_call` | `tool_search` | `{"arguments": …}` | `tools` (the tools found) |
//! | `program` | `program` | `{"code": <JavaScript>}` | `result` |
//!
//! The item's other members (`status`, `caller`, `environment`, `namespace`, `fingerprint`,
//! `max_output_length`, …) are kept in [`ProviderMeta::OpenAiItem`], so a Responses render gives
//! the same item back. Its optional `id` is left out like every other item id turnwire sends
//! (stateless replay, ORS-05/07/12): a stored id whose prefix does not fit the item type
//! (`Expected an ID that begins with 'ctc'.`) is never sent, and calls pair with outputs by
//! `call_id`. The required ids of `local_shell_call`, `program` and `program_output` are kept.

use serde_json::{Map, Value};

use crate::json::out::{Obj, Out};
use crate::model::{ProviderMeta, ServerToolBlock, ServerToolPhase};
use crate::vocab::Provider;

/// One client-tool item type and its output.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Kind {
    /// The call item's `type`.
    pub call: &'static str,
    /// The output item's `type`.
    pub output: &'static str,
    /// The neutral tool name (`None`: the item's own `name`).
    name: Option<&'static str>,
    /// The member holding the arguments.
    args: &'static str,
    /// The output member holding the result.
    result: &'static str,
    /// The output member naming the call (`call_id`, `id` for `local_shell_call_output`).
    pub output_call_id: &'static str,
    /// Item ids that must be sent (the SDK type makes them required).
    id_required: bool,
}

/// Every client-tool item type.
pub(crate) const KINDS: [Kind; 6] = [
    Kind {
        call: "custom_tool_call",
        output: "custom_tool_call_output",
        name: None,
        args: "input",
        result: "output",
        output_call_id: "call_id",
        id_required: false,
    },
    Kind {
        call: "apply_patch_call",
        output: "apply_patch_call_output",
        name: Some("apply_patch"),
        args: "operation",
        result: "output",
        output_call_id: "call_id",
        id_required: false,
    },
    Kind {
        call: "shell_call",
        output: "shell_call_output",
        name: Some("shell"),
        args: "action",
        result: "output",
        output_call_id: "call_id",
        id_required: false,
    },
    Kind {
        call: "local_shell_call",
        output: "local_shell_call_output",
        name: Some("local_shell"),
        args: "action",
        result: "output",
        output_call_id: "id",
        id_required: true,
    },
    Kind {
        call: "tool_search_call",
        output: "tool_search_output",
        name: Some("tool_search"),
        args: "arguments",
        result: "tools",
        output_call_id: "call_id",
        id_required: false,
    },
    Kind {
        call: "program",
        output: "program_output",
        name: Some("program"),
        args: "code",
        result: "result",
        output_call_id: "call_id",
        id_required: true,
    },
];

/// Enumerated members of the client-tool items (openai-node 6.49.0): (item type, member,
/// allowed values).
pub(crate) const ENUMS: [(&str, &str, &[&str]); 9] = [
    ("apply_patch_call", "status", &["in_progress", "completed"]),
    (
        "apply_patch_call_output",
        "status",
        &["completed", "failed"],
    ),
    (
        "local_shell_call",
        "status",
        &["in_progress", "completed", "incomplete"],
    ),
    ("program_output", "status", &["completed", "incomplete"]),
    ("additional_tools", "role", &["developer"]),
    ("tool_search_call", "execution", &["server", "client"]),
    ("tool_search_output", "execution", &["server", "client"]),
    (
        "shell_call",
        "status",
        &["in_progress", "completed", "incomplete"],
    ),
    (
        "shell_call_output",
        "status",
        &["in_progress", "completed", "incomplete"],
    ),
];

/// Whether `value` is one the item type takes for `key` (any value where the SDK names none).
fn allowed(item_type: &str, key: &str, value: &Value) -> bool {
    ENUMS
        .iter()
        .find(|(t, k, _)| *t == item_type && *k == key)
        .is_none_or(|(_, _, values)| value.as_str().is_some_and(|v| values.contains(&v)))
}

/// The kind whose call item type is `t`.
pub(crate) fn by_call(t: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.call == t)
}

/// The kind whose output item type is `t`.
pub(crate) fn by_output(t: &str) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.output == t)
}

/// A client-tool call item read as a neutral call.
pub(crate) struct NativeCall {
    pub call_id: String,
    pub name: String,
    pub parameters: Value,
    pub meta: ProviderMeta,
}

/// A server-executed `tool_search_call` / `tool_search_output` (no client call to answer).
pub(crate) fn is_server_search(item: &Value) -> bool {
    item.get("execution").and_then(Value::as_str) == Some("server")
        || item
            .get("call_id")
            .and_then(Value::as_str)
            .is_none_or(str::is_empty)
}

/// The members other than `type` and `skip`.
fn rest(item: &Value, skip: &[&str]) -> Map<String, Value> {
    item.as_object()
        .map(|o| {
            o.iter()
                .filter(|(k, _)| k.as_str() != "type" && !skip.contains(&k.as_str()))
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect()
        })
        .unwrap_or_default()
}

/// A client-tool call item as a neutral call; `None` for any other item, a server-run tool
/// search, or a call without its `call_id` (or `name`, for a custom tool).
pub(crate) fn call(item: &Value) -> Option<NativeCall> {
    let t = item.get("type").and_then(Value::as_str)?;
    let kind = by_call(t)?;
    if t == "tool_search_call" && is_server_search(item) {
        return None;
    }
    let call_id = item.get("call_id").and_then(Value::as_str)?.to_string();
    let name = match kind.name {
        Some(n) => n.to_string(),
        None => item.get("name").and_then(Value::as_str)?.to_string(),
    };
    let mut parameters = Map::new();
    if let Some(a) = item.get(kind.args) {
        parameters.insert(kind.args.to_string(), a.clone());
    }
    let skip: &[&str] = if kind.name.is_none() {
        &["call_id", "name", kind.args]
    } else {
        &["call_id", kind.args]
    };
    Some(NativeCall {
        call_id,
        name,
        parameters: Value::Object(parameters),
        meta: ProviderMeta::OpenAiItem {
            item_type: t.to_string(),
            fields: rest(item, skip),
        },
    })
}

/// A client-tool output item read as a neutral result (`custom_tool_call_output` is read as a
/// `function_call_output` by the importer, which only adds its meta).
pub(crate) struct NativeOutput {
    pub call_id: String,
    pub result: Option<Value>,
    pub error: Option<String>,
    pub meta: ProviderMeta,
}

/// A client-tool output item (other than `custom_tool_call_output`) as a neutral result.
pub(crate) fn output(item: &Value) -> Option<NativeOutput> {
    let t = item.get("type").and_then(Value::as_str)?;
    let kind = by_output(t)?;
    if t == "tool_search_output" && is_server_search(item) {
        return None;
    }
    let call_id = item
        .get(kind.output_call_id)
        .and_then(Value::as_str)?
        .to_string();
    let result = item.get(kind.result).filter(|v| !v.is_null()).cloned();
    let status = item.get("status").and_then(Value::as_str);
    let error =
        (t == "apply_patch_call_output" && status == Some("failed")).then(|| match &result {
            Some(Value::String(s)) if !s.is_empty() => s.clone(),
            _ => "the patch failed to apply".to_string(),
        });
    let mut skip = vec![kind.output_call_id, kind.result];
    if kind.output_call_id == "id" {
        skip.push("call_id");
    }
    Some(NativeOutput {
        call_id,
        result: if error.is_some() { None } else { result },
        error,
        meta: output_meta(item, t, &skip),
    })
}

/// The meta of an output item: its type and members other than `skip`.
pub(crate) fn output_meta(item: &Value, t: &str, skip: &[&str]) -> ProviderMeta {
    ProviderMeta::OpenAiItem {
        item_type: t.to_string(),
        fields: rest(item, skip),
    }
}

/// The kept members of an item of type `item_type`, without an optional `id` (ORS-19: ids
/// are not replayed) and without an enumerated member of a value the type does not take.
fn kept<'a>(
    o: &mut Obj<'a>,
    kind: &Kind,
    item_type: &str,
    fields: &'a Map<String, Value>,
    skip: &[&str],
) {
    for (k, v) in fields {
        if skip.contains(&k.as_str())
            || (k == "id" && !kind.id_required)
            || !allowed(item_type, k, v)
        {
            continue;
        }
        o.insert(k.as_str(), v);
    }
}

/// The required `status` of a call item whose kept one was missing or unknown.
fn required_status(o: &mut Obj<'_>, item_type: &str, fields: &Map<String, Value>) {
    let required = matches!(item_type, "apply_patch_call" | "local_shell_call");
    let ok = fields
        .get("status")
        .is_some_and(|v| allowed(item_type, "status", v));
    if required && !ok {
        o.insert("status", "completed");
    }
}

/// The call item for a neutral call carrying `item_type`'s meta: `type`, the required `id`,
/// `call_id`, the custom tool's `name`, the arguments from `parameters`, then the other kept
/// members. `None` when `item_type` is no client-tool item, or when the parameters no longer
/// hold just the item's arguments (the call is then sent as a `function_call`).
pub(crate) fn call_item<'a>(
    item_type: &'a str,
    fields: &'a Map<String, Value>,
    call_id: String,
    name: String,
    parameters: Option<&'a Value>,
) -> Option<Out<'a>> {
    let kind = by_call(item_type)?;
    let mut o = Obj::new();
    o.insert("type", item_type);
    if kind.id_required {
        if let Some(id) = fields.get("id") {
            o.insert("id", id);
        }
    }
    o.insert("call_id", call_id);
    if kind.name.is_none() {
        o.insert("name", name);
    }
    // the arguments as the item holds them: `{<args member>: …}`; other parameters (edited
    // since) are a custom tool's input as JSON text, or no client-tool item at all
    let only_args = match parameters {
        None => true,
        Some(Value::Object(p)) => p.keys().all(|k| k == kind.args),
        Some(_) => false,
    };
    match parameters {
        Some(p) if only_args => {
            if let Some(a) = p.get(kind.args) {
                o.insert(kind.args, a);
            }
        }
        Some(p) if kind.args == "input" => o.insert(kind.args, crate::json::write::to_string(p)),
        Some(_) => return None,
        None => {}
    }
    kept(
        &mut o,
        kind,
        item_type,
        fields,
        &["id", "call_id", "name", kind.args],
    );
    required_status(&mut o, item_type, fields);
    Some(Out::Obj(o))
}

/// What a neutral result holds, for its output item.
pub(crate) struct ResultParts<'a> {
    pub call_id: String,
    pub text: std::borrow::Cow<'a, str>,
    pub value: Option<&'a Value>,
    pub failed: bool,
}

/// The output item answering a call of `kind` (`None` for `custom_tool_call_output`, which is
/// built like a `function_call_output`): the kept members of the result's own meta (`fields`,
/// empty when the result came from elsewhere) and its result in the kind's result member.
pub(crate) fn output_item<'a>(
    kind: &'static Kind,
    fields: Option<&'a Map<String, Value>>,
    r: ResultParts<'a>,
) -> Option<Out<'a>> {
    if kind.output == "custom_tool_call_output" {
        return None;
    }
    let mut o = Obj::new();
    o.insert("type", kind.output);
    if kind.output_call_id == "id" {
        o.insert("id", r.call_id);
    } else {
        if kind.id_required {
            // `program_output.id` is required: the output's own, else one made from the call
            // id (a result turnwire completed, or one from another provider) [unverified]
            match fields.and_then(|f| f.get("id")) {
                Some(id) => o.insert("id", id),
                None => o.insert("id", format!("po_{}", r.call_id)),
            }
        }
        o.insert("call_id", r.call_id);
    }
    match kind.output {
        "apply_patch_call_output" => {
            let status = fields
                .and_then(|f| f.get("status"))
                .filter(|v| allowed(kind.output, "status", v))
                .and_then(Value::as_str)
                .unwrap_or(if r.failed { "failed" } else { "completed" });
            o.insert("status", status.to_string());
            if !r.text.is_empty() {
                o.insert("output", r.text);
            }
        }
        // a list of `{stdout, stderr, outcome}`: kept as it was, else the text as stdout
        "shell_call_output" => match r.value {
            Some(v @ Value::Array(_)) => o.insert("output", v),
            _ => {
                let code = i32::from(r.failed);
                o.insert(
                    "output",
                    serde_json::json!([{"stdout": r.text.as_ref(), "stderr": "",
                        "outcome": {"type": "exit", "exit_code": code}}]),
                );
            }
        },
        "tool_search_output" => match r.value {
            Some(v @ Value::Array(_)) => o.insert("tools", v),
            _ => o.insert("tools", Vec::<Out>::new()),
        },
        "program_output" => {
            o.insert("result", r.text);
            let status = fields
                .and_then(|f| f.get("status"))
                .filter(|v| allowed(kind.output, "status", v))
                .and_then(Value::as_str)
                .unwrap_or("completed");
            o.insert("status", status.to_string());
        }
        _ => o.insert(kind.result, r.text),
    }
    if let Some(f) = fields {
        let own_status = matches!(kind.output, "apply_patch_call_output" | "program_output");
        let skip: &[&str] = if own_status {
            &["id", "call_id", "status", kind.result]
        } else {
            &["id", "call_id", kind.result]
        };
        kept(&mut o, kind, kind.output, f, skip);
    }
    Some(Out::Obj(o))
}

/// A Responses item kept whole as a server-tool block: a built-in tool's call
/// ([`ServerToolBlock::from_responses`]), a server-run tool search (`tool_search_call` /
/// `tool_search_output` with `execution: "server"` or no `call_id`), a `compaction` item
/// (ORS-20) or an `additional_tools` item. `None` for any other item.
pub(crate) fn server_item(item: &Value) -> Option<ServerToolBlock> {
    if let Some(b) = ServerToolBlock::from_responses(item) {
        return Some(b);
    }
    let phase = match item.get("type").and_then(Value::as_str)? {
        "tool_search_call" if is_server_search(item) => ServerToolPhase::Call,
        "tool_search_output" if is_server_search(item) => ServerToolPhase::Result,
        "compaction" | "additional_tools" => ServerToolPhase::Result,
        _ => return None,
    };
    Some(ServerToolBlock::new(
        Provider::OpenAiResponses.as_str(),
        phase,
        item.clone(),
    ))
}
