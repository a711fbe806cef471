//! The faults a real run makes, when the plan says, each recorded as applied: a primary's crash
//! (`SIGKILL`) and the replica's promotion the failover delay after it, as the simulation's
//! monitor does; a Redlock node's crash (`SIGKILL`) and its restart, empty, on its port; a
//! Redlock node's or an etcd member's pause (`SIGSTOP`, then `SIGCONT` when it ends); a client's crash (the recorder stops it: it sends nothing more and hears no
//! answer); a cut link between a client and a node (its link proxy drops everything from then
//! on); a jump of a node's wall clock (the clock shim's offset).
//!
//! Faults at 0 ms are made as the run's clock starts, before the clients' threads do
//! ([`Faults::at_start`]): the clients begin at 0 ms too, and must not see the links whole.

use crate::link::{CutSwitch, LinkError};
use crate::per_run::PerRun;
use crate::plan::{Plan, ServicePlan};
use crate::record::Recorder;
use crate::server::{ServerError, Stopped};
use lockstep_sim::story::recorded::Applied;
use lockstep_sim::vocabulary::happening::Direction;
use thiserror::Error;

/// Why a fault could not be made: on a server (a signal, a restart, a clock, a promotion), or
/// on a link. The run goes on without it, and lists it among its failures.
#[derive(Debug, Error)]
pub enum FaultError {
    #[error(transparent)]
    Server(#[from] ServerError),
    #[error(transparent)]
    Link(#[from] LinkError),
}

/// One fault to make, and where.
enum Fault {
    Crash {
        node: String,
    },
    ClientCrash {
        client: String,
    },
    Restart {
        node: String,
    },
    /// A node's process stopped for `for_ms` (recorded as the pause), or let go on again.
    Stop {
        node: String,
        stopped: Stopped,
        for_ms: u64,
    },
    Promote,
    Cut {
        client: String,
        node: String,
        direction: Direction,
    },
    ClockJump {
        node: String,
        by_ms: i64,
    },
}

/// The plan's faults in time order, and what makes them.
pub struct Faults<'a> {
    timed: Vec<(u64, Fault)>,
    per_run: &'a PerRun,
    /// Each client's switch for each node's link: (client, node, switch).
    switches: Vec<(String, String, CutSwitch)>,
}

impl<'a> Faults<'a> {
    pub fn of(
        plan: &Plan,
        per_run: &'a PerRun,
        switches: Vec<(String, String, CutSwitch)>,
    ) -> Self {
        let mut timed = Vec::new();
        for (at_ms, node) in &plan.faults.crashes {
            timed.push((*at_ms, Fault::Crash { node: node.clone() }));
            if let ServicePlan::ReplicatedCache {
                failover_after_ms, ..
            } = plan.service
            {
                timed.push((at_ms + failover_after_ms, Fault::Promote));
            }
        }
        for (at_ms, node) in &plan.faults.restarts {
            timed.push((*at_ms, Fault::Restart { node: node.clone() }));
        }
        for (at_ms, node, for_ms) in &plan.faults.server_pauses {
            for (at_ms, stopped) in [(*at_ms, Stopped::Pause), (at_ms + for_ms, Stopped::Resume)] {
                let (node, for_ms) = (node.clone(), *for_ms);
                timed.push((
                    at_ms,
                    Fault::Stop {
                        node,
                        stopped,
                        for_ms,
                    },
                ));
            }
        }
        for client in &plan.clients {
            if let Some(at_ms) = client.crash_ms {
                let client = client.name.clone();
                timed.push((at_ms, Fault::ClientCrash { client }));
            }
        }
        for (at_ms, client, node, direction) in &plan.faults.cuts {
            let (client, node, direction) = (client.clone(), node.clone(), *direction);
            timed.push((
                *at_ms,
                Fault::Cut {
                    client,
                    node,
                    direction,
                },
            ));
        }
        for (at_ms, node, by_ms) in &plan.faults.clock_jumps {
            let (node, by_ms) = (node.clone(), *by_ms);
            timed.push((*at_ms, Fault::ClockJump { node, by_ms }));
        }
        timed.sort_by_key(|(at_ms, _)| *at_ms);
        Faults {
            timed,
            per_run,
            switches,
        }
    }

    /// Makes the faults due at 0 ms, before the clients start; what they did is recorded by
    /// [`Self::play`] at 0 ms.
    pub fn at_start(&self, recorder: &Recorder) -> Vec<Result<(), FaultError>> {
        self.timed
            .iter()
            .take_while(|(at_ms, _)| *at_ms == 0)
            .map(|(_, fault)| self.make(fault, recorder))
            .collect()
    }

    /// Makes the other faults as the run's clock reaches them, and records all of them.
    pub fn play(&self, made_at_start: Vec<Result<(), FaultError>>, recorder: &Recorder) {
        let mut early = made_at_start.into_iter();
        for (at_ms, fault) in &self.timed {
            let made = match early.next() {
                Some(made) => made,
                None => {
                    recorder.wait_until(*at_ms);
                    self.make(fault, recorder)
                }
            };
            match made {
                Ok(()) => {
                    if let Some((node, applied)) = self.applied(fault) {
                        recorder.applied(&node, *at_ms, applied);
                    }
                }
                Err(why) => recorder.failed(&format!("the fault at {at_ms} ms: {why}")),
            }
        }
    }

    fn make(&self, fault: &Fault, recorder: &Recorder) -> Result<(), FaultError> {
        match fault {
            Fault::Crash { node } => match &self.per_run.redlock {
                Some(nodes) => Ok(nodes.crash(node)?),
                None => {
                    self.pair()?.crash_primary();
                    Ok(())
                }
            },
            Fault::Restart { node } => Ok(self
                .per_run
                .redlock
                .as_ref()
                .ok_or(ServerError::NotStarted("Redlock nodes"))?
                .restart(node)?),
            Fault::Stop { node, stopped, .. } => {
                match (&self.per_run.redlock, &self.per_run.etcd) {
                    (Some(nodes), _) => Ok(nodes.stop(node, *stopped)?),
                    (_, Some(cluster)) => Ok(cluster.stop(node, *stopped)?),
                    _ => Err(ServerError::NoNode(node.clone()).into()),
                }
            }
            Fault::ClientCrash { client } => {
                recorder.crash(client);
                Ok(())
            }
            Fault::Promote => Ok(self.pair()?.promote_replica()?),
            Fault::Cut {
                client,
                node,
                direction,
            } => {
                let switch = self
                    .switches
                    .iter()
                    .find(|(c, n, _)| c == client && n == node)
                    .ok_or_else(|| LinkError::NoLink {
                        client: client.clone(),
                        node: node.clone(),
                    })?;
                switch.2.cut(*direction);
                Ok(())
            }
            Fault::ClockJump { node, by_ms } => Ok(self
                .per_run
                .redlock
                .as_ref()
                .ok_or(ServerError::NotStarted("Redlock nodes"))?
                .jump_clock(node, *by_ms)?),
        }
    }

    fn pair(&self) -> Result<&crate::redis::ReplicatedRedis, ServerError> {
        self.per_run
            .pair
            .as_deref()
            .ok_or(ServerError::NotStarted("Redis primary and replica"))
    }

    /// The node a fault is recorded on, and what it was; nothing for a pause's end (the pause
    /// says how long it lasts).
    fn applied(&self, fault: &Fault) -> Option<(String, Applied)> {
        Some(match fault {
            Fault::Crash { node } | Fault::ClientCrash { client: node } => {
                (node.clone(), Applied::Crash)
            }
            Fault::Restart { node } => (node.clone(), Applied::Restart),
            Fault::Promote => (
                self.per_run
                    .pair
                    .as_ref()
                    .map_or_else(String::new, |p| p.replica_name.clone()),
                Applied::Failover,
            ),
            Fault::Cut {
                client,
                node,
                direction,
            } => (
                client.clone(),
                Applied::Cut {
                    peer: node.clone(),
                    direction: *direction,
                },
            ),
            Fault::ClockJump { node, by_ms } => {
                (node.clone(), Applied::ClockJump { by_ms: *by_ms })
            }
            Fault::Stop {
                stopped: Stopped::Resume,
                ..
            } => return None,
            Fault::Stop { node, for_ms, .. } => (node.clone(), Applied::Pause { for_ms: *for_ms }),
        })
    }
}
