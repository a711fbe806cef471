//! What happened in one event, in the domain's own terms.
//!
//! Every handled input produces exactly one `Happening`. It carries the facts the invariant checker
//! needs and the facts the narration needs, and nothing else: it is plain data, cheap to copy, so
//! a run of millions of events allocates nothing per event. The words come later (`describe`).

use crate::vocabulary::loss::Loss;
use crate::vocabulary::message::{Refusal, ReleaseMethod, WriteOutcome};
use crate::vocabulary::next_step::NextStep;
use crate::vocabulary::raft::Op;
use crate::vocabulary::timer::TimerKind;
use crate::vocabulary::unseen_updates::UnseenUpdates;
use crate::world::ids::{MessageId, NodeId, TimerId};
use crate::world::time::{LocalTime, Millis, VirtualTime};
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};

/// How a client's job ended, in the article's words where it has them: done, "lock held
/// elsewhere", "fenced". `ResultKind` — the same without the details, what a scenario's `result`
/// expectation names — is derived from it, so the two cannot drift apart; its names are the
/// trace format's `result` tags.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, strum::EnumDiscriminants)]
#[serde(rename_all = "snake_case", tag = "result")]
#[strum_discriminants(
    name(ResultKind),
    derive(Serialize, Deserialize, strum::IntoStaticStr),
    serde(rename_all = "snake_case"),
    strum(serialize_all = "snake_case")
)]
pub enum WorkResult {
    Done,
    HeldElsewhere,
    Fenced {
        presented: FencingToken,
        required: FencingToken,
    },
    NoToken,
    /// The lease check before the write failed, so the client did not write.
    NotHeldSafely,
    /// Optimistic concurrency kept finding the row changed, and the attempts ran out.
    Conflict,
    SoldOut,
    /// No answer came, however often the request was sent.
    NoAnswer,
    /// A check-and-set resource had been claimed by another lock holder.
    ClaimedByAnother,
    /// The lock service said the token was no longer the writer's live lease.
    SequencerInvalid {
        presented: FencingToken,
    },
    /// The client's own deadline passed with no renewal acknowledged, so it stopped before
    /// writing.
    DeadlinePassed,
    /// It waited in a consensus service's queue, and its session expired before its turn came.
    SessionExpired,
}

impl WorkResult {
    pub fn from_outcome(outcome: WriteOutcome) -> WorkResult {
        match outcome {
            WriteOutcome::Accepted { .. } | WriteOutcome::Replayed { .. } => WorkResult::Done,
            WriteOutcome::Rejected(Refusal::StaleToken {
                presented,
                required,
            }) => WorkResult::Fenced {
                presented,
                required,
            },
            WriteOutcome::Rejected(Refusal::NoToken) => WorkResult::NoToken,
            WriteOutcome::Rejected(Refusal::VersionChanged { .. }) => WorkResult::Conflict,
            WriteOutcome::Rejected(Refusal::SoldOut { .. }) => WorkResult::SoldOut,
            WriteOutcome::Rejected(Refusal::ClaimedByAnother) => WorkResult::ClaimedByAnother,
            WriteOutcome::Rejected(Refusal::SequencerInvalid { presented }) => {
                WorkResult::SequencerInvalid { presented }
            }
        }
    }
}

impl ResultKind {
    /// The name used in scenario files and traces.
    pub fn name(self) -> &'static str {
        self.into()
    }
}

impl WorkResult {
    pub fn kind(self) -> ResultKind {
        self.into()
    }
}

/// Why a client gave up a lock it had.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AbandonReason {
    /// Renewals ran out (the article's "maximum hold time exceeded").
    MaximumHoldTime,
    /// The service refused a renewal: the lease was gone.
    RenewalRefused,
}

/// What a client's local deadline cut short when it passed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DeadlineCut {
    /// The work (or the read before it): the client stops and ends its job without writing.
    Work,
    /// Nothing: its write had already gone out, and a sent message cannot be called back.
    WriteInFlight,
}

/// How a Redlock acquisition came out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RedlockOutcome {
    Acquired,
    /// Fewer than a majority of the nodes granted the lock.
    NoQuorum,
    /// A majority granted it, but the acquisition took longer than the lock's validity.
    TooSlow,
}

/// Why a replica ignored a call for an election.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Withheld {
    /// It leads, and a majority answered its heartbeats within an election timeout.
    Leading,
    /// It heard from its leader less than an election timeout ago.
    LeaderHeard,
}

/// Why a consensus leader stopped leading.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StepDown {
    /// It has not heard from a majority for an election timeout ("check quorum").
    LostQuorum,
    /// Another replica spoke of a later term: an election it was not part of, or a newer leader.
    LaterTerm,
}

/// What a client does after its write is answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Then {
    Releases,
    Stops,
    ReadsAgain,
}

/// What a client asks of the resource.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    #[default]
    Write,
    Order,
    Charge,
}

/// What a client does when an answer does not come in time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "next")]
pub enum AfterTimeout {
    /// Sends the same request again.
    Resend {
        tries_left: u32,
    },
    /// Tries to acquire again later.
    Retry {
        retries_left: u32,
    },
    GiveUp,
    /// Gives up on the job and releases the lock.
    Release,
    Stop,
}

/// An input a node could not handle when it came.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Input {
    Message(MessageId),
    Timer(TimerId, TimerKind),
}

/// Which way a partition cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Direction {
    /// Messages from the first node to the second are lost; the other way still works.
    OneWay,
    Both,
}

/// Why an intervention changed nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoEffect {
    AlreadyPaused,
    NotPaused,
    AlreadyCrashed,
    NotCrashed,
    NoSuchMessage,
    MessageNotInFlight,
    MessageNotHeld,
    NoLiveLease,
    NoReplica,
}

#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
    strum::VariantNames,
)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[strum(serialize_all = "snake_case")]
pub enum Happening {
    // Clients.
    AskedForLock {
        client: NodeId,
        ttl: Millis,
        /// How many nodes the client asked: 1, or every Redlock node.
        nodes: u8,
    },
    Started {
        client: NodeId,
        next: NextStep,
    },
    GotLock {
        client: NodeId,
        token: Option<FencingToken>,
        next: NextStep,
    },
    WillRetry {
        client: NodeId,
        retries_left: u32,
    },
    GaveUp {
        client: NodeId,
    },
    /// A waiting client is told its session expired before its turn came, so it never held the
    /// lock: retry later (`None`: no retries left).
    SessionExpired {
        client: NodeId,
        retries_left: Option<u32>,
    },
    /// The lock service answered "not the leader": retry later (`None`: no retries left).
    NoLeader {
        client: NodeId,
        retries_left: Option<u32>,
    },
    ReadReturned {
        client: NodeId,
        value: i64,
        version: u64,
        work: Millis,
    },
    LeaseChecked {
        client: NodeId,
        time_left: i64,
        margin: Millis,
        write_in: Millis,
    },
    WriteSkipped {
        client: NodeId,
        time_left: Option<i64>,
        margin: Millis,
    },
    WriteSent {
        client: NodeId,
        request: Request,
        token: Option<FencingToken>,
        /// The value written, the amount ordered, or the amount charged.
        value: i64,
        /// The time left by the client's own lease check just before, if it checked.
        checked: Option<i64>,
    },
    TimedOut {
        client: NodeId,
        next: AfterTimeout,
    },
    WriteAnswered {
        client: NodeId,
        token: Option<FencingToken>,
        outcome: WriteOutcome,
        then: Then,
    },
    /// One Redlock node answered a request sent to all of them.
    NodeAnswered {
        client: NodeId,
        node: NodeId,
        yes: bool,
        so_far: u8,
        of: u8,
    },
    /// A Redlock client counted its answers and decided.
    RedlockDecided {
        client: NodeId,
        yes: u8,
        of: u8,
        elapsed: i64,
        validity: i64,
        outcome: RedlockOutcome,
        /// When the lock was not acquired: the retries left, or `None` if the client gives up.
        retries_left: Option<u32>,
    },
    RenewSent {
        client: NodeId,
        token: Option<FencingToken>,
    },
    RenewAnswered {
        client: NodeId,
        renewals_left: u32,
        /// Until when the client reckons the renewed lease lasts, by its own clock: a TTL from
        /// when it sent the renewal.
        lease_until: LocalTime,
    },
    Abandoned {
        client: NodeId,
        reason: AbandonReason,
    },
    /// No renewal was acknowledged within the client's local deadline, counted by its own clock
    /// from `since` (when it sent the last acknowledged request): it gives the lock up.
    DeadlinePassed {
        client: NodeId,
        since: LocalTime,
        deadline: Millis,
        cut: DeadlineCut,
    },
    Releasing {
        client: NodeId,
        token: Option<FencingToken>,
        method: ReleaseMethod,
    },
    Finished {
        client: NodeId,
        result: WorkResult,
        released: bool,
    },
    // The lock service.
    Granted {
        client: NodeId,
        token: Option<FencingToken>,
        ttl: Millis,
    },
    Refused {
        client: NodeId,
        holder: Option<NodeId>,
    },
    Renewed {
        client: NodeId,
        token: Option<FencingToken>,
        ttl: Millis,
    },
    RenewRefused {
        client: NodeId,
        token: Option<FencingToken>,
        holder: Option<NodeId>,
    },
    Released {
        client: NodeId,
        token: Option<FencingToken>,
    },
    /// A plain `DEL` removed a lock that belonged to someone else.
    ReleasedOthersLock {
        client: NodeId,
        owner: NodeId,
    },
    ReleaseRefused {
        client: NodeId,
        token: Option<FencingToken>,
        holder: Option<NodeId>,
    },
    LeaseExpired {
        holder: NodeId,
        token: Option<FencingToken>,
    },
    /// A primary shipped its changes to its replica; `holder` is who the shipped key names.
    Shipped {
        node: NodeId,
        to: NodeId,
        holder: Option<NodeId>,
    },
    /// A replica applied what its primary shipped; `holder` is who the key names now.
    Replicated {
        node: NodeId,
        from: NodeId,
        holder: Option<NodeId>,
    },
    /// The monitor promoted `to` in place of the primary `from`. `lost` is the holder of a lock
    /// the old primary had and the new one never received.
    FailedOver {
        from: NodeId,
        to: NodeId,
        lost: Option<NodeId>,
    },
    /// A consensus leader appended an entry to its log and sent it to the followers.
    Appended {
        node: NodeId,
        index: u32,
        op: Op,
    },
    /// A follower stored the leader's entry.
    Stored {
        node: NodeId,
        index: u32,
        leader: NodeId,
    },
    /// A replica learned that entries up to `index` are committed.
    Committed {
        node: NodeId,
        index: u32,
    },
    /// A client waits in the leader's queue: `ahead` others before it; `until` the lock-delay.
    Queued {
        node: NodeId,
        client: NodeId,
        ahead: u32,
        until: Option<LocalTime>,
    },
    NotLeader {
        node: NodeId,
        client: NodeId,
    },
    /// Herd mode: the client was refused and now watches the lock, with `watchers` in all.
    Watching {
        node: NodeId,
        client: NodeId,
        watchers: u32,
    },
    /// Herd mode: the release woke every watcher at once.
    HerdWoken {
        node: NodeId,
        woken: u32,
    },
    /// A waiter's turn came, but its key had gone with its expired session: its `Lock` call
    /// fails ("session expired") instead of granting it the lock (the etcd fix, PR #11408).
    WaiterExpired {
        node: NodeId,
        client: NodeId,
    },
    /// The bug of etcd 3.4.x (fixed in 3.5.0): a waiter whose key had gone with its expired
    /// session was told it holds the lock, with `token`, the create revision of the key it had
    /// put.
    GrantedWithoutLease {
        node: NodeId,
        client: NodeId,
        token: FencingToken,
    },
    /// A watching client heard the lock was freed and asks again.
    Woken {
        client: NodeId,
    },
    ElectionStarted {
        node: NodeId,
        term: u32,
    },
    Voted {
        node: NodeId,
        candidate: NodeId,
        term: u32,
        granted: bool,
    },
    BecameLeader {
        node: NodeId,
        term: u32,
    },
    /// A replica that heard from its leader less than an election timeout ago ignored a call
    /// for an election (Raft's leader stickiness, etcd's check-quorum): it does not help depose
    /// a leader that may still be answering for the lock.
    VoteWithheld {
        node: NodeId,
        candidate: NodeId,
        term: u32,
        why: Withheld,
    },
    /// A new leader's first entry of its own term committed, and with it everything before:
    /// only now does it know which keys and sessions are live, and it starts answering for the
    /// lock (etcd promotes its lessor here). Every session starts afresh with its full TTL.
    Serving {
        node: NodeId,
        term: u32,
    },
    /// A leader that does not serve yet (its first entry has not committed) left a client's
    /// keepalive or release unanswered: its state may still show what a committed entry undid.
    NotServingYet {
        node: NodeId,
        client: NodeId,
    },
    SteppedDown {
        node: NodeId,
        term: u32,
        why: StepDown,
    },
    /// Internal bookkeeping (a heartbeat, a timer re-armed): never recorded in the trace.
    Silent,
    // The resource.
    ReadServed {
        reader: NodeId,
        value: i64,
        version: u64,
    },
    WriteAccepted {
        writer: NodeId,
        token: Option<FencingToken>,
        value: i64,
        version: u64,
        overwrote_unseen: Option<UnseenUpdates>,
    },
    WriteRejected {
        writer: NodeId,
        refusal: Refusal,
    },
    /// The resource holds a write and asks the lock service whether its token is still live.
    SequencerAsked {
        writer: NodeId,
        token: FencingToken,
    },
    /// The lock service answered a resource's sequencer check.
    SequencerAnswered {
        writer: NodeId,
        token: FencingToken,
        valid: bool,
    },
    StockTaken {
        buyer: NodeId,
        token: Option<FencingToken>,
        amount: i64,
        left: i64,
    },
    ChargeApplied {
        payer: NodeId,
        key: u32,
        amount: i64,
        times: u32,
    },
    ChargeReplayed {
        payer: NodeId,
        key: u32,
    },
    // Inputs that met a node unable to take them.
    /// A node had no use for an input: `message` if it was a message, `None` for a timer.
    Ignored {
        node: NodeId,
        message: Option<MessageId>,
    },
    Buffered {
        node: NodeId,
        input: Input,
    },
    Lost {
        node: NodeId,
        message: MessageId,
        why: Loss,
    },
    // Interventions and faults.
    Paused {
        node: NodeId,
        for_ms: Option<Millis>,
    },
    Resumed {
        node: NodeId,
        paused_for: Millis,
        waiting: u32,
    },
    Crashed {
        node: NodeId,
        /// The holder whose key a cache node lost with the crash, if any.
        lost: Option<NodeId>,
        /// The highest token a resource that kept it only in memory lost with the crash, if
        /// any. Absent from the JSON when there is none, as in traces from before it existed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        forgot_token: Option<FencingToken>,
    },
    Restarted {
        node: NodeId,
    },
    /// A node may not come back yet: it stays down until `until` (Redlock's delayed restart).
    RestartDelayed {
        node: NodeId,
        until: VirtualTime,
    },
    ClockJumped {
        node: NodeId,
        by_ms: i64,
    },
    DriftChanged {
        node: NodeId,
        drift_ppm: i32,
    },
    Partitioned {
        from: NodeId,
        to: NodeId,
        direction: Direction,
    },
    Healed {
        a: NodeId,
        b: NodeId,
    },
    MessageHeld {
        message: MessageId,
    },
    MessageReleased {
        message: MessageId,
    },
    MessageDropped {
        message: MessageId,
    },
    LeaseForcedToExpire {
        holder: NodeId,
    },
    NoEffect {
        why: NoEffect,
    },
}

impl Happening {
    /// The fencing token this event is about, if any.
    pub fn token(&self) -> Option<FencingToken> {
        match *self {
            Happening::GotLock { token, .. }
            | Happening::WriteSent { token, .. }
            | Happening::WriteAnswered { token, .. }
            | Happening::RenewSent { token, .. }
            | Happening::Releasing { token, .. }
            | Happening::Granted { token, .. }
            | Happening::Renewed { token, .. }
            | Happening::RenewRefused { token, .. }
            | Happening::Released { token, .. }
            | Happening::ReleaseRefused { token, .. }
            | Happening::LeaseExpired { token, .. }
            | Happening::WriteAccepted { token, .. }
            | Happening::StockTaken { token, .. } => token,
            Happening::GrantedWithoutLease { token, .. } => Some(token),
            Happening::WriteRejected {
                refusal: Refusal::StaleToken { presented, .. },
                ..
            }
            | Happening::Finished {
                result: WorkResult::Fenced { presented, .. },
                ..
            } => Some(presented),
            _ => None,
        }
    }

    /// If this event ends a client's job, the client and how the job ended. A job ends when the
    /// client has nothing left to do: its release was answered, it gave up, or — without a lock
    /// to release — its request was answered or never was.
    pub fn job_result(&self) -> Option<(NodeId, WorkResult)> {
        match *self {
            Happening::Finished { client, result, .. } => Some((client, result)),
            Happening::GaveUp { client } => Some((client, WorkResult::HeldElsewhere)),
            Happening::NoLeader {
                client,
                retries_left: None,
            } => Some((client, WorkResult::NoAnswer)),
            Happening::SessionExpired {
                client,
                retries_left: None,
            } => Some((client, WorkResult::SessionExpired)),
            Happening::RedlockDecided {
                client,
                outcome: RedlockOutcome::NoQuorum | RedlockOutcome::TooSlow,
                retries_left: None,
                ..
            } => Some((client, WorkResult::HeldElsewhere)),
            Happening::WriteAnswered {
                client,
                outcome,
                then: Then::Stops,
                ..
            } => Some((client, WorkResult::from_outcome(outcome))),
            Happening::TimedOut {
                client,
                next: AfterTimeout::GiveUp,
            } => Some((client, WorkResult::NoAnswer)),
            Happening::TimedOut {
                client,
                next: AfterTimeout::Stop,
            } => Some((client, WorkResult::NoAnswer)),
            Happening::DeadlinePassed {
                client,
                cut: DeadlineCut::Work,
                ..
            } => Some((client, WorkResult::DeadlinePassed)),
            _ => None,
        }
    }

    /// A one-word outcome for events that succeed or fail, for shape and colour in the UI.
    pub fn outcome(&self) -> Option<Outcome> {
        match self {
            Happening::Granted { .. }
            | Happening::GotLock { .. }
            | Happening::Renewed { .. }
            | Happening::Released { .. }
            | Happening::WriteAccepted { .. }
            | Happening::StockTaken { .. }
            | Happening::ChargeReplayed { .. } => Some(Outcome::Ok),
            Happening::Refused { .. }
            | Happening::RenewRefused { .. }
            | Happening::ReleaseRefused { .. }
            | Happening::ReleasedOthersLock { .. }
            | Happening::WriteRejected { .. }
            | Happening::WriteSkipped { .. }
            | Happening::Abandoned { .. }
            | Happening::DeadlinePassed { .. }
            | Happening::GaveUp { .. }
            | Happening::SessionExpired { .. }
            | Happening::Lost { .. } => Some(Outcome::Refused),
            Happening::ChargeApplied { times, .. } => Some(if *times > 1 {
                Outcome::Refused
            } else {
                Outcome::Ok
            }),
            _ => None,
        }
    }

    /// A stable machine name for the kind of event: the serialised tag, named without
    /// serialising (this runs for every event a page shows).
    pub fn kind(&self) -> &'static str {
        self.into()
    }
}

/// Every event kind, as `Happening::kind` names it, in the enum's order. A test keeps these
/// names equal to the serialised tags.
pub const KINDS: &[&str] = <Happening as strum::VariantNames>::VARIANTS;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Ok,
    Refused,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The variant names serde lists when `json` names an unknown one.
    fn listed_variants<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        json: &str,
    ) -> Vec<String> {
        let error = serde_json::from_str::<T>(json)
            .expect_err("not a variant")
            .to_string();
        error
            .split("expected one of ")
            .nth(1)
            .expect("serde names the variants")
            .split(", ")
            .map(|name| name.trim_matches(|c: char| c == '`' || !c.is_ascii_graphic()))
            .map(|name| name.split('`').next().unwrap_or(name).to_owned())
            .collect()
    }

    /// serde lists every variant when it meets an unknown one: that list must equal `KINDS`.
    #[test]
    fn kinds_lists_every_variant_in_order() {
        assert_eq!(
            listed_variants::<Happening>(r#"{"kind":"not-a-kind"}"#),
            KINDS
        );
    }

    /// A result kind is a work result without its details: the same variants, in the same
    /// order, under the same names.
    #[test]
    fn result_kinds_are_the_work_results_names() {
        let results = listed_variants::<WorkResult>(r#"{"result":"not-a-result"}"#);
        let kinds = listed_variants::<ResultKind>(r#""not-a-result""#);
        assert_eq!(results, kinds);
        for name in kinds {
            let kind: ResultKind =
                serde_json::from_value(serde_json::Value::String(name.clone())).expect("a kind");
            assert_eq!(kind.name(), name);
        }
        let fenced = WorkResult::Fenced {
            presented: FencingToken(33),
            required: FencingToken(34),
        };
        assert_eq!(
            serde_json::to_value(fenced).expect("serialises")["result"],
            fenced.kind().name()
        );
    }
}
