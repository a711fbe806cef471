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
    /// What the recording shows, in one sentence: what the real servers did.
    pub shows: &'static str,
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

/// In catalogue order, as the real-runs page lists them.
pub const RECORDINGS: [Recording; 16] = [
    Recording {
        scenario: "s1-gc-pause-unfenced",
        service: "postgres",
        label: "PostgreSQL",
        shows: "PostgreSQL accepts client-a's stale write with token 33 after client-b's with 34: nothing checks the token, and client-b's increment is lost.",
    },
    Recording {
        scenario: "s2-gc-pause-fenced",
        service: "postgres",
        label: "PostgreSQL",
        shows: "PostgreSQL refuses client-a's write with token 33 once client-b has written with 34: the fencing token keeps the data.",
    },
    Recording {
        scenario: "s3-fencing-gap",
        service: "postgres",
        label: "PostgreSQL",
        shows: "client-a's write with 33 lands before client-b's first write with 34, so PostgreSQL accepts both, and client-b overwrites client-a's increment.",
    },
    Recording {
        scenario: "s4-delayed-packet",
        service: "postgres",
        label: "PostgreSQL",
        shows: "client-a crashes after sending a write that a slow link holds back; PostgreSQL applies it after client-b's write with 34.",
    },
    Recording {
        scenario: "s6-compare-and-delete-release",
        service: "redis",
        label: "one Redis",
        shows: "client-a's compare-and-delete finds client-b's value in Redis and deletes nothing; client-c gets the lock only after client-b releases.",
    },
    Recording {
        scenario: "s6-plain-del-release",
        service: "redis",
        label: "one Redis",
        shows: "client-a's plain DEL deletes client-b's key in Redis, so client-c takes the lock while client-b still works: both write.",
    },
    Recording {
        scenario: "s8-held-safely-corrected",
        service: "postgres",
        label: "PostgreSQL",
        shows: "Measured from its last renewal, client-a's check finds time left on the lease and it writes: the renewed lease is trusted.",
    },
    Recording {
        scenario: "s8-held-safely-from-acquisition",
        service: "postgres",
        label: "PostgreSQL",
        shows: "Measured from the acquisition, client-a's check says the lease is gone while PostgreSQL still holds it for client-a, so it skips its write.",
    },
    Recording {
        scenario: "s9-failover-loses-the-lock",
        service: "redis-failover",
        label: "a Redis primary and its replica",
        shows: "The Redis primary crashes before its replica has client-a's key; the promoted replica grants the lock to client-b, and both write.",
    },
    Recording {
        scenario: "s9-failover-reissues-a-token",
        service: "redis-failover",
        label: "a Redis primary and its replica",
        shows: "The promoted replica hands out token 1 a second time, and PostgreSQL accepts both clients' writes with it.",
    },
    Recording {
        scenario: "s10-redlock-clock-jump",
        service: "redlock",
        label: "five Redis nodes",
        shows: "Node C's clock jumps and its key expires early, so client-2 locks C, D and E while client-1 still holds A, B and C: both write.",
    },
    Recording {
        scenario: "s11-redlock-crash-restart",
        service: "redlock",
        label: "five Redis nodes",
        shows: "Node C restarts without its keys, so client-2 locks C, D and E while client-1 still holds A, B and C: both write.",
    },
    Recording {
        scenario: "s11-redlock-delayed-restart",
        service: "redlock",
        label: "five Redis nodes",
        shows: "Node C stays down longer than a lease, so client-2 reaches only two of the five nodes and gives up: one holder.",
    },
    Recording {
        scenario: "s14-consensus-client-partitioned",
        service: "etcd",
        label: "three etcd 3.5 members",
        shows: "Cut off from every etcd member but not from PostgreSQL, client-a loses its session; client-b takes the lock, and both write.",
    },
    Recording {
        scenario: "s18-etcd-3-4-3-lock-bug",
        service: "etcd",
        label: "three etcd 3.4 members",
        shows: "etcd 3.4.23 tells client-1, whose lease expired while it waited, that it holds the lock; client-3 gets it too, and both write.",
    },
    Recording {
        scenario: "s18-etcd-lock-rechecks-the-lease",
        service: "etcd",
        label: "three etcd 3.5 members",
        shows: "etcd 3.5.16 re-checks client-1's lease and tells it its session expired: client-3 is the only holder.",
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
