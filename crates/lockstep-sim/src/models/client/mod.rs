//! Clients: processes that (usually) take the lock, do their work, and write to the resource.
//!
//! The base flow is the article's `performGuardedWork`: acquire → apply the payload with the token →
//! release in `finally`, reporting "lock held elsewhere", "fenced" or done. Options add the article's
//! `RenewingLock` (renew every TTL/3, at most `max_renewals` times, abandon on a failed renewal or
//! when renewals run out), a lease check just before writing (`heldSafely()`, which loses anyway
//! if the process pauses between the check and the write), retries, and the lock-free
//! alternatives (optimistic concurrency, conditional decrement, idempotent requests).
//!
//! A client *believes* it holds the lock from the grant until it sends its release, abandons the
//! lock, or its own local deadline passes. Belief is local state: the lock service does not tell
//! a client that its lease ran out, so only the client's own clock can warn it.

use crate::vocabulary::happening::{
    AbandonReason, AfterTimeout, DeadlineCut, Happening, RedlockOutcome, Request, Then, WorkResult,
};
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{
    AcquireReply, Payload, Refusal, ReleaseMethod, WriteBasis, WriteOutcome, WriteRequest,
};
use crate::vocabulary::next_step::NextStep;
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::timer::TimerSpan;
use crate::world::ids::{NodeId, TimerId};
use crate::world::node::{Ctx, ignored};
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

mod quorum;

use quorum::Round;
pub use quorum::{ElapsedCheck, Protocol, RedlockParams};

/// What the client does with the resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Access {
    /// Read the value, work, then write `value + 1` back (a lost update waiting to happen).
    ReadModifyWrite {},
    /// Work, then write a fixed value without reading first.
    BlindWrite { value: i64 },
    /// Work, then take `amount` from the stock in one statement (the article's inventory `UPDATE`).
    Decrement { amount: i64 },
    /// Read, work, then write `value + 1` only if the version is unchanged; on a conflict, read
    /// again and retry, at most `attempts` times in all (A1).
    OptimisticUpdate { attempts: u32 },
    /// Work, then send a charge named by `key`; if no answer comes within `timeout_ms`, send the
    /// same request again, at most `attempts` times in all (A3).
    Charge {
        key: u32,
        amount: i64,
        timeout_ms: Millis,
        attempts: u32,
    },
}

/// Whether the client takes the lock at all. The alternatives need none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Locking {
    Lease,
    None,
}

/// What the client does after "lock held elsewhere".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum RetryPolicy {
    /// Report "lock held elsewhere" and stop, as `performGuardedWork` does.
    GiveUp {},
    /// Try again after exactly `delay_ms`, at most `attempts` more times.
    Fixed { delay_ms: Millis, attempts: u32 },
    /// Try again after a delay drawn uniformly from `0..=max_delay_ms`, at most `attempts` times.
    Random { max_delay_ms: Millis, attempts: u32 },
}

/// Where a lease check measures the lease from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SafetyClock {
    /// The article's `heldSafely()`: from when the acquisition *returned*, ignoring renewals. Too
    /// optimistic about the start (the lease began when the service granted it, before the reply
    /// arrived) and blind to every renewal.
    FromAcquisition,
    /// The corrected variant: from when the last request that was acknowledged (the acquire or
    /// the latest successful renewal) was *sent* — a moment no later than the service's.
    FromLastRequest,
}

/// Whether the client checks its lease just before writing (`heldSafely()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum LeaseCheck {
    Never {},
    /// Write only if `held && elapsed < ttl − margin_ms`; the write follows the check after
    /// `gap_ms` (the window a pause can fall into).
    BeforeWrite {
        margin_ms: Millis,
        gap_ms: Millis,
        measure: SafetyClock,
    },
}

/// What `heldSafely()` says at one moment: the lease's time left by the client's own clock
/// (`None`: it holds no lease), the margin that time must exceed, and which of the client's
/// moments the lease is counted from (`Client::counted_from` says when that was).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SafetyReading {
    pub time_left: Option<i64>,
    pub margin: Millis,
    pub measure: SafetyClock,
}

impl SafetyReading {
    /// `heldSafely()`: held, with more than the margin left.
    pub fn is_safe(self) -> bool {
        self.time_left
            .is_some_and(|left| left > self.margin.as_i64())
    }
}

/// Whether the client renews its lease in the background (the article's `RenewingLock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Renewal {
    Never {},
    /// Every TTL/3, at most `max_renewals` times; then the lock is abandoned ("maximum hold time
    /// exceeded").
    Every {
        max_renewals: u32,
    },
}

/// How long a client waits for any answer before it stops waiting. The article's code awaits
/// forever; real clients give up (and then a lost reply looks exactly like a slow one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum RequestTimeout {
    Never {},
    After { ms: Millis },
}

/// Whether a client gives the lock up by its own clock when the lock service stops confirming its
/// lease. `After` is the conservative kind: Chubby's client keeps its own lease timeout, counted so
/// that it runs out no later than the master's, and goes into jeopardy when it does (Chubby
/// §2.8). etcd's `Session.Done()` is not this: its deadline is reset when a keepalive reply
/// *arrives* and looked at about once a second, so it fires after the server may have expired
/// the lease. The article's code never gives the lock up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum LocalDeadline {
    /// Believe the lock is held until the lock service says otherwise: a client cut off from
    /// the service goes on believing.
    Never {},
    /// Give the lock up once `ms` have passed by the client's clock since it *sent* the last
    /// request the service acknowledged (the acquire or the latest renewal): stop believing, stop
    /// the work, do not write.
    After { ms: Millis },
}

/// Whether a client does its job once or keeps coming back.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Repeat {
    Once {},
    /// Start the job again `interval_ms` after each one ends (load for chaos runs).
    Every {
        interval_ms: Millis,
    },
}

/// The parameters of one client, with the nodes it talks to resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientConfig {
    /// The client's own node.
    pub me: NodeId,
    pub protocol: Protocol,
    pub resource: NodeId,
    pub locking: Locking,
    pub ttl: Millis,
    pub work: Millis,
    pub access: Access,
    pub retry: RetryPolicy,
    pub release: ReleaseMethod,
    pub lease_check: LeaseCheck,
    pub renewal: Renewal,
    pub repeat: Repeat,
    pub timeout: RequestTimeout,
    pub local_deadline: LocalDeadline,
}

/// What the client believes about its lease while it holds one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LeaseBelief {
    pub token: Option<FencingToken>,
    pub value: LockValue,
    /// When the grant arrived, by the client's clock (the article's `acquiredAt`).
    pub acquired_at: LocalTime,
    /// When the last acknowledged request (acquire or renewal) was sent.
    pub confirmed_from: LocalTime,
    /// False once the client has abandoned the lock.
    pub held: bool,
    pub renewals_left: u32,
    renew_timer: Option<TimerId>,
    renew_sent_at: Option<LocalTime>,
    /// The timer that checks the local deadline, if the client has one.
    deadline_timer: Option<TimerId>,
}

/// Where the client is in its job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum ClientState {
    NotStarted,
    Acquiring {
        sent_at: LocalTime,
    },
    Backoff,
    Reading,
    Working {
        read: Option<ReadValue>,
    },
    /// Checked its lease and found it safe; the write follows after the gap.
    AboutToWrite {
        read: Option<ReadValue>,
    },
    Writing {
        read: Option<ReadValue>,
        timeout: Option<TimerId>,
    },
    Releasing {
        result: WorkResult,
    },
    Finished {
        result: WorkResult,
    },
    Crashed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReadValue {
    pub value: i64,
    pub version: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Client {
    pub config: ClientConfig,
    pub state: ClientState,
    pub lease: Option<LeaseBelief>,
    pub retries_left: u32,
    /// Further tries left for the access itself, after the first (optimistic retries, charge
    /// resends).
    pub tries_left: u32,
    acquisitions: u32,
    /// The one timer that watches requests for a timeout, if armed. It is not re-armed for every
    /// request: when it fires it checks `request_deadline` and, if a later request moved the
    /// deadline on, waits again. One live timer per client keeps the event queue small.
    request_timer: Option<TimerId>,
    /// When the request in flight times out (`None`: nothing awaited).
    request_deadline: Option<LocalTime>,
    /// The answers to the request sent to every Redlock node, and when to stop waiting.
    round: Round,
    round_timer: Option<TimerId>,
    /// The keepalive a waiting client sends while it has no lease yet.
    waiting_keepalive: Option<TimerId>,
    /// The timer that ends the job's current step (the work's end, or the moment to write), so
    /// that a client giving up by its deadline can call it off.
    step_timer: Option<TimerId>,
}

impl Client {
    pub fn new(config: ClientConfig) -> Client {
        let retries_left = match config.retry {
            RetryPolicy::GiveUp {} => 0,
            RetryPolicy::Fixed { attempts, .. } | RetryPolicy::Random { attempts, .. } => attempts,
        };
        let tries_left = match config.access {
            Access::OptimisticUpdate { attempts } | Access::Charge { attempts, .. } => {
                attempts.saturating_sub(1)
            }
            _ => 0,
        };
        Client {
            config,
            state: ClientState::NotStarted,
            lease: None,
            retries_left,
            tries_left,
            acquisitions: 0,
            request_timer: None,
            request_deadline: None,
            round: Round::default(),
            round_timer: None,
            waiting_keepalive: None,
            step_timer: None,
        }
    }

    /// Whether the client thinks the lock is its own right now. This is belief, not truth: the
    /// service may have handed the lock to someone else long ago.
    pub fn believes_it_holds_the_lock(&self) -> bool {
        self.lease.is_some_and(|l| l.held)
            && matches!(
                self.state,
                ClientState::Reading
                    | ClientState::Working { .. }
                    | ClientState::AboutToWrite { .. }
                    | ClientState::Writing { .. }
            )
    }

    /// The token the client would present now.
    pub fn token(&self) -> Option<FencingToken> {
        self.lease.and_then(|l| l.token)
    }

    /// What the lease has left by this client's clock, measured as `measure` says (negative:
    /// overdue); `None` if the client does not hold it. The article's `heldSafely()` is
    /// `time_left > margin`.
    pub fn time_left(&self, now: LocalTime, measure: SafetyClock) -> Option<i64> {
        let from = self.counted_from(measure)?;
        Some(self.config.ttl.as_i64() - now.since(from))
    }

    /// The moment on this client's clock its lease is counted from, measured as `measure` says;
    /// `None` if the client does not hold it.
    pub fn counted_from(&self, measure: SafetyClock) -> Option<LocalTime> {
        let lease = self.lease.filter(|l| l.held)?;
        Some(match measure {
            SafetyClock::FromAcquisition => lease.acquired_at,
            SafetyClock::FromLastRequest => lease.confirmed_from,
        })
    }

    /// The client's `heldSafely()` at `now`: its own lease check if it has one, else the
    /// article's (measured from the acquisition, with no margin).
    pub fn held_safely(&self, now: LocalTime) -> SafetyReading {
        let (margin, measure) = match self.config.lease_check {
            LeaseCheck::BeforeWrite {
                margin_ms, measure, ..
            } => (margin_ms, measure),
            LeaseCheck::Never {} => (Millis(0), SafetyClock::FromAcquisition),
        };
        SafetyReading {
            time_left: self.time_left(now, measure),
            margin,
            measure,
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, timer: TimerId, kind: TimerKind) -> Happening {
        let me = ctx.me;
        match (self.state, kind) {
            (ClientState::Finished { .. }, TimerKind::Start) => {
                let acquisitions = self.acquisitions;
                *self = Client::new(self.config);
                self.acquisitions = acquisitions;
                self.on_timer(ctx, timer, kind)
            }
            (ClientState::NotStarted, TimerKind::Start)
            | (ClientState::Backoff, TimerKind::Retry) => match self.config.locking {
                Locking::Lease => self.acquire(ctx),
                Locking::None => {
                    let next = self.start_access(ctx);
                    Happening::Started { client: me, next }
                }
            },
            (ClientState::Working { read }, TimerKind::WorkDone) => {
                self.step_timer = None;
                self.finish_work(ctx, read)
            }
            (ClientState::AboutToWrite { read }, TimerKind::WriteNow) => {
                self.step_timer = None;
                self.write(ctx, read, None)
            }
            (ClientState::Writing { read, timeout }, TimerKind::RequestTimeout)
                if timeout == Some(timer) =>
            {
                self.write_timed_out(ctx, read)
            }
            (state, TimerKind::RequestTimeout) if self.request_timer == Some(timer) => {
                self.request_timed_out(ctx, state)
            }
            (state, TimerKind::RoundTimeout) if self.round_timer == Some(timer) => {
                self.round_timer = None;
                self.round_complete(ctx, state)
            }
            (_, TimerKind::Renew) if self.lease.is_some_and(|l| l.renew_timer == Some(timer)) => {
                self.renew(ctx)
            }
            (_, TimerKind::LocalDeadline)
                if self.lease.is_some_and(|l| l.deadline_timer == Some(timer)) =>
            {
                self.deadline_due(ctx)
            }
            (ClientState::Acquiring { .. }, TimerKind::Renew)
                if self.waiting_keepalive == Some(timer) =>
            {
                self.keep_waiting_session_alive(ctx)
            }
            _ => Happening::Ignored {
                node: me,
                message: None,
            },
        }
    }

    /// A write went unanswered: sent again while tries are left, else the work ends with no
    /// answer.
    fn write_timed_out(&mut self, ctx: &mut Ctx<'_>, read: Option<ReadValue>) -> Happening {
        let me = ctx.me;
        if self.tries_left == 0 {
            self.conclude(ctx, WorkResult::NoAnswer);
            return Happening::TimedOut {
                client: me,
                next: self.after_giving_up(),
            };
        }
        self.tries_left -= 1;
        let happening = Happening::TimedOut {
            client: me,
            next: AfterTimeout::Resend {
                tries_left: self.tries_left,
            },
        };
        self.write(ctx, read, None);
        happening
    }

    /// The request timer: waits on if the deadline moved (by the local clock), else the request
    /// in flight (`state`'s) has gone unanswered.
    fn request_timed_out(&mut self, ctx: &mut Ctx<'_>, state: ClientState) -> Happening {
        let me = ctx.me;
        self.request_timer = None;
        match self.request_deadline {
            None => return Happening::Silent,
            Some(deadline) if ctx.local < deadline => {
                let wait = u64::try_from(deadline.since(ctx.local)).unwrap_or(0);
                self.request_timer =
                    Some(ctx.set_timer(TimerSpan::Fixed(Millis(wait)), TimerKind::RequestTimeout));
                return Happening::Silent;
            }
            Some(_) => self.request_deadline = None,
        }
        match state {
            ClientState::Acquiring { .. } => self.not_granted(ctx, NotGranted::Silence),
            ClientState::Releasing { result } => {
                self.finish(ctx, result);
                Happening::Finished {
                    client: me,
                    result,
                    released: false,
                }
            }
            _ => {
                self.conclude(ctx, WorkResult::NoAnswer);
                Happening::TimedOut {
                    client: me,
                    next: self.after_giving_up(),
                }
            }
        }
    }

    /// While it waits for the lock, the client keeps its session alive too (etcd's lease
    /// keepalive runs beside the Lock call).
    fn keep_waiting_session_alive(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        ctx.send_to_service(Payload::Renew {
            token: None,
            value: self.lock_value_now(),
            ttl: self.config.ttl,
        });
        self.waiting_keepalive = Some(self.schedule_renewal(ctx));
        Happening::Silent
    }

    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        let me = ctx.me;
        if let Protocol::Redlock(params) = self.config.protocol
            && let Some(yes) = self.counts_in_round(payload)
        {
            return self.node_answered(ctx, from, yes, params.nodes);
        }
        match (self.state, payload) {
            (ClientState::Acquiring { sent_at }, Payload::AcquireReply { value, reply })
                if value == self.lock_value_now() =>
            {
                self.acquire_answered(ctx, sent_at, reply)
            }
            (ClientState::Acquiring { .. }, Payload::RenewReply { .. }) if self.lease.is_none() => {
                Happening::Silent
            }
            (ClientState::Backoff, Payload::LockFreed) => {
                self.acquire(ctx);
                Happening::Woken { client: me }
            }
            (ClientState::Acquiring { .. }, Payload::NotLeader) => {
                self.answered();
                self.not_granted(ctx, NotGranted::NoLeader)
            }
            (ClientState::Releasing { result }, Payload::NotLeader) => {
                self.answered();
                self.finish(ctx, result);
                Happening::Finished {
                    client: me,
                    result,
                    released: false,
                }
            }
            (ClientState::Reading, Payload::ReadReply { value, version }) => {
                self.read_returned(ctx, ReadValue { value, version })
            }
            (ClientState::Writing { timeout, .. }, Payload::WriteReply(outcome)) => {
                self.write_answered(ctx, timeout, outcome)
            }
            (_, Payload::RenewReply { renewed })
                if self.lease.is_some_and(|l| l.renew_sent_at.is_some()) =>
            {
                self.renew_answered(ctx, renewed)
            }
            (ClientState::Releasing { result }, Payload::ReleaseReply { released }) => {
                self.answered();
                self.finish(ctx, result);
                Happening::Finished {
                    client: me,
                    result,
                    released,
                }
            }
            _ => ignored(ctx),
        }
    }

    /// The lock service answered this acquisition (sent at `sent_at`, by the local clock).
    fn acquire_answered(
        &mut self,
        ctx: &mut Ctx<'_>,
        sent_at: LocalTime,
        reply: AcquireReply,
    ) -> Happening {
        self.answered();
        match reply {
            AcquireReply::Granted { token } => {
                let next = self.take_lease(ctx, sent_at, token);
                Happening::GotLock {
                    client: ctx.me,
                    token,
                    next,
                }
            }
            AcquireReply::HeldElsewhere => self.not_granted(ctx, NotGranted::HeldElsewhere),
            AcquireReply::SessionExpired => self.not_granted(ctx, NotGranted::SessionExpired),
        }
    }

    /// A Redlock node answered this round: counted, and the round judged once every node has.
    fn node_answered(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        yes: bool,
        nodes: u8,
    ) -> Happening {
        self.round.record(yes);
        if self.round.answered < nodes {
            return Happening::NodeAnswered {
                client: ctx.me,
                node: from,
                yes,
                so_far: self.round.yes,
                of: nodes,
            };
        }
        if let Some(timer) = self.round_timer.take() {
            ctx.cancel_timer(timer);
        }
        self.round_complete(ctx, self.state)
    }

    /// The resource's value arrived: the client works on it for `work`.
    fn read_returned(&mut self, ctx: &mut Ctx<'_>, read: ReadValue) -> Happening {
        self.answered();
        self.step_timer =
            Some(ctx.set_timer(TimerSpan::Fixed(self.config.work), TimerKind::WorkDone));
        self.state = ClientState::Working { read: Some(read) };
        Happening::ReadReturned {
            client: ctx.me,
            value: read.value,
            version: read.version,
            work: self.config.work,
        }
    }

    /// The resource answered a write: an optimistic update whose version changed reads again
    /// (while tries are left); anything else ends the work.
    fn write_answered(
        &mut self,
        ctx: &mut Ctx<'_>,
        timeout: Option<TimerId>,
        outcome: WriteOutcome,
    ) -> Happening {
        let me = ctx.me;
        self.answered();
        if let Some(timer) = timeout {
            ctx.cancel_timer(timer);
        }
        // A locking client that gave its lock up by its deadline does not start the
        // read-modify-write again without it.
        let may_go_on = self.config.locking == Locking::None || self.lease.is_some();
        let retry_optimistic = matches!(self.config.access, Access::OptimisticUpdate { .. })
            && matches!(
                outcome,
                WriteOutcome::Rejected(Refusal::VersionChanged { .. })
            )
            && self.tries_left > 0
            && may_go_on;
        let token = self.token();
        if retry_optimistic {
            self.tries_left -= 1;
            self.read_resource(ctx);
            return Happening::WriteAnswered {
                client: me,
                token,
                outcome,
                then: Then::ReadsAgain,
            };
        }
        let then = match self.lease {
            Some(_) => Then::Releases,
            None => Then::Stops,
        };
        self.conclude(ctx, WorkResult::from_outcome(outcome));
        Happening::WriteAnswered {
            client: me,
            token,
            outcome,
            then,
        }
    }

    /// Whether `payload` is an answer to the round in progress, and if so whether it says yes.
    fn counts_in_round(&self, payload: Payload) -> Option<bool> {
        match (self.state, payload) {
            (ClientState::Acquiring { .. }, Payload::AcquireReply { value, reply })
                if value == self.lock_value_now() =>
            {
                Some(matches!(reply, AcquireReply::Granted { .. }))
            }
            (ClientState::Releasing { .. }, Payload::ReleaseReply { released }) => Some(released),
            (_, Payload::RenewReply { renewed })
                if self.lease.is_some_and(|l| l.renew_sent_at.is_some()) =>
            {
                Some(renewed)
            }
            _ => None,
        }
    }

    /// Every node answered, or the client stopped waiting: act on the round's answers.
    fn round_complete(&mut self, ctx: &mut Ctx<'_>, state: ClientState) -> Happening {
        let Protocol::Redlock(params) = self.config.protocol else {
            return Happening::Ignored {
                node: ctx.me,
                message: None,
            };
        };
        let round = std::mem::take(&mut self.round);
        match state {
            ClientState::Acquiring { sent_at } => self.decide(ctx, sent_at, params, round),
            ClientState::Releasing { result } => {
                self.finish(ctx, result);
                Happening::Finished {
                    client: ctx.me,
                    result,
                    released: round.yes > 0,
                }
            }
            _ if self.lease.is_some_and(|l| l.renew_sent_at.is_some()) => {
                self.renew_answered(ctx, round.yes >= params.quorum())
            }
            _ => Happening::Ignored {
                node: ctx.me,
                message: None,
            },
        }
    }

    /// Redlock's steps 3 and 4: the lock is acquired if a majority granted it and, with the
    /// elapsed-time check on, the acquisition took less than the lock's validity. Otherwise the
    /// client unlocks every node, even those it believes it did not lock (step 5), and retries.
    fn decide(
        &mut self,
        ctx: &mut Ctx<'_>,
        sent_at: LocalTime,
        params: RedlockParams,
        round: Round,
    ) -> Happening {
        let elapsed = ctx.local.since(sent_at);
        let validity = RedlockParams::validity(self.config.ttl, elapsed);
        let outcome = if round.yes < params.quorum() {
            RedlockOutcome::NoQuorum
        } else if params.elapsed_check == ElapsedCheck::On && validity <= 0 {
            RedlockOutcome::TooSlow
        } else {
            RedlockOutcome::Acquired
        };
        let mut retries_left = None;
        if outcome == RedlockOutcome::Acquired {
            self.take_lease(ctx, sent_at, None);
        } else {
            let value = self.lock_value_now();
            for node in 0..params.nodes {
                let release = Payload::Release {
                    token: None,
                    value,
                    method: ReleaseMethod::IfStillMine,
                };
                ctx.send(NodeId(u16::from(node)), release);
            }
            self.not_granted(ctx, NotGranted::HeldElsewhere);
            retries_left = matches!(self.state, ClientState::Backoff).then_some(self.retries_left);
        }
        Happening::RedlockDecided {
            client: ctx.me,
            yes: round.yes,
            of: params.nodes,
            elapsed,
            validity,
            outcome,
            retries_left,
        }
    }

    /// The lock was granted: remember the lease, start renewing it if configured, and begin the
    /// work. Returns what the client does first.
    fn take_lease(
        &mut self,
        ctx: &mut Ctx<'_>,
        sent_at: LocalTime,
        token: Option<FencingToken>,
    ) -> NextStep {
        if let Some(timer) = self.waiting_keepalive.take() {
            ctx.cancel_timer(timer);
        }
        let renew_timer = match self.config.renewal {
            Renewal::Every { .. } => Some(self.schedule_renewal(ctx)),
            Renewal::Never {} => None,
        };
        self.lease = Some(LeaseBelief {
            token,
            value: self.lock_value_now(),
            acquired_at: ctx.local,
            confirmed_from: sent_at,
            held: true,
            renewals_left: match self.config.renewal {
                Renewal::Every { max_renewals } => max_renewals,
                Renewal::Never {} => 0,
            },
            renew_timer,
            renew_sent_at: None,
            deadline_timer: None,
        });
        self.arm_deadline(ctx);
        self.start_access(ctx)
    }

    /// Sends a request about the lock to the lock service, or to every Redlock node (then the
    /// answers are counted in a round, and the client waits at most the node timeout).
    fn ask_lock_service(&mut self, ctx: &mut Ctx<'_>, payload: Payload) {
        match self.config.protocol {
            Protocol::Single | Protocol::Session => self.request(ctx, Peer::LockService, payload),
            Protocol::Redlock(params) => {
                for node in 0..params.nodes {
                    ctx.send(NodeId(u16::from(node)), payload);
                }
                self.round = Round::default();
                if let Some(timer) = self.round_timer.take() {
                    ctx.cancel_timer(timer);
                }
                self.round_timer = Some(ctx.set_timer(
                    TimerSpan::Fixed(params.node_timeout),
                    TimerKind::RoundTimeout,
                ));
            }
        }
    }

    /// What a timed-out client that just concluded its job does next.
    fn after_giving_up(&self) -> AfterTimeout {
        match self.state {
            ClientState::Releasing { .. } => AfterTimeout::Release,
            _ => AfterTimeout::Stop,
        }
    }

    /// Sends a request that expects an answer, arming the request timeout if the client has one.
    fn request(&mut self, ctx: &mut Ctx<'_>, to: Peer, payload: Payload) {
        match to {
            Peer::LockService => ctx.send_to_service(payload),
            Peer::Resource => ctx.send(self.config.resource, payload),
        }
        if let RequestTimeout::After { ms } = self.config.timeout {
            self.request_deadline = Some(ctx.local.after(ms));
            if self.request_timer.is_none() {
                self.request_timer =
                    Some(ctx.set_timer(TimerSpan::Fixed(ms), TimerKind::RequestTimeout));
            }
        }
    }

    /// The answer came: stop waiting for it (the timer, if armed, will find nothing to do).
    fn answered(&mut self) {
        self.request_deadline = None;
    }

    /// The lock was not granted (refused, or no answer): retry if the policy allows, else stop.
    fn not_granted(&mut self, ctx: &mut Ctx<'_>, why: NotGranted) -> Happening {
        let me = ctx.me;
        if let Some(timer) = self.waiting_keepalive.take() {
            ctx.cancel_timer(timer);
        }
        if self.retries_left == 0 {
            self.finish(
                ctx,
                match why {
                    NotGranted::HeldElsewhere => WorkResult::HeldElsewhere,
                    NotGranted::SessionExpired => WorkResult::SessionExpired,
                    NotGranted::Silence | NotGranted::NoLeader => WorkResult::NoAnswer,
                },
            );
            return match why {
                NotGranted::HeldElsewhere => Happening::GaveUp { client: me },
                NotGranted::SessionExpired => Happening::SessionExpired {
                    client: me,
                    retries_left: None,
                },
                NotGranted::Silence => Happening::TimedOut {
                    client: me,
                    next: AfterTimeout::GiveUp,
                },
                NotGranted::NoLeader => Happening::NoLeader {
                    client: me,
                    retries_left: None,
                },
            };
        }
        self.retries_left -= 1;
        let span = match self.config.retry {
            RetryPolicy::Fixed { delay_ms, .. } => TimerSpan::Fixed(delay_ms),
            RetryPolicy::Random { max_delay_ms, .. } => TimerSpan::Between(Millis(0), max_delay_ms),
            RetryPolicy::GiveUp {} => TimerSpan::Fixed(Millis(0)),
        };
        ctx.set_timer(span, TimerKind::Retry);
        self.state = ClientState::Backoff;
        let retries_left = self.retries_left;
        match why {
            NotGranted::HeldElsewhere => Happening::WillRetry {
                client: me,
                retries_left,
            },
            NotGranted::SessionExpired => Happening::SessionExpired {
                client: me,
                retries_left: Some(retries_left),
            },
            NotGranted::Silence => Happening::TimedOut {
                client: me,
                next: AfterTimeout::Retry { retries_left },
            },
            NotGranted::NoLeader => Happening::NoLeader {
                client: me,
                retries_left: Some(retries_left),
            },
        }
    }

    /// The value of the current acquisition attempt: unique per client and attempt.
    fn lock_value_now(&self) -> LockValue {
        LockValue((u64::from(self.config.me.0) << 32) | u64::from(self.acquisitions))
    }

    fn acquire(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        self.acquisitions += 1;
        let value = self.lock_value_now();
        self.ask_lock_service(
            ctx,
            Payload::Acquire {
                ttl: self.config.ttl,
                value,
            },
        );
        self.state = ClientState::Acquiring { sent_at: ctx.local };
        if self.config.protocol == Protocol::Session
            && matches!(self.config.renewal, Renewal::Every { .. })
            && self.waiting_keepalive.is_none()
        {
            self.waiting_keepalive = Some(self.schedule_renewal(ctx));
        }
        Happening::AskedForLock {
            client: ctx.me,
            ttl: self.config.ttl,
            nodes: match self.config.protocol {
                Protocol::Single | Protocol::Session => 1,
                Protocol::Redlock(params) => params.nodes,
            },
        }
    }

    /// Asks the resource for its value, presenting the lock's value as the claim (a
    /// check-and-set register remembers who read last).
    fn read_resource(&mut self, ctx: &mut Ctx<'_>) {
        self.request(
            ctx,
            Peer::Resource,
            Payload::Read {
                claim: self.lease.map(|l| l.value),
            },
        );
        self.state = ClientState::Reading;
    }

    /// Begins using the resource: read first, or go straight to work.
    fn start_access(&mut self, ctx: &mut Ctx<'_>) -> NextStep {
        match self.config.access {
            Access::ReadModifyWrite {} | Access::OptimisticUpdate { .. } => {
                self.read_resource(ctx);
                NextStep::Read
            }
            Access::BlindWrite { .. } | Access::Decrement { .. } | Access::Charge { .. } => {
                self.step_timer =
                    Some(ctx.set_timer(TimerSpan::Fixed(self.config.work), TimerKind::WorkDone));
                self.state = ClientState::Working { read: None };
                NextStep::Work(self.config.work)
            }
        }
    }

    /// The work is done: give up if the local deadline has passed (its timer may not have been
    /// handled yet, after a pause), check the lease if configured, then write.
    fn finish_work(&mut self, ctx: &mut Ctx<'_>, read: Option<ReadValue>) -> Happening {
        if self.deadline_passed(ctx.local) {
            return self.give_up_by_deadline(ctx);
        }
        let LeaseCheck::BeforeWrite { gap_ms, .. } = self.config.lease_check else {
            return self.write(ctx, read, None);
        };
        if self.config.locking == Locking::None {
            return self.write(ctx, read, None);
        }
        let reading = self.held_safely(ctx.local);
        let margin_ms = reading.margin;
        match reading.time_left {
            Some(left) if reading.is_safe() => {
                if gap_ms.0 == 0 {
                    return self.write(ctx, read, Some(left));
                }
                self.step_timer =
                    Some(ctx.set_timer(TimerSpan::Fixed(gap_ms), TimerKind::WriteNow));
                self.state = ClientState::AboutToWrite { read };
                Happening::LeaseChecked {
                    client: ctx.me,
                    time_left: left,
                    margin: margin_ms,
                    write_in: gap_ms,
                }
            }
            left => {
                self.conclude(ctx, WorkResult::NotHeldSafely);
                Happening::WriteSkipped {
                    client: ctx.me,
                    time_left: left,
                    margin: margin_ms,
                }
            }
        }
    }

    fn write(
        &mut self,
        ctx: &mut Ctx<'_>,
        read: Option<ReadValue>,
        checked: Option<i64>,
    ) -> Happening {
        let token = self.token();
        let mut timeout = None;
        let (payload, value) = match self.config.access {
            Access::BlindWrite { value } => (
                Payload::Write(WriteRequest {
                    token,
                    value,
                    basis: WriteBasis::Blind,
                    lock: self.lease.map(|l| l.value),
                }),
                value,
            ),
            Access::ReadModifyWrite {} | Access::OptimisticUpdate { .. } => {
                let value = read.map_or(1, |r| r.value.saturating_add(1));
                let basis = match (self.config.access, read) {
                    (Access::OptimisticUpdate { .. }, Some(r)) => WriteBasis::IfVersion(r.version),
                    (_, Some(r)) => WriteBasis::ReadAt(r.version),
                    (_, None) => WriteBasis::Blind,
                };
                (
                    Payload::Write(WriteRequest {
                        token,
                        value,
                        basis,
                        lock: self.lease.map(|l| l.value),
                    }),
                    value,
                )
            }
            Access::Decrement { amount } => (Payload::Decrement { token, amount }, amount),
            Access::Charge {
                key,
                amount,
                timeout_ms,
                ..
            } => {
                timeout =
                    Some(ctx.set_timer(TimerSpan::Fixed(timeout_ms), TimerKind::RequestTimeout));
                (Payload::Charge { key, amount }, amount)
            }
        };
        if timeout.is_some() {
            ctx.send(self.config.resource, payload);
        } else {
            self.request(ctx, Peer::Resource, payload);
        }
        self.state = ClientState::Writing { read, timeout };
        let request = match payload {
            Payload::Decrement { .. } => Request::Order,
            Payload::Charge { .. } => Request::Charge,
            _ => Request::Write,
        };
        Happening::WriteSent {
            client: ctx.me,
            request,
            token,
            value,
            checked,
        }
    }

    /// Ends the job with `result`: release the lock in `finally` if there is one.
    fn conclude(&mut self, ctx: &mut Ctx<'_>, result: WorkResult) -> Happening {
        let Some(lease) = self.lease.take() else {
            self.finish(ctx, result);
            return Happening::Finished {
                client: ctx.me,
                result,
                released: false,
            };
        };
        forget_timers(ctx, lease);
        self.ask_lock_service(
            ctx,
            Payload::Release {
                token: lease.token,
                value: lease.value,
                method: self.config.release,
            },
        );
        self.state = ClientState::Releasing { result };
        Happening::Releasing {
            client: ctx.me,
            token: lease.token,
            method: self.config.release,
        }
    }

    /// The job is over; come back later if the client repeats.
    fn finish(&mut self, ctx: &mut Ctx<'_>, result: WorkResult) {
        self.state = ClientState::Finished { result };
        if let Repeat::Every { interval_ms } = self.config.repeat {
            ctx.set_timer(TimerSpan::Fixed(interval_ms), TimerKind::Start);
        }
    }

    /// Every TTL/3, and at least every millisecond (a TTL of 1 or 2 ms has TTL/3 = 0).
    fn schedule_renewal(&self, ctx: &mut Ctx<'_>) -> TimerId {
        ctx.set_timer(
            TimerSpan::Fixed(Millis((self.config.ttl.0 / 3).max(1))),
            TimerKind::Renew,
        )
    }

    /// The renewal interval fired: renew, or abandon when renewals have run out.
    fn renew(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        let Some(mut lease) = self.lease else {
            return Happening::Ignored {
                node: ctx.me,
                message: None,
            };
        };
        if lease.renewals_left == 0 {
            lease.renew_timer = None;
            forget_timers(ctx, lease);
            lease.held = false;
            lease.deadline_timer = None;
            self.lease = Some(lease);
            return Happening::Abandoned {
                client: ctx.me,
                reason: AbandonReason::MaximumHoldTime,
            };
        }
        let renew = Payload::Renew {
            token: lease.token,
            value: lease.value,
            ttl: self.config.ttl,
        };
        // A single service's renewal runs beside the work's own request; it arms no timeout of
        // its own, so as not to disturb that request's.
        match self.config.protocol {
            Protocol::Single | Protocol::Session => ctx.send_to_service(renew),
            Protocol::Redlock(_) => self.ask_lock_service(ctx, renew),
        }
        lease.renew_sent_at = Some(ctx.local);
        lease.renew_timer = Some(self.schedule_renewal(ctx));
        self.lease = Some(lease);
        Happening::RenewSent {
            client: ctx.me,
            token: lease.token,
        }
    }

    fn renew_answered(&mut self, ctx: &mut Ctx<'_>, renewed: bool) -> Happening {
        let Some(mut lease) = self.lease else {
            return Happening::Ignored {
                node: ctx.me,
                message: None,
            };
        };
        let sent_at = lease.renew_sent_at.take();
        if renewed && lease.held {
            lease.renewals_left = lease.renewals_left.saturating_sub(1);
            lease.confirmed_from = sent_at.unwrap_or(lease.confirmed_from);
            self.lease = Some(lease);
            return Happening::RenewAnswered {
                client: ctx.me,
                renewals_left: lease.renewals_left,
                lease_until: lease.confirmed_from.after(self.config.ttl),
            };
        }
        forget_timers(ctx, lease);
        lease.renew_timer = None;
        lease.deadline_timer = None;
        let was_held = lease.held;
        lease.held = false;
        self.lease = Some(lease);
        if was_held {
            Happening::Abandoned {
                client: ctx.me,
                reason: AbandonReason::RenewalRefused,
            }
        } else {
            Happening::Ignored {
                node: ctx.me,
                message: ctx.input,
            }
        }
    }

    /// Whether the local deadline has passed by the client's clock at `now`, while it still
    /// believes it holds the lock.
    ///
    /// The deadline counts from when the last acknowledged request was *sent*, not from when its
    /// answer arrived. The service started or extended the lease when it handled that request,
    /// which was after the client sent it; so, with clocks that run at the same rate, the
    /// service's lease lasts at least until `sent + ttl`, and a deadline of at most the TTL from
    /// the send passes no later than the service's expiry. Counting from the answer's arrival (as
    /// etcd's Go client sets its keepalive deadline, `now + TTL` on each response) adds the
    /// answer's transit time, during which the client may believe in a lease the service has
    /// already expired. Clocks that drift call for a deadline shorter than the TTL by the drift
    /// (Chubby's conservative local lease estimate).
    fn deadline_passed(&self, now: LocalTime) -> bool {
        let LocalDeadline::After { ms } = self.config.local_deadline else {
            return false;
        };
        self.lease
            .is_some_and(|l| l.held && now.since(l.confirmed_from) >= ms.as_i64())
    }

    /// Arms the deadline's timer for when the deadline falls, counted from the last acknowledged
    /// request. One timer per lease: a renewal moves the deadline on without re-arming it, and
    /// the timer, when it fires early, waits again for the rest (as the request timeout does).
    fn arm_deadline(&mut self, ctx: &mut Ctx<'_>) {
        let LocalDeadline::After { ms } = self.config.local_deadline else {
            return;
        };
        let Some(lease) = self.lease.as_mut() else {
            return;
        };
        let due = lease.confirmed_from.after(ms);
        let wait = u64::try_from(due.since(ctx.local)).unwrap_or(0);
        lease.deadline_timer =
            Some(ctx.set_timer(TimerSpan::Fixed(Millis(wait)), TimerKind::LocalDeadline));
    }

    /// The deadline's timer fired: give up if the deadline has passed, else wait for the rest.
    fn deadline_due(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        if let Some(lease) = self.lease.as_mut() {
            lease.deadline_timer = None;
        }
        if self.deadline_passed(ctx.local) {
            return self.give_up_by_deadline(ctx);
        }
        self.arm_deadline(ctx);
        Happening::Silent
    }

    /// No renewal was acknowledged within the local deadline: the client stops believing it holds
    /// the lock and stops renewing. If its write has not gone out, it stops the work and ends the
    /// job without writing; a write already sent cannot be called back. It sends no release: by
    /// its own reckoning the lease is over.
    fn give_up_by_deadline(&mut self, ctx: &mut Ctx<'_>) -> Happening {
        let (Some(lease), LocalDeadline::After { ms }) =
            (self.lease.take(), self.config.local_deadline)
        else {
            return Happening::Ignored {
                node: ctx.me,
                message: None,
            };
        };
        forget_timers(ctx, lease);
        let cut = if matches!(self.state, ClientState::Writing { .. }) {
            DeadlineCut::WriteInFlight
        } else {
            if let Some(timer) = self.step_timer.take() {
                ctx.cancel_timer(timer);
            }
            self.answered();
            self.finish(ctx, WorkResult::DeadlinePassed);
            DeadlineCut::Work
        };
        Happening::DeadlinePassed {
            client: ctx.me,
            since: lease.confirmed_from,
            deadline: ms,
            cut,
        }
    }

    /// A crash loses everything the process had in memory, including its belief.
    pub fn crash(&mut self) {
        self.lease = None;
        self.state = ClientState::Crashed;
    }

    /// A restarted client begins its job again from the start.
    pub fn restart(&mut self, ctx: &mut Ctx<'_>) {
        let acquisitions = self.acquisitions;
        *self = Client::new(self.config);
        self.acquisitions = acquisitions;
        ctx.set_timer(TimerSpan::Fixed(Millis(0)), TimerKind::Start);
    }
}

/// Cancels the timers that belong to a lease the client is letting go of.
fn forget_timers(ctx: &mut Ctx<'_>, lease: LeaseBelief) {
    for timer in [lease.renew_timer, lease.deadline_timer]
        .into_iter()
        .flatten()
    {
        ctx.cancel_timer(timer);
    }
}

/// Whom a client sends a request to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Peer {
    /// The lock service, wherever it currently answers (the engine routes it: to the single
    /// node, or to the current primary or leader of a replicated service).
    LockService,
    Resource,
}

/// Why the lock was not granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum NotGranted {
    HeldElsewhere,
    /// A consensus service answered a waiter whose session had expired while it waited.
    SessionExpired,
    Silence,
    /// The node the request reached was not the leader (an election may be under way).
    NoLeader,
}

#[cfg(test)]
mod tests;
