//! The kinds of fault a chaos run injects, and how often each strikes. It names faults; the
//! generator (`generate`) decides where they land.

use crate::world::time::Millis;
use serde::{Deserialize, Serialize};
use std::fmt;
use strum::VariantArray;

/// One kind of fault.
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
#[serde(rename_all = "kebab-case")]
pub enum FaultKind {
    /// A client stops (a stop-the-world GC pause) for 100 ms to 3 × TTL.
    Pauses,
    /// A client is cut off from the resource or from a lock-service node, then healed.
    Partitions,
    /// A node's clock steps forwards or backwards.
    ClockJumps,
    /// A lock-service node crashes and restarts later; a replicated cache's primary that stays
    /// down is replaced by its replica (failover), a consensus service's leader by a newly
    /// elected one. The SQL row's database comes back with its row. It stands for the
    /// article's `serviceFailover`.
    Crashes,
}

impl FaultKind {
    /// Every variant, in declaration order: strum's `VARIANTS` as an array, its length checked at
    /// compile time, so a new variant cannot be left out.
    ///
    /// A generator draws for each kind in this order from the seeded PRNG (decision 17), so a
    /// new kind is declared last: otherwise every fixed seed's run changes.
    pub const ALL: [FaultKind; 4] = *FaultKind::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// The short id used in links and on the command line.
    pub fn id(self) -> &'static str {
        match self {
            FaultKind::Pauses => "pauses",
            FaultKind::Partitions => "partitions",
            FaultKind::ClockJumps => "clock-jumps",
            FaultKind::Crashes => "crashes",
        }
    }

    pub fn from_id(id: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.id() == id)
    }

    /// The kind as a reader would name it.
    pub fn label(self) -> &'static str {
        match self {
            FaultKind::Pauses => "Pauses",
            FaultKind::Partitions => "Partitions",
            FaultKind::ClockJumps => "Clock jumps",
            FaultKind::Crashes => "Lock-service crashes",
        }
    }

    /// The mean gap between two strikes: the gap is drawn uniformly in `1..=2 × mean`.
    pub fn mean_gap(self) -> Millis {
        match self {
            FaultKind::Pauses => Millis(1_500),
            FaultKind::Partitions => Millis(3_000),
            FaultKind::ClockJumps => Millis(4_000),
            FaultKind::Crashes => Millis(6_000),
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }
}

/// Which fault kinds strike in a run. Its text form lists the ids in [`FaultKind::ALL`]'s order,
/// joined by commas (`pauses,partitions`), or `none`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FaultSet(u8);

impl FaultSet {
    pub const NONE: FaultSet = FaultSet(0);
    pub const ALL: FaultSet = FaultSet(0b1111);

    pub fn of(kinds: &[FaultKind]) -> FaultSet {
        kinds.iter().fold(FaultSet::NONE, |set, &k| set.with(k))
    }

    pub fn with(self, kind: FaultKind) -> FaultSet {
        FaultSet(self.0 | kind.bit())
    }

    pub fn contains(self, kind: FaultKind) -> bool {
        self.0 & kind.bit() != 0
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn iter(self) -> impl Iterator<Item = FaultKind> {
        FaultKind::ALL
            .into_iter()
            .filter(move |&k| self.contains(k))
    }

    /// Reads the text form. Each id may appear once; `none` stands alone.
    pub fn parse(text: &str) -> Result<FaultSet, FaultSetError> {
        if text == "none" {
            return Ok(FaultSet::NONE);
        }
        text.split(',').try_fold(FaultSet::NONE, |set, id| {
            let kind =
                FaultKind::from_id(id).ok_or_else(|| FaultSetError::Unknown(id.to_owned()))?;
            if set.contains(kind) {
                Err(FaultSetError::Repeated(kind))
            } else {
                Ok(set.with(kind))
            }
        })
    }
}

impl fmt::Display for FaultSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let ids: Vec<&str> = self.iter().map(FaultKind::id).collect();
        f.write_str(&ids.join(","))
    }
}

/// Why a fault list could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultSetError {
    Unknown(String),
    Repeated(FaultKind),
}

impl fmt::Display for FaultSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FaultSetError::Unknown(id) => write!(
                f,
                "\"{id}\" is not a fault; use none or a comma-separated list of pauses, \
                 partitions, clock-jumps, crashes"
            ),
            FaultSetError::Repeated(kind) => write!(f, "{} is listed twice", kind.id()),
        }
    }
}

impl Serialize for FaultSet {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

impl<'de> Deserialize<'de> for FaultSet {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let list = Vec::<FaultKind>::deserialize(deserializer)?;
        Ok(FaultSet::of(&list))
    }
}
