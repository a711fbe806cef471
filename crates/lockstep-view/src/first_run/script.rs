//! The guided start's script: which stage the run stands at (from the fencing, the position and
//! the run's milestones) and what the card says, points at and offers at each stage. The words
//! name the tokens and clients of S1; `tests.rs` runs S1 and checks every claim against its
//! events.

use super::milestones::{Landing, Milestones};
use lockstep_sim::models::resource::Fencing;

/// Where the guided start stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Nothing has happened yet: press Step.
    Start,
    /// client-a is frozen in its pause.
    Paused,
    /// client-b took the lock and wrote.
    OtherWrote,
    /// client-a's stale write was accepted: client-b's update is lost.
    Lost,
    /// Fencing is on, and the zombie's write is still to come.
    Fenced,
    /// Fencing is on, and the zombie's write was refused.
    Refused,
}

/// What the card draws attention to on the page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pointer {
    /// The transport's Step button.
    Step,
    /// The zombie's write on the timeline.
    ZombieWrite,
}

/// What the card offers, besides Skip (which every stage offers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Choice {
    /// Switches fencing on, as the setup bar's switch does.
    TurnFencingOn,
    /// Opens the first lesson.
    ContinueLesson,
    /// Closes the guided start on the playground as it is.
    ExploreFreely,
}

/// One stage's card.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Card {
    pub stage: Stage,
    pub title: &'static str,
    pub text: &'static str,
    pub pointer: Pointer,
    pub choices: &'static [Choice],
}

/// The stage of a run with `fencing`, `position` events shown and these milestones.
pub fn stage(fencing: Option<Fencing>, position: usize, milestones: &Milestones) -> Stage {
    let shown = |event: Option<usize>| event.is_some_and(|event| position > event);
    let landed = |landing: Landing| {
        milestones
            .zombie_write
            .is_some_and(|w| w.landing == landing && position >= w.shown_at())
    };
    match fencing {
        Some(Fencing::Off) | None if landed(Landing::Accepted) => Stage::Lost,
        Some(Fencing::Off) | None if shown(milestones.honest_write) => Stage::OtherWrote,
        Some(Fencing::Off) | None if shown(milestones.pause) => Stage::Paused,
        Some(Fencing::Off) | None => Stage::Start,
        Some(_) if landed(Landing::Refused) => Stage::Refused,
        Some(_) => Stage::Fenced,
    }
}

/// What the card says at `stage`.
pub fn card(stage: Stage) -> Card {
    let (title, text, pointer, choices): (_, _, _, &'static [Choice]) = match stage {
        Stage::Start => (
            "A lock that fails quietly",
            "Two clients take turns with one lock to add 1 to a stored number. client-a goes \
             first, then freezes in a GC pause twice as long as its lease. Press Step to watch \
             one event at a time.",
            Pointer::Step,
            &[],
        ),
        Stage::Paused => (
            "client-a is frozen",
            "client-a still believes it holds the lock, but its lease runs out at the lock \
             service while it sleeps. Keep pressing Step.",
            Pointer::Step,
            &[],
        ),
        Stage::OtherWrote => (
            "client-b has the lock now",
            "client-b got the lock with token 34, read the number and wrote its increment. \
             client-a is still asleep. Keep pressing Step.",
            Pointer::Step,
            &[],
        ),
        Stage::Lost => (
            "The data was lost",
            "client-a woke up and wrote a number computed from the old value, with its old \
             token 33. The resource accepted it (the marked write), so client-b's update is \
             lost. Now turn fencing on: the resource will refuse a token lower than one it \
             has seen.",
            Pointer::ZombieWrite,
            &[Choice::TurnFencingOn],
        ),
        Stage::Fenced => (
            "Fencing is on",
            "Same pause, same run. Press Step until client-a writes again.",
            Pointer::Step,
            &[],
        ),
        Stage::Refused => (
            "The same write, refused",
            "The resource has seen token 34, so it refuses client-a's token 33, and \
             client-b's update stays. That number is a fencing token.",
            Pointer::ZombieWrite,
            &[Choice::ContinueLesson, Choice::ExploreFreely],
        ),
    };
    Card {
        stage,
        title,
        text,
        pointer,
        choices,
    }
}
