//! Retry numbers: what a text says about retrying must agree with the scenario it walks and with
//! the source it cites for it, and a scenario that cites a source's retry policy must run it.
//!
//! The numbers are easy to get wrong because they are counted two ways. A scenario's `retry`
//! counts the attempts *after* the first (`"attempts": 2` is three in all); redlock-rb's
//! `DefaultRetryCount = 3` counts them all. S17 once ran four rounds for "retry count 3", and its
//! lesson said the reference client "retries 3 times".
//!
//! | Phrase | Claim |
//! |---|---|
//! | `3 attempts`, `three tries`, `3 rounds` | attempts in all, the first included |
//! | `2 retries`, `retries 2 times`, `retries twice` | attempts after the first |
//! | `0 to 199 milliseconds`, `up to 199 ms` (in a sentence about a retry's delay or sleep) | the longest random delay before a retry |
//!
//! Like [`super::claims`], it reads only these phrasings and does not guess: a text that needs a
//! retry number neither the scenario nor its cited source states should say it another way.

use lockstep_sim::Scenario;
use lockstep_sim::models::client::{Access, RetryPolicy};
use lockstep_sim::scenario::sources::Citation;

/// One retry number a text states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RetryClaim {
    AttemptsInAll(u64),
    Retries(u64),
    LongestDelay(u64),
}

/// The retry policy a source states, read from it once.
struct SourcePolicy {
    source: &'static str,
    attempts_in_all: u64,
    longest_delay_ms: u64,
}

/// Sources whose retry numbers the texts and scenarios quote.
const SOURCE_POLICIES: [SourcePolicy; 1] = [SourcePolicy {
    // antirez/redlock-rb, lib/redlock.rb: `DefaultRetryCount=3` and `@retry_count.times { … }`
    // make three attempts in all; after each failed one, `sleep(rand(@retry_delay).to_f/1000)`
    // with `DefaultRetryDelay=200`, and Ruby's `rand(200)` is 0 to 199.
    source: "redlock-rb",
    attempts_in_all: 3,
    longest_delay_ms: 199,
}];

const NUMBER_WORDS: [&str; 11] = [
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
];

fn number(word: &str) -> Option<u64> {
    let word = word.replace(',', "");
    word.parse().ok().or_else(|| {
        NUMBER_WORDS
            .iter()
            .position(|w| *w == word)
            .map(|n| n as u64)
    })
}

/// Every retry number in `text`, in order.
pub fn extract(text: &str) -> Vec<RetryClaim> {
    let mut claims = Vec::new();
    for sentence in text.split_inclusive(['.', ';']) {
        let words: Vec<String> = sentence
            .split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_ascii_alphanumeric())
                    .to_ascii_lowercase()
            })
            .collect();
        let about_delay =
            sentence.contains("retr") && (sentence.contains("delay") || sentence.contains("sleep"));
        for (i, word) in words.iter().enumerate() {
            let next = words.get(i + 1).map(String::as_str);
            let after = words.get(i + 2).map(String::as_str);
            match (number(word), next) {
                (Some(n), Some("attempts" | "attempt" | "tries" | "rounds")) => {
                    claims.push(RetryClaim::AttemptsInAll(n));
                }
                (Some(n), Some("retries" | "retry")) if after != Some("left") => {
                    claims.push(RetryClaim::Retries(n));
                }
                (Some(n), Some("ms" | "milliseconds"))
                    if about_delay
                        && i >= 2
                        && matches!(
                            (words[i - 2].as_str(), words[i - 1].as_str()),
                            ("0", "to") | ("up", "to")
                        ) =>
                {
                    claims.push(RetryClaim::LongestDelay(n));
                }
                _ => {}
            }
            if matches!(word.as_str(), "retries" | "retry" | "retried") {
                match (next, after) {
                    (Some("once"), _) => claims.push(RetryClaim::Retries(1)),
                    (Some("twice"), _) => claims.push(RetryClaim::Retries(2)),
                    (Some(n), Some("times" | "more")) => {
                        if let Some(n) = number(n) {
                            claims.push(RetryClaim::Retries(n));
                        }
                    }
                    _ => {}
                }
            }
        }
    }
    claims
}

/// How one client retries: attempts in all, and the longest random delay before a retry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Policy {
    attempts_in_all: u64,
    longest_delay_ms: Option<u64>,
}

/// Each retrying client of `scenario`, by name, with its policy.
fn policies(scenario: &Scenario) -> Vec<(&str, Policy)> {
    let policy = |attempts_in_all: u64, longest_delay_ms| Policy {
        attempts_in_all,
        longest_delay_ms,
    };
    scenario
        .clients
        .iter()
        .filter_map(|c| {
            let p = match (c.retry, c.access) {
                (
                    RetryPolicy::Random {
                        max_delay_ms,
                        attempts,
                    },
                    _,
                ) => policy(u64::from(attempts) + 1, Some(max_delay_ms.0)),
                (RetryPolicy::Fixed { attempts, .. }, _) => policy(u64::from(attempts) + 1, None),
                (
                    RetryPolicy::GiveUp {},
                    Access::OptimisticUpdate { attempts } | Access::Charge { attempts, .. },
                ) => policy(u64::from(attempts.max(1)), None),
                (RetryPolicy::GiveUp {}, _) => return None,
            };
            Some((c.name.as_str(), p))
        })
        .collect()
}

fn agrees(claim: RetryClaim, policy: Policy) -> bool {
    match claim {
        RetryClaim::AttemptsInAll(n) => n == policy.attempts_in_all,
        RetryClaim::Retries(n) => n + 1 == policy.attempts_in_all,
        RetryClaim::LongestDelay(n) => policy.longest_delay_ms == Some(n),
    }
}

impl SourcePolicy {
    fn policy(&self) -> Policy {
        Policy {
            attempts_in_all: self.attempts_in_all,
            longest_delay_ms: Some(self.longest_delay_ms),
        }
    }
}

fn source_policy(citation: &Citation) -> Option<&'static SourcePolicy> {
    SOURCE_POLICIES.iter().find(|p| p.source == citation.source)
}

/// The retry numbers in `text` that neither `scenario` (when it retries at all) nor the sources
/// the text cites bear out, each with why.
pub fn unsupported(text: &str, scenario: &Scenario, cites: &[Citation]) -> Vec<String> {
    let run = policies(scenario);
    let sources: Vec<&SourcePolicy> = cites.iter().filter_map(source_policy).collect();
    let mut problems = Vec::new();
    for claim in extract(text) {
        if run.is_empty() && sources.is_empty() {
            problems.push(format!(
                "{claim:?}: `{}` retries nothing and the text cites no source's retry policy",
                scenario.id
            ));
        }
        if !run.is_empty() && !run.iter().any(|&(_, policy)| agrees(claim, policy)) {
            problems.push(format!(
                "{claim:?} disagrees with `{}`'s retry policies: {run:?}",
                scenario.id
            ));
        }
        for source in &sources {
            if !agrees(claim, source.policy()) {
                problems.push(format!(
                    "{claim:?} disagrees with {}: {} attempts in all, a random delay of 0 to {} ms",
                    source.source, source.attempts_in_all, source.longest_delay_ms
                ));
            }
        }
    }
    problems
}

/// What is wrong with the retry policy of a scenario that cites a source's: each retrying client
/// must make as many attempts in all as the source, and a random delay must have its bound (a
/// fixed delay is a scenario's own choice, the thing it shows).
pub fn scenario_policy(scenario: &Scenario) -> Vec<String> {
    let mut problems = Vec::new();
    for source in scenario.citations().iter().filter_map(source_policy) {
        for (client, policy) in policies(scenario) {
            if policy.attempts_in_all != source.attempts_in_all {
                problems.push(format!(
                    "{client} makes {} attempts in all; {} makes {} (`retry.attempts` counts the retries after the first)",
                    policy.attempts_in_all, source.source, source.attempts_in_all
                ));
            }
            if let Some(longest) = policy.longest_delay_ms
                && longest != source.longest_delay_ms
            {
                problems.push(format!(
                    "{client}'s random retry delay reaches {longest} ms; {}'s reaches {} ms",
                    source.source, source.longest_delay_ms
                ));
            }
        }
    }
    problems
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::scenario::catalogue;
    use lockstep_sim::world::time::Millis;

    fn built_in(id: &str) -> Scenario {
        catalogue::find(id)
            .and_then(|b| b.load().ok())
            .expect("built in")
    }

    fn redlock_rb() -> Vec<Citation> {
        vec![Citation {
            source: "redlock-rb".to_owned(),
            at: "lib/redlock.rb".to_owned(),
        }]
    }

    #[test]
    fn the_phrases_are_read_and_nothing_else() {
        assert_eq!(
            extract(
                "It makes three attempts in all, retries twice, and 3 rounds. Each retry waits a random delay of 0 to 199 milliseconds; it retries 2 more times (1 retry left). A pause of up to 300 ms."
            ),
            [
                RetryClaim::AttemptsInAll(3),
                RetryClaim::Retries(2),
                RetryClaim::AttemptsInAll(3),
                RetryClaim::LongestDelay(199),
                RetryClaim::Retries(2),
            ]
        );
    }

    /// S17 before issue 24: `"attempts": 3` (four rounds) and a delay of up to 200 ms, with a
    /// lesson saying the reference client "retries 3 times, each after a random delay of up to
    /// 200 milliseconds". The text agreed with that scenario; both disagreed with redlock-rb.
    #[test]
    fn the_old_s17_and_its_text_are_caught() {
        let mut old = built_in("s17-redlock-random-retry-delay");
        for client in &mut old.clients {
            client.retry = RetryPolicy::Random {
                max_delay_ms: Millis(200),
                attempts: 3,
            };
        }
        let problems = scenario_policy(&old);
        assert!(
            problems
                .iter()
                .any(|p| p.contains("client-1 makes 4 attempts in all")),
            "{problems:?}"
        );
        assert!(
            problems.iter().any(|p| p.contains("delay reaches 200 ms")),
            "{problems:?}"
        );
        let text = "antirez's reference client retries 3 times, each after a random delay of up to 200 milliseconds.";
        let problems = unsupported(text, &old, &redlock_rb());
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("Retries(3) disagrees with redlock-rb")),
            "{problems:?}"
        );
        assert!(
            problems
                .iter()
                .any(|p| p.starts_with("LongestDelay(200) disagrees with redlock-rb")),
            "{problems:?}"
        );
        let now = built_in("s17-redlock-random-retry-delay");
        assert_eq!(scenario_policy(&now), Vec::<String>::new());
        let problems = unsupported("It retries 3 times.", &now, &[]);
        assert!(
            problems.iter().any(
                |p| p.starts_with("Retries(3) disagrees with `s17-redlock-random-retry-delay`")
            ),
            "{problems:?}"
        );
        assert_eq!(
            unsupported(
                "3 attempts in all, with a random sleep of 0 to 199 milliseconds before each retry.",
                &now,
                &redlock_rb()
            ),
            Vec::<String>::new()
        );
    }
}
