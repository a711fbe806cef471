//! The interview deck: the system-design discussion as prompt cards — the question, a
//! 30-second answer, and behind "Full answer" what a strong answer covers, the follow-up an
//! interviewer would ask and the scenario to show. Practice (the default) deals one card at a
//! time: "Show the answer", then "Got it" or "Again" (the card comes back later in the round),
//! "Shuffle", and a count ("3 of 16"); the end says how many were marked Again and offers them
//! alone. The round itself is `lockstep_view::content::practice`; this keeps it in the browser's
//! local storage (`lockstep-deck-1`) so a reload or a visit to "All cards" resumes it. Storage is
//! read in an effect, never while rendering: the build's render (decision 43) has none, and the
//! wasm's first render must match it. "All cards" lists them, each answer shown.

use crate::components::Shared;
use crate::link::{Here, use_here};
use crate::pages::sources::citation_list;
use crate::platform::browser;
use lockstep_view::content::practice::{Round, Verdict};
use lockstep_view::content::{Card, Content};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DeckProps {
    pub content: Shared<Content>,
}

/// How the deck is shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// One card at a time, its answer hidden until asked for.
    Practice,
    /// Every card, with its answer.
    All,
}

#[component]
pub fn Deck(props: &DeckProps) -> Html {
    let mode = use_state(|| Mode::Practice);
    let here = use_here();
    let cards = &props.content.cards;
    let switch = |to: Mode| {
        let mode = mode.clone();
        Callback::from(move |_: MouseEvent| mode.set(to))
    };
    let tab = |to: Mode, label: &'static str, testid: &'static str| {
        html! {
            <button type="button" class="control deck-mode"
                data-testid={testid} aria-pressed={(*mode == to).to_string()} onclick={switch(to)}>{ label }</button>
        }
    };
    html! {
        <section class="page deck" data-testid="deck" data-total={cards.len().to_string()}>
            <h2>{ "Interview deck" }</h2>
            <div class="deck-modes" role="group" aria-label="How to show the cards">
                { tab(Mode::Practice, "Practice: one card at a time", "practice") }
                { tab(Mode::All, "All cards", "all-cards") }
            </div>
            if *mode == Mode::Practice {
                <Practice content={props.content.clone()} />
            } else {
                <div class="cards">
                    { for cards.iter().map(|card| html! {
                        <article class="card interview-card" data-testid="card" data-card={card.id.clone()}>
                            <h3>{ card.question.clone() }</h3>
                            { answer(card, &here) }
                        </article>
                    }) }
                </div>
            }
        </section>
    }
}

/// Where the practice round is kept between visits.
const STORAGE_KEY: &str = "lockstep-deck-1";

/// The round storage keeps, if it is one a deck of `cards` cards can deal.
fn kept_round(cards: usize) -> Option<Round> {
    browser::stored(STORAGE_KEY)
        .and_then(|text| serde_json::from_str::<Round>(&text).ok())
        .filter(|round| round.fits(cards))
}

/// Shows `next` and keeps it for the next visit.
fn keep(round: &UseStateHandle<Round>, next: Round) {
    browser::store(
        STORAGE_KEY,
        &serde_json::to_string(&next).unwrap_or_default(),
    );
    round.set(next);
}

#[derive(Properties, PartialEq)]
struct PracticeProps {
    content: Shared<Content>,
}

/// One card at a time, over a [`Round`].
#[component]
fn Practice(props: &PracticeProps) -> Html {
    let total = props.content.cards.len();
    let round = use_state(|| Round::in_order(total));
    {
        let round = round.clone();
        use_effect_with(total, move |&total| {
            if let Some(kept) = kept_round(total) {
                round.set(kept);
            }
        });
    }
    let open = use_state(|| false);
    let here = use_here();
    let act = |next: &dyn Fn(&Round) -> Round| {
        let (round, open) = (round.clone(), open.clone());
        let next = next(&round);
        Callback::from(move |_: MouseEvent| {
            keep(&round, next.clone());
            open.set(false);
        })
    };
    // The seed is drawn on the click, not at render (issue 41 spike: a render must not call
    // the browser, and the build's render has no `Math.random`).
    let shuffle = {
        let (round, open) = (round.clone(), open.clone());
        Callback::from(move |_: MouseEvent| {
            keep(&round, Round::shuffled(total, seed()));
            open.set(false);
        })
    };
    let restart = act(&|_| Round::in_order(total));
    let got_it = act(&|r| r.answer(Verdict::GotIt));
    let again = act(&|r| r.answer(Verdict::Again));
    let weak_again = act(&Round::weak_cards);
    let reveal = {
        let open = open.clone();
        Callback::from(move |_: MouseEvent| open.set(true))
    };
    let card = round.current().and_then(|i| props.content.cards.get(i));
    html! {
        <div class="deck-practice" data-testid="deck-practice">
            <p class="deck-count">
                <span data-testid="deck-count" data-known={round.known().to_string()}>
                    { format!("{} of {}", round.place(), round.total()) }
                </span>
                <button type="button" class="control" data-testid="deck-shuffle" onclick={shuffle}>{ "Shuffle" }</button>
            </p>
            if let Some(card) = card {
                <article class="card interview-card" data-testid="card" data-card={card.id.clone()}>
                    <h3>{ card.question.clone() }</h3>
                    if *open {
                        { answer(card, &here) }
                        <div class="deck-verdict" role="group" aria-label="How did you do?">
                            <button type="button" class="control primary" data-testid="deck-got-it" onclick={got_it}>{ "Got it" }</button>
                            <button type="button" class="control" data-testid="deck-again" onclick={again}>{ "Again" }</button>
                        </div>
                    } else {
                        <button type="button" class="act" data-testid="show-answer" onclick={reveal}>{ "Show the answer" }</button>
                    }
                </article>
            } else {
                { done(&round, restart, weak_again) }
            }
        </div>
    }
}

/// The end of a round: how many cards were marked Again, those alone to practise, or the whole
/// deck again.
fn done(round: &Round, restart: Callback<MouseEvent>, weak_again: Callback<MouseEvent>) -> Html {
    let weak = round.weak();
    let cards = |n: usize| if n == 1 { "card" } else { "cards" };
    let summary = match weak {
        0 => "None marked Again. Well practised.".to_owned(),
        1 => "1 was marked Again.".to_owned(),
        n => format!("{n} were marked Again."),
    };
    html! {
        <div class="card" data-testid="deck-done" data-weak={weak.to_string()}>
            <p>{ format!("All {} {} done. {summary}", round.total(), cards(round.total())) }</p>
            if weak > 0 {
                <button type="button" class="control primary" data-testid="deck-weak" onclick={weak_again}>
                    { format!("Practise the {weak} {} marked Again", cards(weak)) }
                </button>
            }
            <button type="button" class={classes!("control", (weak == 0).then_some("primary"))}
                data-testid="deck-restart" onclick={restart}>{ "Start again" }</button>
        </div>
    }
}

/// A card's answer: the 30-second version, then the full one folded (its link written from
/// `here`).
fn answer(card: &Card, here: &Here) -> Html {
    html! {
        <div data-testid="card-answer">
            <p class="card-short" data-testid="card-short">{ card.short.clone() }</p>
            <details class="card-full" data-testid="card-full">
                <summary>{ "Full answer" }</summary>
                <h4>{ "A strong answer covers" }</h4>
                <ul>{ for card.strong_answer.iter().map(|point| html! { <li>{ point.clone() }</li> }) }</ul>
                <h4>{ "Follow-up" }</h4>
                <p>{ card.follow_up.clone() }</p>
                { citation_list(&card.sources) }
                <a href={here.href(&format!("s={}", card.scenario))}>{ "Show it in the playground" }</a>
            </details>
        </div>
    }
}

/// A fresh seed for a shuffle: the order need only differ from one shuffle to the next.
fn seed() -> u64 {
    // Two draws of 26 bits each: within an f64's exact range.
    let draw = || (js_sys::Math::random() * f64::from(1u32 << 26)) as u64;
    (draw() << 26) | draw()
}
