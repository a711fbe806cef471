//! The chaos lab inline in the verification lesson: each press of "Run the three tests" also
//! runs the chaos test over [`LESSON_RUNS`] seeds against the same lock service, fencing on and
//! then off, in the lab's workers, and shows the same chart as the lab page, with a link to the
//! lab for more.

use crate::lab::results::{LabProgress, ShareChart};
use crate::lab::runner::LabRunner;
use crate::link::PageLink;
use lockstep_sim::analysis::chaos::{ChaosBackend, ChaosSettings};
use lockstep_sim::models::resource::Fencing;
use lockstep_view::lab::worker_protocol::Reply;
use lockstep_view::link::lab::{LabSpec, RunCount};
use yew::prelude::*;

/// Seeds per fencing setting: enough for the shares to mean something, few enough to finish in
/// a few seconds.
pub const LESSON_RUNS: u64 = 200;

#[derive(Properties, PartialEq)]
pub struct LessonChaosProps {
    pub backend: ChaosBackend,
    pub first_seed: u64,
    /// How many times the tests were run: each new value runs the chaos test again.
    pub presses: u32,
}

pub enum Msg {
    Reply(usize, Reply),
}

pub struct LessonChaos {
    runner: LabRunner,
}

fn specs(props: &LessonChaosProps) -> Vec<LabSpec> {
    [Fencing::On, Fencing::Off]
        .map(|fencing| LabSpec {
            settings: ChaosSettings {
                backend: props.backend,
                ..ChaosSettings::verification_test(fencing)
            },
            runs: RunCount(LESSON_RUNS),
            first_seed: props.first_seed,
        })
        .to_vec()
}

impl Component for LessonChaos {
    type Message = Msg;
    type Properties = LessonChaosProps;

    fn create(_ctx: &Context<Self>) -> Self {
        LessonChaos {
            runner: LabRunner::default(),
        }
    }

    fn changed(&mut self, ctx: &Context<Self>, old: &LessonChaosProps) -> bool {
        if ctx.props().presses != old.presses && ctx.props().presses > 0 {
            let on_reply = ctx
                .link()
                .callback(|(index, reply)| Msg::Reply(index, reply));
            self.runner.start(specs(ctx.props()), on_reply);
        }
        true
    }

    fn update(&mut self, _ctx: &Context<Self>, msg: Msg) -> bool {
        match msg {
            Msg::Reply(index, reply) => self.runner.reply(index, reply),
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let props = ctx.props();
        if props.presses == 0 {
            return html! {
                <p class="muted" data-testid="lesson-chaos-idle">{ format!(
                    "The button also runs the chaos test over {LESSON_RUNS} seeds, fencing on and off, in a background worker, and charts how many runs broke each invariant, the article's check and our data check.") }</p>
            };
        }
        let rows = self.runner.rows();
        let lab = LabSpec {
            settings: ChaosSettings {
                backend: props.backend,
                ..ChaosSettings::verification_test(Fencing::Off)
            },
            runs: RunCount(1_000),
            first_seed: props.first_seed,
        }
        .fragment();
        html! {
            <div class="lesson-chaos" data-testid="lesson-chaos">
                <h3>{ format!("The chaos test over {LESSON_RUNS} seeds, fencing on and off") }</h3>
                <LabProgress run={self.runner.run().cloned()} status={self.runner.status().clone()} loading={self.runner.loading()}
                    outstanding={self.runner.outstanding()} />
                if !rows.is_empty() {
                    <ShareChart {rows} />
                    <p class="muted" data-testid="lesson-chaos-gap">{ "Fencing on still shows stale writes: a paused holder's write that reaches the resource before the new holder's first write is accepted, because the resource has not yet seen the newer token (the fencing gap). What fencing promises is that no write is accepted after a newer token's write." }</p>
                    <p class="muted" data-testid="lesson-chaos-checks">{ "The article's check sees a gap write only when it is under way at the same moment as another accepted write, which is seldom; our data check counts every increment the gap loses. Every run that fails the article's check fails ours too, so our bar is never the shorter one." }</p>
                }
                <p class="muted"><PageLink to={lab} testid="lesson-open-lab">{ "Open the chaos lab" }</PageLink>{ " for more seeds, other settings and every violating seed." }</p>
            </div>
        }
    }
}
