//! The chaos engine as the lab sees it: settings, one run's result, and the report built from
//! runs in seed order. A stand-in over `lockstep_sim::chaos::Chaos` until the simulator has
//! its own chaos API; the page, the worker and the protocol use only these names.
//!
//! Pure: no browser, no clock.

use lockstep_sim::Sim;
use lockstep_sim::chaos::{Chaos, ChaosBackend as SimBackend};
use lockstep_sim::invariant::Invariant;
use lockstep_sim::resource::Fencing;
use lockstep_sim::time::{Millis, VirtualTime};
use serde::{Deserialize, Serialize};

/// The lock service a chaos run contends for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ChaosBackend {
    SqlRow,
    Redlock,
    Consensus,
}

impl ChaosBackend {
    pub const ALL: [ChaosBackend; 3] = [
        ChaosBackend::SqlRow,
        ChaosBackend::Redlock,
        ChaosBackend::Consensus,
    ];

    /// The id used in links.
    pub fn id(self) -> &'static str {
        match self {
            ChaosBackend::SqlRow => "sql-row",
            ChaosBackend::Redlock => "redlock",
            ChaosBackend::Consensus => "consensus",
        }
    }

    pub fn from_id(id: &str) -> Option<ChaosBackend> {
        ChaosBackend::ALL.into_iter().find(|b| b.id() == id)
    }

    fn sim(self) -> SimBackend {
        match self {
            ChaosBackend::SqlRow => SimBackend::SqlRow,
            ChaosBackend::Redlock => SimBackend::Redlock,
            ChaosBackend::Consensus => SimBackend::Consensus,
        }
    }
}

/// The number of contending clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct ClientCount(pub u8);

/// What a chaos run is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaosSettings {
    pub backend: ChaosBackend,
    pub fencing: Fencing,
    pub clients: ClientCount,
    pub duration: Millis,
}

impl ChaosSettings {
    /// The article's chaos test: the SQL row, 8 clients, 180 s, pauses and partitions.
    pub fn verification_test(fencing: Fencing) -> ChaosSettings {
        ChaosSettings {
            backend: ChaosBackend::SqlRow,
            fencing,
            clients: ClientCount(8),
            duration: Millis(180_000),
        }
    }

    fn chaos(&self, seed: u64) -> Chaos {
        Chaos {
            clients: usize::from(self.clients.0),
            duration: self.duration,
            ..Chaos::verification_test(seed, self.fencing).with_backend(self.backend.sim())
        }
    }

    pub fn scenario(&self, seed: u64) -> lockstep_sim::scenario::Scenario {
        self.chaos(seed).scenario()
    }
}

/// An invariant one run broke, and where first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Broken {
    pub invariant: Invariant,
    pub first_at: VirtualTime,
    /// The index in the trace of the event that first broke it.
    pub first_event: usize,
}

/// One chaos run's result, without its trace.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaosRun {
    pub seed: u64,
    pub events: u64,
    pub broken: Vec<Broken>,
}

impl ChaosRun {
    /// The first violation of the run, if any.
    pub fn first(&self) -> Option<&Broken> {
        self.broken.iter().min_by_key(|b| b.first_event)
    }
}

/// Runs one chaos run to its end.
pub fn run_chaos(settings: &ChaosSettings, seed: u64) -> ChaosRun {
    let scenario = settings.scenario(seed);
    let Ok(mut sim) = Sim::new(&scenario) else {
        return ChaosRun {
            seed,
            events: 0,
            broken: Vec::new(),
        };
    };
    sim.run_to_end();
    let mut broken: Vec<Broken> = Vec::new();
    for (index, event) in sim.trace().iter().enumerate() {
        for invariant in event.broke.iter() {
            if !broken.iter().any(|b| b.invariant == invariant) {
                broken.push(Broken {
                    invariant,
                    first_at: event.time,
                    first_event: index,
                });
            }
        }
    }
    ChaosRun {
        seed,
        events: sim.trace().len() as u64,
        broken,
    }
}

/// How many buckets the first-violation histogram has over the run's duration.
pub const HISTOGRAM_BUCKETS: usize = 12;

/// The runs so far, added in seed order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChaosReport {
    pub format: u32,
    pub settings: ChaosSettings,
    pub first_seed: u64,
    pub runs: u64,
    /// Per invariant, the runs that broke it.
    pub broke: Vec<(Invariant, u64)>,
    /// Runs whose first violation fell in each bucket of the duration.
    pub first_violation: Vec<u64>,
    pub violating_seeds: Vec<u64>,
}

impl ChaosReport {
    pub fn new(settings: ChaosSettings, first_seed: u64) -> ChaosReport {
        ChaosReport {
            format: 1,
            settings,
            first_seed,
            runs: 0,
            broke: Invariant::ALL.iter().map(|i| (*i, 0)).collect(),
            first_violation: vec![0; HISTOGRAM_BUCKETS],
            violating_seeds: Vec::new(),
        }
    }

    /// Adds the next run (the runs must come in seed order).
    pub fn add(&mut self, run: &ChaosRun) {
        self.runs += 1;
        for broken in &run.broken {
            if let Some(entry) = self.broke.iter_mut().find(|(i, _)| *i == broken.invariant) {
                entry.1 += 1;
            }
        }
        if let Some(first) = run.first() {
            let span = self.settings.duration.0.max(1);
            let bucket = (first.first_at.0.saturating_mul(HISTOGRAM_BUCKETS as u64) / span)
                .min(HISTOGRAM_BUCKETS as u64 - 1) as usize;
            self.first_violation[bucket] += 1;
            self.violating_seeds.push(run.seed);
        }
    }
}
