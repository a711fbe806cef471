//! A page's title: what the build writes into each page's `<title>` (decision 43) and what the
//! app sets `document.title` to as it moves between pages in place, so the two agree. Pure: it
//! reads no browser and loads no file; what a title names (the scenario shown, the guided
//! material) is handed in.

use crate::content::Content;
use crate::link::route::Route;
use lockstep_sim::scenario::catalogue;

/// The site's name, which ends every page's title but the front page's.
pub const SITE: &str = "Lockstep";

/// Which page the playground is, for its title.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Playground<'a> {
    /// The site's front page: the root, which opens the default scenario.
    Front,
    /// A scenario's page, by the scenario's title.
    Scenario(&'a str),
}

impl<'a> Playground<'a> {
    /// The playground's page in a visit that opened at `opened_at` (an address), showing the
    /// built-in scenario `built_in` (`None`: a scenario of the visitor's own, a chaos run) titled
    /// `title`: the front page while a visit that opened at the root shows the default scenario,
    /// else the scenario's page.
    pub fn of(opened_at: &str, built_in: Option<&str>, title: &'a str) -> Self {
        if opened_at.is_empty() && built_in == Some(catalogue::DEFAULT_ID) {
            Playground::Front
        } else {
            Playground::Scenario(title)
        }
    }
}

/// The title of the page `route` names. On the playground (and an embed, its story alone),
/// `playground` says which page it is. A lesson's step and a question say where they stand once
/// the guided material (`content`) is in hand; before, their section's name.
pub fn of(route: &Route, playground: Playground<'_>, content: Option<&Content>) -> String {
    let name = match route {
        Route::Playground | Route::Embed(_) => match playground {
            Playground::Front => {
                return format!(
                    "{SITE} — break a distributed lock, watch a fencing token save the data"
                );
            }
            Playground::Scenario(title) => title.to_owned(),
        },
        Route::Lessons => "Lessons".to_owned(),
        Route::Lesson { id, step } => match content.and_then(|c| c.lesson(id)) {
            Some(lesson) => {
                let count = lesson.steps.len();
                // As the lesson's player clamps a step past the last.
                let step = (*step).min(count.saturating_sub(1));
                format!("{}, step {} of {count}", lesson.title, step + 1)
            }
            None => "Lessons".to_owned(),
        },
        Route::Quiz { question } => match content {
            Some(content) => {
                let total = content.questions.len();
                // The knowledge check opens at the first question for one past the last.
                let at = if *question < total { question + 1 } else { 1 };
                format!("Knowledge check, question {at} of {total}")
            }
            None => "Knowledge check".to_owned(),
        },
        Route::Deck => "Interview deck".to_owned(),
        Route::Guide => "Efficiency or correctness?".to_owned(),
        Route::Sources => "Sources".to_owned(),
        Route::Lab(_) => "Chaos lab".to_owned(),
        Route::Real { .. } => "Real runs".to_owned(),
    };
    format!("{name} — {SITE}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::lab::LabLink;

    fn content() -> Content {
        Content::load().expect("the material parses")
    }

    #[test]
    fn the_front_page_is_the_root_showing_the_default_scenario() {
        let default = Some(catalogue::DEFAULT_ID);
        assert_eq!(Playground::of("", default, "x"), Playground::Front);
        let named = format!("s={}", catalogue::DEFAULT_ID);
        assert_eq!(
            Playground::of(&named, default, "x"),
            Playground::Scenario("x")
        );
        assert_eq!(
            Playground::of("", Some("s5-check-then-write"), "S5"),
            Playground::Scenario("S5")
        );
        assert_eq!(
            Playground::of("", None, "Mine"),
            Playground::Scenario("Mine")
        );
        assert_eq!(
            of(&Route::Playground, Playground::Front, None),
            "Lockstep — break a distributed lock, watch a fencing token save the data"
        );
        assert_eq!(
            of(&Route::Playground, Playground::Scenario("S5"), None),
            "S5 — Lockstep"
        );
    }

    #[test]
    fn a_step_and_a_question_say_where_they_stand_once_the_material_is_in_hand() {
        let content = content();
        let lesson = &content.lessons[0];
        let count = lesson.steps.len();
        let route = Route::Lesson {
            id: lesson.id.clone(),
            step: 2,
        };
        let front = Playground::Front;
        assert_eq!(
            of(&route, front, Some(&content)),
            format!("{}, step 3 of {count} — Lockstep", lesson.title)
        );
        assert_eq!(of(&route, front, None), "Lessons — Lockstep");
        let past = Route::Lesson {
            id: lesson.id.clone(),
            step: count + 4,
        };
        assert_eq!(
            of(&past, front, Some(&content)),
            format!("{}, step {count} of {count} — Lockstep", lesson.title)
        );
        let total = content.questions.len();
        assert_eq!(
            of(&Route::Quiz { question: 6 }, front, Some(&content)),
            format!("Knowledge check, question 7 of {total} — Lockstep")
        );
        assert_eq!(
            of(&Route::Quiz { question: total }, front, Some(&content)),
            format!("Knowledge check, question 1 of {total} — Lockstep")
        );
        assert_eq!(
            of(&Route::Quiz { question: 6 }, front, None),
            "Knowledge check — Lockstep"
        );
        let lab = Route::Lab(LabLink {
            spec: crate::link::lab::LabSpec::default(),
            problems: Vec::new(),
        });
        assert_eq!(of(&lab, front, None), "Chaos lab — Lockstep");
    }
}
