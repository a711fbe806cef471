//! The narration: one plain-language sentence (sometimes two) per event.
//!
//! Voice: short, present tense, concrete; the reason in one sentence. This module only words what
//! a `Happening` already says; it decides nothing, and the simulation never needs it.
//!
//! One file per domain, one function per kind of happening; `describe` hands each kind to its
//! domain in one exhaustive match, so a new kind cannot go unnarrated.

mod client;
mod consensus;
mod delivery;
mod faults;
mod narrator;
mod replication;
mod resource;
mod service;
pub(crate) mod words;

use crate::engine::trace::TraceEvent;
use crate::scenario::cast::Cast;
use crate::vocabulary::happening::Happening;
use crate::world::network::Network;
use narrator::Narrator;

/// The sentence for one event of a run whose cast and network these are.
pub fn describe(event: &TraceEvent, cast: &Cast, network: &Network) -> String {
    let actor = event.actor;
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
        event,
        service: &service,
        resource,
    };
    sentence(&narrator, event.happening)
}

/// Every kind of happening, each handed to its domain's words: a new kind that is not narrated
/// here does not compile.
#[expect(
    clippy::too_many_lines,
    reason = "one exhaustive match over every Happening: a new kind must be narrated"
)]
fn sentence(narrator: &Narrator<'_>, happening: Happening) -> String {
    match happening {
        // What clients do.
        Happening::AskedForLock { client, ttl, nodes } => {
            client::asked_for_lock(narrator, client, ttl, nodes)
        }
        Happening::Started { client, next } => client::started(narrator, client, next),
        Happening::Granted { client, token, ttl } => client::granted(narrator, client, token, ttl),
        Happening::Refused { client, holder } => client::refused(narrator, client, holder),
        Happening::GotLock {
            client,
            token,
            next,
        } => client::got_lock(narrator, client, token, next),
        Happening::WillRetry {
            client,
            retries_left,
        } => client::will_retry(narrator, client, retries_left),
        Happening::GaveUp { client } => client::gave_up(narrator, client),
        Happening::NoLeader {
            client,
            retries_left,
        } => client::no_leader(narrator, client, retries_left),
        Happening::SessionExpired {
            client,
            retries_left,
        } => client::session_expired(narrator, client, retries_left),
        Happening::ReadServed {
            reader,
            value,
            version,
        } => client::read_served(narrator, reader, value, version),
        Happening::ReadReturned {
            client,
            value,
            version,
            work,
        } => client::read_returned(narrator, client, value, version, work),
        Happening::LeaseChecked {
            client,
            time_left,
            margin,
            write_in,
        } => client::lease_checked(narrator, client, time_left, margin, write_in),
        Happening::WriteSkipped {
            client,
            time_left,
            margin,
        } => client::write_skipped(narrator, client, time_left, margin),
        Happening::WriteSent {
            client,
            request,
            token,
            value,
            checked,
        } => client::write_sent(narrator, client, request, token, value, checked),
        Happening::TimedOut { client, next } => client::timed_out(narrator, client, next),
        Happening::WriteAnswered {
            client,
            outcome,
            then,
            ..
        } => client::write_answered(narrator, client, outcome, then),
        Happening::NodeAnswered {
            client,
            node,
            yes,
            so_far,
            of,
        } => client::node_answered(narrator, client, node, yes, so_far, of),
        Happening::RedlockDecided {
            client,
            yes,
            of,
            elapsed,
            validity,
            outcome,
            retries_left,
        } => client::redlock_decided(
            narrator,
            client,
            yes,
            of,
            elapsed,
            validity,
            outcome,
            retries_left,
        ),
        Happening::RenewSent { client, token } => client::renew_sent(narrator, client, token),
        Happening::RenewAnswered {
            client,
            renewals_left,
            lease_until,
        } => client::renew_answered(narrator, client, renewals_left, lease_until),
        Happening::Abandoned { client, reason } => client::abandoned(narrator, client, reason),
        Happening::DeadlinePassed {
            client,
            since,
            deadline,
            cut,
        } => client::deadline_passed(narrator, client, since, deadline, cut),
        Happening::Releasing {
            client,
            token,
            method,
        } => client::releasing(narrator, client, token, method),
        Happening::Finished { client, result, .. } => client::finished(narrator, client, result),
        // What the lock service does with leases.
        Happening::Renewed { client, token, ttl } => service::renewed(narrator, client, token, ttl),
        Happening::RenewRefused { client, holder, .. } => {
            service::renew_refused(narrator, client, holder)
        }
        Happening::Released { client, token } => service::released(narrator, client, token),
        Happening::ReleasedOthersLock { client, owner } => {
            service::released_others_lock(narrator, client, owner)
        }
        // Bookkeeping, never recorded in a trace: there is nothing to say.
        Happening::Silent => String::new(),
        Happening::ReleaseRefused {
            client,
            token,
            holder,
        } => service::release_refused(narrator, client, token, holder),
        Happening::LeaseExpired { holder, token } => {
            service::lease_expired(narrator, holder, token)
        }
        // A replicated cache.
        Happening::Shipped { node, to, holder } => replication::shipped(narrator, node, to, holder),
        Happening::Replicated { node, from, holder } => {
            replication::replicated(narrator, node, from, holder)
        }
        Happening::FailedOver { from, to, lost } => {
            replication::failed_over(narrator, from, to, lost)
        }
        // A consensus service's replicas.
        Happening::Appended { node, index, op } => consensus::appended(narrator, node, index, op),
        Happening::Stored {
            node,
            index,
            leader,
        } => consensus::stored(narrator, node, index, leader),
        Happening::Committed { node, index } => consensus::committed(narrator, node, index),
        Happening::Queued {
            node,
            client,
            ahead,
            until,
        } => consensus::queued(narrator, node, client, ahead, until),
        Happening::Watching {
            node,
            client,
            watchers,
        } => consensus::watching(narrator, node, client, watchers),
        Happening::HerdWoken { node, woken } => consensus::herd_woken(narrator, node, woken),
        Happening::WaiterExpired { node, client } => {
            consensus::waiter_expired(narrator, node, client)
        }
        Happening::GrantedWithoutLease {
            node,
            client,
            token,
        } => consensus::granted_without_lease(narrator, node, client, token),
        Happening::Woken { client } => consensus::woken(narrator, client),
        Happening::NotLeader { node, client } => consensus::not_leader(narrator, node, client),
        Happening::ElectionStarted { node, term } => {
            consensus::election_started(narrator, node, term)
        }
        Happening::Voted {
            node,
            candidate,
            term,
            granted,
        } => consensus::voted(narrator, node, candidate, term, granted),
        Happening::BecameLeader { node, term } => consensus::became_leader(narrator, node, term),
        Happening::VoteWithheld {
            node,
            candidate,
            term,
            why,
        } => consensus::vote_withheld(narrator, node, candidate, term, why),
        Happening::Serving { node, term } => consensus::serving(narrator, node, term),
        Happening::NotServingYet { node, client } => {
            consensus::not_serving_yet(narrator, node, client)
        }
        Happening::SteppedDown { node, term, why } => {
            consensus::stepped_down(narrator, node, term, why)
        }
        // The protected resource.
        Happening::WriteAccepted {
            writer,
            token,
            value,
            version,
            overwrote_unseen,
        } => resource::write_accepted(narrator, writer, token, value, version, overwrote_unseen),
        Happening::WriteRejected { writer, refusal } => {
            resource::write_rejected(narrator, writer, refusal)
        }
        Happening::SequencerAsked { writer, token } => {
            resource::sequencer_asked(narrator, writer, token)
        }
        Happening::SequencerAnswered {
            writer,
            token,
            valid,
        } => resource::sequencer_answered(narrator, writer, token, valid),
        Happening::StockTaken {
            buyer,
            token,
            amount,
            left,
        } => resource::stock_taken(narrator, buyer, token, amount, left),
        Happening::ChargeApplied {
            payer,
            key,
            amount,
            times,
        } => resource::charge_applied(narrator, payer, key, amount, times),
        Happening::ChargeReplayed { payer, key } => resource::charge_replayed(narrator, payer, key),
        // Inputs not used, messages lost.
        Happening::Ignored { node, message } => delivery::ignored(narrator, node, message),
        Happening::Buffered { node, input } => delivery::buffered(narrator, node, input),
        Happening::Lost { node, message, why } => delivery::lost(narrator, node, message, why),
        // Faults and interventions.
        Happening::Paused { node, for_ms } => faults::paused(narrator, node, for_ms),
        Happening::Resumed {
            node,
            paused_for,
            waiting,
        } => faults::resumed(narrator, node, paused_for, waiting),
        Happening::Crashed {
            node,
            lost,
            forgot_token,
        } => faults::crashed(narrator, node, lost, forgot_token),
        Happening::Restarted { node } => faults::restarted(narrator, node),
        Happening::RestartDelayed { node, until } => faults::restart_delayed(narrator, node, until),
        Happening::ClockJumped { node, by_ms } => faults::clock_jumped(narrator, node, by_ms),
        Happening::DriftChanged { node, drift_ppm } => {
            faults::drift_changed(narrator, node, drift_ppm)
        }
        Happening::Partitioned {
            from,
            to,
            direction,
        } => faults::partitioned(narrator, from, to, direction),
        Happening::Healed { a, b } => faults::healed(narrator, a, b),
        Happening::MessageHeld { message } => faults::message_held(narrator, message),
        Happening::MessageReleased { message } => faults::message_released(narrator, message),
        Happening::MessageDropped { message } => faults::message_dropped(narrator, message),
        Happening::LeaseForcedToExpire { holder } => {
            faults::lease_forced_to_expire(narrator, holder)
        }
        Happening::NoEffect { why } => faults::no_effect(why),
    }
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
