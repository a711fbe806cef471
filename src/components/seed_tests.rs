//! The seed's three verification tests, run in the page against a lock service the user picks,
//! each with a pass or fail and the reason (see [`crate::verification`]).

use crate::verification::{BACKENDS, Verdict, run_all};
use web_sys::HtmlSelectElement;
use yew::prelude::*;

#[component]
pub fn SeedTests() -> Html {
    let backend = use_state(|| 0usize);
    let verdicts = use_state(|| None::<(usize, Vec<Verdict>)>);
    let onchange = {
        let backend = backend.clone();
        Callback::from(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            if let Ok(index) = select.value().parse::<usize>() {
                backend.set(index.min(BACKENDS.len() - 1));
            }
        })
    };
    let run = {
        let verdicts = verdicts.clone();
        let chosen = *backend;
        Callback::from(move |_: MouseEvent| {
            verdicts.set(Some((chosen, run_all(BACKENDS[chosen].0))));
        })
    };
    html! {
        <section class="card seed-tests" data-testid="seed-tests" aria-label="The three verification tests">
            <h2>{ "the three verification tests" }</h2>
            <div class="act-row">
                <label>{ "Lock service " }
                    <select data-testid="seed-tests-backend" {onchange}>
                        { for BACKENDS.iter().enumerate().map(|(i, (_, label))| html! {
                            <option value={i.to_string()} selected={i == *backend}>{ *label }</option>
                        }) }
                    </select>
                </label>
                <button type="button" class="act" data-testid="seed-tests-run" onclick={run}>{ "Run the three tests" }</button>
            </div>
            if let Some((ran, results)) = &*verdicts {
                <ul class="verdicts" aria-live="polite">
                    { for results.iter().map(|v| html! {
                        <li class={classes!("verdict", if v.passed { "pass" } else { "fail" })} data-testid="seed-test"
                            data-result={if v.passed { "pass" } else { "fail" }}>
                            <strong>{ if v.passed { "✓ pass: " } else { "✗ fail: " } }</strong>
                            { v.test }
                            <span class="muted">{ format!(" — {} ({})", v.why, BACKENDS[*ran].1) }</span>
                        </li>
                    }) }
                </ul>
            }
        </section>
    }
}
