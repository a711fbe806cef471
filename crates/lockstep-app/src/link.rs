//! Shareable links (`lockstep_view::link::share`) read and written with this visit's loaded scenario
//! files (`crate::platform::library`): the pure module takes the files as an argument; and the
//! links between pages, written from the page shown ([`here`]).

mod here;

pub use here::{Here, PageLink, use_here, use_site_here};

use crate::platform::library;
use crate::state::Moment;
use lockstep_view::link::error::LinkError;
use lockstep_view::link::kept::{Kept, Unread};
pub use lockstep_view::link::share::*;

/// The fragment (without `#`) that reproduces `moment`.
pub fn encode(moment: &Moment) -> String {
    lockstep_view::link::share::encode(moment, &library::loaded)
}

/// The part of `moment`'s fragment that stays the same while the user steps through one run.
pub fn encode_setup(moment: &Moment) -> String {
    lockstep_view::link::share::encode_setup(moment, &library::loaded)
}

/// The moment a fragment describes, once the built-in scenarios it names have loaded.
pub fn decode(fragment: &str) -> Result<Moment, LinkError> {
    lockstep_view::link::share::decode(fragment, &library::loaded)
}

/// The moment a fragment describes as far as it can be read (`lockstep_view::link::kept`).
pub fn decode_kept(fragment: &str) -> Result<Kept, Unread> {
    lockstep_view::link::kept::decode_kept(fragment, &library::loaded)
}
