//! The words a link (and a book's block) gives a register's fencing by: `on`, `off`,
//! `sequencer`, `check_and_set`. The playground's link, the search's and the page's own labels
//! all say them, so they are here once.
//!
//! What this module must not do: read or write a whole link.

use lockstep_sim::models::resource::Fencing;

/// Every fencing a link (and a book's block) may name, in the order their words are listed.
pub const FENCINGS: [Fencing; 4] = [
    Fencing::On,
    Fencing::Off,
    Fencing::Sequencer,
    Fencing::CheckAndSet,
];

/// The fencing a link's word names.
pub fn fencing_named(word: &str) -> Option<Fencing> {
    FENCINGS.into_iter().find(|f| fencing_word(*f) == word)
}

pub fn fencing_word(fencing: Fencing) -> &'static str {
    match fencing {
        Fencing::On => "on",
        Fencing::Off => "off",
        Fencing::Sequencer => "sequencer",
        Fencing::CheckAndSet => "check_and_set",
    }
}
