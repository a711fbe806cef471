//! "Efficiency or correctness?": the user says what happens if two holders run at once, and gets
//! the mechanism to use, linked to the lesson that demonstrates it. As a lesson's step does, it
//! answers first, in a sentence, and folds the reasons and their sources under "Go deeper".

use crate::components::Shared;
use crate::components::glossary::glossed;
use crate::link::use_here;
use crate::pages::sources::citation_list;
use lockstep_view::content::{Content, Verdict};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct GuideProps {
    pub content: Shared<Content>,
}

#[component]
pub fn GuidePage(props: &GuideProps) -> Html {
    let chosen = use_state(|| None::<String>);
    let here = use_here();
    let guide = &props.content.guide;
    let answer = guide
        .answers
        .iter()
        .find(|a| Some(&a.id) == chosen.as_ref());
    html! {
        <section class="page guide" data-testid="guide">
            <h2>{ "Efficiency or correctness?" }</h2>
            <fieldset class="guide-choices">
                <legend>{ guide.question.clone() }</legend>
                { for guide.answers.iter().map(|a| {
                    let checked = chosen.as_deref() == Some(a.id.as_str());
                    let setter = chosen.clone();
                    let id = a.id.clone();
                    let onchange = Callback::from(move |_: Event| setter.set(Some(id.clone())));
                    html! {
                        <label class="check">
                            <input type="radio" name="consequence" data-testid="consequence" value={a.id.clone()}
                                {checked} {onchange} />
                            { format!(" {}", a.consequence) }
                        </label>
                    }
                }) }
            </fieldset>
            if let Some(a) = answer {
                <article class="card recommendation" data-testid="recommendation" data-verdict={match a.verdict {
                    Verdict::Efficiency => "efficiency", Verdict::Correctness => "correctness" }} aria-live="polite">
                    <h3>{ match a.verdict {
                        Verdict::Efficiency => "A lock is an efficiency measure here",
                        Verdict::Correctness => "Correctness is at stake: the resource must check",
                    } }</h3>
                    <p data-testid="recommendation-text">{ glossed(&a.recommendation) }</p>
                    <details class="go-deeper" data-testid="go-deeper">
                        <summary>{ "Go deeper" }</summary>
                        <p>{ glossed(&a.deeper) }</p>
                        { citation_list(&a.sources) }
                    </details>
                    <p>
                        <a href={here.href(&format!("learn={}&step=1", a.lesson))} data-testid="guide-lesson">{ "The lesson that shows it" }</a>
                        { " · " }
                        <a href={here.href(&format!("s={}", a.scenario))}>{ "The scenario" }</a>
                    </p>
                </article>
            }
        </section>
    }
}
