//! Tests of the pages' paths: the scheme row by row, both ways; every built-in scenario, lesson
//! step, question and recording at its path and back; the published links opening what they
//! always opened from where they now live; and any text at all, located and addressed again,
//! reading as it did.

use super::across_tests;
use super::embed::Shows;
use super::error::{LinkError, Problem};
use super::path::{Located, address, base, embed_document, locate, page_place};
use super::route::Route;
use super::share;
use crate::content::Content;
use crate::recorded::catalogue as recordings;
use crate::test_files::loaded;
use lockstep_sim::scenario::catalogue;
use proptest::prelude::*;

/// What the app reads from an address: the page, and for the playground and a scenario's
/// embed the moment the link decodes to (old ids and new read the same).
fn reads(fragment: &str) -> String {
    match Route::parse(fragment) {
        Some(Route::Embed(Ok(mut spec))) => {
            if let Shows::Moment { setup, .. } = &mut spec.shows {
                *setup = format!("{:?}", share::decode(setup, &loaded));
            }
            format!("embed {spec:?}")
        }
        Some(route) => format!("{route:?}"),
        None => format!("playground {:?}", share::decode(fragment, &loaded)),
    }
}

/// `fragment` located, and the address its place gives back.
fn there_and_back(fragment: &str) -> (Located, String) {
    let located = locate(fragment);
    let back = address(&located.path, &located.hash)
        .unwrap_or_else(|e| panic!("{fragment} at {located:?}: {e}"));
    (located, back)
}

/// Each row: the address, its path and hash, and the address they give back (the app's way of
/// writing it, with a scenario's current id).
const ROWS: &[(&str, &str, &str, &str)] = &[
    ("", "", "", ""),
    (
        "s=s1-gc-pause-unfenced&at=5&seed=7",
        "s/s1-gc-pause-unfenced/",
        "at=5&seed=7",
        "s=s1-gc-pause-unfenced&at=5&seed=7",
    ),
    (
        "#s=s1-gc-pause-unfenced",
        "s/s1-gc-pause-unfenced/",
        "",
        "s=s1-gc-pause-unfenced",
    ),
    (
        "s=s8-held-safely-seed&at=12",
        "s/s8-held-safely-from-acquisition/",
        "at=12",
        "s=s8-held-safely-from-acquisition&at=12",
    ),
    (
        "s=no-such-scenario&at=3",
        "",
        "s=no-such-scenario&at=3",
        "s=no-such-scenario&at=3",
    ),
    ("learn", "learn/", "", "learn"),
    (
        "learn=not-a-mutex",
        "learn/not-a-mutex/1/",
        "",
        "learn=not-a-mutex&step=1",
    ),
    (
        "learn=not-a-mutex&step=4",
        "learn/not-a-mutex/4/",
        "",
        "learn=not-a-mutex&step=4",
    ),
    // The lesson reads `step=` wherever it is: one after another parameter stays whole.
    (
        "learn=not-a-mutex&at=1&step=3",
        "",
        "learn=not-a-mutex&at=1&step=3",
        "learn=not-a-mutex&at=1&step=3",
    ),
    (
        "learn=Not_A_Mutex&step=2",
        "",
        "learn=Not_A_Mutex&step=2",
        "learn=Not_A_Mutex&step=2",
    ),
    (
        "learn=not-a-mutex&step=03",
        "",
        "learn=not-a-mutex&step=03",
        "learn=not-a-mutex&step=03",
    ),
    ("quiz", "quiz/", "", "quiz=1"),
    ("quiz=1", "quiz/", "", "quiz=1"),
    ("quiz=7", "quiz/7/", "", "quiz=7"),
    ("quiz=0", "", "quiz=0", "quiz=0"),
    ("deck", "deck/", "", "deck"),
    ("guide", "guide/", "", "guide"),
    ("sources", "sources/", "", "sources"),
    ("real", "real/", "", "real"),
    (
        "real=s2-gc-pause-fenced.postgres",
        "",
        "real=s2-gc-pause-fenced.postgres",
        "real=s2-gc-pause-fenced.postgres",
    ),
    ("real=../etc", "", "real=../etc", "real=../etc"),
    ("lab", "lab/", "", "lab"),
    (
        "lab&backend=sql-row&runs=10&seed=1",
        "lab/",
        "backend=sql-row&runs=10&seed=1",
        "lab&backend=sql-row&runs=10&seed=1",
    ),
    (
        "lab&search=s1-gc-pause-unfenced&search-faults=1",
        "lab/",
        "search=s1-gc-pause-unfenced&search-faults=1",
        "lab&search=s1-gc-pause-unfenced&search-faults=1",
    ),
    (
        "embed&s=s9-failover-tokens-go-backwards&at=9&controls=none",
        "embed/s9-failover-reissues-a-token/",
        "at=9&controls=none",
        "embed&s=s9-failover-reissues-a-token&at=9&controls=none",
    ),
    (
        "embed&scenario=e30",
        "",
        "embed&scenario=e30",
        "embed&scenario=e30",
    ),
    (
        "embed&learn=not-a-mutex",
        "",
        "embed&learn=not-a-mutex",
        "embed&learn=not-a-mutex",
    ),
    (
        "embed&at=3&s=s1-gc-pause-unfenced",
        "",
        "embed&at=3&s=s1-gc-pause-unfenced",
        "embed&at=3&s=s1-gc-pause-unfenced",
    ),
    (
        "scenario=e30&at=2",
        "",
        "scenario=e30&at=2",
        "scenario=e30&at=2",
    ),
    (
        "chaos=1;seed=17&at=4",
        "",
        "chaos=1;seed=17&at=4",
        "chaos=1;seed=17&at=4",
    ),
    // The path would name one scenario and the page show another.
    (
        "s=s1-gc-pause-unfenced&s=s2-gc-pause-fenced",
        "",
        "s=s1-gc-pause-unfenced&s=s2-gc-pause-fenced",
        "s=s1-gc-pause-unfenced&s=s2-gc-pause-fenced",
    ),
    (
        "s=s1-gc-pause-unfenced&deck",
        "",
        "s=s1-gc-pause-unfenced&deck",
        "s=s1-gc-pause-unfenced&deck",
    ),
    ("&learn", "", "&learn", "&learn"),
    ("%zz=&&=", "", "%zz=&&=", "%zz=&&="),
];

#[test]
fn every_row_of_the_scheme_reads_both_ways() {
    for &(fragment, path, hash, back) in ROWS {
        let located = locate(fragment);
        assert_eq!(
            located,
            Located {
                path: path.to_owned(),
                hash: hash.to_owned()
            },
            "{fragment}"
        );
        assert_eq!(address(path, hash).as_deref(), Ok(back), "{fragment}");
        // The trailing `/` may be left off, and the hash may keep its `#`.
        let bare = path.strip_suffix('/').unwrap_or(path);
        assert_eq!(
            address(bare, &format!("#{hash}")).as_deref(),
            Ok(back),
            "{fragment}"
        );
        assert_eq!(reads(back), reads(fragment), "{fragment}");
    }
}

#[test]
fn a_hash_that_names_a_page_wins_only_at_the_root() {
    assert_eq!(address("", "learn=x").as_deref(), Ok("learn=x"));
    assert_eq!(
        address("", "#embed&s=s2-gc-pause-fenced").as_deref(),
        Ok("embed&s=s2-gc-pause-fenced")
    );
    for (path, hash, parameter) in [
        ("s/s2-gc-pause-fenced/", "learn=x", "learn"),
        ("deck/", "embed&s=s2-gc-pause-fenced", "embed"),
        ("learn/not-a-mutex/2/", "quiz=3", "quiz"),
        ("lab/", "lab&runs=3", "lab"),
        ("s/s2-gc-pause-fenced/", "at=3&s=s1-gc-pause-unfenced", "s"),
        ("s/s2-gc-pause-fenced/", "chaos=1;seed=2", "chaos"),
        ("s/s2-gc-pause-fenced/", "scenario=e30", "scenario"),
        (
            "embed/s2-gc-pause-fenced/",
            "at=2&learn=not-a-mutex",
            "learn",
        ),
        (
            "embed/s2-gc-pause-fenced/",
            "real=s2-gc-pause-fenced.postgres",
            "real",
        ),
        ("learn/not-a-mutex/2/", "step=3", "step"),
    ] {
        let error = address(path, hash).expect_err(hash);
        assert_eq!(error.parameter, parameter, "{path} {hash}");
        assert_eq!(
            error.problem,
            Problem::NamedByPath {
                path: path.to_owned()
            }
        );
        let message = error.to_string();
        assert!(
            message.contains(path) && message.starts_with(&format!("`{parameter}")),
            "{message}"
        );
    }
    // What the path does not name, the hash may: the lab's search, a deck's unread extra.
    assert_eq!(
        address("lab/", "search=s1-gc-pause-unfenced").as_deref(),
        Ok("lab&search=s1-gc-pause-unfenced")
    );
    assert_eq!(
        address("deck/", "s=s1-gc-pause-unfenced").as_deref(),
        Ok("deck&s=s1-gc-pause-unfenced")
    );
}

#[test]
fn an_unknown_path_is_an_error_that_names_it() {
    for path in [
        "nowhere/",
        "s/no-such-scenario/",
        // An old id is written as the current one; no page lives at it.
        "s/gc-pause-fenced/",
        "/s/s2-gc-pause-fenced/",
        "s//",
        "s/s2-gc-pause-fenced/extra/",
        "learn/not-a-mutex/",
        "learn/not-a-mutex/0/",
        "learn/not-a-mutex/01/",
        "learn/Not_A_Mutex/1/",
        "quiz/0/",
        "quiz/two/",
        "real/../",
        "real/a..b/",
        "embed/",
        "index.html",
    ] {
        let error = address(path, "").expect_err(path);
        // Named as the caller gave it.
        assert_eq!(error, LinkError::at("", path, Problem::UnknownPath));
        assert!(
            error.to_string().starts_with(&format!("`{path}`")),
            "{error}"
        );
    }
    assert_eq!(address("quiz/1/", "").as_deref(), Ok("quiz=1"));
}

#[test]
fn base_climbs_one_level_per_segment() {
    assert_eq!(base(""), "./");
    assert_eq!(base("/"), "./");
    assert_eq!(base("deck/"), "../");
    assert_eq!(base("s/s2-gc-pause-fenced/"), "../../");
    assert_eq!(base("s/s2-gc-pause-fenced"), "../../");
    assert_eq!(base("learn/not-a-mutex/3/"), "../../../");
    for &(fragment, ..) in ROWS {
        let located = locate(fragment);
        let depth = located.path.matches('/').count();
        assert_eq!(
            base(&located.path),
            if depth == 0 {
                "./".to_owned()
            } else {
                "../".repeat(depth)
            }
        );
    }
}

#[test]
fn pages_link_to_each_other_by_relative_paths() {
    let lesson = Route::Lesson {
        id: "not-a-mutex".to_owned(),
        step: 2,
    };
    let place = page_place(&lesson).expect("a lesson has an address");
    assert_eq!(place.path, "learn/not-a-mutex/3/");
    assert_eq!(place.href("deck/"), "../learn/not-a-mutex/3/");
    assert_eq!(place.href(""), "./learn/not-a-mutex/3/");
    let quiz = page_place(&Route::Quiz { question: 0 }).expect("an address");
    assert_eq!(quiz.href("learn/not-a-mutex/3/"), "../../../quiz/");
    let moment = locate("s=s2-gc-pause-fenced&at=3");
    assert_eq!(moment.href("quiz/"), "../s/s2-gc-pause-fenced/#at=3");
    assert_eq!(locate("chaos=1;seed=2").href("deck/"), "../#chaos=1;seed=2");
    assert_eq!(page_place(&Route::Playground), None);
}

#[test]
fn every_built_in_scenario_lives_at_its_path_and_reads_the_same_there() {
    for entry in catalogue::INDEX {
        let id = entry.id;
        assert!(
            id.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-'),
            "{id} is not safe as a directory's name"
        );
        for (fragment, path) in [
            (format!("s={id}"), format!("s/{id}/")),
            (format!("s={id}&at=3&seed=7&compare=1"), format!("s/{id}/")),
            (
                format!("embed&s={id}&at=2&controls=none"),
                format!("embed/{id}/"),
            ),
        ] {
            let (located, back) = there_and_back(&fragment);
            assert_eq!(located.path, path);
            assert_eq!(back, fragment);
            assert_eq!(reads(&back), reads(&fragment), "{fragment}");
        }
    }
    for (old, new) in catalogue::RENAMED {
        for fragment in [format!("s={old}&at=3"), format!("embed&s={old}&at=3")] {
            let (located, back) = there_and_back(&fragment);
            assert!(
                located.path.ends_with(&format!("/{new}/")),
                "{fragment}: {located:?}"
            );
            assert_eq!(back, fragment.replace(old, new));
            assert_eq!(reads(&back), reads(&fragment), "{fragment}");
        }
    }
}

#[test]
fn every_lesson_step_question_and_recording_lives_at_its_path() {
    let content = Content::load().expect("the guided material reads");
    for lesson in &content.lessons {
        let id = &lesson.id;
        for step in 1..=lesson.steps.len() {
            let fragment = format!("learn={id}&step={step}");
            let (located, back) = there_and_back(&fragment);
            assert_eq!(located.path, format!("learn/{id}/{step}/"));
            assert_eq!(back, fragment);
            assert_eq!(Route::parse(&back), Route::parse(&fragment));
        }
        let (located, back) = there_and_back(&format!("learn={id}"));
        assert_eq!(located.path, format!("learn/{id}/1/"));
        assert_eq!(Route::parse(&back), Route::parse(&format!("learn={id}")));
    }
    for question in 1..=content.questions.len() {
        let fragment = format!("quiz={question}");
        let (located, back) = there_and_back(&fragment);
        assert_ne!(located.path, "", "{fragment}");
        assert_eq!(back, fragment);
    }
    for recording in &recordings::RECORDINGS {
        let fragment = format!("real={}", recording.id());
        let (located, back) = there_and_back(&fragment);
        // No rendered page yet: at the root, and its path still reads as it.
        assert_eq!(located.path, "");
        assert_eq!(back, fragment);
        assert_eq!(
            address(&format!("real/{}/", recording.id()), "").as_deref(),
            Ok(fragment.as_str())
        );
    }
}

/// Every published link, located and addressed again, opens what the corpus says it opens and
/// reads as it always did.
#[test]
fn published_links_open_what_they_always_opened_from_their_paths() {
    let mut with_a_path = 0;
    for (fragment, what) in across_tests::corpus() {
        let (located, back) = there_and_back(fragment);
        assert_eq!(
            across_tests::opens(&back),
            what,
            "{fragment} at {located:?}"
        );
        assert_eq!(reads(&back), reads(fragment), "{fragment}");
        with_a_path += usize::from(!located.path.is_empty());
    }
    assert!(
        with_a_path >= 6,
        "only {with_a_path} published links have a path"
    );
}

/// A fragment made of the parameters links have, with ids and values right and wrong.
fn fragment_like() -> impl Strategy<Value = String> {
    let names = prop::sample::select(vec![
        "s", "embed", "learn", "step", "quiz", "deck", "guide", "sources", "lab", "real", "at",
        "seed", "scenario", "chaos", "compare", "controls", "search", "zoom", "",
    ]);
    let values = prop::sample::select(vec![
        None,
        Some(""),
        Some("s2-gc-pause-fenced"),
        Some("gc-pause-fenced"),
        Some("s1-gc-pause-unfenced"),
        Some("not-a-mutex"),
        Some("s2-gc-pause-fenced.postgres"),
        Some("3"),
        Some("0"),
        Some("03"),
        Some("1"),
        Some("x_y"),
        Some(".."),
        Some("none"),
    ]);
    (prop::collection::vec((names, values), 0..5), any::<bool>()).prop_map(|(parameters, hash)| {
        let written: Vec<String> = parameters
            .into_iter()
            .map(|(name, value)| match value {
                None => name.to_owned(),
                Some(value) => format!("{name}={value}"),
            })
            .collect();
        format!("{}{}", if hash { "#" } else { "" }, written.join("&"))
    })
}

/// An address as the app writes it, of a page that has a path (or of the root).
fn written_by_the_app() -> impl Strategy<Value = String> {
    let ids: Vec<&str> = catalogue::INDEX.iter().map(|e| e.id).collect();
    let scenario = prop::sample::select(ids);
    prop_oneof![
        (scenario.clone(), 0usize..60, prop::option::of(0u64..99)).prop_map(|(id, at, seed)| {
            let seed = seed.map(|s| format!("&seed={s}")).unwrap_or_default();
            format!("s={id}{seed}&at={at}")
        }),
        (scenario, 0usize..60).prop_map(|(id, at)| format!("embed&s={id}&at={at}")),
        ("[a-z0-9]{1,10}(-[a-z0-9]{1,6}){0,3}", 1usize..40)
            .prop_map(|(id, step)| format!("learn={id}&step={step}")),
        (1usize..60).prop_map(|n| format!("quiz={n}")),
        (1u64..5_000, 0u64..99).prop_map(|(runs, seed)| format!("lab&runs={runs}&seed={seed}")),
        "[a-z0-9-]{1,12}\\.[a-z]{1,8}".prop_map(|id| format!("real={id}")),
        prop::sample::select(vec!["learn", "deck", "guide", "sources", "real", "lab", ""])
            .prop_map(str::to_owned),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn any_text_is_located_and_addressed_without_panicking(text in any::<String>()) {
        let located = locate(&text);
        prop_assert!(address(&located.path, &located.hash).is_ok());
        let _ = address(&text, &text);
        let _ = base(&text);
    }

    #[test]
    fn any_fragment_reads_the_same_from_its_place(fragment in fragment_like()) {
        let (located, back) = there_and_back(&fragment);
        prop_assert_eq!(reads(&back), reads(&fragment), "{:?}", located);
        // Located again, the address written back stays where it was.
        prop_assert_eq!(locate(&back), located);
    }

    #[test]
    fn an_address_the_app_writes_comes_back_as_it_was(fragment in written_by_the_app()) {
        let (located, back) = there_and_back(&fragment);
        prop_assert_eq!(&back, &fragment);
        // Every such page has a path, but the root and a recorded run's (not rendered yet).
        prop_assert_eq!(
            located.path.is_empty(),
            fragment.is_empty() || fragment.starts_with("real=")
        );
    }
}

#[test]
fn an_embed_of_a_built_in_scenario_has_a_document_that_reads_its_whole_address() {
    let cases = [
        ("embed&s=s2-gc-pause-fenced", "embed/s2-gc-pause-fenced/"),
        (
            "#embed&s=s2-gc-pause-fenced&at=10",
            "embed/s2-gc-pause-fenced/at=10/",
        ),
        (
            "embed&s=s8-held-safely-from-acquisition&from=4&to=20&controls=transport&caption=heldSafely%28%29%20counts",
            "embed/s8-held-safely-from-acquisition/from=4&to=20&controls=transport&caption=heldSafely%28%29%20counts/",
        ),
    ];
    for (fragment, document) in cases {
        assert_eq!(embed_document(fragment).as_deref(), Some(document));
        assert_eq!(
            address(document, "").as_deref(),
            Ok(fragment.trim_start_matches('#'))
        );
        assert_eq!(
            reads(&address(document, "").expect("reads")),
            reads(fragment)
        );
    }
    // An old id's document is its current id's.
    assert_eq!(
        embed_document("embed&s=s9-failover-tokens-go-backwards&at=9").as_deref(),
        Some("embed/s9-failover-reissues-a-token/at=9/")
    );
}

#[test]
fn only_a_built_in_scenarios_embed_with_a_safe_name_has_a_document() {
    for fragment in [
        "embed&scenario=e30",
        "embed&learn=not-a-mutex",
        "embed&real=s10-redlock-clock-jump.redlock",
        "embed&at=3&s=s1-gc-pause-unfenced",
        "s=s1-gc-pause-unfenced",
        "embed&s=no-such-scenario",
        "embed&s=s1-gc-pause-unfenced&caption=a/b",
        "embed&s=s1-gc-pause-unfenced&caption=a%2Fb",
        "embed&s=s1-gc-pause-unfenced&caption=a%5Cb",
        "embed&s=s1-gc-pause-unfenced&caption=a%0Ab",
        "embed&s=s1-gc-pause-unfenced&s=s2-gc-pause-fenced",
        "embed&s=s1-gc-pause-unfenced&learn=not-a-mutex",
    ] {
        assert_eq!(embed_document(fragment), None, "{fragment}");
    }
    // A document's path that names its scenario again is refused, as a hash after it would be.
    assert!(address("embed/s1-gc-pause-unfenced/s=s2-gc-pause-fenced/", "").is_err());
    assert!(address("embed/s1-gc-pause-unfenced/learn/", "").is_err());
    assert_eq!(
        address("embed/s1-gc-pause-unfenced/at=3/", "controls=none").as_deref(),
        Ok("embed&s=s1-gc-pause-unfenced&at=3&controls=none")
    );
}
