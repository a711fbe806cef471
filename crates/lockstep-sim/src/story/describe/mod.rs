//! The narration: one plain-language sentence (sometimes two) per event.
//!
//! Voice: short, present tense, concrete; the reason in one sentence. This module only words what
//! a `Happening` already says; it decides nothing, and the simulation never needs it.
//!
//! One file per domain; `describe` asks each in turn until one has the words.

mod client;
mod consensus;
mod delivery;
mod faults;
mod narrator;
mod replication;
mod resource;
mod service;
pub(crate) mod words;

use crate::scenario::cast::Cast;
use crate::vocabulary::happening::Happening;
use crate::world::ids::NodeId;
use crate::world::network::Network;
use narrator::Narrator;

/// The narration of one domain's events, if the happening is one of them.
type Domain = fn(&Narrator<'_>, &Happening) -> Option<String>;

/// Every domain, tried in this order: a guarded case comes before its fallback.
const DOMAINS: [Domain; 20] = [
    client::asking,
    client::waiting,
    client::reading,
    client::writing,
    client::answers,
    client::redlock,
    client::renewing,
    service::lease,
    replication::replication,
    consensus::log,
    consensus::waiters,
    consensus::election,
    consensus::leadership,
    service::release,
    client::job_ends,
    resource::writes,
    resource::orders_and_charges,
    delivery::delivery,
    faults::pauses_and_crashes,
    faults::clocks_and_network,
];

/// The sentence for one event: `actor` is the node that acted (the trace event's actor).
pub fn describe(actor: NodeId, happening: &Happening, cast: &Cast, network: &Network) -> String {
    let n = |node| cast.name(node);
    // A service node speaks for itself; a client speaks to the service as a whole.
    let service = if cast.is_service(actor) || cast.services().count() == 1 {
        n(if cast.is_service(actor) {
            actor
        } else {
            cast.lock_service()
        })
        .to_owned()
    } else {
        "the lock service".to_owned()
    };
    let resource = n(cast.resource());
    let narrator = Narrator {
        cast,
        network,
        service: &service,
        resource,
    };
    DOMAINS
        .iter()
        .find_map(|domain| domain(&narrator, happening))
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use crate::models::resource::Fencing;
    use crate::story::export::trace_text;
    use crate::{Sim, scenario::catalogue};

    #[test]
    fn a_new_clock_rate_is_said_as_fast_or_slow_and_how_many_times_true_time() {
        use super::words::drift_words;
        assert_eq!(
            drift_words("etcd-1", 1_000_000),
            "etcd-1's clock now runs fast by 1000000 parts per million: 2 times as fast as true time."
        );
        assert_eq!(
            drift_words("etcd-2", 100),
            "etcd-2's clock now runs fast by 100 parts per million: 1.0001 times as fast as true time."
        );
        assert_eq!(
            drift_words("redis-c", -500_000),
            "redis-c's clock now runs slow by 500000 parts per million: 0.5 times as fast as true time."
        );
        assert_eq!(
            drift_words("resource", 0),
            "resource's clock now runs at the true rate."
        );
    }

    /// An inventory takes orders: its refusals name the order, not a write.
    #[test]
    fn a_refused_order_is_narrated_as_an_order() {
        let mut scenario = catalogue::find("a2-conditional-decrement")
            .and_then(|b| b.load().ok())
            .expect("built in");
        scenario.resource = scenario.resource.with_fencing(Fencing::On);
        let mut sim = Sim::new(&scenario).expect("runs");
        sim.run_to_end();
        let text = trace_text(&sim);
        let refusals: Vec<&str> = text
            .lines()
            .filter(|l| l.contains("The resource re"))
            .collect();
        assert!(!refusals.is_empty(), "{text}");
        for line in refusals {
            assert!(
                line.contains("'s order") && !line.contains("write"),
                "{line}"
            );
        }
    }
}
