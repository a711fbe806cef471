//! Redis's `MONITOR` stream, collected while a run plays: what an operator would capture to
//! convert into a recorded history (`crate::convert`). Its own connection and thread; stopped by
//! a marker command sent on another connection, so no read ever times out.

use super::RedisServer;
use crate::server::ServerError;
use std::thread::{self, JoinHandle};

/// The `ECHO` whose appearance ends the collection.
const END: &str = "lockstep-monitor-end";

pub struct MonitorTap {
    thread: JoinHandle<redis::RedisResult<String>>,
}

impl MonitorTap {
    /// Starts collecting; it sees every command the server executes from now on.
    pub fn start(server: &RedisServer) -> Result<MonitorTap, ServerError> {
        let mut connection = server.connect()?;
        connection.send_packed_command(&redis::cmd("MONITOR").get_packed_command())?;
        // MONITOR's first answer is its OK: once read, the tap is on.
        connection.recv_response()?;
        let thread = thread::spawn(move || {
            let mut lines = String::new();
            loop {
                let line = match connection.recv_response()? {
                    redis::Value::SimpleString(line) => line,
                    redis::Value::BulkString(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
                    other => format!("{other:?}"),
                };
                if line.contains(END) {
                    return Ok(lines);
                }
                lines.push_str(&line);
                lines.push('\n');
            }
        });
        Ok(MonitorTap { thread })
    }

    /// Stops collecting and returns every line seen, as `redis-cli monitor` prints them.
    pub fn finish(self, server: &RedisServer) -> Result<String, ServerError> {
        redis::cmd("ECHO")
            .arg(END)
            .query::<String>(&mut server.connect()?)?;
        Ok(self
            .thread
            .join()
            .map_err(|_| ServerError::MonitorPanicked)??)
    }
}
