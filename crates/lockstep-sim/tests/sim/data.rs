//! The data, judged from outside: the register's history checked for linearizability, lost
//! updates found from versions, and the tokens clients were told. Each check is shown to fail
//! where the data is wrong (fencing off, the fencing gap, a failover that reuses a token).

use crate::support::{built_in, data_holds, run, tokens_told_increase, with_fencing};
use lockstep_sim::analysis::chaos::Chaos;
use lockstep_sim::analysis::linearizability::{Budget, History, Verdict, check};
use lockstep_sim::analysis::register_history::{
    Granularity, LostUpdate, lost_updates, register_history,
};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::token::FencingToken;
use lockstep_sim::{Scenario, Sim};

fn history(scenario: &Scenario, sim: &Sim, granularity: Granularity) -> History {
    register_history(scenario, sim, granularity).expect("the resource is a register")
}

/// Every catalogue run on a register, with fencing as written and switched on and off.
fn register_runs() -> Vec<(String, Scenario, Sim)> {
    catalogue::BUILT_IN
        .iter()
        .map(|built_in| built_in.load().expect("built-in parses"))
        .filter(|scenario| {
            register_history(scenario, &Sim::idle(), Granularity::Requests).is_some()
        })
        .flat_map(|scenario| {
            [None, Some(Fencing::On), Some(Fencing::Off)].map(|fencing| {
                let scenario = match fencing {
                    Some(fencing) => with_fencing(scenario.clone(), fencing),
                    None => scenario.clone(),
                };
                let name = format!(
                    "{} (fencing {:?})",
                    scenario.id,
                    scenario.resource.fencing()
                );
                let sim = run(&scenario);
                (name, scenario, sim)
            })
        })
        .collect()
}

#[test]
fn every_read_and_accepted_write_of_the_catalogue_fits_one_register() {
    let runs = register_runs();
    assert!(runs.len() > 60, "{} runs", runs.len());
    for (name, scenario, sim) in &runs {
        let requests = history(scenario, sim, Granularity::Requests);
        assert!(
            check(&requests, Budget::DEFAULT).is_linearizable(),
            "{name}: {requests:?}"
        );
    }
}

/// A lock's promise for read-modify-write: each job acts as if alone. The job history is
/// linearizable exactly when no update was lost, and the versions and the invariant agree.
#[test]
fn a_job_history_is_linearizable_exactly_when_no_update_is_lost() {
    let mut losing = 0;
    for (name, scenario, sim) in register_runs() {
        let jobs = check(
            &history(&scenario, &sim, Granularity::Jobs),
            Budget::DEFAULT,
        );
        let lost = lost_updates(&sim);
        let flagged = sim
            .trace()
            .last()
            .is_some_and(|e| e.violated.contains(Invariant::NoLostUpdate));
        assert_eq!(!lost.is_empty(), flagged, "{name}: {lost:?}");
        assert_eq!(
            jobs.is_linearizable(),
            lost.is_empty(),
            "{name}: {jobs:?} {lost:?}"
        );
        losing += usize::from(!lost.is_empty());
    }
    assert!(losing >= 6, "the catalogue loses updates in {losing} runs");
}

#[test]
fn without_fencing_s1_loses_client_bs_update_and_the_checker_says_where() {
    let scenario = built_in("s1-gc-pause-unfenced");
    let sim = run(&scenario);
    let jobs = history(&scenario, &sim, Granularity::Jobs);
    let Verdict::NotLinearizable(stuck) = check(&jobs, Budget::DEFAULT) else {
        panic!("S1's zombie write overwrites client-b's update");
    };
    let name = |node| sim.cast().name(node).to_owned();
    assert_eq!(
        stuck.explain(&jobs, name),
        "no order of the operations fits one register: after 1 of 2 operations in order, the \
         register holds 1, and none of the operations that could come next fits: client-b read \
         0 and wrote 1 (invoked at t=1207 ms, answered at t=1428 ms)"
    );
    let client = |n: &str| sim.cast().find(n).expect("named");
    assert_eq!(
        lost_updates(&sim),
        vec![LostUpdate {
            writer: client("client-a"),
            token: Some(FencingToken(33)),
            event: lost_updates(&sim)[0].event,
            lost: vec![(client("client-b"), Some(FencingToken(34)))],
        }]
    );
}

#[test]
fn with_fencing_s2_keeps_every_job_whole() {
    let scenario = built_in("s2-gc-pause-fenced");
    let sim = run(&scenario);
    assert!(
        check(
            &history(&scenario, &sim, Granularity::Jobs),
            Budget::DEFAULT
        )
        .is_linearizable()
    );
    assert_eq!(lost_updates(&sim), Vec::new());
}

/// Fencing orders writes by token; it does not make a read-modify-write atomic. In S3 the new
/// holder (token 34) reads before the zombie (token 33) writes, and then overwrites it.
#[test]
fn with_fencing_s3_still_loses_the_zombies_update_to_the_new_holder() {
    let scenario = built_in("s3-fencing-gap");
    assert_eq!(scenario.resource.fencing(), Some(Fencing::On));
    let sim = run(&scenario);
    assert!(
        !check(
            &history(&scenario, &sim, Granularity::Jobs),
            Budget::DEFAULT
        )
        .is_linearizable()
    );
    let client = |n: &str| sim.cast().find(n).expect("named");
    let lost = lost_updates(&sim);
    assert_eq!(lost.len(), 1);
    assert_eq!(lost[0].writer, client("client-b"));
    assert_eq!(lost[0].token, Some(FencingToken(34)));
    assert_eq!(
        lost[0].lost,
        vec![(client("client-a"), Some(FencingToken(33)))]
    );
}

#[test]
fn tokens_told_to_clients_increase_and_a_failover_that_reuses_one_is_caught() {
    for id in [
        "s2-gc-pause-fenced",
        "s15-consensus-leader-crash",
        "s16-consensus-herd",
    ] {
        assert_eq!(tokens_told_increase(&run(&built_in(id))), Ok(()), "{id}");
    }
    let sim = run(&built_in("s9-failover-reissues-a-token"));
    let error = tokens_told_increase(&sim).expect_err("the new primary issues token 1 again");
    assert!(
        error.ends_with("is told token 1, which client-a was told before"),
        "{error}"
    );
}

/// The seed's chaos run against the SQL row: without fencing, zombies overwrite newer holders'
/// updates and the data check says so; with fencing, every run's data holds.
#[test]
fn chaos_without_fencing_loses_newer_updates_and_the_data_check_reports_it() {
    let mut unfenced_failures = 0;
    for seed in 1..=4 {
        let fenced = Chaos::verification_test(seed, Fencing::On).scenario();
        let sim = run(&fenced);
        assert_eq!(data_holds(&fenced, &sim), Ok(()), "seed {seed}");
        assert!(
            history(&fenced, &sim, Granularity::Jobs).operations.len() > 20,
            "a chaos run has many jobs"
        );

        let unfenced = Chaos::verification_test(seed, Fencing::Off).scenario();
        let sim = run(&unfenced);
        let jobs = history(&unfenced, &sim, Granularity::Jobs);
        if !check(&jobs, Budget::DEFAULT).is_linearizable() {
            let as_if_fenced = with_fencing(unfenced.clone(), Fencing::On);
            let error = data_holds(&as_if_fenced, &sim).expect_err("a newer update is lost");
            assert!(
                error.starts_with("fencing on, yet a newer holder's update was lost"),
                "{error}"
            );
            unfenced_failures += 1;
        }
    }
    assert!(
        unfenced_failures >= 2,
        "{unfenced_failures} of 4 unfenced chaos runs lose updates"
    );
}
