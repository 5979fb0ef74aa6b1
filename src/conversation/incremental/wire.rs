//! The tail's projection taken apart for the splice: its wire ids checked against the
//! prefix's (Kimi's counted ids counted on), its tool names and renames, and its wire messages
//! taken out of the body envelope.

use super::*;

/// Checks the tail's wire ids against the prefix's; Kimi's counted ids (`functions.read:7`)
/// are counted on from the prefix's calls. Returns the renumbered ids (old → new).
pub(super) fn wire_ids(
    prefix: &Prefix,
    options: &RenderOptions,
    id_map: &mut [(String, String)],
) -> Result<HashMap<String, String>, Fallback> {
    let mut renumbered: HashMap<String, String> = HashMap::default();
    if prefix.boundary == 0 || prefix.id_map.is_empty() || id_map.is_empty() {
        return Ok(renumbered);
    }
    if options.provider == Provider::Kimi {
        let offset = prefix.id_map.len();
        for (k, (_, id)) in id_map.iter_mut().enumerate() {
            let Some(stem) = id.strip_suffix(&format!(":{k}")) else {
                return Err(Fallback::UnexpectedRender);
            };
            let counted = format!("{stem}:{}", k + offset);
            renumbered.insert(std::mem::replace(id, counted.clone()), counted);
        }
    } else if id_map.iter().any(|(c, _)| c.is_empty()) {
        return Err(Fallback::WireIdDependsOnPrefix);
    }
    if id_map.iter().any(|(_, p)| prefix.emitted.contains(p)) {
        return Err(Fallback::WireIdDependsOnPrefix);
    }
    Ok(renumbered)
}

/// The names the tail's calls are sent with; each must be sent as the prefix sent it, and a
/// name new to the tail must take no name the prefix's names took.
pub(super) fn tail_names(
    prefix: &Prefix,
    renamed: &[(String, String)],
    tail_msgs: &[Message],
) -> Result<HashMap<String, String>, Fallback> {
    let sent: HashMap<&str, &str> = renamed
        .iter()
        .map(|(f, t)| (f.as_str(), t.as_str()))
        .collect();
    let mut names = HashMap::default();
    for name in call_names(tail_msgs) {
        if names.contains_key(name) {
            continue;
        }
        let to = sent.get(name.as_str()).copied().unwrap_or(name.as_str());
        let fits = match prefix.names.get(name) {
            Some(p) => p == to,
            None => !prefix.projected_names.contains(to),
        };
        if prefix.boundary > 0 && !fits {
            return Err(Fallback::ToolNameDependsOnPrefix);
        }
        names.insert(name.clone(), to.to_string());
    }
    Ok(names)
}

/// Renamed tools, with their diagnostics: those the declarations renamed, and those the tail's
/// calls renamed first (the prefix reported its own).
pub(super) fn sort_renamed(
    prefix: &Prefix,
    options: &RenderOptions,
    undeclared: &[String],
    renamed: impl Iterator<Item = ((String, String), Diagnostic)>,
    finish: &dyn Fn(&mut Diagnostic),
) -> (Vec<Renamed>, Vec<Renamed>) {
    let declared: HashSet<&str> = options
        .tools
        .iter()
        .map(|t| t.name.as_str())
        .chain(undeclared.iter().map(String::as_str))
        .collect();
    let mut by_declaration = Vec::new();
    let mut by_call = Vec::new();
    for ((from, to), mut diagnostic) in renamed {
        finish(&mut diagnostic);
        let r = Renamed {
            from,
            to,
            diagnostic,
        };
        if declared.contains(r.from.as_str()) {
            by_declaration.push(r);
        } else if !prefix.names.contains_key(&r.from) {
            by_call.push(r);
        }
    }
    (by_declaration, by_call)
}

/// A projected body taken apart.
pub(super) struct Parts {
    /// The body without its wire messages.
    pub(super) envelope: Map<String, Value>,
    /// The body member that held them.
    pub(super) key: &'static str,
    /// Wire messages before the prefix's (a chat target's system message).
    pub(super) lead: Vec<Value>,
    /// The tail's own wire messages, stubs taken out.
    pub(super) wire: Vec<Value>,
}

/// The body taken apart into envelope, lead and the tail's wire messages (renumbered).
pub(super) fn take_wire(
    body: Value,
    options: &RenderOptions,
    lead: usize,
    stub: usize,
    renumbered: &HashMap<String, String>,
) -> Result<Parts, Fallback> {
    let key = WireApi::of(options.provider).messages_key();
    let Value::Object(mut envelope) = body else {
        return Err(Fallback::UnexpectedRender);
    };
    let Some(Value::Array(mut wire)) = envelope.get_mut(key).map(Value::take) else {
        return Err(Fallback::UnexpectedRender);
    };
    if wire.len() < lead + stub {
        return Err(Fallback::UnexpectedRender);
    }
    let mut rest = wire.split_off(lead);
    let stubs: Vec<Value> = rest.drain(..stub).collect();
    if stubs
        .iter()
        .any(|s| s.get("type").and_then(Value::as_str) != Some("reasoning"))
    {
        return Err(Fallback::UnexpectedRender);
    }
    if !renumbered.is_empty() {
        for m in &mut rest {
            renumber(m, renumbered);
        }
    }
    Ok(Parts {
        envelope,
        key,
        lead: wire,
        wire: rest,
    })
}

/// Renames the call ids of a Chat Completions wire message (`tool_calls[].id`,
/// `tool_call_id`).
pub(super) fn renumber(message: &mut Value, ids: &HashMap<String, String>) {
    let swap = |v: &mut Value| {
        if let Some(new) = v.as_str().and_then(|id| ids.get(id)) {
            *v = Value::String(new.clone());
        }
    };
    if let Some(calls) = message.get_mut("tool_calls").and_then(Value::as_array_mut) {
        for call in calls {
            if let Some(id) = call.get_mut("id") {
                swap(id);
            }
        }
    }
    if let Some(id) = message.get_mut("tool_call_id") {
        swap(id);
    }
}
