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

/// Standard base64 with padding (what AWS's JSON protocol writes for a blob member).
pub fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// The InvokeModelWithResponseStream frame of one Anthropic event (its JSON text): a `chunk`
/// event whose payload is the `PayloadPart` `{"bytes": "<base64 of the event>"}`.
pub fn invoke_chunk(event_json: &str) -> Vec<u8> {
    let payload = serde_json::json!({ "bytes": base64(event_json.as_bytes()) }).to_string();
    frame(
        &[
            (":event-type", "chunk"),
            (":content-type", "application/json"),
            (":message-type", "event"),
        ],
        payload.as_bytes(),
    )
}

/// A golden Anthropic stream as InvokeModelWithResponseStream bytes.
pub fn encode_invoke(events: &[String]) -> Vec<u8> {
    events.iter().flat_map(|e| invoke_chunk(e)).collect()
}
