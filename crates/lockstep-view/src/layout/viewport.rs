//! The stretch of virtual time the timeline shows, and how it moves: the whole run, the opening
//! view on where things happen, zoom and pan kept inside the run, and "follow now", which at
//! the start of a run zooms in on what has happened so far rather than crowding it at the left
//! edge.
//!
//! Pure arithmetic on milliseconds and pixels: it knows a [`Layout`] only for where its
//! activity lies, and never what is drawn.

use super::Layout;

/// How much wider than the stretch where things happen the opening view is, at each side.
const ACTIVITY_MARGIN: f64 = 0.08;
/// How many events a run may have before it opens zoomed in on its start rather than whole.
const OVERVIEW_EVENTS: usize = 400;
/// The least room beyond each end of the run, in px: more than half a mark's glyph, so that a
/// write at the very end (a recording ends on its last event) is drawn whole.
const EDGE_PX: f64 = 10.0;
/// The narrowest span "follow now" zooms in to at the start of a run, in virtual ms: the first
/// messages of a run are a few ms apart.
const NEAR_SPAN: f64 = 40.0;
/// Where "now" stands at most, as a fraction of the width, in a view zoomed on what has
/// happened so far; and how much room is left before the first activity.
const NOW_AT: f64 = 0.9;
const LEAD: f64 = 0.05;

/// The stretch of virtual time on screen, and how wide the screen is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    /// Virtual ms at the left edge.
    pub start: f64,
    /// Virtual ms across the whole width; always positive.
    pub span: f64,
    /// Pixels across.
    pub width: f64,
}

impl Viewport {
    /// The whole run, from 0 to `end`, with a margin at each edge so that nothing that
    /// happens at t = 0 or at the end sits on the border.
    pub fn whole(end: u64, width: f64) -> Viewport {
        let margin = edge(end, width);
        Viewport {
            start: -margin,
            span: (end as f64).max(1.0) + 2.0 * margin,
            width: width.max(1.0),
        }
    }

    pub fn x(&self, time: u64) -> f64 {
        (time as f64 - self.start) * self.width / self.span
    }

    /// The time under pixel `x`.
    pub fn time_at(&self, x: f64) -> f64 {
        self.start + x * self.span / self.width
    }

    /// Zoomed by `factor` (> 1 zooms in) keeping the time under `x` where it is. The span stays
    /// between 10 ms and `end`, and the view inside `0..end`.
    pub fn zoomed(self, factor: f64, x: f64, end: u64) -> Viewport {
        let anchor = self.time_at(x);
        let span =
            (self.span / factor).clamp(10.0, (end as f64).max(10.0) + 2.0 * edge(end, self.width));
        Viewport {
            start: anchor - x * span / self.width,
            span,
            ..self
        }
        .clamped(end)
    }

    /// How a run opens: on the stretch where things happen (messages, writes, interventions,
    /// violations, leases and beliefs changing), with a margin, not on the run's nominal end.
    /// A long run opens on the start of that stretch: about `OVERVIEW_EVENTS` events (at least
    /// a second, and at least up to its first violation or rejection), for "follow now" to move.
    pub fn opening(layout: &Layout, width: f64) -> Viewport {
        let whole = Viewport::whole(layout.end, width);
        let Some((first, last)) = layout.activity() else {
            return whole;
        };
        let (first, last) = (first as f64, last as f64);
        let mut stretch = last - first;
        if layout.events > OVERVIEW_EVENTS {
            let decisive = layout.decisive().map_or(first, |m| m.time as f64);
            stretch = (layout.end as f64 * OVERVIEW_EVENTS as f64 / layout.events as f64)
                .max(1000.0)
                .max(decisive - first)
                .min(stretch);
        }
        let margin = (stretch * ACTIVITY_MARGIN).max(10.0);
        let span = (stretch + 2.0 * margin).min(whole.span);
        Viewport {
            start: whole.start_within(first - margin, span),
            span,
            width: whole.width,
        }
    }

    /// `wanted` moved as little as it takes for `span` ms from it to lie inside this view. A
    /// span as wide as the view starts where the view does: `start + span - span` can come out
    /// below `start` in floating point, and a clamp whose bounds cross panics (in the page, a
    /// panic kills it).
    fn start_within(&self, wanted: f64, span: f64) -> f64 {
        let latest = (self.start + self.span - span).max(self.start);
        wanted.clamp(self.start, latest)
    }

    /// Moved by `by` virtual ms (negative: to the left), kept inside `0..end`.
    pub fn panned(self, by: f64, end: u64) -> Viewport {
        Viewport {
            start: self.start + by,
            ..self
        }
        .clamped(end)
    }

    /// The smallest move that brings `time` into view, with a margin on the right, so the
    /// present stays on screen while playing.
    pub fn following(self, time: u64, end: u64) -> Viewport {
        let t = time as f64;
        let right = self.start + self.span * 0.9;
        if t > right {
            self.panned(t - right, end)
        } else if t < self.start {
            self.panned(t - self.start - self.span * 0.1, end)
        } else {
            self
        }
    }

    /// "Follow now" on this view, zoomed in at the start of a run on what has happened since
    /// `first` (the first activity): the first tens of milliseconds are spread over the width
    /// rather than crowded at its left edge. The span doubles from [`NEAR_SPAN`] as the run goes
    /// on (by steps the eye can follow, and seldom: each redraws every shape), with now at most
    /// [`NOW_AT`] of the way across; once it would reach this view's span, this view is
    /// followed as it is.
    pub fn near_now(self, first: u64, now: u64, end: u64) -> Viewport {
        let first = first.min(now) as f64;
        let needed = (now as f64 - first) / (NOW_AT - LEAD);
        let doublings = (needed / NEAR_SPAN).log2().ceil().max(0.0);
        let span = NEAR_SPAN * 2f64.powf(doublings);
        if span >= self.span {
            return self.following(now, end);
        }
        Viewport {
            start: first - LEAD * span,
            span,
            ..self
        }
        .clamped(end)
    }

    fn clamped(self, end: u64) -> Viewport {
        let margin = edge(end, self.width);
        let last = (end as f64 + margin - self.span).max(-margin);
        Viewport {
            start: self.start.clamp(-margin, last),
            ..self
        }
    }
}

/// The margin shown beyond each end of the run on a plot `width` px across: 2 % of the run, and
/// at least [`EDGE_PX`].
fn edge(end: u64, width: f64) -> f64 {
    let end = end as f64;
    (end * 0.02).max(EDGE_PX * end / (width - 2.0 * EDGE_PX).max(1.0))
}

#[cfg(test)]
mod tests {
    use super::Viewport;

    /// A run whose activity fills it opens on the whole run, whatever its end: for some ends
    /// (3,940 ms: a recorded S18) the whole view's start plus its span minus its span comes out
    /// below its start, and the clamp that placed the opening panicked.
    #[test]
    fn a_span_as_wide_as_the_run_opens_on_the_whole_run_for_every_end() {
        let crossing = Viewport::whole(3_940, 800.0);
        assert!(
            crossing.start + crossing.span - crossing.span < crossing.start,
            "3,940 ms is an end whose bounds cross"
        );
        for end in 0..=100_000 {
            let whole = Viewport::whole(end, 800.0);
            for wanted in [-1e9, 0.0, 1e9] {
                let start = whole.start_within(wanted, whole.span);
                assert!((start - whole.start).abs() < 1e-6, "{end}: {start}");
            }
        }
    }
}
