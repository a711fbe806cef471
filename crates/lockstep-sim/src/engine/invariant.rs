//! The safety properties a lock is supposed to give, checked after every event.
//!
//! Some are *meant* to break in some scenarios — showing that is the point — so a violation is
//! data recorded in the trace, never a panic. Two kinds exist: state invariants are judged on the
//! state right now and can hold again later (two clients believe they hold the lock, then one
//! releases); history invariants are judged on what has happened and, once broken, stay broken
//! (a stale write that was accepted cannot be taken back).

use crate::vocabulary::happening::Happening;
use crate::vocabulary::invariant::{Invariant, InvariantSet};
use crate::world::ids::NodeId;
use crate::world::token::FencingToken;
use std::collections::BTreeMap;

/// What the checker needs to know about the state after an event.
#[derive(Clone, Copy, Debug, Default)]
pub struct StateView {
    pub believers: u32,
    /// How many holders have a live lease. The engine counts only where two could (see
    /// `Sim::leases_can_clash`) and gives 0 elsewhere, since only a count above 1 matters.
    pub live_leases: u32,
}

/// A grant a client was told of: the service sent it a message saying it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ToldGrant {
    pub client: NodeId,
    pub token: FencingToken,
}

/// Tracks what history invariants need to remember, and judges each event.
#[derive(Clone, Debug, Default)]
pub struct InvariantChecker {
    /// The highest token a client was told of, and the client.
    highest_told: Option<ToldGrant>,
    /// The highest token each client was told it holds the lock with: a write is stale when
    /// another client was told a higher one before it was accepted.
    told_to: BTreeMap<NodeId, FencingToken>,
    writer_of_token: BTreeMap<FencingToken, NodeId>,
    broken_history: InvariantSet,
    violated: InvariantSet,
}

/// The verdict after one event.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// Everything violated right now (state invariants) or ever (history invariants).
    pub violated: InvariantSet,
    /// What this very event broke.
    pub broke: InvariantSet,
}

impl InvariantChecker {
    /// Judges one event: what happened, every grant the event told a client of (read from the
    /// messages it sent, so no kind of event can tell a client of a token unchecked), and the
    /// state after it.
    pub fn judge(
        &mut self,
        happening: &Happening,
        told: impl IntoIterator<Item = ToldGrant>,
        state: StateView,
    ) -> Verdict {
        for grant in told {
            self.tell(grant);
        }
        self.observe(happening);
        let mut now_violated = self.broken_history;
        if state.believers > 1 {
            now_violated = now_violated.with(Invariant::OneBeliever);
        }
        if state.live_leases > 1 {
            now_violated = now_violated.with(Invariant::OneLease);
        }
        let broke = now_violated.minus(self.violated);
        self.violated = now_violated;
        Verdict {
            violated: now_violated,
            broke,
        }
    }

    /// A token must be above every token told before, unless it is the highest one told again to
    /// the same client (a holder that asked again is told its own token).
    fn tell(&mut self, grant: ToldGrant) {
        let told = self.told_to.entry(grant.client).or_insert(grant.token);
        *told = (*told).max(grant.token);
        match self.highest_told {
            Some(highest) if grant == highest => {}
            Some(highest) if grant.token <= highest.token => {
                self.break_history(Invariant::TokensIncrease)
            }
            _ => self.highest_told = Some(grant),
        }
    }

    fn observe(&mut self, happening: &Happening) {
        match *happening {
            Happening::WriteAccepted {
                writer,
                token,
                overwrote_unseen,
                ..
            } => {
                if let Some(token) = token {
                    self.accept_token(writer, token);
                }
                if overwrote_unseen.is_some() {
                    self.break_history(Invariant::NoLostUpdate);
                }
            }
            Happening::StockTaken {
                buyer,
                token: Some(token),
                ..
            } => self.accept_token(buyer, token),
            Happening::ChargeApplied { times, .. } if times > 1 => {
                self.break_history(Invariant::NoDoubleCharge)
            }
            _ => {}
        }
    }

    /// A write with `token` was accepted: it is stale if the lock service had already told
    /// another client it holds the lock with a higher token, and a second writer if someone else
    /// already wrote with the same token.
    ///
    /// Staleness is judged from the grants on purpose, never with the resource's own rule
    /// (`resource::fencing_check`): judged that way, a fenced resource could not break it, and a
    /// run that shows fencing "working" would prove nothing. The writer's own later grants do
    /// not count: a holder told a new token may still finish a write with its old one.
    fn accept_token(&mut self, writer: NodeId, token: FencingToken) {
        let superseded = self
            .told_to
            .iter()
            .any(|(&client, &told)| client != writer && told > token);
        if superseded {
            self.break_history(Invariant::NoStaleWrite);
        }
        if *self.writer_of_token.entry(token).or_insert(writer) != writer {
            self.break_history(Invariant::OneWriterPerToken);
        }
    }

    fn break_history(&mut self, invariant: Invariant) {
        self.broken_history = self.broken_history.with(invariant);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const QUIET: Happening = Happening::Silent;

    fn told(client: u16, token: u64) -> [ToldGrant; 1] {
        [ToldGrant {
            client: NodeId(client),
            token: FencingToken(token),
        }]
    }

    fn accepted(writer: u16, token: u64) -> Happening {
        Happening::WriteAccepted {
            writer: NodeId(writer),
            token: Some(FencingToken(token)),
            value: 1,
            version: 1,
            overwrote_unseen: None,
        }
    }

    #[test]
    fn state_invariants_break_and_heal() {
        let mut checker = InvariantChecker::default();
        let idle = Happening::NoEffect {
            why: crate::vocabulary::happening::NoEffect::NotPaused,
        };
        let two = StateView {
            believers: 2,
            live_leases: 1,
        };
        let verdict = checker.judge(&idle, [], two);
        assert_eq!(
            verdict.broke,
            InvariantSet::EMPTY.with(Invariant::OneBeliever)
        );
        let verdict = checker.judge(&idle, [], two);
        assert!(verdict.broke.is_empty(), "reported once, when it breaks");
        assert!(verdict.violated.contains(Invariant::OneBeliever));
        let verdict = checker.judge(&idle, [], StateView::default());
        assert!(verdict.violated.is_empty());
    }

    #[test]
    fn a_token_that_does_not_increase_is_caught_and_latches() {
        let mut checker = InvariantChecker::default();
        checker.judge(&QUIET, told(2, 5), StateView::default());
        let verdict = checker.judge(&QUIET, told(3, 4), StateView::default());
        assert!(verdict.broke.contains(Invariant::TokensIncrease));
        let verdict = checker.judge(&QUIET, told(2, 9), StateView::default());
        assert!(verdict.violated.contains(Invariant::TokensIncrease));
    }

    /// What S18 showed before etcd's per-waiter keys were modelled: client-2 (node 5) was told
    /// token 1, then the etcd 3.4.x bug told client-1 (node 4) token 1 as well — in an event
    /// that was not a `Granted`. The checker reads the grant from the message, so it is caught.
    #[test]
    fn the_old_s18_reuse_of_a_token_is_caught_whatever_the_event() {
        let mut checker = InvariantChecker::default();
        checker.judge(&QUIET, told(5, 1), StateView::default());
        let bug = Happening::GrantedWithoutLease {
            node: NodeId(0),
            client: NodeId(4),
            token: FencingToken(1),
        };
        let verdict = checker.judge(&bug, told(4, 1), StateView::default());
        assert!(verdict.broke.contains(Invariant::TokensIncrease));
    }

    #[test]
    fn a_holder_told_its_own_token_again_is_not_a_reuse() {
        let mut checker = InvariantChecker::default();
        checker.judge(&QUIET, told(4, 3), StateView::default());
        let verdict = checker.judge(&QUIET, told(4, 3), StateView::default());
        assert!(verdict.violated.is_empty());
        let verdict = checker.judge(&QUIET, told(5, 3), StateView::default());
        assert!(
            verdict.broke.contains(Invariant::TokensIncrease),
            "another client"
        );
    }

    /// S3, the fencing gap: client 2 is told 34, then client 1's write with 33 is accepted
    /// before client 2 wrote anything. A fenced resource accepts it (it never saw 34); the
    /// checker, which judges from the grants, calls it stale.
    #[test]
    fn a_write_below_another_clients_grant_is_stale_before_that_client_writes() {
        let mut checker = InvariantChecker::default();
        checker.judge(&QUIET, told(1, 33), StateView::default());
        let verdict = checker.judge(&accepted(1, 33), [], StateView::default());
        assert!(verdict.violated.is_empty(), "the holder's own write");
        checker.judge(&QUIET, told(2, 34), StateView::default());
        let verdict = checker.judge(&accepted(1, 33), [], StateView::default());
        assert!(verdict.broke.contains(Invariant::NoStaleWrite));
    }

    /// What the old rule could not see: with nothing told, writes in any order are not stale
    /// (no grant superseded them), so only the lock service's grants make a write stale — not
    /// the order the resource happened to accept them in.
    #[test]
    fn only_grants_make_a_write_stale() {
        let mut checker = InvariantChecker::default();
        checker.judge(&accepted(3, 34), [], StateView::default());
        let verdict = checker.judge(&accepted(2, 33), [], StateView::default());
        assert!(!verdict.violated.contains(Invariant::NoStaleWrite));
    }

    #[test]
    fn the_writers_own_later_grant_does_not_make_its_write_stale() {
        let mut checker = InvariantChecker::default();
        checker.judge(&QUIET, told(1, 33), StateView::default());
        checker.judge(&QUIET, told(1, 35), StateView::default());
        let verdict = checker.judge(&accepted(1, 33), [], StateView::default());
        assert!(verdict.violated.is_empty());
        checker.judge(&QUIET, told(2, 36), StateView::default());
        let verdict = checker.judge(&accepted(1, 35), [], StateView::default());
        assert!(
            verdict.broke.contains(Invariant::NoStaleWrite),
            "36 went to another client"
        );
    }

    /// The check must not be the fencing rule in disguise: a write with 33 that a fenced
    /// resource accepts (34 was granted, not yet written) breaks it, and a stock decrement is
    /// judged as a write.
    #[test]
    fn a_write_the_fencing_rule_accepts_can_still_be_stale() {
        use crate::models::resource::{Fencing, fencing_check};
        let mut checker = InvariantChecker::default();
        checker.judge(&QUIET, told(1, 33), StateView::default());
        checker.judge(&QUIET, told(2, 34), StateView::default());
        let highest_accepted = Some(FencingToken(33));
        assert!(fencing_check(Fencing::On, Some(FencingToken(33)), highest_accepted).is_ok());
        let take = Happening::StockTaken {
            buyer: NodeId(1),
            token: Some(FencingToken(33)),
            amount: 1,
            left: 0,
        };
        let verdict = checker.judge(&take, [], StateView::default());
        assert!(verdict.broke.contains(Invariant::NoStaleWrite));
    }

    #[test]
    fn two_writers_with_one_token_are_caught() {
        let mut checker = InvariantChecker::default();
        checker.judge(&accepted(2, 7), [], StateView::default());
        let verdict = checker.judge(&accepted(3, 7), [], StateView::default());
        assert!(verdict.broke.contains(Invariant::OneWriterPerToken));
    }

    #[test]
    fn invariant_sets_serialise_as_names() {
        let set = InvariantSet::EMPTY
            .with(Invariant::NoStaleWrite)
            .with(Invariant::OneBeliever);
        let json = serde_json::to_string(&set).unwrap();
        assert_eq!(json, r#"["one_believer","no_stale_write"]"#);
        assert_eq!(serde_json::from_str::<InvariantSet>(&json).unwrap(), set);
    }
}
