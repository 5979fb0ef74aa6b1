//! [`Conversation`]: a transcript that grows message by message and renders incrementally.

use serde_json::Value;

mod body;
mod calls;
mod compact;
mod edit;
pub(crate) mod incremental;
mod step;

pub use body::BodyPart;
pub use incremental::Fallback;

use step::{full, step};

use crate::error::Error;
use crate::model::{JsonPath, Message, Transcript};
use crate::render::{render, RenderReport, Rendered};
use crate::request::{RenderOptions, Resolved};
use incremental::sent::{first_change, Sent};
use incremental::Prefix;

/// How many render targets (distinct options) a conversation keeps a cache for by default; the
/// least recently rendered one is dropped first. Each cache holds about the history's size
/// again (the wire messages before the boundary, as their JSON text, and what a render needs to
/// know about them), so this bounds a conversation's memory at about 5× its history however
/// many providers it renders for. Set it per
/// conversation with [`Conversation::set_cache_targets`].
pub const DEFAULT_CACHE_TARGETS: usize = 4;

/// Messages a conversation loaded from a transcript has room for before its vector grows.
const APPEND_ROOM: usize = 64;

/// A boundary that could not be taken is tried again after this many more messages.
const RETRY_AFTER: usize = 8;

/// How the last render of a [`Conversation`] went: what it rendered and what it reused.
///
/// ```
/// use turnwire::{Conversation, Provider, RenderOptions};
/// let mut c = Conversation::new();
/// c.append_json(r#"{"speaker":"human","blocks":[{"type":"text","text":"hi"}]}"#)?;
/// c.render_body(&RenderOptions::new(Provider::OpenAiChat, "gpt-5.2"))?;
/// assert_eq!(c.last_render_stats().messages_rendered, 1);
/// # Ok::<(), turnwire::Error>(())
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct RenderStats {
    /// Whether the cached messages before a boundary were reused (`false`: the whole
    /// transcript was rendered).
    pub incremental: bool,
    /// Input messages normalised and projected by this render.
    pub messages_rendered: usize,
    /// Wire messages reused from the cache.
    pub fragments_reused: usize,
    /// Input messages before the cached boundary once this render is done: what the next
    /// render for the same options reuses.
    pub boundary: usize,
    /// Why a cached prefix could not be used, when there was one and it could not.
    pub fallback: Option<Fallback>,
    /// With `cache` set: the first history message of the previous request to the same target
    /// that this request changed (the provider's cached prefix ends before it), as the
    /// `cache_prefix_changed` diagnostic also says.
    pub cache_prefix_changed: Option<usize>,
}

/// The cache of one render target (one set of options).
#[derive(Debug)]
struct Target {
    options: RenderOptions,
    prefix: Prefix,
    /// A boundary that failed, and the transcript length then.
    failed: Option<(usize, usize)>,
    /// With `cache` set: what the last request to this target sent.
    sent: Option<Sent>,
    /// With `cache` set: what the request being rendered sends (moved to `sent` once it is
    /// compared).
    now: Option<Sent>,
}

/// A conversation that grows message by message and renders for any provider on every turn,
/// doing work proportional to what changed since the last render for the same options.
///
/// The result of every render is exactly [`render`]'s for the whole transcript — body bytes,
/// id map, tool names and diagnostics. Per render target it caches the wire messages before a
/// stable boundary (a user message after a finished assistant turn, see the incremental
/// renderer's documentation in the source) and renders only the messages after it; whenever
/// the cached part could be affected by the new messages, it renders the whole transcript.
///
/// ```
/// use turnwire::{render_body, Conversation, Provider, RenderOptions};
/// let mut c = Conversation::new();
/// let o = RenderOptions::new(Provider::Anthropic, "claude-sonnet-4-5");
/// for (speaker, text) in [("human", "hi"), ("ai", "hello"), ("human", "list files"), ("ai", "done"), ("human", "thanks")] {
///     c.append_json(&format!(r#"{{"speaker":"{speaker}","blocks":[{{"type":"text","text":"{text}"}}]}}"#))?;
///     assert_eq!(c.render_body(&o)?, render_body(c.transcript(), &o)?);
/// }
/// assert!(c.last_render_stats().incremental);
/// # Ok::<(), turnwire::Error>(())
/// ```
#[derive(Debug, Default)]
pub struct Conversation {
    transcript: Transcript,
    /// The cached targets, least recently rendered first.
    targets: Vec<Target>,
    /// How many targets may stay cached (0: the default).
    cache_targets: usize,
    stats: RenderStats,
}

/// What a render is asked for.
enum Want<'a> {
    /// The whole result.
    Object,
    /// The body bytes, handed over as the pieces that make them up, and with `report` the
    /// rest of the result.
    Body {
        sink: &'a mut dyn FnMut(&[BodyPart<'_>]),
        report: bool,
    },
}

/// What a render returns (the body went to the [`Want::Body`] sink).
enum Output {
    Written,
    Object(Rendered),
    Report(RenderReport),
}

impl Conversation {
    /// An empty conversation.
    pub fn new() -> Self {
        Self::default()
    }

    /// A conversation starting from a transcript.
    pub fn from_transcript(mut transcript: Transcript) -> Self {
        // Room for the turns to come: the first append after loading a long history would
        // otherwise move every message into a larger vector.
        transcript.messages.reserve_exact(APPEND_ROOM);
        Conversation {
            transcript,
            ..Self::default()
        }
    }

    /// The transcript so far.
    pub fn transcript(&self) -> &Transcript {
        &self.transcript
    }

    /// The transcript, giving up the caches.
    pub fn into_transcript(self) -> Transcript {
        self.transcript
    }

    /// The number of messages.
    pub fn len(&self) -> usize {
        self.transcript.messages.len()
    }

    /// Whether there is no message yet.
    pub fn is_empty(&self) -> bool {
        self.transcript.messages.is_empty()
    }

    /// Appends one message.
    pub fn append(&mut self, message: Message) {
        self.transcript.messages.push(message);
    }

    /// Appends one message in its JSON shape. A bad message is an error whose path is the
    /// index it would have had (`$[12].blocks[0].id`); the conversation is left unchanged.
    pub fn append_value(&mut self, value: &Value) -> Result<(), Error> {
        self.append_value_owned(value.clone())
    }

    /// [`Conversation::append_value`] for a value it may take apart (no copy of its strings).
    pub fn append_value_owned(&mut self, value: Value) -> Result<(), Error> {
        let root = JsonPath::Root;
        let message = Message::read(value, &root.index(self.transcript.messages.len()))?;
        crate::memory::check("appending a message")?;
        self.transcript.messages.push(message);
        Ok(())
    }

    /// Appends one message given as JSON text. Unpaired surrogates are repaired as
    /// [`Transcript::from_json`] does, reported at the message's index (`$[12].blocks[0].text`).
    pub fn append_json(&mut self, json: &str) -> Result<(), Error> {
        let index = self.transcript.messages.len();
        let root = format!("$[{index}]");
        let parsed = crate::json::parse(json, &root, "the message")?;
        self.append_value_owned(parsed.value)?;
        let repairs = crate::json::report::surrogates(&parsed.repairs, &root);
        self.add_read_repairs(repairs);
        Ok(())
    }

    /// Records repairs made while reading input (reported by every later render).
    pub(crate) fn add_read_repairs(&mut self, repairs: Vec<crate::vocab::Diagnostic>) {
        crate::json::report::push_capped(&mut self.transcript.read_repairs, repairs);
    }

    /// Renders the request body for `options.provider`: exactly [`render`]'s result for the
    /// whole transcript.
    pub fn render(&mut self, options: &RenderOptions) -> Result<Rendered, Error> {
        match self.run(options, Want::Object)? {
            Output::Object(r) => Ok(r),
            Output::Written | Output::Report(_) => render(&self.transcript, options),
        }
    }

    /// How the last render went.
    pub fn last_render_stats(&self) -> &RenderStats {
        &self.stats
    }

    /// How many render targets stay cached ([`DEFAULT_CACHE_TARGETS`] unless set).
    ///
    /// ```
    /// use turnwire::{Conversation, DEFAULT_CACHE_TARGETS};
    /// let mut c = Conversation::new();
    /// assert_eq!(c.cache_targets(), DEFAULT_CACHE_TARGETS);
    /// c.set_cache_targets(8); // a round robin over eight providers, each render incremental
    /// assert_eq!(c.cache_targets(), 8);
    /// ```
    pub fn cache_targets(&self) -> usize {
        if self.cache_targets == 0 {
            DEFAULT_CACHE_TARGETS
        } else {
            self.cache_targets
        }
    }

    /// Keeps caches for at most `n` render targets (at least 1), dropping the least recently
    /// rendered ones now if there are more. A target whose cache was dropped renders in full
    /// once, then incrementally again: the results are the same either way.
    pub fn set_cache_targets(&mut self, n: usize) {
        self.cache_targets = n.max(1);
        let keep = self.cache_targets;
        if self.targets.len() > keep {
            self.targets.drain(..self.targets.len() - keep);
        }
    }

    /// The cache of `options`, made the most recently rendered one (created when missing, the
    /// least recently rendered one dropped when over the budget).
    fn target(&mut self, options: &RenderOptions) -> usize {
        if let Some(i) = self.targets.iter().position(|t| t.options == *options) {
            let hit = self.targets.remove(i);
            self.targets.push(hit);
            return self.targets.len() - 1;
        }
        while self.targets.len() >= self.cache_targets() {
            self.targets.remove(0);
        }
        self.targets.push(Target {
            options: options.clone(),
            prefix: Prefix::default(),
            failed: None,
            sent: None,
            now: None,
        });
        self.targets.len() - 1
    }

    fn run(&mut self, options: &RenderOptions, want: Want<'_>) -> Result<Output, Error> {
        let resolved = Resolved::of(options)?;
        let i = self.target(options);
        let mut now: Option<Sent> = None;
        let Some(target) = self.targets.get_mut(i) else {
            return full(&self.transcript, options, want, &mut self.stats, &mut now);
        };
        let cached = std::mem::take(&mut target.prefix);
        let result = step(
            target,
            cached,
            &self.transcript,
            options,
            &resolved,
            want,
            &mut self.stats,
        );
        let result = result.map(|out| match target.now.take() {
            Some(now) => compare_sent(target, now, out, options, &mut self.stats),
            None => out,
        });
        let result = result.and_then(|out| {
            crate::memory::check("rendering")?;
            Ok(out)
        });
        match &result {
            Err(e) if crate::memory::is_out_of_memory(e) => self.drop_caches(),
            Err(_) => target.prefix = Prefix::default(),
            Ok(_) => {}
        }
        result.map_err(|e| self.out_of_memory_note(e))
    }

    /// Frees every render cache after the memory budget ran out (the transcript stays).
    fn drop_caches(&mut self) {
        self.targets = Vec::new();
    }

    /// Says in an `out_of_memory` error what became of the conversation.
    fn out_of_memory_note(&self, e: Error) -> Error {
        if !crate::memory::is_out_of_memory(&e) {
            return e;
        }
        Error::new(
            e.code(),
            e.path(),
            format!(
                "{}; the conversation's render caches were dropped, its {} messages are intact",
                e.message(),
                self.transcript.messages.len()
            ),
        )
    }
}

/// Compares what this request sent with the previous request to the same target (`cache`
/// set): a history message that changed ends the provider's cached prefix, reported in the
/// stats and, where the render gives diagnostics, as `cache_prefix_changed`.
fn compare_sent(
    target: &mut Target,
    now: Sent,
    mut out: Output,
    options: &RenderOptions,
    stats: &mut RenderStats,
) -> Output {
    let changed = target
        .sent
        .as_ref()
        .and_then(|before| first_change(before, &now));
    target.sent = Some(now);
    let Some(at) = changed else {
        return out;
    };
    stats.cache_prefix_changed = Some(at);
    let key = crate::vocab::WireApi::of(options.provider).messages_key();
    let d = crate::vocab::Diagnostic::new(
        crate::vocab::DiagnosticCode::CachePrefixChanged,
        crate::vocab::FaultClass::ProviderProjection,
        format!("message {at} of the previous request to this target is sent differently now (a repair reached back, or the history changed): the prefix the provider cached ends before it, and this request writes the rest again"),
    )
    .at_path(format!("$.{key}[{at}]"));
    match &mut out {
        Output::Object(r) => r.diagnostics.push(d),
        Output::Report(r) => r.diagnostics.push(d),
        Output::Written => {}
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_conversation_can_be_shared_between_threads() {
        fn shared<T: Send + Sync>() {}
        shared::<Conversation>();
    }

    #[test]
    fn a_loaded_history_has_room_for_the_turns_to_come() {
        let t = Transcript::from_json(
            r#"[{"speaker":"human","blocks":[{"type":"text","text":"hi"}]},
                {"speaker":"ai","blocks":[{"type":"text","text":"hello"}]}]"#,
        )
        .unwrap();
        let c = Conversation::from_transcript(t);
        let m = &c.transcript().messages;
        assert!(m.capacity() >= m.len() + APPEND_ROOM, "{}", m.capacity());
    }
}
