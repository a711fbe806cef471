//! The lab page's "Counterexample search" section: pick a small built-in scenario, the invariant
//! to break and a fault budget; the search (`lockstep_sim::search`) runs in a Web Worker of its
//! own, in slices, with its progress shown and a Stop button; its shortest counterexample opens
//! in the playground at the violation, or it says that none exists within the bounds.
//!
//! This component keeps which request is in flight and renders; the search is the worker's and
//! the words are [`lockstep_view::lab::counterexample_search_text`]'s.

use crate::lab::workers::WorkerPool;
use crate::link::PageLink;
use crate::platform::library;
use lockstep_sim::analysis::search::{Counterexample, MAX_FAULTS, SearchConfig, SearchStatus};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_view::lab::counterexample_search_text::{
    found_sentence, none_sentence, playground_fragment, struck,
};
use lockstep_view::lab::worker_protocol::{Reply, Request};
use lockstep_view::link::search::{FaultKind, FencingChoice, MAX_EVENTS, SearchLink, SearchSpec};
use strum::VariantArray;
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// States explored per request: a slice takes a fraction of a second in the worker, so Stop is
/// prompt and the progress moves.
const SLICE: u64 = 2_000;

#[derive(Properties, PartialEq)]
pub struct CounterexampleSearchProps {
    /// The search's settings from the address (a lesson's hand-off names a scenario).
    pub link: SearchLink,
}

/// Where the search stands.
#[derive(Clone, Debug, PartialEq)]
enum Status {
    Idle,
    /// The scenario's file is on its way.
    Loading,
    Running,
    Stopped,
    Found(Box<Counterexample>),
    Exhausted {
        states: u64,
        depth: usize,
    },
    Failed(String),
}

pub enum Msg {
    Edit(SearchSpec),
    Search,
    Stop,
    Loaded(u64, Result<Box<SearchConfig>, String>),
    Reply(Reply),
}

pub struct CounterexampleSearch {
    spec: SearchSpec,
    pool: Option<WorkerPool>,
    ready: bool,
    /// Counts the searches started, so that a late reply or file is recognised and dropped.
    number: u64,
    /// The search the request in flight belongs to (one at a time: the worker answers in order).
    in_flight: Option<u64>,
    /// Whether the worker has started the current search.
    started: bool,
    config: Option<Box<SearchConfig>>,
    progress: Option<(u64, usize, usize)>,
    status: Status,
    section: NodeRef,
    /// Whether a link naming a search has brought the section into view yet.
    shown: bool,
}

impl CounterexampleSearch {
    /// Sends the next request of the current search, if the worker is free for it.
    fn pump(&mut self) {
        if self.status != Status::Running || !self.ready || self.in_flight.is_some() {
            return;
        }
        let (Some(pool), Some(config)) = (&self.pool, &self.config) else {
            return;
        };
        let request = if self.started {
            Request::SearchAdvance { max_states: SLICE }
        } else {
            Request::SearchStart {
                config: config.clone(),
            }
        };
        match pool.send(0, &request) {
            Ok(()) => self.in_flight = Some(self.number),
            // No reply will come: the search cannot go on.
            Err(error) => self.status = Status::Failed(error.to_string()),
        }
    }

    fn start(&mut self, ctx: &Context<Self>) {
        self.number += 1;
        self.status = Status::Loading;
        self.progress = None;
        let id = self.spec.scenario;
        let spec = self.spec.clone();
        let number = self.number;
        let loaded = ctx
            .link()
            .callback(move |config| Msg::Loaded(number, config));
        wasm_bindgen_futures::spawn_local(async move {
            let config = library::built_in(id)
                .await
                .map(|scenario| Box::new(spec.config(&scenario)))
                .map_err(|e| e.to_string())
                .and_then(|config| {
                    config
                        .validate()
                        .map(|()| config)
                        .map_err(|e| e.to_string())
                });
            loaded.emit(config);
        });
    }

    fn loaded(&mut self, ctx: &Context<Self>, config: Result<Box<SearchConfig>, String>) {
        let config = match config {
            Ok(config) => config,
            Err(why) => {
                self.status = Status::Failed(format!("this search cannot run: {why}"));
                return;
            }
        };
        if self.pool.is_none() {
            let on_reply = ctx.link().callback(|(_, reply)| Msg::Reply(reply));
            match WorkerPool::start(1, on_reply) {
                Ok(pool) => self.pool = Some(pool),
                Err(error) => {
                    self.status = Status::Failed(error.to_string());
                    return;
                }
            }
        }
        self.config = Some(config);
        self.started = false;
        self.status = Status::Running;
        self.pump();
    }

    fn reply(&mut self, reply: Reply) {
        let current = self.in_flight.take() == Some(self.number) && self.status == Status::Running;
        match reply {
            Reply::Ready => self.ready = true,
            Reply::Search(status) if current => {
                self.started = true;
                match status {
                    SearchStatus::Running {
                        states,
                        depth,
                        frontier,
                    } => self.progress = Some((states, depth, frontier)),
                    SearchStatus::Found(found) => self.status = Status::Found(found),
                    SearchStatus::Exhausted { states, depth } => {
                        self.status = Status::Exhausted { states, depth }
                    }
                }
            }
            Reply::Failed(why) if current => self.status = Status::Failed(why),
            // A stopped search's last slice, or the lab's kind of answer: nothing to show.
            Reply::Search(_) | Reply::Failed(_) | Reply::ChaosRuns(_) => {}
        }
        self.pump();
    }
}

impl Component for CounterexampleSearch {
    type Message = Msg;
    type Properties = CounterexampleSearchProps;

    fn create(ctx: &Context<Self>) -> Self {
        CounterexampleSearch {
            spec: ctx.props().link.spec.clone(),
            pool: None,
            ready: false,
            number: 0,
            in_flight: None,
            started: false,
            config: None,
            progress: None,
            status: Status::Idle,
            section: NodeRef::default(),
            shown: false,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &Self::Properties) -> bool {
        // A new address that names a search (edited by hand, or another hand-off) sets the
        // form; the lab's own changes rewrite the address without the search's part.
        let link = &ctx.props().link;
        if link.named && *link != old.link {
            self.spec = link.spec.clone();
        }
        true
    }

    fn rendered(&mut self, ctx: &Context<Self>, _first_render: bool) {
        // A link that names a search (a lesson's hand-off) comes for this section: once, when
        // it first names one (just after the first render, which has no address to read).
        if !self.shown
            && ctx.props().link.named
            && let Some(section) = self.section.cast::<web_sys::Element>()
        {
            self.shown = true;
            section.scroll_into_view();
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Edit(spec) => self.spec = spec,
            Msg::Search => self.start(ctx),
            Msg::Stop => {
                if matches!(self.status, Status::Running | Status::Loading) {
                    self.status = Status::Stopped;
                }
            }
            Msg::Loaded(number, config) => {
                if number == self.number && self.status == Status::Loading {
                    self.loaded(ctx, config);
                }
            }
            Msg::Reply(reply) => self.reply(reply),
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let busy = matches!(self.status, Status::Running | Status::Loading);
        let problems = &ctx.props().link.problems;
        html! {
            <section class="counterexample-search" data-testid="counterexample-search"
                aria-labelledby="counterexample-search-heading" ref={self.section.clone()}>
                <h3 id="counterexample-search-heading">{ "Counterexample search" }</h3>
                <p class="lede">{ "Random runs find what is likely. The search tries every way a few faults \
                    could strike a small scenario — which fault, on which node or message, at each step of \
                    100 ms — skipping states it has seen, and keeps the shortest run that breaks the \
                    invariant. Or it shows that none does within its bounds. It runs in a background worker." }</p>
                if !problems.is_empty() {
                    <div class="notice problem" role="alert" data-testid="search-link-problem">
                        <p>{ "Part of this link's search settings cannot be used, so the search uses its defaults there:" }</p>
                        <ul>{ for problems.iter().map(|p| html! { <li>{ p.to_string() }</li> }) }</ul>
                    </div>
                }
                { self.form(ctx) }
                <div class="lab-actions">
                    <button type="button" class="control primary" data-testid="search-run" disabled={busy}
                        onclick={link.callback(|_| Msg::Search)}>{ "Search" }</button>
                    <button type="button" class="control" data-testid="search-stop" disabled={!busy}
                        onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                </div>
                { self.outcome() }
            </section>
        }
    }
}

impl CounterexampleSearch {
    /// The settings: the scenario, fencing, the invariant, the budget and the kinds of fault.
    fn form(&self, ctx: &Context<Self>) -> Html {
        let spec = &self.spec;
        let on_scenario = self.edit(ctx, |s, v| {
            if let Some(entry) = catalogue::entry(&v) {
                s.scenario = entry.id;
            }
        });
        let on_fencing = self.edit(ctx, |s, v| {
            s.fencing = match v.as_str() {
                "on" => FencingChoice::Set(Fencing::On),
                "off" => FencingChoice::Set(Fencing::Off),
                _ => FencingChoice::AsScenario,
            }
        });
        let on_invariant = self.edit(ctx, |s, v| s.invariant = Invariant::from_id(&v));
        let fencing = match spec.fencing {
            FencingChoice::AsScenario => "scenario",
            FencingChoice::Set(Fencing::Off) => "off",
            FencingChoice::Set(_) => "on",
        };
        html! {
            <fieldset class="lab-form search-form" data-testid="search-form">
                <legend class="visually-hidden">{ "Search settings" }</legend>
                <label class="lab-field search-scenario">
                    <span>{ "Scenario (the search picks the faults)" }</span>
                    <select data-testid="search-scenario" onchange={on_scenario}>
                        { for catalogue::INDEX.iter().map(|e| html! {
                            <option value={e.id} selected={e.id == spec.scenario}>{ e.title }</option>
                        }) }
                    </select>
                </label>
                <label class="lab-field">
                    <span>{ "Fencing" }</span>
                    <select data-testid="search-fencing" onchange={on_fencing}>
                        <option value="scenario" selected={fencing == "scenario"}>{ "as in the scenario" }</option>
                        <option value="on" selected={fencing == "on"}>{ "on" }</option>
                        <option value="off" selected={fencing == "off"}>{ "off" }</option>
                    </select>
                </label>
                <label class="lab-field">
                    <span>{ "Invariant to break" }</span>
                    <select data-testid="search-invariant" onchange={on_invariant}>
                        <option value="" selected={spec.invariant.is_none()}>{ "the one the scenario breaks" }</option>
                        { for Invariant::ALL.iter().map(|i| html! {
                            <option value={i.id()} selected={spec.invariant == Some(*i)}>{ i.statement() }</option>
                        }) }
                    </select>
                </label>
                { self.budget(ctx) }
                <div class="search-kinds" role="group" aria-label="Kinds of fault">
                    { for FaultKind::VARIANTS.iter().copied().map(|kind| self.kind_box(ctx, kind)) }
                </div>
            </fieldset>
        }
    }

    /// A menu's change handler: the spec with `change` applied to the menu's value.
    fn edit(&self, ctx: &Context<Self>, change: fn(&mut SearchSpec, String)) -> Callback<Event> {
        let spec = self.spec.clone();
        ctx.link().callback(move |event: Event| {
            let select: HtmlSelectElement = event.target_unchecked_into();
            let mut next = spec.clone();
            change(&mut next, select.value());
            Msg::Edit(next)
        })
    }

    /// The search's bounds: how many faults, and the longest run.
    fn budget(&self, ctx: &Context<Self>) -> Html {
        let spec = &self.spec;
        let on_faults = self.edit(ctx, |s, v| s.faults = v.parse().unwrap_or(s.faults));
        let on_max_events = {
            let spec = spec.clone();
            ctx.link().batch_callback(move |event: Event| {
                let input: HtmlInputElement = event.target_unchecked_into();
                let n = input.value().parse::<u32>().ok()?;
                (1..=MAX_EVENTS).contains(&n).then(|| {
                    let mut next = spec.clone();
                    next.max_events = n;
                    Msg::Edit(next)
                })
            })
        };
        html! {
            <>
                <label class="lab-field">
                    <span>{ "At most" }</span>
                    <select data-testid="search-faults" onchange={on_faults}>
                        { for (0..=MAX_FAULTS).map(|n| html! {
                            <option value={n.to_string()} selected={n == spec.faults}>
                                { if n == 1 { "1 fault".to_owned() } else { format!("{n} faults") } }
                            </option>
                        }) }
                    </select>
                </label>
                <label class="lab-field">
                    <span>{ "Longest run (events)" }</span>
                    <input type="number" min="1" max={MAX_EVENTS.to_string()} data-testid="search-max-events"
                        value={spec.max_events.to_string()} onchange={on_max_events} />
                </label>
            </>
        }
    }

    /// The checkbox of one kind of fault the search may use.
    fn kind_box(&self, ctx: &Context<Self>, kind: FaultKind) -> Html {
        let current = self.spec.clone();
        let onchange = ctx.link().callback(move |event: Event| {
            let input: HtmlInputElement = event.target_unchecked_into();
            let mut next = current.clone();
            next.kinds.retain(|k| *k != kind);
            if input.checked() {
                next.kinds.push(kind);
                next.kinds.sort();
            }
            Msg::Edit(next)
        });
        html! {
            <label class="search-kind">
                <input type="checkbox" checked={self.spec.kinds.contains(&kind)} {onchange}
                    data-testid={format!("search-kind-{}", kind.id())} />
                { kind.label() }
            </label>
        }
    }

    fn outcome(&self) -> Html {
        let (word, line) = match &self.status {
            Status::Idle => (
                "idle",
                "Nothing searched yet. The first search loads the worker.".to_owned(),
            ),
            Status::Loading => ("loading", "Loading the scenario…".to_owned()),
            Status::Running => match self.progress {
                None if !self.ready => ("running", "Loading the worker…".to_owned()),
                None => ("running", "Searching…".to_owned()),
                Some((states, depth, frontier)) => (
                    "running",
                    format!(
                        "Searching… {} states explored, runs up to {} events, {} still to expand.",
                        thousands(states),
                        thousands(depth as u64),
                        thousands(frontier as u64)
                    ),
                ),
            },
            Status::Stopped => (
                "stopped",
                match self.progress {
                    Some((states, ..)) => format!("Stopped after {} states.", thousands(states)),
                    None => "Stopped.".to_owned(),
                },
            ),
            Status::Found(_) => ("found", "Done.".to_owned()),
            Status::Exhausted { .. } => ("exhausted", "Done.".to_owned()),
            Status::Failed(why) => ("failed", format!("The search failed: {why}.")),
        };
        let states = match (&self.status, self.progress) {
            (Status::Found(found), _) => found.states,
            (Status::Exhausted { states, .. }, _) => *states,
            (_, Some((states, ..))) => states,
            _ => 0,
        };
        let failed = matches!(self.status, Status::Failed(_));
        // A request the worker has not answered yet (a stopped search's last slice included).
        let outstanding = usize::from(self.in_flight.is_some());
        html! {
            <div class="search-outcome">
                <p class={classes!("lab-status", failed.then_some("problem"))} role="status"
                    data-testid="search-status" data-status={word} data-states={states.to_string()}
                    data-outstanding={outstanding.to_string()}>{ line }</p>
                { self.result() }
            </div>
        }
    }

    fn result(&self) -> Html {
        let Some(config) = &self.config else {
            return Html::default();
        };
        match &self.status {
            Status::Found(found) => html! {
                <div class="search-result" data-testid="search-found" data-length={found.length.to_string()}>
                    <p>{ found_sentence(config.invariant, found) }</p>
                    <p class="muted">{ "The faults it struck:" }</p>
                    <ol class="search-faults">
                        { for struck(config, found).into_iter().map(|line| html! { <li>{ line }</li> }) }
                    </ol>
                    <PageLink class="control primary" testid="search-open" to={playground_fragment(found)}>
                        { format!("Open it in the playground at event {}", found.first_event + 1) }
                    </PageLink>
                </div>
            },
            Status::Exhausted { states, depth } => html! {
                <p class="search-result" data-testid="search-none">{ none_sentence(config, *states, *depth) }</p>
            },
            // No result yet, or none to show.
            Status::Idle
            | Status::Loading
            | Status::Running
            | Status::Stopped
            | Status::Failed(_) => Html::default(),
        }
    }
}
