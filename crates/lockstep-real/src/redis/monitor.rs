//! Redis's `MONITOR` stream, collected while a run plays: what an operator would capture to
//! convert into a recorded history (`crate::convert`). Its own connection and thread; stopped by
//! a marker command sent on another connection, so no read ever times out.

use super::RedisServer;
use std::thread::{self, JoinHandle};

/// The `ECHO` whose appearance ends the collection.
const END: &str = "lockstep-monitor-end";

pub struct MonitorTap {
    thread: JoinHandle<Result<String, String>>,
}

impl MonitorTap {
    /// Starts collecting; it sees every command the server executes from now on.
    pub fn start(server: &RedisServer) -> Result<MonitorTap, String> {
        let mut connection = server.connect()?;
        connection
            .send_packed_command(&redis::cmd("MONITOR").get_packed_command())
            .map_err(|e| e.to_string())?;
        // MONITOR's first answer is its OK: once read, the tap is on.
        connection.recv_response().map_err(|e| e.to_string())?;
        let thread = thread::spawn(move || {
            let mut lines = String::new();
            loop {
                let line = match connection.recv_response().map_err(|e| e.to_string())? {
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
    pub fn finish(self, server: &RedisServer) -> Result<String, String> {
        redis::cmd("ECHO")
            .arg(END)
            .query::<String>(&mut server.connect()?)
            .map_err(|e| e.to_string())?;
        self.thread
            .join()
            .map_err(|_| "the MONITOR thread panicked".to_owned())?
    }
}
