//! Tests of one kind of link read through another: an embed's playground parameters handed on
//! to the playground's link, and the published links (the corpus), playground's and embeds',
//! opening what they always opened. Here so that neither link's file names the other.

use super::embed::{self, EmbedSpec, Shows};
use super::share;
use crate::state::Origin;
use crate::test_files::loaded;

/// The published links (`crates/lockstep-sim/tests/corpus/links/v1.txt`): each fragment and
/// what it opens, as its second column says.
pub(super) fn corpus() -> impl Iterator<Item = (&'static str, &'static str)> {
    include_str!("../../../lockstep-sim/tests/corpus/links/v1.txt")
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| line.split_once('\t').expect("fragment, tab, scenario"))
}

/// What a playground link or embed address opens, as the corpus writes it: a built-in
/// scenario's id, "custom", or "chaos" and its run's trace hash.
pub(super) fn opens(fragment: &str) -> String {
    let setup = if embed::is_embed(fragment) {
        match embed::parse(fragment) {
            Ok(EmbedSpec {
                shows: Shows::Moment { setup, .. },
                ..
            }) => setup,
            other => panic!("{fragment}: {other:?}"),
        }
    } else {
        fragment.to_owned()
    };
    let moment = share::decode(&setup, &loaded).unwrap_or_else(|e| panic!("{fragment}: {e}"));
    match moment.origin {
        Origin::BuiltIn(id) => id.to_owned(),
        Origin::Custom => "custom".to_owned(),
        Origin::Chaos(run) => {
            // A chaos link names its run by settings and seed: the run it opens is
            // pinned by its trace hash, so a generator that changes it must bump
            // `CHAOS_LINK_VERSION` and keep reading version 1 as it was.
            let scenario = run.settings.scenario(run.seed);
            let run = crate::run::Run::record(&scenario, scenario.seed, &[])
                .unwrap_or_else(|e| panic!("{fragment}: {e}"));
            format!("chaos {}", run.hash())
        }
    }
}

/// Every link and embed address of the corpus opens the scenario it names there: renamed
/// scenarios' old ids, `compare=0`, a format 1 scenario carried whole.
#[test]
fn published_links_open_what_they_always_opened() {
    let mut opened = 0;
    for (fragment, what) in corpus() {
        assert_eq!(opens(fragment), what, "{fragment}");
        opened += 1;
    }
    assert!(opened >= 8, "{opened}");
}

#[test]
fn the_playground_parameters_go_to_the_link_reader() {
    // Checked once the scenario has loaded, by `share::decode`, which names them too.
    let spec = embed::parse("embed&s=s2-gc-pause-fenced&seed=x").expect("read later");
    let Shows::Moment { setup, .. } = spec.shows else {
        panic!("a moment");
    };
    let problem = share::decode(&setup, &loaded).map(|_| ()).unwrap_err();
    assert!(problem.to_string().starts_with("`seed=`"), "{problem}");
}
