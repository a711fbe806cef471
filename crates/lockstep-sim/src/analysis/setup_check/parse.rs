//! Reading a `lock-setup` file: the version first (a file of another version should say so, not
//! list unknown fields), then the fields strictly (`strict_json`), then every rule serde cannot
//! check. The TOML form is read by the command line into the same [`LockSetup`] and checked by
//! the same [`LockSetup::validate`]. It must not map or run the setup.

use super::error::SetupError;
use super::setup::{
    LeaseCheckSetup, LockSetup, RenewalSetup, SETUP_FORMAT, Service, TokenUse, WriteKind,
};
use crate::scenario::strict_json;
use crate::scenario::types::MAX_CLIENTS;
use crate::world::time::Millis;

/// The longest TTL, work time or pause a setup may give: five minutes (a run lasts ten times
/// the longest of them).
pub const MAX_SETUP_MS: u64 = 300_000;

impl LockSetup {
    /// Reads and checks a `lock-setup` file in JSON.
    pub fn parse_json(json: &str) -> Result<LockSetup, SetupError> {
        let value: serde_json::Value = strict_json::from_str(json, "lock setup")?;
        check_format(value.get("format").map(serde_json::Value::as_u64))?;
        let setup: LockSetup = strict_json::from_str(json, "lock setup")?;
        setup.validate()?;
        Ok(setup)
    }

    /// Checks everything serde cannot: ranges, and combinations that mean nothing.
    pub fn validate(&self) -> Result<(), SetupError> {
        check_format(Some(Some(u64::from(self.format))))?;
        self.check_numbers()?;
        self.check_service()?;
        self.check_resource()
    }

    fn check_numbers(&self) -> Result<(), SetupError> {
        within("ttl_ms", self.ttl_ms, 1)?;
        within("work_ms.typical", self.work_ms.typical, 1)?;
        within("work_ms.worst", self.work_ms.worst, 1)?;
        within("longest_pause_ms", self.longest_pause_ms, 0)?;
        within("retries.max_delay_ms", self.retries.max_delay_ms, 0)?;
        if self.work_ms.typical > self.work_ms.worst {
            return Err(invalid(
                "work_ms",
                format!(
                    "typical ({} ms) is longer than worst ({} ms)",
                    self.work_ms.typical.0, self.work_ms.worst.0
                ),
            ));
        }
        if !(1..=MAX_CLIENTS).contains(&usize::from(self.clients)) {
            return Err(invalid(
                "clients",
                format!("{} clients: from 1 to {MAX_CLIENTS}", self.clients),
            ));
        }
        if self.retries.attempts > 100 {
            return Err(invalid("retries.attempts", "at most 100 retries"));
        }
        if let LeaseCheckSetup::BeforeWrite { margin_ms } = self.lease_check
            && margin_ms >= self.ttl_ms
        {
            return Err(invalid(
                "lease_check.margin_ms",
                format!(
                    "a margin of {} ms leaves nothing of a {} ms TTL",
                    margin_ms.0, self.ttl_ms.0
                ),
            ));
        }
        if let RenewalSetup::Watchdog {
            max_renewals: Some(0),
        } = self.renewal
        {
            return Err(invalid(
                "renewal.max_renewals",
                "a cap of 0 renewals is no renewal; write {\"kind\": \"none\"}",
            ));
        }
        Ok(())
    }

    fn check_service(&self) -> Result<(), SetupError> {
        match self.service {
            Service::Redlock { nodes, .. } if !(1..=7).contains(&nodes) => Err(invalid(
                "service.nodes",
                format!("Redlock over {nodes} nodes: the model takes 1 to 7"),
            )),
            Service::PostgresAdvisory => Err(SetupError::NotModelled {
                path: "service",
                what: "a PostgreSQL advisory lock is held by a database session, with no TTL, \
                       and lost when the connection drops; the simulator has no lock tied to a \
                       connection. The closest modelled lock is sql_row."
                    .to_owned(),
            }),
            Service::HazelcastFencedLock => Err(SetupError::NotModelled {
                path: "service",
                what: "Hazelcast's FencedLock runs on its CP subsystem (Raft) with session \
                       heartbeats and fencing tokens; its sessions are not modelled. The \
                       closest modelled lock is etcd."
                    .to_owned(),
            }),
            _ => Ok(()),
        }
    }

    fn check_resource(&self) -> Result<(), SetupError> {
        let tokens = match self.service {
            Service::Redlock { .. } => Some("Redlock hands out no fencing tokens"),
            Service::NoLock => Some("with no lock there is no token"),
            _ => None,
        };
        match (self.resource, self.write) {
            (TokenUse::Fencing | TokenUse::Sequencer, WriteKind::Payment) => Err(invalid(
                "resource",
                "the payment model takes no token; use idempotency_key or nothing",
            )),
            (TokenUse::Fencing | TokenUse::Sequencer, _) if tokens.is_some() => Err(invalid(
                "resource",
                format!(
                    "{}; use version_check, or a service that issues tokens",
                    tokens.unwrap_or_default()
                ),
            )),
            (TokenUse::Sequencer, WriteKind::StockDecrement) => Err(invalid(
                "resource",
                "the stock model checks tokens by fencing only; use fencing",
            )),
            (TokenUse::VersionCheck, write) if write != WriteKind::ReadModifyWrite => Err(invalid(
                "resource",
                "a conditional write on a version is modelled for read_modify_write only",
            )),
            (TokenUse::IdempotencyKey, write) if write != WriteKind::Payment => Err(invalid(
                "resource",
                "an idempotency key is modelled for payment only",
            )),
            (TokenUse::PartitionedOwnership, _) => Err(SetupError::NotModelled {
                path: "resource",
                what: "partitioned ownership is modelled as a fenced owner's lease (scenario \
                       A4); describe it as resource: fencing"
                    .to_owned(),
            }),
            _ => Ok(()),
        }
    }
}

/// Checks a file's `format` field: `None` when it is missing, `Some(None)` when it is not a
/// whole number.
pub fn check_format(found: Option<Option<u64>>) -> Result<(), SetupError> {
    match found {
        None => Err(SetupError::MissingFormat),
        Some(Some(version)) if version == u64::from(SETUP_FORMAT) => Ok(()),
        Some(Some(found)) => Err(SetupError::UnsupportedFormat { found }),
        Some(None) => Err(invalid("format", "must be a whole number, 1")),
    }
}

fn within(path: &'static str, value: Millis, least: u64) -> Result<(), SetupError> {
    if (least..=MAX_SETUP_MS).contains(&value.0) {
        Ok(())
    } else {
        Err(invalid(
            path,
            format!(
                "{} ms is out of range: it must be from {least} to {MAX_SETUP_MS} ms",
                value.0
            ),
        ))
    }
}

fn invalid(path: &'static str, reason: impl Into<String>) -> SetupError {
    SetupError::Invalid {
        path,
        reason: reason.into(),
    }
}
