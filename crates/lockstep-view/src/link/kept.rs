//! A share link read as far as it goes: a link cut short (a chat that trims long addresses, a
//! copy that missed its end) or garbled in one part still opens the scenario and the moment its
//! readable parts name, and says what was left out and why. Each parameter is read on its own
//! by [`super::share`]'s reading; one that cannot be read is set aside, and the link's last
//! part failing is taken for a link cut short. Only a link whose scenario cannot be read is not
//! opened at all.
//!
//! What this module must not do: touch the browser, or decide what the page shows in place of
//! an unread link (the app shows its default scenario, and keeps the address as it came).

use super::error::{LinkError, Problem};
use super::params;
use super::share::{Loaded, Reading, SCENARIO_PARAMETERS, no_fencing_to_set};
use crate::state::{Compare, Comparison, Moment};

/// A link opened in part or whole: the moment its readable parts describe, and what was left out.
#[derive(Clone, Debug, PartialEq)]
pub struct Kept {
    pub moment: Moment,
    /// The parameters set aside, each with why, in the order written.
    pub dropped: Vec<LinkError>,
    /// What was read, in words ("the scenario", "the moment", …), in the order written.
    pub kept: Vec<&'static str>,
    /// Whether the link's last part is among those set aside: it looks cut short.
    pub cut_short: bool,
}

/// A link that cannot be opened: its scenario cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unread {
    /// Boxed: a link's error is large, and this travels in a `Result`.
    pub error: Box<LinkError>,
    /// Whether the part that failed is the link's last: it looks cut short.
    pub cut_short: bool,
}

/// The moment a fragment (with or without `#`) describes, keeping every part that can be read.
pub fn decode_kept(fragment: &str, loaded: Loaded) -> Result<Kept, Unread> {
    let mut read = Reading::new();
    let (mut dropped, mut kept, mut scenario_error) = (Vec::new(), Vec::new(), None);
    let mut last_dropped = false;
    for (name, value) in params::pairs(fragment) {
        last_dropped = false;
        match read.pair(name, value, loaded) {
            Ok(()) => {
                let word = part_in_words(name);
                if !kept.contains(&word) {
                    kept.push(word);
                }
            }
            Err(error) if SCENARIO_PARAMETERS.contains(&name) => {
                last_dropped = true;
                scenario_error = Some(error);
            }
            Err(error) => {
                last_dropped = true;
                dropped.push(error);
            }
        }
    }
    if read.scenario.is_none() {
        return Err(Unread {
            error: Box::new(
                scenario_error.unwrap_or_else(|| LinkError::whole(Problem::NoScenario)),
            ),
            cut_short: last_dropped,
        });
    }
    dropped.extend(scenario_error);
    set_aside_what_does_not_fit(&mut read, &mut dropped, &mut kept, loaded);
    match read.moment(loaded) {
        Ok(moment) => Ok(Kept {
            moment,
            dropped,
            kept,
            cut_short: last_dropped,
        }),
        // Unreachable once the scenario is read and the misfits set aside; said, not assumed.
        Err(error) => Err(Unread {
            error: Box::new(error),
            cut_short: false,
        }),
    }
}

/// Sets aside what was read but does not fit the scenario: a fencing its resource lacks, a
/// comparison with a scenario whose file is not loaded.
fn set_aside_what_does_not_fit(
    read: &mut Reading,
    dropped: &mut Vec<LinkError>,
    kept: &mut Vec<&'static str>,
    loaded: Loaded,
) {
    let has_fencing = read
        .scenario
        .as_ref()
        .is_some_and(|(_, s)| s.resource.fencing().is_some());
    if let Some(fencing) = read.fencing.filter(|_| !has_fencing) {
        read.fencing = None;
        dropped.push(no_fencing_to_set(fencing));
        kept.retain(|word| *word != part_in_words("fencing"));
    }
    if let Err(id) = Comparison::of(read.compare, loaded) {
        read.compare = Compare::Off;
        dropped.push(LinkError::at("compare", id, Problem::NotLoaded));
        kept.retain(|word| *word != part_in_words("compare"));
    }
}

/// A share link's parameter as the banner names it.
fn part_in_words(name: &str) -> &'static str {
    match name {
        "seed" => "the seed",
        "fencing" => "the fencing",
        "log" => "the actions taken",
        "at" => "the moment",
        "compare" => "the comparison",
        _ => "the scenario",
    }
}

impl Kept {
    /// What the page says of the link: what was left out and why, what was kept; `None` when
    /// every part was read.
    pub fn words(&self) -> Option<String> {
        if self.dropped.is_empty() {
            return None;
        }
        let why: Vec<String> = self.dropped.iter().map(ToString::to_string).collect();
        let opening = if self.cut_short {
            "This link looks cut short: its end could not be read, so it was left out"
        } else {
            "Part of this link could not be read, so it was left out"
        };
        Some(format!(
            "{opening} ({}). Shown from the rest of it: {}.",
            why.join("; "),
            self.kept.join(", ")
        ))
    }
}

impl Unread {
    /// What the page says of the link (the page adds what it shows instead).
    pub fn words(&self) -> String {
        let Unread { error, cut_short } = self;
        if *cut_short {
            format!("This link looks cut short: its scenario could not be read ({error}).")
        } else {
            format!("This link cannot be opened ({error}).")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::link::share::{encode, tests::valid_moment};
    use crate::test_files::loaded;
    use proptest::strategy::{Strategy, ValueTree};

    fn read(fragment: &str) -> Result<Kept, Unread> {
        decode_kept(fragment, &loaded)
    }

    #[test]
    fn a_whole_link_is_kept_whole_and_says_nothing() {
        let kept = read("#s=s2-gc-pause-fenced&seed=7&at=5").expect("valid");
        assert_eq!(kept.moment.position, Some(5));
        assert_eq!(kept.moment.seed, 7);
        assert_eq!(kept.words(), None);
    }

    #[test]
    fn a_link_cut_in_its_log_keeps_the_scenario_and_says_it_looks_cut_short() {
        let kept = read("s=s2-gc-pause-fenced&at=9&log=W3siYXRfbXMiOjUx").expect("the scenario");
        assert_eq!(kept.moment.scenario.id, "s2-gc-pause-fenced");
        assert_eq!(kept.moment.position, Some(9));
        assert!(kept.moment.log.is_empty());
        assert!(kept.cut_short);
        let words = kept.words().expect("something was left out");
        assert!(words.starts_with("This link looks cut short"), "{words}");
        assert!(words.contains("`log=`"), "{words}");
        assert!(words.ends_with("the scenario, the moment."), "{words}");
    }

    #[test]
    fn a_garbled_middle_part_is_set_aside_and_named() {
        let kept = read("s=s2-gc-pause-fenced&seed=x&fencing=off&at=4").expect("the scenario");
        assert!(!kept.cut_short);
        assert_eq!(kept.moment.position, Some(4));
        let words = kept.words().expect("the seed was left out");
        assert!(words.starts_with("Part of this link"), "{words}");
        assert!(words.contains("`seed=`"), "{words}");
        assert!(words.contains("the fencing"), "{words}");
    }

    #[test]
    fn a_fencing_the_resource_lacks_and_an_unknown_part_are_set_aside() {
        let kept = read("s=a3-idempotency-keys&fencing=on&zoom=3&at=2").expect("the scenario");
        assert_eq!(kept.dropped.len(), 2, "{:?}", kept.dropped);
        assert_eq!(kept.moment.position, Some(2));
    }

    #[test]
    fn a_link_without_a_readable_scenario_is_not_opened_and_says_why() {
        let cut = read("s=s2-gc-pau").expect_err("no such scenario");
        assert!(cut.cut_short);
        assert!(cut.words().starts_with("This link looks cut short"));
        let bad = read("s=no-such-scenario&at=3").expect_err("no such scenario");
        assert!(!bad.cut_short);
        assert!(
            bad.words().contains("s=no-such-scenario"),
            "{}",
            bad.words()
        );
        assert_eq!(
            read("at=3").map(|_| ()).unwrap_err().error.problem,
            Problem::NoScenario
        );
    }

    /// The places to cut `link`: every one, but inside a whole scenario's value (thousands of
    /// characters of base64) only a few, spread over it.
    fn cuts(link: &str) -> Vec<usize> {
        let whole = link.find("scenario=").map(|start| {
            (
                start + "scenario=".len(),
                link[start..].find('&').map_or(link.len(), |e| start + e),
            )
        });
        (0..=link.len())
            .filter(|&cut| match whole {
                Some((from, to)) if cut > from && cut < to => {
                    (cut - from) % ((to - from) / 12).max(1) == 0
                }
                _ => true,
            })
            .collect()
    }

    /// The names of a prefix's parameters that are whole: all but the last, unless the prefix
    /// is the whole link.
    fn whole_parts(prefix: &str, whole: bool) -> Vec<&str> {
        let parts: Vec<&str> = prefix.split('&').collect();
        let complete = if whole {
            parts.len()
        } else {
            parts.len().saturating_sub(1)
        };
        parts[..complete]
            .iter()
            .map(|p| params::split(p).0)
            .collect()
    }

    #[test]
    fn every_prefix_of_a_valid_link_keeps_what_its_whole_parts_say() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = valid_moment();
        for _ in 0..48 {
            let moment = strategy.new_tree(&mut runner).expect("generates").current();
            let link = encode(&moment, &loaded);
            for cut in cuts(&link) {
                check_prefix(&moment, &link, cut);
            }
        }
    }

    fn check_prefix(moment: &Moment, link: &str, cut: usize) {
        let prefix = &link[..cut];
        let whole = whole_parts(prefix, cut == link.len());
        let has = |name: &str| whole.contains(&name);
        let result = read(prefix);
        let Ok(kept) = result else {
            let unread = result.expect_err("not kept");
            assert!(
                !SCENARIO_PARAMETERS.iter().any(|p| has(p)),
                "{prefix}: the scenario is whole, yet {unread:?}"
            );
            assert!(
                unread.cut_short || prefix.is_empty(),
                "{prefix}: {unread:?}"
            );
            return;
        };
        if !SCENARIO_PARAMETERS.iter().any(|p| has(p)) {
            return;
        }
        let got = &kept.moment;
        assert_eq!(got.origin, moment.origin, "{prefix}");
        assert_eq!(got.scenario.id, moment.scenario.id, "{prefix}");
        if has("fencing") || !link.contains("&fencing=") {
            assert_eq!(got.scenario, moment.scenario, "{prefix}");
        }
        if has("seed") || !link.contains("&seed=") {
            assert_eq!(got.seed, moment.seed, "{prefix}");
        }
        if has("log") {
            assert_eq!(got.log, moment.log, "{prefix}");
        }
        if has("at") {
            assert_eq!(got.position, moment.position, "{prefix}");
        }
        if has("compare") {
            assert_eq!(got.compare, moment.compare, "{prefix}");
        }
        // Only the part cut can be set aside, and then the link says it looks cut short.
        let last = prefix.rsplit('&').next().map(|p| params::split(p).0);
        for error in &kept.dropped {
            assert_eq!(Some(error.parameter.as_str()), last, "{prefix}: {error}");
        }
        assert!(kept.dropped.is_empty() || kept.cut_short, "{prefix}");
        if cut == link.len() {
            assert_eq!(&kept.moment, moment, "{prefix}");
            assert_eq!(kept.words(), None, "{prefix}");
        }
    }
}
