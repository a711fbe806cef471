use super::*;

fn terms(text: &str) -> Vec<(Term, &str)> {
    split(text)
        .into_iter()
        .filter_map(|part| match part {
            Part::Term(term, found) => Some((term, found)),
            Part::Plain(_) => None,
        })
        .collect()
}

fn joined(text: &str) -> String {
    split(text)
        .into_iter()
        .map(|part| match part {
            Part::Plain(s) | Part::Term(_, s) => s,
        })
        .collect()
}

#[test]
fn every_entry_is_found_by_each_of_its_forms() {
    for entry in ENTRIES {
        assert_eq!(entry.term.entry(), entry, "{:?} has one entry", entry.term);
        for form in entry.forms {
            let text = format!("Before {form}, after.");
            assert_eq!(terms(&text), [(entry.term, *form)], "{text}");
        }
    }
}

#[test]
fn case_and_plurals_are_found_in_the_text_s_own_spelling() {
    assert_eq!(
        terms("Leases run out; Fencing Tokens do not. A gc pause, GC Pauses."),
        [
            (Term::Lease, "Leases"),
            (Term::FencingToken, "Fencing Tokens"),
            (Term::GcPause, "gc pause"),
        ]
    );
}

#[test]
fn only_whole_words_are_terms() {
    assert!(terms("release the leased seedling; Chubbyish").is_empty());
    assert_eq!(terms("its lease's end"), [(Term::Lease, "lease")]);
}

#[test]
fn the_longest_form_wins_and_parts_never_overlap() {
    let text = "A fencing token, a lease and a seed: fencing again, token again.";
    assert_eq!(
        terms(text),
        [
            (Term::FencingToken, "fencing token"),
            (Term::Lease, "lease"),
            (Term::Seed, "seed"),
        ]
    );
    assert_eq!(
        joined(text),
        text,
        "the parts give the text back, none twice"
    );
}

#[test]
fn each_term_is_marked_where_it_first_appears() {
    let parts = split("lease, then lease again");
    assert_eq!(
        parts,
        [
            Part::Term(Term::Lease, "lease"),
            Part::Plain(", then lease again"),
        ]
    );
}

#[test]
fn texts_without_terms_and_non_ascii_text_are_kept_whole() {
    assert_eq!(
        split("client-a → 33 < 34 ✓"),
        [Part::Plain("client-a → 33 < 34 ✓")]
    );
    assert_eq!(split(""), []);
    assert_eq!(joined("é lease ü"), "é lease ü");
}

#[test]
fn definitions_are_short_and_name_their_sources() {
    for entry in ENTRIES {
        let words = entry.definition.split_whitespace().count();
        assert!(words <= 45, "{}: {words} words", entry.name);
    }
    assert!(Term::Ddia.entry().definition.contains("Martin Kleppmann"));
    assert!(
        Term::Antirez
            .entry()
            .definition
            .contains("Salvatore Sanfilippo")
    );
    assert!(Term::Chubby.entry().definition.contains("Mike Burrows"));
    for (term, source) in [
        (Term::HeldSafely, "the article Lockstep was built from"),
        (Term::Redlock, "Distributed locks with Redis"),
        (Term::CheckAndSet, "Is Redlock safe?"),
        (Term::Sequencer, "OSDI 2006, §2.4"),
        (Term::Zxid, "How to do distributed locking"),
        (Term::Epoch, "DDIA's second edition (ch. 9)"),
    ] {
        assert!(
            term.entry().definition.contains(source),
            "{}: {source}",
            term.entry().name
        );
    }
}
