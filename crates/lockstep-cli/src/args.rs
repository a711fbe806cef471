//! The arguments several commands share, as clap reads them: the output format and the whole
//! numbers with their ranges. It names no command, so every command may use it and none is
//! used by it.

use std::fmt::Display;
use std::num::NonZeroUsize;
use std::ops::RangeInclusive;
use std::str::FromStr;

/// How a command prints its result.
#[derive(Debug, PartialEq, Eq, Clone, Copy, clap::ValueEnum)]
pub enum Format {
    Text,
    Json,
}

/// The most threads one command may ask for.
pub const MAX_THREADS: NonZeroUsize = NonZeroUsize::new(64).expect("64 is not zero");

/// A value parser for a whole number within `range`. Its error is the words the usage message
/// shows after the flag and the value: `--runs: "0" is not a whole number from 1 to 1000000`.
pub fn whole<T>(
    range: RangeInclusive<T>,
) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Clone + Send + Sync + 'static,
{
    move |text| {
        text.parse()
            .ok()
            .filter(|number| range.contains(number))
            .ok_or_else(|| {
                format!(
                    "is not a whole number from {} to {}",
                    range.start(),
                    range.end()
                )
            })
    }
}

/// Any seed: a whole number from 0 to the largest `u64`.
pub fn seed() -> impl Fn(&str) -> Result<u64, String> + Clone + Send + Sync + 'static {
    whole(0..=u64::MAX)
}

/// A thread count, from 1 to [`MAX_THREADS`].
pub fn threads() -> impl Fn(&str) -> Result<NonZeroUsize, String> + Clone + Send + Sync + 'static {
    whole(NonZeroUsize::MIN..=MAX_THREADS)
}
