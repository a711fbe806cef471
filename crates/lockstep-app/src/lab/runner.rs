//! The page's lab runs: one after another from a queue, each shared out in batches to the
//! lab's workers ([`crate::lab::workers`]) and merged in seed order ([`lockstep_view::lab::schedule`]).
//! Keeps which worker is busy with which batch, so a reply to a stopped run is dropped, and the
//! runs that ended, numbered ([`RunHistory`]): the lab page shows them apart, newest first; the
//! verification lesson charts those of its last press. The chaos lab page and the verification
//! lesson each hold one. What the lab page's runner has found outlives the page for the visit
//! ([`KeptRuns`], held by the site): leaving the lab and coming back shows it again.

use crate::lab::workers::{WorkerPool, worker_count};
use lockstep_view::lab::runs::{Numbered, RunHistory};
use lockstep_view::lab::schedule::LabRun;
use lockstep_view::lab::worker_protocol::{Reply, Request, SeedRange};
use lockstep_view::link::lab::LabSpec;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use yew::Callback;

/// Where the current run stands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum Status {
    #[default]
    Idle,
    /// The workers are loading (the first run of the visit) or running.
    Running,
    Stopped,
    Finished,
    Failed(String),
}

impl Status {
    /// The word the page puts in `data-status`.
    pub fn word(&self) -> &'static str {
        match self {
            Status::Idle => "idle",
            Status::Running => "running",
            Status::Stopped => "stopped",
            Status::Finished => "finished",
            Status::Failed(_) => "failed",
        }
    }
}

/// A worker as the page sees it.
#[derive(Clone, Copy, Default)]
struct WorkerState {
    ready: bool,
    /// The batch it is running, and the run (by number) it belongs to.
    busy: Option<(u64, SeedRange)>,
}

/// One run of the chart: `live` while it is still running.
#[derive(Clone, PartialEq)]
pub struct ChartRow {
    pub run: LabRun,
    pub live: bool,
}

#[derive(Default)]
pub struct LabRunner {
    pool: Option<WorkerPool>,
    workers: Vec<WorkerState>,
    /// Counts the runs started, so a late reply to a stopped run is recognised and dropped;
    /// the current run's number.
    run_number: u64,
    /// The number of the first run of the last press.
    pressed_at: u64,
    queue: VecDeque<LabSpec>,
    run: Option<LabRun>,
    status: Status,
    /// The runs that ended, the current one among them once it has.
    history: RunHistory,
}

/// A runner's results without its workers: what stays when the lab page is left.
#[derive(Clone, Default)]
pub struct LabMemory {
    /// The settings the page showed.
    pub spec: Option<LabSpec>,
    /// Whether the page compared the current run with the previous one.
    pub compare: bool,
    run_number: u64,
    run: Option<LabRun>,
    status: Status,
    history: RunHistory,
}

/// The lab's results for the visit, held above the lab page (by the site) so that they outlive
/// it. Compared by identity: there is one for the visit.
#[derive(Clone, Default)]
pub struct KeptRuns(Rc<RefCell<LabMemory>>);

impl PartialEq for KeptRuns {
    fn eq(&self, other: &KeptRuns) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl KeptRuns {
    pub fn get(&self) -> LabMemory {
        self.0.borrow().clone()
    }

    pub fn set(&self, memory: LabMemory) {
        *self.0.borrow_mut() = memory;
    }
}

impl LabRunner {
    /// A runner with `memory`'s results and no workers (they start with the next run).
    pub fn restore(memory: LabMemory) -> LabRunner {
        LabRunner {
            run_number: memory.run_number,
            pressed_at: memory.run_number,
            run: memory.run,
            status: memory.status,
            history: memory.history,
            ..LabRunner::default()
        }
    }

    /// The results so far, for when the page goes: a run under way stops with it (its
    /// workers go with the page), keeping its runs so far.
    pub fn memory(&mut self, spec: LabSpec, compare: bool) -> LabMemory {
        self.stop();
        LabMemory {
            spec: Some(spec),
            compare,
            run_number: self.run_number,
            run: self.run.clone(),
            status: self.status.clone(),
            history: self.history.clone(),
        }
    }

    pub fn status(&self) -> &Status {
        &self.status
    }

    /// The current (or last) run.
    pub fn run(&self) -> Option<&LabRun> {
        self.run.as_ref()
    }

    /// The runs before the current one that ended, newest first, each with its number.
    pub fn earlier(&self) -> impl Iterator<Item = &Numbered> {
        self.history.earlier(self.run_number)
    }

    /// Forgets the earlier run `number`.
    pub fn remove(&mut self, number: u64) {
        if number != self.run_number {
            self.history.remove(number);
        }
    }

    /// How many batches the workers were given and have not answered yet — a stopped run's
    /// included, whose replies are dropped when they come. Nought: no worker is running
    /// anything for this page, so nothing can change until the next press.
    pub fn outstanding(&self) -> usize {
        self.workers.iter().filter(|w| w.busy.is_some()).count()
    }

    /// Whether no worker has said it is ready yet (the first run of the visit is loading them).
    pub fn loading(&self) -> bool {
        self.workers.iter().all(|w| !w.ready)
    }

    /// Runs `specs` one after another (stopping what was running, which keeps its runs so
    /// far), starting the workers the first time; `on_reply` receives the workers' replies,
    /// for [`LabRunner::reply`].
    pub fn start(&mut self, specs: Vec<LabSpec>, on_reply: Callback<(usize, Reply)>) {
        self.stop();
        if self.pool.is_none() {
            match WorkerPool::start(worker_count(), on_reply) {
                Ok(pool) => {
                    self.workers = vec![WorkerState::default(); pool.count()];
                    self.pool = Some(pool);
                }
                Err(error) => {
                    self.status = Status::Failed(error.to_string());
                    return;
                }
            }
        }
        self.queue = specs.into();
        self.pressed_at = self.run_number + 1;
        self.next();
    }

    /// Starts the next queued run, if any.
    fn next(&mut self) {
        let Some(spec) = self.queue.pop_front() else {
            return;
        };
        self.run_number += 1;
        self.run = Some(LabRun::new(spec));
        self.status = Status::Running;
        for index in 0..self.workers.len() {
            self.feed(index);
        }
    }

    /// Stops the current run (and the queued ones); its runs so far stay in the chart.
    pub fn stop(&mut self) {
        if self.status == Status::Running {
            self.status = Status::Stopped;
            self.queue.clear();
            self.keep();
        }
    }

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
            // No reply will come for this batch: the run cannot finish.
            Err(error) => self.fail(error.to_string()),
        }
    }

    /// Ends the current run (and the queued ones) as failed, for `why`; its runs so far stay
    /// in the chart.
    fn fail(&mut self, why: String) {
        self.status = Status::Failed(why);
        self.queue.clear();
        self.keep();
    }

    /// Keeps the current run, as it ended.
    fn keep(&mut self) {
        if let Some(run) = &self.run {
            self.history.keep(self.run_number, run);
        }
    }

    /// Takes worker `index`'s reply.
    pub fn reply(&mut self, index: usize, reply: Reply) {
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
                    if let Err(error) = run.accept(runs) {
                        self.fail(error.to_string());
                    } else if run.finished() {
                        self.status = Status::Finished;
                        self.keep();
                        self.next();
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
                    self.fail(why);
                }
            }
        }
        // A run that finished above has started the next one: every idle worker takes a batch.
        for index in 0..self.workers.len() {
            self.feed(index);
        }
    }

    /// The chart's rows: the runs of the last press that ended, in the order they ran, and the
    /// current one while it runs.
    pub fn rows(&self) -> Vec<ChartRow> {
        let running = self.status == Status::Running;
        let live = self.run.as_ref().filter(|_| running);
        let mut rows: Vec<ChartRow> = self
            .history
            .since(self.pressed_at)
            .map(|r| ChartRow {
                run: r.run.clone(),
                live: false,
            })
            .collect();
        if let Some(run) = live {
            rows.push(ChartRow {
                run: run.clone(),
                live: true,
            });
        }
        rows
    }
}
