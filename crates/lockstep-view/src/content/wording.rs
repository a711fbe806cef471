//! Wordings that review found false or misleading, kept out of every shipped text (content files,
//! scenario files, the bibliography). Each entry says why, so a failing check explains itself.
//! This is a guard against a fixed claim coming back, not a grammar: what a text claims about a
//! run is checked by `claims`, predictions by `check`.

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

/// Every forbidden wording in `texts` (file name, text), with why.
pub fn check(texts: &[(&str, &str)]) -> Vec<ContentError> {
    let mut errors = Vec::new();
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
}
