//! Files written for an older version still work: the corpus under `tests/corpus/` holds
//! scenarios, traces, chaos reports and search configurations in every published version of
//! their format (`<format>/v<N>/`, taken from git history with `git show <commit>:<path>`, the
//! commit in the file name, or `handmade` where history has no file), files this build must
//! refuse with an exact message (`<format>/refused/`), and old links (`links/v1.txt`). Every
//! file of a version loads; a format 1 scenario keeps its `source` text as a note and runs as the
//! current catalogue file does.

use lockstep_sim::analysis::chaos::{ChaosReport, ReportError};
use lockstep_sim::analysis::search::SearchConfig;
use lockstep_sim::scenario::version::FORMAT_VERSION;
use lockstep_sim::story::trace_import::ImportedTrace;
use lockstep_sim::{Scenario, Sim, scenario::catalogue};
use std::path::PathBuf;

const CORPUS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/corpus");

/// Every file in `<format>/<folder>`, as (file name, text), in name order.
fn files(format: &str, folder: &str) -> Vec<(String, String)> {
    let dir = PathBuf::from(CORPUS).join(format).join(folder);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| {
            let path = entry.expect("an entry").path();
            let name = path.file_name().expect("a name").to_string_lossy().into();
            (name, std::fs::read_to_string(&path).expect("text"))
        })
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{} is empty", dir.display());
    files
}

/// The one file of `<format>/<folder>` whose name starts with `prefix`.
fn file(format: &str, folder: &str, prefix: &str) -> String {
    let mut found = files(format, folder)
        .into_iter()
        .filter(|(name, _)| name.starts_with(prefix));
    let (_, text) = found.next().unwrap_or_else(|| panic!("no {prefix}*"));
    assert!(found.next().is_none(), "two files start with {prefix}");
    text
}

fn hash_of(scenario: &Scenario) -> String {
    let mut sim = Sim::new(scenario).expect("runs");
    sim.run_to_end();
    sim.hash()
}

fn built_in(id: &str) -> Scenario {
    catalogue::find(id)
        .expect("built in")
        .load()
        .expect("parses")
}

#[test]
fn every_scenario_of_every_version_loads_and_is_written_as_the_current_one() {
    for folder in ["v1", "v2"] {
        for (name, text) in files("scenario", folder) {
            let scenario = Scenario::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
            let written = scenario.to_json();
            assert!(
                written.contains(&format!("\"format\": {FORMAT_VERSION},")),
                "{name}"
            );
            let again = Scenario::parse(&written).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(again.sources, scenario.sources, "{name}");
            assert_eq!(hash_of(&again), hash_of(&scenario), "{name}");
        }
    }
}

/// The file of `scenario/v1` starting with `prefix` keeps `note` (its `source` text) and runs as
/// the catalogue's `now` does; the sources it cites, the catalogue still cites (which may cite
/// more since).
fn migrated(prefix: &str, note: Option<&str>, now: &str) {
    migrated_with(prefix, note, now, |_| {});
}

/// As [`migrated`], for a file whose scenario the catalogue has changed on purpose since:
/// `since` makes the same change to the old file before the two runs are compared.
fn migrated_with(prefix: &str, note: Option<&str>, now: &str, since: impl FnOnce(&mut Scenario)) {
    let mut old = Scenario::parse(&file("scenario", "v1", prefix))
        .unwrap_or_else(|e| panic!("{prefix}: {e}"));
    assert_eq!(old.notes().next(), note, "{prefix}");
    since(&mut old);
    let current = built_in(now);
    assert_eq!(hash_of(&old), hash_of(&current), "{prefix} against {now}");
    // The sources, not their locators: a locator is corrected when a source's code moves (the
    // Redisson watchdog's, issue 40).
    if note.is_none() {
        let cited: Vec<_> = current.citations().into_iter().map(|c| c.source).collect();
        for citation in old.citations() {
            assert!(cited.contains(&citation.source), "{prefix}: {citation:?}");
        }
    }
}

#[test]
fn a_format_1_source_text_is_kept_as_a_note_and_the_run_is_the_current_files() {
    let kleppmann = "Kleppmann, \"How to do distributed locking\" (2016), section \"Making \
                     the lock safe with fencing\"; DDIA 2nd ed. fig. 9-6.";
    migrated("gc-pause-fenced.", Some(kleppmann), "s2-gc-pause-fenced");
    migrated(
        "s2-gc-pause-fenced.source-text.",
        Some(kleppmann),
        "s2-gc-pause-fenced",
    );
    migrated("s2-gc-pause-fenced.sources.", None, "s2-gc-pause-fenced");
    migrated(
        "s8-held-safely-seed.",
        None,
        "s8-held-safely-from-acquisition",
    );
    migrated(
        "s9-failover-tokens-go-backwards.",
        Some(
            "Redis docs, \"Why failover-based implementations are not enough\"; Kleppmann \
             (2016) on tokens needing strict monotonicity.",
        ),
        "s9-failover-reissues-a-token",
    );
    // Since issue 24 client-b asks before client-a's stray write lands, so that the lock-delay
    // is what keeps it out (with no delay, that write is stale).
    migrated_with(
        "s13-consensus-lock-delay.sources.",
        None,
        "s13-consensus-lock-delay",
        |old| old.clients[1].start_ms = built_in("s13-consensus-lock-delay").clients[1].start_ms,
    );
    // Written by the app's export before format 1 had `sources`: an empty `source`.
    let exported =
        Scenario::parse(&file("scenario", "v1", "exported-without-source")).expect("parses");
    assert!(exported.sources.is_empty());
}

#[test]
fn a_format_2_note_is_shown_beside_the_citations() {
    let scenario =
        Scenario::parse(&file("scenario", "v2", "s2-gc-pause-fenced.with-note")).expect("parses");
    assert_eq!(
        scenario.citations(),
        built_in("s2-gc-pause-fenced").citations()
    );
    assert_eq!(scenario.notes().count(), 1);
}

#[test]
fn a_scenario_of_an_unknown_version_or_a_retired_field_is_refused_exactly() {
    for (prefix, message) in [
        (
            "format-3",
            "format: this is format 3, but this version of Lockstep reads formats 1 to 2",
        ),
        (
            "format-2-with-source-text",
            "source: format 2 has no `source`: move its text into `sources` as a note, \
             { \"note\": \"…\" }, or cite the bibliography there",
        ),
    ] {
        let error = Scenario::parse(&file("scenario", "refused", prefix))
            .expect_err(prefix)
            .to_string();
        assert_eq!(error, message, "{prefix}");
    }
}

#[test]
fn every_trace_of_every_version_loads_and_replays() {
    let every = ["v1", "v2"]
        .into_iter()
        .flat_map(|folder| files("trace", folder));
    for (name, text) in every {
        let trace = ImportedTrace::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scenario = match trace.source {
            Some(scenario) => scenario,
            None => built_in(
                catalogue::entry(&trace.scenario)
                    .unwrap_or_else(|| panic!("{name}: {}", trace.scenario))
                    .id,
            ),
        };
        let mut sim = Sim::with_log(&scenario, trace.seed, &[]).expect("runs");
        sim.run_to_end();
        assert_eq!(sim.hash(), trace.hash, "{name}");
        assert_eq!(sim.trace().len(), trace.events.len(), "{name}");
    }
    let error = ImportedTrace::parse(&file("trace", "refused", "format-3"))
        .expect_err("a newer trace")
        .to_string();
    assert_eq!(
        error,
        "format: this is trace format 3, but this version of Lockstep reads trace formats 1 to 2"
    );
}

#[test]
fn every_chaos_report_of_every_version_loads() {
    // Format 1 did not run the article's check: its count is unknown, not zero.
    for (name, text) in files("chaos-report", "v1") {
        let report = ChaosReport::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(report.runs > 0, "{name}");
        assert_eq!(report.two_accepted_writers, None, "{name}");
    }
    for (name, text) in files("chaos-report", "v2") {
        let report = ChaosReport::from_json(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let failed = report
            .violating
            .iter()
            .filter(|v| v.two_writers_at.is_some())
            .count();
        assert_eq!(
            report.two_accepted_writers,
            u64::try_from(failed).ok(),
            "{name}"
        );
        // Ours is stronger: each run that failed the article's check lost data.
        assert!(
            report
                .violating
                .iter()
                .all(|v| v.two_writers_at.is_none() || v.data_lost),
            "{name}"
        );
    }
    let error = ChaosReport::from_json(&file("chaos-report", "refused", "format-3"))
        .expect_err("a newer report");
    assert_eq!(error, ReportError::Format(3));
    assert_eq!(
        error.to_string(),
        "format: this is chaos report format 3, but this version of Lockstep reads chaos report \
         formats 1 to 2"
    );
}

#[test]
fn a_chaos_report_has_the_articles_check_in_format_2_only() {
    let v1 = file("chaos-report", "v1", "article");
    let v2 = file("chaos-report", "v2", "article");
    let with_count = v1.replacen(
        "\"data_lost\":",
        "\"two_accepted_writers\": 0,\n  \"data_lost\":",
        1,
    );
    assert_eq!(
        ChaosReport::from_json(&with_count),
        Err(ReportError::NotInFormat1)
    );
    let without_count = v2.replacen("\"two_accepted_writers\"", "\"unknown_count\"", 1);
    assert!(matches!(
        ChaosReport::from_json(&without_count),
        Err(ReportError::Json(_))
    ));
    let dropped: String = v2
        .lines()
        .filter(|line| !line.contains("\"two_accepted_writers\""))
        .collect::<Vec<_>>()
        .join("\n");
    assert_eq!(
        ChaosReport::from_json(&dropped),
        Err(ReportError::MissingCount)
    );
    assert_eq!(
        ReportError::MissingCount.to_string(),
        "two_accepted_writers: missing (chaos report format 2 counts the runs that failed the \
         article's check)"
    );
}

#[test]
fn every_search_configuration_loads_with_its_base_in_any_scenario_format() {
    for (name, text) in files("search-config", "v1") {
        let config = SearchConfig::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!config.base.clients.is_empty(), "{name}");
    }
}

#[test]
fn old_links_name_scenarios_that_still_open() {
    let text =
        std::fs::read_to_string(PathBuf::from(CORPUS).join("links/v1.txt")).expect("the links");
    let mut checked = 0;
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let (fragment, opens) = line.split_once('\t').expect("fragment and scenario");
        let named = fragment.split('&').find_map(|pair| pair.strip_prefix("s="));
        match named {
            Some(id) => {
                let entry = catalogue::entry(id).unwrap_or_else(|| panic!("{fragment}"));
                assert_eq!(entry.id, opens, "{fragment}");
                assert!(catalogue::find(id).is_some(), "{fragment}");
            }
            // A chaos lab link: its run, pinned by hash, is lockstep-view's link test's.
            None if fragment.starts_with("chaos=") => {
                assert!(opens.starts_with("chaos "), "{fragment}")
            }
            None => assert_eq!(opens, "custom", "{fragment}"),
        }
        checked += 1;
    }
    assert!(checked >= 8, "{checked}");
}
