//! Clients: processes that take the lock, do their work, and write to the resource.
//!
//! The flow is the seed's `performGuardedWork`: acquire → apply the payload with the token →
//! release in `finally`, reporting "lock held elsewhere", "fenced" or done. A client *believes* it
//! holds the lock from the grant until it sends its release; nothing in this flow re-checks the
//! lease, which is exactly why a paused client wakes up and writes as if nothing happened.

use crate::happening::{Happening, WorkResult};
use crate::ids::{NodeId, TimerId};
use crate::message::{AcquireReply, Payload, Refusal, WriteOutcome, WriteRequest};
use crate::node::{Ctx, TimerKind, TimerSpan, ignored};
use crate::time::Millis;
use crate::token::FencingToken;
use serde::{Deserialize, Serialize};

/// What the client does with the resource while it holds the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum Access {
    /// Read the value, work, then write `value + 1` back (a lost update waiting to happen).
    ReadModifyWrite,
    /// Work, then write a fixed value without reading first.
    BlindWrite { value: i64 },
}

/// What the client does after "lock held elsewhere".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind")]
pub enum RetryPolicy {
    /// Report "lock held elsewhere" and stop, as `performGuardedWork` does.
    GiveUp,
    /// Try again after exactly `delay_ms`, at most `attempts` more times.
    Fixed { delay_ms: Millis, attempts: u32 },
    /// Try again after a delay drawn uniformly from `0..=max_delay_ms`, at most `attempts` times.
    Random { max_delay_ms: Millis, attempts: u32 },
}

/// The parameters of one client, with the nodes it talks to resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClientConfig {
    pub service: NodeId,
    pub resource: NodeId,
    pub ttl: Millis,
    pub work: Millis,
    pub access: Access,
    pub retry: RetryPolicy,
}

/// Where the client is in its job.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "state")]
pub enum ClientState {
    NotStarted,
    Acquiring,
    Reading {
        token: Option<FencingToken>,
    },
    Working {
        token: Option<FencingToken>,
        read: Option<ReadValue>,
        timer: TimerId,
    },
    Writing {
        token: Option<FencingToken>,
    },
    Releasing {
        token: Option<FencingToken>,
        result: WorkResult,
    },
    Backoff {
        timer: TimerId,
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
    pub retries_left: u32,
}

impl Client {
    pub fn new(config: ClientConfig) -> Client {
        let retries_left = match config.retry {
            RetryPolicy::GiveUp => 0,
            RetryPolicy::Fixed { attempts, .. } | RetryPolicy::Random { attempts, .. } => attempts,
        };
        Client {
            config,
            state: ClientState::NotStarted,
            retries_left,
        }
    }

    /// Whether the client thinks the lock is its own right now. This is belief, not truth: the
    /// service may have handed the lock to someone else long ago.
    pub fn believes_it_holds_the_lock(&self) -> bool {
        matches!(
            self.state,
            ClientState::Reading { .. } | ClientState::Working { .. } | ClientState::Writing { .. }
        )
    }

    /// The token the client would present now, if it holds (or believes it holds) one.
    pub fn token(&self) -> Option<FencingToken> {
        match self.state {
            ClientState::Reading { token }
            | ClientState::Working { token, .. }
            | ClientState::Writing { token }
            | ClientState::Releasing { token, .. } => token,
            _ => None,
        }
    }

    pub fn on_timer(&mut self, ctx: &mut Ctx<'_>, kind: TimerKind) -> Happening {
        let me = ctx.me;
        match (self.state, kind) {
            (ClientState::NotStarted, TimerKind::Start)
            | (ClientState::Backoff { .. }, TimerKind::Retry) => {
                ctx.send(
                    self.config.service,
                    Payload::Acquire {
                        ttl: self.config.ttl,
                    },
                );
                self.state = ClientState::Acquiring;
                Happening::AskedForLock {
                    client: me,
                    ttl: self.config.ttl,
                }
            }
            (ClientState::Working { token, read, .. }, TimerKind::WorkDone) => {
                let request = match (self.config.access, read) {
                    (Access::BlindWrite { value }, _) => WriteRequest {
                        token,
                        value,
                        based_on: None,
                    },
                    (Access::ReadModifyWrite, read) => WriteRequest {
                        token,
                        value: read.map_or(1, |r| r.value.saturating_add(1)),
                        based_on: read.map(|r| r.version),
                    },
                };
                ctx.send(self.config.resource, Payload::Write(request));
                self.state = ClientState::Writing { token };
                Happening::WriteSent {
                    client: me,
                    token,
                    value: request.value,
                }
            }
            _ => Happening::Ignored {
                node: me,
                payload: None,
            },
        }
    }

    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, payload: Payload) -> Happening {
        let me = ctx.me;
        match (self.state, payload) {
            (ClientState::Acquiring, Payload::AcquireReply(AcquireReply::Granted { token })) => {
                let next = match self.config.access {
                    Access::ReadModifyWrite => {
                        ctx.send(self.config.resource, Payload::Read);
                        self.state = ClientState::Reading { token };
                        NextStep::Read
                    }
                    Access::BlindWrite { .. } => {
                        self.start_work(ctx, token, None);
                        NextStep::Work(self.config.work)
                    }
                };
                Happening::GotLock {
                    client: me,
                    token,
                    next,
                }
            }
            (ClientState::Acquiring, Payload::AcquireReply(AcquireReply::HeldElsewhere)) => {
                if self.retries_left == 0 {
                    self.state = ClientState::Finished {
                        result: WorkResult::HeldElsewhere,
                    };
                    return Happening::GaveUp { client: me };
                }
                self.retries_left -= 1;
                let span = match self.config.retry {
                    RetryPolicy::Fixed { delay_ms, .. } => TimerSpan::Fixed(delay_ms),
                    RetryPolicy::Random { max_delay_ms, .. } => {
                        TimerSpan::Between(Millis(0), max_delay_ms)
                    }
                    RetryPolicy::GiveUp => TimerSpan::Fixed(Millis(0)),
                };
                let timer = ctx.set_timer(span, TimerKind::Retry);
                self.state = ClientState::Backoff { timer };
                Happening::WillRetry {
                    client: me,
                    retries_left: self.retries_left,
                }
            }
            (ClientState::Reading { token }, Payload::ReadReply { value, version }) => {
                self.start_work(ctx, token, Some(ReadValue { value, version }));
                Happening::ReadReturned {
                    client: me,
                    value,
                    version,
                    work: self.config.work,
                }
            }
            (ClientState::Writing { token }, Payload::WriteReply(outcome)) => {
                let result = match outcome {
                    WriteOutcome::Accepted { .. } => WorkResult::Done,
                    WriteOutcome::Rejected(Refusal::StaleToken {
                        presented,
                        required,
                    }) => WorkResult::Fenced {
                        presented,
                        required,
                    },
                    WriteOutcome::Rejected(Refusal::NoToken) => WorkResult::NoToken,
                };
                ctx.send(self.config.service, Payload::Release { token });
                self.state = ClientState::Releasing { token, result };
                Happening::WriteAnswered {
                    client: me,
                    token,
                    outcome,
                }
            }
            (ClientState::Releasing { result, .. }, Payload::ReleaseReply { released }) => {
                self.state = ClientState::Finished { result };
                Happening::Finished {
                    client: me,
                    result,
                    released,
                }
            }
            (_, other) => ignored(me, other),
        }
    }

    fn start_work(
        &mut self,
        ctx: &mut Ctx<'_>,
        token: Option<FencingToken>,
        read: Option<ReadValue>,
    ) {
        let timer = ctx.set_timer(TimerSpan::Fixed(self.config.work), TimerKind::WorkDone);
        self.state = ClientState::Working { token, read, timer };
    }

    /// A crash loses everything the process had in memory, including its belief.
    pub fn crash(&mut self) {
        self.state = ClientState::Crashed;
    }

    /// A restarted client begins its job again from the start.
    pub fn restart(&mut self, ctx: &mut Ctx<'_>) {
        *self = Client::new(self.config);
        ctx.set_timer(TimerSpan::Fixed(Millis(0)), TimerKind::Start);
    }
}

/// What a client does right after it gets the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NextStep {
    Read,
    Work(Millis),
}
