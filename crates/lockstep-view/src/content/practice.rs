//! The interview deck's practice round: one card at a time, "Got it" takes it out of the
//! round, "Again" puts it back a few cards later, "Shuffle" deals the cards anew. Pure: the app
//! keeps a [`Round`] in its state and renders what it says; the shuffle's seed comes from the
//! app, so a test can deal the same order twice.

use std::collections::VecDeque;

/// How many cards come before a card put back with "Again" (fewer if fewer are left).
pub const AGAIN_AFTER: usize = 3;

/// A practice round over `total` cards, by index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Round {
    /// The cards still to go, the current one first.
    queue: VecDeque<usize>,
    /// How many cards were answered "Got it".
    known: usize,
    total: usize,
}

/// The user's verdict on the current card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    GotIt,
    Again,
}

impl Round {
    /// The cards in their file order.
    pub fn in_order(total: usize) -> Round {
        Round {
            queue: (0..total).collect(),
            known: 0,
            total,
        }
    }

    /// The cards dealt in an order drawn from `seed` (a Fisher–Yates shuffle on a small
    /// xorshift generator: the order need not be unguessable, only different each time).
    pub fn shuffled(total: usize, seed: u64) -> Round {
        let mut order: Vec<usize> = (0..total).collect();
        let mut state = seed | 1;
        for i in (1..order.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let j = usize::try_from(state % (i as u64 + 1)).unwrap_or(0);
            order.swap(i, j);
        }
        Round {
            queue: order.into(),
            known: 0,
            total,
        }
    }

    /// The card shown now, or `None` once every card is known.
    pub fn current(&self) -> Option<usize> {
        self.queue.front().copied()
    }

    /// The current card's place, counted from 1 ("3 of 16"): one more than the cards known.
    pub fn place(&self) -> usize {
        (self.known + 1).min(self.total)
    }

    pub fn total(&self) -> usize {
        self.total
    }

    pub fn known(&self) -> usize {
        self.known
    }

    /// The round after the user's verdict on the current card.
    pub fn answer(&self, verdict: Verdict) -> Round {
        let mut next = self.clone();
        let Some(card) = next.queue.pop_front() else {
            return next;
        };
        match verdict {
            Verdict::GotIt => next.known += 1,
            Verdict::Again => {
                let at = AGAIN_AFTER.min(next.queue.len());
                next.queue.insert(at, card);
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn got_it_moves_on_and_counts() {
        let round = Round::in_order(16);
        assert_eq!(
            (round.current(), round.place(), round.total()),
            (Some(0), 1, 16)
        );
        let round = round.answer(Verdict::GotIt).answer(Verdict::GotIt);
        assert_eq!((round.current(), round.place()), (Some(2), 3));
    }

    #[test]
    fn again_puts_the_card_back_later_in_the_round() {
        let round = Round::in_order(5).answer(Verdict::Again);
        assert_eq!(round.current(), Some(1));
        assert_eq!(round.place(), 1, "nothing known yet");
        let mut seen = Vec::new();
        let mut round = round;
        while let Some(card) = round.current() {
            seen.push(card);
            round = round.answer(Verdict::GotIt);
        }
        assert_eq!(seen, [1, 2, 3, 0, 4]);
        assert_eq!(round.known(), 5);
        // The last card put back comes straight back: nothing else is left.
        let last = Round::in_order(1).answer(Verdict::Again);
        assert_eq!(last.current(), Some(0));
    }

    #[test]
    fn a_shuffle_deals_every_card_once_in_another_order() {
        let round = Round::shuffled(16, 7);
        let mut order = Vec::new();
        let mut r = round.clone();
        while let Some(card) = r.current() {
            order.push(card);
            r = r.answer(Verdict::GotIt);
        }
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..16).collect::<Vec<_>>());
        assert_ne!(order, (0..16).collect::<Vec<_>>());
        assert_eq!(
            Round::shuffled(16, 7),
            round,
            "the same seed deals the same order"
        );
        assert_ne!(Round::shuffled(16, 8), round);
    }
}
