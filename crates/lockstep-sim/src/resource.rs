//! The protected resource: the storage a lock is meant to guard.
//!
//! With fencing on, the resource is the arbiter of exclusion: it accepts a write when
//! `token >= highest token seen`, then remembers that token, and rejects any lower token,
//! reporting the one it requires. Equal tokens are accepted: the current holder usually writes
//! several times with the same token. With fencing off it accepts everything — which is how data
//! gets corrupted. The resource never asks the lock service anything.

use crate::happening::Happening;
use crate::ids::NodeId;
use crate::message::{Payload, Refusal, WriteOutcome, WriteRequest};
use crate::node::{Ctx, ignored};
use crate::token::FencingToken;
use serde::{Deserialize, Serialize};

/// Whether the resource checks fencing tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fencing {
    On,
    Off,
}

/// A versioned register: one value, a version that counts accepted writes, and the highest
/// fencing token seen.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Register {
    pub fencing: Fencing,
    pub value: i64,
    pub version: u64,
    pub highest_token: Option<FencingToken>,
}

impl Register {
    pub fn new(fencing: Fencing, value: i64) -> Register {
        Register {
            fencing,
            value,
            version: 0,
            highest_token: None,
        }
    }

    /// The fencing rule, and nothing else.
    fn check(&self, token: Option<FencingToken>) -> Result<(), Refusal> {
        match (self.fencing, token, self.highest_token) {
            (Fencing::Off, _, _) => Ok(()),
            (Fencing::On, None, _) => Err(Refusal::NoToken),
            (Fencing::On, Some(presented), Some(required)) if presented < required => {
                Err(Refusal::StaleToken {
                    presented,
                    required,
                })
            }
            (Fencing::On, Some(_), _) => Ok(()),
        }
    }

    fn write(&mut self, request: WriteRequest) -> Result<WriteApplied, Refusal> {
        self.check(request.token)?;
        let overwrote_unseen = request
            .based_on
            .filter(|&read| read != self.version)
            .map(|read| UnseenUpdates {
                read_version: read,
                current_version: self.version,
            });
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

/// A read-modify-write that was accepted although the register changed after the writer read it:
/// the updates in between are lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnseenUpdates {
    pub read_version: u64,
    pub current_version: u64,
}

struct WriteApplied {
    version: u64,
    overwrote_unseen: Option<UnseenUpdates>,
}

/// A resource node. One variant per kind of storage.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Resource {
    Register(Register),
}

impl Resource {
    pub fn on_message(&mut self, ctx: &mut Ctx<'_>, from: NodeId, payload: Payload) -> Happening {
        match (self, payload) {
            (Resource::Register(register), Payload::Read) => {
                ctx.send(
                    from,
                    Payload::ReadReply {
                        value: register.value,
                        version: register.version,
                    },
                );
                Happening::ReadServed {
                    reader: from,
                    value: register.value,
                    version: register.version,
                }
            }
            (Resource::Register(register), Payload::Write(request)) => {
                match register.write(request) {
                    Ok(applied) => {
                        ctx.send(
                            from,
                            Payload::WriteReply(WriteOutcome::Accepted {
                                version: applied.version,
                            }),
                        );
                        Happening::WriteAccepted {
                            writer: from,
                            token: request.token,
                            value: request.value,
                            version: applied.version,
                            overwrote_unseen: applied.overwrote_unseen,
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
            (_, other) => ignored(ctx.me, other),
        }
    }

    pub fn fencing(&self) -> Fencing {
        match self {
            Resource::Register(register) => register.fencing,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(token: Option<u64>, value: i64, based_on: Option<u64>) -> WriteRequest {
        WriteRequest {
            token: token.map(FencingToken),
            value,
            based_on,
        }
    }

    #[test]
    fn fencing_accepts_equal_and_higher_tokens_and_rejects_lower() {
        let mut r = Register::new(Fencing::On, 0);
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
        let mut r = Register::new(Fencing::On, 0);
        assert_eq!(r.write(write(None, 1, None)).err(), Some(Refusal::NoToken));
    }

    #[test]
    fn without_fencing_a_stale_token_is_accepted() {
        let mut r = Register::new(Fencing::Off, 0);
        r.write(write(Some(34), 1, None)).ok().unwrap();
        assert!(r.write(write(Some(33), 2, None)).is_ok());
        assert_eq!(r.value, 2);
    }

    #[test]
    fn a_write_based_on_an_old_read_reports_the_updates_it_overwrites() {
        let mut r = Register::new(Fencing::Off, 0);
        r.write(write(None, 1, Some(0))).ok().unwrap();
        let applied = r.write(write(None, 1, Some(0))).ok().unwrap();
        assert_eq!(
            applied.overwrote_unseen,
            Some(UnseenUpdates {
                read_version: 0,
                current_version: 1
            })
        );
    }
}
