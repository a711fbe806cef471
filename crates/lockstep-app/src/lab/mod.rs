//! The chaos lab (`#lab…`): many seeds of one setup run in Web Workers, their results charted,
//! and the counterexample search. The schedule, the address and the messages to the workers are
//! pure (`lockstep_view::lab`: `schedule`, `worker_protocol`; the addresses are
//! `lockstep_view::link`'s `lab` and `search`); this folder runs them in the browser and renders
//! the results.

pub mod form;
pub mod lesson;
pub mod results;
pub mod reveal;
pub mod runner;
pub mod search;
pub mod view;
pub mod worker;
pub mod workers;
