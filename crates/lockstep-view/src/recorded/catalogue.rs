//! The recorded real runs shipped with the site (`content/recorded/`, written by `cargo xtask
//! real --record`): which built-in scenario each plays, on which service, and its file. The
//! story binary reads only this list, to offer "Real run" on a scenario that has one; the full
//! binary fetches the file when the page opens.

/// One recording shipped with the site.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recording {
    /// The built-in scenario it plays.
    pub scenario: &'static str,
    /// The service's id in `lockstep-cli real --service` ("postgres", "redis",
    /// "redis-failover", "redlock", "etcd").
    pub service: &'static str,
    /// What the link says: "PostgreSQL", "one Redis".
    pub label: &'static str,
}

impl Recording {
    /// Its name in the page's address (`#real=s2-gc-pause-fenced.postgres`) and its file's
    /// (`recorded/s2-gc-pause-fenced.postgres.json`).
    pub fn id(&self) -> String {
        format!("{}.{}", self.scenario, self.service)
    }

    pub fn file(&self) -> String {
        format!("recorded/{}.json", self.id())
    }
}

pub const RECORDINGS: [Recording; 16] = [
    Recording {
        scenario: "s2-gc-pause-fenced",
        service: "postgres",
        label: "PostgreSQL",
    },
    Recording {
        scenario: "s1-gc-pause-unfenced",
        service: "postgres",
        label: "PostgreSQL",
    },
    Recording {
        scenario: "s4-delayed-packet",
        service: "postgres",
        label: "PostgreSQL",
    },
    Recording {
        scenario: "s3-fencing-gap",
        service: "postgres",
        label: "PostgreSQL",
    },
    Recording {
        scenario: "s8-held-safely-from-acquisition",
        service: "postgres",
        label: "PostgreSQL",
    },
    Recording {
        scenario: "s8-held-safely-corrected",
        service: "postgres",
        label: "PostgreSQL",
    },
    Recording {
        scenario: "s6-plain-del-release",
        service: "redis",
        label: "one Redis",
    },
    Recording {
        scenario: "s6-compare-and-delete-release",
        service: "redis",
        label: "one Redis",
    },
    Recording {
        scenario: "s9-failover-loses-the-lock",
        service: "redis-failover",
        label: "a Redis primary and its replica",
    },
    Recording {
        scenario: "s9-failover-reissues-a-token",
        service: "redis-failover",
        label: "a Redis primary and its replica",
    },
    Recording {
        scenario: "s10-redlock-clock-jump",
        service: "redlock",
        label: "five Redis nodes",
    },
    Recording {
        scenario: "s11-redlock-crash-restart",
        service: "redlock",
        label: "five Redis nodes",
    },
    Recording {
        scenario: "s11-redlock-delayed-restart",
        service: "redlock",
        label: "five Redis nodes",
    },
    Recording {
        scenario: "s14-consensus-client-partitioned",
        service: "etcd",
        label: "three etcd 3.5 members",
    },
    Recording {
        scenario: "s18-etcd-3-4-3-lock-bug",
        service: "etcd",
        label: "three etcd 3.4 members",
    },
    Recording {
        scenario: "s18-etcd-lock-rechecks-the-lease",
        service: "etcd",
        label: "three etcd 3.5 members",
    },
];

/// The recordings of the built-in scenario `scenario`.
pub fn of_scenario(scenario: &str) -> impl Iterator<Item = &'static Recording> + '_ {
    RECORDINGS.iter().filter(move |r| r.scenario == scenario)
}

/// The recording an address names.
pub fn find(id: &str) -> Option<&'static Recording> {
    RECORDINGS.iter().find(|r| r.id() == id)
}
