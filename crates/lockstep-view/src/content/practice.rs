//! The interview deck's practice round: one card at a time, "Got it" takes it out of the
//! round, "Again" puts it back a few cards later and remembers it as weak, "Shuffle" deals the
//! cards anew, and a finished round can deal its weak cards alone. Pure: the app keeps a
//! [`Round`] in its state (and its JSON in the browser's storage) and renders what it says; the
//! shuffle's seed comes from the app, so a test can deal the same order twice. It must not read
//! storage itself, nor trust what storage gives back: [`Round::fits`] checks a kept round.

use serde::{Deserialize, Serialize};
use std::collections::{BTreeSet, VecDeque};

/// How many cards come before a card put back with "Again" (fewer if fewer are left).
pub const AGAIN_AFTER: usize = 3;

/// A practice round over `total` cards, by their index in the deck.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Round {
    /// The cards still to go, the current one first.
    queue: VecDeque<usize>,
    /// How many cards were answered "Got it".
    known: usize,
    /// How many cards the round deals.
    total: usize,
    /// The cards marked "Again" at least once in this round: the weak ones.
    again: BTreeSet<usize>,
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
        Round::of((0..total).collect())
    }

    /// The round over `cards`, in that order.
    fn of(queue: VecDeque<usize>) -> Round {
        Round {
            total: queue.len(),
            queue,
            known: 0,
            again: BTreeSet::new(),
        }
    }

    /// A round over this round's weak cards alone, in deck order.
    pub fn weak_cards(&self) -> Round {
        Round::of(self.again.iter().copied().collect())
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
        Round::of(order.into())
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

    /// How many cards were marked "Again" in this round.
    pub fn weak(&self) -> usize {
        self.again.len()
    }

    /// Whether this round, as storage kept it, can be dealt from a deck of `cards` cards: every
    /// index in the deck, no card twice in the queue, and no more cards known than dealt. A deck
    /// that changed since (a card added or removed) may fail it; the app then starts afresh.
    pub fn fits(&self, cards: usize) -> bool {
        let queued: BTreeSet<usize> = self.queue.iter().copied().collect();
        queued.len() == self.queue.len()
            && queued.iter().chain(&self.again).all(|&card| card < cards)
            && self.total <= cards
            && self.known + self.queue.len() == self.total
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
                next.again.insert(card);
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

    #[test]
    fn the_weak_cards_are_counted_and_dealt_again_alone() {
        let mut round = Round::in_order(6)
            .answer(Verdict::GotIt)
            .answer(Verdict::Again)
            .answer(Verdict::Again);
        // Card 1 marked Again once more when it comes back: still one weak card.
        let mut once_more = true;
        while let Some(card) = round.current() {
            let verdict = if card == 1 && once_more {
                once_more = false;
                Verdict::Again
            } else {
                Verdict::GotIt
            };
            round = round.answer(verdict);
        }
        assert_eq!((round.current(), round.weak(), round.known()), (None, 2, 6));
        let weak = round.weak_cards();
        assert_eq!((weak.current(), weak.total(), weak.weak()), (Some(1), 2, 0));
        assert_eq!(weak.answer(Verdict::GotIt).current(), Some(2));
    }

    #[test]
    fn a_kept_round_comes_back_as_it_was_and_a_bad_one_is_refused() {
        let round = Round::shuffled(16, 3)
            .answer(Verdict::Again)
            .answer(Verdict::GotIt);
        let text = serde_json::to_string(&round).unwrap();
        let kept: Round = serde_json::from_str(&text).unwrap();
        assert_eq!(kept, round);
        assert!(kept.fits(16));
        assert!(!kept.fits(15), "a deck with fewer cards");
        let doubled = r#"{"queue":[1,1],"known":0,"total":2,"again":[]}"#;
        assert!(!serde_json::from_str::<Round>(doubled).unwrap().fits(16));
        let miscounted = r#"{"queue":[1],"known":3,"total":2,"again":[]}"#;
        assert!(!serde_json::from_str::<Round>(miscounted).unwrap().fits(16));
    }
}
