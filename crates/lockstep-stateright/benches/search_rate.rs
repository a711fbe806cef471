//! States explored per second: Lockstep's breadth-first search and Stateright's breadth-first
//! checker (one thread each) on [`comparison_config`]: fencing off and on (both stop at the
//! shortest counterexample: a stale write, with fencing on the one in the gap before the new
//! holder's first write) and, in the table only, the sequencer check (both explore every state
//! within the bounds).
//!
//! A benchmark, not a test: it measures and prints. With `--json` it prints one line of JSON per
//! configuration (for `cargo xtask bench`'s in-page comparison); without, a table. Wall-clock
//! time is read here only, never by the search.

use lockstep_sim::analysis::search::{Search, SearchStatus};
use lockstep_sim::models::resource::Fencing;
use lockstep_stateright::independent::{S1_TIMING, SqlRowModel};
use lockstep_stateright::{check, comparison_config};
use stateright::{Checker, Model};
use std::time::{Duration, Instant};

/// Each measurement repeats until it has taken at least this long, and keeps the fastest run.
const BUDGET: Duration = Duration::from_secs(2);

struct Rate {
    states: u64,
    length: Option<usize>,
    fastest: Duration,
}

impl Rate {
    fn per_second(&self) -> f64 {
        self.states as f64 / self.fastest.as_secs_f64()
    }
}

fn measure(mut once: impl FnMut() -> (u64, Option<usize>)) -> Rate {
    let started = Instant::now();
    let mut fastest = Duration::MAX;
    let mut result = (0, None);
    while fastest == Duration::MAX || started.elapsed() < BUDGET {
        let one = Instant::now();
        result = once();
        fastest = fastest.min(one.elapsed());
    }
    Rate {
        states: result.0,
        length: result.1,
        fastest,
    }
}

/// Stateright on the independent model (the protocol from the article, in ticks), at most two
/// pauses: its states, its own counterexample length (in its actions, not comparable with the
/// search's events), and its rate.
fn independent(fenced: bool) -> Rate {
    measure(|| {
        let model = SqlRowModel {
            fenced,
            max_pauses: 2,
            timing: S1_TIMING,
        };
        let checker = model.checker().threads(1).spawn_bfs().join();
        let length = checker
            .discovery("no stale write accepted")
            .map(|path| path.into_actions().len());
        (checker.unique_state_count() as u64, length)
    })
}

fn main() {
    let json = std::env::args().any(|arg| arg == "--json");
    if !json {
        println!(
            "\nCounterexample search, states explored per second, one thread each. Stateright's columns: \
             its BFS checker on a Model over the search's own states and moves (the same space, so the \
             same length; see crates/lockstep-stateright):"
        );
        println!(
            "  {:<12} {:>10} {:>12} {:>14} {:>12} {:>14}",
            "fencing", "states", "length", "Lockstep /s", "Stateright", "Stateright /s"
        );
    }
    let fencings: &[(&str, Fencing)] = if json {
        &[("off", Fencing::Off), ("on", Fencing::On)]
    } else {
        &[
            ("off", Fencing::Off),
            ("on", Fencing::On),
            ("sequencer", Fencing::Sequencer),
        ]
    };
    for &(name, fencing) in fencings {
        let config = comparison_config(fencing);
        let ours = measure(|| match Search::new(&config).expect("valid").run() {
            SearchStatus::Found(found) => (found.states, Some(found.length)),
            SearchStatus::Exhausted { states, .. } => (states, None),
            SearchStatus::Running { .. } => unreachable!("run() ends"),
        });
        let theirs = measure(|| {
            let verdict = check(&config).expect("valid");
            (verdict.states as u64, verdict.counterexample)
        });
        let length = |rate: &Rate| rate.length.map_or("none".to_owned(), |l| l.to_string());
        if json {
            println!(
                "{{\"fencing\": \"{name}\", \"states\": {}, \"length\": {}, \"per_second\": {:.0}, \
                 \"stateright_states\": {}, \"stateright_length\": {}, \"stateright_per_second\": {:.0}}}",
                ours.states,
                ours.length.map_or("null".to_owned(), |l| l.to_string()),
                ours.per_second(),
                theirs.states,
                theirs.length.map_or("null".to_owned(), |l| l.to_string()),
                theirs.per_second(),
            );
        } else {
            println!(
                "  {:<12} {:>10} {:>12} {:>14.0} {:>12} {:>14.0}",
                name,
                ours.states,
                length(&ours),
                ours.per_second(),
                format!("{} / {}", theirs.states, length(&theirs)),
                theirs.per_second(),
            );
        }
    }
    if !json {
        println!(
            "  Stateright on an independent model of the SQL-row lock and fenced register (from the \
             article, in 100-ms ticks, at most two pauses; its length counts its own actions):"
        );
        for (name, fenced) in [("off", false), ("on", true)] {
            let rate = independent(fenced);
            println!(
                "  {:<12} {:>10} {:>12} {:>14.0}",
                name,
                rate.states,
                rate.length.map_or("none".to_owned(), |l| l.to_string()),
                rate.per_second(),
            );
        }
    }
}
