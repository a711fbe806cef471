//! The chaos engine's native tests. Where a test expects no violation, a sibling shows the same
//! count finding one in a variant that must break.

use super::*;
use crate::engine::sim::Sim;
use crate::models::resource::Fencing;
use crate::scenario::types::Scenario;
use crate::vocabulary::happening::Happening;
use crate::vocabulary::invariant::Invariant;
use crate::world::intervention::Action;
use crate::world::time::Millis;

fn settings(backend: ChaosBackend, fencing: Fencing, faults: FaultSet) -> ChaosSettings {
    ChaosSettings {
        backend,
        fencing,
        clients: ClientCount::new(4).expect("4 clients"),
        faults,
        duration: Millis(30_000),
    }
}

fn fnv1a64(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The article's scenarios without failover (pauses and partitions) for seeds 1..=20, fencing
/// on and off, as the chaos generator made them before the chaos engine existed: the FNV-1a
/// hash of their JSON, one per line, as computed on that code (which the new generator also
/// matched scenario for scenario on seeds 1..=200 for the three services it had).
const ARTICLE_SCENARIOS_FINGERPRINT: u64 = 0x376d_1fc3_86c7_0c67;

#[test]
fn the_articles_pauses_and_partitions_are_the_scenarios_they_always_were() {
    let json: Vec<String> = (1..=20)
        .flat_map(|seed| {
            [Fencing::On, Fencing::Off].map(|fencing| {
                let scenario = ChaosSettings::pauses_and_partitions(fencing).scenario(seed);
                // Written as format 2 now; the fingerprint is of the same files in format 1,
                // whose shape these files share (they cite `sources`, with no `source` text).
                serde_json::to_string(&scenario)
                    .expect("a scenario serialises")
                    .replacen("{\"format\":2,", "{\"format\":1,", 1)
            })
        })
        .collect();
    assert_eq!(
        fnv1a64(json.join("\n").as_bytes()),
        ARTICLE_SCENARIOS_FINGERPRINT
    );
    let mut sim = Sim::new(&ChaosSettings::pauses_and_partitions(Fencing::On).scenario(1))
        .expect("the article's scenario is valid");
    sim.run_to_end();
    // The events are the ones the bench has always run; the hash changed with `no_stale_write`
    // judged from the grants (e747a1fec95a1d82 before): this run has a write in the gap.
    assert_eq!(sim.hash(), "2a5cf13693a02e01", "the bench's trace hash");
    assert_eq!(
        Chaos::verification_test(1, Fencing::On).scenario(),
        ChaosSettings::verification_test(Fencing::On).scenario(1)
    );
}

/// The article's test fails its lock service over: its scenarios are the ones without failover
/// with the crashes and restarts added, drawn after the pauses and partitions.
#[test]
fn the_articles_test_adds_failover_to_the_same_pauses_and_partitions() {
    for seed in 1..=20 {
        for fencing in [Fencing::On, Fencing::Off] {
            let without = ChaosSettings::pauses_and_partitions(fencing).scenario(seed);
            let with = ChaosSettings::verification_test(fencing).scenario(seed);
            let (crashes, others): (Vec<_>, Vec<_>) = with
                .interventions
                .iter()
                .cloned()
                .partition(|i| kind_of(&i.action) == FaultKind::Crashes);
            assert_eq!(others, without.interventions, "seed {seed}");
            assert!(!crashes.is_empty(), "seed {seed}: the service fails over");
            assert_eq!(with.clients, without.clients, "seed {seed}");
        }
    }
    assert_eq!(
        ChaosSettings::verification_test(Fencing::On).faults,
        FaultSet::of(&[FaultKind::Pauses, FaultKind::Partitions, FaultKind::Crashes])
    );
}

/// Every fault set with one kind, none and all.
fn fault_sets() -> Vec<FaultSet> {
    let mut sets = vec![FaultSet::NONE, FaultSet::ALL];
    sets.extend(FaultKind::ALL.map(|kind| FaultSet::of(&[kind])));
    sets
}

#[test]
fn every_generated_scenario_is_valid_and_reads_back_from_its_file() {
    for backend in ChaosBackend::ALL {
        for faults in fault_sets() {
            for clients in [ClientCount::MIN, 8, ClientCount::MAX] {
                for seed in [1, 2, u64::MAX] {
                    let settings = ChaosSettings {
                        clients: ClientCount::new(clients).expect("in range"),
                        ..settings(backend, Fencing::Off, faults)
                    };
                    let scenario = settings.scenario(seed);
                    let json = serde_json::to_vec(&scenario).expect("serialises");
                    let read = Scenario::parse_bytes(&json)
                        .unwrap_or_else(|e| panic!("{settings} seed {seed}: {e}"));
                    assert_eq!(read, scenario, "{settings} seed {seed}");
                    assert!(Sim::new(&read).is_ok(), "{settings} seed {seed}");
                    assert_eq!(scenario.clients.len(), usize::from(clients));
                    assert_eq!(scenario.lock_service, backend.spec());
                    assert_eq!(scenario.end_ms, settings.duration);
                }
            }
        }
    }
}

#[test]
fn each_backend_is_its_own_lock_service() {
    let kinds: Vec<String> = ChaosBackend::ALL
        .iter()
        .map(|backend| {
            let scenario = settings(*backend, Fencing::On, FaultSet::NONE).scenario(1);
            let json = serde_json::to_value(&scenario.lock_service).expect("serialises");
            json["kind"].as_str().unwrap_or_default().to_owned()
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "sql_row",
            "cache",
            "replicated_cache",
            "data_grid",
            "redlock",
            "consensus"
        ]
    );
}

/// The kind of fault an intervention is, if a chaos fault.
fn kind_of(action: &Action<String>) -> FaultKind {
    match action {
        Action::Pause { .. } => FaultKind::Pauses,
        Action::Partition { .. } | Action::Heal { .. } => FaultKind::Partitions,
        Action::ClockJump { .. } => FaultKind::ClockJumps,
        Action::Crash { .. } | Action::Restart { .. } => FaultKind::Crashes,
        other => panic!("a chaos run has no {other:?}"),
    }
}

#[test]
fn each_fault_kind_strikes_when_chosen_and_only_then() {
    for backend in ChaosBackend::ALL {
        for faults in fault_sets() {
            let scenario = settings(backend, Fencing::On, faults).scenario(3);
            let struck = scenario
                .interventions
                .iter()
                .fold(FaultSet::NONE, |set, i| set.with(kind_of(&i.action)));
            assert_eq!(struck, faults, "{backend:?}");
        }
        let scenario = settings(backend, Fencing::On, FaultSet::ALL).scenario(3);
        let service = backend.spec().node_names();
        for intervention in &scenario.interventions {
            match &intervention.action {
                Action::Crash { node } | Action::Restart { node } => {
                    assert!(service.contains(node), "{node} is not a lock-service node");
                }
                Action::Pause { node, .. } => assert!(node.starts_with("client-")),
                _ => {}
            }
        }
    }
    let jumps: Vec<i64> = (1..=5)
        .flat_map(|seed| {
            settings(ChaosBackend::Redlock, Fencing::Off, FaultSet::ALL)
                .scenario(seed)
                .interventions
                .into_iter()
                .filter_map(|i| match i.action {
                    Action::ClockJump { by_ms, .. } => Some(by_ms),
                    _ => None,
                })
        })
        .collect();
    assert!(jumps.iter().any(|&j| j > 0) && jumps.iter().any(|&j| j < 0));
}

#[test]
fn a_crashed_replicated_primary_is_failed_over() {
    let settings = settings(
        ChaosBackend::ReplicatedCache,
        Fencing::On,
        FaultSet::of(&[FaultKind::Crashes]),
    );
    let failed_over = (1..=5).any(|seed| {
        let mut sim = Sim::new(&settings.scenario(seed)).expect("valid");
        sim.run_to_end();
        sim.trace()
            .iter()
            .any(|e| matches!(e.happening, Happening::FailedOver { .. }))
    });
    assert!(failed_over);
}

#[test]
fn the_settings_text_form_reads_back_to_the_same_settings() {
    let mut count = 0;
    for backend in ChaosBackend::ALL {
        for fencing in [
            Fencing::On,
            Fencing::Off,
            Fencing::CheckAndSet,
            Fencing::Sequencer,
        ] {
            for bits in 0..16u8 {
                let faults = FaultSet::of(
                    &FaultKind::ALL
                        .into_iter()
                        .enumerate()
                        .filter(|(i, _)| bits & (1 << i) != 0)
                        .map(|(_, k)| k)
                        .collect::<Vec<_>>(),
                );
                let settings = ChaosSettings {
                    backend,
                    fencing,
                    clients: ClientCount::new(1 + bits % ClientCount::MAX).expect("in range"),
                    faults,
                    duration: Millis(1_000 + u64::from(bits)),
                };
                let text = settings.to_string();
                assert_eq!(text.parse::<ChaosSettings>(), Ok(settings), "{text}");
                let json = serde_json::to_string(&settings).expect("serialises");
                assert_eq!(
                    serde_json::from_str::<ChaosSettings>(&json).ok(),
                    Some(settings)
                );
                count += 1;
            }
        }
    }
    assert_eq!(count, 6 * 4 * 16);
    assert_eq!(
        ChaosSettings::verification_test(Fencing::Off).to_string(),
        "backend=sql-row&fencing=off&clients=8&faults=pauses,partitions,crashes&duration=180000"
    );
    assert_eq!(
        "fencing=off".parse(),
        Ok(ChaosSettings::verification_test(Fencing::Off)),
        "a key left out keeps the article's value"
    );
}

#[test]
fn bad_settings_text_says_what_is_wrong() {
    let error = |text: &str| text.parse::<ChaosSettings>().expect_err(text).to_string();
    assert_eq!(
        error("backend=zookeeper"),
        "backend: \"zookeeper\": not a lock service; use one of sql-row, cache, \
         replicated-cache, data-grid, redlock, consensus"
    );
    assert_eq!(
        error("fencing=yes"),
        "fencing: \"yes\": use on, off, check-and-set or sequencer"
    );
    assert_eq!(
        error("clients=9"),
        "clients: \"9\": not a whole number from 1 to 8"
    );
    assert_eq!(
        error("clients=0"),
        "clients: \"0\": not a whole number from 1 to 8"
    );
    assert_eq!(
        error("faults=pauses,gc"),
        "faults: \"pauses,gc\": \"gc\" is not a fault; use none or a comma-separated list of \
         pauses, partitions, clock-jumps, crashes"
    );
    assert_eq!(
        error("faults=pauses,pauses"),
        "faults: \"pauses,pauses\": pauses is listed twice"
    );
    assert_eq!(
        error("duration=999"),
        "duration: \"999\": 999 ms: a chaos run lasts from 1000 to 600000 ms"
    );
    assert_eq!(
        error("duration=3s"),
        "duration: \"3s\": not a whole number of ms from 1000 to 600000"
    );
    assert_eq!(
        error("runs=5"),
        "\"runs\" is not a chaos setting; use backend, fencing, clients, faults, duration"
    );
    assert_eq!(error("fencing=on&fencing=off"), "fencing is given twice");
    assert_eq!(error("fencing"), "\"fencing\" has no value (key=value)");
    let json = r#"{"backend":"sql-row","fencing":"on","clients":9,"faults":[],"duration":5000}"#;
    let bad = serde_json::from_str::<ChaosSettings>(json).expect_err("9 clients");
    assert!(
        bad.to_string()
            .contains("9 clients: a chaos run has from 1 to 8"),
        "{bad}"
    );
}

/// Each invariant a finished trace shows violated at some event (read from `violated`, not
/// from `broke`, which `run_chaos` reads), and the first such event.
fn direct(settings: &ChaosSettings, seed: u64) -> Vec<(Invariant, usize)> {
    let mut sim = Sim::new(&settings.scenario(seed)).expect("valid");
    sim.run_to_end();
    Invariant::ALL
        .into_iter()
        .filter_map(|invariant| {
            sim.trace()
                .iter()
                .position(|e| e.violated.contains(invariant))
                .map(|at| (invariant, at))
        })
        .collect()
}

#[test]
fn a_run_names_each_broken_invariant_at_its_first_violation() {
    let settings = settings(ChaosBackend::SqlRow, Fencing::Off, FaultSet::ALL);
    let mut stale = 0;
    for seed in 1..=3 {
        let run = run_chaos(&settings, seed);
        stale += usize::from(run.broke(Invariant::NoStaleWrite));
        let named: Vec<(Invariant, usize)> = run
            .broken
            .iter()
            .map(|b| (b.invariant, b.first_event))
            .collect();
        assert_eq!(named, direct(&settings, seed), "seed {seed}: {run:?}");
        let json = serde_json::to_string(&run).expect("serialises");
        assert_eq!(serde_json::from_str::<ChaosRun>(&json).ok(), Some(run));
    }
    assert!(stale > 0, "some run broke no stale write");
}

#[test]
fn the_data_verdict_is_our_data_check() {
    // Seed 3 with fencing on hits the fencing gap (the verification lesson's own example): the
    // article's check passes it, ours does not.
    let article = ChaosSettings::verification_test(Fencing::On);
    let one = run_chaos(&article, 1);
    assert!(matches!(one.data, DataVerdict::Kept { accepted } if accepted > 0));
    assert!(matches!(one.writers, WritersVerdict::AtMostOne { accepted } if accepted > 0));
    let three = run_chaos(&article, 3);
    assert!(matches!(three.data, DataVerdict::Lost { lost, .. } if lost > 0));
    assert!(matches!(three.writers, WritersVerdict::AtMostOne { .. }));
    // Redlock hands out no tokens, so a fencing resource refuses every write.
    // The article's `<= 1` holds there: no accepted writer at all.
    let redlock = settings(ChaosBackend::Redlock, Fencing::On, FaultSet::NONE);
    let nothing = run_chaos(&redlock, 1);
    assert_eq!(nothing.data, DataVerdict::NothingAccepted);
    assert_eq!(nothing.writers, WritersVerdict::AtMostOne { accepted: 0 });
}

/// Ours is stronger: a run that fails the article's check (two accepted writes under way at
/// once) has lost an increment, since each write was computed from a read made before the
/// other was applied; and many runs lose increments with never two accepted writers at once.
#[test]
fn every_run_that_fails_the_articles_check_fails_ours_and_not_the_other_way() {
    let unfenced = ChaosSettings::verification_test(Fencing::Off);
    let (mut two, mut lost_with_one_writer) = (0, 0);
    for seed in 1..=8 {
        let run = run_chaos(&unfenced, seed);
        match run.writers {
            WritersVerdict::TwoAtOnce { .. } => {
                two += 1;
                assert!(run.data.is_lost(), "seed {seed}: {run:?}");
            }
            WritersVerdict::AtMostOne { .. } => {
                lost_with_one_writer += usize::from(run.data.is_lost());
            }
            WritersVerdict::Unjudged { reason } => panic!("seed {seed}: {reason}"),
        }
    }
    assert!(
        two > 0,
        "some unfenced run has two accepted writers at once"
    );
    assert!(
        lost_with_one_writer > 0,
        "some run loses data the article's check passes"
    );
}

#[test]
fn the_reports_counts_equal_a_direct_count() {
    let settings = settings(ChaosBackend::ReplicatedCache, Fencing::On, FaultSet::ALL);
    let mut report = ChaosReport::new(settings, 11);
    let seeds = 11..=40;
    let mut direct_counts = [0u64; Invariant::ALL.len()];
    let mut violating = Vec::new();
    let (mut lost, mut two) = (0, 0);
    for seed in seeds.clone() {
        let run = run_chaos(&settings, seed);
        report.add(&run).expect("in seed order");
        let found = direct(&settings, seed);
        for (invariant, _) in &found {
            direct_counts[*invariant as usize] += 1;
        }
        let data_lost = run.data.is_lost();
        lost += u64::from(data_lost);
        let two_writers = run.writers.two_at_once().is_some();
        two += u64::from(two_writers);
        if !found.is_empty() || data_lost || two_writers {
            violating.push(seed);
        }
    }
    assert_eq!(report.two_accepted_writers, Some(two));
    assert_eq!(report.runs, 30);
    let counted: Vec<u64> = report.broken.iter().map(|c| c.runs).collect();
    assert_eq!(counted, direct_counts);
    assert!(
        counted.iter().filter(|&&c| c > 0 && c < 30).count() > 0,
        "some invariant breaks in some runs but not all: {counted:?}"
    );
    assert_eq!(report.data_lost, lost);
    let seeds_named: Vec<u64> = report.violating.iter().map(|v| v.seed).collect();
    assert_eq!(seeds_named, violating);
    let with_first = report
        .violating
        .iter()
        .filter(|v| v.first_event.is_some())
        .count();
    assert_eq!(
        report.first_violation.counts.iter().sum::<u64>(),
        u64::try_from(with_first).expect("small")
    );
    assert_eq!(report.first_violation.bucket_ms, Millis(1_500));
    let json = serde_json::to_string(&report).expect("serialises");
    assert_eq!(ChaosReport::from_json(&json), Ok(report));
}

#[test]
fn a_report_takes_runs_in_seed_order_only() {
    let settings = settings(ChaosBackend::SqlRow, Fencing::On, FaultSet::NONE);
    let mut report = ChaosReport::new(settings, 7);
    let error = report
        .add(&run_chaos(&settings, 8))
        .expect_err("seed 7 comes first");
    assert_eq!(
        error.to_string(),
        "the run with seed 8 came when the report needed seed 7 (runs are added in seed order)"
    );
    assert_eq!(report.runs, 0);
    let newer = serde_json::to_string(&ChaosReport {
        format: REPORT_FORMAT + 1,
        ..report
    })
    .expect("serialises");
    assert_eq!(
        ChaosReport::from_json(&newer),
        Err(ReportError::Format(REPORT_FORMAT + 1))
    );
}

/// Runs the article's test on `seeds` over two threads and counts the runs that broke "no
/// stale write".
fn stale_writes_in_article_runs(fencing: Fencing, seeds: std::ops::RangeInclusive<u64>) -> usize {
    let settings = ChaosSettings::verification_test(fencing);
    let middle = seeds.start() + (seeds.end() - seeds.start()) / 2;
    std::thread::scope(|scope| {
        let halves = [*seeds.start()..=middle, middle + 1..=*seeds.end()].map(|half| {
            scope.spawn(move || {
                half.filter(|&seed| run_chaos(&settings, seed).broke(Invariant::NoStaleWrite))
                    .count()
            })
        });
        halves
            .into_iter()
            .map(|h| h.join().unwrap_or(usize::MAX))
            .sum()
    })
}

/// A stale write is judged from the lock service's grants, so fencing can lose this count: a
/// fenced resource lets the zombie in when the new holder has not written yet (S3's gap), in
/// most of these runs with eight clients. It keeps it below the unfenced count (it refuses the
/// zombie once the new holder wrote), and the sequencer check, which asks the lock service,
/// closes most of the gap (what is left falls between its check and its apply).
/// `fenced_article_runs` checks the fenced runs one by one (1,000 fresh ones in a soak round).
#[test]
fn fencing_narrows_stale_writes_in_article_runs_to_the_gap_and_a_sequencer_narrows_it_further() {
    let off = stale_writes_in_article_runs(Fencing::Off, 1..=24);
    let on = stale_writes_in_article_runs(Fencing::On, 1..=24);
    let sequencer = stale_writes_in_article_runs(Fencing::Sequencer, 1..=24);
    assert_eq!(off, 24, "every unfenced run");
    assert!(0 < on && on < off, "fenced: {on} of 24, in the gap");
    assert!(sequencer < on, "sequencer: {sequencer} of 24");
}
