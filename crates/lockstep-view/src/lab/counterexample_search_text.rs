//! What the search section says about a result, and where its counterexample opens: pure
//! functions of the result, natively tested. Every number comes from the result.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use lockstep_sim::analysis::search::{Counterexample, SearchConfig};
use lockstep_sim::story::numbers::thousands;
use lockstep_sim::vocabulary::invariant::Invariant;
use lockstep_sim::world::intervention::{Action, Intervention};

/// The playground's address at the counterexample's violation: its scenario, standing just
/// after the event that breaks the invariant.
pub fn playground_fragment(found: &Counterexample) -> String {
    format!(
        "scenario={}&at={}",
        URL_SAFE_NO_PAD.encode(found.scenario.to_json()),
        found.first_event + 1
    )
}

/// The faults the search struck, one sentence each, in the order they strike.
pub fn struck(config: &SearchConfig, found: &Counterexample) -> Vec<String> {
    found.scenario.interventions[config
        .base
        .interventions
        .len()
        .min(found.scenario.interventions.len())..]
        .iter()
        .map(describe)
        .collect()
}

fn describe(entry: &Intervention<String>) -> String {
    let what = match &entry.action {
        Action::Pause { node, for_ms } => match for_ms {
            Some(ms) => format!("{node} is paused for {} ms", thousands(ms.0)),
            None => format!("{node} is paused"),
        },
        Action::Partition { from, to, .. } => format!("the link between {from} and {to} is cut"),
        Action::Heal { a, b } => format!("the link between {a} and {b} is restored"),
        Action::ClockJump { node, by_ms } => format!(
            "{node}'s clock jumps {} by {} ms",
            if *by_ms < 0 { "back" } else { "forward" },
            thousands(by_ms.unsigned_abs())
        ),
        Action::Hold { message } => format!("message #{} is held back", message.0),
        Action::Release { message } => format!("message #{} is let go", message.0),
        // The kinds the search strikes are said above as what happened; any other as asked for.
        other => other.to_string(),
    };
    format!("At {} ms, {what}.", thousands(entry.at_ms.0))
}

/// The sentence for a counterexample.
pub fn found_sentence(invariant: Invariant, found: &Counterexample) -> String {
    format!(
        "The shortest run that breaks \u{201c}{}\u{201d} has {} events; {} states explored.",
        invariant.statement(),
        thousands(found.length as u64),
        thousands(found.states)
    )
}

/// The sentence for a search that found nothing, with its bounds.
pub fn none_sentence(config: &SearchConfig, states: u64, depth: usize) -> String {
    format!(
        "No run within the bounds breaks \u{201c}{}\u{201d}: {} states explored, runs up to {} \
         events. The bounds: at most {} fault{} of the kinds chosen, struck at steps of {} ms, \
         runs of at most {} events.",
        config.invariant.statement(),
        thousands(states),
        thousands(depth as u64),
        config.faults.max,
        if config.faults.max == 1 { "" } else { "s" },
        thousands(config.bounds.step_ms.0),
        thousands(u64::from(config.bounds.max_events)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::search::SearchSpec;
    use crate::link::share;
    use lockstep_sim::analysis::search::{Search, SearchStatus};
    use lockstep_sim::scenario::catalogue;

    fn s1_search() -> (SearchConfig, Counterexample) {
        let scenario = catalogue::find("s1-gc-pause-unfenced")
            .and_then(|b| b.load().ok())
            .expect("S1");
        let config = SearchSpec::default().config(&scenario);
        let SearchStatus::Found(found) = Search::new(&config).expect("valid").run() else {
            panic!("S1 without fencing breaks");
        };
        (config, *found)
    }

    #[test]
    fn the_counterexample_opens_in_the_playground_at_its_violation() {
        let (config, found) = s1_search();
        let moment = share::decode(&playground_fragment(&found), &crate::test_files::loaded)
            .expect("a playground link");
        assert_eq!(moment.scenario, found.scenario);
        assert_eq!(moment.position, Some(found.first_event + 1));
        assert_eq!(
            struck(&config, &found),
            vec!["At 100 ms, client-a is paused for 2,000 ms.".to_owned()]
        );
        assert_eq!(
            found_sentence(config.invariant, &found),
            format!(
                "The shortest run that breaks \u{201c}No write accepted with a stale token\u{201d} has {} events; {} states explored.",
                found.length, found.states
            )
        );
    }
}
