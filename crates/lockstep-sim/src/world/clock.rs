//! Each node's own clock. Expiry decisions are made by the deciding node on its own clock, so a
//! clock that jumps or drifts changes who the simulation thinks holds a lock — which is exactly
//! how Redlock breaks (scenario S10). A clock gives two readings, as an operating system does:
//! the wall clock, which a step (NTP, an operator) moves, and a monotonic one, which only runs,
//! at the clock's rate. This module only converts between true and local time; it never decides
//! anything, nor which reading a node uses (the engine's slot does).

use crate::world::time::{LocalTime, Millis, VirtualTime};
use serde::{Deserialize, Serialize};

const PPM: i128 = 1_000_000;

/// A node's clock: true time, plus a fixed offset, plus a drift in parts per million; the wall
/// reading adds every step the clock took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LocalClock {
    offset_ms: i64,
    drift_ppm: i32,
    /// The sum of the steps: what the wall reading has and the monotonic one has not.
    stepped_ms: i64,
}

/// Which reading of its clock a node decides by.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reading {
    /// The time of day: what a SQL row's `CURRENT_TIMESTAMP`, Redis's key expiry and a client's
    /// deadline go by. A step moves it.
    #[default]
    Wall,
    /// A clock that only runs forwards at the clock's rate: what etcd times its leases and
    /// elections with (Go's monotonic clock). A step does not move it; a wrong rate still does.
    Monotonic,
}

impl LocalClock {
    pub fn new(offset_ms: i64, drift_ppm: i32) -> LocalClock {
        LocalClock {
            offset_ms,
            drift_ppm,
            stepped_ms: 0,
        }
    }

    /// The wall reading.
    pub fn read(&self, now: VirtualTime) -> LocalTime {
        let monotonic = self.monotonic(now);
        LocalTime(monotonic.0.saturating_add(self.stepped_ms))
    }

    /// The reading a node deciding by `reading` sees.
    pub fn read_by(&self, reading: Reading, now: VirtualTime) -> LocalTime {
        match reading {
            Reading::Wall => self.read(now),
            Reading::Monotonic => self.monotonic(now),
        }
    }

    /// The monotonic reading: the wall reading without the steps.
    fn monotonic(&self, now: VirtualTime) -> LocalTime {
        // Most clocks never drift; 128-bit division is the dearest thing on the hot path.
        if self.drift_ppm == 0 {
            let now = i64::try_from(now.0).unwrap_or(i64::MAX);
            return LocalTime(now.saturating_add(self.offset_ms));
        }
        let drifted = i128::from(now.0) * i128::from(self.drift_ppm) / PPM;
        LocalTime(clamp_i64(
            i128::from(now.0) + i128::from(self.offset_ms) + drifted,
        ))
    }

    /// Steps the wall clock, as NTP stepping or an operator setting the time would.
    pub fn jump(&mut self, by_ms: i64) {
        self.stepped_ms = self.stepped_ms.saturating_add(by_ms);
    }

    /// Changes the rate from `now` on without changing the current readings.
    pub fn set_drift(&mut self, now: VirtualTime, drift_ppm: i32) {
        let before = self.monotonic(now);
        self.drift_ppm = drift_ppm;
        let after = self.monotonic(now);
        self.offset_ms = self.offset_ms.saturating_add(before.since(after));
    }

    pub fn drift_ppm(&self) -> i32 {
        self.drift_ppm
    }

    /// How much true time passes while this clock advances by `local`: a timer set for `local`
    /// milliseconds by this node fires after that much true time. Never less than 1 ms for a
    /// non-zero span, so a timer always lies in the future.
    pub fn true_span(&self, local: Millis) -> Millis {
        if self.drift_ppm == 0 {
            return local;
        }
        let rate = PPM + i128::from(self.drift_ppm);
        if rate <= 0 {
            return Millis(u64::MAX / 4);
        }
        let span = i128::from(local.0) * PPM / rate;
        let span = u64::try_from(span).unwrap_or(u64::MAX / 4);
        Millis(if local.0 > 0 { span.max(1) } else { 0 })
    }
}

fn clamp_i64(value: i128) -> i64 {
    i64::try_from(value).unwrap_or(if value < 0 { i64::MIN } else { i64::MAX })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_perfect_clock_reads_true_time() {
        assert_eq!(
            LocalClock::default().read(VirtualTime(1234)),
            LocalTime(1234)
        );
    }

    #[test]
    fn offset_and_drift_add_up() {
        let clock = LocalClock::new(-50, 100_000);
        assert_eq!(clock.read(VirtualTime(1000)), LocalTime(1000 - 50 + 100));
    }

    #[test]
    fn a_jump_moves_the_reading_at_once() {
        let mut clock = LocalClock::default();
        clock.jump(5000);
        assert_eq!(clock.read(VirtualTime(10)), LocalTime(5010));
    }

    #[test]
    fn a_jump_leaves_the_monotonic_reading_alone() {
        let mut clock = LocalClock::new(20, 0);
        clock.jump(-5000);
        assert_eq!(
            clock.read_by(Reading::Monotonic, VirtualTime(10)),
            LocalTime(30)
        );
        assert_eq!(
            clock.read_by(Reading::Wall, VirtualTime(10)),
            LocalTime(-4970)
        );
    }

    #[test]
    fn a_wrong_rate_moves_both_readings() {
        let mut clock = LocalClock::default();
        clock.jump(100);
        clock.set_drift(VirtualTime(1000), 500_000);
        assert_eq!(
            clock.read_by(Reading::Monotonic, VirtualTime(2000)),
            LocalTime(2500)
        );
        assert_eq!(
            clock.read_by(Reading::Wall, VirtualTime(2000)),
            LocalTime(2600)
        );
    }

    #[test]
    fn changing_drift_keeps_the_reading_continuous() {
        let mut clock = LocalClock::new(0, 0);
        clock.set_drift(VirtualTime(1000), 500_000);
        assert_eq!(clock.read(VirtualTime(1000)), LocalTime(1000));
        assert_eq!(clock.read(VirtualTime(2000)), LocalTime(2500));
    }

    #[test]
    fn a_fast_clock_fires_timers_early_in_true_time() {
        let fast = LocalClock::new(0, 1_000_000);
        assert_eq!(fast.true_span(Millis(1000)), Millis(500));
        assert_eq!(LocalClock::default().true_span(Millis(0)), Millis(0));
        assert_eq!(LocalClock::default().true_span(Millis(1)), Millis(1));
    }
}
