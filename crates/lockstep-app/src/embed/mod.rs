//! The embed: the playground cut down to one moment, one lesson or one recorded real run, shown in an iframe on
//! another page (the `#embed&…` view; `assets/embed.js` is the host script). What it shows is
//! computed by `lockstep_view::link::embed` and `lockstep_view::embed::state`; this folder renders
//! it and talks to the host page (its height, whether it is in view).

pub mod frame;
pub mod frame_parts;
pub mod hooks;
#[cfg(feature = "full")]
pub mod lesson;
pub mod moment;
#[cfg(feature = "full")]
pub mod real_run;
pub mod state;
pub mod steady_now;
pub mod transport;
pub mod view;
