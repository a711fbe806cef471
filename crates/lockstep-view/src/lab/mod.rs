//! The chaos lab's and the counterexample search's pure half (their addresses are
//! [`crate::link::lab`] and [`crate::link::search`]; the search's configuration from them is
//! [`search_config`]): the schedule that shares one run's seeds between workers
//! ([`schedule`]), the messages to and from a worker ([`worker_protocol`]), and what the search
//! section says about a result ([`counterexample_search_text`]); what the results say: the
//! headline counted by what each run did to the data ([`tally`]), why each bar is there
//! and which lesson step shows it ([`measure`]), and which histogram labels show
//! ([`histogram_axis`]); when to scroll the headline into view after Run ([`reveal`]); which
//! runs the page keeps and what sets them apart ([`runs`]). The app's `lab/` renders these and
//! runs the workers.
//!
//! What this folder must not do: touch the browser, start a worker, or read a clock.

pub mod counterexample_search_text;
pub mod histogram_axis;
pub mod measure;
pub mod reveal;
pub mod runs;
pub mod schedule;
pub mod search_config;
pub mod tally;
pub mod worker_protocol;
