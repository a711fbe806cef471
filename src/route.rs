//! Which page the app shows, and its address: the playground (whose address is a moment, see
//! [`crate::link`]), the lessons, one step of one lesson, the knowledge check, the interview deck,
//! the decision guide and the sources. Pure: parsing never panics; this module does not touch the
//! browser.

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
    Quiz,
    Deck,
    Guide,
    /// The bibliography.
    Sources,
}

impl Route {
    /// The page a fragment names, or `None` when it is a playground link (or empty).
    pub fn parse(fragment: &str) -> Option<Route> {
        let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
        let mut pairs = fragment
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').unwrap_or((p, "")));
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
            "quiz" => Route::Quiz,
            "deck" => Route::Deck,
            "guide" => Route::Guide,
            "sources" => Route::Sources,
            _ => return None,
        })
    }

    /// This page's fragment, or `None` for the playground (its fragment is its moment). Steps
    /// are numbered from 1 in addresses, as on the page.
    pub fn fragment(&self) -> Option<String> {
        Some(match self {
            Route::Playground => return None,
            Route::Lessons => "learn".to_owned(),
            Route::Lesson { id, step } => format!("learn={id}&step={}", step + 1),
            Route::Quiz => "quiz".to_owned(),
            Route::Deck => "deck".to_owned(),
            Route::Guide => "guide".to_owned(),
            Route::Sources => "sources".to_owned(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_round_trip_through_their_fragments() {
        for route in [
            Route::Lessons,
            Route::Lesson {
                id: "fencing-tokens".to_owned(),
                step: 3,
            },
            Route::Quiz,
            Route::Deck,
            Route::Guide,
            Route::Sources,
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
        assert_eq!(
            Route::parse("learn=x&step=zero"),
            Some(Route::Lesson {
                id: "x".to_owned(),
                step: 0
            })
        );
    }

    proptest::proptest! {
        #[test]
        fn parsing_any_text_never_panics(text in ".{0,80}") {
            let _ = Route::parse(&text);
        }
    }
}
