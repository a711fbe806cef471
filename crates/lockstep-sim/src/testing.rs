//! Generators for property tests, shared by every crate's tests (the feature `testing`; never in
//! a build that ships). One generator of interventions, so that the simulator's properties and
//! the app's state machine are driven by the same kinds of fault (the app's own copy had lost
//! clock drift).

use crate::vocabulary::happening::Direction;
use crate::world::ids::MessageId;
use crate::world::intervention::Action;
use crate::world::time::Millis;
use proptest::prelude::*;

/// Any intervention, on nodes picked from `names` (which may name nodes a scenario lacks, to
/// test how that is refused) and messages 0 to 59.
pub fn intervention(names: Vec<String>) -> impl Strategy<Value = Action<String>> {
    let node = move || proptest::sample::select(names.clone());
    let ms = |range: std::ops::RangeInclusive<u64>| range.prop_map(Millis);
    prop_oneof![
        (node(), proptest::option::of(ms(1..=3_000)))
            .prop_map(|(node, for_ms)| Action::Pause { node, for_ms }),
        node().prop_map(|node| Action::Resume { node }),
        node().prop_map(|node| Action::Crash { node }),
        node().prop_map(|node| Action::Restart { node }),
        (node(), -3_000i64..3_000).prop_map(|(node, by_ms)| Action::ClockJump { node, by_ms }),
        (node(), -500_000i32..500_000)
            .prop_map(|(node, drift_ppm)| Action::ClockDrift { node, drift_ppm }),
        (
            node(),
            node(),
            prop_oneof![Just(Direction::OneWay), Just(Direction::Both)]
        )
            .prop_map(|(from, to, direction)| Action::Partition {
                from,
                to,
                direction
            }),
        (node(), node()).prop_map(|(a, b)| Action::Heal { a, b }),
        (0u32..60).prop_map(|m| Action::Hold {
            message: MessageId(m)
        }),
        (0u32..60).prop_map(|m| Action::Release {
            message: MessageId(m)
        }),
        (0u32..60).prop_map(|m| Action::Drop {
            message: MessageId(m)
        }),
        Just(Action::ForceExpire {}),
        Just(Action::Failover {}),
    ]
}
