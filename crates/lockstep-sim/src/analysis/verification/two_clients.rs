//! The scenario behind the article's first two verification tests: two clients on one lock, the
//! first paused past its lease. It must not decide what passes; the tests judge its trace.

use crate::models::client::{
    Access, LeaseCheck, LocalDeadline, Locking, Renewal, Repeat, RequestTimeout, RetryPolicy,
};
use crate::models::resource::Fencing;
use crate::scenario::source::ScenarioSource;
use crate::scenario::sources::Citation;
use crate::scenario::types::ClientSpec;
use crate::scenario::types::LockServiceSpec;
use crate::scenario::types::NetworkSpec;
use crate::scenario::types::ResourceSpec;
use crate::scenario::types::Scenario;
use crate::vocabulary::message::ReleaseMethod;
use crate::world::intervention::{Action, Intervention};
use crate::world::time::{Millis, VirtualTime};

/// The lease both clients ask for.
pub const TTL_MS: u64 = 1_000;

/// What the tests run against: a lock service, the resource's fencing, and how the first client
/// releases.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Subject {
    pub service: LockServiceSpec,
    pub fencing: Fencing,
    pub release: ReleaseMethod,
}

/// Two clients on one lock. `client-a` starts at once and, 20 ms in, is paused for twice the
/// TTL; `client-b` starts at 1,500 ms, after `a`'s lease has run out, and works for `b_work`.
pub fn two_clients(subject: &Subject, b_work: Millis) -> Scenario {
    let client = |name: &str, start_ms: u64, work_ms: Millis, release: ReleaseMethod| ClientSpec {
        name: name.to_owned(),
        start_ms: Millis(start_ms),
        locking: Locking::Lease,
        ttl_ms: Millis(TTL_MS),
        work_ms,
        access: Access::ReadModifyWrite {},
        retry: RetryPolicy::GiveUp {},
        release,
        lease_check: LeaseCheck::Never {},
        renewal: Renewal::Never {},
        repeat: Repeat::Once {},
        timeout: RequestTimeout::Never {},
        local_deadline: LocalDeadline::Never {},
    };
    Scenario {
        format: crate::scenario::version::FORMAT_VERSION,
        id: "verification".to_owned(),
        title: "The article's verification tests".to_owned(),
        summary: "A client paused past its lease, and the client that takes the lock next."
            .to_owned(),
        sources: vec![ScenarioSource::Cited(Citation {
            source: "the-article".to_owned(),
            at: "§ Verification".to_owned(),
        })],
        seed: 7,
        end_ms: Millis(10_000),
        lock_service: subject.service.clone(),
        resource: ResourceSpec::Register {
            fencing: subject.fencing,
            initial_value: 0,
            token_memory: crate::models::resource::TokenMemory::Durable,
        },
        network: NetworkSpec {
            latency_ms: [1, 5],
            loss_per_million: 0,
            links: Vec::new(),
        },
        clients: vec![
            client("client-a", 0, Millis(100), subject.release),
            client("client-b", 1_500, b_work, ReleaseMethod::IfStillMine),
        ],
        clocks: Vec::new(),
        interventions: vec![Intervention {
            at_ms: VirtualTime(20),
            action: Action::Pause {
                node: "client-a".to_owned(),
                for_ms: Some(Millis(2 * TTL_MS)),
            },
        }],
        expectations: Vec::new(),
    }
}
