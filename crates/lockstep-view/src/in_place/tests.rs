use super::quick::{QuickKind, quick_actions};
use super::verdict::{Tone, Verdict};
use crate::state::{Action, Origin, Playground};
use lockstep_sim::models::resource::Fencing as Fence;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::world::ids::NodeId;
use std::rc::Rc;

fn open(id: &'static str) -> Rc<Playground> {
    let scenario = catalogue::find(id)
        .and_then(|b| b.load().ok())
        .unwrap_or_else(|| panic!("{id} is built in"));
    Rc::new(Playground::open(Origin::BuiltIn(id), scenario))
}

fn node(playground: &Playground, name: &str) -> NodeId {
    playground
        .sim()
        .cast()
        .find(name)
        .unwrap_or_else(|| panic!("{name} is in the cast"))
}

fn kinds(playground: &Playground, name: &str) -> Vec<QuickKind> {
    quick_actions(playground, node(playground, name))
        .1
        .iter()
        .map(|q| q.kind)
        .collect()
}

fn at_end(playground: Rc<Playground>) -> Rc<Playground> {
    let total = playground.total();
    playground.reduce(Action::SeekTo(total))
}

#[test]
fn a_client_offers_pause_crash_and_cut_a_service_node_crash_and_expiry_the_resource_crash_and_fencing()
 {
    let s1 = open("s1-gc-pause-unfenced");
    let cast = s1.sim().cast();
    let service = cast.name(cast.services().next().unwrap()).to_owned();
    let resource = cast.name(cast.resource()).to_owned();
    use QuickKind::*;
    assert_eq!(kinds(&s1, "client-a"), [Pause, Crash, Cut]);
    assert_eq!(kinds(&s1, &service), [Crash, Expire, Pause]);
    assert_eq!(kinds(&s1, &resource), [Crash, Fencing]);
    let (heading, actions) = quick_actions(&s1, node(&s1, "client-a"));
    assert_eq!(heading, "client-a");
    let labels: Vec<_> = actions.iter().map(|q| q.label.as_str()).collect();
    assert_eq!(
        labels,
        [
            "Pause it for 2,000 ms (a GC pause twice its lease)",
            "Crash it",
            "Cut it off from the lock service"
        ]
    );
    let (_, service_actions) = quick_actions(&s1, node(&s1, &service));
    assert_eq!(
        service_actions[2].label,
        "Pause it for 2,000 ms (twice the longest lease)"
    );
    let (_, resource_actions) = quick_actions(&s1, cast.resource());
    assert_eq!(resource_actions[1].label, "Switch fencing on");
    assert_eq!(resource_actions[1].action, Action::SetFencing(Fence::On));
}

#[test]
fn a_replicated_service_offers_fail_over_and_no_list_is_longer_than_four() {
    for entry in catalogue::INDEX {
        let playground = open(entry.id);
        for n in playground.sim().cast().nodes() {
            let (_, actions) = quick_actions(&playground, n);
            assert!(!actions.is_empty() && actions.len() <= super::quick::MOST);
        }
    }
    let replicated = open("s9-failover-loses-the-lock");
    let primary = replicated.sim().cast().services().next().unwrap();
    let offered: Vec<_> = quick_actions(&replicated, primary)
        .1
        .iter()
        .map(|q| q.kind)
        .collect();
    assert_eq!(offered[..2], [QuickKind::Crash, QuickKind::Failover]);
}

#[test]
fn each_action_goes_through_the_reducer_and_the_list_follows_the_node_state() {
    let s1 = open("s1-gc-pause-unfenced");
    let client = node(&s1, "client-a");
    let (_, actions) = quick_actions(&s1, client);
    for quick in &actions {
        let after = Rc::clone(&s1).reduce(quick.action.clone());
        assert_eq!(after.log().len(), 1, "{:?} is one intervention", quick.kind);
        assert!(after.edited());
    }
    let paused = Rc::clone(&s1).reduce(actions[0].action.clone());
    assert_eq!(kinds(&paused, "client-a")[0], QuickKind::Resume);
    let crashed = Rc::clone(&s1).reduce(actions[1].action.clone());
    assert_eq!(
        kinds(&crashed, "client-a"),
        [QuickKind::Restart, QuickKind::Cut]
    );
}

#[test]
fn the_verdict_says_data_lost_unfenced_and_intact_fenced() {
    let unfenced = at_end(open("s1-gc-pause-unfenced"));
    let verdict = unfenced.run().verdict();
    assert_eq!(verdict.tone, Tone::Lost);
    assert!(verdict.line.starts_with("Data lost: "), "{}", verdict.line);
    let fenced = at_end(open("s2-gc-pause-fenced"));
    assert_eq!(
        *fenced.run().verdict(),
        Verdict {
            tone: Tone::Intact,
            line: "Data intact: 1 stale write refused".to_owned()
        }
    );
}

#[test]
fn rewind_keeps_the_interventions_and_reset_drops_them() {
    let s1 = open("s1-gc-pause-unfenced");
    assert!(!s1.edited());
    let start = s1.position();
    let client = "client-a".to_owned();
    let edited = Rc::clone(&s1)
        .reduce(Action::Step)
        .reduce(Action::Step)
        .reduce(Action::Intervene(
            lockstep_sim::world::intervention::Action::Crash { node: client },
        ));
    assert!(edited.edited());
    let rewound = Rc::clone(&edited).reduce(Action::Reset);
    assert_eq!(rewound.position(), start);
    assert_eq!(rewound.log(), edited.log());
    assert!(rewound.edited());
    let reset = Rc::clone(&rewound).reduce(Action::ResetToOriginal);
    assert!(!reset.edited());
    assert_eq!(reset.position(), start);
    assert_eq!(reset.full_hash(), s1.full_hash());
    assert_eq!(reset.seed(), s1.seed());
    // Nothing to reset: the same state.
    assert!(Rc::ptr_eq(
        &s1,
        &Rc::clone(&s1).reduce(Action::ResetToOriginal)
    ));
}

/// S1 without its own pause: client-a takes the lock, works and writes in time.
fn s1_unpaused(fencing: Fence) -> Rc<Playground> {
    let mut scenario = catalogue::find("s1-gc-pause-unfenced")
        .and_then(|b| b.load().ok())
        .expect("S1 is built in");
    scenario.interventions.clear();
    scenario.resource = scenario.resource.with_fencing(fencing);
    Rc::new(Playground::open(Origin::Custom, scenario))
}

/// Steps until `client` believes it holds the lock.
fn once_it_holds(mut playground: Rc<Playground>, client: &str) -> Rc<Playground> {
    let id = node(&playground, client);
    let holds = |p: &Playground| match p.sim().slot(id).map(|s| &s.node) {
        Some(lockstep_sim::engine::sim::Node::Client(c)) => c.believes_it_holds_the_lock(),
        _ => false,
    };
    while !holds(&playground) {
        assert!(playground.can_step(), "{client} never holds the lock");
        playground = playground.reduce(Action::Step);
    }
    playground
}

#[test]
fn the_quick_pause_outlives_the_lease_so_the_client_wakes_and_writes_stale() {
    for (fencing, verdict) in [
        (Fence::Off, "Data lost: 1 stale write accepted"),
        (Fence::On, "Data intact: 1 stale write refused"),
    ] {
        let calm = s1_unpaused(fencing);
        let untouched = at_end(Rc::clone(&calm));
        assert!(
            !untouched.run().verdict().line.contains("stale"),
            "without the pause nothing is stale: {}",
            untouched.run().verdict().line
        );
        let holding = once_it_holds(calm, "client-a");
        let (_, actions) = quick_actions(&holding, node(&holding, "client-a"));
        let pause = actions
            .iter()
            .find(|q| q.kind == QuickKind::Pause)
            .expect("a running client can be paused");
        let paused = at_end(holding.reduce(pause.action.clone()));
        let line = &paused.run().verdict().line;
        assert!(line.starts_with(verdict), "fencing {fencing:?}: {line}");
    }
}
