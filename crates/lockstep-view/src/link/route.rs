//! Which page the app shows, and its address: the playground (whose address is a moment, see
//! [`super::share`]), the lessons, one step of one lesson, the knowledge check, the interview
//! deck, the decision guide, the sources, the chaos lab (see [`super::lab`]), the real runs, and
//! the embed (see [`super::embed`]). Pure: parsing never panics; this module does not touch the
//! browser.

use super::embed::{self, EmbedSpec};
use super::error::LinkError;
use super::lab::{self, LabLink};
use super::params;

/// A page of the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Route {
    Playground,
    Lessons,
    /// Step `step` (0-based) of the lesson `id`.
    Lesson {
        id: String,
        step: usize,
    },
    /// The knowledge check at question `question` (0-based; `#quiz=7` is the seventh), so
    /// Back from "See it" returns to it.
    Quiz {
        question: usize,
    },
    Deck,
    Guide,
    /// The bibliography.
    Sources,
    /// The chaos lab, with the settings its address gives (and what in it could not be used).
    Lab(LabLink),
    /// The real runs: one recording beside its simulation (`#real=<id>`, see
    /// [`crate::recorded::catalogue`]), or the list of them and a history of one's own
    /// (`#real`).
    Real {
        recording: Option<String>,
    },
    /// The embed view: the story alone, for another site's page (or why the address cannot
    /// be shown).
    Embed(Result<EmbedSpec, LinkError>),
}

impl Route {
    /// The page a fragment names, or `None` when it is a playground link (or empty).
    pub fn parse(fragment: &str) -> Option<Route> {
        if embed::is_embed(fragment) {
            return Some(Route::Embed(embed::parse(fragment)));
        }
        let mut pairs = params::pairs(fragment);
        let (name, value) = pairs.next()?;
        Some(match name {
            "learn" if value.is_empty() => Route::Lessons,
            "learn" => Route::Lesson {
                id: value.to_owned(),
                step: pairs
                    .find(|(n, _)| *n == "step")
                    .and_then(|(_, v)| v.parse::<usize>().ok())
                    .map_or(0, |n| n.saturating_sub(1)),
            },
            "quiz" => Route::Quiz {
                question: value.parse::<usize>().map_or(0, |n| n.saturating_sub(1)),
            },
            "deck" => Route::Deck,
            "guide" => Route::Guide,
            "sources" => Route::Sources,
            "lab" if value.is_empty() => Route::Lab(lab::parse(pairs)),
            "real" => Route::Real {
                recording: (!value.is_empty()).then(|| value.to_owned()),
            },
            _ => return None,
        })
    }

    /// Whether this page shows the guided material (fetched when such a page first opens).
    pub fn needs_content(&self) -> bool {
        match self {
            Route::Lessons
            | Route::Lesson { .. }
            | Route::Quiz { .. }
            | Route::Deck
            | Route::Guide => true,
            // The embed loads what it needs itself.
            Route::Playground
            | Route::Sources
            | Route::Lab(_)
            | Route::Real { .. }
            | Route::Embed(_) => false,
        }
    }

    /// This page's fragment, or `None` for the playground (its fragment is its moment). Steps
    /// are numbered from 1 in addresses, as on the page.
    pub fn fragment(&self) -> Option<String> {
        Some(match self {
            Route::Playground => return None,
            Route::Lessons => "learn".to_owned(),
            Route::Lesson { id, step } => format!("learn={id}&step={}", step + 1),
            Route::Quiz { question } => format!("quiz={}", question + 1),
            Route::Deck => "deck".to_owned(),
            Route::Guide => "guide".to_owned(),
            Route::Sources => "sources".to_owned(),
            Route::Lab(link) => link.spec.fragment(),
            Route::Real { recording: None } => "real".to_owned(),
            Route::Real {
                recording: Some(id),
            } => format!("real={id}"),
            Route::Embed(Ok(spec)) => spec.fragment(),
            Route::Embed(Err(_)) => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    #[test]
    fn pages_round_trip_through_their_fragments() {
        for route in [
            Route::Lessons,
            Route::Lesson {
                id: "fencing-tokens".to_owned(),
                step: 3,
            },
            Route::Quiz { question: 6 },
            Route::Deck,
            Route::Guide,
            Route::Sources,
            Route::Lab(crate::link::lab::LabLink {
                spec: crate::link::lab::LabSpec::default(),
                problems: Vec::new(),
            }),
            Route::Real { recording: None },
            Route::Real {
                recording: Some("s2-gc-pause-fenced.postgres".to_owned()),
            },
        ] {
            let fragment = route.fragment().expect("a page has a fragment");
            assert_eq!(Route::parse(&format!("#{fragment}")), Some(route));
        }
        assert_eq!(Route::Playground.fragment(), None);
    }

    #[test]
    fn playground_links_and_nonsense_are_not_pages() {
        assert_eq!(Route::parse("s=s2-gc-pause-fenced&at=3"), None);
        assert_eq!(Route::parse(""), None);
        assert_eq!(Route::parse("#quiz"), Some(Route::Quiz { question: 0 }));
        assert_eq!(Route::parse("quiz=7"), Some(Route::Quiz { question: 6 }));
        assert_eq!(
            Route::parse("learn=x&step=zero"),
            Some(Route::Lesson {
                id: "x".to_owned(),
                step: 0
            })
        );
    }

    #[test]
    fn an_embed_address_is_the_embed_page_even_when_it_is_wrong() {
        let route = Route::parse("#embed&s=s2-gc-pause-fenced&at=12&controls=none");
        let Some(Route::Embed(Ok(spec))) = &route else {
            panic!("an embed: {route:?}");
        };
        assert_eq!(spec.controls, embed::ControlSet::None);
        let again = route
            .as_ref()
            .and_then(Route::fragment)
            .expect("a fragment");
        assert_eq!(Route::parse(&again), route);
        assert!(matches!(
            Route::parse("embed&s=s2-gc-pause-fenced&zoom=3"),
            Some(Route::Embed(Err(LinkError { parameter, problem: crate::link::error::Problem::Unknown(_), .. }))) if parameter == "zoom"
        ));
        assert_eq!(Route::parse("s=s2-gc-pause-fenced&embed"), None);
    }

    fn page() -> impl Strategy<Value = Route> {
        prop_oneof![
            Just(Route::Lessons),
            ("[a-z]{1,12}(-[a-z]{1,8}){0,2}", 0usize..40)
                .prop_map(|(id, step)| Route::Lesson { id, step }),
            Just(Route::Quiz { question: 0 }),
            Just(Route::Deck),
            Just(Route::Guide),
        ]
    }

    /// One edit to a fragment's parameters: drop one, duplicate one, give one a bad value, add
    /// an unknown one, or put a playground parameter first.
    fn edited(fragment: &str, edit: usize, which: usize) -> String {
        let mut parts: Vec<String> = fragment.split('&').map(str::to_owned).collect();
        let at = which % parts.len();
        match edit {
            0 => {
                parts.remove(at);
            }
            1 => parts.insert(at, parts[at].clone()),
            2 => {
                let name = parts[at].split('=').next().unwrap_or_default().to_owned();
                parts[at] = format!("{name}=-7x");
            }
            3 => parts.push("zoom=3".to_owned()),
            _ => parts.insert(0, "s=s2-gc-pause-fenced".to_owned()),
        }
        parts.join("&")
    }

    #[test]
    fn fragments_one_edit_away_name_a_page_or_the_playground() {
        const CASES: usize = 1_000;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = (page(), 0usize..5, 0usize..4);
        let mut pages = 0;
        for _ in 0..CASES {
            let (route, edit, which) = strategy
                .new_tree(&mut runner)
                .expect("the strategy generates")
                .current();
            let fragment = route.fragment().expect("a page has a fragment");
            assert_eq!(Route::parse(&fragment), Some(route.clone()));
            let text = edited(&fragment, edit, which);
            let first = text.split(['&', '=']).next().unwrap_or_default();
            match Route::parse(&format!("#{text}")) {
                Some(read) => {
                    pages += 1;
                    assert!(
                        ["learn", "quiz", "deck", "guide"].contains(&first),
                        "{text} is a page only if it starts with one"
                    );
                    let again = read.fragment().expect("a page");
                    assert_eq!(Route::parse(&again), Some(read), "{text}");
                }
                None => assert!(
                    !["learn", "quiz", "deck", "guide"].contains(&first) || first.is_empty(),
                    "{text} starts with a page but is not read as one"
                ),
            }
        }
        assert!(
            pages * 2 >= CASES,
            "only {pages} of {CASES} edited fragments name a page"
        );
        assert!(
            pages < CASES,
            "every edit names a page: the edits test nothing"
        );
    }
}
