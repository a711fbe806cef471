//! The reality check, once per case: real PostgreSQL and Redis servers, started here on
//! loopback and stopped after, the article's lock table and acquire statement, Redis's `SET NX
//! PX` and its compare-and-delete release, a Redis primary whose replica is promoted after it
//! crashes, five Redlock nodes, an etcd cluster, and a register in PostgreSQL as the resource
//! (through a slow link for S4's delayed packet). What the real clients saw must be what
//! the simulation says happens: the same writes accepted and refused, with the same tokens, the
//! same final value and the same invariants broken.

use lockstep_real::conformance::case;
use lockstep_real::etcd::EtcdRelease;
use lockstep_real::outcome::{OutcomeClass, Write};
use lockstep_real::plan::{Plan, ServicePlan};
use lockstep_real::postgres::PostgresServer;
use lockstep_real::redis::RedisServer;
use lockstep_real::run::{RealRun, run};
use lockstep_real::servers::Servers;
use lockstep_sim::Scenario;
use lockstep_sim::models::lock_service::Persistence;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::LockServiceSpec;
use lockstep_sim::story::recorded::Request;
use lockstep_sim::vocabulary::invariant::{Invariant, InvariantSet};
use lockstep_sim::world::intervention::{Action, Intervention};
use lockstep_sim::world::time::{Millis, VirtualTime};
use std::net::TcpStream;

fn scenario(id: &str) -> Scenario {
    catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is built in"))
}

fn write(client: &str, token: Option<u64>, accepted: bool) -> Write {
    Write {
        client: client.to_owned(),
        token,
        accepted,
    }
}

/// Runs `id` for real once, and expects both the real run and the simulation to end as
/// `writes` and `final_value` say, having broken the invariants in `broke`. On etcd the
/// tokens are compared by their order (`OutcomeClass::compared_on`): `writes` gives ranks.
/// Returns the real run, for what a case checks beyond its class.
fn expect(
    servers: &Servers,
    id: &str,
    writes: Vec<Write>,
    final_value: i64,
    broke: &[Invariant],
) -> RealRun {
    expect_of(servers, &scenario(id), writes, final_value, broke)
}

/// As [`expect`], for a scenario made here.
fn expect_of(
    servers: &Servers,
    scenario: &Scenario,
    writes: Vec<Write>,
    final_value: i64,
    broke: &[Invariant],
) -> RealRun {
    let id = &scenario.id;
    let plan = Plan::of(scenario).unwrap_or_else(|e| panic!("{id}: {e}"));
    assert_eq!(plan.faults.unmade, [], "{id}: every fault is made");
    let real_run = run(servers, &plan).unwrap_or_else(|e| panic!("{id}: {e}"));
    let real = OutcomeClass::of_real(&real_run).compared_on(&plan.service);
    let simulated = OutcomeClass::of_sim(scenario)
        .expect("the scenario runs")
        .compared_on(&plan.service);
    let expected = OutcomeClass {
        writes,
        final_value,
        broken: broke
            .iter()
            .fold(InvariantSet::EMPTY, |set, i| set.with(*i)),
    };
    assert_eq!(real, expected, "{id}, for real: {real}");
    assert_eq!(simulated, expected, "{id}, simulated: {simulated}");
    real_run
}

/// When `client` sent its write, and the token it wrote with.
fn write_of(run: &RealRun, client: &str) -> (u64, Option<u64>) {
    run.history
        .operations
        .iter()
        .find_map(|op| match op.request {
            Request::Write { token, .. } if op.client == client => Some((op.at_ms, token)),
            _ => None,
        })
        .unwrap_or_else(|| panic!("{client} wrote"))
}

fn nothing_listens_on(port: u16) -> bool {
    TcpStream::connect(("127.0.0.1", port)).is_err()
}

#[test]
fn real_servers_decide_as_the_simulation_does() {
    let postgres = PostgresServer::start().unwrap_or_else(|e| panic!("{e}"));
    let redis = RedisServer::start().unwrap_or_else(|e| panic!("{e}"));
    let servers = Servers {
        postgres: &postgres,
        redis: Some(&redis),
    };
    // A scenario with a fault this runner cannot make is no case of the suite.
    let unmade = case(&servers, "s12-redlock-pause-during-acquisition", 1)
        .err()
        .map(|e| e.to_string());
    assert!(
        unmade
            .as_deref()
            .is_some_and(|e| e.contains("cannot be a case of the suite")),
        "{unmade:?}"
    );
    postgres_cases(&servers);
    redis_cases(&servers);
    redlock_case(&servers);
    etcd_cases(&servers);

    let ports = [postgres.port(), redis.port()];
    drop(redis);
    drop(postgres);
    for port in ports {
        assert!(
            nothing_listens_on(port),
            "something still listens on {port}"
        );
    }
    // Nothing written where the run was started from (a replica's full synchronisation writes
    // `dump.rdb` in its server's working directory), nor left in the temporary directory.
    assert!(
        !std::path::Path::new("dump.rdb").exists(),
        "a Redis server wrote dump.rdb into the caller's directory"
    );
    assert!(
        left_in_temp().is_empty(),
        "left behind: {:?}",
        left_in_temp()
    );
}

/// The cases on PostgreSQL's lock row.
fn postgres_cases(servers: &Servers) {
    // PostgreSQL itself refuses the paused client's token 33 once 34 has written.
    let (a, b) = ("client-a", "client-b");
    let s2 = expect(
        servers,
        "s2-gc-pause-fenced",
        vec![write(b, Some(34), true), write(a, Some(33), false)],
        1,
        &[Invariant::OneBeliever],
    );
    // A pause as the simulation plays it: client-a's 200 ms of work run on during its 2,000-ms
    // pause at 50 ms, so it writes when the pause ends (2,050 ms, as simulated), not 200 ms
    // after it (about 2,250 ms) as a pause added to the work would have it.
    let (sent, _) = write_of(&s2, a);
    assert!((2050..2150).contains(&sent), "client-a wrote at {sent} ms");
    // Without fencing it applies it: client-b's increment is lost.
    expect(
        servers,
        "s1-gc-pause-unfenced",
        vec![write(b, Some(34), true), write(a, Some(33), true)],
        1,
        &[
            Invariant::OneBeliever,
            Invariant::NoStaleWrite,
            Invariant::NoLostUpdate,
        ],
    );
    // A delayed packet: client-a's write waits 1.5 s on its slow link to the register, and
    // client-a crashes meanwhile; its lease runs out, client-b writes with 34, then client-a's
    // write lands. Only the register's own log says it did, and when.
    expect(
        servers,
        "s4-delayed-packet",
        vec![write(b, Some(34), true), write(a, Some(33), true)],
        33,
        &[Invariant::NoStaleWrite],
    );
    // The fencing gap: with fencing on, 33 lands before 34's first write.
    expect(
        servers,
        "s3-fencing-gap",
        vec![write(a, Some(33), true), write(b, Some(34), true)],
        1,
        &[
            Invariant::OneBeliever,
            Invariant::NoStaleWrite,
            Invariant::NoLostUpdate,
        ],
    );
    // The article's RenewingLock renews every TTL/3 while it works 2 s under a 1-s lease, then
    // checks heldSafely() before writing. Measured from the acquisition, the renewed lease
    // looks expired and the write is skipped; measured from the last renewal, it is written.
    expect(
        servers,
        "s8-held-safely-from-acquisition",
        Vec::new(),
        0,
        &[],
    );
    expect(
        servers,
        "s8-held-safely-corrected",
        vec![write(a, Some(33), true)],
        1,
        &[],
    );
}

/// Redlock, on nodes the run starts for itself.
fn redlock_case(servers: &Servers) {
    // A node that restarts without its keys (S11): client-1 locks A, B and C; C is killed and
    // restarted empty at once; client-2, cut from A and B, locks C, D and E. Both write.
    expect(
        servers,
        "s11-redlock-crash-restart",
        vec![write("client-2", None, true), write("client-1", None, true)],
        1,
        &[Invariant::OneBeliever],
    );
    // A node's pause is its process stopped (`SIGSTOP`): client-2, cut from A and B, finds C
    // answering nothing while it is stopped, gets D and E only, and gives up. Without the
    // pause C, D and E would grant it, and it would write.
    expect_of(servers, &paused_node(), Vec::new(), 0, &[]);
    // With the delayed restart, C is still down when client-2 asks: two of five, no lock.
    expect(
        servers,
        "s11-redlock-delayed-restart",
        vec![write("client-1", None, true)],
        1,
        &[],
    );
    // Redlock on five independent Redis nodes, each client linked to each node on its own:
    // client-1 locks A, B and C (its links to D and E are cut); C's wall clock jumps 15 s, so
    // its key expires; client-2, cut from A and B, locks C, D and E. Both believe they hold it
    // and both blind writes land.
    expect(
        servers,
        "s10-redlock-clock-jump",
        vec![write("client-2", None, true), write("client-1", None, true)],
        1,
        &[Invariant::OneBeliever],
    );
}

/// S11 with client-2 alone and redis-c paused from 100 ms for 1.5 s instead of crashed.
fn paused_node() -> Scenario {
    let mut paused = scenario("s11-redlock-crash-restart");
    paused.id = "s11-with-redis-c-paused".to_owned();
    paused.clients.retain(|c| c.name == "client-2");
    paused.expectations.clear();
    paused
        .interventions
        .retain(|i| !matches!(&i.action, Action::Partition { from, .. } if from == "client-1"));
    paused
        .interventions
        .retain(|i| !matches!(i.action, Action::Crash { .. } | Action::Restart { .. }));
    paused.interventions.push(Intervention {
        at_ms: VirtualTime(100),
        action: Action::Pause {
            node: "redis-c".to_owned(),
            for_ms: Some(Millis(1_500)),
        },
    });
    paused
}

/// The cases on a three-member etcd cluster the run starts for itself.
fn etcd_cases(servers: &Servers) {
    // Session expiry (S14), on Debian 13's etcd 3.5.16: client-a is cut off from every member,
    // both ways, while it works;
    // its keepalives go unanswered, etcd revokes its lease, client-b takes the lock and
    // writes, and client-a, which keeps no deadline, writes after it.
    expect(
        servers,
        "s14-consensus-client-partitioned",
        vec![
            write("client-b", Some(2), true),
            write("client-a", Some(1), true),
        ],
        1,
        &[
            Invariant::OneBeliever,
            Invariant::NoStaleWrite,
            Invariant::NoLostUpdate,
        ],
    );
    // Jepsen's S18, on Debian 12's etcd 3.4.23: client-1 waits behind client-2, its messages
    // to etcd are lost, its lease runs out while it waits; when client-2 unlocks, etcd 3.4
    // still tells client-1 it holds the lock, and client-3 takes it beside it.
    let bug = expect(
        servers,
        "s18-etcd-3-4-3-lock-bug",
        vec![
            write("client-2", Some(1), true),
            write("client-1", Some(2), true),
            write("client-3", Some(3), true),
        ],
        3,
        &[Invariant::OneBeliever, Invariant::NoStaleWrite],
    );
    // The token is the lock key's create revision, as the model's: client-1 put its key right
    // after client-2's, so its token is the next revision. The revision in `Lock`'s answer
    // header would be higher: the store's at the end of the wait, after client-1's key was
    // deleted with its lease and client-2's by its unlock.
    let (_, holder) = write_of(&bug, "client-2");
    let (_, waiter) = write_of(&bug, "client-1");
    assert_eq!(
        waiter,
        holder.map(|t| t + 1),
        "client-1's token is its key's create revision"
    );
    // The fix, on etcd 3.5: when client-1's turn comes, the server finds its key gone with its
    // lease and answers that its session expired; client-1 never writes, client-3 alone does.
    expect(
        servers,
        "s18-etcd-lock-rechecks-the-lease",
        vec![
            write("client-2", Some(1), true),
            write("client-3", Some(2), true),
        ],
        3,
        &[],
    );
}

/// The cases on Redis: one server, then a primary and its replica.
fn redis_cases(servers: &Servers) {
    let (a, b) = ("client-a", "client-b");
    // On Redis, a plain DEL by the expired holder deletes client-b's lock and lets client-c in
    // beside it; the compare-and-delete script leaves it, and client-c waits its turn.
    let c = "client-c";
    expect(
        servers,
        "s6-plain-del-release",
        vec![
            write(a, None, true),
            write(c, None, true),
            write(b, None, true),
        ],
        2,
        &[Invariant::OneBeliever],
    );
    expect(
        servers,
        "s6-compare-and-delete-release",
        vec![
            write(a, None, true),
            write(b, None, true),
            write(c, None, true),
        ],
        3,
        &[Invariant::OneBeliever],
    );
    // A primary and its replica (their own pair, started by the run): the primary crashes
    // before its write reaches the replica, which is promoted without the key; client-b takes
    // the same lock, and both clients' writes land.
    expect(
        servers,
        "s9-failover-loses-the-lock",
        vec![write(b, None, true), write(a, None, true)],
        1,
        &[Invariant::OneBeliever],
    );
    // The same with a token counter beside the key: the counter's increment had not reached
    // the replica either, so the promoted replica hands client-b token 1 again, and the
    // resource, which accepts a token at least the highest it has seen, takes both writes.
    expect(
        servers,
        "s9-failover-reissues-a-token",
        vec![write(b, Some(1), true), write(a, Some(1), true)],
        1,
        &[
            Invariant::OneBeliever,
            Invariant::TokensIncrease,
            Invariant::OneWriterPerToken,
        ],
    );
}

/// This process's servers' directories still in the temporary directory.
fn left_in_temp() -> Vec<String> {
    let mine = format!("-{}-", std::process::id());
    std::fs::read_dir(std::env::temp_dir())
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|name| name.starts_with("lockstep-") && name.contains(&mine))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_scenario_this_runner_cannot_make_for_real_is_refused_with_why() {
    for (id, why) in [
        (
            "s13-consensus-lock-delay",
            "SQL row, one Redis, a Redis primary",
        ),
        ("s19-data-grid-split-brain", "the lock service is"),
        (
            "s8-renewal-outlives-stuck-work-capped",
            "runs out of renewals before its work is done",
        ),
        // An hour of work in a 2-minute scenario: the simulation stops at its end.
        (
            "s8-renewal-outlives-stuck-work",
            "is still working when the scenario ends",
        ),
    ] {
        let refused = Plan::of(&scenario(id)).expect_err(id);
        assert!(refused.to_string().contains(why), "{id}: {refused}");
    }
}

/// A fault this runner cannot make is named, and the run goes without it: a pause while
/// Redlock's client still waits for the nodes (it stops a client only while it works); the
/// resource's crash and restart; a Redlock node's crash that loses the last second of its
/// append-only file (a power cut: a killed process loses nothing the kernel has), and so its
/// restart; a client's crash as it starts. A scenario whose every fault is made names none.
#[test]
fn a_fault_this_runner_cannot_make_is_named_and_the_run_goes_without_it() {
    let unmade = |s: &Scenario| -> Vec<(u64, String)> {
        let plan = Plan::of(s).unwrap_or_else(|e| panic!("{}: {e}", s.id));
        plan.faults
            .unmade
            .iter()
            .map(|u| (u.at_ms, u.to_string()))
            .collect()
    };
    let said = |list: &[(u64, String)]| -> Vec<(u64, bool)> {
        list.iter()
            .map(|(at, words)| (*at, words.contains("the run goes without it")))
            .collect()
    };
    let s12 = unmade(&scenario("s12-redlock-pause-during-acquisition"));
    assert_eq!(said(&s12), [(1, true)]);
    assert!(s12[0].1.contains(r#""action":"pause""#), "{s12:?}");
    let resource = unmade(&scenario("s2-gc-pause-fenced-resource-restarts"));
    assert_eq!(said(&resource), [(1600, true), (1800, true)]);
    let mut aof = scenario("s11-redlock-crash-restart");
    if let LockServiceSpec::Redlock { persistence, .. } = &mut aof.lock_service {
        *persistence = Persistence::EverySecond;
    }
    assert_eq!(said(&unmade(&aof)), [(300, true), (310, true)]);
    let mut crashed_at_start = scenario("s4-delayed-packet");
    crashed_at_start.interventions[0].at_ms = VirtualTime(0);
    assert_eq!(said(&unmade(&crashed_at_start)), [(0, true)]);
    for whole in [
        "s11-redlock-crash-restart",
        "s4-delayed-packet",
        "s10-redlock-clock-jump",
    ] {
        assert_eq!(unmade(&scenario(whole)), [], "{whole}");
    }
}

/// S4's slow link is played as its file says, and not as anything near it this runner cannot
/// make: a slow link of a latency that varies, or one to the lock service.
#[test]
fn s4_is_played_only_as_its_file_says() {
    assert!(Plan::of(&scenario("s4-delayed-packet")).is_ok());
    let varying = |s: &mut Scenario| s.network.links[0].latency_ms = [1000, 1500];
    let to_the_lock = |s: &mut Scenario| s.network.links[0].to = "lock-service".to_owned();
    for change in [&varying as &dyn Fn(&mut Scenario), &to_the_lock] {
        let mut changed = scenario("s4-delayed-packet");
        change(&mut changed);
        let refused = Plan::of(&changed).expect_err("refused");
        assert!(
            refused.to_string().contains("sets a link apart"),
            "{refused}"
        );
    }
}

/// etcd 3.4.x's lock bug (fixed in 3.5.0) is played on Debian 12's etcd 3.4.23, which has it;
/// every other etcd scenario on Debian 13's 3.5.16, whose lock API re-checks the waiter's key.
#[test]
fn etcd_scenarios_run_on_the_release_they_need() {
    for (id, release) in [
        ("s18-etcd-3-4-3-lock-bug", EtcdRelease::Debian12),
        ("s18-etcd-lock-rechecks-the-lease", EtcdRelease::Debian13),
        ("s14-consensus-client-partitioned", EtcdRelease::Debian13),
    ] {
        let plan = Plan::of(&scenario(id)).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert!(
            matches!(plan.service, ServicePlan::Etcd { release: r, .. } if r == release),
            "{id}: {:?}",
            plan.service
        );
    }
}
