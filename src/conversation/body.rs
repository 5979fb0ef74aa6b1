//! A [`Conversation`]'s body bytes: whole, as the slices that make them up, or as pieces
//! marked by whether they come from the render cache.

use super::{Conversation, Output, Want};
use crate::error::Error;
use crate::render::{render, RenderReport};
use crate::request::RenderOptions;

/// One piece of a request body handed out by [`Conversation::write_body_parts`].
///
/// ```
/// use turnwire::{BodyPart, Conversation, Provider, RenderOptions};
/// let mut c = Conversation::new();
/// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
/// let mut body = Vec::new();
/// c.write_body_parts(&RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5"), &mut |parts| {
///     for p in parts {
///         body.extend_from_slice(p.bytes());
///     }
/// })?;
/// assert!(body.starts_with(b"{\"model\""));
/// # Ok::<(), turnwire::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BodyPart<'a> {
    /// Bytes of this render only.
    Fresh(&'a [u8]),
    /// Bytes of the conversation's render cache (the wire messages before its boundary): a
    /// given `id` always stands for the same bytes and is never reused, so a caller may keep
    /// what it made of them (a JavaScript `Blob`) under that id.
    Cached {
        /// The piece's id, unique in the process.
        id: u64,
        /// Its bytes.
        bytes: &'a [u8],
        /// The two pieces it was merged from, when it was: its bytes are theirs, one after
        /// the other, so a caller that kept them can join them without the bytes.
        halves: Option<(u64, u64)>,
    },
}

impl<'a> BodyPart<'a> {
    /// The piece's bytes.
    pub fn bytes(&self) -> &'a [u8] {
        match self {
            BodyPart::Fresh(b) | BodyPart::Cached { bytes: b, .. } => b,
        }
    }
}

impl Conversation {
    /// Renders only the JSON body bytes: exactly [`crate::render_body`]'s for the whole
    /// transcript.
    pub fn render_body(&mut self, options: &RenderOptions) -> Result<Vec<u8>, Error> {
        let mut out = Vec::new();
        self.write_body(options, &mut |parts| {
            out.reserve_exact(parts.iter().map(|p| p.len()).sum());
            for p in parts {
                out.extend_from_slice(p);
            }
        })?;
        Ok(out)
    }

    /// Renders the body bytes like [`Conversation::render_body`], handing them to `sink` as
    /// the slices that make them up, in order (once, unless the render fails): the cached
    /// part is not copied on the way.
    pub fn write_body(
        &mut self,
        options: &RenderOptions,
        sink: &mut dyn FnMut(&[&[u8]]),
    ) -> Result<(), Error> {
        self.write_body_parts(options, &mut flat(sink))
    }

    /// Renders the body bytes like [`Conversation::write_body`], marking the pieces that come
    /// from the render cache ([`BodyPart::Cached`]): a caller that keeps what it made of each
    /// cached piece by its id (JS `renderBlob` keeps a `Blob` per piece) pays for the new turn
    /// only, not for the history.
    pub fn write_body_parts(
        &mut self,
        options: &RenderOptions,
        sink: &mut dyn FnMut(&[BodyPart<'_>]),
    ) -> Result<(), Error> {
        let want = Want::Body {
            sink,
            report: false,
        };
        if let Output::Object(r) = self.run(options, want)? {
            sink(&[BodyPart::Fresh(&r.body_bytes())]);
        }
        Ok(())
    }

    /// The ids of every cached piece the conversation holds, over all its render targets: a
    /// caller that keeps something per [`BodyPart::Cached`] id may drop the rest.
    pub fn cached_part_ids(&self) -> Vec<u64> {
        self.targets
            .iter()
            .flat_map(|t| t.prefix.segment_ids())
            .collect()
    }

    /// Renders the body bytes like [`Conversation::write_body`] and returns the rest of the
    /// result ([`Conversation::render`]'s id map, tool names and diagnostics) without building
    /// the body as a value: what a caller that sends the bytes needs (JS `streamTurn`).
    ///
    /// ```
    /// use turnwire::{Conversation, Provider, RenderOptions};
    /// let mut c = Conversation::new();
    /// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
    /// let o = RenderOptions::new(Provider::OpenAiChat, "gpt-5.2");
    /// let mut body = Vec::new();
    /// let report = c.write_request(&o, &mut |parts| parts.iter().for_each(|p| body.extend_from_slice(p)))?;
    /// assert_eq!(body, c.render_body(&o)?);
    /// assert!(report.diagnostics.is_empty());
    /// # Ok::<(), turnwire::Error>(())
    /// ```
    pub fn write_request(
        &mut self,
        options: &RenderOptions,
        sink: &mut dyn FnMut(&[&[u8]]),
    ) -> Result<RenderReport, Error> {
        let out = {
            let mut pieces = flat(sink);
            let want = Want::Body {
                sink: &mut pieces,
                report: true,
            };
            self.run(options, want)?
        };
        match out {
            Output::Report(r) => Ok(r),
            // what `run` does not give for a report
            Output::Object(r) => {
                sink(&[&r.body_bytes()]);
                Ok(r.into_parts().1)
            }
            Output::Written => Ok(render(&self.transcript, options)?.into_parts().1),
        }
    }
}

/// A sink of body pieces that hands their bytes on to a sink of byte slices.
fn flat<'s>(sink: &'s mut dyn FnMut(&[&[u8]])) -> impl FnMut(&[BodyPart<'_>]) + 's {
    move |parts| {
        let slices: Vec<&[u8]> = parts.iter().map(BodyPart::bytes).collect();
        sink(&slices);
    }
}
