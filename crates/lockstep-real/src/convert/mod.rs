//! An example converter from one common log shape to Lockstep's recorded-history format
//! (`docs/history-format.md`): Redis `MONITOR` output for the lock ([`monitor`]) and an
//! application log of the resource's reads and writes in logfmt ([`app_log`]).
//!
//! MONITOR prints each command as the server executes it, with the server's time, but not its
//! reply, so the converter replays the lock's key to know each reply: a `SET key value NX PX
//! ttl` is granted when the key is absent or expired at that moment; a compare-and-delete
//! `EVAL` releases it when the key still holds the caller's value; a plain `DEL` releases
//! whatever is there. Clients are named by `CLIENT SETNAME`, which well-behaved clients send
//! when they connect (an unnamed connection is named by its address). A command is sent and
//! answered at the server's moment: MONITOR knows no round trip. The application log's times
//! are Unix milliseconds from the same machine's clock.
//!
//! `cargo run -p lockstep-real --example redis_monitor_to_history -- MONITOR.log APP.log --key
//! KEY` prints the history; `tests/convert.rs` converts a real Redis run's logs and checks the
//! verdicts against the run's own recording.

pub mod app_log;
pub mod monitor;

use app_log::{AppLine, AppOp};
use lockstep_sim::story::recorded::{
    Acquired, HistoryError, Operation, RecordedFencing, RecordedHistory, Recording, Request,
    Written,
};
use monitor::{LineError, MonitorLine};
use std::collections::BTreeMap;
use std::fmt;

/// What the logs do not say: the lock's key, and the names and facts the history carries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub key: String,
    /// Connections that are not clients (an operator's, a set-up script's), by the name they
    /// set: their commands are left out.
    pub ignore: Vec<String>,
    pub title: String,
    pub recorded: Recording,
    pub lock_service: String,
    pub resource: String,
    pub initial_value: i64,
    pub fencing: RecordedFencing,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConvertError {
    Monitor(LineError),
    AppLog(LineError),
    /// A lock command on the key without the arguments it needs.
    Command {
        line: usize,
        reason: String,
    },
    /// Nothing in either log: no history to write.
    Empty,
    /// The logs do not make one history (a read answered without its value, say).
    History(HistoryError),
}

impl fmt::Display for ConvertError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConvertError::Monitor(e) => write!(f, "the MONITOR output, {e}"),
            ConvertError::AppLog(e) => write!(f, "the application log, {e}"),
            ConvertError::Command { line, reason } => {
                write!(f, "the MONITOR output, command {line}: {reason}")
            }
            ConvertError::Empty => {
                f.write_str("neither log has a request for this lock or resource")
            }
            ConvertError::History(e) => write!(f, "the logs do not make one history: {e}"),
        }
    }
}

impl std::error::Error for ConvertError {}

/// The history the two logs tell.
pub fn convert(
    monitor: &str,
    app: &str,
    setting: &Setting,
) -> Result<RecordedHistory, ConvertError> {
    let commands = monitor::parse(monitor).map_err(ConvertError::Monitor)?;
    let requests = app_log::parse(app).map_err(ConvertError::AppLog)?;
    let base_ms = commands
        .iter()
        .map(|c| c.at_us / 1000)
        .chain(requests.iter().map(|r| r.at_ms))
        .min()
        .ok_or(ConvertError::Empty)?;
    let mut operations = lock_operations(&commands, setting, base_ms)?;
    operations.extend(requests.iter().map(|r| resource_operation(r, base_ms)));
    if operations.is_empty() {
        return Err(ConvertError::Empty);
    }
    operations.sort_by_key(|o| o.at_ms);
    // Read back as a file is read, so that what the logs say holds together as one history.
    RecordedHistory::from_file(
        RecordedHistory {
            title: setting.title.clone(),
            scenario: None,
            recorded: setting.recorded.clone(),
            lock_service: setting.lock_service.clone(),
            resource: setting.resource.clone(),
            initial_value: setting.initial_value,
            fencing: setting.fencing,
            quorum: 1,
            operations,
            faults: Vec::new(),
        }
        .to_file(),
    )
    .map_err(ConvertError::History)
}

/// The key as the server holds it: the value and when it expires (µs).
type Key = Option<(String, u64)>;

fn lock_operations(
    commands: &[MonitorLine],
    setting: &Setting,
    base_ms: u64,
) -> Result<Vec<Operation>, ConvertError> {
    let mut names: BTreeMap<&str, String> = BTreeMap::new();
    let mut held: Key = None;
    let mut operations = Vec::new();
    for (index, command) in commands.iter().enumerate() {
        let words: Vec<&str> = command.words.iter().map(String::as_str).collect();
        if command.from == "lua" {
            continue;
        }
        if let [client, setname, name, ..] = words.as_slice()
            && client.eq_ignore_ascii_case("CLIENT")
            && setname.eq_ignore_ascii_case("SETNAME")
        {
            names.insert(&command.from, (*name).to_owned());
            continue;
        }
        let Some(request) = replay(&mut held, command, &words, &setting.key, index)? else {
            continue;
        };
        let client = names
            .get(command.from.as_str())
            .cloned()
            .unwrap_or_else(|| command.from.clone());
        if setting.ignore.contains(&client) {
            continue;
        }
        let at_ms = command.at_us / 1000 - base_ms;
        operations.push(Operation {
            client,
            at_ms,
            answered_ms: Some(at_ms),
            server: None,
            request,
        });
    }
    Ok(operations)
}

/// One command applied to the key as the server holds it (`held`): the lock request it was,
/// with the answer the server gave, or `None` for a command that is not one.
fn replay(
    held: &mut Key,
    command: &MonitorLine,
    words: &[&str],
    key: &str,
    index: usize,
) -> Result<Option<Request>, ConvertError> {
    let live = held.clone().filter(|(_, expires)| command.at_us < *expires);
    let upper = words
        .first()
        .map(|w| w.to_ascii_uppercase())
        .unwrap_or_default();
    Ok(Some(match (upper.as_str(), words.get(1)) {
        ("SET", Some(k)) if *k == key && has(words, "NX") => {
            let ttl_ms = after(words, "PX").ok_or_else(|| ConvertError::Command {
                line: index + 1,
                reason: "a SET NX without PX: this converter reads leases in milliseconds"
                    .to_owned(),
            })?;
            if live.is_some() {
                return Ok(Some(Request::Acquire(Some(Acquired::Refused))));
            }
            let value = words.get(2).copied().unwrap_or_default().to_owned();
            *held = Some((value, command.at_us + ttl_ms * 1000));
            Request::Acquire(Some(Acquired::Granted {
                token: None,
                ttl_ms: Some(ttl_ms),
            }))
        }
        ("EVAL" | "EVALSHA", _) if words.get(3) == Some(&key) => {
            let value = words.get(4).copied().unwrap_or_default();
            let released = live.is_some_and(|(v, _)| v == value);
            if released {
                *held = None;
            }
            Request::Release(Some(released))
        }
        ("DEL" | "UNLINK", Some(k)) if *k == key => {
            *held = None;
            Request::Release(Some(live.is_some()))
        }
        _ => return Ok(None),
    }))
}

fn has(words: &[&str], flag: &str) -> bool {
    words.iter().any(|w| w.eq_ignore_ascii_case(flag))
}

/// The number after `flag`.
fn after(words: &[&str], flag: &str) -> Option<u64> {
    let at = words.iter().position(|w| w.eq_ignore_ascii_case(flag))?;
    words.get(at + 1)?.parse().ok()
}

fn resource_operation(line: &AppLine, base_ms: u64) -> Operation {
    let at_ms = line.at_ms - base_ms;
    let answered_ms = line.took_ms.map(|took| at_ms + took);
    let request = match line.op {
        AppOp::Read { value } => Request::Read(value.filter(|_| answered_ms.is_some())),
        AppOp::Write {
            value,
            token,
            accepted,
        } => Request::Write {
            token,
            value,
            outcome: accepted.filter(|_| answered_ms.is_some()).map(|yes| {
                if yes {
                    Written::Accepted
                } else {
                    Written::Refused
                }
            }),
            applied_ms: None,
        },
    };
    Operation {
        client: line.client.clone(),
        at_ms,
        answered_ms,
        server: None,
        request,
    }
}
