//! The example converter on a real Redis: S6 (the plain `DEL` release) played against Redis
//! with `MONITOR` collected and the resource's requests logged as an application would, both
//! converted into a history that must tell what the run's own recording tells — the same lock
//! requests with the same answers, worked out from MONITOR alone, and the same verdicts.

use lockstep_real::convert::{Setting, convert};
use lockstep_real::plan::{Plan, ServicePlan};
use lockstep_real::postgres::PostgresServer;
use lockstep_real::redis::{MonitorTap, RedisServer};
use lockstep_real::run::{RealRun, run};
use lockstep_real::servers::{SETUP, Servers};
use lockstep_sim::analysis::recorded_verdicts::{broken, judge};
use lockstep_sim::scenario::catalogue;
use lockstep_sim::story::recorded::{RecordedFencing, RecordedHistory, Request, Written};
use std::fmt::Write as _;

/// The resource's requests of a run as an application's logfmt lines, in Unix milliseconds.
fn app_log(real: &RealRun) -> String {
    let mut log = String::new();
    for op in &real.history.operations {
        let ts = real.started_unix_ms + op.at_ms;
        let took = op
            .answered_ms
            .map_or_else(String::new, |a| format!(" took_ms={}", a - op.at_ms));
        let line = match op.request {
            Request::Read(value) => format!(
                "ts={ts} client={} op=read{}{took}",
                op.client,
                value.map_or_else(String::new, |v| format!(" value={v}"))
            ),
            Request::Write {
                token,
                value,
                outcome,
                ..
            } => format!(
                "ts={ts} client={} op=write value={value}{}{took}{}",
                op.client,
                token.map_or_else(String::new, |t| format!(" token={t}")),
                match outcome {
                    Some(Written::Accepted) => " result=accepted",
                    Some(Written::Refused) => " result=refused",
                    None => "",
                }
            ),
            _ => continue,
        };
        let _ = writeln!(log, "{line}");
    }
    log
}

/// Each lock request's client, kind and answer, in order.
fn lock_requests(history: &RecordedHistory) -> Vec<(String, Request)> {
    history
        .operations
        .iter()
        .filter(|o| matches!(o.request, Request::Acquire(_) | Request::Release(_)))
        .map(|o| (o.client.clone(), o.request))
        .collect()
}

#[test]
fn monitor_and_an_app_log_convert_into_the_history_the_run_recorded() {
    let postgres = PostgresServer::start().unwrap_or_else(|e| panic!("{e}"));
    let redis = RedisServer::start().unwrap_or_else(|e| panic!("{e}"));
    let servers = Servers {
        postgres: &postgres,
        redis: Some(&redis),
    };
    // A plain DEL that deletes the next holder's key; compare-and-delete scripts that find
    // another's value, and a SET NX refused while the key is held.
    for id in ["s6-plain-del-release", "s6-compare-and-delete-release"] {
        converts_as_recorded(&servers, id);
    }
}

fn converts_as_recorded(servers: &Servers, id: &str) {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is built in"));
    let plan = Plan::of(&scenario).expect("plays");
    let redis = servers.redis.expect("Redis");
    let tap = MonitorTap::start(redis).expect("MONITOR starts");
    let real = run(servers, &plan).expect("runs");
    let monitor = tap.finish(redis).expect("MONITOR ends");
    assert!(monitor.contains("\"SETNAME\" \"client-c\""), "{monitor}");
    let ServicePlan::Cache { key, .. } = &plan.service else {
        panic!("{id} is played on Redis");
    };
    let setting = Setting {
        key: key.clone(),
        ignore: vec![SETUP.to_owned()],
        title: format!("{id} from MONITOR"),
        recorded: real.history.recorded.clone(),
        lock_service: real.history.lock_service.clone(),
        resource: real.history.resource.clone(),
        initial_value: real.history.initial_value,
        fencing: RecordedFencing::Off,
    };
    let converted = convert(&monitor, &app_log(&real), &setting).expect("converts");
    assert_eq!(
        lock_requests(&converted),
        lock_requests(&real.history),
        "{id}: MONITOR alone tells each answer"
    );
    assert_eq!(
        broken(&judge(&converted)),
        broken(&judge(&real.history)),
        "{id}: the same verdicts, {:?}",
        judge(&converted)
    );
    let writes = |h: &RecordedHistory| {
        h.operations
            .iter()
            .filter(|o| matches!(o.request, Request::Write { .. }))
            .count()
    };
    assert_eq!(writes(&converted), writes(&real.history), "{id}");
}
