//! S1 run through the one reducer as the guided start runs it: each stage's event exists, comes
//! in order, and is what its card says it is.

use super::*;
use crate::content::Content;
use crate::state::{Action, Playground};
use lockstep_sim::engine::trace::TraceEvent;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::vocabulary::happening::Happening;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::vocabulary::message::Refusal;
use lockstep_sim::world::token::FencingToken;
use std::rc::Rc;

/// S1 opened as the guided start opens it: at [`START`].
fn opened() -> Rc<Playground> {
    let file = catalogue::find(SCENARIO).expect("S1 is built in");
    let scenario = file.load().expect("S1 loads");
    let opened =
        Rc::new(Playground::default_scenario()).reduce(Action::Restore(Box::new(moment(scenario))));
    assert_eq!(opened.notice(), None, "S1 opens");
    opened
}

fn milestones(playground: &Playground) -> Milestones {
    Milestones::of(playground.run().sim.trace())
}

fn stage_of(playground: &Playground) -> Stage {
    stage(
        playground.fencing(),
        playground.position(),
        &milestones(playground),
    )
}

fn name(playground: &Playground, node: lockstep_sim::world::ids::NodeId) -> String {
    playground.sim().cast().name(node).to_owned()
}

fn event(playground: &Playground, index: usize) -> TraceEvent {
    playground.run().sim.trace()[index]
}

/// Steps from the start until the guided start reaches [`Stage::Lost`], noting each new stage
/// and the position it was reached at.
fn walk() -> (Rc<Playground>, Vec<(Stage, usize)>) {
    let mut playground = opened();
    let mut seen = vec![(stage_of(&playground), playground.position())];
    while stage_of(&playground) != Stage::Lost {
        assert!(
            playground.position() < playground.total(),
            "S1 ended before data was lost"
        );
        playground = playground.reduce(Action::Step);
        let now = stage_of(&playground);
        if seen.last().map(|(s, _)| *s) != Some(now) {
            seen.push((now, playground.position()));
        }
    }
    (playground, seen)
}

#[test]
fn only_a_first_visit_without_a_fragment_opens_it() {
    assert!(opens("", false));
    assert!(!opens("", true));
    assert!(!opens("s=s2-gc-pause-fenced&at=3", false));
    assert!(!opens("lessons", false));
}

#[test]
fn it_opens_s1_with_fencing_off_before_the_first_event() {
    let playground = opened();
    assert_eq!(playground.scenario_id(), SCENARIO);
    assert_eq!(playground.fencing(), Some(Fencing::Off));
    assert_eq!(playground.position(), START);
    assert_eq!(stage_of(&playground), Stage::Start);
}

#[test]
fn stepping_passes_every_stage_in_order_up_to_the_lost_update() {
    let (playground, seen) = walk();
    let stages: Vec<Stage> = seen.iter().map(|(s, _)| *s).collect();
    assert_eq!(
        stages,
        [Stage::Start, Stage::Paused, Stage::OtherWrote, Stage::Lost]
    );
    let m = milestones(&playground);
    let zombie = m.zombie_write.expect("S1 has a stale write");
    assert_eq!(
        seen[3].1,
        zombie.shown_at(),
        "the card changes with the write"
    );
    // One minute's worth of Steps, not a chore.
    assert!(zombie.shown_at() <= 40, "{} Steps", zombie.shown_at());
}

#[test]
fn the_paused_card_is_client_a_frozen() {
    let playground = opened();
    let pause = milestones(&playground).pause.expect("S1 pauses a client");
    let Happening::Paused { node, for_ms } = event(&playground, pause).happening else {
        unreachable!()
    };
    assert_eq!(name(&playground, node), "client-a");
    // "twice as long as its lease": 2 s against a 1-s lease.
    assert_eq!(for_ms.map(|m| m.0), Some(2000));
    assert!(card(Stage::Paused).text.contains("client-a"));
}

#[test]
fn the_other_write_is_client_b_with_token_34() {
    let playground = opened();
    let index = milestones(&playground)
        .honest_write
        .expect("client-b writes");
    let Happening::WriteAccepted { writer, token, .. } = event(&playground, index).happening else {
        unreachable!()
    };
    assert_eq!(name(&playground, writer), "client-b");
    assert_eq!(token, Some(FencingToken(34)));
    assert!(card(Stage::OtherWrote).text.contains("token 34"));
}

#[test]
fn with_fencing_off_the_stale_write_is_accepted_and_an_update_lost() {
    let (playground, _) = walk();
    let zombie = milestones(&playground).zombie_write.expect("a stale write");
    assert_eq!(zombie.landing, Landing::Accepted);
    let write = event(&playground, zombie.event);
    let Happening::WriteAccepted { writer, token, .. } = write.happening else {
        unreachable!()
    };
    assert_eq!(name(&playground, writer), "client-a");
    assert_eq!(token, Some(FencingToken(33)));
    assert!(write.broke.contains(Invariant::NoStaleWrite));
    assert!(
        write.violated.contains(Invariant::NoLostUpdate),
        "the update is lost"
    );
    let lost = card(Stage::Lost);
    assert!(lost.text.contains("token 33") && lost.text.contains("lost"));
    assert_eq!(lost.choices, [Choice::TurnFencingOn]);
    assert_eq!(lost.pointer, Pointer::ZombieWrite);
}

#[test]
fn turning_fencing_on_refuses_the_same_write_at_once() {
    let (lost, _) = walk();
    let accepted = milestones(&lost).zombie_write.expect("a stale write");
    let fenced = Rc::clone(&lost).reduce(Action::SetFencing(Fencing::On));
    assert_eq!(fenced.fencing(), Some(Fencing::On));
    assert_eq!(
        fenced.position(),
        lost.position(),
        "the switch keeps the moment"
    );
    assert_eq!(stage_of(&fenced), Stage::Refused);
    let refused = milestones(&fenced)
        .zombie_write
        .expect("the write is still there");
    assert_eq!(refused.landing, Landing::Refused);
    assert_eq!(
        refused.event, accepted.event,
        "the same write, at the same event"
    );
    let Happening::WriteRejected { writer, refusal } = event(&fenced, refused.event).happening
    else {
        unreachable!()
    };
    assert_eq!(name(&fenced, writer), "client-a");
    assert_eq!(
        refusal,
        Refusal::StaleToken {
            presented: FencingToken(33),
            required: FencingToken(34)
        }
    );
    assert!(
        !event(&fenced, refused.event)
            .violated
            .contains(Invariant::NoLostUpdate),
        "client-b's update stays"
    );
    let card = card(Stage::Refused);
    assert!(card.text.contains("token 34") && card.text.contains("token 33"));
    assert_eq!(
        card.choices,
        [Choice::ContinueLesson, Choice::ExploreFreely]
    );
}

#[test]
fn stepping_back_with_fencing_on_waits_for_the_write_again() {
    let (lost, _) = walk();
    let fenced = lost
        .reduce(Action::SetFencing(Fencing::On))
        .reduce(Action::Back);
    assert_eq!(stage_of(&fenced), Stage::Fenced);
    assert_eq!(card(Stage::Fenced).pointer, Pointer::Step);
}

#[test]
fn the_lesson_it_continues_with_is_the_first() {
    let content = Content::load().expect("the content loads");
    assert_eq!(
        content.lessons.first().map(|l| l.id.as_str()),
        Some(FIRST_LESSON)
    );
}

#[test]
fn every_card_is_short() {
    let stages = [
        Stage::Start,
        Stage::Paused,
        Stage::OtherWrote,
        Stage::Lost,
        Stage::Fenced,
        Stage::Refused,
    ];
    for stage in stages {
        let words = card(stage).text.split_whitespace().count();
        assert!(words <= 50, "{stage:?}: {words} words");
    }
}
