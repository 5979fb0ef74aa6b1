//! AWS event-stream framing (`application/vnd.amazon.eventstream`), the binary stream of
//! Bedrock's ConverseStream: frames cut from bytes that arrive cut anywhere.
//!
//! A frame is `[total length u32 BE][headers length u32 BE][prelude CRC32][headers][payload]
//! [message CRC32]`: 16 bytes of overhead, the prelude CRC over bytes 0..8 and the message CRC
//! over everything before the last 4 bytes (IEEE CRC32, [`crc32`]). Headers: [`headers`].
//!
//! [`FrameReader::push`] returns every frame the bytes completed, in order, with a typed
//! [`StreamError`] where a frame could not be read:
//!
//! - checked as soon as the 12-byte prelude is in: the prelude CRC, then `16 ≤ total` and
//!   `headers ≤ total − 16` (either failing is fatal: the lengths cannot be trusted, so the
//!   reader stops and ignores the rest), then `total ≤ max_frame` (`frame_too_large`: the
//!   frame is skipped without being buffered, the next one is read);
//! - once the whole frame is in: the message CRC (`frame_crc_mismatch`, the frame is
//!   skipped), then the headers (`invalid_frame`, skipped).
//!
//! Whole frames inside one pushed chunk are read in place; only a frame cut across chunks is
//! copied, once.

mod crc32;
mod headers;

#[cfg(test)]
mod tests;

pub(crate) use crc32::crc32;
pub(crate) use headers::{HeaderValue, Headers};

use super::error::StreamError;

/// The prelude: total length, headers length, prelude CRC.
const PRELUDE: usize = 12;
/// The bytes of a frame besides its headers and payload.
const OVERHEAD: usize = 16;

/// The default limit of one frame (AWS's own maximum message size, and the JS turn runner's
/// `DEFAULT_MAX_EVENT_BYTES`).
pub(crate) const DEFAULT_MAX_FRAME: usize = 16 * 1024 * 1024;

/// One event-stream message: its headers and payload.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Frame {
    /// Every header, in order.
    pub(crate) headers: Headers,
    /// The payload bytes (JSON for Bedrock).
    pub(crate) payload: Vec<u8>,
    /// Where the frame starts in the stream (bytes).
    pub(crate) offset: u64,
}

/// What a frame is, by its `:message-type` header.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum MessageType<'a> {
    /// `event` (also when the header is missing): `:event-type` names it.
    Event,
    /// `exception`: a modeled error, `:exception-type` names it, the payload says more.
    Exception,
    /// `error`: an unmodeled error, in the `:error-code` and `:error-message` headers.
    Error,
    /// Any other value.
    Other(&'a str),
}

impl Frame {
    /// The first string header called `name`.
    pub(crate) fn string(&self, name: &str) -> Option<&str> {
        self.headers.iter().find_map(|(n, v)| match v {
            HeaderValue::String(s) if n == name => Some(s.as_str()),
            _ => None,
        })
    }

    /// `:event-type`.
    pub(crate) fn event_type(&self) -> Option<&str> {
        self.string(":event-type")
    }

    /// `:exception-type`.
    pub(crate) fn exception_type(&self) -> Option<&str> {
        self.string(":exception-type")
    }

    /// `:content-type`.
    pub(crate) fn content_type(&self) -> Option<&str> {
        self.string(":content-type")
    }

    /// `:message-type`.
    pub(crate) fn message_type(&self) -> MessageType<'_> {
        match self.string(":message-type") {
            None | Some("event") => MessageType::Event,
            Some("exception") => MessageType::Exception,
            Some("error") => MessageType::Error,
            Some(other) => MessageType::Other(other),
        }
    }
}

/// Cuts frames out of an event stream's bytes (see the module docs).
///
/// ```ignore
/// let mut r = FrameReader::new(1 << 20);
/// let frames = r.push(&bytes[..5]); // nothing yet
/// let frames = r.push(&bytes[5..]); // the frame
/// ```
#[derive(Debug, Clone)]
pub(crate) struct FrameReader {
    /// The start of a frame cut across pushes (empty between frames).
    buf: Vec<u8>,
    /// The buffered frame's total length, once its prelude checked.
    want: Option<usize>,
    /// Bytes of an oversized frame still to skip.
    skip: u64,
    /// The largest frame read.
    max_frame: usize,
    /// Bytes of the stream before `buf` (or before the bytes being skipped).
    offset: u64,
    /// A fatal error stopped the reader.
    stopped: bool,
}

/// What a checked prelude says.
enum Prelude {
    /// A frame of this many bytes.
    Frame(usize),
    /// A frame over the limit: skip this many bytes.
    TooLarge(u64),
}

impl FrameReader {
    /// A reader whose frames may be at most `max_frame` bytes.
    pub(crate) fn new(max_frame: usize) -> Self {
        FrameReader {
            buf: Vec::new(),
            want: None,
            skip: 0,
            max_frame,
            offset: 0,
            stopped: false,
        }
    }

    /// Whether a fatal error stopped the reader (later bytes are ignored).
    pub(crate) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Reads the next bytes of the stream: the frames they complete, in order, and an error
    /// for each frame that could not be read.
    pub(crate) fn push(&mut self, bytes: &[u8]) -> Vec<Result<Frame, StreamError>> {
        let mut out = Vec::new();
        let mut input = bytes;
        while !input.is_empty() && !self.stopped {
            if self.skip > 0 {
                let n = usize::try_from(self.skip)
                    .unwrap_or(usize::MAX)
                    .min(input.len());
                input = input.get(n..).unwrap_or_default();
                self.skip -= n as u64;
                self.offset += n as u64;
                continue;
            }
            if self.buf.is_empty() {
                // Frames wholly inside this chunk are read in place.
                let Some(prelude) = input.get(..PRELUDE) else {
                    self.buf.extend_from_slice(input);
                    break;
                };
                match self.prelude(prelude) {
                    Err(e) => {
                        out.push(Err(e));
                        break;
                    }
                    Ok(Prelude::TooLarge(n)) => {
                        self.skip = n;
                        out.push(Err(self.too_large(n)));
                        input = input.get(PRELUDE..).unwrap_or_default();
                    }
                    Ok(Prelude::Frame(total)) => match input.get(..total) {
                        Some(frame) => {
                            out.push(self.frame(frame));
                            input = input.get(total..).unwrap_or_default();
                            self.offset += total as u64;
                        }
                        None => {
                            self.want = Some(total);
                            self.buf.reserve_exact(total);
                            self.buf.extend_from_slice(input);
                            break;
                        }
                    },
                }
                continue;
            }
            // A frame cut across pushes: fill the prelude, then the frame.
            let need = self.want.unwrap_or(PRELUDE);
            let take = need.saturating_sub(self.buf.len()).min(input.len());
            let (head, rest) = input.split_at(take);
            self.buf.extend_from_slice(head);
            input = rest;
            if self.buf.len() < need {
                break;
            }
            match self.want {
                Some(total) => {
                    let frame = std::mem::take(&mut self.buf);
                    self.want = None;
                    out.push(self.frame(&frame));
                    self.offset += total as u64;
                }
                None => match self.prelude(&prelude_of(&self.buf)) {
                    Err(e) => out.push(Err(e)),
                    Ok(Prelude::TooLarge(n)) => {
                        self.buf.clear();
                        self.skip = n;
                        out.push(Err(self.too_large(n)));
                    }
                    Ok(Prelude::Frame(total)) => {
                        self.want = Some(total);
                        self.buf.reserve_exact(total - PRELUDE);
                    }
                },
            }
        }
        out
    }

    /// Where the stream stands when it ends: an error when it ended inside a frame.
    pub(crate) fn end(&self) -> Option<StreamError> {
        let detail = if self.stopped {
            return None;
        } else if self.skip > 0 {
            format!(
                "the stream ended {} bytes before the end of a skipped frame",
                self.skip
            )
        } else if let Some(total) = self.want {
            format!(
                "the stream ended {} bytes into a frame of {total} bytes",
                self.buf.len()
            )
        } else if !self.buf.is_empty() {
            format!(
                "the stream ended {} bytes into a frame's 12-byte prelude",
                self.buf.len()
            )
        } else {
            return None;
        };
        Some(StreamError::InvalidFrame {
            offset: self.offset,
            detail,
        })
    }

    /// Checks a prelude (12 bytes); a fatal problem stops the reader.
    fn prelude(&mut self, p: &[u8]) -> Result<Prelude, StreamError> {
        let total = be32(p, 0);
        let headers = be32(p, 4);
        let prelude_crc = be32(p, 8);
        let fatal = if crc32(p.get(..8).unwrap_or_default()) != prelude_crc {
            StreamError::FrameCrcMismatch {
                part: "prelude".into(),
                offset: self.offset,
            }
        } else if (total as usize) < OVERHEAD || headers > total - OVERHEAD as u32 {
            StreamError::InvalidFrame {
                offset: self.offset,
                detail: format!(
                    "a total length of {total} with {headers} bytes of headers is impossible \
                     (at least 16, and headers at most total - 16); the rest of the stream was not read"
                ),
            }
        } else if u64::from(total) > self.max_frame as u64 {
            // skip what of it has not been read yet
            return Ok(Prelude::TooLarge(u64::from(total) - PRELUDE as u64));
        } else {
            return Ok(Prelude::Frame(total as usize));
        };
        self.stopped = true;
        self.buf = Vec::new();
        self.want = None;
        Err(fatal)
    }

    /// The error of a frame skipped for its size (its prelude is already read).
    fn too_large(&mut self, rest: u64) -> StreamError {
        let e = StreamError::FrameTooLarge {
            offset: self.offset,
            size: rest + PRELUDE as u64,
            limit: self.max_frame as u64,
        };
        self.offset += PRELUDE as u64;
        e
    }

    /// A whole frame whose prelude is checked: its message CRC, headers and payload.
    fn frame(&self, f: &[u8]) -> Result<Frame, StreamError> {
        let offset = self.offset;
        let body_end = f.len().saturating_sub(4);
        let body = f.get(..body_end).unwrap_or_default();
        if crc32(body) != be32(f, body_end) {
            return Err(StreamError::FrameCrcMismatch {
                part: "message".into(),
                offset,
            });
        }
        let headers_end = PRELUDE + be32(f, 4) as usize;
        let section = f.get(PRELUDE..headers_end).unwrap_or_default();
        let headers = headers::parse(section).map_err(|detail| StreamError::InvalidFrame {
            offset,
            detail: format!("{detail}; the frame was skipped"),
        })?;
        let payload = f.get(headers_end..body_end).unwrap_or_default().to_vec();
        Ok(Frame {
            headers,
            payload,
            offset,
        })
    }
}

/// The first 12 bytes (zeros past the end: callers check lengths first).
fn prelude_of(bytes: &[u8]) -> [u8; PRELUDE] {
    let mut a = [0u8; PRELUDE];
    if let Some(s) = bytes.get(..PRELUDE) {
        a.copy_from_slice(s);
    }
    a
}

/// The big-endian u32 at `at` (0 past the end: callers check lengths first).
fn be32(bytes: &[u8], at: usize) -> u32 {
    let mut a = [0u8; 4];
    if let Some(s) = bytes.get(at..at.saturating_add(4)) {
        a.copy_from_slice(s);
    }
    u32::from_be_bytes(a)
}
