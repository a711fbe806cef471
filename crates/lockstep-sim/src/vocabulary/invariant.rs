//! The names of the safety properties a lock is supposed to give, and a set of them: the words a
//! scenario's expectations, the trace and the narration use. Checking them is the engine's
//! (`engine::invariant`).

use serde::{Deserialize, Serialize};
use std::fmt;
use strum::VariantArray;

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::VariantArray,
)]
#[serde(rename_all = "snake_case")]
pub enum Invariant {
    /// At most one client believes it holds the lock.
    OneBeliever,
    /// At most one unexpired lease exists at the lock service.
    OneLease,
    /// Every token the service tells a client it holds the lock with is larger than all it told
    /// before (telling the same holder its own token again is not a new token).
    TokensIncrease,
    /// No write is accepted with a token lower than one the lock service had already told
    /// another client it holds the lock with. Judged from the grants, not from what the resource
    /// saw: a fenced resource that has not yet seen the new holder's token accepts the zombie's
    /// write (the fencing gap), and that write is stale all the same.
    NoStaleWrite,
    /// All accepted writes with the same token come from one client.
    OneWriterPerToken,
    /// No accepted read-modify-write overwrites an update its writer never read.
    NoLostUpdate,
    /// No payment request is charged twice.
    NoDoubleCharge,
}

impl Invariant {
    /// Every variant, in declaration order: strum's `VARIANTS` as an array, its length checked at
    /// compile time, so a new variant cannot be left out.
    ///
    /// Reports and tables list the invariants in this order.
    pub const ALL: [Invariant; 7] = *Invariant::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// The machine name used in scenario files and traces.
    pub fn id(self) -> &'static str {
        match self {
            Invariant::OneBeliever => "one_believer",
            Invariant::OneLease => "one_lease",
            Invariant::TokensIncrease => "tokens_increase",
            Invariant::NoStaleWrite => "no_stale_write",
            Invariant::OneWriterPerToken => "one_writer_per_token",
            Invariant::NoLostUpdate => "no_lost_update",
            Invariant::NoDoubleCharge => "no_double_charge",
        }
    }

    pub fn from_id(id: &str) -> Option<Invariant> {
        Invariant::ALL.into_iter().find(|i| i.id() == id)
    }

    /// The property as a reader would state it.
    pub fn statement(self) -> &'static str {
        match self {
            Invariant::OneBeliever => "At most one client believes it holds the lock",
            Invariant::OneLease => "At most one unexpired lease at the lock service",
            Invariant::TokensIncrease => "Issued fencing tokens strictly increase",
            Invariant::NoStaleWrite => "No write accepted with a stale token",
            Invariant::OneWriterPerToken => "At most one writer accepted per token",
            Invariant::NoLostUpdate => "No lost update",
            Invariant::NoDoubleCharge => "No request charged twice",
        }
    }

    /// Which of the two things a lock is asked to protect the invariant is about: what the lock
    /// and its clients believe (leases let these overlap: a paused holder still believes), or
    /// the data the resource accepted (what fencing protects).
    pub fn concern(self) -> Concern {
        match self {
            Invariant::OneBeliever | Invariant::OneLease | Invariant::TokensIncrease => {
                Concern::Lock
            }
            Invariant::NoStaleWrite
            | Invariant::OneWriterPerToken
            | Invariant::NoLostUpdate
            | Invariant::NoDoubleCharge => Concern::Data,
        }
    }

    /// History invariants, once broken, stay broken.
    pub fn is_history(self) -> bool {
        !matches!(self, Invariant::OneBeliever | Invariant::OneLease)
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// The two groups the page shows invariants in (`Invariant::concern`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, strum::VariantArray)]
pub enum Concern {
    /// Who holds the lock, as the clients and the service see it: one believer, one lease,
    /// tokens that increase. A lease-based lock cannot keep these under pauses and partitions.
    Lock,
    /// What the resource accepted: no stale write, one writer per token, no lost update, no
    /// double charge. Fencing (or another check at the resource) keeps these.
    Data,
}

impl Concern {
    /// Every variant, in declaration order: strum's `VARIANTS` as an array, its length checked at
    /// compile time, so a new variant cannot be left out.
    pub const ALL: [Concern; 2] = *Concern::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// The invariants of this group, in `Invariant::ALL`'s order.
    pub fn invariants(self) -> impl Iterator<Item = Invariant> {
        Invariant::ALL
            .into_iter()
            .filter(move |i| i.concern() == self)
    }
}

impl fmt::Display for Invariant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.statement())
    }
}

/// A set of invariants, as a bit set: copying it per event costs one byte.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct InvariantSet(u8);

impl InvariantSet {
    pub const EMPTY: InvariantSet = InvariantSet(0);

    pub fn with(self, invariant: Invariant) -> InvariantSet {
        InvariantSet(self.0 | invariant.bit())
    }

    pub fn contains(self, invariant: Invariant) -> bool {
        self.0 & invariant.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn union(self, other: InvariantSet) -> InvariantSet {
        InvariantSet(self.0 | other.0)
    }

    pub fn minus(self, other: InvariantSet) -> InvariantSet {
        InvariantSet(self.0 & !other.0)
    }

    pub fn iter(self) -> impl Iterator<Item = Invariant> {
        Invariant::ALL
            .into_iter()
            .filter(move |i| self.contains(*i))
    }
}

impl Serialize for InvariantSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for InvariantSet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = Vec::<Invariant>::deserialize(deserializer)?;
        Ok(list
            .into_iter()
            .fold(InvariantSet::EMPTY, InvariantSet::with))
    }
}

#[cfg(test)]
mod tests {
    use super::{Concern, Invariant};

    #[test]
    fn each_invariant_is_in_exactly_one_group_and_data_is_what_the_resource_accepted() {
        let lock: Vec<_> = Concern::Lock.invariants().collect();
        let data: Vec<_> = Concern::Data.invariants().collect();
        assert_eq!(lock.len() + data.len(), Invariant::ALL.len());
        assert!(lock.iter().all(|i| !data.contains(i)));
        assert_eq!(
            data,
            [
                Invariant::NoStaleWrite,
                Invariant::OneWriterPerToken,
                Invariant::NoLostUpdate,
                Invariant::NoDoubleCharge
            ]
        );
    }
}
