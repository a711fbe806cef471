//! Running child processes: saying what runs before it runs, streaming its output to the
//! terminal, capturing it where a version has to be read, and turning failures into [`Error`]s.
//! Also the `==>` progress lines and the way durations are printed.

use std::fmt::Display;
use std::io::{self, BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use crate::error::Error;

/// A progress line: `==> message`, on stderr (stdout is kept for results such as `dist --json`).
pub fn say(message: impl Display) {
    eprintln!("==> {message}");
}

/// Runs `command` with its output streaming to the terminal, after printing it.
pub fn run(command: &mut Command) -> Result<(), Error> {
    let shown = describe(command);
    eprintln!("    $ {shown}");
    let status = command.status().map_err(|source| Error::Spawn {
        command: shown.clone(),
        source,
    })?;
    if status.success() {
        Ok(())
    } else {
        Err(Error::Failed {
            command: shown,
            status,
        })
    }
}

/// Runs `command` like [`run`], its stdout streaming to the terminal line by line as it comes,
/// and returns that stdout too: for `cargo xtask bench --write`, which keeps what it printed.
pub fn run_capturing(command: &mut Command) -> Result<String, Error> {
    let shown = describe(command);
    eprintln!("    $ {shown}");
    let spawn_error = |source| Error::Spawn {
        command: shown.clone(),
        source,
    };
    let mut child = command
        .stdout(Stdio::piped())
        .spawn()
        .map_err(spawn_error)?;
    let mut captured = String::new();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout).lines() {
            let line = line.map_err(Error::io(format!("reading the output of {shown}")))?;
            println!("{line}");
            captured.push_str(&line);
            captured.push('\n');
        }
    }
    let status = child.wait().map_err(spawn_error)?;
    if status.success() {
        Ok(captured)
    } else {
        Err(Error::Failed {
            command: shown,
            status,
        })
    }
}

/// Runs `command` after printing it, its stdout streaming to the terminal, and returns whether
/// it succeeded with its stderr, which is also shown once it has ended. For a check that reads
/// what a program says when it fails.
pub fn run_reading_stderr(command: &mut Command) -> Result<(bool, String), Error> {
    let shown = describe(command);
    eprintln!("    $ {shown}");
    let output = command
        .stdout(Stdio::inherit())
        .stderr(Stdio::piped())
        .output()
        .map_err(|source| Error::Spawn {
            command: shown,
            source,
        })?;
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    eprint!("{stderr}");
    Ok((output.status.success(), stderr))
}

/// Runs `command` quietly and returns its trimmed stdout, or `None` when the program is not
/// installed or exits unsuccessfully. For checks such as `trunk --version`.
pub fn probe(command: &mut Command) -> Result<Option<String>, Error> {
    let output = match command.stderr(Stdio::null()).output() {
        Ok(output) => output,
        Err(source) if source.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(source) => {
            return Err(Error::Spawn {
                command: describe(command),
                source,
            });
        }
    };
    if !output.status.success() {
        return Ok(None);
    }
    Ok(Some(
        String::from_utf8_lossy(&output.stdout).trim().to_string(),
    ))
}

/// A command as one would type it in a shell (program and arguments, quoted where needed).
pub fn describe(command: &Command) -> String {
    std::iter::once(command.get_program())
        .chain(command.get_args())
        .map(|part| {
            let part = part.to_string_lossy();
            let plain = !part.is_empty()
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_./=:@,+".contains(c));
            if plain {
                part.into_owned()
            } else {
                format!("'{}'", part.replace('\'', r"'\''"))
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A duration for people: `850 ms`, `4.2 s`, `14 min 03 s`.
pub fn human(duration: Duration) -> String {
    let seconds = duration.as_secs_f64();
    if seconds < 1.0 {
        format!("{} ms", duration.as_millis())
    } else if seconds < 60.0 {
        format!("{seconds:.1} s")
    } else {
        let whole = duration.as_secs();
        format!("{} min {:02} s", whole / 60, whole % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn describe_quotes_only_what_needs_it() {
        let mut command = Command::new("cargo");
        command.args(["clippy", "--", "-D", "warnings", "two words", ""]);
        assert_eq!(
            describe(&command),
            "cargo clippy -- -D warnings 'two words' ''"
        );
    }

    #[test]
    fn human_durations() {
        assert_eq!(human(Duration::from_millis(850)), "850 ms");
        assert_eq!(human(Duration::from_millis(4_240)), "4.2 s");
        assert_eq!(human(Duration::from_secs(843)), "14 min 03 s");
    }
}
