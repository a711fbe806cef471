//! An independent Stateright model of the same protocol, written from the article rather than
//! from the simulator: the SQL-row lock (acquire when free or expired, token + 1 per
//! acquisition, a lease of a fixed length), a register that accepts a write only with a token at
//! least the highest it has seen (fencing on) or any write (fencing off), two clients that each
//! take the lock once, read-modify-write the register and stop, and at most `k` process pauses.
//! Time moves in ticks of the search's grid step; messages are instantaneous.
//!
//! A write is stale, as the simulator judges it, when the lock service had already granted a
//! higher token to the other client before the write was accepted — whatever the register saw.
//!
//! Its runs are counted in its own actions (ticks and protocol steps), not in the simulator's
//! trace events, so its counterexample's length cannot be compared with the search's; its
//! verdict can: a stale write with fencing off after one pause; with fencing on, none after one
//! pause and the fencing gap after two (`tests/same_answer.rs`).

use stateright::{Model, Property};

/// The protocol's numbers, in ticks.
#[derive(Clone, Copy, Debug)]
pub struct Timing {
    pub ttl: u8,
    pub work: u8,
    /// When each client starts.
    pub starts: [u8; 2],
    pub pause: u8,
    /// The last tick of a run.
    pub horizon: u8,
}

/// S1's numbers at steps of 100 ms: a lease of 1,000 ms, 200 ms of work, client-b starting at
/// 1,200 ms, pauses of 2,000 ms, runs to 4,000 ms.
pub const S1_TIMING: Timing = Timing {
    ttl: 10,
    work: 2,
    starts: [0, 12],
    pause: 20,
    horizon: 40,
};

#[derive(Clone, Copy, Debug, Hash, PartialEq, Eq)]
pub enum Phase {
    Waiting,
    /// Holds (it believes) the lock with this token; its work ends at the tick given.
    Working {
        token: u8,
        until: u8,
    },
    Done,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct LockState {
    pub now: u8,
    /// The lock row: who holds it, with which token, until when (by the service's clock).
    pub holder: Option<(usize, u8, u8)>,
    pub last_token: u8,
    /// The highest token the register has accepted.
    pub highest: u8,
    /// Whether a write was accepted with a token lower than one the lock gave the other client.
    pub stale_write_accepted: bool,
    pub phases: [Phase; 2],
    /// A paused client does nothing until this tick.
    pub paused_until: [u8; 2],
    pub pauses: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockAction {
    Tick,
    Acquire(usize),
    Write(usize),
    Pause(usize),
}

/// The model: fencing on or off, at most `max_pauses` pauses.
pub struct SqlRowModel {
    pub fenced: bool,
    pub max_pauses: u8,
    pub timing: Timing,
}

impl SqlRowModel {
    fn running(&self, state: &LockState, client: usize) -> bool {
        state.paused_until[client] <= state.now
    }
}

impl Model for SqlRowModel {
    type State = LockState;
    type Action = LockAction;

    fn init_states(&self) -> Vec<LockState> {
        vec![LockState {
            now: 0,
            holder: None,
            last_token: 0,
            highest: 0,
            stale_write_accepted: false,
            phases: [Phase::Waiting; 2],
            paused_until: [0; 2],
            pauses: 0,
        }]
    }

    /// A step that is due happens before time moves on (as in the simulator, where an input is
    /// handled when it comes due): time ticks only when no running client has a step due. Only a
    /// pause can hold a client back.
    fn actions(&self, state: &LockState, actions: &mut Vec<LockAction>) {
        let mut due = false;
        for client in 0..2 {
            if !self.running(state, client) {
                continue;
            }
            match state.phases[client] {
                Phase::Waiting if state.now >= self.timing.starts[client] => {
                    let free = state.holder.is_none_or(|(_, _, until)| until <= state.now);
                    if free {
                        actions.push(LockAction::Acquire(client));
                        due = true;
                    }
                }
                Phase::Working { until, .. } if state.now >= until => {
                    actions.push(LockAction::Write(client));
                    due = true;
                }
                _ => {}
            }
            if state.pauses < self.max_pauses && state.phases[client] != Phase::Done {
                actions.push(LockAction::Pause(client));
            }
        }
        if !due && state.now < self.timing.horizon {
            actions.push(LockAction::Tick);
        }
    }

    fn next_state(&self, state: &LockState, action: LockAction) -> Option<LockState> {
        let mut next = state.clone();
        match action {
            LockAction::Tick => next.now += 1,
            LockAction::Acquire(client) => {
                next.last_token += 1;
                next.holder = Some((client, next.last_token, state.now + self.timing.ttl));
                next.phases[client] = Phase::Working {
                    token: next.last_token,
                    until: state.now + self.timing.work,
                };
            }
            LockAction::Write(client) => {
                let Phase::Working { token, .. } = state.phases[client] else {
                    return None;
                };
                let accepted = !self.fenced || token >= state.highest;
                if accepted {
                    // Each client takes the lock once and tokens only grow, so a higher token
                    // than the writer's went to the other client.
                    next.stale_write_accepted |= token < state.last_token;
                    next.highest = state.highest.max(token);
                }
                next.phases[client] = Phase::Done;
            }
            LockAction::Pause(client) => {
                next.paused_until[client] = state.now + self.timing.pause;
                next.pauses += 1;
            }
        }
        Some(next)
    }

    fn properties(&self) -> Vec<Property<Self>> {
        vec![Property::always(
            "no stale write accepted",
            |_: &SqlRowModel, state: &LockState| !state.stale_write_accepted,
        )]
    }
}
