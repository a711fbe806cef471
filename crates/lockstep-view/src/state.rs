//! The playground's state and its one reducer.
//!
//! `Playground` owns the scenario, the seed, the user's intervention log, the complete run of
//! those three (with its timeline layout), and a simulation stepped exactly to the position the
//! user is looking at. Every change goes through [`Action`] and `Reducible::reduce`; an action
//! that changes nothing returns the same `Rc`, so Yew skips the re-render. Timers, keys and the
//! URL live in components and effects: they only dispatch actions.
//!
//! Time travel is replay: scenario + seed + log ⇒ one run, so going back is running again to an
//! earlier position — from the run's last snapshot before it (`Run::sim_at`): a replay of at
//! most `SNAPSHOT_EVERY` events (more on runs long enough to thin their snapshots). Acting in the past forks: the user's later interventions are dropped
//! and the run diverges from there.

use crate::layout::Layout;
use crate::run::{Run, SNAPSHOT_EVERY};
use crate::scenario_twin::{self, ScenarioTwin};
use lockstep_sim::analysis::against::{Twin as AgainstTwin, against, service_of};
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::engine::sim::Sim;
use lockstep_sim::engine::trace::{Cause, TraceEvent};
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::types::Scenario;
use lockstep_sim::story::export::TraceExport;
use lockstep_sim::world::ids::{MessageId, NodeId};
use lockstep_sim::world::intervention::{Action as Act, Intervention};
use lockstep_sim::world::time::VirtualTime;
use std::rc::Rc;

/// How fast autoplay goes, in events per second of wall time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed(pub u16);

impl Speed {
    pub const CHOICES: [Speed; 7] = [
        Speed(1),
        Speed(2),
        Speed(5),
        Speed(10),
        Speed(30),
        Speed(100),
        Speed(300),
    ];
    pub const DEFAULT: Speed = Speed(5);

    /// Milliseconds between ticks: never faster than about 30 ticks a second; faster speeds
    /// take several events per tick instead.
    pub fn tick_ms(self) -> u32 {
        (1000 / u32::from(self.0.max(1))).max(33)
    }

    pub fn events_per_tick(self) -> usize {
        (usize::from(self.0) * self.tick_ms() as usize)
            .div_ceil(1000)
            .max(1)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    Paused,
    Playing,
}

/// What the user has picked on the timeline to act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Selection {
    Nothing,
    Node(NodeId),
    Message(MessageId),
}

/// Which violation to jump to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Jump {
    First,
    Next,
    Previous,
}

/// A message for the user about their last action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Notice {
    /// Something could not be done; the state is what it was before.
    Problem(String),
    /// Something was done that the user should know about.
    Info(String),
    /// A file the next action needs is on its way; the state is what it was before.
    Loading(String),
    /// A link was read only in part, or not at all: what was left out and why. The address
    /// stays as it came until the user acts (any act that changes the moment clears this).
    Link(String),
}

/// Where the open scenario came from: links to a built-in one stay short, and so do links to
/// a chaos lab run, which name its settings and seed (the scenario is generated again).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    BuiltIn(&'static str),
    Chaos(crate::link::chaos::ChaosRunRef),
    Custom,
}

/// What the open run is compared with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Compare {
    Off,
    /// The same run with fencing switched.
    Fencing,
    /// The same clients, resource, network, seed and interventions (carried by role) against
    /// another lock service.
    Service(ChaosBackend),
    /// Another built-in scenario (its catalogue id) with the same seed, fencing and
    /// interventions: the other half of a pair that differs in one fault or setting.
    Scenario(&'static str),
}

/// What to compare with, as the reducer takes it: another scenario comes with its file, loaded
/// by whoever asks (the reducer loads nothing, so it depends only on its input).
#[derive(Clone, Debug, PartialEq)]
pub enum Comparison {
    Off,
    Fencing,
    Service(ChaosBackend),
    /// Another built-in scenario: its catalogue id and its file as loaded.
    Scenario(&'static str, Rc<Scenario>),
}

impl Comparison {
    /// `compare` with the file it needs from `loaded` (a built-in scenario's file by id), or
    /// the id of the scenario whose file is missing.
    pub fn of(
        compare: Compare,
        loaded: &dyn Fn(&str) -> Option<Rc<Scenario>>,
    ) -> Result<Comparison, &'static str> {
        Ok(match compare {
            Compare::Off => Comparison::Off,
            Compare::Fencing => Comparison::Fencing,
            Compare::Service(service) => Comparison::Service(service),
            Compare::Scenario(id) => Comparison::Scenario(id, loaded(id).ok_or(id)?),
        })
    }

    /// What it is called in a link or a choice.
    pub fn compare(&self) -> Compare {
        match self {
            Comparison::Off => Compare::Off,
            Comparison::Fencing => Compare::Fencing,
            Comparison::Service(service) => Compare::Service(*service),
            Comparison::Scenario(id, _) => Compare::Scenario(id),
        }
    }
}

/// What a twin run is: the fencing switched, another lock service, or another scenario.
#[derive(Clone)]
pub enum TwinOf {
    Fencing(Fencing),
    /// The comparison as `lockstep_sim::against` built it: what each intervention became, both
    /// verdicts and the twin's scenario file. Made once per run, never on a step.
    Service(Rc<AgainstTwin>),
    /// Another built-in scenario, with the verdict of both runs. Made once per run.
    Scenario(Rc<ScenarioTwin>),
}

/// The same scenario run with fencing switched, or against another lock service, stepped to the
/// same moment, for comparison: the run the twin timeline draws. Not the simulator's
/// `against::Twin` (here `AgainstTwin`), which is only the comparison with another service
/// (what each intervention became, both verdicts) and one of the things a twin run can be of.
#[derive(Clone)]
pub struct TwinRun {
    pub of: TwinOf,
    pub run: Rc<Run>,
    pub layout: Rc<Layout>,
    pub at: Rc<Sim>,
}

impl TwinRun {
    /// The twin in a few words, for a line that sits beside the main run's: "fencing off",
    /// "etcd-style consensus", a scenario's title.
    pub fn short_label(&self) -> String {
        match &self.of {
            TwinOf::Fencing(fencing) => {
                format!("fencing {}", crate::link::fencing::fencing_word(*fencing))
            }
            TwinOf::Service(twin) => twin.service_b.label().to_owned(),
            TwinOf::Scenario(twin) => twin.title.clone(),
        }
    }

    /// Whether the twin, stepped to the main run's time, has reached its own end: only then
    /// is its verdict about what has happened.
    pub fn at_end(&self) -> bool {
        self.at.trace().len() >= self.run.sim.trace().len()
    }

    /// The twin timeline's caption.
    pub fn caption(&self) -> String {
        match &self.of {
            TwinOf::Fencing(fencing) => format!(
                "The same run with fencing {} (stepped to the same time)",
                crate::link::fencing::fencing_word(*fencing)
            ),
            TwinOf::Service(twin) => format!(
                "The same clients and faults against {} (stepped to the same time)",
                twin.service_b.label()
            ),
            TwinOf::Scenario(twin) => format!(
                "The twin: {} (the same seed, fencing and interventions; stepped to the same time)",
                twin.title
            ),
        }
    }

    /// The one-line verdict of both runs, for a comparison with another service or scenario.
    pub fn verdict_line(&self) -> Option<String> {
        match &self.of {
            TwinOf::Fencing(_) => None,
            TwinOf::Service(twin) => Some(twin.verdict_line()),
            TwinOf::Scenario(twin) => Some(twin.verdict.clone()),
        }
    }

    /// The twin's fencing, when the twin is the fencing switched.
    pub fn fencing(&self) -> Option<Fencing> {
        match &self.of {
            TwinOf::Fencing(fencing) => Some(*fencing),
            TwinOf::Service(_) | TwinOf::Scenario(_) => None,
        }
    }

    /// The comparison with another lock service, when the twin is one.
    pub fn against(&self) -> Option<&AgainstTwin> {
        match &self.of {
            TwinOf::Fencing(_) | TwinOf::Scenario(_) => None,
            TwinOf::Service(twin) => Some(twin),
        }
    }
}

/// Everything a link carries: enough to rebuild the exact moment.
#[derive(Clone, Debug, PartialEq)]
pub struct Moment {
    pub origin: Origin,
    /// The scenario as run (with the fencing the user chose).
    pub scenario: Scenario,
    pub seed: u64,
    pub log: Vec<Intervention<String>>,
    /// How many events are shown; `None`: the start (every event at t = 0).
    pub position: Option<usize>,
    pub compare: Comparison,
}

/// What the user can do to the playground.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// Show the next event.
    Step,
    /// Go back one event.
    Back,
    /// Rewind: return to the start of the run, the user's interventions kept.
    Reset,
    /// Reset to the original run: the user's interventions dropped, back at its start (the
    /// fencing and seed chosen stay).
    ResetToOriginal,
    /// Show the first `n` events.
    SeekTo(usize),
    /// Open the built-in scenario with this id (its file, as loaded), at its start.
    Open(&'static str, Box<Scenario>),
    /// Open a scenario file's text, or replay an exported trace; with the built-in scenario's
    /// file (loaded by the caller) when the text is a trace that names one and carries none.
    Import(String, Option<Rc<Scenario>>),
    /// Open a moment from a link.
    Restore(Box<Moment>),
    Play,
    Pause,
    TogglePlay,
    /// Autoplay's heartbeat: advance by the speed's events per tick.
    Tick,
    SetSpeed(Speed),
    JumpToViolation(Jump),
    Select(Selection),
    /// Apply an intervention at the current moment (just after the last shown event).
    Intervene(Act<String>),
    /// Remove the user's intervention at this index of the log.
    Forget(usize),
    SetFencing(Fencing),
    SetSeed(u64),
    /// Compare with fencing switched, or stop comparing.
    ToggleCompare,
    /// Compare with this (or stop comparing).
    SetCompare(Comparison),
    Dismiss,
    /// Show a problem found outside the reducer (a bad link, an unreadable file).
    Report(String),
    /// Show information from outside the reducer (a lesson's suggestion).
    Inform(String),
    /// Say what is loading (a scenario's file) until the action that needs it arrives.
    Loading(String),
    /// Open a link's moment (read by `link::kept`), with what was left out of it in words, if
    /// anything was: then, and if the moment cannot be shown, the address stays as it came.
    OpenLink(Box<Moment>, Option<String>),
    /// A link that cannot be opened, in words, shown over what is open.
    ReportLink(String),
}

#[derive(Clone)]
pub struct Playground {
    origin: Origin,
    /// `None` only when nothing could be loaded (see `notice`).
    scenario: Option<Rc<Scenario>>,
    seed: u64,
    log: Rc<Vec<Intervention<String>>>,
    run: Rc<Run>,
    layout: Rc<Layout>,
    at: Rc<Sim>,
    play: Play,
    speed: Speed,
    selection: Selection,
    twin: Option<TwinRun>,
    notice: Option<Notice>,
}

impl PartialEq for Playground {
    fn eq(&self, other: &Self) -> bool {
        self.origin == other.origin
            && self.scenario == other.scenario
            && self.seed == other.seed
            && Rc::ptr_eq(&self.run, &other.run)
            && self.at.trace().len() == other.at.trace().len()
            && self.play == other.play
            && self.speed == other.speed
            && self.selection == other.selection
            && self
                .twin
                .as_ref()
                .map(|t| (Rc::as_ptr(&t.run), t.at.trace().len()))
                == other
                    .twin
                    .as_ref()
                    .map(|t| (Rc::as_ptr(&t.run), t.at.trace().len()))
            && self.notice == other.notice
    }
}

impl Playground {
    /// The built-in scenario the app opens with (always in the wasm). The catalogue is checked
    /// by native tests; should the default fail to load anyway, the app shows why instead of
    /// panicking.
    pub fn default_scenario() -> Playground {
        match catalogue::default_scenario() {
            Ok(scenario) => Playground::open(Origin::BuiltIn(catalogue::DEFAULT_ID), scenario),
            Err(e) => Playground::unloaded(format!("The default scenario is broken: {e}")),
        }
    }

    /// Opens `scenario` at the moment its run starts: every event at t = 0 is shown.
    pub fn open(origin: Origin, scenario: Scenario) -> Playground {
        let seed = scenario.seed;
        match Playground::build(origin, scenario, seed, Vec::new(), None, Comparison::Off) {
            Ok(playground) => playground,
            Err(problem) => Playground::unloaded(problem),
        }
    }

    /// The playground for a moment from a link, or why it cannot be shown.
    pub fn restore(moment: Moment) -> Result<Playground, String> {
        Playground::build(
            moment.origin,
            moment.scenario,
            moment.seed,
            moment.log,
            moment.position,
            moment.compare,
        )
    }

    /// Runs `scenario` with `seed` and `log`, and stands at `position` (`None`: after the
    /// events at t = 0).
    fn build(
        origin: Origin,
        scenario: Scenario,
        seed: u64,
        log: Vec<Intervention<String>>,
        position: Option<usize>,
        compare: Comparison,
    ) -> Result<Playground, String> {
        let run =
            Run::record(&scenario, seed, &log).map_err(|e| format!("{}: {e}", scenario.id))?;
        let full = run.sim.trace();
        let position = position
            .unwrap_or_else(|| full.iter().take_while(|e| e.time.0 == 0).count())
            .min(full.len());
        let at = run
            .sim_at(position)
            .ok_or_else(|| format!("{}: the run could not be replayed", scenario.id))?;
        let layout = Layout::of(&run);
        let mut playground = Playground {
            origin,
            scenario: Some(Rc::new(scenario)),
            seed,
            log: Rc::new(log),
            run: Rc::new(run),
            layout: Rc::new(layout),
            at: Rc::new(at),
            play: Play::Paused,
            speed: Speed::DEFAULT,
            selection: Selection::Nothing,
            twin: None,
            notice: None,
        };
        match playground.make_twin(compare) {
            Ok(twin) => playground.twin = twin,
            // The run itself is fine: show it, and say why the comparison is not there.
            Err(problem) => playground.notice = Some(Notice::Problem(problem)),
        }
        Ok(playground)
    }

    fn unloaded(problem: String) -> Playground {
        Playground {
            origin: Origin::Custom,
            scenario: None,
            seed: 0,
            log: Rc::new(Vec::new()),
            run: Rc::new(Run::idle()),
            layout: Rc::new(Layout::default()),
            at: Rc::new(Sim::idle()),
            play: Play::Paused,
            speed: Speed::DEFAULT,
            selection: Selection::Nothing,
            twin: None,
            notice: Some(Notice::Problem(problem)),
        }
    }

    pub fn notice(&self) -> Option<&Notice> {
        self.notice.as_ref()
    }

    /// Why the last action could not be done, if that is the case.
    pub fn problem(&self) -> Option<&str> {
        match &self.notice {
            Some(Notice::Problem(problem) | Notice::Link(problem)) => Some(problem),
            _ => None,
        }
    }

    pub fn scenario(&self) -> Option<&Scenario> {
        self.scenario.as_deref()
    }

    pub fn title(&self) -> &str {
        self.scenario().map_or("No scenario", |s| s.title.as_str())
    }

    pub fn summary(&self) -> &str {
        self.scenario().map_or("", |s| s.summary.as_str())
    }

    /// The id of the open scenario.
    pub fn scenario_id(&self) -> &str {
        self.scenario().map_or("", |s| s.id.as_str())
    }

    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    pub fn seed(&self) -> u64 {
        self.seed
    }

    pub fn log(&self) -> &[Intervention<String>] {
        &self.log
    }

    /// Whether the user's interventions changed the run: it is no longer the original run of
    /// this scenario, seed and fencing (the "edited" chip).
    pub fn edited(&self) -> bool {
        !self.log.is_empty()
    }

    /// The interventions behind one `Rc`, replaced whenever they change: a component compares
    /// them by pointer.
    pub fn log_rc(&self) -> Rc<Vec<Intervention<String>>> {
        Rc::clone(&self.log)
    }

    pub fn fencing(&self) -> Option<Fencing> {
        self.scenario().and_then(|s| s.resource.fencing())
    }

    /// The hash of the complete run: equal to what `lockstep-cli` prints for the same input.
    pub fn full_hash(&self) -> &str {
        self.run.hash()
    }

    pub fn run(&self) -> &Run {
        &self.run
    }

    /// The same, shared: for what a component computes once per run.
    pub fn run_rc(&self) -> Rc<Run> {
        Rc::clone(&self.run)
    }

    pub fn layout(&self) -> &Rc<Layout> {
        &self.layout
    }

    /// The simulation as it stands after the shown events.
    pub fn sim(&self) -> &Sim {
        &self.at
    }

    /// The same, shared: components hold on to it without copying the trace.
    pub fn sim_rc(&self) -> Rc<Sim> {
        Rc::clone(&self.at)
    }

    /// The events shown so far.
    pub fn shown(&self) -> &[TraceEvent] {
        self.at.trace()
    }

    pub fn position(&self) -> usize {
        self.shown().len()
    }

    pub fn total(&self) -> usize {
        self.run.sim.trace().len()
    }

    /// When the last shown event happened.
    pub fn now(&self) -> VirtualTime {
        self.shown().last().map_or(VirtualTime::ZERO, |e| e.time)
    }

    pub fn can_step(&self) -> bool {
        self.position() < self.total()
    }

    pub fn can_go_back(&self) -> bool {
        self.position() > 0
    }

    pub fn play(&self) -> Play {
        self.play
    }

    pub fn speed(&self) -> Speed {
        self.speed
    }

    pub fn selection(&self) -> Selection {
        self.selection
    }

    pub fn twin(&self) -> Option<&TwinRun> {
        self.twin.as_ref()
    }

    /// What the open run is compared with.
    pub fn compare(&self) -> Compare {
        match self.twin.as_ref().map(|t| &t.of) {
            None => Compare::Off,
            Some(TwinOf::Fencing(_)) => Compare::Fencing,
            Some(TwinOf::Service(twin)) => Compare::Service(twin.service_b),
            Some(TwinOf::Scenario(twin)) => Compare::Scenario(twin.id),
        }
    }

    /// The same, with the other scenario's file: what a rerun compares with again.
    pub fn comparison(&self) -> Comparison {
        match self.twin.as_ref().map(|t| &t.of) {
            None => Comparison::Off,
            Some(TwinOf::Fencing(_)) => Comparison::Fencing,
            Some(TwinOf::Service(twin)) => Comparison::Service(twin.service_b),
            Some(TwinOf::Scenario(twin)) => Comparison::Scenario(twin.id, Rc::clone(&twin.file)),
        }
    }

    /// The lock service the open scenario runs on.
    pub fn service(&self) -> Option<ChaosBackend> {
        self.scenario().map(|s| service_of(&s.lock_service))
    }

    /// What a link to this moment carries.
    pub fn moment(&self) -> Option<Moment> {
        Some(Moment {
            origin: self.origin.clone(),
            scenario: self.scenario()?.clone(),
            seed: self.seed,
            log: self.log.to_vec(),
            position: Some(self.position()),
            compare: self.comparison(),
        })
    }

    /// The scenario as a file that reproduces this run on its own: the user's interventions
    /// become the file's, and the seed is the one in use.
    pub fn scenario_file(&self) -> Option<Scenario> {
        let mut scenario = self.scenario()?.clone();
        scenario.seed = self.seed;
        scenario.interventions.extend(self.log.iter().cloned());
        Some(scenario)
    }

    /// Indices of the events that broke an invariant.
    pub fn violations(&self) -> &[usize] {
        self.run.violations()
    }

    /// The same state with a notice.
    fn noticed(&self, notice: Notice) -> Playground {
        Playground {
            notice: Some(notice),
            ..self.clone()
        }
    }

    /// The same run, standing at `position` (clamped to the run).
    fn at_position(&self, position: usize) -> Option<Playground> {
        self.scenario()?;
        let position = position.min(self.total());
        let at = moved(&self.run, &self.at, position)?;
        let mut next = Playground {
            at: Rc::new(at),
            notice: None,
            ..self.clone()
        };
        next.twin = next.twin.as_ref().and_then(|twin| next.follow(twin));
        Some(next)
    }

    /// The twin stepped to this playground's moment: every twin event up to the same virtual
    /// time (the two runs share their past, and diverge only where fencing matters).
    fn follow(&self, twin: &TwinRun) -> Option<TwinRun> {
        let now = if self.position() == 0 {
            None
        } else {
            Some(self.now())
        };
        let wanted = now.map_or(0, |now| {
            twin.run.sim.trace().partition_point(|e| e.time <= now)
        });
        let at = moved(&twin.run, &twin.at, wanted)?;
        Some(TwinRun {
            at: Rc::new(at),
            ..twin.clone()
        })
    }

    /// The twin for `compare`, or why there cannot be one.
    fn make_twin(&self, compare: Comparison) -> Result<Option<TwinRun>, String> {
        match compare {
            Comparison::Off => Ok(None),
            Comparison::Fencing => self.fencing_twin().map(Some).ok_or_else(|| {
                "This resource has no fencing to switch, so there is nothing to compare.".to_owned()
            }),
            Comparison::Service(service) => self.service_twin(service).map(Some),
            Comparison::Scenario(id, other) => self.scenario_twin(id, other).map(Some),
        }
    }

    /// The built-in scenario `id` (its file `other`, as loaded) with the seed, fencing and
    /// interventions in use here.
    fn scenario_twin(&self, id: &'static str, other: Rc<Scenario>) -> Result<TwinRun, String> {
        let Some(main) = self.scenario() else {
            return Err("No scenario is open, so there is nothing to compare.".to_owned());
        };
        if main.id == id {
            return Err(format!(
                "This is the scenario {id}: choose another one to compare with."
            ));
        }
        let scenario = scenario_twin::twin_scenario(main, &other);
        let run = Run::record(&scenario, self.seed, &self.log)
            .map_err(|e| format!("The twin {id} cannot run with these interventions: {e}"))?;
        let at = run
            .sim_at(0)
            .ok_or_else(|| format!("The twin {id} could not be replayed."))?;
        let verdict =
            scenario_twin::verdict_line(main, self.run.sim.trace(), &scenario, run.sim.trace());
        let twin = TwinRun {
            of: TwinOf::Scenario(Rc::new(ScenarioTwin {
                id,
                title: scenario.title.clone(),
                verdict,
                file: other,
            })),
            layout: Rc::new(Layout::of(&run)),
            run: Rc::new(run),
            at: Rc::new(at),
        };
        self.follow(&twin)
            .ok_or_else(|| format!("The twin {id} could not be replayed."))
    }

    /// The same clients, resource, network, seed and interventions against `service`.
    fn service_twin(&self, service: ChaosBackend) -> Result<TwinRun, String> {
        let Some(mut scenario) = self.scenario().cloned() else {
            return Err("No scenario is open, so there is nothing to compare.".to_owned());
        };
        let own = service_of(&scenario.lock_service);
        if own == service {
            return Err(format!(
                "This scenario already runs on {}: choose another lock service to compare with.",
                own.label()
            ));
        }
        // Both runs use the seed in use, not the file's.
        scenario.seed = self.seed;
        let twin = against(&scenario, &self.log, service).map_err(|e| {
            format!(
                "The comparison with {} cannot be made: {e}",
                service.label()
            )
        })?;
        let run = Run::record(&twin.scenario_b, self.seed, &[])
            .map_err(|e| format!("The twin on {} cannot run: {e}", service.label()))?;
        let at = run
            .sim_at(0)
            .ok_or_else(|| format!("The twin on {} could not be replayed.", service.label()))?;
        let twin = TwinRun {
            of: TwinOf::Service(Rc::new(twin)),
            layout: Rc::new(Layout::of(&run)),
            run: Rc::new(run),
            at: Rc::new(at),
        };
        self.follow(&twin)
            .ok_or_else(|| format!("The twin on {} could not be replayed.", service.label()))
    }

    fn fencing_twin(&self) -> Option<TwinRun> {
        let mut scenario = self.scenario()?.clone();
        let fencing = match scenario.resource.fencing()? {
            Fencing::Off => Fencing::On,
            Fencing::On | Fencing::CheckAndSet | Fencing::Sequencer => Fencing::Off,
        };
        scenario.resource = scenario.resource.with_fencing(fencing);
        let run = Run::record(&scenario, self.seed, &self.log).ok()?;
        let at = run.sim_at(0)?;
        let twin = TwinRun {
            of: TwinOf::Fencing(fencing),
            layout: Rc::new(Layout::of(&run)),
            run: Rc::new(run),
            at: Rc::new(at),
        };
        self.follow(&twin)
    }

    /// Runs again with a new scenario, seed or log, standing at `position`.
    fn rerun(
        &self,
        scenario: Scenario,
        seed: u64,
        log: Vec<Intervention<String>>,
        position: usize,
    ) -> Result<Playground, String> {
        let mut next = Playground::build(
            self.origin.clone(),
            scenario,
            seed,
            log,
            Some(position),
            self.comparison(),
        )?;
        next.speed = self.speed;
        next.play = self.play;
        next.selection = self.selection;
        Ok(next)
    }

    /// `scenario` opened at its start with its own seed, keeping the user's speed; or the
    /// current state with the reason it cannot run.
    fn opened(&self, origin: Origin, scenario: Scenario) -> Playground {
        let seed = scenario.seed;
        match Playground::build(origin, scenario, seed, Vec::new(), None, Comparison::Off) {
            Ok(opened) => Playground {
                speed: self.speed,
                ..opened
            },
            Err(problem) => self.noticed(Notice::Problem(format!(
                "This scenario cannot run: {problem}"
            ))),
        }
    }

    /// The trace as the app exports it: with the scenario file that reproduces it.
    pub fn trace_export(&self) -> TraceExport {
        TraceExport {
            source: self.scenario_file(),
            ..TraceExport::of(&self.run.sim, self.scenario_id())
        }
    }

    fn intervene(&self, action: Act<String>) -> Playground {
        let Some(scenario) = self.scenario() else {
            return self.clone();
        };
        // Just after the last shown event: the shown past stays exactly as it was.
        let at_ms = VirtualTime(self.now().0 + 1);
        let kept: Vec<_> = self
            .log
            .iter()
            .filter(|i| i.at_ms <= at_ms)
            .cloned()
            .collect();
        let forked = self.log.len() - kept.len();
        let mut log = kept;
        log.push(Intervention { at_ms, action });
        let index = scenario.interventions.len() + log.len() - 1;
        let position = self.position();
        match self.rerun(scenario.clone(), self.seed, log, position) {
            Ok(mut next) => {
                // Show the intervention taking effect: step up to and including its event.
                let target =
                    next.run.sim.trace().iter().position(
                        |e| matches!(e.cause, Cause::Intervention(i) if i as usize == index),
                    );
                if let Some(target) = target.filter(|t| *t >= position)
                    && let Some(stepped) = next.at_position(target + 1)
                {
                    next = stepped;
                }
                next.play = Play::Paused;
                if forked > 0 {
                    next.notice = Some(Notice::Info(format!(
                        "The run forked here: {forked} of your later interventions no longer \
                         happen."
                    )));
                }
                next
            }
            Err(problem) => self.noticed(Notice::Problem(problem)),
        }
    }

    fn jump(&self, jump: Jump) -> Option<Playground> {
        let here = self.position();
        // A violation is "at" the position just after its event.
        let target = match jump {
            Jump::First => self.violations().first().copied(),
            Jump::Next => self.violations().iter().copied().find(|&i| i + 1 > here),
            Jump::Previous => self.violations().iter().copied().rfind(|&i| i + 1 < here),
        };
        match target {
            Some(index) => self.at_position(index + 1).map(|p| Playground {
                play: Play::Paused,
                ..p
            }),
            None => Some(
                self.noticed(Notice::Info(
                    match jump {
                        Jump::First => "No invariant breaks in this run.",
                        Jump::Next => "No invariant breaks after this point.",
                        Jump::Previous => "No invariant breaks before this point.",
                    }
                    .to_owned(),
                )),
            ),
        }
    }
}

/// `run`'s simulation moved from `from` to its first `position` events: stepped on from `from`
/// when that is at most `SNAPSHOT_EVERY` events ahead, else resumed from the run's last
/// snapshot before `position` (`Run::sim_at`). Either way, at most the snapshots' spacing is
/// replayed, and no step copies more than the simulation's current state and its trace (the
/// network's and timers' records are shared, see `lockstep_sim::shared_log`).
fn moved(run: &Run, from: &Sim, position: usize) -> Option<Sim> {
    let here = from.trace().len();
    if position >= here && position - here <= SNAPSHOT_EVERY {
        let mut sim = from.clone();
        while sim.trace().len() < position && sim.step().is_some() {}
        Some(sim)
    } else {
        run.sim_at(position)
    }
}

impl Playground {
    /// The state after `action`: the same `Rc` when nothing changes (the app's `Reducible`
    /// adapter passes it on, so Yew skips the re-render).
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        match action {
            Action::Import(text, named) => Rc::new(self.import(&text, named)),
            action => self.reduce_excerpt(action),
        }
    }

    /// [`Playground::reduce`] for a view with no file to import, an embed's excerpt
    /// (`crate::embed::state`): an [`Action::Import`] changes nothing. Kept apart so that an
    /// embed's binary does not carry the trace reader and the hash check it never runs.
    pub fn reduce_excerpt(self: Rc<Self>, action: Action) -> Rc<Self> {
        let next = match action {
            Action::TogglePlay => {
                let toggled = match self.play {
                    Play::Paused => Action::Play,
                    Play::Playing => Action::Pause,
                };
                return self.reduce_excerpt(toggled);
            }
            Action::ToggleCompare => {
                let toggled = match self.twin {
                    Some(_) => Comparison::Off,
                    None => Comparison::Fencing,
                };
                return self.reduce_excerpt(Action::SetCompare(toggled));
            }
            Action::Step
            | Action::Back
            | Action::Reset
            | Action::SeekTo(_)
            | Action::JumpToViolation(_) => self.navigated(action),
            Action::Play | Action::Pause | Action::Tick | Action::SetSpeed(_) => {
                self.played(action)
            }
            Action::Import(..) => None,
            Action::Open(..) | Action::Restore(_) | Action::OpenLink(..) => self.replaced(action),
            Action::Intervene(_)
            | Action::ResetToOriginal
            | Action::Forget(_)
            | Action::SetFencing(_)
            | Action::SetSeed(_) => self.changed(action),
            Action::SetCompare(compare) => self.compared(compare),
            Action::Select(_)
            | Action::Dismiss
            | Action::Report(_)
            | Action::Inform(_)
            | Action::Loading(_)
            | Action::ReportLink(_) => self.told(action),
        };
        next.map_or(self, Rc::new)
    }

    /// Moving through the same run; `None`: nothing changes. Other actions are not this
    /// group's, and change nothing here.
    fn navigated(&self, action: Action) -> Option<Playground> {
        match action {
            Action::Step if self.can_step() => self.at_position(self.position() + 1),
            Action::Back if self.can_go_back() => {
                self.at_position(self.position() - 1).map(|p| Playground {
                    play: Play::Paused,
                    ..p
                })
            }
            Action::Reset => self.scenario().map(|_| {
                let start = self
                    .run
                    .sim
                    .trace()
                    .iter()
                    .take_while(|e| e.time.0 == 0)
                    .count();
                let p = self.at_position(start).unwrap_or_else(|| self.clone());
                Playground {
                    play: Play::Paused,
                    ..p
                }
            }),
            Action::SeekTo(position) if position != self.position() => self.at_position(position),
            Action::JumpToViolation(jump) => self.jump(jump),
            _ => None,
        }
    }

    /// Playing, pausing, the autoplay's tick and its speed.
    fn played(&self, action: Action) -> Option<Playground> {
        match action {
            Action::Play if self.play == Play::Paused && self.scenario.is_some() => {
                // Playing from the end starts again from the beginning.
                let from = if self.can_step() {
                    Some(self.clone())
                } else {
                    self.at_position(0)
                };
                from.map(|p| Playground {
                    play: Play::Playing,
                    ..p
                })
            }
            Action::Pause if self.play == Play::Playing => Some(Playground {
                play: Play::Paused,
                ..self.clone()
            }),
            Action::Tick if self.play == Play::Playing => {
                let stepped = self.at_position(self.position() + self.speed.events_per_tick());
                stepped.map(|p| Playground {
                    play: if p.can_step() {
                        Play::Playing
                    } else {
                        Play::Paused
                    },
                    ..p
                })
            }
            Action::SetSpeed(speed) if speed != self.speed => Some(Playground {
                speed,
                ..self.clone()
            }),
            _ => None,
        }
    }

    /// Another scenario or moment in place of the open one.
    fn replaced(&self, action: Action) -> Option<Playground> {
        match action {
            Action::Open(id, scenario) => Some(self.opened(Origin::BuiltIn(id), *scenario)),
            Action::Restore(moment) => Some(match Playground::restore(*moment) {
                Ok(restored) => restored,
                Err(problem) => self.noticed(Notice::Problem(format!(
                    "This link cannot be opened: {problem}"
                ))),
            }),
            Action::OpenLink(moment, words) => Some(match (Playground::restore(*moment), words) {
                (Ok(restored), None) => restored,
                // A comparison the run could not make is said after what the link lost.
                (Ok(restored), Some(words)) => {
                    let words = match restored.problem() {
                        Some(problem) => format!("{words} {problem}"),
                        None => words,
                    };
                    restored.noticed(Notice::Link(words))
                }
                (Err(problem), _) => self.noticed(Notice::Link(format!(
                    "This link cannot be opened: {problem}"
                ))),
            }),
            _ => None,
        }
    }

    /// The same scenario run again with another log, fencing or seed.
    fn changed(&self, action: Action) -> Option<Playground> {
        let rerun = |scenario: Scenario, seed: u64, log: Vec<Intervention<String>>| {
            self.rerun(scenario, seed, log, self.position())
                .unwrap_or_else(|problem| self.noticed(Notice::Problem(problem)))
        };
        match action {
            Action::Intervene(action) => Some(self.intervene(action)),
            Action::ResetToOriginal if self.edited() => self.scenario().map(|s| {
                let start = Playground::build(
                    self.origin.clone(),
                    s.clone(),
                    self.seed,
                    Vec::new(),
                    None,
                    self.comparison(),
                );
                match start {
                    Ok(original) => Playground {
                        speed: self.speed,
                        selection: self.selection,
                        ..original
                    },
                    Err(problem) => self.noticed(Notice::Problem(problem)),
                }
            }),
            Action::Forget(index) if index < self.log.len() => self.scenario().map(|s| {
                let mut log = self.log.to_vec();
                log.remove(index);
                rerun(s.clone(), self.seed, log)
            }),
            Action::SetFencing(fencing) if self.fencing().is_some_and(|f| f != fencing) => {
                self.scenario().map(|s| {
                    let mut scenario = s.clone();
                    scenario.resource = scenario.resource.with_fencing(fencing);
                    rerun(scenario, self.seed, self.log.to_vec())
                })
            }
            Action::SetSeed(seed) if seed != self.seed => self
                .scenario()
                .map(|s| rerun(s.clone(), seed, self.log.to_vec())),
            _ => None,
        }
    }

    /// Comparing with `compare`, or why not.
    fn compared(&self, compare: Comparison) -> Option<Playground> {
        let asked = compare.compare();
        if asked == self.compare() {
            return None;
        }
        Some(match self.make_twin(compare) {
            Ok(twin) => Playground {
                twin,
                notice: None,
                ..self.clone()
            },
            Err(problem) => self.noticed(match asked {
                Compare::Fencing => Notice::Info(problem),
                Compare::Off | Compare::Service(_) | Compare::Scenario(_) => {
                    Notice::Problem(problem)
                }
            }),
        })
    }

    /// A selection, or a notice shown or dismissed.
    fn told(&self, action: Action) -> Option<Playground> {
        match action {
            Action::Select(selection) if selection != self.selection => Some(Playground {
                selection,
                ..self.clone()
            }),
            Action::Dismiss if self.notice.is_some() => Some(Playground {
                notice: None,
                ..self.clone()
            }),
            Action::Report(problem) => Some(self.noticed(Notice::Problem(problem))),
            Action::Inform(text) => Some(self.noticed(Notice::Info(text))),
            Action::Loading(text) => Some(self.noticed(Notice::Loading(text))),
            Action::ReportLink(text) => Some(self.noticed(Notice::Link(text))),
            _ => None,
        }
    }
}

pub mod import;

#[cfg(test)]
mod tests;
