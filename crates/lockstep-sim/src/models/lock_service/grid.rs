//! A lock in an AP in-memory data grid (Hazelcast 3.8.3 before its CP subsystem, S19): every
//! member can grant the lock from its own copy and tells the others afterwards. While the
//! network is whole the copies agree; split it, and each side keeps granting on its own.

use super::cache::CacheLock;
use serde::{Deserialize, Serialize};

/// One member of the grid.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GridMember {
    pub store: CacheLock,
    /// How many members the grid has (node ids `0..members`).
    pub members: u8,
}

#[cfg(test)]
mod tests {
    use crate::models::lock_service::{Backend, CacheLock, GridMember, LockService, TokenSource};
    use crate::vocabulary::happening::Happening;
    use crate::vocabulary::lock_value::LockValue;
    use crate::vocabulary::message::Payload;
    use crate::world::ids::NodeId;
    use crate::world::node::{Command, Ctx};
    use crate::world::time::{LocalTime, Millis, VirtualTime};
    use crate::world::token::FencingToken;

    fn member() -> LockService {
        LockService::new(Backend::Grid(GridMember {
            store: CacheLock::new("lock".into(), TokenSource::None, FencingToken(0)),
            members: 3,
        }))
    }

    #[test]
    fn a_grant_is_told_to_every_other_member() {
        let mut m = member();
        let mut commands = Vec::new();
        let mut timers = 0;
        let mut ctx = Ctx::new(
            VirtualTime(0),
            LocalTime(0),
            NodeId(0),
            None,
            &mut commands,
            &mut timers,
        );
        let acquire = Payload::Acquire {
            ttl: Millis(100),
            value: LockValue(1),
        };
        assert!(matches!(
            m.on_message(&mut ctx, NodeId(5), acquire),
            Happening::Granted { .. }
        ));
        let told: Vec<NodeId> = commands
            .iter()
            .filter_map(|c| match c {
                Command::Send {
                    to,
                    payload: Payload::Replicate(_),
                } => Some(*to),
                _ => None,
            })
            .collect();
        assert_eq!(told, vec![NodeId(1), NodeId(2)]);
    }

    #[test]
    fn a_member_that_never_heard_grants_the_lock_again() {
        let (mut a, mut b) = (member(), member());
        let mut commands = Vec::new();
        let mut timers = 0;
        let acquire = |value| Payload::Acquire {
            ttl: Millis(100),
            value: LockValue(value),
        };
        let mut ctx = Ctx::new(
            VirtualTime(0),
            LocalTime(0),
            NodeId(0),
            None,
            &mut commands,
            &mut timers,
        );
        a.on_message(&mut ctx, NodeId(5), acquire(1));
        let mut ctx = Ctx::new(
            VirtualTime(0),
            LocalTime(0),
            NodeId(1),
            None,
            &mut commands,
            &mut timers,
        );
        let second = b.on_message(&mut ctx, NodeId(6), acquire(2));
        assert!(
            matches!(second, Happening::Granted { .. }),
            "split brain: both sides grant"
        );
    }
}
