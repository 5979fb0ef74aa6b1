//! Prefix + tail: the body, id map, tool names and diagnostics of a render through the boundary.

use super::*;
use crate::conversation::BodyPart;
use crate::json::write::{write_str, write_value};

/// The body of `prefix` + `tail` as the pieces that make it up, in order, given to `sink`: the
/// envelope up to the wire messages' member, the messages (the tail's lead, the prefix's
/// cached segments, the tail's own), the rest of the envelope. `None` (and `sink` not called)
/// when the envelope has no member for the messages.
pub(crate) fn write_body(
    prefix: &Prefix,
    tail: &Tail,
    sink: &mut dyn FnMut(&[BodyPart<'_>]),
) -> Option<()> {
    let (open, close) = envelope_around(&tail.envelope, tail.key)?;
    let items = |values: &[Value]| {
        let mut out = Vec::new();
        for (i, v) in values.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            write_value(&mut out, v);
        }
        out
    };
    let (lead, own) = (items(&tail.lead), items(&tail.wire));
    let mut parts = vec![BodyPart::Fresh(&open), BodyPart::Fresh(b"[")];
    let mut any = false;
    if !lead.is_empty() {
        parts.push(BodyPart::Fresh(&lead));
        any = true;
    }
    if !prefix.wire_bytes.is_empty() {
        if any {
            parts.push(BodyPart::Fresh(b","));
        }
        parts.extend(prefix.pieces());
        any = true;
    }
    if !own.is_empty() {
        if any {
            parts.push(BodyPart::Fresh(b","));
        }
        parts.push(BodyPart::Fresh(&own));
    }
    parts.push(BodyPart::Fresh(b"]"));
    parts.push(BodyPart::Fresh(&close));
    sink(&parts);
    Some(())
}

/// The envelope written as JSON around its member `key`: everything up to and including
/// `"key":`, and everything after that member's value. `None` when it has no such member.
fn envelope_around(envelope: &Map<String, Value>, key: &str) -> Option<(Vec<u8>, Vec<u8>)> {
    let (mut open, mut close) = (vec![b'{'], Vec::new());
    let mut seen = false;
    for (i, (k, v)) in envelope.iter().enumerate() {
        let out = if seen { &mut close } else { &mut open };
        if i > 0 {
            out.push(b',');
        }
        write_str(out, k);
        out.push(b':');
        if !seen && k == key {
            seen = true;
        } else {
            write_value(out, v);
        }
    }
    close.push(b'}');
    seen.then_some((open, close))
}

/// The body value of `prefix` + `tail`: the prefix's messages read back from their bytes
/// (`None` if one would not read, which its own writer rules out).
pub(crate) fn body_value(prefix: &Prefix, tail: &Tail) -> Option<Value> {
    let mut envelope = tail.envelope.clone();
    let mut wire = Vec::with_capacity(tail.lead.len() + prefix.wire_len() + tail.wire.len());
    wire.extend(tail.lead.iter().cloned());
    for text in prefix.wire_texts() {
        let text = std::str::from_utf8(text).ok()?;
        wire.push(
            crate::json::parse(text, "$", "a cached message")
                .ok()?
                .value,
        );
    }
    wire.extend(tail.wire.iter().cloned());
    envelope.insert(tail.key.to_string(), Value::Array(wire));
    Some(Value::Object(envelope))
}

/// The beta header values the wire messages of `prefix` + `tail` need (Anthropic: the blocks
/// they replay), as a whole render finds them in its body.
pub(crate) fn betas(prefix: &Prefix, tail: &Tail, api: crate::vocab::WireApi) -> Vec<&'static str> {
    let mut out = Vec::new();
    if api != crate::vocab::WireApi::Messages {
        return out;
    }
    use crate::providers::anthropic::betas;
    betas::of_messages(&tail.lead, &mut out);
    for text in prefix.wire_texts() {
        betas::of_text(text, &mut out);
    }
    betas::of_messages(&tail.wire, &mut out);
    betas::of_envelope(&tail.envelope, &mut out);
    out
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
