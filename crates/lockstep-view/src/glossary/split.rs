//! A text cut into plain parts and the glossary's terms: whole words only, any case, the
//! longest form first ("fencing token" before a shorter form inside it), and each term marked
//! once a text, where it first appears — a term underlined in every sentence would be noise.

use super::terms::{ENTRIES, Term};

/// One part of a text: as it is, or a term in the text's own spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Part<'a> {
    Plain(&'a str),
    Term(Term, &'a str),
}

/// `text` cut into parts that, joined, give it back unchanged.
pub fn split(text: &str) -> Vec<Part<'_>> {
    let mut parts = Vec::new();
    let mut marked: Vec<Term> = Vec::new();
    let (mut plain_from, mut at) = (0, 0);
    while at < text.len() {
        match term_at(text, at, &marked) {
            Some((term, len)) => {
                if plain_from < at {
                    parts.push(Part::Plain(&text[plain_from..at]));
                }
                parts.push(Part::Term(term, &text[at..at + len]));
                marked.push(term);
                at += len;
                plain_from = at;
            }
            None => at += text[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    if plain_from < text.len() {
        parts.push(Part::Plain(&text[plain_from..]));
    }
    parts
}

/// The longest form of a term not yet `marked` that starts at byte `at` as a whole word, and
/// its length in bytes.
fn term_at(text: &str, at: usize, marked: &[Term]) -> Option<(Term, usize)> {
    if text[..at].chars().next_back().is_some_and(is_word) {
        return None;
    }
    ENTRIES
        .iter()
        .filter(|entry| !marked.contains(&entry.term))
        .flat_map(|entry| entry.forms.iter().map(move |form| (entry.term, *form)))
        .filter(|(_, form)| {
            let end = at + form.len();
            text.get(at..end)
                .is_some_and(|found| found.eq_ignore_ascii_case(form))
                && !text[end..].chars().next().is_some_and(is_word)
        })
        .map(|(term, form)| (term, form.len()))
        .max_by_key(|&(_, len)| len)
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric()
}
