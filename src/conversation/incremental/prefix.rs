//! The cached prefix: what a render needs to know about the messages before the boundary, and the
//! undo journal that takes an extension back.

use super::segments::Segments;
use super::*;
use crate::conversation::BodyPart;

/// What a render needs to know about the messages before the boundary.
#[derive(Debug, Default)]
pub(crate) struct Prefix {
    /// Input messages `[0, boundary)` are in the prefix (0: no prefix).
    pub boundary: usize,
    /// Per normaliser pass: the prefix's diagnostics (final form).
    pub(super) head: ByPass,
    /// Per normaliser pass: the prefix's diagnostics that come after the tail's.
    pub(super) trail: ByPass,
    /// Hoisted system texts.
    pub(super) system: Vec<String>,
    /// Tools the prefix calls but the request does not declare, in order of first call.
    pub(super) undeclared: Vec<String>,
    /// Every canonical id the prefix has seen.
    pub(super) ids: HashSet<String>,
    /// The prefix's wire messages (without a chat target's leading system message) as their
    /// compact JSON, comma-separated. Only the bytes are kept: the messages' `Value` trees
    /// would hold several times the history in small allocations.
    pub(super) wire_bytes: Vec<u8>,
    /// Where each wire message ends in `wire_bytes` (the next one starts after a comma).
    pub(super) wire_ends: Vec<usize>,
    /// `wire_bytes` cut into pieces with ids no other piece ever has: a piece's bytes never
    /// change while it exists ([`crate::BodyPart::Cached`]).
    pub(super) segments: Segments,
    /// A 64-bit hash of the bytes of the first wire messages, made only by renders with
    /// `cache` set and only for messages not hashed before ([`super::sent`]).
    pub(super) hashes: Vec<u64>,
    /// Canonical → provider ids of the prefix, in call order.
    pub(super) id_map: Vec<(String, String)>,
    /// The provider ids of `id_map`.
    pub(super) emitted: HashSet<String>,
    /// Tool names of the prefix's calls → the names sent.
    pub(super) names: HashMap<String, String>,
    /// The names sent for them.
    pub(super) projected_names: HashSet<String>,
    /// Tools renamed by the prefix's calls (not by declarations).
    pub(super) renamed: Vec<Renamed>,
    /// Whether the prefix has an OpenAI reasoning item (it makes Responses ask for them).
    pub(super) reasoning: bool,
    /// When the boundary sits inside a tool loop (before an assistant step): how to take the
    /// prefix back to where that turn opened, latest extension last. A user message after such
    /// a boundary ends the turn, and what providers send for the current turn changes (Gemini's
    /// thought signature placeholder, reasoning kept for the current turn only).
    pub(super) steps: Vec<Undo>,
    /// When the boundary sits inside a tool loop: that turn's first assistant message.
    pub(super) opener: Option<TurnOpener>,
    /// The speaker of the prefix's last normalised message: with the tail's first one, the
    /// pair a boundary needs (a user turn after an answer, a tool loop's next step after its
    /// results), checked again on every render since an edit can change the message after it.
    pub(super) last: Option<Speaker>,
}

/// How to take back a [`Prefix::extend`].
#[derive(Debug)]
pub(super) struct Undo {
    pub(super) boundary: usize,
    pub(super) head: Vec<usize>,
    pub(super) trail: Vec<usize>,
    pub(super) system: usize,
    pub(super) undeclared: usize,
    pub(super) ids: Vec<String>,
    pub(super) wire: usize,
    pub(super) wire_bytes: usize,
    pub(super) id_map: usize,
    pub(super) emitted: Vec<String>,
    pub(super) names: Vec<String>,
    pub(super) projected_names: Vec<String>,
    pub(super) renamed: usize,
    pub(super) reasoning: bool,
    pub(super) opener: Option<TurnOpener>,
    pub(super) last: Option<Speaker>,
}

/// The facts of the messages between the old boundary and a new one.
pub(super) struct Middle {
    pub(super) boundary: usize,
    pub(super) head: ByPass,
    pub(super) trail: ByPass,
    pub(super) system: Vec<String>,
    pub(super) undeclared: Vec<String>,
    pub(super) ids: Vec<String>,
    pub(super) wire: Vec<Value>,
    pub(super) id_map: Vec<(String, String)>,
    pub(super) names: Vec<(String, String)>,
    pub(super) renamed: Vec<Renamed>,
    pub(super) reasoning: bool,
    /// The current turn's first assistant message, when the new boundary is inside a tool loop.
    pub(super) opener: Option<TurnOpener>,
    /// The speaker of the middle's last normalised message.
    pub(super) last: Option<Speaker>,
}

impl Prefix {
    /// Moves the facts of `m` into the prefix, whose boundary becomes `m.boundary`; returns
    /// the journal entry that [`Prefix::rewind`] and a failed check use to take it back.
    pub(super) fn extend(&mut self, m: Middle) -> Undo {
        if self.head.is_empty() {
            self.head = vec![Vec::new(); PASSES.len()];
            self.trail = vec![Vec::new(); PASSES.len()];
        }
        let undo = self.undo_for(&m);
        self.boundary = m.boundary;
        self.opener = m.opener;
        self.last = m.last.or(self.last);
        for (dst, src) in self.head.iter_mut().zip(m.head) {
            dst.extend(src);
        }
        for (dst, src) in self.trail.iter_mut().zip(m.trail) {
            dst.extend(src);
        }
        self.system.extend(m.system);
        self.undeclared.extend(m.undeclared);
        self.ids.extend(m.ids);
        for v in &m.wire {
            if !self.wire_bytes.is_empty() {
                self.wire_bytes.push(b',');
            }
            crate::json::write::write_value(&mut self.wire_bytes, v);
            self.wire_ends.push(self.wire_bytes.len());
        }
        // At most an eighth of spare room (and 64 KiB): growing by doubling would otherwise
        // leave up to the bytes' size again unused for as long as the conversation lives.
        let room = self.wire_bytes.len() / 8 + (64 << 10);
        if self.wire_bytes.capacity() > self.wire_bytes.len() + room {
            self.wire_bytes.shrink_to(self.wire_bytes.len() + room);
        }
        self.segments.grow(self.wire_bytes.len());
        for (_, p) in &m.id_map {
            self.emitted.insert(p.clone());
        }
        self.id_map.extend(m.id_map);
        for (n, p) in m.names {
            self.projected_names.insert(p.clone());
            self.names.entry(n).or_insert(p);
        }
        self.renamed.extend(m.renamed);
        self.reasoning |= m.reasoning;
        undo
    }

    /// What [`Prefix::extend`] with `m` changes, for the undo journal.
    fn undo_for(&self, m: &Middle) -> Undo {
        Undo {
            boundary: self.boundary,
            head: self.head.iter().map(Vec::len).collect(),
            trail: self.trail.iter().map(Vec::len).collect(),
            system: self.system.len(),
            undeclared: self.undeclared.len(),
            ids: m
                .ids
                .iter()
                .filter(|i| !self.ids.contains(*i))
                .cloned()
                .collect(),
            wire: self.wire_ends.len(),
            wire_bytes: self.wire_bytes.len(),
            id_map: self.id_map.len(),
            emitted: m
                .id_map
                .iter()
                .filter(|(_, p)| !self.emitted.contains(p))
                .map(|(_, p)| p.clone())
                .collect(),
            names: m
                .names
                .iter()
                .filter(|(n, _)| !self.names.contains_key(n))
                .map(|(n, _)| n.clone())
                .collect(),
            projected_names: m
                .names
                .iter()
                .filter(|(_, p)| !self.projected_names.contains(p))
                .map(|(_, p)| p.clone())
                .collect(),
            renamed: self.renamed.len(),
            reasoning: self.reasoning,
            opener: self.opener,
            last: self.last,
        }
    }

    /// The cached wire bytes as their pieces, in order: a [`BodyPart::Cached`] each.
    pub(super) fn pieces(&self) -> impl Iterator<Item = BodyPart<'_>> {
        self.segments.pieces().map(|p| BodyPart::Cached {
            id: p.id,
            bytes: self.wire_bytes.get(p.start..p.end).unwrap_or_default(),
            halves: p.halves(),
        })
    }

    /// How many wire messages the prefix holds.
    pub(crate) fn wire_len(&self) -> usize {
        self.wire_ends.len()
    }

    /// The compact JSON of each wire message, in order.
    pub(super) fn wire_texts(&self) -> impl Iterator<Item = &[u8]> {
        let starts = std::iter::once(0).chain(self.wire_ends.iter().map(|&end| end + 1));
        starts
            .zip(&self.wire_ends)
            .map(|(start, &end)| self.wire_bytes.get(start..end).unwrap_or_default())
    }

    /// Ids of every piece this prefix holds (merged ones and their halves).
    pub(crate) fn segment_ids(&self) -> Vec<u64> {
        self.segments.ids()
    }

    /// Whether the boundary sits inside a tool loop.
    pub(crate) fn mid_turn(&self) -> bool {
        !self.steps.is_empty()
    }

    /// Takes the prefix back for an edit that changes input messages from `index` on: through
    /// its undo journal while that reaches a boundary at or before `index`, else to no prefix
    /// at all (the next render is a full one). A prefix that ends at or before `index` stays.
    pub(crate) fn keep_before(&mut self, index: usize) {
        while self.boundary > index {
            match self.steps.pop() {
                Some(u) => self.undo(u),
                None => {
                    *self = Prefix::default();
                    return;
                }
            }
        }
    }

    /// Takes the prefix back to where the current turn opened; whether it moved.
    pub(crate) fn rewind(&mut self) -> bool {
        let moved = !self.steps.is_empty();
        while let Some(u) = self.steps.pop() {
            self.undo(u);
        }
        moved
    }

    pub(super) fn undo(&mut self, u: Undo) {
        self.boundary = u.boundary;
        for (v, n) in self.head.iter_mut().zip(u.head) {
            v.truncate(n);
        }
        for (v, n) in self.trail.iter_mut().zip(u.trail) {
            v.truncate(n);
        }
        self.system.truncate(u.system);
        self.undeclared.truncate(u.undeclared);
        for i in u.ids {
            self.ids.remove(&i);
        }
        self.wire_ends.truncate(u.wire);
        self.hashes.truncate(u.wire);
        self.wire_bytes.truncate(u.wire_bytes);
        self.segments.truncate(u.wire_bytes);
        self.id_map.truncate(u.id_map);
        for p in u.emitted {
            self.emitted.remove(&p);
        }
        for n in u.names {
            self.names.remove(&n);
        }
        for p in u.projected_names {
            self.projected_names.remove(&p);
        }
        self.renamed.truncate(u.renamed);
        self.reasoning = u.reasoning;
        self.opener = u.opener;
        self.last = u.last;
    }
}
