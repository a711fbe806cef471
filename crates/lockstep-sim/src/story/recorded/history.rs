//! A recorded history, typed: each request with what it asked and what came back, and each
//! fault, checked against each other when read ([`RecordedHistory::from_file`]) and written
//! back as the file ([`RecordedHistory::to_file`]).

use super::error::HistoryError;
use super::file::{
    FaultKind, FileFault, HISTORY_FORMAT_VERSION, RecordedFencing, RecordedFile, Recording,
};
use super::operation;
use super::request::Operation;
use crate::vocabulary::happening::Direction;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedHistory {
    pub title: String,
    pub scenario: Option<String>,
    pub recorded: Recording,
    pub lock_service: String,
    pub resource: String,
    pub initial_value: i64,
    pub fencing: RecordedFencing,
    /// How many servers' grants make the lock (Redlock's majority); 1 for a single service.
    pub quorum: u32,
    /// In the order they were sent (the file's order among requests sent at the same time).
    pub operations: Vec<Operation>,
    /// In the order they were applied.
    pub faults: Vec<Fault>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub at_ms: u64,
    pub node: String,
    pub applied: Applied,
}

/// A fault, with what its kind needs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    Pause {
        for_ms: u64,
    },
    Crash,
    Restart,
    Failover,
    ClockJump {
        by_ms: i64,
    },
    /// The link between the fault's node and `peer` was cut: both ways, or only the node's
    /// messages to `peer`.
    Cut {
        peer: String,
        direction: Direction,
    },
}

impl RecordedHistory {
    /// The history a file holds, or the first thing in it that does not hold together.
    pub fn from_file(file: RecordedFile) -> Result<RecordedHistory, HistoryError> {
        let mut operations = file
            .operations
            .iter()
            .enumerate()
            .map(|(i, op)| operation::operation(i, op))
            .collect::<Result<Vec<_>, _>>()?;
        for (i, op) in operations.iter().enumerate() {
            if op.client == file.lock_service || op.client == file.resource {
                return Err(HistoryError::at_operation(
                    i,
                    "client",
                    format!(
                        "\"{}\" is the lock service's or the resource's name",
                        op.client
                    ),
                ));
            }
        }
        operations.sort_by_key(|op| op.at_ms);
        let mut faults = file
            .faults
            .iter()
            .enumerate()
            .map(|(i, f)| fault(i, f))
            .collect::<Result<Vec<_>, _>>()?;
        faults.sort_by_key(|f| f.at_ms);
        let quorum = file.quorum.unwrap_or(1);
        if quorum == 0 {
            return Err(HistoryError::Invalid {
                path: "quorum".to_owned(),
                reason: "a lock needs at least one server's grant".to_owned(),
            });
        }
        if operations.is_empty() {
            return Err(HistoryError::Invalid {
                path: "operations".to_owned(),
                reason: "a history needs at least one request".to_owned(),
            });
        }
        Ok(RecordedHistory {
            title: file.title,
            scenario: file.scenario,
            recorded: file.recorded,
            lock_service: file.lock_service,
            resource: file.resource,
            initial_value: file.initial_value,
            fencing: file.fencing,
            quorum,
            operations,
            faults,
        })
    }

    /// The file that holds this history.
    pub fn to_file(&self) -> RecordedFile {
        RecordedFile {
            history: HISTORY_FORMAT_VERSION,
            title: self.title.clone(),
            scenario: self.scenario.clone(),
            recorded: self.recorded.clone(),
            lock_service: self.lock_service.clone(),
            resource: self.resource.clone(),
            initial_value: self.initial_value,
            fencing: self.fencing,
            quorum: (self.quorum != 1).then_some(self.quorum),
            operations: self
                .operations
                .iter()
                .map(operation::file_operation)
                .collect(),
            faults: self.faults.iter().map(file_fault).collect(),
        }
    }

    /// The clients, in the order they first sent a request.
    pub fn clients(&self) -> Vec<&str> {
        let mut clients: Vec<&str> = Vec::new();
        for op in &self.operations {
            if !clients.contains(&op.client.as_str()) {
                clients.push(&op.client);
            }
        }
        clients
    }

    /// When the last thing recorded happened.
    pub fn end_ms(&self) -> u64 {
        let requests = self
            .operations
            .iter()
            .map(|op| op.answered_ms.unwrap_or(op.at_ms));
        let faults = self.faults.iter().map(|f| match f.applied {
            Applied::Pause { for_ms } => f.at_ms + for_ms,
            _ => f.at_ms,
        });
        requests.chain(faults).max().unwrap_or(0)
    }
}

fn fault(index: usize, fault: &FileFault) -> Result<Fault, HistoryError> {
    let at = |field: &str, reason: &str| HistoryError::Invalid {
        path: format!("faults[{index}].{field}"),
        reason: reason.to_owned(),
    };
    if fault.fault != FaultKind::Cut && fault.peer.is_some() {
        return Err(at("peer", "only a cut has another end"));
    }
    if fault.fault != FaultKind::Cut && fault.direction.is_some() {
        return Err(at("direction", "only a cut has a direction"));
    }
    let applied = match (fault.fault, fault.for_ms, fault.by_ms, &fault.peer) {
        (FaultKind::Pause, Some(for_ms), None, _) => Applied::Pause { for_ms },
        (FaultKind::Pause, None, _, _) => return Err(at("for_ms", "a pause needs its length")),
        (FaultKind::ClockJump, None, Some(by_ms), _) => Applied::ClockJump { by_ms },
        (FaultKind::ClockJump, _, None, _) => {
            return Err(at("by_ms", "a clock jump needs its size"));
        }
        (FaultKind::Cut, _, _, None) => return Err(at("peer", "a cut needs its other end")),
        (_, Some(_), _, _) => return Err(at("for_ms", "only a pause has a length")),
        (_, _, Some(_), _) => return Err(at("by_ms", "only a clock jump has a size")),
        (FaultKind::Cut, None, None, Some(peer)) => {
            if peer.is_empty() {
                return Err(at("peer", "is empty"));
            }
            Applied::Cut {
                peer: peer.clone(),
                direction: fault.direction.unwrap_or(Direction::Both),
            }
        }
        (FaultKind::Crash, None, None, _) => Applied::Crash,
        (FaultKind::Restart, None, None, _) => Applied::Restart,
        (FaultKind::Failover, None, None, _) => Applied::Failover,
    };
    if fault.node.is_empty() {
        return Err(at("node", "is empty"));
    }
    Ok(Fault {
        at_ms: fault.at_ms,
        node: fault.node.clone(),
        applied,
    })
}

fn file_fault(fault: &Fault) -> FileFault {
    let direction = match &fault.applied {
        Applied::Cut {
            direction: Direction::OneWay,
            ..
        } => Some(Direction::OneWay),
        _ => None,
    };
    let (kind, for_ms, by_ms, peer) = match &fault.applied {
        Applied::Pause { for_ms } => (FaultKind::Pause, Some(*for_ms), None, None),
        Applied::Crash => (FaultKind::Crash, None, None, None),
        Applied::Restart => (FaultKind::Restart, None, None, None),
        Applied::Failover => (FaultKind::Failover, None, None, None),
        Applied::ClockJump { by_ms } => (FaultKind::ClockJump, None, Some(*by_ms), None),
        Applied::Cut { peer, .. } => (FaultKind::Cut, None, None, Some(peer.clone())),
    };
    FileFault {
        at_ms: fault.at_ms,
        node: fault.node.clone(),
        fault: kind,
        for_ms,
        by_ms,
        peer,
        direction,
    }
}
