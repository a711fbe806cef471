//! The interview deck: the system-design discussion as prompt cards — the question, what a
//! strong answer covers, the follow-up an interviewer would ask, and the scenario to show. In
//! practice mode each answer stays hidden until asked for.

use crate::components::Shared;
use crate::components::sources::citation_list;
use lockstep_view::content::Content;
use std::collections::BTreeSet;
use web_sys::HtmlInputElement;
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct DeckProps {
    pub content: Shared<Content>,
}

#[component]
pub fn Deck(props: &DeckProps) -> Html {
    let practice = use_state(|| true);
    let shown = use_state(BTreeSet::<String>::new);
    let on_practice = {
        let practice = practice.clone();
        let shown = shown.clone();
        Callback::from(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            practice.set(input.checked());
            shown.set(BTreeSet::new());
        })
    };
    html! {
        <section class="page deck" data-testid="deck">
            <h2>{ "Interview deck" }</h2>
            <label class="check">
                <input type="checkbox" data-testid="practice" checked={*practice} onchange={on_practice} />
                { " Practice: hide each answer until I ask" }
            </label>
            <div class="cards">
                { for props.content.cards.iter().map(|card| {
                    let open = !*practice || shown.contains(&card.id);
                    let reveal = {
                        let shown = shown.clone();
                        let id = card.id.clone();
                        Callback::from(move |_: MouseEvent| {
                            let mut next = (*shown).clone();
                            next.insert(id.clone());
                            shown.set(next);
                        })
                    };
                    html! {
                        <article class="card interview-card" data-testid="card" data-card={card.id.clone()}>
                            <h3>{ card.question.clone() }</h3>
                            if open {
                                <div data-testid="card-answer">
                                    <h4>{ "A strong answer covers" }</h4>
                                    <ul>{ for card.strong_answer.iter().map(|point| html! { <li>{ point.clone() }</li> }) }</ul>
                                    <h4>{ "Follow-up" }</h4>
                                    <p>{ card.follow_up.clone() }</p>
                                    { citation_list(&card.sources) }
                                    <a href={format!("#s={}", card.scenario)}>{ "Show it in the playground" }</a>
                                </div>
                            } else {
                                <button type="button" class="act" data-testid="show-answer" onclick={reveal}>{ "Show the answer" }</button>
                            }
                        </article>
                    }
                }) }
            </div>
        </section>
    }
}
