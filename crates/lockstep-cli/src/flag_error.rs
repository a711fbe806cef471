//! What can be wrong with the flags of a command that takes only `--flag value` pairs (`matrix`,
//! `hunt`): one error type, so that each command states only which values it takes.

use std::fmt;

#[derive(Debug, PartialEq, Eq)]
pub enum FlagError {
    MissingValue(String),
    /// The flag, its value, and what the flag takes.
    BadValue {
        flag: String,
        value: String,
        expected: &'static str,
    },
    Unexpected(String),
}

impl fmt::Display for FlagError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FlagError::MissingValue(flag) => write!(f, "{flag} needs a value"),
            FlagError::BadValue {
                flag,
                value,
                expected,
            } => write!(f, "{flag}: \"{value}\" is not {expected}"),
            FlagError::Unexpected(argument) => write!(f, "unexpected argument \"{argument}\""),
        }
    }
}

/// The arguments as the parser receives them, for tests.
#[cfg(test)]
pub fn args(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_owned()).collect()
}
