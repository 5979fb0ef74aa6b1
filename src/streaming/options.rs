//! What a stream decoder is told before the first event.

use serde::Deserialize;

/// Options of a [`StreamDecoder`](super::StreamDecoder).
///
/// - `model`: the model the request asked for. The message's provenance names it when the
///   stream reports no model, or reports a dated snapshot of it (`claude-sonnet-4-5` →
///   `claude-sonnet-4-5-20250929`), so that the next request to the same model replays the
///   turn's continuity artifacts (their provenance must match the render target's model).
/// - `endpoint`: the base URL the request went to (kept as the provenance's endpoint).
/// - `id_seed`: a string unique to this turn (a turn number, a request id) used to mint tool
///   call ids when the provider gives a call no id and the stream carries no response id.
///
/// - `host`: who served it (`bedrock`, `vertex`, `deepseek`…), kept as the provenance's host.
/// - `max_event_bytes`: the largest event-stream frame read (Bedrock's binary stream,
///   [`push_bytes`](super::StreamDecoder::push_bytes)); a longer one is skipped unread with a
///   `frame_too_large` error. 16 MiB (AWS's own maximum) when not given.
///
/// The JSON form (for JavaScript) is `{"model", "endpoint", "host", "account", "idSeed",
/// "maxEventBytes"}`, all optional.
///
/// ```
/// use turnwire::stream::StreamOptions;
/// let o = StreamOptions::for_model("gemini-3-pro-preview").with_id_seed("turn-7");
/// assert_eq!(o.model.as_deref(), Some("gemini-3-pro-preview"));
/// assert_eq!(o.id_seed.as_deref(), Some("turn-7"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct StreamOptions {
    /// The requested model.
    pub model: Option<String>,
    /// The endpoint base URL.
    pub endpoint: Option<String>,
    /// The host that served the request (see `turnwire::hosts`), stamped on the answer's
    /// provenance: its signatures are replayed only to a host of the same family.
    pub host: Option<crate::vocab::Host>,
    /// The account the request went out under (an opaque label, see
    /// [`RenderOptions::account`](crate::RenderOptions::account)), stamped on the answer's
    /// provenance.
    pub account: Option<String>,
    /// Seed for minted tool-call ids.
    pub id_seed: Option<String>,
    /// The largest event-stream frame read, in bytes (16 MiB when `None`).
    pub max_event_bytes: Option<u64>,
}

impl StreamOptions {
    /// Options naming the requested model.
    ///
    /// ```
    /// let o = turnwire::stream::StreamOptions::for_model("gpt-5.2");
    /// assert!(o.endpoint.is_none());
    /// ```
    pub fn for_model(model: impl Into<String>) -> Self {
        StreamOptions {
            model: Some(model.into()),
            ..StreamOptions::default()
        }
    }

    /// The same options with the endpoint base URL set.
    ///
    /// ```
    /// let o = turnwire::stream::StreamOptions::default().with_endpoint("https://api.deepseek.com");
    /// assert_eq!(o.endpoint.as_deref(), Some("https://api.deepseek.com"));
    /// ```
    pub fn with_endpoint(mut self, endpoint: impl Into<String>) -> Self {
        self.endpoint = Some(endpoint.into());
        self
    }

    /// The same options with the event-stream frame limit set.
    ///
    /// ```
    /// let o = turnwire::stream::StreamOptions::default().with_max_event_bytes(1 << 20);
    /// assert_eq!(o.max_event_bytes, Some(1 << 20));
    /// ```
    pub fn with_max_event_bytes(mut self, max: u64) -> Self {
        self.max_event_bytes = Some(max);
        self
    }

    /// The largest event-stream frame read.
    pub(crate) fn max_frame(&self) -> usize {
        self.max_event_bytes
            .map_or(super::event_stream::DEFAULT_MAX_FRAME, |m| {
                usize::try_from(m).unwrap_or(usize::MAX)
            })
    }

    /// The same options with the id seed set.
    ///
    /// ```
    /// let o = turnwire::stream::StreamOptions::default().with_id_seed("t1");
    /// assert_eq!(o.id_seed.as_deref(), Some("t1"));
    /// ```
    pub fn with_id_seed(mut self, seed: impl Into<String>) -> Self {
        self.id_seed = Some(seed.into());
        self
    }
}
