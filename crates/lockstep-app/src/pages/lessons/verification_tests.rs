//! The article's three verification tests, run in the page against the lock service, the
//! fencing and the chaos run's seed the user picks, each shown with its pass or fail and the
//! reason — the third, the chaos test, twice: by the article's check and by our data check,
//! each named as such. The same press runs the chaos lab inline ([`LessonChaos`]: the chaos
//! test over many seeds, fencing on and off, charted). The tests and their verdicts are
//! `lockstep_sim::verification`'s; this component only renders them.

use crate::lab::lesson::LessonChaos;
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::analysis::verification::{CHAOS_SEED, Outcome, Verdict, run_all};
use lockstep_sim::models::resource::Fencing;
use web_sys::HtmlInputElement;
use web_sys::HtmlSelectElement;
use yew::prelude::*;

/// The lock services the tests can run against, with their labels.
const BACKENDS: [(ChaosBackend, &str); 3] = [
    (ChaosBackend::SqlRow, "SQL row (the article's)"),
    (ChaosBackend::Redlock, "Redlock, 5 nodes"),
    (ChaosBackend::Consensus, "Consensus, 3 replicas"),
];

/// The resource's fencing, with its labels.
const FENCING: [(Fencing, &str); 2] = [(Fencing::On, "on"), (Fencing::Off, "off")];

/// What the user chose, and the verdicts of the last run.
#[derive(Clone, PartialEq)]
struct Ran {
    backend: usize,
    fencing: usize,
    chaos_seed: u64,
    verdicts: [Verdict; 4],
}

/// A menu's chosen index, clamped to its `len` options.
fn on_pick(state: UseStateHandle<usize>, len: usize) -> Callback<Event> {
    Callback::from(move |event: Event| {
        let select: HtmlSelectElement = event.target_unchecked_into();
        if let Ok(index) = select.value().parse::<usize>() {
            state.set(index.min(len - 1));
        }
    })
}

#[component]
pub fn VerificationTests() -> Html {
    let backend = use_state(|| 0usize);
    let fencing = use_state(|| 0usize);
    let chaos_seed = use_state(|| CHAOS_SEED);
    let ran = use_state(|| None::<Ran>);
    let presses = use_state(|| 0u32);
    let on_seed = {
        let chaos_seed = chaos_seed.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            if let Ok(seed) = input.value().trim().parse::<u64>() {
                chaos_seed.set(seed);
            }
        })
    };
    let run = {
        let ran = ran.clone();
        let presses = presses.clone();
        let (backend, fencing, chaos_seed) = (*backend, *fencing, *chaos_seed);
        Callback::from(move |_: MouseEvent| {
            presses.set(*presses + 1);
            ran.set(Some(Ran {
                backend,
                fencing,
                chaos_seed,
                verdicts: run_all(BACKENDS[backend].0, FENCING[fencing].0, chaos_seed),
            }));
        })
    };
    html! {
        <section class="card verification-tests" data-testid="verification-tests" aria-label="The three verification tests">
            <h2>{ "the three verification tests" }</h2>
            <div class="act-row">
                <label>{ "Lock service " }
                    <select data-testid="verification-backend" onchange={on_pick(backend.clone(), BACKENDS.len())}>
                        { for BACKENDS.iter().enumerate().map(|(i, (_, label))| html! {
                            <option value={i.to_string()} selected={i == *backend}>{ *label }</option>
                        }) }
                    </select>
                </label>
                <label>{ "Fencing " }
                    <select data-testid="verification-fencing" onchange={on_pick(fencing.clone(), FENCING.len())}>
                        { for FENCING.iter().enumerate().map(|(i, (_, label))| html! {
                            <option value={i.to_string()} selected={i == *fencing}>{ *label }</option>
                        }) }
                    </select>
                </label>
                <label class="seed-field">{ "Chaos seed " }
                    <input type="number" min="0" data-testid="verification-seed"
                        value={chaos_seed.to_string()} onchange={on_seed} />
                </label>
                <button type="button" class="act" data-testid="verification-run" onclick={run}>{ "Run the three tests" }</button>
            </div>
            <p class="muted" data-testid="verification-two-checks">{ "The third test, the chaos run (pauses, partitions and the lock service's failover), is judged twice: by the article's check, at most one accepted writer at any moment, and by our data check, which is stronger. A run that fails the article's check has lost an increment, so it fails ours too; ours also catches increments lost while only one write was under way at a time." }</p>
            if let Some(ran) = &*ran {
                <ul class="verdicts" aria-live="polite" data-testid="verification-verdicts"
                    data-backend={BACKENDS[ran.backend].1} data-fencing={FENCING[ran.fencing].1}
                    data-seed={ran.chaos_seed.to_string()}>
                    { for ran.verdicts.iter().map(|v| verdict_item(v, ran)) }
                </ul>
            }
            <LessonChaos backend={BACKENDS[ran.as_ref().map_or(*backend, |r| r.backend)].0}
                first_seed={ran.as_ref().map_or(*chaos_seed, |r| r.chaos_seed)} presses={*presses} />
        </section>
    }
}

fn verdict_item(verdict: &Verdict, ran: &Ran) -> Html {
    let (class, word, mark) = match verdict.outcome() {
        Outcome::Pass => ("pass", "pass", "✓ pass: "),
        Outcome::Fail => ("fail", "fail", "✗ fail: "),
    };
    html! {
        <li class={classes!("verdict", class)} data-testid="verification-test"
            data-result={word} data-finding={verdict.finding.kind()}>
            <strong>{ mark }</strong>
            { verdict.test.title() }
            <span class="muted">{ format!(" — {} ({}, fencing {}, chaos seed {})", verdict.finding, BACKENDS[ran.backend].1, FENCING[ran.fencing].1, ran.chaos_seed) }</span>
        </li>
    }
}
