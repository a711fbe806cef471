//! The sandbox's "build your own" settings, and the scenario file they make.
//!
//! The settings are plain data; [`Settings::to_json`] writes a scenario file, which goes through
//! the same parser and checks as an imported one, so the builder cannot make a scenario that a
//! file could not express. Pure: tested natively.

use lockstep_sim::scenario::types::MAX_CLIENTS;
use serde_json::{Value, json};

/// How the clients use the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum Behaviour {
    /// Read, work, write back `value + 1`: the lost update waiting to happen.
    ReadModifyWrite,
    /// The same, with the seed's `heldSafely()` check just before the write.
    CheckThenWrite,
    /// The seed's renewing lock: renew every TTL/3, at most 10 times.
    Renewing,
    /// The same, and give the lock up by the client's own clock when no renewal has been
    /// acknowledged for a TTL counted from the send (Chubby's conservative local lease timeout).
    RenewingWithDeadline,
    /// Work, then write a value without reading.
    BlindWrite,
}

impl Behaviour {
    pub fn id(self) -> &'static str {
        match self {
            Behaviour::ReadModifyWrite => "read_modify_write",
            Behaviour::CheckThenWrite => "check_then_write",
            Behaviour::Renewing => "renewing",
            Behaviour::RenewingWithDeadline => "renewing_with_deadline",
            Behaviour::BlindWrite => "blind_write",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Behaviour::ReadModifyWrite => "Read, work, write back (read-modify-write)",
            Behaviour::CheckThenWrite => "Check the lease, then write (heldSafely)",
            Behaviour::Renewing => "Renew every TTL/3 (the article's RenewingLock)",
            Behaviour::RenewingWithDeadline => {
                "Renew every TTL/3, give up at a local deadline of one TTL (Chubby's local lease timeout)"
            }
            Behaviour::BlindWrite => "Work, then write without reading",
        }
    }
}

/// Which lock service runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum BackendChoice {
    SqlRow,
    Cache,
    ReplicatedCache,
    Redlock,
    Consensus,
    DataGrid,
}

impl BackendChoice {
    pub fn id(self) -> &'static str {
        match self {
            BackendChoice::SqlRow => "sql_row",
            BackendChoice::Cache => "cache",
            BackendChoice::ReplicatedCache => "replicated_cache",
            BackendChoice::Redlock => "redlock",
            BackendChoice::Consensus => "consensus",
            BackendChoice::DataGrid => "data_grid",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            BackendChoice::SqlRow => "SQL row (the article's distributed_locks)",
            BackendChoice::Cache => "Single cache node (SET NX PX, INCR tokens)",
            BackendChoice::ReplicatedCache => "Cache with an async replica",
            BackendChoice::Redlock => "Redlock over 5 nodes (no tokens)",
            BackendChoice::Consensus => "Consensus, 3 replicas (etcd-like)",
            BackendChoice::DataGrid => "AP data grid, 5 members",
        }
    }

    fn spec(self) -> Value {
        match self {
            BackendChoice::SqlRow => json!({ "kind": "sql_row", "last_token": 32 }),
            BackendChoice::Cache => {
                json!({ "kind": "cache", "tokens": "counter", "last_token": 32 })
            }
            BackendChoice::ReplicatedCache => json!({
                "kind": "replicated_cache", "tokens": "counter", "last_token": 32,
                "replication_lag_ms": 50, "failover_after_ms": 300
            }),
            BackendChoice::Redlock => json!({ "kind": "redlock", "nodes": 5 }),
            BackendChoice::Consensus => json!({ "kind": "consensus", "replicas": 3 }),
            BackendChoice::DataGrid => json!({ "kind": "data_grid", "members": 5 }),
        }
    }
}

/// The most clients the form offers: the most a scenario may have.
pub const FORM_MAX_CLIENTS: u8 = {
    assert!(MAX_CLIENTS <= u8::MAX as usize);
    MAX_CLIENTS as u8
};
/// The longest TTL or work time the form offers.
pub const MAX_FORM_MS: u64 = 600_000;
/// The longest network latency the form offers.
pub const MAX_FORM_LATENCY_MS: u64 = 60_000;

/// The number of clients the form's field asks for, kept from 1 to the most a scenario may have.
pub fn clients_from_form(value: u64) -> u8 {
    u8::try_from(value.clamp(1, u64::from(FORM_MAX_CLIENTS))).unwrap_or(FORM_MAX_CLIENTS)
}

/// `client-a`, `client-b`, … and, past `z` (only settings beyond the form's reach), a number.
fn client_name(index: u8) -> String {
    match b'a'.checked_add(index).filter(u8::is_ascii_lowercase) {
        Some(letter) => format!("client-{}", char::from(letter)),
        None => format!("client-{}", u16::from(index) + 1),
    }
}

/// Everything the builder asks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub clients: u8,
    pub behaviour: Behaviour,
    pub backend: BackendChoice,
    pub fencing: bool,
    pub ttl_ms: u64,
    pub work_ms: u64,
    pub latency_min_ms: u64,
    pub latency_max_ms: u64,
    pub seed: u64,
    /// Clients do their job again and again, for this long in all.
    pub run_ms: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            clients: 3,
            behaviour: Behaviour::ReadModifyWrite,
            backend: BackendChoice::SqlRow,
            fencing: true,
            ttl_ms: 1000,
            work_ms: 300,
            latency_min_ms: 2,
            latency_max_ms: 8,
            seed: 42,
            run_ms: 10_000,
        }
    }
}

impl Settings {
    /// The scenario file these settings describe. Out-of-range numbers are left for the parser
    /// to reject, with its message naming the field; the arithmetic here saturates, so that any
    /// settings make a file (a saturated number is out of every range).
    pub fn to_json(&self) -> String {
        let clients: Vec<Value> = (0..self.clients)
            .map(|i| {
                let mut client = json!({
                    "name": client_name(i),
                    "start_ms": u64::from(i).saturating_mul(self.work_ms / 2 + 1),
                    "ttl_ms": self.ttl_ms,
                    "work_ms": self.work_ms,
                    "access": { "kind": "read_modify_write" },
                    "retry": { "kind": "random", "max_delay_ms": self.ttl_ms / 2 + 1, "attempts": 1000 },
                    "repeat": { "kind": "every", "interval_ms": self.work_ms },
                });
                match self.behaviour {
                    Behaviour::ReadModifyWrite => {}
                    Behaviour::CheckThenWrite => {
                        client["lease_check"] = json!({
                            "kind": "before_write", "margin_ms": self.ttl_ms / 10,
                            "gap_ms": 0, "measure": "from_last_request"
                        });
                    }
                    Behaviour::Renewing => {
                        client["renewal"] = json!({ "kind": "every", "max_renewals": 10 });
                    }
                    Behaviour::RenewingWithDeadline => {
                        client["renewal"] = json!({ "kind": "every", "max_renewals": 10 });
                        client["local_deadline"] = json!({ "kind": "after", "ms": self.ttl_ms });
                    }
                    Behaviour::BlindWrite => {
                        client["access"] =
                            json!({ "kind": "blind_write", "value": u16::from(i) + 1 });
                    }
                }
                client
            })
            .collect();
        let scenario = json!({
            "format": lockstep_sim::scenario::version::FORMAT_VERSION,
            "id": "sandbox",
            "title": format!("Sandbox · {} clients, {}", self.clients, self.backend.label()),
            "summary": format!(
                "{} clients take turns on a {} with a {} ms lease and {} ms of work each time; fencing is {}.",
                self.clients, self.backend.label(), self.ttl_ms, self.work_ms,
                if self.fencing { "on" } else { "off" }
            ),
            "seed": self.seed,
            "end_ms": self.run_ms,
            "lock_service": self.backend.spec(),
            "resource": { "kind": "register", "fencing": if self.fencing { "on" } else { "off" } },
            "network": { "latency_ms": [self.latency_min_ms, self.latency_max_ms] },
            "clients": clients,
        });
        lockstep_sim::scenario::pretty::to_string(&scenario)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::Sim;
    use lockstep_sim::scenario::types::MAX_CLIENTS;
    use lockstep_sim::scenario::types::MAX_END_MS;
    use lockstep_sim::scenario::types::Scenario;
    use strum::VariantArray;

    #[test]
    fn every_backend_and_behaviour_makes_a_scenario_that_runs() {
        for &backend in BackendChoice::VARIANTS {
            for &behaviour in Behaviour::VARIANTS {
                let settings = Settings {
                    backend,
                    behaviour,
                    run_ms: 3000,
                    ..Settings::default()
                };
                let scenario = Scenario::parse(&settings.to_json())
                    .unwrap_or_else(|e| panic!("{backend:?} {behaviour:?}: {e}"));
                let mut sim = Sim::new(&scenario).unwrap_or_else(|e| panic!("{e}"));
                sim.run_to_end();
                assert!(
                    sim.trace().len() > 10,
                    "{backend:?} {behaviour:?} does something"
                );
            }
        }
    }

    #[test]
    fn the_deadline_behaviour_gives_every_client_a_local_deadline_of_one_ttl() {
        use lockstep_sim::models::client::LocalDeadline;
        use lockstep_sim::world::time::Millis;
        let settings = Settings {
            behaviour: Behaviour::RenewingWithDeadline,
            ..Settings::default()
        };
        let scenario = Scenario::parse(&settings.to_json()).expect("valid");
        for client in &scenario.clients {
            assert_eq!(
                client.local_deadline,
                LocalDeadline::After {
                    ms: Millis(settings.ttl_ms)
                }
            );
        }
        let renewing = Settings {
            behaviour: Behaviour::Renewing,
            ..Settings::default()
        };
        let scenario = Scenario::parse(&renewing.to_json()).expect("valid");
        assert!(
            scenario
                .clients
                .iter()
                .all(|c| c.local_deadline == LocalDeadline::Never {}),
            "the article's renewing lock keeps no deadline"
        );
    }

    #[test]
    fn bad_numbers_are_caught_by_the_parser_with_the_field_named() {
        let settings = Settings {
            clients: 9,
            ..Settings::default()
        };
        let error = Scenario::parse(&settings.to_json()).expect_err("nine clients is too many");
        assert!(error.to_string().contains("clients"), "{error}");
    }

    #[test]
    fn the_largest_numbers_make_a_file_without_overflowing_and_the_parser_names_the_field() {
        for &behaviour in Behaviour::VARIANTS {
            let settings = Settings {
                clients: u8::MAX,
                behaviour,
                ttl_ms: u64::MAX,
                work_ms: u64::MAX,
                latency_min_ms: u64::MAX,
                latency_max_ms: u64::MAX,
                seed: u64::MAX,
                run_ms: u64::MAX,
                ..Settings::default()
            };
            let error = Scenario::parse(&settings.to_json()).expect_err("out of range");
            assert!(error.to_string().contains("end_ms"), "{error}");
            let settings = Settings {
                run_ms: MAX_END_MS,
                ..settings
            };
            let error = Scenario::parse(&settings.to_json()).expect_err("out of range");
            assert!(error.to_string().contains("clients"), "{error}");
        }
    }

    #[test]
    fn the_most_clients_with_the_largest_times_the_form_offers_run() {
        for &backend in BackendChoice::VARIANTS {
            let settings = Settings {
                clients: FORM_MAX_CLIENTS,
                backend,
                ttl_ms: MAX_FORM_MS,
                work_ms: MAX_FORM_MS,
                latency_min_ms: MAX_FORM_LATENCY_MS,
                latency_max_ms: MAX_FORM_LATENCY_MS,
                seed: u64::MAX,
                run_ms: MAX_END_MS,
                ..Settings::default()
            };
            let scenario =
                Scenario::parse(&settings.to_json()).unwrap_or_else(|e| panic!("{backend:?}: {e}"));
            assert_eq!(scenario.clients.len(), MAX_CLIENTS);
            let mut sim = Sim::new(&scenario).unwrap_or_else(|e| panic!("{backend:?}: {e}"));
            sim.run_to_end();
            assert_eq!(sim.stopped_by_budget(), None, "{backend:?}");
        }
    }

    #[test]
    fn the_form_keeps_the_clients_within_the_documented_maximum() {
        assert_eq!(usize::from(FORM_MAX_CLIENTS), MAX_CLIENTS);
        assert_eq!(clients_from_form(0), 1);
        assert_eq!(clients_from_form(3), 3);
        assert_eq!(clients_from_form(9), FORM_MAX_CLIENTS);
        assert_eq!(clients_from_form(255), FORM_MAX_CLIENTS);
        assert_eq!(clients_from_form(u64::MAX), FORM_MAX_CLIENTS);
    }

    #[test]
    fn eight_clients_for_three_minutes_make_a_long_trace() {
        let settings = Settings {
            clients: 8,
            run_ms: 180_000,
            ..Settings::default()
        };
        let scenario = Scenario::parse(&settings.to_json()).expect("valid");
        let mut sim = Sim::new(&scenario).expect("runs");
        sim.run_to_end();
        assert!(sim.trace().len() >= 10_000, "{} events", sim.trace().len());
    }
}
