//! The prefix's cached body bytes cut into pieces with ids, for callers that keep what they
//! made of each piece (JS `renderBlob` keeps a `Blob` per piece).
//!
//! Each extension of the prefix adds a piece. Neighbours of the same size class are merged
//! binary-counter style (two pieces of level `k` become one of level `k + 1` that remembers its
//! halves), so a prefix built over thousands of extensions is a handful of top-level pieces:
//! a body has about log2(extensions) parts. Only pieces a body has shown are merged, so a
//! caller that kept what it made of each piece builds a merged one from its halves (a `Blob` of
//! two `Blob`s) without copying bytes. Taking an extension back splits the merged pieces that
//! reach past the new end into their halves again.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Ids of pieces, never reused in this process.
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// One piece: bytes `start..end` of the prefix's cached bytes.
#[derive(Debug)]
pub(crate) struct Piece {
    pub(crate) id: u64,
    pub(crate) start: usize,
    pub(crate) end: usize,
    level: u32,
    halves: Option<Box<(Piece, Piece)>>,
    /// Whether a body showed it (its halves, for a merged one): a caller may hold it.
    shown: AtomicBool,
}

impl Piece {
    /// The ids of the two pieces this one was merged from.
    pub(crate) fn halves(&self) -> Option<(u64, u64)> {
        self.halves.as_ref().map(|h| (h.0.id, h.1.id))
    }

    fn leaf(start: usize, end: usize) -> Piece {
        Piece {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            start,
            end,
            level: 0,
            halves: None,
            shown: AtomicBool::new(false),
        }
    }

    fn collect_ids(&self, out: &mut Vec<u64>) {
        out.push(self.id);
        if let Some(h) = &self.halves {
            h.0.collect_ids(out);
            h.1.collect_ids(out);
        }
    }
}

/// The pieces of a prefix's cached bytes, in order; together they cover them exactly.
#[derive(Debug, Default)]
pub(crate) struct Segments {
    top: Vec<Piece>,
}

impl Segments {
    /// One extension made the bytes `end` long.
    pub(crate) fn grow(&mut self, end: usize) {
        let start = self.top.last().map_or(0, |p| p.end);
        if end <= start {
            return;
        }
        // merge what bodies have shown (the last pair of equal levels first), then add the
        // new piece
        while let Some(i) = self.mergeable() {
            let b = self.top.remove(i + 1);
            let a = self.top.remove(i);
            let merged = Piece {
                id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
                start: a.start,
                end: b.end,
                level: a.level + 1,
                halves: Some(Box::new((a, b))),
                // not shown yet: a caller makes its piece from the halves' when a body shows
                // it, so it must not be merged again before that (the caller would have no
                // piece for it, and would copy the bytes of the one made from it)
                shown: AtomicBool::new(false),
            };
            self.top.insert(i, merged);
        }
        self.top.push(Piece::leaf(start, end));
    }

    /// The last neighbours of one level that bodies have both shown.
    fn mergeable(&self) -> Option<usize> {
        self.top.windows(2).rposition(|w| {
            w[0].level == w[1].level
                && w[0].shown.load(Ordering::Relaxed)
                && w[1].shown.load(Ordering::Relaxed)
        })
    }

    /// The bytes were cut back to `len` (an earlier extension's end): pieces past it are
    /// dropped, merged ones that reach past it split into their halves.
    pub(crate) fn truncate(&mut self, len: usize) {
        while let Some(last) = self.top.last() {
            if last.end <= len {
                break;
            }
            let Some(piece) = self.top.pop() else {
                break;
            };
            match piece.halves {
                Some(h) => {
                    let (a, b) = *h;
                    self.top.push(a);
                    self.top.push(b);
                }
                // an extension's own piece starts at or after `len`; one that does not is
                // cut into a new piece
                None if piece.start < len => self.top.push(Piece::leaf(piece.start, len)),
                None => {}
            }
        }
    }

    /// The top-level pieces, in order, for a body: they count as shown from now on.
    pub(crate) fn pieces(&self) -> impl Iterator<Item = &Piece> {
        self.top
            .iter()
            .inspect(|p| p.shown.store(true, Ordering::Relaxed))
    }

    /// Every id these pieces were made of, merged ones and their halves.
    pub(crate) fn ids(&self) -> Vec<u64> {
        let mut out = Vec::new();
        for p in &self.top {
            p.collect_ids(&mut out);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn covered(s: &Segments) -> Vec<(usize, usize)> {
        s.pieces().map(|p| (p.start, p.end)).collect()
    }

    #[test]
    fn thousands_of_extensions_make_a_few_pieces_that_cover_the_bytes() {
        let mut s = Segments::default();
        let mut ends = Vec::new();
        for k in 1..=2000 {
            s.grow(k * 10);
            ends.push(k * 10);
            let c = covered(&s); // a body shows them
            assert_eq!(c.first().map(|p| p.0), Some(0));
            assert!(c.windows(2).all(|w| w[0].1 == w[1].0));
            assert_eq!(c.last().map(|p| p.1), Some(k * 10));
            assert!(c.len() <= 12, "{} pieces after {k}", c.len());
        }
    }

    #[test]
    fn pieces_no_body_showed_are_not_merged() {
        let mut s = Segments::default();
        for k in 1..=8 {
            s.grow(k * 10);
        }
        assert_eq!(s.pieces().count(), 8);
        s.grow(90);
        // shown now: they merge in pairs when the next piece comes, and the pairs merge only
        // once a body has shown them (what a caller built for a pair is what the next merge
        // is built from)
        assert_eq!(
            covered(&s),
            vec![(0, 20), (20, 40), (40, 60), (60, 80), (80, 90)]
        );
        s.grow(100);
        assert_eq!(covered(&s), vec![(0, 40), (40, 80), (80, 90), (90, 100)]);
        s.grow(110);
        assert_eq!(covered(&s), vec![(0, 80), (80, 100), (100, 110)]);
    }

    #[test]
    fn taking_extensions_back_splits_merged_pieces_and_keeps_ids() {
        let mut s = Segments::default();
        for k in 1..=9 {
            s.grow(k * 10);
            let _ = covered(&s); // a body shows them
        }
        s.truncate(80);
        assert_eq!(covered(&s), vec![(0, 40), (40, 60), (60, 80)]);
        let before: Vec<u64> = s.ids();
        s.truncate(50);
        let c = covered(&s);
        assert_eq!(c, vec![(0, 40), (40, 50)]);
        // the pieces left are ones the merged piece was made of
        assert!(s.ids().iter().all(|id| before.contains(id)));
        s.grow(55);
        // the new piece is not merged before a body shows it
        assert_eq!(covered(&s), vec![(0, 40), (40, 50), (50, 55)]);
        s.truncate(0);
        assert_eq!(s.pieces().count(), 0);
    }
}
