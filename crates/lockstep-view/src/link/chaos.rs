//! The playground link's `chaos=` parameter: a chaos lab run named by its settings and seed
//! instead of its whole generated scenario, so a violating seed's link stays a line long.
//!
//! `chaos=1;seed=17;backend=sql-row;fencing=on;clients=8;faults=pauses,partitions;duration=180000`:
//! the format's version first, then the seed that generates the run, then the chaos engine's
//! own settings (its text form with `;` for `&`, so the value never splits the fragment).
//! The scenario is rebuilt with `ChaosSettings::scenario(seed)`, which is deterministic, so the
//! same value always opens the same run. The seed here is the run's; the link's own `seed=`
//! still means a simulation seed the user chose in the playground.
//!
//! The playground's link ([`super::share`]) reads and writes it; `crate::state::Origin::Chaos`
//! holds it. Pure: this module does not touch the browser, and it imports nothing of this
//! crate but the link's own mechanics (both of those import it).

use super::error::LinkError;
use lockstep_sim::analysis::chaos::ChaosSettings;

/// The version of `chaos=` this build writes, and the only one it reads.
pub const CHAOS_LINK_VERSION: u32 = 1;

/// A chaos lab run: the settings and the seed that generate its scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChaosRunRef {
    pub settings: ChaosSettings,
    pub seed: u64,
}

impl ChaosRunRef {
    /// The `chaos=` value (without the name).
    pub fn value(&self) -> String {
        let settings: Vec<String> = self
            .settings
            .pairs()
            .iter()
            .map(|(key, value)| format!("{key}={value}"))
            .collect();
        format!(
            "{CHAOS_LINK_VERSION};seed={};{}",
            self.seed,
            settings.join(";")
        )
    }

    /// Reads a `chaos=` value: the version, the seed, then the settings (a setting left out
    /// keeps the article's test's value, as in the lab's own address).
    pub fn parse(value: &str) -> Result<ChaosRunRef, LinkError> {
        let bad = |reason: String| LinkError::bad("chaos", value, reason);
        let mut parts = value.split(';');
        match parts.next().map(str::parse::<u32>) {
            Some(Ok(CHAOS_LINK_VERSION)) => {}
            Some(Ok(other)) => {
                return Err(bad(format!(
                    "version {other} is not one this Lockstep reads (it reads version {CHAOS_LINK_VERSION})"
                )));
            }
            _ => {
                return Err(bad(format!(
                    "it must start with its version, {CHAOS_LINK_VERSION}, then `;seed=` and the settings"
                )));
            }
        }
        let seed = parts
            .next()
            .and_then(|part| part.strip_prefix("seed="))
            .ok_or_else(|| bad("the version must be followed by `;seed=` and a number".to_owned()))?
            .parse::<u64>()
            .map_err(|_| {
                bad(format!(
                    "the seed must be a whole number from 0 to {}",
                    u64::MAX
                ))
            })?;
        let mut pairs = Vec::new();
        for part in parts.filter(|p| !p.is_empty()) {
            let pair = part
                .split_once('=')
                .ok_or_else(|| bad(format!("`{part}` is not a setting (key=value)")))?;
            pairs.push(pair);
        }
        let settings = ChaosSettings::from_pairs(pairs)
            .map_err(|error| bad(format!("the chaos lab's settings: {error}")))?;
        Ok(ChaosRunRef { settings, seed })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::{ChaosBackend, ClientCount, FaultKind, FaultSet};
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::world::time::Millis;

    #[test]
    fn settings_and_seed_round_trip_and_read_like_the_lab_address() {
        let run = ChaosRunRef {
            settings: ChaosSettings {
                backend: ChaosBackend::ReplicatedCache,
                fencing: Fencing::CheckAndSet,
                clients: ClientCount::new(3).expect("3 clients"),
                faults: FaultSet::of(&[FaultKind::Crashes, FaultKind::ClockJumps]),
                duration: Millis(60_000),
            },
            seed: u64::MAX,
        };
        let value = run.value();
        assert!(
            value.starts_with("1;seed=18446744073709551615;backend="),
            "{value}"
        );
        assert!(!value.contains('&') && !value.contains('#'), "{value}");
        assert_eq!(ChaosRunRef::parse(&value), Ok(run));
        let article = ChaosRunRef {
            settings: ChaosSettings::verification_test(Fencing::On),
            seed: 17,
        };
        assert_eq!(ChaosRunRef::parse("1;seed=17"), Ok(article), "defaults");
    }

    #[test]
    fn a_bad_value_names_the_parameter_and_what_is_wrong() {
        for (value, says) in [
            ("", "must start with its version"),
            ("2;seed=1", "version 2 is not one this Lockstep reads"),
            ("1", "followed by `;seed=`"),
            ("1;backend=sql-row", "followed by `;seed=`"),
            ("1;seed=-4", "whole number"),
            ("1;seed=4;clients", "`clients` is not a setting"),
            ("1;seed=4;backend=etcd", "the chaos lab's settings"),
            ("1;seed=4;zoom=2", "the chaos lab's settings"),
        ] {
            let error = ChaosRunRef::parse(value).expect_err(value).to_string();
            assert!(error.contains(says), "{value}: {error}");
        }
    }
}
