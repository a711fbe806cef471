//! Redis `MONITOR` output, one command per line as the server executed it:
//! `1764756000.123456 [0 127.0.0.1:53412] "SET" "lock:job" "client-a:0" "NX" "PX" "1000"`.
//! A command a Lua script ran shows `[0 lua]`; it is the script's doing, not a client's.

use std::fmt;

/// One command the server executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MonitorLine {
    /// Server time, in microseconds since the Unix epoch.
    pub at_us: u64,
    /// The client's address (`127.0.0.1:53412`), or `lua` for a script's own command.
    pub from: String,
    /// The command and its arguments, unquoted.
    pub words: Vec<String>,
}

/// A line that is not MONITOR's shape: its number (1-based) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

/// Every command of `text`; the `OK` MONITOR prints first and blank lines are skipped.
pub fn parse(text: &str) -> Result<Vec<MonitorLine>, LineError> {
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && l.trim() != "OK")
        .map(|(i, l)| {
            line(l).map_err(|reason| LineError {
                line: i + 1,
                reason,
            })
        })
        .collect()
}

fn line(text: &str) -> Result<MonitorLine, String> {
    let (time, rest) = text
        .split_once(' ')
        .ok_or("expected a time, a [db address] and the command")?;
    let at_us = micros(time).ok_or_else(|| format!("\"{time}\" is not a Unix time"))?;
    let rest = rest
        .strip_prefix('[')
        .ok_or("expected [db address] after the time")?;
    let (origin, command) = rest
        .split_once("] ")
        .ok_or("expected ] after the address")?;
    let from = origin
        .split_once(' ')
        .map_or(origin, |(_db, from)| from)
        .to_owned();
    Ok(MonitorLine {
        at_us,
        from,
        words: quoted(command)?,
    })
}

/// `1764756000.123456` as microseconds.
fn micros(text: &str) -> Option<u64> {
    let (seconds, fraction) = text.split_once('.')?;
    let fraction = format!("{fraction:0<6}");
    Some(seconds.parse::<u64>().ok()? * 1_000_000 + fraction.get(..6)?.parse::<u64>().ok()?)
}

/// The double-quoted words MONITOR prints, with its escapes (`\"`, `\\`, `\n`, `\xNN`) undone.
fn quoted(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut chars = text.chars();
    loop {
        match chars.next() {
            None => return Ok(words),
            Some(' ') => {}
            Some('"') => {
                let mut word = String::new();
                loop {
                    match chars.next() {
                        None => return Err("a quoted word does not end".to_owned()),
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some('n') => word.push('\n'),
                            Some('r') => word.push('\r'),
                            Some('t') => word.push('\t'),
                            Some('x') => {
                                let hex: String = chars.by_ref().take(2).collect();
                                let byte = u8::from_str_radix(&hex, 16)
                                    .map_err(|_| format!("\\x{hex} is not a byte"))?;
                                word.push(char::from(byte));
                            }
                            Some(other) => word.push(other),
                            None => return Err("a quoted word ends in \\".to_owned()),
                        },
                        Some(c) => word.push(c),
                    }
                }
                words.push(word);
            }
            Some(other) => return Err(format!("expected a quoted word, found {other:?}")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn monitor_lines_read_as_time_origin_and_words() {
        let lines = parse(
            "OK\n1764756000.123456 [0 127.0.0.1:53412] \"SET\" \"lock\" \"a b\\\"c\" \"NX\"\n\
             1764756000.5 [0 lua] \"del\" \"lock\"\n",
        )
        .expect("reads");
        assert_eq!(lines[0].at_us, 1_764_756_000_123_456);
        assert_eq!(lines[0].from, "127.0.0.1:53412");
        assert_eq!(lines[0].words, ["SET", "lock", "a b\"c", "NX"]);
        assert_eq!(
            (lines[1].at_us % 1_000_000, lines[1].from.as_str()),
            (500_000, "lua")
        );
        assert_eq!(
            parse("x [0 a] \"GET\"").map_err(|e| e.to_string()),
            Err("line 1: \"x\" is not a Unix time".to_owned())
        );
        assert!(parse("1.0 [0 a] \"GET").is_err());
    }
}
