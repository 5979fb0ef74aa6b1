//! What a request sent, as hashes: the envelope (everything but the history) and each wire
//! message. A [`crate::Conversation`] rendering with `cache` compares a request with the
//! previous one to the same target: a message of the previous request that changed (a repair
//! that reached back, an edit) ends the prefix the provider cached, and the render says so
//! (`cache_prefix_changed`). The prefix keeps its messages' hashes as it grows, so a render
//! hashes only what is new; renders without `cache` hash nothing.

use serde_json::{Map, Value};

use super::{Prefix, Tail};
use crate::ids::hash::fnv1a as hash;
use crate::json::write::{write_str, write_value};

/// The envelope's and every wire message's hash, in body order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Sent {
    /// The body without its history member.
    pub envelope: u64,
    /// Each history message (a chat target's system message first).
    pub messages: Vec<u64>,
}

fn value_hash(v: &Value, buf: &mut Vec<u8>) -> u64 {
    buf.clear();
    write_value(buf, v);
    hash(buf)
}

fn envelope_hash(envelope: &Map<String, Value>, key: &str, buf: &mut Vec<u8>) -> u64 {
    buf.clear();
    for (k, v) in envelope.iter().filter(|(k, _)| k.as_str() != key) {
        write_str(buf, k);
        buf.push(b':');
        write_value(buf, v);
        buf.push(b',');
    }
    hash(buf)
}

/// What a render through `prefix` sent. The prefix's messages not hashed yet are hashed now
/// (once: the hashes stay with the prefix while it grows).
pub(crate) fn through(prefix: &mut Prefix, tail: &Tail) -> Sent {
    let mut buf = Vec::new();
    let done = prefix.hashes.len();
    // a message's bytes in the prefix are what `value_hash` writes for it
    let new: Vec<u64> = prefix.wire_texts().skip(done).map(hash).collect();
    prefix.hashes.extend(new);
    let mut messages = Vec::with_capacity(tail.lead.len() + prefix.hashes.len() + tail.wire.len());
    messages.extend(tail.lead.iter().map(|v| value_hash(v, &mut buf)));
    messages.extend_from_slice(&prefix.hashes);
    messages.extend(tail.wire.iter().map(|v| value_hash(v, &mut buf)));
    Sent {
        envelope: envelope_hash(&tail.envelope, tail.key, &mut buf),
        messages,
    }
}

/// What a whole body sent, its history under `key`.
pub(crate) fn of_body(body: &Value, key: &str) -> Sent {
    let mut buf = Vec::new();
    let Value::Object(members) = body else {
        return Sent::default();
    };
    let messages = match members.get(key) {
        Some(Value::Array(list)) => list.iter().map(|v| value_hash(v, &mut buf)).collect(),
        _ => Vec::new(),
    };
    Sent {
        envelope: envelope_hash(members, key, &mut buf),
        messages,
    }
}

/// The first message of `before` (the previous request) that `now` does not send the same,
/// when the envelope is the same: the end of what the provider could reuse. The previous
/// request's last message may grow (Anthropic and Gemini put the user's next words into the
/// message of the last results), so only a change before it counts.
pub(crate) fn first_change(before: &Sent, now: &Sent) -> Option<usize> {
    if before.envelope != now.envelope {
        return None;
    }
    let settled = before.messages.len().saturating_sub(1);
    (0..settled).find(|&i| now.messages.get(i) != before.messages.get(i))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent(envelope: u64, messages: &[u64]) -> Sent {
        Sent {
            envelope,
            messages: messages.to_vec(),
        }
    }

    #[test]
    fn only_a_change_before_the_previous_last_message_ends_the_cached_prefix() {
        assert_eq!(
            first_change(&sent(1, &[1, 2, 3]), &sent(1, &[1, 2, 3, 4])),
            None
        );
        assert_eq!(
            first_change(&sent(1, &[1, 2, 3]), &sent(1, &[1, 2, 9, 4])),
            None
        );
        assert_eq!(
            first_change(&sent(1, &[1, 2, 3]), &sent(1, &[1, 7, 3, 4])),
            Some(1)
        );
        assert_eq!(first_change(&sent(1, &[1, 2, 3]), &sent(1, &[1])), Some(1));
        assert_eq!(
            first_change(&sent(1, &[1, 2, 3]), &sent(2, &[5])),
            None,
            "other options"
        );
    }
}
