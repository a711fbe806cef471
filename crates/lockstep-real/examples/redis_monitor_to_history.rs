//! Converts Redis `MONITOR` output and an application log (logfmt) into a recorded history on
//! standard output (`docs/history-format.md`):
//!
//! ```text
//! cargo run -p lockstep-real --example redis_monitor_to_history -- \
//!     monitor.log app.log --key lock:job [--title "…"] [--fencing on|off|unknown] \
//!     [--ignore lockstep-setup] > history.json
//! lockstep-cli check-trace history.json
//! ```
//!
//! The log shapes and how the lock's replies are worked out: `lockstep_real::convert`.

use lockstep_real::convert::{Setting, convert};
use lockstep_real::record::today;
use lockstep_sim::story::recorded::{RecordedFencing, Recording};
use std::process::ExitCode;

fn main() -> ExitCode {
    match run(&std::env::args().skip(1).collect::<Vec<_>>()) {
        Ok(json) => {
            println!("{json}");
            ExitCode::SUCCESS
        }
        Err(why) => {
            eprintln!("redis_monitor_to_history: {why}");
            ExitCode::from(2)
        }
    }
}

const USAGE: &str = "usage: redis_monitor_to_history MONITOR.log APP.log --key KEY [--title TITLE] \
                     [--fencing on|off|unknown] [--ignore CONNECTION-NAME]...";

fn run(args: &[String]) -> Result<String, String> {
    let [monitor, app, rest @ ..] = args else {
        return Err(USAGE.to_owned());
    };
    let mut key = None;
    let mut title = "A history converted from Redis MONITOR and an application log".to_owned();
    let mut fencing = RecordedFencing::Unknown;
    let mut ignore = Vec::new();
    for pair in rest.chunks(2) {
        match pair {
            [flag, value] if flag == "--key" => key = Some(value.clone()),
            [flag, value] if flag == "--title" => title.clone_from(value),
            [flag, value] if flag == "--ignore" => ignore.push(value.clone()),
            [flag, value] if flag == "--fencing" => {
                fencing = match value.as_str() {
                    "on" => RecordedFencing::On,
                    "off" => RecordedFencing::Off,
                    "unknown" => RecordedFencing::Unknown,
                    other => return Err(format!("--fencing {other}: on, off or unknown")),
                };
            }
            _ => return Err(USAGE.to_owned()),
        }
    }
    let read = |path: &String| std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"));
    let setting = Setting {
        key: key.ok_or(USAGE)?,
        ignore: ignore.clone(),
        title,
        recorded: Recording {
            by: "redis_monitor_to_history (lockstep-real's example converter)".to_owned(),
            on: today(),
            against: vec!["Redis".to_owned()],
        },
        lock_service: "redis".to_owned(),
        resource: "resource".to_owned(),
        initial_value: 0,
        fencing,
    };
    let history = convert(&read(monitor)?, &read(app)?, &setting).map_err(|e| e.to_string())?;
    serde_json::to_string_pretty(&history.to_file()).map_err(|e| e.to_string())
}
