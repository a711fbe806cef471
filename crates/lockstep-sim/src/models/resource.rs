//! The protected resource: the storage a lock is meant to guard.
//!
//! With fencing on, the resource is the arbiter of exclusion: it accepts a write when
//! `token >= highest token seen`, then remembers that token, and rejects any lower token,
//! reporting the one it requires. Equal tokens are accepted: the current holder usually writes
//! several times with the same token. With fencing off it accepts everything — which is how data
//! gets corrupted. The alternatives that need no lock at all (a version check, a conditional
//! decrement, idempotency keys) are resources too. A resource never asks the lock service
//! anything.
//!
//! A resource is storage: a crash loses none of its data. What it can lose is what it kept
//! only in memory — requests it was still working on, and, with [`TokenMemory::Volatile`], the
//! highest token it had seen, after which (with fencing on) the first token to arrive passes,
//! however old.

use crate::vocabulary::happening::Happening;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::message::{Payload, Refusal, WriteBasis, WriteOutcome, WriteRequest};
use crate::vocabulary::unseen_updates::UnseenUpdates;
use crate::world::ids::NodeId;
use crate::world::node::{Ctx, ignored};
use crate::world::token::FencingToken;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Whether the resource checks fencing tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fencing {
    On,
    Off,
    /// Check-and-set on the lock's random value (antirez's reply for Redlock): a holder's read
    /// claims the resource, and only writes carrying the claiming value are accepted. It stops
    /// a zombie once someone else has claimed, but it cannot order claims: nothing is "newer".
    CheckAndSet,
    /// Before applying a write, ask the lock service whether its token is still the writer's
    /// live lease (Chubby's `CheckSequencer()`), and keep the highest-token rule as well. This
    /// narrows the gap before the new holder's first write; it cannot close it, since the check
    /// and the apply are two steps. Here every check is a round trip; a Chubby server answers
    /// from its Chubby cache.
    Sequencer,
}

/// Where a register keeps the highest token it has seen, which decides whether a crash
/// forgets it. The fencing rule works only while that memory lasts: the storage server must
/// remember that it has processed a higher token (Kleppmann), so a restart that wipes the
/// memory lets the next stale token through.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TokenMemory {
    /// Stored with the data, updated in the same transaction as each write (as the article's
    /// inventory row keeps its `fencing_token` column): a crash keeps it.
    Durable,
    /// Kept in the process's memory beside the data: a crash loses it, though the data itself
    /// survives.
    Volatile,
}

impl TokenMemory {
    /// Whether the memory survives a crash: the scenario format's default, which files written
    /// before the choice existed get, since their resources never forgot.
    pub fn is_durable(&self) -> bool {
        *self == TokenMemory::Durable
    }
}

/// The fencing rule, and nothing else: accept `token >= highest`, reject lower (or none).
pub fn fencing_check(
    fencing: Fencing,
    token: Option<FencingToken>,
    highest: Option<FencingToken>,
) -> Result<(), Refusal> {
    match (fencing, token, highest) {
        (Fencing::Off | Fencing::CheckAndSet, _, _) => Ok(()),
        (Fencing::On | Fencing::Sequencer, None, _) => Err(Refusal::NoToken),
        // A sequencer resource keeps the rule too: its check with the lock service and the
        // apply are two steps, and a grant can fall between them.
        (Fencing::On | Fencing::Sequencer, Some(presented), Some(required))
            if presented < required =>
        {
            Err(Refusal::StaleToken {
                presented,
                required,
            })
        }
        (Fencing::On | Fencing::Sequencer, Some(_), _) => Ok(()),
    }
}

/// A versioned register: one value, a version that counts accepted writes, and the highest
/// fencing token seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Register {
    pub fencing: Fencing,
    /// Where `highest_token` is kept: with the data, or in memory that a crash wipes.
    pub token_memory: TokenMemory,
    /// The lock value that last claimed the register (check-and-set mode).
    pub claimed_by: Option<LockValue>,
    /// Writes waiting for the lock service's word on their token (sequencer mode).
    pub awaiting: Vec<(NodeId, WriteRequest)>,
    pub value: i64,
    pub version: u64,
    pub highest_token: Option<FencingToken>,
}

struct WriteApplied {
    version: u64,
    overwrote_unseen: Option<UnseenUpdates>,
}

impl Register {
    pub fn new(fencing: Fencing, token_memory: TokenMemory, value: i64) -> Register {
        Register {
            fencing,
            token_memory,
            claimed_by: None,
            awaiting: Vec::new(),
            value,
            version: 0,
            highest_token: None,
        }
    }

    /// The process dies: the writes waiting for the lock service's word die with it (their
    /// writers never hear back), and a volatile memory of the highest token is gone. Returns
    /// the token it forgot, if any.
    fn crash(&mut self) -> Option<FencingToken> {
        self.awaiting.clear();
        match self.token_memory {
            TokenMemory::Durable => None,
            TokenMemory::Volatile => self.highest_token.take(),
        }
    }

    /// Applies (or refuses) a write and answers the writer.
    fn answer_write(
        &mut self,
        ctx: &mut Ctx<'_>,
        writer: NodeId,
        request: WriteRequest,
    ) -> Happening {
        match self.write(request) {
            Ok(applied) => {
                let outcome = WriteOutcome::Accepted {
                    version: applied.version,
                };
                ctx.send(writer, Payload::WriteReply(outcome));
                Happening::WriteAccepted {
                    writer,
                    token: request.token,
                    value: request.value,
                    version: applied.version,
                    overwrote_unseen: applied.overwrote_unseen,
                }
            }
            Err(refusal) => {
                ctx.send(writer, Payload::WriteReply(WriteOutcome::Rejected(refusal)));
                Happening::WriteRejected { writer, refusal }
            }
        }
    }

    fn write(&mut self, request: WriteRequest) -> Result<WriteApplied, Refusal> {
        fencing_check(self.fencing, request.token, self.highest_token)?;
        if self.fencing == Fencing::CheckAndSet
            && (request.lock.is_none() || request.lock != self.claimed_by)
        {
            return Err(Refusal::ClaimedByAnother);
        }
        let overwrote_unseen = match request.basis {
            WriteBasis::IfVersion(expected) if expected != self.version => {
                return Err(Refusal::VersionChanged {
                    expected,
                    actual: self.version,
                });
            }
            WriteBasis::ReadAt(read) if read != self.version => Some(UnseenUpdates {
                read_version: read,
                current_version: self.version,
            }),
            WriteBasis::Blind | WriteBasis::ReadAt(_) | WriteBasis::IfVersion(_) => None,
        };
        if let Some(token) = request.token {
            self.highest_token = Some(self.highest_token.map_or(token, |seen| seen.max(token)));
        }
        self.value = request.value;
        self.version += 1;
        Ok(WriteApplied {
            version: self.version,
            overwrote_unseen,
        })
    }
}

/// The seed's inventory row:
///
/// ```sql
/// UPDATE inventory SET quantity = quantity - :amount, fencing_token = :token
/// WHERE sku = :sku AND fencing_token <= :token AND quantity >= :amount;
/// ```
///
/// With fencing off, the token condition goes and what is left is the atomic conditional
/// decrement (A2): `... WHERE sku = :sku AND quantity >= :amount`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory {
    pub fencing: Fencing,
    pub sku: String,
    pub quantity: i64,
    pub fencing_token: Option<FencingToken>,
    pub version: u64,
}

impl Inventory {
    pub fn new(fencing: Fencing, sku: String, quantity: i64) -> Inventory {
        Inventory {
            fencing,
            sku,
            quantity,
            fencing_token: None,
            version: 0,
        }
    }

    fn decrement(&mut self, token: Option<FencingToken>, amount: i64) -> Result<i64, Refusal> {
        fencing_check(self.fencing, token, self.fencing_token)?;
        if self.quantity < amount {
            return Err(Refusal::SoldOut {
                wanted: amount,
                left: self.quantity,
            });
        }
        self.quantity -= amount;
        self.version += 1;
        if self.fencing == Fencing::On {
            self.fencing_token = token;
        }
        Ok(self.quantity)
    }
}

/// Whether a payment service deduplicates requests by their idempotency key.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Idempotency {
    Keys,
    None,
}

/// A payment service (A3). With idempotency keys, a retried request gets the saved answer and is
/// not charged again.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payments {
    pub idempotency: Idempotency,
    /// How many times each key has been charged, and the answer saved for it.
    pub charged: BTreeMap<u32, u32>,
    pub total: i64,
    pub version: u64,
}

impl Payments {
    pub fn new(idempotency: Idempotency) -> Payments {
        Payments {
            idempotency,
            charged: BTreeMap::new(),
            total: 0,
            version: 0,
        }
    }
}

/// A resource node. One variant per kind of storage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Register(Register),
    Inventory(Inventory),
    Payments(Payments),
}

/// What each kind of storage does with the messages it takes, one method per message.
impl Register {
    /// A read: the value and its version (and, for check-and-set, who claims it next).
    fn on_read(&mut self, ctx: &mut Ctx<'_>, from: NodeId, claim: Option<LockValue>) -> Happening {
        if self.fencing == Fencing::CheckAndSet && claim.is_some() {
            self.claimed_by = claim;
        }
        let (value, version) = (self.value, self.version);
        ctx.send(from, Payload::ReadReply { value, version });
        Happening::ReadServed {
            reader: from,
            value,
            version,
        }
    }

    /// A write: answered at once, or, with Chubby's sequencer check, held until the lock
    /// service has said whether the token is current.
    fn on_write(&mut self, ctx: &mut Ctx<'_>, from: NodeId, request: WriteRequest) -> Happening {
        if let (Fencing::Sequencer, Some(token)) = (self.fencing, request.token) {
            self.awaiting.push((from, request));
            ctx.send_to_service(Payload::CheckSequencer {
                writer: from,
                token,
            });
            return Happening::SequencerAsked {
                writer: from,
                token,
            };
        }
        self.answer_write(ctx, from, request)
    }

    /// The lock service's word on a held write's token: the write is answered, or refused.
    fn on_sequencer_checked(
        &mut self,
        ctx: &mut Ctx<'_>,
        writer: NodeId,
        token: FencingToken,
        valid: bool,
    ) -> Happening {
        let Some(at) = self
            .awaiting
            .iter()
            .position(|(w, r)| *w == writer && r.token == Some(token))
        else {
            return ignored(ctx);
        };
        let (_, request) = self.awaiting.remove(at);
        if valid {
            self.answer_write(ctx, writer, request)
        } else {
            let refusal = Refusal::SequencerInvalid { presented: token };
            ctx.send(writer, Payload::WriteReply(WriteOutcome::Rejected(refusal)));
            Happening::WriteRejected { writer, refusal }
        }
    }
}

impl Inventory {
    /// A read: the stock and its version.
    fn on_read(&self, ctx: &mut Ctx<'_>, from: NodeId) -> Happening {
        let (value, version) = (self.quantity, self.version);
        ctx.send(from, Payload::ReadReply { value, version });
        Happening::ReadServed {
            reader: from,
            value,
            version,
        }
    }

    /// The article's fenced `UPDATE inventory`: stock taken, or the write refused.
    fn on_decrement(
        &mut self,
        ctx: &mut Ctx<'_>,
        from: NodeId,
        token: Option<FencingToken>,
        amount: i64,
    ) -> Happening {
        match self.decrement(token, amount) {
            Ok(left) => {
                let version = self.version;
                ctx.send(
                    from,
                    Payload::WriteReply(WriteOutcome::Accepted { version }),
                );
                Happening::StockTaken {
                    buyer: from,
                    token,
                    amount,
                    left,
                }
            }
            Err(refusal) => {
                ctx.send(from, Payload::WriteReply(WriteOutcome::Rejected(refusal)));
                Happening::WriteRejected {
                    writer: from,
                    refusal,
                }
            }
        }
    }
}

impl Payments {
    /// A charge: applied, or, with idempotency keys, a key seen before is replayed.
    fn on_charge(&mut self, ctx: &mut Ctx<'_>, from: NodeId, key: u32, amount: i64) -> Happening {
        let seen = self.charged.get(&key).copied().unwrap_or(0);
        if seen > 0 && self.idempotency == Idempotency::Keys {
            let version = self.version;
            ctx.send(
                from,
                Payload::WriteReply(WriteOutcome::Replayed { version }),
            );
            return Happening::ChargeReplayed { payer: from, key };
        }
        self.charged.insert(key, seen + 1);
        self.total += amount;
        self.version += 1;
        let version = self.version;
        ctx.send(
            from,
            Payload::WriteReply(WriteOutcome::Accepted { version }),
        );
        Happening::ChargeApplied {
            payer: from,
            key,
            amount,
            times: seen + 1,
        }
    }
}

impl Resource {
    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        match (self, payload) {
            (Resource::Register(register), Payload::Read { claim }) => {
                register.on_read(ctx, from, claim)
            }
            (Resource::Inventory(inventory), Payload::Read { .. }) => inventory.on_read(ctx, from),
            (Resource::Register(register), Payload::Write(request)) => {
                register.on_write(ctx, from, request)
            }
            (
                Resource::Register(register),
                Payload::SequencerChecked {
                    writer,
                    token,
                    valid,
                },
            ) => register.on_sequencer_checked(ctx, writer, token, valid),
            (Resource::Inventory(inventory), Payload::Decrement { token, amount }) => {
                inventory.on_decrement(ctx, from, token, amount)
            }
            (Resource::Payments(payments), Payload::Charge { key, amount }) => {
                payments.on_charge(ctx, from, key, amount)
            }
            _ => ignored(ctx),
        }
    }

    /// The process dies; the data stays. Returns the highest token it forgot, if any (only a
    /// register with a volatile memory of it forgets one). The inventory keeps its token in
    /// its row, so it forgets nothing; the payment service checks no tokens.
    pub fn crash(&mut self) -> Option<FencingToken> {
        match self {
            Resource::Register(register) => register.crash(),
            Resource::Inventory(_) | Resource::Payments(_) => None,
        }
    }

    /// The resource's headline number: the register's value, the stock left, the total charged.
    pub fn value(&self) -> i64 {
        match self {
            Resource::Register(r) => r.value,
            Resource::Inventory(i) => i.quantity,
            Resource::Payments(p) => p.total,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(token: Option<u64>, value: i64, read_at: Option<u64>) -> WriteRequest {
        WriteRequest {
            token: token.map(FencingToken),
            value,
            basis: read_at.map_or(WriteBasis::Blind, WriteBasis::ReadAt),
            lock: None,
        }
    }

    #[test]
    fn fencing_accepts_equal_and_higher_tokens_and_rejects_lower() {
        let mut r = Register::new(Fencing::On, TokenMemory::Durable, 0);
        assert!(r.write(write(Some(34), 1, None)).is_ok());
        assert!(
            r.write(write(Some(34), 2, None)).is_ok(),
            "the holder writes again"
        );
        assert_eq!(
            r.write(write(Some(33), 3, None)).err(),
            Some(Refusal::StaleToken {
                presented: FencingToken(33),
                required: FencingToken(34)
            })
        );
        assert!(r.write(write(Some(35), 4, None)).is_ok());
        assert_eq!(r.value, 4);
        assert_eq!(r.highest_token, Some(FencingToken(35)));
    }

    #[test]
    fn fencing_refuses_a_write_without_a_token() {
        let mut r = Register::new(Fencing::On, TokenMemory::Durable, 0);
        assert_eq!(r.write(write(None, 1, None)).err(), Some(Refusal::NoToken));
    }

    #[test]
    fn without_fencing_a_stale_token_is_accepted() {
        let mut r = Register::new(Fencing::Off, TokenMemory::Durable, 0);
        assert!(r.write(write(Some(34), 1, None)).is_ok());
        assert!(r.write(write(Some(33), 2, None)).is_ok());
        assert_eq!(r.value, 2);
    }

    #[test]
    fn a_write_based_on_an_old_read_reports_the_updates_it_overwrites() {
        let mut r = Register::new(Fencing::Off, TokenMemory::Durable, 0);
        assert!(r.write(write(None, 1, Some(0))).is_ok());
        let applied = r
            .write(write(None, 1, Some(0)))
            .ok()
            .map(|a| a.overwrote_unseen);
        assert_eq!(
            applied,
            Some(Some(UnseenUpdates {
                read_version: 0,
                current_version: 1
            }))
        );
    }

    #[test]
    fn a_version_condition_refuses_a_changed_row() {
        let mut r = Register::new(Fencing::Off, TokenMemory::Durable, 100);
        let cas = |version| WriteRequest {
            basis: WriteBasis::IfVersion(version),
            ..write(None, 90, None)
        };
        assert!(r.write(cas(0)).is_ok());
        assert_eq!(
            r.write(cas(0)).err(),
            Some(Refusal::VersionChanged {
                expected: 0,
                actual: 1
            })
        );
    }

    #[test]
    fn the_seeds_inventory_update_checks_token_and_stock() {
        let mut inv = Inventory::new(Fencing::On, "sku-1".into(), 2);
        assert_eq!(inv.decrement(Some(FencingToken(34)), 1), Ok(1));
        assert_eq!(
            inv.decrement(Some(FencingToken(33)), 1),
            Err(Refusal::StaleToken {
                presented: FencingToken(33),
                required: FencingToken(34)
            })
        );
        assert_eq!(
            inv.decrement(Some(FencingToken(34)), 1),
            Ok(0),
            "equal token accepted"
        );
        assert_eq!(
            inv.decrement(Some(FencingToken(35)), 1),
            Err(Refusal::SoldOut { wanted: 1, left: 0 })
        );
    }

    /// The sequencer check and the apply are two steps: a grant can fall between them, so a
    /// token the lock service called live may be older than one the resource has since accepted.
    #[test]
    fn a_sequencer_resource_keeps_the_highest_token_rule() {
        let mut r = Register::new(Fencing::Sequencer, TokenMemory::Durable, 0);
        assert!(r.write(write(Some(34), 1, None)).is_ok());
        assert_eq!(
            r.write(write(Some(33), 2, None)).err(),
            Some(Refusal::StaleToken {
                presented: FencingToken(33),
                required: FencingToken(34)
            })
        );
    }

    /// A register that keeps its highest token only in memory comes back from a crash with its
    /// data but without the token, and the stale 33 then passes; a durable one still refuses it.
    #[test]
    fn a_crash_forgets_the_highest_token_only_when_it_was_kept_in_memory() {
        for (memory, forgot, stale) in [
            (TokenMemory::Volatile, Some(FencingToken(34)), true),
            (TokenMemory::Durable, None, false),
        ] {
            let mut r = Register::new(Fencing::On, memory, 0);
            assert!(r.write(write(Some(34), 1, None)).is_ok());
            assert_eq!(r.crash(), forgot, "{memory:?}");
            assert_eq!(
                (r.value, r.version),
                (1, 1),
                "the data survives ({memory:?})"
            );
            assert_eq!(
                r.write(write(Some(33), 2, None)).is_ok(),
                stale,
                "{memory:?}"
            );
        }
    }

    #[test]
    fn a_crash_drops_the_writes_waiting_for_the_lock_services_word() {
        let mut register = Register::new(Fencing::Sequencer, TokenMemory::Durable, 0);
        register
            .awaiting
            .push((NodeId(0), write(Some(33), 1, None)));
        assert_eq!(register.crash(), None);
        assert!(register.awaiting.is_empty());
    }

    #[test]
    fn a_conditional_decrement_never_oversells() {
        let mut inv = Inventory::new(Fencing::Off, "sku-1".into(), 1);
        assert_eq!(inv.decrement(None, 1), Ok(0));
        assert_eq!(
            inv.decrement(None, 1),
            Err(Refusal::SoldOut { wanted: 1, left: 0 })
        );
    }
}
