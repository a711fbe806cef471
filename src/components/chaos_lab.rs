//! The chaos lab page (`#lab`): the article's chaos test over many seeds, run in the lab's Web
//! Workers with a progress bar and Stop, then the share of runs that broke each invariant for
//! every lock service × fencing run this visit, when the first violation came, and the
//! violating seeds, each opening the playground at its first violation. The settings live in
//! the address; the results are recomputed, never linked.
//!
//! The runs and their merging are [`crate::lab_schedule`]'s; the workers are
//! [`crate::lab_workers`]'s; this component keeps who is busy with what and renders.

use crate::browser;
use crate::components::chaos_lab_form::LabForm;
use crate::components::chaos_lab_results::{ChartRow, Histogram, ShareChart, ViolatingSeeds};
use crate::components::counterexample_search::CounterexampleSearch;
use crate::lab_link::{LabLink, LabSpec};
use crate::lab_schedule::LabRun;
use crate::lab_workers::{WorkerPool, worker_count};
use crate::worker_protocol::{Reply, Request, SeedRange};
use yew::prelude::*;

#[derive(Properties, PartialEq)]
pub struct ChaosLabProps {
    /// The settings the address gives, and what in it could not be used.
    pub link: LabLink,
    /// The user changed a setting: the address should say so.
    pub on_change: Callback<LabSpec>,
}

/// Where the current run stands.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Status {
    Idle,
    /// The workers are loading (the first run of the visit) or running.
    Running,
    Stopped,
    Finished,
    Failed(String),
}

pub enum Msg {
    Edit(LabSpec),
    Run,
    Stop,
    Reply(usize, Reply),
    Export,
    CopyLink,
}

/// A worker as the page sees it.
#[derive(Clone, Copy, Default)]
struct WorkerState {
    ready: bool,
    /// The batch it is running, and the run (by number) it belongs to.
    busy: Option<(u64, SeedRange)>,
}

pub struct ChaosLab {
    spec: LabSpec,
    pool: Option<WorkerPool>,
    workers: Vec<WorkerState>,
    /// Counts the runs started, so a late reply to a stopped run is recognised and dropped.
    run_number: u64,
    run: Option<LabRun>,
    status: Status,
    /// The last run of each lock service × fencing, in the order they were first run.
    results: Vec<LabRun>,
    said: Option<String>,
}

fn same_row(a: &LabRun, b: &LabRun) -> bool {
    a.spec.settings.backend == b.spec.settings.backend
        && a.spec.settings.fencing == b.spec.settings.fencing
}

impl ChaosLab {
    /// Gives worker `index` the next batch, if it is free and seeds are left.
    fn feed(&mut self, index: usize) {
        if self.status != Status::Running {
            return;
        }
        let (Some(pool), Some(run), Some(worker)) =
            (&self.pool, self.run.as_mut(), self.workers.get_mut(index))
        else {
            return;
        };
        if !worker.ready || worker.busy.is_some() {
            return;
        }
        let Some(seeds) = run.next_batch() else {
            return;
        };
        let request = Request::Chaos {
            settings: run.spec.settings,
            seeds,
        };
        match pool.send(index, &request) {
            Ok(()) => worker.busy = Some((self.run_number, seeds)),
            Err(error) => self.status = Status::Failed(error),
        }
    }

    /// Keeps the current run as its lock service × fencing's row of the chart.
    fn keep(&mut self) {
        if let Some(run) = &self.run {
            match self.results.iter_mut().find(|r| same_row(r, run)) {
                Some(row) => *row = run.clone(),
                None => self.results.push(run.clone()),
            }
        }
    }

    fn start(&mut self, ctx: &Context<Self>) {
        if self.pool.is_none() {
            let on_reply = ctx
                .link()
                .callback(|(index, reply)| Msg::Reply(index, reply));
            match WorkerPool::start(worker_count(), on_reply) {
                Ok(pool) => {
                    self.workers = vec![WorkerState::default(); pool.count()];
                    self.pool = Some(pool);
                }
                Err(error) => {
                    self.status = Status::Failed(error);
                    return;
                }
            }
        }
        self.run_number += 1;
        self.run = Some(LabRun::new(self.spec));
        self.status = Status::Running;
        self.said = None;
        for index in 0..self.workers.len() {
            self.feed(index);
        }
    }

    fn reply(&mut self, index: usize, reply: Reply) {
        match reply {
            Reply::Ready => {
                if let Some(worker) = self.workers.get_mut(index) {
                    worker.ready = true;
                }
            }
            Reply::ChaosRuns(runs) => {
                let batch = self.workers.get_mut(index).and_then(|w| w.busy.take());
                let current = batch.is_some_and(|(number, _)| number == self.run_number);
                if current
                    && self.status == Status::Running
                    && let Some(run) = self.run.as_mut()
                {
                    run.accept(runs);
                    if run.finished() {
                        self.status = Status::Finished;
                        self.keep();
                    }
                }
            }
            // The lab's workers are never asked to search: the search section has its own.
            Reply::Search(_) => {}
            Reply::Failed(why) => {
                if let Some(worker) = self.workers.get_mut(index) {
                    worker.busy = None;
                }
                if self.status == Status::Running {
                    self.status = Status::Failed(why);
                    self.keep();
                }
            }
        }
        self.feed(index);
    }

    fn export(&mut self) {
        let Some(run) = &self.run else { return };
        let json = serde_json::to_string_pretty(&run.report).unwrap_or_default();
        let name = format!(
            "chaos-lab-{}-fencing-{}-seeds-{}-{}.json",
            run.spec.settings.backend.id(),
            crate::link::fencing_word(run.spec.settings.fencing),
            run.spec.first_seed,
            run.spec.first_seed + run.done().saturating_sub(1),
        );
        self.said = Some(match browser::download(&name, "application/json", &json) {
            Ok(()) => format!("Saved {name}."),
            Err(why) => format!("The report could not be saved: {why}."),
        });
    }
}

impl Component for ChaosLab {
    type Message = Msg;
    type Properties = ChaosLabProps;

    fn create(ctx: &Context<Self>) -> Self {
        ChaosLab {
            spec: ctx.props().link.spec,
            pool: None,
            workers: Vec::new(),
            run_number: 0,
            run: None,
            status: Status::Idle,
            results: Vec::new(),
            said: None,
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, _old: &Self::Properties) -> bool {
        self.spec = ctx.props().link.spec;
        true
    }

    fn update(&mut self, ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Edit(spec) => {
                self.spec = spec;
                ctx.props().on_change.emit(spec);
            }
            Msg::Run => self.start(ctx),
            Msg::Stop => {
                if self.status == Status::Running {
                    self.status = Status::Stopped;
                    self.keep();
                }
            }
            Msg::Reply(index, reply) => self.reply(index, reply),
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
        let running = self.status == Status::Running;
        let problems = &ctx.props().link.problems;
        let mut rows: Vec<ChartRow> = self
            .results
            .iter()
            .filter(|r| !(running && self.run.as_ref().is_some_and(|run| same_row(r, run))))
            .map(|r| ChartRow {
                run: r.clone(),
                live: false,
            })
            .collect();
        if let (true, Some(run)) = (running, &self.run) {
            rows.push(ChartRow {
                run: run.clone(),
                live: true,
            });
        }
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
                <LabForm spec={self.spec} on_change={link.callback(Msg::Edit)} />
                <div class="lab-actions">
                    <button type="button" class="control primary" data-testid="lab-run"
                        onclick={link.callback(|_| Msg::Run)}>
                        { format!("Run {} seeds", thousands(self.spec.runs.0)) }
                    </button>
                    <button type="button" class="control" data-testid="lab-stop" disabled={!running}
                        onclick={link.callback(|_| Msg::Stop)}>{ "Stop" }</button>
                    <button type="button" class="control" data-testid="lab-copy-link"
                        onclick={link.callback(|_| Msg::CopyLink)}>{ "Copy link" }</button>
                    <button type="button" class="control" data-testid="lab-export" disabled={self.run.as_ref().is_none_or(|r| r.done() == 0)}
                        onclick={link.callback(|_| Msg::Export)}>{ "Export JSON" }</button>
                </div>
                { self.progress() }
                if let Some(said) = &self.said {
                    <p class="muted" role="status" data-testid="lab-said">{ said.clone() }</p>
                }
                if !rows.is_empty() {
                    <ShareChart {rows} />
                }
                if let Some(run) = self.run.as_ref().filter(|r| r.done() > 0) {
                    <Histogram report={run.report.clone()} />
                    <ViolatingSeeds run={run.clone()} />
                }
                <CounterexampleSearch link={crate::search_link::parse(&crate::browser::fragment())} />
            </section>
        }
    }
}

impl ChaosLab {
    fn progress(&self) -> Html {
        let Some(run) = &self.run else {
            return html! {
                <p class="muted lab-status" data-testid="lab-status">{ "Nothing run yet. The first run loads the worker (the simulator again, for the background)." }</p>
            };
        };
        let done = run.done();
        let total = run.spec.runs.0;
        let broke = run.report.violating_seeds.len();
        let state = match &self.status {
            Status::Idle => String::new(),
            Status::Running if done == 0 && self.workers.iter().all(|w| !w.ready) => {
                "Loading the worker…".to_owned()
            }
            Status::Running => "Running…".to_owned(),
            Status::Stopped => "Stopped.".to_owned(),
            Status::Finished => "Done.".to_owned(),
            Status::Failed(why) => format!("The run failed: {why}."),
        };
        let failed = matches!(self.status, Status::Failed(_));
        html! {
            <div class="lab-progress" data-testid="lab-progress" data-status={status_word(&self.status)}
                data-done={done.to_string()} data-total={total.to_string()}>
                <progress max={total.to_string()} value={done.to_string()} aria-label="Seeds run"></progress>
                <p class={classes!("lab-status", failed.then_some("problem"))} role="status" data-testid="lab-status">
                    { format!("{state} {} of {} runs, {} broke an invariant", thousands(done), thousands(total), thousands(broke as u64)) }
                </p>
            </div>
        }
    }
}

fn status_word(status: &Status) -> &'static str {
    match status {
        Status::Idle => "idle",
        Status::Running => "running",
        Status::Stopped => "stopped",
        Status::Finished => "finished",
        Status::Failed(_) => "failed",
    }
}

/// `12,345`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}
