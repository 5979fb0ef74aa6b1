//! One render of a [`super::Conversation`] for one target: through its cached prefix when it
//! can, from the turn's start after a tool loop, or in full; then the boundary moves up.

use super::{BodyPart, Output, RenderStats, Target, Want, RETRY_AFTER};
use crate::conversation::incremental::sent::{of_body, through, Sent};
use crate::conversation::incremental::{self, Fallback, Prefix, Tail};
use crate::error::Error;
use crate::model::Transcript;
use crate::render::{render, render_into, IdMap, RenderReport, Rendered};
use crate::request::{RenderOptions, Resolved};
use crate::vocab::WireApi;

/// The full render, as the last resort.
pub(super) fn full(
    transcript: &Transcript,
    options: &RenderOptions,
    want: Want<'_>,
    stats: &mut RenderStats,
    sent: &mut Option<Sent>,
) -> Result<Output, Error> {
    let full_stats = RenderStats {
        messages_rendered: transcript.messages.len(),
        fallback: stats.fallback,
        ..RenderStats::default()
    };
    let want = match (want, &options.cache) {
        // Bytes alone, with no prompt-cache marks to follow: written straight from the
        // adapter, never built as a `Value`.
        (Want::Body { sink, report }, None) => {
            let mut bytes = Vec::new();
            let r = render_into(transcript, options, &mut bytes)?;
            *stats = full_stats;
            sink(&[BodyPart::Fresh(&bytes)]);
            return Ok(if report {
                Output::Report(r)
            } else {
                Output::Written
            });
        }
        (want, _) => want,
    };
    let r = render(transcript, options)?;
    if options.cache.is_some() {
        *sent = Some(of_body(
            &r.body,
            WireApi::of(options.provider).messages_key(),
        ));
    }
    *stats = full_stats;
    Ok(match want {
        Want::Object => Output::Object(r),
        Want::Body { sink, report } => {
            sink(&[BodyPart::Fresh(&r.body_bytes())]);
            if report {
                Output::Report(r.into_parts().1)
            } else {
                Output::Written
            }
        }
    })
}

/// One render for `target`, whose cached prefix was taken out as `cached` (and is put back).
pub(super) fn step(
    target: &mut Target,
    cached: Prefix,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
    want: Want<'_>,
    stats: &mut RenderStats,
) -> Result<Output, Error> {
    *stats = RenderStats::default();
    if resolved
        .host
        .is_some_and(crate::providers::host_envelope::edits_envelope)
    {
        // the splice writes the tail's envelope as the adapter built it: in full, so that the
        // host's edits are made (the cached prefix stays for later renders)
        target.prefix = cached;
        stats.fallback = Some(Fallback::HostEnvelope);
        return full(transcript, options, want, stats, &mut target.now);
    }
    let mut prefix = cached;
    let (tail, why) = through_cache(&mut prefix, transcript, options, resolved)?;
    stats.fallback = why;
    // Without the cached prefix: from scratch, keeping the cache for later renders.
    let mut kept: Option<Prefix> = None;
    let tail = match tail {
        Some(t) => t,
        None => {
            if prefix.boundary > 0 {
                kept = Some(std::mem::take(&mut prefix));
            }
            match incremental::render_tail(&prefix, transcript, options, resolved)? {
                Ok(t) => t,
                Err(why) => {
                    stats.fallback = stats.fallback.or(Some(why));
                    target.prefix = kept.unwrap_or(prefix);
                    return full(transcript, options, want, stats, &mut target.now);
                }
            }
        }
    };
    crate::memory::check("rendering")?;
    stats.incremental = prefix.boundary > 0;
    stats.messages_rendered = transcript.messages.len() - prefix.boundary;
    stats.fragments_reused = prefix.wire_len();
    let output = match want {
        Want::Object => match object(&prefix, &tail, transcript, options, resolved) {
            Some(r) => Output::Object(r),
            None => {
                target.prefix = kept.unwrap_or(prefix);
                stats.fallback = stats.fallback.or(Some(Fallback::SpliceFailed));
                return full(transcript, options, Want::Object, stats, &mut target.now);
            }
        },
        Want::Body { sink, report } => {
            if incremental::write_body(&prefix, &tail, sink).is_none() {
                target.prefix = kept.unwrap_or(prefix);
                stats.fallback = stats.fallback.or(Some(Fallback::SpliceFailed));
                return full(
                    transcript,
                    options,
                    Want::Body { sink, report },
                    stats,
                    &mut target.now,
                );
            }
            if report {
                Output::Report(report_of(&prefix, &tail, transcript, options, resolved))
            } else {
                Output::Written
            }
        }
    };
    if options.cache.is_some() {
        target.now = Some(through(&mut prefix, &tail));
    }
    let moved = move_boundary(target, &mut prefix, &tail, transcript, options, resolved)?;
    target.prefix = match kept {
        Some(old) if !moved => old,
        _ => prefix,
    };
    stats.boundary = target.prefix.boundary;
    Ok(output)
}

/// The tail after the cached prefix, when there is one and it can be used; a boundary inside a
/// tool loop is tried again from where its turn opened. Otherwise why not.
fn through_cache(
    prefix: &mut Prefix,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Result<(Option<Tail>, Option<Fallback>), Error> {
    if prefix.boundary == 0 {
        return Ok((None, None));
    }
    let why = match incremental::render_tail(prefix, transcript, options, resolved)? {
        Ok(t) => return Ok((Some(t), None)),
        Err(why) => why,
    };
    if !(prefix.rewind() && prefix.boundary > 0) {
        return Ok((None, Some(why)));
    }
    Ok(
        match incremental::render_tail(prefix, transcript, options, resolved)? {
            Ok(t) => (Some(t), None),
            Err(again) => (None, Some(again)),
        },
    )
}

/// The whole result of a render through `prefix`: exactly what [`render`] gives (`None` when
/// the cached messages would not read back, and the render must be a full one).
fn object(
    prefix: &Prefix,
    tail: &Tail,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Option<Rendered> {
    let body = incremental::body_value(prefix, tail)?;
    let RenderReport {
        id_map,
        tool_names,
        diagnostics,
        headers,
    } = report_of(prefix, tail, transcript, options, resolved);
    Some(Rendered {
        body,
        id_map,
        tool_names,
        diagnostics,
        headers,
    })
}

/// A render's result but its body, through `prefix`.
fn report_of(
    prefix: &Prefix,
    tail: &Tail,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> RenderReport {
    RenderReport {
        id_map: IdMap(incremental::id_map(prefix, tail)),
        tool_names: IdMap(incremental::tool_names(prefix, tail)),
        diagnostics: crate::render::reading_first(
            &transcript.read_repairs,
            options,
            &resolved.limits.notes,
            incremental::diagnostics(prefix, tail),
        ),
        headers: IdMap(resolved.headers.with_betas(&incremental::betas(
            prefix,
            tail,
            resolved.api,
        ))),
    }
}

/// Moves the boundary up to the latest place it can go (a boundary that failed is not tried
/// again until [`RETRY_AFTER`] more messages came). Returns whether it moved.
fn move_boundary(
    target: &mut Target,
    prefix: &mut Prefix,
    tail: &Tail,
    transcript: &Transcript,
    options: &RenderOptions,
    resolved: &Resolved,
) -> Result<bool, Error> {
    let m = transcript.messages.len();
    let retry = |to: usize| match target.failed {
        Some((b, at)) => b != to || m >= at + RETRY_AFTER,
        None => true,
    };
    let Some(to) =
        incremental::candidate(transcript, prefix.boundary, resolved).filter(|&to| retry(to))
    else {
        return Ok(false);
    };
    let moved = incremental::advance(prefix, tail, to, transcript, options, resolved)?;
    target.failed = if moved { None } else { Some((to, m)) };
    Ok(moved)
}
