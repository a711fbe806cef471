//! An intervention in a few words, as a command: "crash redis-primary", "cut the link between
//! client-1 and redis-d". The one wording of every intervention kind, for the CLI's comparisons
//! and the app's intervention log alike (they used to word them each their own way).
//!
//! It says what a user asks for, not what came of it: the narration of the events an
//! intervention causes is `describe`'s.

use crate::vocabulary::happening::Direction;
use crate::world::intervention::Action;
use std::fmt;

impl<N: fmt::Display> fmt::Display for Action<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Pause {
                node,
                for_ms: Some(ms),
            } => write!(f, "pause {node} for {} ms", ms.0),
            Action::Pause { node, for_ms: None } => write!(f, "pause {node} until resumed"),
            Action::Resume { node } => write!(f, "resume {node}"),
            Action::Crash { node } => write!(f, "crash {node}"),
            Action::Restart { node } => write!(f, "restart {node}"),
            Action::ClockJump { node, by_ms } => write!(
                f,
                "jump {node}'s clock {} by {} ms",
                if *by_ms < 0 { "back" } else { "forward" },
                by_ms.unsigned_abs()
            ),
            Action::ClockDrift { node, drift_ppm } => match drift_ppm.signum() {
                0 => write!(f, "set {node}'s clock to the true rate"),
                sign => write!(
                    f,
                    "make {node}'s clock run {} by {} ppm",
                    if sign > 0 { "fast" } else { "slow" },
                    drift_ppm.unsigned_abs()
                ),
            },
            Action::Partition {
                from,
                to,
                direction: Direction::Both,
            } => write!(f, "cut the link between {from} and {to}"),
            Action::Partition {
                from,
                to,
                direction: Direction::OneWay,
            } => write!(f, "cut the link from {from} to {to}"),
            Action::Heal { a, b } => write!(f, "heal the link between {a} and {b}"),
            Action::Hold { message } => write!(f, "hold message {}", message.0),
            Action::Release { message } => write!(f, "release message {}", message.0),
            Action::Drop { message } => write!(f, "drop message {}", message.0),
            Action::ForceExpire {} => f.write_str("force the lease to expire"),
            Action::Failover {} => f.write_str("fail over to the replica"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::world::ids::MessageId;

    fn words(action: Action<&str>) -> String {
        action.to_string()
    }

    #[test]
    fn a_clock_jump_says_its_direction_in_words() {
        let jump = |by_ms| Action::ClockJump {
            node: "redis-c",
            by_ms,
        };
        assert_eq!(
            words(jump(15000)),
            "jump redis-c's clock forward by 15000 ms"
        );
        assert_eq!(words(jump(-500)), "jump redis-c's clock back by 500 ms");
    }

    #[test]
    fn a_drift_says_fast_slow_or_true() {
        let drift = |drift_ppm| Action::ClockDrift {
            node: "etcd-1",
            drift_ppm,
        };
        assert_eq!(words(drift(200)), "make etcd-1's clock run fast by 200 ppm");
        assert_eq!(words(drift(-50)), "make etcd-1's clock run slow by 50 ppm");
        assert_eq!(words(drift(0)), "set etcd-1's clock to the true rate");
    }

    #[test]
    fn a_cut_says_whether_it_is_one_way() {
        let cut = |direction| Action::Partition {
            from: "client-1",
            to: "redis-d",
            direction,
        };
        assert_eq!(
            words(cut(Direction::Both)),
            "cut the link between client-1 and redis-d"
        );
        assert_eq!(
            words(cut(Direction::OneWay)),
            "cut the link from client-1 to redis-d"
        );
        assert_eq!(
            words(Action::Hold {
                message: MessageId(7)
            }),
            "hold message 7"
        );
    }
}
