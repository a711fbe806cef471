//! Unit tests of the client state machine, driven by hand through a small harness.

use super::*;
use crate::world::node::Command;

/// Stands for "the lock service, wherever it answers" in what the harness reports.
const SERVICE: NodeId = NodeId(0);
const RESOURCE: NodeId = NodeId(1);
const ME: NodeId = NodeId(2);
const TTL: Millis = Millis(1_000);

/// Drives one client by hand: the engine's part, minus the queue.
struct Harness {
    client: Client,
    local: i64,
    commands: Vec<Command>,
    next_timer: u32,
    timers: Vec<(TimerId, TimerKind)>,
}

impl Harness {
    fn new(configure: impl FnOnce(&mut ClientConfig)) -> Harness {
        let mut config = ClientConfig {
            me: ME,
            protocol: Protocol::Single,
            resource: RESOURCE,
            locking: Locking::Lease,
            ttl: TTL,
            work: Millis(100),
            access: Access::ReadModifyWrite {},
            retry: RetryPolicy::GiveUp {},
            release: ReleaseMethod::IfStillMine,
            lease_check: LeaseCheck::Never {},
            renewal: Renewal::Never {},
            repeat: Repeat::Once {},
            timeout: RequestTimeout::Never {},
            local_deadline: LocalDeadline::Never {},
        };
        configure(&mut config);
        Harness {
            client: Client::new(config),
            local: 0,
            commands: Vec::new(),
            next_timer: 0,
            timers: Vec::new(),
        }
    }

    fn with_ctx<R>(&mut self, act: impl FnOnce(&mut Client, &mut Ctx<'_>) -> R) -> R {
        self.commands.clear();
        let mut ctx = Ctx::new(
            crate::world::time::VirtualTime(u64::try_from(self.local).unwrap_or(0)),
            LocalTime(self.local),
            ME,
            None,
            &mut self.commands,
            &mut self.next_timer,
        );
        let result = act(&mut self.client, &mut ctx);
        for command in &self.commands {
            if let Command::SetTimer { id, kind, .. } = command {
                self.timers.push((*id, *kind));
            }
        }
        result
    }

    /// Fires the most recently set timer of this kind.
    fn fire(&mut self, kind: TimerKind) -> Happening {
        let (id, _) = *self
            .timers
            .iter()
            .rev()
            .find(|(_, k)| *k == kind)
            .expect("timer set");
        self.with_ctx(|client, ctx| client.on_timer(ctx, id, kind))
    }

    fn receive(&mut self, payload: Payload) -> Happening {
        let from = match payload {
            Payload::ReadReply { .. } | Payload::WriteReply(_) => RESOURCE,
            _ => SERVICE,
        };
        self.with_ctx(|client, ctx| client.on_message(ctx, from, payload))
    }

    fn sent(&self) -> Vec<(NodeId, Payload)> {
        self.commands
            .iter()
            .filter_map(|c| match c {
                Command::Send { to, payload } => Some((*to, *payload)),
                Command::SendToService { payload } => Some((SERVICE, *payload)),
                _ => None,
            })
            .collect()
    }

    fn start(&mut self) -> Happening {
        let id = TimerId(999);
        self.with_ctx(|client, ctx| client.on_timer(ctx, id, TimerKind::Start))
    }

    fn granted(&mut self, token: u64) -> Happening {
        let value = self.client.lock_value_now();
        self.receive(Payload::AcquireReply {
            value,
            reply: AcquireReply::Granted {
                token: Some(FencingToken(token)),
            },
        })
    }

    fn held_elsewhere(&mut self) -> Happening {
        let value = self.client.lock_value_now();
        self.receive(Payload::AcquireReply {
            value,
            reply: AcquireReply::HeldElsewhere,
        })
    }

    fn session_expired(&mut self) -> Happening {
        let value = self.client.lock_value_now();
        self.receive(Payload::AcquireReply {
            value,
            reply: AcquireReply::SessionExpired,
        })
    }
}

#[test]
fn guarded_work_acquires_reads_works_writes_with_its_token_and_releases() {
    let mut h = Harness::new(|_| {});
    assert!(matches!(h.start(), Happening::AskedForLock { .. }));
    assert!(matches!(
        h.sent()[..],
        [(SERVICE, Payload::Acquire { ttl: TTL, .. })]
    ));
    h.granted(33);
    assert!(h.client.believes_it_holds_the_lock());
    let claim = Some(LockValue((2 << 32) | 1));
    assert_eq!(h.sent(), vec![(RESOURCE, Payload::Read { claim })]);
    h.receive(Payload::ReadReply {
        value: 41,
        version: 7,
    });
    h.local = 150;
    h.fire(TimerKind::WorkDone);
    let written = WriteRequest {
        token: Some(FencingToken(33)),
        value: 42,
        basis: WriteBasis::ReadAt(7),
        lock: Some(LockValue((2 << 32) | 1)),
    };
    assert_eq!(h.sent(), vec![(RESOURCE, Payload::Write(written))]);
    h.receive(Payload::WriteReply(WriteOutcome::Rejected(
        Refusal::StaleToken {
            presented: FencingToken(33),
            required: FencingToken(34),
        },
    )));
    assert!(
        !h.client.believes_it_holds_the_lock(),
        "belief ends with the release"
    );
    assert!(matches!(
        h.sent()[..],
        [(
            SERVICE,
            Payload::Release {
                token: Some(FencingToken(33)),
                ..
            }
        )]
    ));
    let finished = h.receive(Payload::ReleaseReply { released: false });
    assert_eq!(
        finished.job_result(),
        Some((
            ME,
            WorkResult::Fenced {
                presented: FencingToken(33),
                required: FencingToken(34)
            }
        ))
    );
}

#[test]
fn lock_held_elsewhere_gives_up_or_retries_by_policy() {
    let mut h = Harness::new(|_| {});
    h.start();
    let gave_up = h.held_elsewhere();
    assert_eq!(gave_up.job_result(), Some((ME, WorkResult::HeldElsewhere)));

    let mut h = Harness::new(|c| {
        c.retry = RetryPolicy::Fixed {
            delay_ms: Millis(50),
            attempts: 1,
        }
    });
    h.start();
    h.held_elsewhere();
    assert!(matches!(h.client.state, ClientState::Backoff));
    assert!(matches!(
        h.fire(TimerKind::Retry),
        Happening::AskedForLock { .. }
    ));
    assert!(matches!(h.held_elsewhere(), Happening::GaveUp { .. }));
}

#[test]
fn a_waiter_told_its_session_expired_gives_up_or_retries_by_policy() {
    let mut h = Harness::new(|_| {});
    h.start();
    let told = h.session_expired();
    assert_eq!(told.job_result(), Some((ME, WorkResult::SessionExpired)));

    let mut h = Harness::new(|c| {
        c.retry = RetryPolicy::Fixed {
            delay_ms: Millis(50),
            attempts: 1,
        }
    });
    h.start();
    assert_eq!(
        h.session_expired(),
        Happening::SessionExpired {
            client: ME,
            retries_left: Some(0)
        }
    );
    assert!(matches!(h.client.state, ClientState::Backoff));
}

#[test]
fn renewals_run_out_and_the_lock_is_abandoned() {
    let mut h = Harness::new(|c| c.renewal = Renewal::Every { max_renewals: 1 });
    h.start();
    h.granted(5);
    h.local = 333;
    assert!(matches!(
        h.fire(TimerKind::Renew),
        Happening::RenewSent { .. }
    ));
    assert!(matches!(h.sent()[..], [(SERVICE, Payload::Renew { .. })]));
    h.receive(Payload::RenewReply { renewed: true });
    assert_eq!(
        h.client.lease.map(|l| l.confirmed_from),
        Some(LocalTime(333))
    );
    h.local = 666;
    let abandoned = h.fire(TimerKind::Renew);
    assert!(matches!(
        abandoned,
        Happening::Abandoned {
            reason: AbandonReason::MaximumHoldTime,
            ..
        }
    ));
    assert!(!h.client.believes_it_holds_the_lock());
}

#[test]
fn a_refused_renewal_abandons_the_lock() {
    let mut h = Harness::new(|c| c.renewal = Renewal::Every { max_renewals: 5 });
    h.start();
    h.granted(5);
    h.fire(TimerKind::Renew);
    let refused = h.receive(Payload::RenewReply { renewed: false });
    assert!(matches!(
        refused,
        Happening::Abandoned {
            reason: AbandonReason::RenewalRefused,
            ..
        }
    ));
}

#[test]
fn held_safely_from_acquisition_ignores_renewals_and_the_corrected_one_does_not() {
    let mut h = Harness::new(|c| c.renewal = Renewal::Every { max_renewals: 5 });
    h.start();
    h.local = 10;
    h.granted(5);
    h.local = 600;
    h.fire(TimerKind::Renew);
    h.receive(Payload::RenewReply { renewed: true });
    h.local = 1_200;
    let articles = h
        .client
        .time_left(LocalTime(1_200), SafetyClock::FromAcquisition);
    let corrected = h
        .client
        .time_left(LocalTime(1_200), SafetyClock::FromLastRequest);
    assert_eq!(
        articles,
        Some(1_000 - (1_200 - 10)),
        "the article's check measures from the grant's arrival"
    );
    assert_eq!(
        corrected,
        Some(1_000 - (1_200 - 600)),
        "from the renewal's sending"
    );
}

#[test]
fn a_lease_check_that_fails_skips_the_write_and_releases() {
    let mut h = Harness::new(|c| {
        c.access = Access::BlindWrite { value: 1 };
        c.lease_check = LeaseCheck::BeforeWrite {
            margin_ms: Millis(100),
            gap_ms: Millis(0),
            measure: SafetyClock::FromLastRequest,
        };
    });
    h.start();
    h.granted(5);
    h.local = 950;
    let skipped = h.fire(TimerKind::WorkDone);
    assert!(matches!(
        skipped,
        Happening::WriteSkipped {
            time_left: Some(50),
            ..
        }
    ));
    assert!(matches!(h.sent()[..], [(SERVICE, Payload::Release { .. })]));
}

#[test]
fn held_safely_is_the_clients_own_check_or_the_articles_without_a_margin() {
    let mut checking = Harness::new(|c| {
        c.lease_check = LeaseCheck::BeforeWrite {
            margin_ms: Millis(100),
            gap_ms: Millis(0),
            measure: SafetyClock::FromLastRequest,
        };
    });
    checking.start();
    checking.granted(5);
    let reading = checking.client.held_safely(LocalTime(950));
    assert_eq!(reading.time_left, Some(50));
    assert_eq!(reading.margin, Millis(100));
    assert!(!reading.is_safe(), "50 ms left is within the 100 ms margin");
    assert!(checking.client.held_safely(LocalTime(850)).is_safe());
    let mut plain = Harness::new(|_| {});
    assert!(
        !plain.client.held_safely(LocalTime(0)).is_safe(),
        "no lease"
    );
    plain.start();
    plain.local = 10;
    plain.granted(5);
    let reading = plain.client.held_safely(LocalTime(1_000));
    assert_eq!((reading.time_left, reading.margin), (Some(10), Millis(0)));
    assert!(reading.is_safe());
    assert!(!plain.client.held_safely(LocalTime(1_010)).is_safe());
}

#[test]
fn a_lease_check_with_a_gap_writes_later_without_checking_again() {
    let mut h = Harness::new(|c| {
        c.access = Access::BlindWrite { value: 1 };
        c.lease_check = LeaseCheck::BeforeWrite {
            margin_ms: Millis(100),
            gap_ms: Millis(20),
            measure: SafetyClock::FromLastRequest,
        };
    });
    h.start();
    h.granted(5);
    h.local = 200;
    assert!(matches!(
        h.fire(TimerKind::WorkDone),
        Happening::LeaseChecked { .. }
    ));
    assert!(h.sent().is_empty());
    h.local = 5_000;
    assert!(matches!(
        h.fire(TimerKind::WriteNow),
        Happening::WriteSent { .. }
    ));
}

#[test]
fn a_silent_lock_service_times_out_into_a_retry() {
    let mut h = Harness::new(|c| {
        c.timeout = RequestTimeout::After { ms: Millis(200) };
        c.retry = RetryPolicy::Fixed {
            delay_ms: Millis(10),
            attempts: 1,
        };
    });
    h.start();
    h.local = 250;
    let timed_out = h.fire(TimerKind::RequestTimeout);
    assert!(matches!(
        timed_out,
        Happening::TimedOut {
            next: AfterTimeout::Retry { retries_left: 0 },
            ..
        }
    ));
}

#[test]
fn an_optimistic_update_rereads_after_a_conflict() {
    let mut h = Harness::new(|c| {
        c.locking = Locking::None;
        c.access = Access::OptimisticUpdate { attempts: 2 };
    });
    assert!(matches!(h.start(), Happening::Started { .. }));
    h.receive(Payload::ReadReply {
        value: 100,
        version: 0,
    });
    h.fire(TimerKind::WorkDone);
    let conflict = h.receive(Payload::WriteReply(WriteOutcome::Rejected(
        Refusal::VersionChanged {
            expected: 0,
            actual: 1,
        },
    )));
    assert!(matches!(
        conflict,
        Happening::WriteAnswered {
            then: Then::ReadsAgain,
            ..
        }
    ));
    assert_eq!(h.sent(), vec![(RESOURCE, Payload::Read { claim: None })]);
}

#[test]
fn a_crash_erases_belief_and_a_restart_begins_again() {
    let mut h = Harness::new(|_| {});
    h.start();
    h.granted(5);
    h.client.crash();
    assert!(!h.client.believes_it_holds_the_lock());
    h.with_ctx(|client, ctx| client.restart(ctx));
    assert!(h.timers.iter().any(|(_, kind)| *kind == TimerKind::Start));
    assert!(matches!(h.client.state, ClientState::NotStarted));
}

/// A client that renews every TTL/3, cut off from the lock service: its renewals go out and
/// nothing comes back. Granted at 10 ms for a request sent at 0 ms; 3 s of work.
fn cut_off(deadline: LocalDeadline) -> Harness {
    let mut h = Harness::new(|c| {
        c.renewal = Renewal::Every { max_renewals: 30 };
        c.access = Access::BlindWrite { value: 1 };
        c.work = Millis(3_000);
        c.local_deadline = deadline;
    });
    h.start();
    h.local = 10;
    h.granted(5);
    for at in [343, 676] {
        h.local = at;
        assert!(matches!(
            h.fire(TimerKind::Renew),
            Happening::RenewSent { .. }
        ));
    }
    h
}

fn cancelled(h: &Harness) -> Vec<TimerId> {
    h.commands
        .iter()
        .filter_map(|c| match c {
            Command::CancelTimer(id) => Some(*id),
            _ => None,
        })
        .collect()
}

#[test]
fn with_a_local_deadline_a_cut_off_client_gives_the_lock_up_and_does_not_write() {
    let mut h = cut_off(LocalDeadline::After { ms: Millis(1_000) });
    let work = h
        .timers
        .iter()
        .find(|(_, kind)| *kind == TimerKind::WorkDone)
        .map(|(id, _)| *id)
        .expect("work under way");
    h.local = 1_000;
    let gave_up = h.fire(TimerKind::LocalDeadline);
    assert_eq!(
        gave_up,
        Happening::DeadlinePassed {
            client: ME,
            since: LocalTime(0),
            deadline: Millis(1_000),
            cut: DeadlineCut::Work,
        },
        "counted from the acquire's sending, the only acknowledged request"
    );
    assert!(!h.client.believes_it_holds_the_lock());
    assert_eq!(gave_up.job_result(), Some((ME, WorkResult::DeadlinePassed)));
    assert!(
        h.sent().is_empty(),
        "no write, and no release: {:?}",
        h.sent()
    );
    assert!(
        cancelled(&h).contains(&work),
        "the work is called off, so it never ends in a write"
    );
}

#[test]
fn without_a_local_deadline_the_same_client_believes_on_and_writes() {
    let mut h = cut_off(LocalDeadline::Never {});
    assert!(
        h.timers
            .iter()
            .all(|(_, kind)| *kind != TimerKind::LocalDeadline),
        "no deadline, no timer: today's traces stay as they were"
    );
    h.local = 3_010;
    assert!(h.client.believes_it_holds_the_lock());
    assert!(matches!(
        h.fire(TimerKind::WorkDone),
        Happening::WriteSent { .. }
    ));
}

#[test]
fn the_deadline_counts_from_when_the_last_acknowledged_renewal_was_sent() {
    let mut h = Harness::new(|c| {
        c.renewal = Renewal::Every { max_renewals: 30 };
        c.work = Millis(3_000);
        c.local_deadline = LocalDeadline::After { ms: Millis(1_000) };
    });
    h.start();
    h.local = 10;
    h.granted(5);
    h.local = 343;
    h.fire(TimerKind::Renew);
    h.local = 350;
    h.receive(Payload::RenewReply { renewed: true });
    h.local = 1_000;
    assert_eq!(
        h.fire(TimerKind::LocalDeadline),
        Happening::Silent,
        "the renewal moved the deadline on"
    );
    assert!(h.client.believes_it_holds_the_lock());
    h.local = 1_343;
    assert!(matches!(
        h.fire(TimerKind::LocalDeadline),
        Happening::DeadlinePassed {
            since: LocalTime(343),
            ..
        }
    ));
}

#[test]
fn work_that_ends_past_the_deadline_gives_up_before_writing() {
    let mut h = Harness::new(|c| {
        c.access = Access::BlindWrite { value: 1 };
        c.work = Millis(100);
        c.local_deadline = LocalDeadline::After { ms: Millis(1_000) };
    });
    h.start();
    h.local = 10;
    h.granted(5);
    // A pause held back both timers; the work's end is handled first.
    h.local = 1_500;
    assert!(matches!(
        h.fire(TimerKind::WorkDone),
        Happening::DeadlinePassed {
            cut: DeadlineCut::Work,
            ..
        }
    ));
    assert!(h.sent().is_empty());
}

#[test]
fn a_write_already_sent_when_the_deadline_passes_cannot_be_called_back() {
    let mut h = Harness::new(|c| {
        c.access = Access::BlindWrite { value: 1 };
        c.work = Millis(100);
        c.local_deadline = LocalDeadline::After { ms: Millis(1_000) };
    });
    h.start();
    h.local = 10;
    h.granted(5);
    h.local = 110;
    assert!(matches!(
        h.fire(TimerKind::WorkDone),
        Happening::WriteSent { .. }
    ));
    h.local = 1_000;
    assert!(matches!(
        h.fire(TimerKind::LocalDeadline),
        Happening::DeadlinePassed {
            cut: DeadlineCut::WriteInFlight,
            ..
        }
    ));
    assert!(!h.client.believes_it_holds_the_lock());
    let answered = h.receive(Payload::WriteReply(WriteOutcome::Accepted { version: 1 }));
    assert!(matches!(
        answered,
        Happening::WriteAnswered {
            then: Then::Stops,
            ..
        }
    ));
    assert!(h.sent().is_empty(), "nothing left to release");
}

#[test]
fn an_optimistic_locker_past_its_deadline_does_not_retry_a_conflict_without_the_lock() {
    let mut h = Harness::new(|c| {
        c.access = Access::OptimisticUpdate { attempts: 3 };
        c.work = Millis(100);
        c.local_deadline = LocalDeadline::After { ms: Millis(1_000) };
    });
    h.start();
    h.local = 10;
    h.granted(5);
    h.receive(Payload::ReadReply {
        value: 1,
        version: 0,
    });
    h.local = 120;
    h.fire(TimerKind::WorkDone);
    h.local = 1_000;
    h.fire(TimerKind::LocalDeadline);
    let conflict = h.receive(Payload::WriteReply(WriteOutcome::Rejected(
        Refusal::VersionChanged {
            expected: 0,
            actual: 1,
        },
    )));
    assert!(
        matches!(
            conflict,
            Happening::WriteAnswered {
                then: Then::Stops,
                ..
            }
        ),
        "{conflict:?}"
    );
    assert!(h.sent().is_empty(), "no second read: {:?}", h.sent());
}
