//! A scenario that shows a mechanism at work must show it making a difference. Each catalogue
//! scenario either names the mechanism it demonstrates (lock-delay, the elapsed-time check,
//! fencing, …) with the option that switches it off, or is listed among those that show a failure
//! or a design with nothing to switch. The first kind is run again with its mechanism off, and the
//! outcome — what the resource did, how each client's job ended, which invariants broke, the final
//! value — must change. S13 once let client-a's stray write drain before client-b even asked, so a
//! lock-delay of 2000 ms and one of 0 gave the same run: the lesson credited a mechanism that did
//! nothing there.

use crate::support::{built_in, run};
use lockstep_sim::models::client::LeaseCheck;
use lockstep_sim::models::client::{
    Access, ElapsedCheck, LocalDeadline, Renewal, RetryPolicy, SafetyClock,
};
use lockstep_sim::models::lock_service::{KnownBug, Waiting};
use lockstep_sim::models::resource::{Fencing, Idempotency};
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::scenario::types::ResourceSpec;
use lockstep_sim::vocabulary::happening::{Happening, ResultKind};
use lockstep_sim::vocabulary::invariant::InvariantSet;
use lockstep_sim::vocabulary::message::ReleaseMethod;
use lockstep_sim::world::ids::NodeId;
use lockstep_sim::world::time::Millis;
use lockstep_sim::{Scenario, scenario::catalogue};

/// What a scenario demonstrates, named by the option that turns it off.
#[derive(Clone, Copy, Debug)]
enum Mechanism {
    /// The resource checks tokens (fencing `on`, or antirez's `check_and_set`): off.
    ResourceCheck,
    /// Chubby's `CheckSequencer()`: back to the highest-token rule alone.
    SequencerCheck,
    /// Release by compare-and-delete: a plain `DEL` instead.
    CompareAndDelete,
    /// Redlock's step-3 elapsed-time check: off.
    ElapsedCheck,
    /// A crashed Redlock node stays down longer than a TTL: restarts at once.
    DelayedRestart,
    /// Chubby's and Consul's lock-delay: 0.
    LockDelay,
    /// The client's own conservative deadline: never.
    LocalDeadline,
    /// A cap on renewals: none.
    RenewalCap,
    /// A random retry delay: a fixed one, as long as its longest.
    RandomRetryDelay,
    /// The etcd fix that re-checks a waiter's lease (PR #11408): the 3.4.3 bug back.
    LeaseRecheck,
    /// Waiters in a fair queue: a herd.
    FairQueue,
    /// `heldSafely()` measured from the last acknowledged request: from the acquisition.
    FromLastRequest,
    /// A write conditional on the version read (A1): an unconditional read-modify-write.
    VersionCheck,
    /// Idempotency keys at the payment service: none.
    IdempotencyKeys,
}

/// Each scenario that demonstrates a mechanism, with it.
const DEMONSTRATES: &[(&str, Mechanism)] = &[
    ("a1-optimistic-concurrency", Mechanism::VersionCheck),
    ("a3-idempotency-keys", Mechanism::IdempotencyKeys),
    ("a4-partitioned-ownership", Mechanism::ResourceCheck),
    ("s2-gc-pause-fenced", Mechanism::ResourceCheck),
    ("s3-fencing-gap-check-sequencer", Mechanism::SequencerCheck),
    ("s6-compare-and-delete-release", Mechanism::CompareAndDelete),
    ("s8-held-safely-corrected", Mechanism::FromLastRequest),
    (
        "s8-renewal-outlives-stuck-work-capped",
        Mechanism::RenewalCap,
    ),
    ("s10-redlock-check-and-set", Mechanism::ResourceCheck),
    ("s11-redlock-delayed-restart", Mechanism::DelayedRestart),
    (
        "s12-redlock-pause-during-acquisition",
        Mechanism::ElapsedCheck,
    ),
    ("s13-consensus-lock-delay", Mechanism::LockDelay),
    (
        "s14-consensus-client-partitioned-deadline",
        Mechanism::LocalDeadline,
    ),
    (
        "s14-consensus-client-partitioned-fenced",
        Mechanism::ResourceCheck,
    ),
    ("s16-consensus-fair-queue", Mechanism::FairQueue),
    (
        "s17-redlock-random-retry-delay",
        Mechanism::RandomRetryDelay,
    ),
    ("s18-etcd-lock-rechecks-the-lease", Mechanism::LeaseRecheck),
];

/// The scenarios that show a failure, or a design with no single option to switch off; each
/// with why, so a new scenario is classified on purpose.
const NAMES_NONE: &[(&str, &str)] = &[
    (
        "a2-conditional-decrement",
        "the atomic decrement is the resource's own; the model has no non-atomic twin",
    ),
    ("a3-no-idempotency-keys", "the double charge"),
    ("s1-gc-pause-unfenced", "the failure"),
    (
        "s2-gc-pause-fenced-resource-restarts",
        "the failure: a resource that forgets its highest token",
    ),
    (
        "s3-fencing-gap",
        "fencing's limit: the zombie writes before the new holder",
    ),
    ("s4-delayed-packet", "the failure"),
    ("s5-check-then-write", "the check that does not help"),
    ("s6-plain-del-release", "the failure"),
    ("s7-ttl-shorter-than-work", "the failure"),
    (
        "s8-held-safely-from-acquisition",
        "the article's check, wrong",
    ),
    ("s8-renewal-outlives-stuck-work", "the failure"),
    ("s8-renewal-paused-with-worker", "the failure"),
    ("s9-failover-loses-the-lock", "the failure"),
    ("s9-failover-reissues-a-token", "the failure"),
    ("s10-redlock-clock-jump", "the failure"),
    ("s11-redlock-crash-restart", "the failure"),
    ("s12-redlock-without-elapsed-check", "the failure"),
    ("s14-consensus-client-partitioned", "the failure"),
    (
        "s15-consensus-leader-crash",
        "consensus replication is the design itself, not an option",
    ),
    ("s16-consensus-herd", "the failure"),
    ("s17-redlock-split-vote-no-jitter", "the failure"),
    ("s18-etcd-3-4-3-lock-bug", "the failure"),
    ("s19-data-grid-split-brain", "the failure"),
    ("s20-consensus-fast-leader-clock", "the failure"),
    (
        "s20-consensus-fast-follower-clock",
        "the failure's twin: a follower's clock decides no lease, there is no option to switch",
    ),
];

impl Mechanism {
    /// `scenario` with this mechanism switched off.
    fn switch_off(self, mut scenario: Scenario) -> Scenario {
        let resource = &mut scenario.resource;
        match self {
            Mechanism::ResourceCheck => *resource = resource.with_fencing(Fencing::Off),
            Mechanism::SequencerCheck => *resource = resource.with_fencing(Fencing::On),
            Mechanism::IdempotencyKeys => {
                if let ResourceSpec::Payments { idempotency } = resource {
                    *idempotency = Idempotency::None;
                }
            }
            _ => {}
        }
        match (self, &mut scenario.lock_service) {
            (Mechanism::ElapsedCheck, LockServiceSpec::Redlock { elapsed_check, .. }) => {
                *elapsed_check = ElapsedCheck::Off;
            }
            (
                Mechanism::DelayedRestart,
                LockServiceSpec::Redlock {
                    restart_delay_ms, ..
                },
            ) => *restart_delay_ms = Millis(0),
            (Mechanism::LockDelay, LockServiceSpec::Consensus { lock_delay_ms, .. }) => {
                *lock_delay_ms = Millis(0);
            }
            (Mechanism::LeaseRecheck, LockServiceSpec::Consensus { bug, .. }) => {
                *bug = KnownBug::Etcd343;
            }
            (Mechanism::FairQueue, LockServiceSpec::Consensus { waiters, .. }) => {
                *waiters = Waiting::Herd;
            }
            _ => {}
        }
        for client in &mut scenario.clients {
            match self {
                Mechanism::CompareAndDelete => client.release = ReleaseMethod::PlainDelete,
                Mechanism::LocalDeadline => client.local_deadline = LocalDeadline::Never {},
                Mechanism::RenewalCap => {
                    if let Renewal::Every { max_renewals } = &mut client.renewal {
                        *max_renewals = u32::MAX;
                    }
                }
                Mechanism::RandomRetryDelay => {
                    if let RetryPolicy::Random {
                        max_delay_ms,
                        attempts,
                    } = client.retry
                    {
                        client.retry = RetryPolicy::Fixed {
                            delay_ms: max_delay_ms,
                            attempts,
                        };
                    }
                }
                Mechanism::FromLastRequest => {
                    if let LeaseCheck::BeforeWrite { measure, .. } = &mut client.lease_check {
                        *measure = SafetyClock::FromAcquisition;
                    }
                }
                Mechanism::VersionCheck => {
                    if let Access::OptimisticUpdate { .. } = client.access {
                        client.access = Access::ReadModifyWrite {};
                    }
                }
                _ => {}
            }
        }
        scenario
    }
}

/// How a run ended, as far as a lesson could tell it: what the resource did, in order; how each
/// client's job ended; the invariants broken; the final value.
#[derive(Debug, PartialEq, Eq)]
struct Outcome {
    at_resource: Vec<Happening>,
    results: Vec<(NodeId, ResultKind)>,
    broken: InvariantSet,
    final_value: i64,
}

fn outcome(scenario: &Scenario) -> Outcome {
    let sim = run(scenario);
    let resource = sim.cast().resource();
    let trace = sim.trace();
    Outcome {
        at_resource: trace
            .iter()
            .filter(|e| e.actor == resource && e.happening.outcome().is_some())
            .map(|e| e.happening)
            .collect(),
        results: trace
            .iter()
            .filter_map(|e| e.happening.job_result())
            .map(|(client, result)| (client, ResultKind::from(result)))
            .collect(),
        broken: trace
            .iter()
            .fold(InvariantSet::default(), |all, e| all.union(e.broke)),
        final_value: sim.resource_value(),
    }
}

/// Why switching `mechanism` off in `scenario` changes nothing, if it does not.
fn changes_nothing(scenario: &Scenario, mechanism: Mechanism) -> Option<String> {
    let switched = mechanism.switch_off(scenario.clone());
    if switched == *scenario {
        return Some(format!(
            "{mechanism:?} has no option to switch in this scenario"
        ));
    }
    let with = outcome(scenario);
    (with == outcome(&switched))
        .then(|| format!("with {mechanism:?} off the outcome is the same: {with:?}"))
}

#[test]
fn every_mechanism_a_scenario_demonstrates_changes_its_outcome() {
    let problems: Vec<String> = DEMONSTRATES
        .iter()
        .filter_map(|&(id, mechanism)| {
            changes_nothing(&built_in(id), mechanism).map(|why| format!("{id}: {why}"))
        })
        .collect();
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn every_catalogue_scenario_is_classified_once() {
    let listed: Vec<&str> = DEMONSTRATES
        .iter()
        .map(|(id, _)| *id)
        .chain(NAMES_NONE.iter().map(|(id, _)| *id))
        .collect();
    for entry in catalogue::INDEX {
        let times = listed.iter().filter(|id| **id == entry.id).count();
        assert_eq!(
            times, 1,
            "{}: list it once, in DEMONSTRATES with the mechanism it shows, or in NAMES_NONE",
            entry.id
        );
    }
    assert_eq!(
        listed.len(),
        catalogue::INDEX.len(),
        "a listed id is not in the catalogue"
    );
}

/// The check fails where it should: the S13 of before issue 24 (kept in the corpus), whose
/// client-b asked after the stray write had landed, runs the same with a lock-delay of 0.
#[test]
fn a_lock_delay_that_changes_nothing_is_caught() {
    let old = Scenario::parse(include_str!(
        "../corpus/scenario/v1/s13-consensus-lock-delay.sources.0946737.json"
    ))
    .expect("parses");
    assert!(changes_nothing(&old, Mechanism::LockDelay).is_some());
    assert!(changes_nothing(&built_in("s13-consensus-lock-delay"), Mechanism::LockDelay).is_none());
}
