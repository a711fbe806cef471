//! The embed's state: the scenario loading, the reason it cannot be shown, or a playground kept
//! within the embed's excerpt (`from=`..=`to=`).
//!
//! The excerpt is a wrapper around the playground's one reducer, not a second one: each action
//! goes to [`Playground`] as it is, bent first where the excerpt says so (Back and Reset stop at
//! `from`, Step stops at `to`, a seek is held inside), and whatever comes out past an edge (a
//! tick of Play, a jump to a violation) is brought back to it, with Play paused at `to`. This
//! module does not touch the browser.

use crate::link::embed::{Bounds, Excerpt};
use crate::state::{Action, Play, Playground};
use std::rc::Rc;

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
                (Phase::Loading | Phase::Failed(_) | Phase::Ready(_), _) => false,
            }
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
        playground.reduce_excerpt(Action::SeekTo(to))
    } else if position < from {
        playground.reduce_excerpt(Action::SeekTo(from))
    } else {
        playground
    };
    if playground.play() == Play::Playing && playground.position() >= to {
        playground.reduce_excerpt(Action::Pause)
    } else {
        playground
    }
}

impl EmbedState {
    /// The state after `action`: the same `Rc` when nothing changes (the app's `Reducible`
    /// adapter passes it on, so Yew skips the re-render).
    pub fn reduce(self: Rc<Self>, action: Action) -> Rc<Self> {
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
                        .reduce_excerpt(Action::Pause)
                        .reduce_excerpt(Action::SeekTo(from)),
                    Action::SeekTo(n) => {
                        Rc::clone(playground).reduce_excerpt(Action::SeekTo(n.clamp(from, to)))
                    }
                    // Playing from the excerpt's end starts again from its beginning.
                    Action::Play | Action::TogglePlay
                        if position >= to && playground.play() == Play::Paused =>
                    {
                        Rc::clone(playground)
                            .reduce_excerpt(Action::SeekTo(from))
                            .reduce_excerpt(Action::Play)
                    }
                    action => Rc::clone(playground).reduce_excerpt(action),
                };
                within(bent, self.excerpt)
            }
            // Loading or failed: nothing to step, play or change until a moment is restored.
            (Phase::Loading | Phase::Failed(_), _) => return self,
        };
        match &self.phase {
            Phase::Ready(before) if Rc::ptr_eq(before, &playground) => self,
            _ => self.with(Phase::Ready(playground)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::share;
    use crate::test_files::loaded;

    const S1: &str = "s1-gc-pause-unfenced";

    /// The embed of `fragment`'s playground parameters with `excerpt`, opened at `at` (or
    /// `from`), as the view opens it.
    fn opened(setup: &str, excerpt: Excerpt, at: Option<usize>) -> Rc<EmbedState> {
        let mut moment = share::decode(setup, &loaded).expect("a valid link");
        moment.position = at.or(excerpt.from);
        Rc::new(EmbedState::loading(excerpt, at)).reduce(Action::Restore(Box::new(moment)))
    }

    fn excerpt(from: usize, to: usize) -> Excerpt {
        Excerpt {
            from: Some(from),
            to: Some(to),
        }
    }

    fn position(state: &EmbedState) -> usize {
        state.playground().expect("ready").position()
    }

    fn apply(state: Rc<EmbedState>, actions: impl IntoIterator<Item = Action>) -> Rc<EmbedState> {
        actions.into_iter().fold(state, |s, a| s.reduce(a))
    }

    #[test]
    fn an_excerpt_opens_at_from_and_step_stops_at_to() {
        let state = opened(&format!("s={S1}"), excerpt(5, 8), None);
        assert_eq!(position(&state), 5);
        let state = apply(state, [Action::Step, Action::Step, Action::Step]);
        assert_eq!(position(&state), 8);
        let same = state.clone().reduce(Action::Step);
        assert!(Rc::ptr_eq(&state, &same), "Step at `to` changes nothing");
    }

    #[test]
    fn back_and_reset_stop_at_from_and_a_seek_stays_inside() {
        let state = opened(&format!("s={S1}"), excerpt(5, 8), Some(7));
        assert_eq!(position(&state), 7);
        let state = apply(
            state,
            [Action::Back, Action::Back, Action::Back, Action::Back],
        );
        assert_eq!(position(&state), 5);
        let state = apply(state, [Action::Step, Action::Reset]);
        assert_eq!(position(&state), 5);
        assert_eq!(position(&state.clone().reduce(Action::SeekTo(0))), 5);
        assert_eq!(
            position(&state.clone().reduce(Action::SeekTo(usize::MAX))),
            8
        );
        assert_eq!(position(&state.reduce(Action::SeekTo(6))), 6);
    }

    #[test]
    fn play_stops_at_to_and_starts_again_from_from() {
        let state = opened(&format!("s={S1}"), excerpt(5, 9), None);
        let mut state = state.reduce(Action::Play);
        for _ in 0..20 {
            state = state.reduce(Action::Tick);
        }
        let playground = state.playground().expect("ready");
        assert_eq!(playground.position(), 9);
        assert_eq!(playground.play(), Play::Paused, "Play stops at `to`");
        let again = state.reduce(Action::Play);
        let playground = again.playground().expect("ready");
        assert_eq!(
            (playground.position(), playground.play()),
            (5, Play::Playing)
        );
    }

    #[test]
    fn a_jump_to_a_violation_past_the_excerpt_stops_at_its_edge() {
        let whole = opened(&format!("s={S1}"), Excerpt::default(), Some(0));
        let first = whole
            .playground()
            .and_then(|p| p.violations().first().copied())
            .expect("S1 breaks an invariant");
        assert!(first > 2, "the test needs room before the first violation");
        let state = opened(&format!("s={S1}"), excerpt(0, first - 2), Some(0));
        let jumped = state.reduce(Action::JumpToViolation(crate::state::Jump::First));
        assert_eq!(position(&jumped), first - 2);
    }

    #[test]
    fn without_an_excerpt_the_embed_steps_like_the_playground() {
        let state = opened(&format!("s={S1}"), Excerpt::default(), None);
        let total = state.playground().expect("ready").total();
        let state = state.reduce(Action::SeekTo(usize::MAX));
        assert_eq!(position(&state), total);
        let state = state.reduce(Action::Reset);
        let playground = Rc::clone(state.playground().expect("ready"));
        let reset = Rc::new(Playground::clone(&playground)).reduce(Action::Reset);
        assert_eq!(
            playground.position(),
            reset.position(),
            "Reset as in the playground"
        );
    }

    #[test]
    fn an_excerpt_or_position_past_the_run_is_refused_naming_the_parameter() {
        let whole = opened(&format!("s={S1}"), Excerpt::default(), None);
        let total = whole.playground().expect("ready").total();
        let failed = |state: Rc<EmbedState>| match &state.phase {
            Phase::Failed(text) => text.clone(),
            _ => panic!("the embed should fail"),
        };
        let text = failed(opened(&format!("s={S1}"), excerpt(0, total + 1), None));
        assert_eq!(
            text,
            format!("`to={}`: this run has only {total} events", total + 1)
        );
        let text = failed(opened(
            &format!("s={S1}"),
            Excerpt {
                from: Some(total + 3),
                to: None,
            },
            None,
        ));
        assert!(text.starts_with(&format!("`from={}`", total + 3)), "{text}");
        let text = failed(opened(
            &format!("s={S1}"),
            Excerpt::default(),
            Some(total + 1),
        ));
        assert!(text.starts_with(&format!("`at={}`", total + 1)), "{text}");
        let exact = opened(&format!("s={S1}"), excerpt(total, total), None);
        assert_eq!(
            position(&exact),
            total,
            "an excerpt may end at the run's end"
        );
    }

    #[test]
    fn a_load_that_fails_is_said_and_a_late_report_does_not_hide_the_run() {
        let loading = Rc::new(EmbedState::loading(Excerpt::default(), None));
        let failed = loading.reduce(Action::Report("the file could not be loaded".to_owned()));
        assert!(
            matches!(&failed.phase, Phase::Failed(text) if text == "the file could not be loaded")
        );
        let ready = opened(&format!("s={S1}"), Excerpt::default(), None);
        let still = ready.clone().reduce(Action::Report("late".to_owned()));
        assert!(Rc::ptr_eq(&ready, &still));
    }
}
