//! The page's binaries (decision 33): the story — the playground — or an embed's moment loads
//! first; the rest of the app comes from the full binary, fetched the first time a visitor
//! opens something the story lacks. This module says which openings those are and how the page
//! names them while the rest loads. Pure: it fetches nothing and does not touch the browser.

use crate::link::embed::Shows;
use crate::link::route::Route;

/// Something only the full binary can show.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    Lessons,
    Quiz,
    Deck,
    Guide,
    Sources,
    Lab,
    /// The "Build your own scenario" dialog.
    Builder,
    /// An embed of a whole lesson.
    EmbeddedLesson,
    /// The real runs: recorded histories beside their simulations.
    RealRuns,
}

impl Feature {
    /// What the full binary must show for this page, or `None` if the story shows it itself.
    pub fn of_route(route: &Route) -> Option<Feature> {
        Some(match route {
            Route::Playground => return None,
            Route::Lessons | Route::Lesson { .. } => Feature::Lessons,
            Route::Quiz { .. } => Feature::Quiz,
            Route::Deck => Feature::Deck,
            Route::Guide => Feature::Guide,
            Route::Sources => Feature::Sources,
            Route::Lab(_) => Feature::Lab,
            Route::Real { .. } => Feature::RealRuns,
            Route::Embed(Ok(spec)) => match spec.shows {
                Shows::Moment { .. } => return None,
                Shows::Lesson { .. } => Feature::EmbeddedLesson,
                Shows::Real { .. } => Feature::RealRuns,
            },
            Route::Embed(Err(_)) => return None,
        })
    }

    /// Its name in "Loading the lessons…".
    pub fn what(self) -> &'static str {
        match self {
            Feature::Lessons | Feature::EmbeddedLesson => "the lessons",
            Feature::Quiz => "the knowledge check",
            Feature::Deck => "the interview deck",
            Feature::Guide => "the guide",
            Feature::Sources => "the sources",
            Feature::Lab => "the chaos lab",
            Feature::Builder => "the scenario builder",
            Feature::RealRuns => "the real runs",
        }
    }
}

/// The loading line's progress: "37 % of 412 KB", or nothing until a size is known.
pub fn progress_words(received: u64, total: u64) -> String {
    if total == 0 {
        return String::new();
    }
    if received >= total {
        return "starting it".to_owned();
    }
    format!(
        "{} % of {} KB",
        received.saturating_mul(100) / total,
        total.div_ceil(1000)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_story_keeps_the_playground_and_a_moment_and_hands_over_the_rest() {
        assert_eq!(Feature::of_route(&Route::Playground), None);
        let moment = Route::parse("#embed&scenario=s1").expect("an embed");
        assert_eq!(Feature::of_route(&moment), None);
        let lesson = Route::parse("#embed&learn=fencing-tokens").expect("an embed");
        assert_eq!(Feature::of_route(&lesson), Some(Feature::EmbeddedLesson));
        for (fragment, feature) in [
            ("#learn", Feature::Lessons),
            ("#learn=fencing-tokens&step=3", Feature::Lessons),
            ("#quiz=7", Feature::Quiz),
            ("#deck", Feature::Deck),
            ("#guide", Feature::Guide),
            ("#sources", Feature::Sources),
            ("#lab", Feature::Lab),
        ] {
            let route = Route::parse(fragment).expect("a page");
            assert_eq!(Feature::of_route(&route), Some(feature), "{fragment}");
        }
    }

    #[test]
    fn progress_says_how_far_and_of_how_much() {
        assert_eq!(progress_words(0, 0), "");
        assert_eq!(progress_words(150_000, 600_000), "25 % of 600 KB");
        assert_eq!(progress_words(600_000, 600_000), "starting it");
    }
}
