//! The changes a check tries: each one a change to the user's setup, in their words, applied
//! only where it means something (fencing where the service issues tokens, compare-and-delete
//! where the release is a plain `DEL`, …). Each is measured by re-running the same seeds with
//! the same faults (`generate::Frame`); none is recommended unless its runs show it. It must
//! not run anything itself.

use super::parse::MAX_SETUP_MS;
use super::setup::{LockSetup, Release, RenewalSetup, Service, TokenUse, WriteKind};
use crate::world::time::Millis;
use serde::{Deserialize, Serialize};

/// One change a check can try.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::VariantArray)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    AddFencing,
    VersionCheck,
    IdempotencyKey,
    RaiseTtl,
    DropRenewalCap,
    CompareAndDelete,
    ConsensusService,
}

impl Change {
    /// Every change, in the order a report lists them.
    pub const ALL: [Change; 7] = *<Change as strum::VariantArray>::VARIANTS
        .as_array()
        .expect("ALL's length is the number of variants");

    /// The setup with this change, or `None` where it does not apply (or is what the setup
    /// already does).
    pub fn apply(self, setup: &LockSetup) -> Option<LockSetup> {
        let mut changed = setup.clone();
        match self {
            Change::AddFencing => {
                if setup.resource != TokenUse::Nothing {
                    return None;
                }
                changed.resource = TokenUse::Fencing;
            }
            Change::VersionCheck => {
                if setup.write != WriteKind::ReadModifyWrite
                    || setup.resource == TokenUse::VersionCheck
                {
                    return None;
                }
                changed.resource = TokenUse::VersionCheck;
            }
            Change::IdempotencyKey => {
                if setup.write != WriteKind::Payment || setup.resource != TokenUse::Nothing {
                    return None;
                }
                changed.resource = TokenUse::IdempotencyKey;
            }
            Change::RaiseTtl => {
                let ttl = raised_ttl(setup)?;
                changed.ttl_ms = ttl;
            }
            Change::DropRenewalCap => {
                let RenewalSetup::Watchdog {
                    max_renewals: Some(_),
                } = setup.renewal
                else {
                    return None;
                };
                changed.renewal = RenewalSetup::Watchdog { max_renewals: None };
            }
            Change::CompareAndDelete => {
                if setup.release != Release::Delete {
                    return None;
                }
                changed.release = Release::CompareAndDelete;
            }
            Change::ConsensusService => {
                if matches!(
                    setup.service,
                    Service::Etcd | Service::Zookeeper | Service::Consul { .. } | Service::NoLock
                ) {
                    return None;
                }
                changed.service = Service::Etcd;
            }
        }
        changed.validate().is_ok().then_some(changed)
    }

    /// The change in words, as a table row names it.
    pub fn label(self, setup: &LockSetup) -> String {
        match self {
            Change::AddFencing => "Add fencing: the resource refuses a token below the highest \
                                   it has seen"
                .to_owned(),
            Change::VersionCheck => {
                "Make the write conditional on the version read (WHERE version = :read)".to_owned()
            }
            Change::IdempotencyKey => "Send an idempotency key with each payment".to_owned(),
            Change::RaiseTtl => match raised_ttl(setup) {
                Some(ttl) => format!(
                    "Raise the TTL from {} ms to {} ms (longer than the longest pause plus the \
                     worst work)",
                    setup.ttl_ms.0, ttl.0
                ),
                None => "Raise the TTL".to_owned(),
            },
            Change::DropRenewalCap => "Drop the renewal cap: the watchdog renews as long as the \
                                       work runs"
                .to_owned(),
            Change::CompareAndDelete => {
                "Release with compare-and-delete instead of a plain DEL".to_owned()
            }
            Change::ConsensusService => {
                "Use a consensus service (etcd) for the lock, with the same resource".to_owned()
            }
        }
    }
}

/// The TTL that outlasts the longest pause plus the worst work, rounded up to a second, if that
/// is more than the setup's and within the format's range.
fn raised_ttl(setup: &LockSetup) -> Option<Millis> {
    let needed = (setup.longest_pause_ms.0 + setup.work_ms.worst.0 + 1_000).div_ceil(1_000) * 1_000;
    (needed > setup.ttl_ms.0 && needed <= MAX_SETUP_MS).then_some(Millis(needed))
}
