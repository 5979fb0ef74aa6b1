//! Emoji split across two stream events. A server that cuts its text deltas by UTF-16 units
//! can end one event's string with the high half of a surrogate pair (`"…\ud83d"`) and start
//! the next one's with the low half (`"\ude00…"`). Each event alone is JSON no Unicode string
//! can hold, so it would be refused and its text lost. Here the high half at the end of an event
//! waits for the next event; a low half at the start of that event's string completes it. Any
//! other unpaired half becomes U+FFFD, reported.

use crate::json::surrogates::{escaped, LoneSurrogate};

use super::error::StreamError;

/// What was done to one event's text.
pub(crate) struct Rewritten {
    /// The event's JSON text, every unpaired half replaced or joined.
    pub text: String,
    /// The halves that became U+FFFD, as errors of the event.
    pub errors: Vec<StreamError>,
    /// Whether the waiting high half was completed by this event's first low half.
    pub joined: bool,
    /// The high half this event's text ends with, waiting for the next event.
    pub pending: Option<u16>,
}

/// Rewrites the unpaired surrogate escapes of one event's JSON text (`None` when it has none).
/// `waiting` is the high half the previous event ended with.
pub(crate) fn rewrite(payload: &str, waiting: Option<u16>) -> Option<Rewritten> {
    let bytes = payload.as_bytes();
    let lone = escaped(bytes);
    if lone.is_empty() {
        return None;
    }
    let mut joined = false;
    let mut pending = None;
    let mut text = String::with_capacity(payload.len() + 6);
    let mut errors = Vec::new();
    let mut at = 0;
    let last = lone.len() - 1;
    for (i, s) in lone.iter().enumerate() {
        text.push_str(payload.get(at..s.offset).unwrap_or_default());
        at = s.offset + s.len;
        let opens_string = s.offset > 0 && bytes.get(s.offset - 1) == Some(&b'"');
        let closes_string = bytes.get(s.offset + s.len) == Some(&b'"');
        match (s.unit, waiting) {
            // the other half of the previous event's last character
            (0xDC00..=0xDFFF, Some(high)) if i == 0 && opens_string => {
                text.push_str(&format!("\\u{high:04x}\\u{:04x}", s.unit));
                joined = true;
            }
            // this event's last character is half a pair: wait for the next event
            (0xD800..=0xDBFF, _) if i == last && closes_string => pending = Some(s.unit),
            _ => {
                text.push_str("\\ufffd");
                errors.push(replaced(s));
            }
        }
    }
    text.push_str(payload.get(at..).unwrap_or_default());
    Some(Rewritten {
        text,
        errors,
        joined,
        pending,
    })
}

/// The half an event ended with, when the next event did not complete it (or none came).
pub(crate) fn left_out(high: u16) -> StreamError {
    StreamError::LoneSurrogate {
        detail: format!(
            "an event's text ended with half a surrogate pair (\\u{high:04x}) that the next event did not complete; it was left out"
        ),
    }
}

fn replaced(s: &LoneSurrogate) -> StreamError {
    StreamError::LoneSurrogate {
        detail: format!(
            "an unpaired surrogate (\\u{:04x}) in an event was replaced by U+FFFD",
            s.unit
        ),
    }
}
