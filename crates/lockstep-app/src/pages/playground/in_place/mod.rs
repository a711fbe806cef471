//! Cause and effect on one screen (issue 28): the popover of likely actions at a selected lane
//! name or stage node (`popover.rs`; a bottom sheet on a phone), the run's verdict beside the
//! timeline once the run has reached its end (`verdict.rs`), and the "edited" chip that offers
//! the original run back (`edited.rs`). What they offer and say is
//! `lockstep_view::in_place`'s; here it is only drawn, and every choice is an action of the one
//! reducer.

mod edited;
mod placement;
mod popover;
mod verdict;

pub use edited::EditedChip;
pub use popover::ActInPlace;
pub use verdict::verdict_line;
