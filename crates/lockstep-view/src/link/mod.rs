//! Every address the page reads and writes, on one set of mechanics: a fragment's parameters
//! split and escaped once ([`params`]), one error naming the parameter, its value and what is
//! wrong ([`error`]), and the fencing words every link shares ([`fencing`]). Each kind of link
//! is a file on top: the playground's moment ([`share`], read leniently by [`kept`]) and its
//! `chaos=` value ([`chaos`]),
//! which page the app shows ([`route`]), the embed ([`embed`]), the chaos lab ([`lab`]) and the
//! counterexample search's part of its address ([`search`]). Where each address lives on the
//! site, a page's own path and its hash, is [`path`]'s.
//!
//! What this folder must not do: touch the browser, or print or split a parameter other than
//! through [`params`]. Reading never panics: a bad link is a [`error::LinkError`].

#[cfg(test)]
mod across_tests;
pub mod chaos;
pub mod embed;
pub mod error;
pub mod fencing;
pub mod kept;
pub mod lab;
pub mod params;
pub mod path;
#[cfg(test)]
mod path_tests;
pub mod route;
pub mod search;
pub mod share;
