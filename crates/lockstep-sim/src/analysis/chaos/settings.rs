//! What a batch of chaos runs is set up with: the lock service, the resource's fencing, how many
//! clients, which faults and for how long. It has a short text form for links and the command
//! line (`backend=sql-row&fencing=off&clients=8&faults=pauses,partitions&duration=180000`) that
//! reads back to the same settings and names the part that is wrong when it cannot. It must not
//! generate or run anything.

use super::backend::ChaosBackend;
use super::faults::{FaultKind, FaultSet};
use crate::models::resource::Fencing;
use crate::scenario::types::MAX_CLIENTS;
use crate::world::time::Millis;
use serde::{Deserialize, Deserializer, Serialize};
use std::fmt;
use std::str::FromStr;

/// How many clients contend for the lock: 1 to [`MAX_CLIENTS`] (what a scenario may have, so
/// every run opens in the playground).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct ClientCount(u8);

impl ClientCount {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = {
        assert!(MAX_CLIENTS <= u8::MAX as usize);
        MAX_CLIENTS as u8
    };

    pub fn new(count: u8) -> Option<ClientCount> {
        (ClientCount::MIN..=ClientCount::MAX)
            .contains(&count)
            .then_some(ClientCount(count))
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

impl TryFrom<u8> for ClientCount {
    type Error = String;

    fn try_from(count: u8) -> Result<ClientCount, String> {
        ClientCount::new(count).ok_or_else(|| {
            format!(
                "{count} clients: a chaos run has from {} to {}",
                ClientCount::MIN,
                ClientCount::MAX
            )
        })
    }
}

impl From<ClientCount> for u8 {
    fn from(count: ClientCount) -> u8 {
        count.0
    }
}

/// The shortest and longest virtual time a chaos run may last, in ms.
pub const DURATION_MS: [u64; 2] = [1_000, 600_000];

/// The settings of a batch of chaos runs; each run adds a seed ([`super::Chaos`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ChaosSettings {
    pub backend: ChaosBackend,
    pub fencing: Fencing,
    pub clients: ClientCount,
    pub faults: FaultSet,
    #[serde(deserialize_with = "duration")]
    pub duration: Millis,
}

fn duration<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Millis, D::Error> {
    let ms = u64::deserialize(deserializer)?;
    check_duration(ms).map_err(serde::de::Error::custom)
}

fn check_duration(ms: u64) -> Result<Millis, String> {
    if (DURATION_MS[0]..=DURATION_MS[1]).contains(&ms) {
        Ok(Millis(ms))
    } else {
        Err(format!(
            "{ms} ms: a chaos run lasts from {} to {} ms",
            DURATION_MS[0], DURATION_MS[1]
        ))
    }
}

impl ChaosSettings {
    /// The keys of the text form, in the order it writes them.
    pub const KEYS: [&'static str; 5] = ["backend", "fencing", "clients", "faults", "duration"];

    /// The article's chaos test: the SQL row, 8 clients, 180,000 virtual ms, and its three
    /// faults: pauses, partitions and the lock service's failover (`serviceFailover: true`).
    /// Our fault for failover is [`FaultKind::Crashes`]: the SQL row's database goes down and
    /// comes back with its row, as after a failover to a standby that had every commit; a
    /// replicated cache promotes its replica, and a consensus service elects a new leader.
    pub fn verification_test(fencing: Fencing) -> ChaosSettings {
        ChaosSettings {
            faults: FaultSet::of(&[FaultKind::Pauses, FaultKind::Partitions, FaultKind::Crashes]),
            ..ChaosSettings::pauses_and_partitions(fencing)
        }
    }

    /// The article's chaos test without its lock-service failover: pauses and partitions only,
    /// what every chaos run of the article's test was before failover joined it. The
    /// benchmarks run it, so their events and trace hashes stay comparable.
    pub fn pauses_and_partitions(fencing: Fencing) -> ChaosSettings {
        ChaosSettings {
            backend: ChaosBackend::SqlRow,
            fencing,
            clients: ClientCount(8),
            faults: FaultSet::of(&[FaultKind::Pauses, FaultKind::Partitions]),
            duration: Millis(180_000),
        }
    }

    pub fn with_backend(self, backend: ChaosBackend) -> ChaosSettings {
        ChaosSettings { backend, ..self }
    }

    /// The text form as key-value pairs, in [`ChaosSettings::KEYS`]' order.
    pub fn pairs(&self) -> [(&'static str, String); 5] {
        [
            ("backend", self.backend.id().to_owned()),
            ("fencing", fencing_id(self.fencing).to_owned()),
            ("clients", self.clients.0.to_string()),
            ("faults", self.faults.to_string()),
            ("duration", self.duration.0.to_string()),
        ]
    }

    /// Reads key-value pairs over the article's test (fencing on): a key left out keeps the
    /// article's value. Every key must be one of [`ChaosSettings::KEYS`], given once.
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<ChaosSettings, SettingsError> {
        let mut settings = ChaosSettings::verification_test(Fencing::On);
        let mut seen = Vec::new();
        for (key, value) in pairs {
            let error = |reason: String| SettingsError::BadValue {
                key: key.to_owned(),
                value: value.to_owned(),
                reason,
            };
            if seen.contains(&key) {
                return Err(SettingsError::Repeated(key.to_owned()));
            }
            seen.push(key);
            match key {
                "backend" => {
                    settings.backend = ChaosBackend::from_id(value).ok_or_else(|| {
                        let ids: Vec<&str> = ChaosBackend::ALL.iter().map(|b| b.id()).collect();
                        error(format!("not a lock service; use one of {}", ids.join(", ")))
                    })?;
                }
                "fencing" => {
                    settings.fencing = fencing_from_id(value).ok_or_else(|| {
                        error("use on, off, check-and-set or sequencer".to_owned())
                    })?;
                }
                "clients" => {
                    let count = value.parse::<u8>().ok().and_then(ClientCount::new);
                    settings.clients = count.ok_or_else(|| {
                        error(format!(
                            "not a whole number from {} to {}",
                            ClientCount::MIN,
                            ClientCount::MAX
                        ))
                    })?;
                }
                "faults" => {
                    settings.faults = FaultSet::parse(value).map_err(|e| error(e.to_string()))?;
                }
                "duration" => {
                    let ms = value.parse::<u64>().map_err(|_| {
                        error(format!(
                            "not a whole number of ms from {} to {}",
                            DURATION_MS[0], DURATION_MS[1]
                        ))
                    })?;
                    settings.duration = check_duration(ms).map_err(error)?;
                }
                _ => return Err(SettingsError::UnknownKey(key.to_owned())),
            }
        }
        Ok(settings)
    }
}

/// Every fencing mode a chaos run may use, in the order a form offers them.
pub const FENCINGS: [Fencing; 4] = [
    Fencing::On,
    Fencing::Off,
    Fencing::CheckAndSet,
    Fencing::Sequencer,
];

/// The fencing setting's id in the text form.
pub fn fencing_id(fencing: Fencing) -> &'static str {
    match fencing {
        Fencing::On => "on",
        Fencing::Off => "off",
        Fencing::CheckAndSet => "check-and-set",
        Fencing::Sequencer => "sequencer",
    }
}

pub fn fencing_from_id(id: &str) -> Option<Fencing> {
    FENCINGS.into_iter().find(|&f| fencing_id(f) == id)
}

impl fmt::Display for ChaosSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = self
            .pairs()
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        f.write_str(&parts.join("&"))
    }
}

impl FromStr for ChaosSettings {
    type Err = SettingsError;

    fn from_str(text: &str) -> Result<ChaosSettings, SettingsError> {
        let mut pairs = Vec::new();
        for part in text.split('&').filter(|part| !part.is_empty()) {
            let (key, value) = part
                .split_once('=')
                .ok_or_else(|| SettingsError::NoValue(part.to_owned()))?;
            pairs.push((key, value));
        }
        ChaosSettings::from_pairs(pairs)
    }
}

/// Why settings could not be read from their text form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SettingsError {
    UnknownKey(String),
    Repeated(String),
    NoValue(String),
    BadValue {
        key: String,
        value: String,
        reason: String,
    },
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::UnknownKey(key) => write!(
                f,
                "\"{key}\" is not a chaos setting; use {}",
                ChaosSettings::KEYS.join(", ")
            ),
            SettingsError::Repeated(key) => write!(f, "{key} is given twice"),
            SettingsError::NoValue(part) => write!(f, "\"{part}\" has no value (key=value)"),
            SettingsError::BadValue { key, value, reason } => {
                write!(f, "{key}: \"{value}\": {reason}")
            }
        }
    }
}
