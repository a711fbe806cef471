//! The chaos lab's Web Worker (`crate::lab::worker`), built by Trunk as a worker of its own; the page
//! loads it only when the lab first runs.

fn main() {
    lockstep::lab::worker::start();
}
