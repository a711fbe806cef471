//! A point of a run as the timeline places it: an event's index and its virtual time. Every
//! shape of the layout starts or ends at one; this module only makes them from the trace.

use lockstep_sim::engine::trace::TraceEvent;

/// A point of the run: the event at `event` (an index into the trace), at `time` virtual ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Moment {
    pub event: usize,
    pub time: u64,
}

pub(super) fn moment(event: &TraceEvent) -> Moment {
    Moment {
        event: event.id.0 as usize,
        time: event.time.0,
    }
}

pub(super) fn moment_at(trace: &[TraceEvent], index: usize) -> Moment {
    trace.get(index).map_or(
        Moment {
            event: index,
            time: 0,
        },
        moment,
    )
}
