//! Rendering: normalise, then project through the target's adapter (`providers/target.rs`).
//! The options a render takes, and their resolution, are in `request/`.

mod count_tokens;
mod provider_options;

pub(crate) use crate::request::Resolved;
pub use crate::request::{
    owned_fields, structured_output, CacheBreakpoints, CacheOptions, CachePoint, CacheTtl,
    CompatOptions, RenderOptions, ResponseFormat, ServerTool, ServerToolKind, ThinkingOptions,
    ToolChoice, ToolDeclaration, UserLocation, ANSWER_ROOM, DEFAULT_MAX_TOKENS,
    DEFAULT_THINKING_BUDGET, KIMI_THINKING_MAX_TOKENS, MAX_CACHE_KEY_CHARS,
    RESPONSES_MIN_OUTPUT_TOKENS,
};
pub use count_tokens::render_count_tokens;
pub(crate) use provider_options::apply as apply_provider_options;

use serde::ser::SerializeMap;
use serde::Serialize;
use serde_json::Value;

use crate::error::{Error, ErrorCode};
use crate::json::out::Out;
use crate::model::Transcript;
use crate::normalize::{normalize, normalize_owned, Normalized};
use crate::providers::Projection;
use crate::vocab::Diagnostic;

/// Pairs of names in order — canonical → provider call ids, or original → sent tool names.
/// Serialises as a plain JSON object.
///
/// ```
/// let m = turnwire::IdMap(vec![("hist_tool_1".into(), "call_1".into())]);
/// assert_eq!(m.get("hist_tool_1"), Some("call_1"));
/// assert_eq!(serde_json::to_string(&m)?, r#"{"hist_tool_1":"call_1"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdMap(pub Vec<(String, String)>);

impl IdMap {
    /// Whether it has no pairs.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// The provider id of a canonical id.
    pub fn get(&self, canonical: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(c, _)| c == canonical)
            .map(|(_, p)| p.as_str())
    }

    /// The canonical id of a provider id.
    pub fn canonical(&self, provider_id: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(_, p)| p == provider_id)
            .map(|(c, _)| c.as_str())
    }
}

impl Serialize for IdMap {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

/// The result of a render. (Its TypeScript type, `Rendered<Body>`, is written by hand in
/// `src/wasm/bodies.rs`: the body typed per provider.)
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rendered {
    /// The whole request body, sendable as is.
    pub body: Value,
    /// Canonical ↔ provider call ids.
    pub id_map: IdMap,
    /// Tool names that had to change to fit the provider's rules: original → sent. Use it to
    /// map the model's calls back to your tools.
    pub tool_names: IdMap,
    /// Every repair and lossy projection.
    pub diagnostics: Vec<Diagnostic>,
    /// HTTP headers the body needs, header → value (absent when none): the header params the
    /// caller gave as body fields (Anthropic `betas` → `anthropic-beta`, comma-joined;
    /// `user_profile_id` → `anthropic-user-profile-id`, ANT-42) and the beta values of blocks
    /// the body replays (a `fallback` block: `server-side-fallback-2026-07-01`). Send them with
    /// the body.
    #[serde(skip_serializing_if = "IdMap::is_empty")]
    pub headers: IdMap,
}

/// What a render reports besides its body, for a caller that has the body as bytes or text
/// (Rust `Conversation::write_request`, JS `renderRequest`): the id map, the tool names that
/// changed and every diagnostic, exactly as a whole render gives them.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(feature = "wasm-bind", derive(tsify::Tsify))]
pub struct RenderReport {
    /// Canonical ↔ provider call ids.
    #[cfg_attr(feature = "wasm-bind", tsify(type = "Record<string, string>"))]
    pub id_map: IdMap,
    /// Tool names that had to change to fit the provider's rules: original → sent.
    #[cfg_attr(feature = "wasm-bind", tsify(type = "Record<string, string>"))]
    pub tool_names: IdMap,
    /// Every repair and lossy projection.
    pub diagnostics: Vec<Diagnostic>,
    /// HTTP headers the body needs (see [`Rendered::headers`]); absent when none.
    #[serde(skip_serializing_if = "IdMap::is_empty")]
    #[cfg_attr(
        feature = "wasm-bind",
        tsify(type = "Record<string, string>", optional)
    )]
    pub headers: IdMap,
}

impl Rendered {
    /// The body as a value and the rest of the result as a [`RenderReport`].
    ///
    /// ```
    /// use turnwire::{render, Provider, RenderOptions, Transcript};
    /// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
    /// let (body, report) = render(&t, &RenderOptions::new(Provider::Gemini, "gemini-2.5-pro"))?.into_parts();
    /// assert!(body["contents"].is_array() && report.diagnostics.is_empty());
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn into_parts(self) -> (Value, RenderReport) {
        let report = RenderReport {
            id_map: self.id_map,
            tool_names: self.tool_names,
            diagnostics: self.diagnostics,
            headers: self.headers,
        };
        (self.body, report)
    }

    /// The body as compact JSON bytes, ready for an HTTP request.
    pub fn body_bytes(&self) -> Vec<u8> {
        crate::json::write::to_vec(&self.body)
    }

    /// `{"body", "idMap", "diagnostics"}` as one JSON value.
    pub fn to_value(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// Renders `transcript` into a request body for `options.provider`.
///
/// Fails only on bad options, an unsupported provider, or a transcript with nothing to send;
/// damaged history is repaired and every repair is in `diagnostics`.
///
/// ```
/// use turnwire::{render, Provider, RenderOptions, Transcript};
/// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// let out = render(&t, &RenderOptions::new(Provider::OpenAiChat, "gpt-5.2"))?;
/// assert_eq!(out.body["messages"][0]["content"], "hi");
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn render(transcript: &Transcript, options: &RenderOptions) -> Result<Rendered, Error> {
    let r = Resolved::of(options)?;
    let normalized = normalize(transcript, &r.normalize);
    finish_render(&transcript.read_repairs, normalized, options, &r)
}

/// [`render`] for a transcript it may consume: its blocks move through the normaliser instead
/// of being copied (what the npm package and the command line do with the history they read).
///
/// ```
/// use turnwire::{render_owned, Provider, RenderOptions, Transcript};
/// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// let out = render_owned(t, &RenderOptions::new(Provider::Gemini, "gemini-2.5-pro"))?;
/// assert_eq!(out.body["contents"][0]["parts"][0]["text"], "hi");
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn render_owned(
    mut transcript: Transcript,
    options: &RenderOptions,
) -> Result<Rendered, Error> {
    let r = Resolved::of(options)?;
    let read = std::mem::take(&mut transcript.read_repairs);
    let normalized = normalize_owned(transcript, &r.normalize);
    finish_render(&read, normalized, options, &r)
}

/// A render's diagnostics: the repairs made while reading the transcript, then those made
/// while reading the options, then `notes` (the limits turnwire chose for the request), then
/// `rest` (the normaliser's and the adapter's).
pub(crate) fn reading_first(
    transcript_repairs: &[Diagnostic],
    options: &RenderOptions,
    notes: &[Diagnostic],
    rest: Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    if transcript_repairs.is_empty() && options.read_repairs.is_empty() && notes.is_empty() {
        return rest;
    }
    let mut all = Vec::with_capacity(
        transcript_repairs.len() + options.read_repairs.len() + notes.len() + rest.len(),
    );
    for d in transcript_repairs
        .iter()
        .chain(&options.read_repairs)
        .chain(notes)
    {
        let mut d = d.clone();
        d.provider = Some(options.provider);
        all.push(d);
    }
    all.extend(rest);
    all
}

fn finish_render(
    read_repairs: &[Diagnostic],
    normalized: Normalized,
    options: &RenderOptions,
    r: &Resolved,
) -> Result<Rendered, Error> {
    let (body, report) = finish_with(read_repairs, normalized, options, r, |b| b.into_value())?;
    Ok(Rendered {
        body,
        id_map: report.id_map,
        tool_names: report.tool_names,
        diagnostics: report.diagnostics,
        headers: report.headers,
    })
}

/// Projects a normalised transcript and finishes its report; `make` turns the body into what
/// the caller wants (a `Value`, or bytes written straight from the adapter's [`Out`]).
fn finish_with<B>(
    read_repairs: &[Diagnostic],
    normalized: Normalized,
    options: &RenderOptions,
    r: &Resolved,
    make: impl FnOnce(Out<'_>) -> B,
) -> Result<(B, RenderReport), Error> {
    if normalized.transcript.messages.is_empty() {
        return Err(empty_transcript());
    }
    crate::memory::check("rendering (normalised)")?;
    let (mut body, mut projection) = project_out(&normalized, options, r)?;
    let mut betas = Vec::new();
    if r.api == crate::vocab::WireApi::Messages {
        crate::providers::anthropic::betas::of_body(&body, &mut betas);
    }
    let mut headers = r.headers.with_betas(&betas);
    drop(betas);
    if let Some(host) = r.host {
        crate::providers::host_envelope::apply(
            host,
            &options.model,
            &mut body,
            &mut headers,
            &mut projection,
        );
    }
    let headers = IdMap(headers);
    let body = make(body);
    crate::memory::check("rendering (projected)")?;
    let renamed = projection.finish();
    let mut diagnostics = normalized.diagnostics;
    diagnostics.append(&mut projection.diagnostics);
    for d in &mut diagnostics {
        d.provider = Some(options.provider);
        if let Some(id) = &d.call_id {
            d.emitted_id = projection.emitted(id).cloned();
        }
    }
    let report = RenderReport {
        id_map: IdMap(projection.id_map),
        tool_names: IdMap(renamed),
        diagnostics: reading_first(read_repairs, options, &r.limits.notes, diagnostics),
        headers,
    };
    Ok((body, report))
}

/// Renders an owned transcript straight to its body's bytes, appended to `out` (with `ASCII`,
/// every non-ASCII character as a `\u` escape: text for the host's `JSON.parse`), and returns
/// the rest of what a render reports. The body is never built as a `Value`.
pub(crate) fn render_owned_into<const ASCII: bool>(
    mut transcript: Transcript,
    options: &RenderOptions,
    out: &mut Vec<u8>,
) -> Result<RenderReport, Error> {
    let r = Resolved::of(options)?;
    let read = std::mem::take(&mut transcript.read_repairs);
    let normalized = normalize_owned(transcript, &r.normalize);
    let ((), report) = finish_with(&read, normalized, options, &r, |body| {
        body.write::<ASCII>(out)
    })?;
    Ok(report)
}

/// The error of a transcript that normalises to nothing.
pub(crate) fn empty_transcript() -> Error {
    Error::new(
        ErrorCode::EmptyTranscript,
        "$",
        "the transcript has no user, assistant or tool content to send",
    )
}

/// Projects a normalised transcript through the target's adapter ([`WireApi::body`]).
/// The body of a normalised transcript for the target, with the caller's `providerOptions`
/// merged in (and checked) and then `extra`'s fields, which never override the body's.
pub(crate) fn project(
    normalized: &Normalized,
    options: &RenderOptions,
    r: &Resolved,
) -> Result<(Value, Projection), Error> {
    project_out(normalized, options, r).map(|(body, p)| (body.into_value(), p))
}

/// [`project`], the body as the adapter built it: it becomes a `Value` here only when
/// `providerOptions` or `extra` have to be merged into it.
pub(crate) fn project_out<'a>(
    normalized: &'a Normalized,
    options: &'a RenderOptions,
    r: &'a Resolved,
) -> Result<(Out<'a>, Projection), Error> {
    let (body, mut projection) = r.api.body(normalized, options, r);
    let patched = options
        .provider_options
        .contains_key(options.provider.as_str());
    if !patched && options.extra.is_empty() {
        return Ok((body, projection));
    }
    let mut body = body.into_value();
    projection
        .diagnostics
        .extend(apply_provider_options(&mut body, options)?);
    if let Value::Object(members) = &mut body {
        for (k, v) in &options.extra {
            // header params go in the render's headers (ANT-42)
            if crate::request::is_header_param(options.provider, k) {
                continue;
            }
            members.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    provider_options::check_extra(&body, options)?;
    Ok((Out::from(body), projection))
}

/// Renders and returns only the JSON body bytes.
///
/// ```
/// use turnwire::{render_body, Provider, RenderOptions, Transcript};
/// let t = Transcript::from_json(r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}]"#)?;
/// let bytes = render_body(&t, &RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"))?;
/// assert!(bytes.starts_with(b"{\"model\":\"claude-sonnet-4-5\""));
/// # Ok::<(), turnwire::Error>(())
/// ```
pub fn render_body(transcript: &Transcript, options: &RenderOptions) -> Result<Vec<u8>, Error> {
    let mut out = Vec::new();
    render_into(transcript, options, &mut out)?;
    Ok(out)
}

/// Renders straight to the body's bytes, appended to `out`, and returns the rest of what a
/// render reports ([`render_owned_into`] for a borrowed transcript, in UTF-8; the normaliser
/// works on a copy either way).
pub(crate) fn render_into(
    transcript: &Transcript,
    options: &RenderOptions,
    out: &mut Vec<u8>,
) -> Result<RenderReport, Error> {
    render_owned_into::<false>(transcript.clone(), options, out)
}
