//! The sandbox's "build your own" settings, and the scenario file they make.
//!
//! The settings are plain data; [`Settings::to_json`] writes a scenario file, which goes through
//! the same parser and checks as an imported one, so the builder cannot make a scenario that a
//! file could not express. Pure: tested natively.

use serde_json::{Value, json};

/// How the clients use the lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Behaviour {
    /// Read, work, write back `value + 1`: the lost update waiting to happen.
    ReadModifyWrite,
    /// The same, with the seed's `heldSafely()` check just before the write.
    CheckThenWrite,
    /// The seed's renewing lock: renew every TTL/3, at most 10 times.
    Renewing,
    /// Work, then write a value without reading.
    BlindWrite,
}

impl Behaviour {
    pub const ALL: [Behaviour; 4] = [
        Behaviour::ReadModifyWrite,
        Behaviour::CheckThenWrite,
        Behaviour::Renewing,
        Behaviour::BlindWrite,
    ];

    pub fn id(self) -> &'static str {
        match self {
            Behaviour::ReadModifyWrite => "read_modify_write",
            Behaviour::CheckThenWrite => "check_then_write",
            Behaviour::Renewing => "renewing",
            Behaviour::BlindWrite => "blind_write",
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Behaviour::ReadModifyWrite => "Read, work, write back (read-modify-write)",
            Behaviour::CheckThenWrite => "Check the lease, then write (heldSafely)",
            Behaviour::Renewing => "Renew every TTL/3 (the article's RenewingLock)",
            Behaviour::BlindWrite => "Work, then write without reading",
        }
    }
}

/// Which lock service runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendChoice {
    SqlRow,
    Cache,
    ReplicatedCache,
    Redlock,
    Consensus,
    DataGrid,
}

impl BackendChoice {
    pub const ALL: [BackendChoice; 6] = [
        BackendChoice::SqlRow,
        BackendChoice::Cache,
        BackendChoice::ReplicatedCache,
        BackendChoice::Redlock,
        BackendChoice::Consensus,
        BackendChoice::DataGrid,
    ];

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
    /// to reject, with its message naming the field.
    pub fn to_json(&self) -> String {
        let clients: Vec<Value> = (0..self.clients)
            .map(|i| {
                let mut client = json!({
                    "name": format!("client-{}", (b'a' + i) as char),
                    "start_ms": u64::from(i) * (self.work_ms / 2 + 1),
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
                    Behaviour::BlindWrite => {
                        client["access"] = json!({ "kind": "blind_write", "value": i + 1 });
                    }
                }
                client
            })
            .collect();
        let scenario = json!({
            "format": 1,
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
        serde_json::to_string_pretty(&scenario).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::Sim;
    use lockstep_sim::scenario::Scenario;

    #[test]
    fn every_backend_and_behaviour_makes_a_scenario_that_runs() {
        for backend in BackendChoice::ALL {
            for behaviour in Behaviour::ALL {
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
    fn bad_numbers_are_caught_by_the_parser_with_the_field_named() {
        let settings = Settings {
            clients: 9,
            ..Settings::default()
        };
        let error = Scenario::parse(&settings.to_json()).expect_err("nine clients is too many");
        assert!(error.to_string().contains("clients"), "{error}");
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
