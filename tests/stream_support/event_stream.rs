//! A test encoder of AWS event-stream frames (`application/vnd.amazon.eventstream`): what
//! Bedrock sends for a ConverseStream, built from the SDK-shaped events of a golden stream.

use serde_json::Value;

/// The IEEE CRC32 (bitwise: slow and obviously right, unlike the crate's table).
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = u32::MAX;
    for &b in bytes {
        c ^= u32::from(b);
        for _ in 0..8 {
            c = if c & 1 == 1 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// One frame with string headers.
pub fn frame(headers: &[(&str, &str)], payload: &[u8]) -> Vec<u8> {
    let mut h = Vec::new();
    for (name, value) in headers {
        h.push(name.len() as u8);
        h.extend_from_slice(name.as_bytes());
        h.push(7);
        h.extend((value.len() as u16).to_be_bytes());
        h.extend_from_slice(value.as_bytes());
    }
    let total = (16 + h.len() + payload.len()) as u32;
    let mut f = Vec::new();
    f.extend(total.to_be_bytes());
    f.extend((h.len() as u32).to_be_bytes());
    f.extend(crc32(&f).to_be_bytes());
    f.extend(h);
    f.extend_from_slice(payload);
    f.extend(crc32(&f).to_be_bytes());
    f
}

/// The frame of one event `{"<type>": payload}`: an `exception` frame for a `…Exception`.
pub fn event_frame(event: &Value) -> Vec<u8> {
    let (name, payload) = event.as_object().unwrap().iter().next().unwrap();
    let payload = payload.to_string();
    if name.ends_with("Exception") {
        frame(
            &[
                (":exception-type", name),
                (":content-type", "application/json"),
                (":message-type", "exception"),
            ],
            payload.as_bytes(),
        )
    } else {
        frame(
            &[
                (":event-type", name),
                (":content-type", "application/json"),
                (":message-type", "event"),
            ],
            payload.as_bytes(),
        )
    }
}

/// A golden stream's events as one byte stream, and where each frame starts.
pub fn encode(events: &[String]) -> (Vec<u8>, Vec<usize>) {
    let mut bytes = Vec::new();
    let mut starts = Vec::new();
    for e in events {
        starts.push(bytes.len());
        bytes.extend(event_frame(&serde_json::from_str(e).unwrap()));
    }
    (bytes, starts)
}
