//! Raft's log (§5.3): appending, a follower's check that an entry follows its log, the
//! election's "at least as up to date" rule and the leader's commit rule (§5.4.2). What the
//! entries mean to the lock is applied in `commit.rs`, not here.

use super::Replica;
use super::raft_state::Acceptance;
use crate::vocabulary::raft::{Entry, Op};

impl Replica {
    pub fn majority(&self) -> u8 {
        self.config.replicas / 2 + 1
    }

    pub fn last_index(&self) -> u32 {
        u32::try_from(self.log.len()).unwrap_or(u32::MAX)
    }

    pub fn term_at(&self, index: u32) -> u32 {
        index
            .checked_sub(1)
            .and_then(|i| self.log.get(i as usize))
            .map_or(0, |e| e.term)
    }

    pub fn append(&mut self, op: Op) -> u32 {
        self.log.push(Entry {
            term: self.term,
            op,
        });
        let index = self.last_index();
        self.matched[usize::from(self.me)] = index;
        index
    }

    /// A follower takes the entry at `index`, if its log agrees with the leader's up to there.
    pub fn accept(&mut self, index: u32, prev_term: u32, entry: Entry) -> Acceptance {
        if index == 0 || index > self.last_index() + 1 || self.term_at(index - 1) != prev_term {
            return Acceptance::Refused;
        }
        if self.log.get(index as usize - 1) == Some(&entry) {
            return Acceptance::AlreadyHad;
        }
        self.log.truncate(index as usize - 1);
        self.log.push(entry);
        Acceptance::Stored
    }

    /// Whether a candidate's log is at least as up to date as ours (Raft's election rule).
    pub fn candidate_is_current(&self, last_index: u32, last_term: u32) -> bool {
        let mine = self.term_at(self.last_index());
        last_term > mine || (last_term == mine && last_index >= self.last_index())
    }

    /// The leader's commit rule: the highest index of its own term that a majority has.
    pub fn majority_index(&self) -> u32 {
        let mut matched = self.matched.clone();
        matched.sort_unstable_by(|a, b| b.cmp(a));
        let candidate = matched
            .get(usize::from(self.majority()) - 1)
            .copied()
            .unwrap_or(0);
        if self.term_at(candidate) == self.term {
            candidate
        } else {
            self.commit
        }
    }
}
