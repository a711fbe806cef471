//! `LockService::role`, `LockService::record` and `LockService::storage`: one reading per
//! design, by hand.

use super::{
    Backend, CacheLock, ConsensusConfig, KnownBug, LockService, NodeRole, Record, Replica,
    Replicated, Role, SqlRow, Storage, TokenSource, Waiting,
};
use crate::vocabulary::cache_entry::CacheEntry;
use crate::vocabulary::lock_value::LockValue;
use crate::vocabulary::raft::LockKey;
use crate::world::ids::NodeId;
use crate::world::time::{LocalTime, Millis};
use crate::world::token::FencingToken;

fn row_held_until(until: i64) -> LockService {
    let mut row = SqlRow::new("inventory".to_owned(), FencingToken(7));
    row.holder_id = Some(NodeId(3));
    row.expires_at = Some(LocalTime(until));
    LockService::new(Backend::SqlRow(row))
}

fn cache_set_until(until: i64) -> CacheLock {
    let mut cache = CacheLock::new("lock".to_owned(), TokenSource::Counter, FencingToken(0));
    cache.entry = Some(CacheEntry {
        value: LockValue(1),
        owner: NodeId(4),
        token: Some(FencingToken(2)),
        expires_at: LocalTime(until),
    });
    cache
}

fn replica(role: crate::models::lock_service::RaftRole, term: u32) -> Replica {
    let config = ConsensusConfig {
        replicas: 3,
        heartbeat: Millis(100),
        election_timeout: Millis(500),
        lock_delay: Millis(0),
        waiters: Waiting::FairQueue,
        bug: KnownBug::None,
    };
    let mut replica = Replica::new(1, config);
    replica.role = role;
    replica.term = term;
    replica
}

#[test]
fn a_sql_row_is_alone_and_its_row_stays_after_expiry_marked_not_live() {
    let service = row_held_until(100);
    assert_eq!(service.role(), NodeRole::Alone);
    let live = Record::Row {
        holder: NodeId(3),
        token: FencingToken(7),
        live: true,
    };
    assert_eq!(service.record(LocalTime(100)), live);
    assert_eq!(
        service.record(LocalTime(101)),
        Record::Row {
            holder: NodeId(3),
            token: FencingToken(7),
            live: false,
        }
    );
    let empty = LockService::new(Backend::SqlRow(SqlRow::new(
        "x".to_owned(),
        FencingToken(0),
    )));
    assert_eq!(empty.record(LocalTime(0)), Record::Empty);
}

#[test]
fn a_cache_key_is_gone_once_it_expires() {
    let service = LockService::new(Backend::Cache(cache_set_until(50)));
    assert_eq!(service.role(), NodeRole::Alone);
    let key = Record::Key {
        holder: NodeId(4),
        token: Some(FencingToken(2)),
    };
    assert_eq!(service.record(LocalTime(50)), key);
    assert_eq!(
        (key.holder(), key.token()),
        (Some(NodeId(4)), Some(FencingToken(2)))
    );
    assert_eq!(service.record(LocalTime(51)), Record::Empty);
}

#[test]
fn a_replicated_cache_says_primary_or_replica() {
    for (role, expected) in [
        (Role::Primary, NodeRole::Primary),
        (Role::Replica, NodeRole::Replica),
    ] {
        let node = Replicated {
            role,
            store: cache_set_until(50),
            peer: NodeId(1),
            failover_after: Millis(0),
            lag: Millis(0),
            shipping: None,
        };
        let service = LockService::new(Backend::Replicated(node));
        assert_eq!(service.role(), expected);
        assert_eq!(service.record(LocalTime(0)).holder(), Some(NodeId(4)));
    }
}

#[test]
fn a_replica_says_its_raft_role_with_its_term_and_its_lowest_key() {
    use crate::models::lock_service::RaftRole;
    for (role, expected) in [
        (RaftRole::Leader, NodeRole::Leader { term: 4 }),
        (RaftRole::Follower, NodeRole::Follower { term: 4 }),
        (RaftRole::Candidate, NodeRole::Candidate { term: 4 }),
    ] {
        let service = LockService::new(Backend::Consensus(replica(role, 4)));
        assert_eq!(service.role(), expected);
        assert_eq!(expected.term(), Some(4));
        assert_eq!(service.record(LocalTime(0)), Record::Empty);
    }
    let mut holding = replica(RaftRole::Follower, 2);
    for revision in [3, 5] {
        holding.table.keys.push(LockKey {
            client: NodeId(u16::try_from(revision).unwrap_or(0) + 2),
            value: LockValue(1),
            revision: FencingToken(revision),
            ttl: Millis(1000),
        });
    }
    let record = LockService::new(Backend::Consensus(holding)).record(LocalTime(0));
    assert_eq!(
        record,
        Record::LowestKey {
            holder: NodeId(5),
            revision: FencingToken(3),
        }
    );
    assert_eq!(NodeRole::Alone.term(), None);
}

#[test]
fn the_storage_lists_what_the_record_leaves_out() {
    let row = row_held_until(100);
    assert_eq!(
        row.storage(LocalTime(101)),
        Storage::Row {
            lock_name: "inventory",
            fencing_token: FencingToken(7),
            expires_at: Some(LocalTime(100)),
        }
    );
    let cache = LockService::new(Backend::Cache(cache_set_until(50)));
    assert_eq!(
        cache.storage(LocalTime(50)),
        Storage::Key {
            key: "lock",
            entry: Some((LockValue(1), LocalTime(50))),
        }
    );
    assert_eq!(
        cache.storage(LocalTime(51)),
        Storage::Key {
            key: "lock",
            entry: None,
        }
    );
    let mut leader = replica(crate::models::lock_service::RaftRole::Leader, 3);
    leader.commit = 2;
    leader.table.revision = FencingToken(9);
    let service = LockService::new(Backend::Consensus(leader));
    assert_eq!(
        service.storage(LocalTime(0)),
        Storage::Log {
            entries: 0,
            committed: 2,
            revision: FencingToken(9),
            waiting: 0,
        }
    );
}
