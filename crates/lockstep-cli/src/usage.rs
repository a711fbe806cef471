//! A clap error in the words `lockstep-cli` has always used: `--runs: "0" is not a whole number
//! from 1 to 1000000`, `unknown command "fly"`. Clap finds what is wrong; this only words it.
//! An error clap reports that the CLI never words is passed on in clap's own words.

use clap::error::{ContextKind, ContextValue, ErrorKind};
use std::error::Error as _;

/// The words for `error`, raised while parsing the arguments of `command` (the first argument).
pub fn words(error: &clap::Error, command: Option<&str>) -> String {
    let flag = context(error, ContextKind::InvalidArg);
    // "--seed <N>" names the flag and its value; the message names only the flag.
    let flag = flag.split(' ').next().unwrap_or_default();
    let value = context(error, ContextKind::InvalidValue);
    match error.kind() {
        ErrorKind::MissingSubcommand | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            "no command given".to_owned()
        }
        ErrorKind::InvalidSubcommand => format!(
            "unknown command \"{}\"",
            context(error, ContextKind::InvalidSubcommand)
        ),
        // The only required argument of any command is its file: a lock setup for
        // `check-setup`, a scenario for the others.
        ErrorKind::MissingRequiredArgument if command == Some("check-setup") => {
            "`check-setup` needs a lock-setup file (docs/lock-setup.md)".to_owned()
        }
        ErrorKind::MissingRequiredArgument => format!(
            "`{}` needs a scenario file or built-in id",
            command.unwrap_or_default()
        ),
        ErrorKind::InvalidValue if value.is_empty() => format!("{flag} needs a value"),
        ErrorKind::InvalidValue => format!(
            "{flag}: \"{value}\" is not one of {}",
            context(error, ContextKind::ValidValue)
        ),
        ErrorKind::ValueValidation => match error.source() {
            Some(reason) => format!("{flag}: \"{value}\" {reason}"),
            None => clap_words(error),
        },
        ErrorKind::ArgumentConflict if context(error, ContextKind::PriorArg).starts_with(flag) => {
            format!("{flag} is given twice")
        }
        ErrorKind::UnknownArgument => format!("unexpected argument \"{flag}\""),
        _ => clap_words(error),
    }
}

/// One piece of the error's context as text; lists joined with commas.
fn context(error: &clap::Error, kind: ContextKind) -> String {
    match error.get(kind) {
        Some(ContextValue::String(text)) => text.clone(),
        Some(ContextValue::Strings(list)) => list.join(", "),
        Some(other) => other.to_string(),
        None => String::new(),
    }
}

/// Clap's own message, without its "error: " and its hints.
fn clap_words(error: &clap::Error) -> String {
    let rendered = error.render().to_string();
    let first = rendered.lines().next().unwrap_or_default();
    first.trim_start_matches("error: ").to_owned()
}
