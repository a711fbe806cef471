//! The embed's state: the scenario loading, the reason it cannot be shown, or a playground kept
//! within the embed's excerpt (`from=`..=`to=`).
//!
//! The excerpt is a wrapper around the playground's one reducer, not a second one: each action
//! goes to [`Playground`] as it is, bent first where the excerpt says so (Back and Reset stop at
//! `from`, Step stops at `to`, a seek is held inside), and whatever comes out past an edge (a
//! tick of Play, a jump to a violation) is brought back to it, with Play paused at `to`. This
//! module does not touch the browser.

use crate::embed_link::Excerpt;
use crate::state::{Action, Play, Playground};
use std::rc::Rc;
use yew::prelude::*;

/// Where the embed is.
#[derive(Clone)]
pub enum Phase {
    /// The scenario's file is on its way.
    Loading,
    /// What stops the embed from showing, in words (naming the parameter at fault).
    Failed(String),
    Ready(Rc<Playground>),
}

#[derive(Clone)]
pub struct EmbedState {
    pub excerpt: Excerpt,
    /// The position the address asks to open at (`at=`), checked against the run.
    pub at: Option<usize>,
    pub phase: Phase,
}

impl PartialEq for EmbedState {
    fn eq(&self, other: &Self) -> bool {
        self.excerpt == other.excerpt
            && self.at == other.at
            && match (&self.phase, &other.phase) {
                (Phase::Loading, Phase::Loading) => true,
                (Phase::Failed(a), Phase::Failed(b)) => a == b,
                (Phase::Ready(a), Phase::Ready(b)) => a == b,
                _ => false,
            }
    }
}

/// The positions an excerpt of a run of `total` events keeps within: `from..=to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub from: usize,
    pub to: usize,
}

impl Excerpt {
    /// The bounds within a run of `total` events (an excerpt past the end ends at the end).
    pub fn bounds(self, total: usize) -> Bounds {
        let to = self.to.unwrap_or(total).min(total);
        Bounds {
            from: self.from.unwrap_or(0).min(to),
            to,
        }
    }

    /// Why this excerpt does not fit a run of `total` events, naming the parameter.
    pub fn misfit(self, total: usize, at: Option<usize>) -> Option<String> {
        [("from", self.from), ("to", self.to), ("at", at)]
            .into_iter()
            .find_map(|(name, value)| {
                value
                    .filter(|n| *n > total)
                    .map(|n| format!("`{name}={n}`: this run has only {total} events"))
            })
    }
}

impl EmbedState {
    pub fn loading(excerpt: Excerpt, at: Option<usize>) -> EmbedState {
        EmbedState {
            excerpt,
            at,
            phase: Phase::Loading,
        }
    }

    /// The playground, once it is shown.
    pub fn playground(&self) -> Option<&Rc<Playground>> {
        match &self.phase {
            Phase::Ready(playground) => Some(playground),
            _ => None,
        }
    }

    /// The excerpt's bounds in the run shown.
    pub fn bounds(&self) -> Option<Bounds> {
        self.playground()
            .map(|playground| self.excerpt.bounds(playground.total()))
    }

    fn with(&self, phase: Phase) -> Rc<EmbedState> {
        Rc::new(EmbedState {
            excerpt: self.excerpt,
            at: self.at,
            phase,
        })
    }

    fn opened(&self, playground: Playground) -> Rc<EmbedState> {
        if let Some(problem) = playground.problem() {
            return self.with(Phase::Failed(problem.to_owned()));
        }
        if let Some(misfit) = self.excerpt.misfit(playground.total(), self.at) {
            return self.with(Phase::Failed(misfit));
        }
        let kept = within(Rc::new(playground), self.excerpt);
        self.with(Phase::Ready(kept))
    }
}

/// `playground` brought inside `excerpt`: a position past `to` goes back to it (and Play stops
/// there), one before `from` forward to it.
fn within(playground: Rc<Playground>, excerpt: Excerpt) -> Rc<Playground> {
    let Bounds { from, to } = excerpt.bounds(playground.total());
    let position = playground.position();
    let playground = if position > to {
        playground.reduce(Action::SeekTo(to))
    } else if position < from {
        playground.reduce(Action::SeekTo(from))
    } else {
        playground
    };
    if playground.play() == Play::Playing && playground.position() >= to {
        playground.reduce(Action::Pause)
    } else {
        playground
    }
}

impl Reducible for EmbedState {
    type Action = Action;

    fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
        let playground = match (&self.phase, action) {
            (_, Action::Restore(moment)) => {
                return match Playground::restore(*moment) {
                    Ok(playground) => self.opened(playground),
                    Err(problem) => self.with(Phase::Failed(problem)),
                };
            }
            (Phase::Ready(_), Action::Loading(_)) => return self,
            (_, Action::Loading(_)) => return self.with(Phase::Loading),
            (Phase::Ready(_), Action::Report(_)) => return self,
            (_, Action::Report(problem)) => return self.with(Phase::Failed(problem)),
            (Phase::Ready(playground), action) => {
                let Bounds { from, to } = self.excerpt.bounds(playground.total());
                let position = playground.position();
                let bent = match action {
                    Action::Step if position >= to => return self,
                    Action::Back if position <= from => return self,
                    Action::Reset if self.excerpt.from.is_some() => Rc::clone(playground)
                        .reduce(Action::Pause)
                        .reduce(Action::SeekTo(from)),
                    Action::SeekTo(n) => {
                        Rc::clone(playground).reduce(Action::SeekTo(n.clamp(from, to)))
                    }
                    // Playing from the excerpt's end starts again from its beginning.
                    Action::Play | Action::TogglePlay
                        if position >= to && playground.play() == Play::Paused =>
                    {
                        Rc::clone(playground)
                            .reduce(Action::SeekTo(from))
                            .reduce(Action::Play)
                    }
                    action => Rc::clone(playground).reduce(action),
                };
                within(bent, self.excerpt)
            }
            (_, _) => return self,
        };
        match &self.phase {
            Phase::Ready(before) if Rc::ptr_eq(before, &playground) => self,
            _ => self.with(Phase::Ready(playground)),
        }
    }
}
