//! Cause and effect in one place (issue 28): what the popover at a lane's name or a stage node
//! offers (`quick.rs`), and the one-line verdict shown beside the timeline once the run has
//! reached its end (`verdict.rs`). Pure: it says which actions and which words; the app draws
//! them and dispatches the actions through the one reducer. It must not change the run itself.

pub mod quick;
pub mod verdict;

#[cfg(test)]
mod tests;
