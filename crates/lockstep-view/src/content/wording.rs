//! Wordings that review found false or misleading, kept out of every shipped text (content files,
//! scenario files, the bibliography). Each entry says why, so a failing check explains itself.
//! This is a guard against a fixed claim coming back, not a grammar: what a text claims about a
//! run is checked by `claims`, predictions by `check`.
//!
//! One more guard reads each file's strings rather than its bytes: the etcd lock bug Jepsen
//! found in 3.4.3 is in every 3.4.x release (its fix, PR #11408, first shipped in 3.5.0 and was
//! never backported), so no text may say "since fixed", and a text that names 3.4.3 must also
//! say 3.4.x or 3.5.0. Identifiers are exempt (`s18-etcd-3-4-3-lock-bug`, the `etcd_3_4_3`
//! bug mode), and so are the bibliography's names of works and their addresses (Jepsen's
//! analysis is called "etcd 3.4.3"). Narration (`lockstep_sim::story::describe`) is not read
//! here: it is not a file of text.

use super::ContentError;

/// A phrase (matched case-insensitively) and why it must not be said.
const FORBIDDEN: [(&str, &str); 14] = [
    (
        "keeps the data correct",
        "fencing alone does not: a read-modify-write that spans a change of holder loses an update with fencing on (S3); say where it is enough",
    ),
    (
        "sequencer closes",
        "CheckSequencer narrows the gap: the check and the apply are two steps; pair it with the highest-token rule",
    ),
    (
        "learns it holds",
        "a client is told it holds the lock; only the lock service's state is truth",
    ),
    (
        "learns its lease",
        "a client is told of its lease; only the lock service's state is truth",
    ),
    (
        "notices nothing",
        "what this client does is a choice of the scenario: real clients can notice by a local deadline (Chubby's jeopardy, Curator's SUSPENDED; etcd's Session.Done(), late)",
    ),
    (
        "sender record sent keys",
        "recording a key and sending are two steps, so the sender cannot promise \"never twice\": only de-duplication at the receiver can",
    ),
    (
        "two holders",
        "a client's holding is a belief: say the clients believe they hold the lock (one_believer), unless the lock service itself holds two leases (one_lease)",
    ),
    (
        "two clients hold",
        "a client's holding is a belief: say two clients believe they hold the lock",
    ),
    (
        "two clients then hold",
        "a client's holding is a belief: say two clients then believe they hold the lock",
    ),
    (
        "both clients hold",
        "a client's holding is a belief: say both clients believe they hold the lock",
    ),
    (
        "no timing assumptions",
        "a consensus lock's leases end by its leader's clock (etcd's lessor, Raft §8, Chubby §2.8): consensus keeps the grants agreed whatever the timing, but when a lease ends, and so a holder's belief, rests on timing (S20)",
    ),
    (
        "clock cannot end",
        "the leader's clock can end a consensus lease early (S20): only a follower's clock cannot",
    ),
    (
        "the seed's",
        "\"seed\" means the RNG seed only: say \"the article's\"",
    ),
    (
        "seed article",
        "\"seed\" means the RNG seed only: say \"the article\"",
    ),
];

/// Words that tell a reader the etcd lock bug is gone from etcd 3.4.
const SAID_FIXED: [&str; 2] = ["since fixed", "now fixed"];

/// Why the etcd lock bug must be placed by its release series.
const ETCD_3_4: &str = "the etcd lock bug is in every 3.4.x release: its fix (PR #11408) first shipped in 3.5.0 and was never backported; say \"etcd 3.4.x; fixed in 3.5.0\"";

/// Keys whose values name something rather than say something: ids and references to other
/// entries. In the bibliography, also a work's own title, venue and address.
fn names_only(file: &str, key: &str) -> bool {
    matches!(
        key,
        "id" | "scenario" | "source" | "lesson" | "compare" | "format"
    ) || (file == "sources.json" && matches!(key, "title" | "venue" | "url"))
}

/// Every string of `file`'s JSON (or its whole text, if it is not JSON) that misplaces the etcd lock bug's releases, with where.
pub fn etcd_releases(file: &str, text: &str) -> Vec<ContentError> {
    // A text that is not JSON is judged whole, as one string.
    let value = serde_json::from_str::<serde_json::Value>(text)
        .unwrap_or_else(|_| serde_json::Value::String(text.to_owned()));
    let mut errors = Vec::new();
    let mut judge = |place: &str, said: &str| {
        let lower = said.to_lowercase();
        let fixed = SAID_FIXED.iter().find(|w| lower.contains(*w));
        let bare_343 =
            lower.contains("3.4.3") && !lower.contains("3.4.x") && !lower.contains("3.5.0");
        if let Some(words) = fixed {
            errors.push(ContentError::new(
                format!("{file} {place}"),
                format!("says \"{words}\": {ETCD_3_4}"),
            ));
        } else if bare_343 {
            errors.push(ContentError::new(
                format!("{file} {place}"),
                format!("names 3.4.3 alone: {ETCD_3_4}"),
            ));
        }
    };
    walk(file, &value, "", &mut judge);
    errors
}

/// Calls `judge` with each string in `value` that says something, and its path.
fn walk(file: &str, value: &serde_json::Value, place: &str, judge: &mut impl FnMut(&str, &str)) {
    match value {
        serde_json::Value::String(said) => judge(place, said),
        serde_json::Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                walk(file, item, &format!("{place}[{i}]"), judge);
            }
        }
        serde_json::Value::Object(fields) => {
            for (key, item) in fields {
                if !names_only(file, key) {
                    walk(file, item, &format!("{place}.{key}"), judge);
                }
            }
        }
        _ => {}
    }
}

/// Every forbidden wording in `texts` (file name, text), with why.
pub fn check(texts: &[(&str, &str)]) -> Vec<ContentError> {
    let mut errors = Vec::new();
    for (file, text) in texts {
        errors.extend(etcd_releases(file, text));
    }
    for (file, text) in texts {
        let lower = text.to_lowercase();
        for (phrase, why) in FORBIDDEN {
            if lower.contains(phrase) {
                errors.push(ContentError::new(
                    (*file).to_owned(),
                    format!("says \"{phrase}\": {why}"),
                ));
            }
        }
    }
    errors
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shipped_texts_say_none_of_the_wordings_review_found_false() {
        let errors = check(&super::super::product_texts());
        assert!(errors.is_empty(), "{errors:#?}");
    }

    #[test]
    fn each_forbidden_wording_is_caught_with_its_reason() {
        for (phrase, why) in FORBIDDEN {
            let planted = format!("In this step the Client {} too.", phrase.to_uppercase());
            let errors = check(&[("cards.json", planted.as_str())]);
            assert_eq!(errors.len(), 1, "{phrase}: {errors:?}");
            assert_eq!(errors[0].place, "cards.json");
            assert!(errors[0].problem.contains(why), "{errors:?}");
        }
        assert!(check(&[("cards.json", "A fenced blind write is refused: 33 < 34.")]).is_empty());
    }

    #[test]
    fn the_etcd_lock_bug_is_placed_by_its_release_series() {
        let said = |text: &str| etcd_releases("questions.json", &format!("{{\"q\": {text:?}}}"));
        for wrong in [
            "etcd 3.4.3 had a lock bug.",
            "A lock bug in etcd, since fixed, made it worse.",
            "An implementation bug, now fixed.",
            "etcd 3.4.x had a lock bug, since fixed.",
        ] {
            let errors = said(wrong);
            assert_eq!(errors.len(), 1, "{wrong}: {errors:?}");
            assert!(errors[0].problem.contains("3.5.0"), "{errors:?}");
            assert_eq!(errors[0].place, "questions.json .q");
        }
        for right in [
            "Jepsen tested etcd 3.4.3; the bug is in every 3.4.x release.",
            "etcd 3.4.3's bug was fixed in 3.5.0.",
            "etcd 3.4.x; fixed in 3.5.0.",
        ] {
            assert!(said(right).is_empty(), "{right}");
        }
        // Identifiers, and a work's own title in the bibliography, name rather than say.
        let id = r#"{"id": "q-etcd-343-bug", "scenario": "s18-etcd-3-4-3-lock-bug"}"#;
        assert!(etcd_releases("questions.json", id).is_empty());
        let work = r#"{"title": "etcd 3.4.3", "url": "https://jepsen.io/analyses/etcd-3.4.3"}"#;
        assert!(etcd_releases("sources.json", work).is_empty());
        assert_eq!(
            etcd_releases("s18.json", r#"{"title": "etcd 3.4.3"}"#).len(),
            1
        );
    }

    /// The recorded real runs are shipped text too (their titles are shown beside the
    /// simulation), read from `content/recorded/`.
    #[test]
    fn recorded_runs_place_the_etcd_lock_bug_by_its_release_series() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/recorded");
        let mut read = 0;
        let mut errors = Vec::new();
        for entry in std::fs::read_dir(&dir).expect("content/recorded") {
            let path = entry.expect("an entry").path();
            let text = std::fs::read_to_string(&path).expect("a recording");
            let name = path.file_name().map(|n| n.to_string_lossy().into_owned());
            errors.extend(etcd_releases(&name.unwrap_or_default(), &text));
            read += 1;
        }
        assert!(read > 0, "no recordings in {}", dir.display());
        assert!(errors.is_empty(), "{errors:#?}");
    }
}
