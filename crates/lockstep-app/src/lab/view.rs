//! The chaos lab page (`#lab`): the article's chaos test over many seeds, run in the lab's Web
//! Workers with a progress bar and Stop, then this run's results — in how many runs the data
//! stayed intact, the share of runs that broke each invariant, when the first violation came,
//! and the violating seeds, those that harmed the data first, each opening the playground at
//! its violation — and below them the earlier runs, newest first, each labelled with its
//! settings and removable. The chart compares this run with the previous one, a column each,
//! when the user asks. The settings live in the address; the results are recomputed, never
//! linked, and kept for the visit when the user leaves the page ([`KeptRuns`], held by the
//! site): nothing of them is in the first render.
//!
//! The runs and their merging are [`lockstep_view::lab::schedule`]'s; the workers are
//! [`crate::lab::workers`]'s; this component keeps who is busy with what and renders.

use crate::lab::form::LabForm;
use crate::lab::results::{
    CompareChart, Histogram, LabHeadline, LabProgress, ShareChart, ViolatingSeeds, Which,
};
use crate::lab::runner::{ChartRow, KeptRuns, LabRunner, Status};
use crate::lab::search::CounterexampleSearch;
use crate::platform::browser;
use lockstep_sim::story::numbers::thousands;
use lockstep_view::lab::runs::{KEPT, Numbered, Settings as RunSettings};
use lockstep_view::lab::schedule::LabRun;
use lockstep_view::lab::worker_protocol::Reply;
use lockstep_view::link::lab::{LabLink, LabSpec};
use lockstep_view::link::search::{self, SearchLink};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChaosLabProps {
    /// The settings the address gives, and what in it could not be used.
    pub link: LabLink,
    /// The user changed a setting: the address should say so.
    pub on_change: Callback<LabSpec>,
    /// The results of the visit, which outlive this page.
    pub kept: KeptRuns,
}

pub enum Msg {
    Edit(LabSpec),
    Run,
    Stop,
    Reply(usize, Reply),
    Export,
    CopyLink,
    /// "Change" on the folded settings: show the form again.
    Unfold,
    /// The search's part of the address, read after the first render.
    Search(SearchLink),
    /// Show the chart of this run beside the previous one's, or alone.
    Compare(bool),
    /// ✕ on an earlier run: forget it.
    Remove(u64),
}

/// Whether the settings form shows whole or, on a narrow screen once results show, as one line.
#[derive(Clone, Copy, PartialEq)]
enum Settings {
    Folded,
    Open,
}

/// Whether a Run press still owes the user its headline in view.
#[derive(Clone, Copy, PartialEq)]
enum Reveal {
    /// Nothing to bring into view.
    Done,
    /// Run was pressed with the page standing so; bring the headline into view when the first
    /// results show.
    AfterRun(crate::lab::reveal::AtRun),
}

pub struct ChaosLab {
    spec: LabSpec,
    runner: LabRunner,
    said: Option<String>,
    reveal: Reveal,
    settings: Settings,
    /// Whether the chart shows this run beside the previous one: only when the user asks.
    compare: bool,
    /// An earlier run was removed with the focus on its ✕: the focus goes to the next ✕, else
    /// to Run.
    refocus: bool,
    /// The search's part of the address, for the counterexample search. None in the first
    /// render: the build's render (issue 41) has no address to read it from, and the wasm's
    /// first render must match it. Read after it, and again whenever the address changes.
    search: SearchLink,
}

impl ChaosLab {
    fn export(&mut self) {
        let Some(run) = self.runner.run() else { return };
        let json = serde_json::to_string_pretty(&run.report).unwrap_or_default();
        let name = format!(
            "chaos-lab-{}-fencing-{}-seeds-{}-{}.json",
            run.spec.settings.backend.id(),
            lockstep_view::link::fencing::fencing_word(run.spec.settings.fencing),
            run.spec.first_seed,
            run.spec.first_seed + run.done().saturating_sub(1),
        );
        self.said = Some(match browser::download(&name, "application/json", &json) {
            Ok(()) => format!("Saved {name}."),
            Err(why) => format!("The report could not be saved: {why}."),
        });
    }
}

impl ChaosLab {
    /// The settings form; once results show, a narrow screen folds it to one line with
    /// "Change" (the stylesheet decides what is narrow), so the results stand nearer the top.
    fn settings_view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let folded =
            self.settings == Settings::Folded && self.runner.run().is_some_and(|r| r.done() > 0);
        html! {
            <div class={classes!("lab-settings", folded.then_some("lab-settings-folded"))}>
                if folded {
                    <p class="lab-settings-summary" data-testid="lab-settings-summary">
                        <span class="lab-settings-words">{ self.spec.settings.words() }</span>
                        <button type="button" class="control" data-testid="lab-settings-change"
                            onclick={link.callback(|_| Msg::Unfold)}>{ "Change" }</button>
                    </p>
                }
                <LabForm spec={self.spec} on_change={link.callback(Msg::Edit)} />
            </div>
        }
    }
}

impl ChaosLab {
    /// The last run started: its headline, progress, chart (beside the previous run's when the
    /// user asks), histogram and seeds; only the progress before its first results.
    fn this_run_view(&self, ctx: &Context<Self>) -> Html {
        let running = *self.runner.status() == Status::Running;
        let progress = html! {
            <>
                <LabProgress run={self.runner.run().cloned()} status={self.runner.status().clone()}
                    loading={self.runner.loading()} outstanding={self.runner.outstanding()} />
                if let Some(said) = &self.said {
                    <p class="muted" role="status" data-testid="lab-said">{ said.clone() }</p>
                }
            </>
        };
        let Some(run) = self.runner.run().filter(|r| r.done() > 0) else {
            return progress;
        };
        let previous = self.runner.earlier().next().map(|n| &n.run);
        let this = ChartRow {
            run: run.clone(),
            live: running,
        };
        let chart = match previous.filter(|_| self.compare) {
            Some(previous) => {
                let earlier = ChartRow {
                    run: previous.clone(),
                    live: false,
                };
                html! { <CompareChart rows={vec![this, earlier]} /> }
            }
            None => html! { <ShareChart rows={vec![this]} /> },
        };
        html! {
            <section class="lab-run" data-testid="lab-run-block" data-run="this" aria-label="This run">
                <LabHeadline run={run.clone()} live={running} which={Which::This} />
                { progress }
                { for previous.map(|previous| self.compare_choice(ctx, run, previous)) }
                { chart }
                <Histogram report={run.report.clone()} />
                <ViolatingSeeds run={run.clone()} />
            </section>
        }
    }

    /// The choice to chart this run beside the previous one, naming what sets that one apart.
    fn compare_choice(&self, ctx: &Context<Self>, this: &LabRun, previous: &LabRun) -> Html {
        let apart = RunSettings::between(&[this.spec, previous.spec]).apart_words(1);
        let onchange = ctx.link().callback(|event: Event| {
            let input: web_sys::HtmlInputElement = event.target_unchecked_into();
            Msg::Compare(input.checked())
        });
        html! {
            <label class="lab-check lab-compare-choice">
                <input type="checkbox" data-testid="lab-compare" checked={self.compare} {onchange} />
                { format!("Compare with the previous run ({apart})") }
            </label>
        }
    }

    /// The runs before the last one, newest first, each labelled and removable, its results
    /// folded.
    fn earlier_view(&self, ctx: &Context<Self>) -> Html {
        let earlier: Vec<&Numbered> = self.runner.earlier().collect();
        if earlier.is_empty() {
            return Html::default();
        }
        html! {
            <section class="lab-earlier" data-testid="lab-earlier" aria-labelledby="lab-earlier-heading">
                <h3 id="lab-earlier-heading">{ "Earlier runs" }</h3>
                <p class="muted">{ format!("Newest first, as they were run; kept for this visit (the last {KEPT}).") }</p>
                { for earlier.into_iter().map(|kept| earlier_block(ctx, kept)) }
            </section>
        }
    }
}

/// An earlier run: its headline with ✕, and its chart, histogram and seeds folded.
fn earlier_block(ctx: &Context<ChaosLab>, kept: &Numbered) -> Html {
    let number = kept.number;
    let run = &kept.run;
    let remove = ctx.link().callback(move |_| Msg::Remove(number));
    html! {
        <section key={number.to_string()} class="lab-run lab-run-earlier" data-testid="lab-run-block" data-run="earlier"
            data-number={number.to_string()} aria-label="Earlier run">
            <LabHeadline run={run.clone()} live={false} which={Which::Earlier { remove }} />
            <details class="lab-run-more">
                <summary>{ "Its chart, histogram and violating seeds" }</summary>
                <ShareChart rows={vec![ChartRow { run: run.clone(), live: false }]} />
                <Histogram report={run.report.clone()} />
                <ViolatingSeeds run={run.clone()} />
            </details>
        </section>
    }
}

impl Component for ChaosLab {
    type Message = Msg;
    type Properties = ChaosLabProps;

    fn create(ctx: &Context<Self>) -> Self {
        let props = ctx.props();
        let memory = props.kept.get();
        // The lab's own tab opens on its defaults: coming back that way shows the settings of
        // the results kept, as a link with settings shows its own.
        let plain = props.link.spec == LabSpec::default() && props.link.problems.is_empty();
        let spec = memory.spec.filter(|_| plain).unwrap_or(props.link.spec);
        ChaosLab {
            spec,
            compare: memory.compare,
            refocus: false,
            runner: LabRunner::restore(memory),
            said: None,
            reveal: Reveal::Done,
            settings: Settings::Folded,
            search: SearchLink::default(),
        }
    }

    fn rendered(&mut self, ctx: &Context<Self>, first_render: bool) {
        // Read before the address is rewritten for the settings below.
        if first_render {
            let search = search::parse(&browser::fragment());
            if search != self.search {
                ctx.link().send_message(Msg::Search(search));
            }
        }
        // Settings restored with the kept results: the address says so too.
        if first_render && self.spec != ctx.props().link.spec {
            ctx.props().on_change.emit(self.spec);
        }
        if std::mem::take(&mut self.refocus) {
            browser::focus_if_lost("[data-testid=\"lab-remove-run\"]");
            browser::focus_if_lost("[data-testid=\"lab-run\"]");
        }
        // On a phone the settings fill the first screen: once per Run, the headline is brought
        // up when the first results show it.
        if let Reveal::AfterRun(at_run) = self.reveal
            && self.runner.run().is_some_and(|r| r.done() > 0)
        {
            self.reveal = Reveal::Done;
            crate::lab::reveal::headline(at_run);
        }
    }

    fn destroy(&mut self, ctx: &Context<Self>) {
        ctx.props()
            .kept
            .set(self.runner.memory(self.spec, self.compare));
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        self.spec = ctx.props().link.spec;
        self.search = search::parse(&browser::fragment());
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Edit(spec) => {
                self.spec = spec;
                ctx.props().on_change.emit(spec);
            }
            Msg::Run => {
                self.said = None;
                let on_reply = ctx
                    .link()
                    .callback(|(index, reply)| Msg::Reply(index, reply));
                self.runner.start(vec![self.spec], on_reply);
                self.settings = Settings::Folded;
                self.reveal = Reveal::AfterRun(crate::lab::reveal::at_run());
            }
            Msg::Unfold => self.settings = Settings::Open,
            Msg::Compare(on) => self.compare = on,
            Msg::Remove(number) => {
                self.runner.remove(number);
                self.refocus = true;
                // Nothing left to compare with: a later comparison is asked for again.
                self.compare &= self.runner.earlier().next().is_some();
            }
            Msg::Search(search) => self.search = search,
            Msg::Stop => self.runner.stop(),
            Msg::Reply(index, reply) => self.runner.reply(index, reply),
            Msg::Export => self.export(),
            Msg::CopyLink => {
                browser::copy(&browser::link_with(&self.spec.fragment()));
                self.said = Some(
                    "Link copied: it holds the settings; whoever opens it runs the seeds again."
                        .to_owned(),
                );
            }
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let running = *self.runner.status() == Status::Running;
        let problems = &ctx.props().link.problems;
        let run = self.runner.run();
        html! {
            <section class="page chaos-lab" data-testid="chaos-lab">
                <h2>{ "Chaos lab" }</h2>
                <p class="lede">{ "The article's third verification test, over many seeds: clients contend for the lock \
                    again and again while processes pause and links fail. Each seed makes a different run. \
                    The runs happen in a background worker on this device; the chart counts the runs that broke \
                    each invariant." }</p>
                if !problems.is_empty() {
                    <div class="notice problem" role="alert" data-testid="lab-link-problem">
                        <p>{ "Part of this link's settings cannot be used, so the lab uses its defaults there:" }</p>
                        <ul>{ for problems.iter().map(|p| html! { <li>{ p.to_string() }</li> }) }</ul>
                    </div>
                }
                { self.settings_view(ctx) }
                <div class="lab-actions">
                    <button type="button" class="control primary" data-testid="lab-run"
                        onclick={link.callback(|_| Msg::Run)}>
                        { format!("Run {} seeds", thousands(self.spec.runs.0)) }
                    </button>
                    <button type="button" class="control" data-testid="lab-stop" disabled={!running}
                        onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                    <button type="button" class="control" data-testid="lab-copy-link"
                        onclick={link.callback(|_| Msg::CopyLink)}>{ "Copy link" }</button>
                    <button type="button" class="control" data-testid="lab-export" disabled={run.is_none_or(|r| r.done() == 0)}
                        onclick={link.callback(|_| Msg::Export)}>{ "Export JSON" }</button>
                </div>
                { self.this_run_view(ctx) }
                { self.earlier_view(ctx) }
                <CounterexampleSearch link={self.search.clone()} />
            </section>
        }
    }
}
