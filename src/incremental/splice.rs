//! Prefix + tail: the body, id map, tool names and diagnostics of a render through the boundary.

use super::*;

/// A string no body holds elsewhere (checked), where the wire messages go.
pub(super) const SPLICE: &str = "\u{0}turnwire:wire-messages\u{0}";

/// The body of `prefix` + `tail` as the byte slices that make it up, in order, given to
/// `sink`; `None` (and `sink` not called) when they cannot be spliced.
pub(crate) fn write_body(
    prefix: &Prefix,
    tail: &Tail,
    sink: &mut dyn FnMut(&[&[u8]]),
) -> Option<()> {
    let mut envelope = tail.envelope.clone();
    envelope.insert(tail.key.to_string(), Value::String(SPLICE.to_string()));
    let text = Value::Object(envelope).to_string();
    let marker = Value::String(SPLICE.to_string()).to_string();
    let at = text.find(&marker)?;
    let after = at + marker.len();
    if text.get(after..)?.contains(&marker) {
        return None;
    }
    let items = |values: &[Value]| -> Option<Vec<u8>> {
        let mut out = Vec::new();
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            crate::json::write::write_value(&mut out, v);
        }
        Some(out)
    };
    let (lead, own) = (items(&tail.lead)?, items(&tail.wire)?);
    let (open, close) = (text.get(..at)?.as_bytes(), text.get(after..)?.as_bytes());
    let mut parts: Vec<&[u8]> = vec![open, b"["];
    for part in [
        lead.as_slice(),
        prefix.wire_bytes.as_slice(),
        own.as_slice(),
    ] {
        if part.is_empty() {
            continue;
        }
        if parts.len() > 2 {
            parts.push(b",");
        }
        parts.push(part);
    }
    parts.push(b"]");
    parts.push(close);
    sink(&parts);
    Some(())
}

/// The body value of `prefix` + `tail`.
pub(crate) fn body_value(prefix: &Prefix, tail: &Tail) -> Value {
    let mut envelope = tail.envelope.clone();
    let mut wire = Vec::with_capacity(tail.lead.len() + prefix.wire.len() + tail.wire.len());
    wire.extend(tail.lead.iter().cloned());
    wire.extend(prefix.wire.iter().cloned());
    wire.extend(tail.wire.iter().cloned());
    envelope.insert(tail.key.to_string(), Value::Array(wire));
    Value::Object(envelope)
}

/// Canonical → provider ids of `prefix` + `tail`.
pub(crate) fn id_map(prefix: &Prefix, tail: &Tail) -> Vec<(String, String)> {
    prefix.id_map.iter().chain(&tail.id_map).cloned().collect()
}

pub(super) fn all_renamed<'a>(
    prefix: &'a Prefix,
    tail: &'a Tail,
) -> impl Iterator<Item = &'a Renamed> {
    tail.renamed_declared
        .iter()
        .chain(&prefix.renamed)
        .chain(&tail.renamed_new)
}

/// Renamed tools of `prefix` + `tail`, in the order the full render names them.
pub(crate) fn tool_names(prefix: &Prefix, tail: &Tail) -> Vec<(String, String)> {
    all_renamed(prefix, tail)
        .map(|r| (r.from.clone(), r.to.clone()))
        .collect()
}

/// Diagnostics of `prefix` + `tail`, in the full render's order.
pub(crate) fn diagnostics(prefix: &Prefix, tail: &Tail) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for (p, own) in tail.passes.iter().enumerate() {
        out.extend(prefix.head.get(p).into_iter().flatten().cloned());
        out.extend(own.iter().cloned());
        out.extend(prefix.trail.get(p).into_iter().flatten().cloned());
    }
    out.extend(tail.notes.iter().cloned());
    out.extend(all_renamed(prefix, tail).map(|r| r.diagnostic.clone()));
    out
}
