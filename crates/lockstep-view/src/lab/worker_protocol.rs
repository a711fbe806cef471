//! The messages between the page and the lab's Web Worker, as JSON text: the page sends a
//! [`Request`], the worker answers each with one [`Reply`]. The page sends small batches of
//! seeds and the next only after the reply, so that Stop takes effect at once and the progress
//! is live.
//!
//! Pure: this module only says what the messages are and reads and writes them; it never runs
//! anything (the app's `lab::worker` does) and never touches the browser. Reading never
//! panics: bad text is a [`ProtocolError`].

use lockstep_sim::analysis::chaos::{ChaosRun, ChaosSettings};
use lockstep_sim::analysis::search::{SearchConfig, SearchStatus};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Seeds `first..end` (the end not included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub struct SeedRange {
    pub first: u64,
    pub end: u64,
}

impl SeedRange {
    /// How many seeds the range holds.
    pub fn len(self) -> u64 {
        self.end.saturating_sub(self.first)
    }

    pub fn is_empty(self) -> bool {
        self.len() == 0
    }

    pub fn seeds(self) -> impl Iterator<Item = u64> {
        self.first..self.end
    }
}

/// The most seeds one request may ask for: a batch must stay short enough for Stop to be
/// prompt, and a request that asks for more is answered with [`Reply::Failed`].
pub const MAX_BATCH: u64 = 1_000;

/// What the page asks of the worker.
///
/// Both message types are externally tagged (`{"chaos": {…}}`), serde's default: an internally
/// or adjacently tagged enum is read through serde's buffered `Content`, whose code is repeated
/// for every type inside (the scenario, the search's configuration), and made the page's wasm
/// about 100 KB larger before compression.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Request {
    /// Run the chaos test with `settings` for every seed of `seeds`.
    Chaos {
        settings: ChaosSettings,
        seeds: SeedRange,
    },
    /// Start a counterexample search (replacing the one under way, if any); answered with its
    /// status before any state is explored.
    SearchStart { config: Box<SearchConfig> },
    /// Explore about `max_states` more states of the search under way.
    SearchAdvance { max_states: u64 },
}

/// What the worker answers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Reply {
    /// The worker has started and reads requests from now on (sent once, unasked).
    Ready,
    /// The runs of a [`Request::Chaos`], in seed order.
    ChaosRuns(Vec<ChaosRun>),
    /// Where the search stands after a [`Request::SearchStart`] or [`Request::SearchAdvance`].
    Search(SearchStatus),
    /// The request could not be answered, and why.
    Failed(String),
}

/// A message that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// The text is not a message of this kind; serde's reason.
    Unreadable { what: &'static str, reason: String },
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Unreadable { what, reason } => {
                write!(f, "the {what} cannot be read: {reason}")
            }
        }
    }
}

impl Request {
    pub fn to_json(&self) -> String {
        // Serialising these plain types cannot fail (no maps with non-string keys, no
        // non-finite floats); an empty text would be answered with `Failed`.
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Request, ProtocolError> {
        serde_json::from_str(text).map_err(|e| ProtocolError::Unreadable {
            what: "request",
            reason: e.to_string(),
        })
    }
}

impl Reply {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    pub fn from_json(text: &str) -> Result<Reply, ProtocolError> {
        serde_json::from_str(text).map_err(|e| ProtocolError::Unreadable {
            what: "reply",
            reason: e.to_string(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::{Broken, DataVerdict, WritersVerdict, run_chaos};
    use lockstep_sim::models::resource::Fencing;
    use lockstep_sim::vocabulary::invariant::Invariant;
    use lockstep_sim::world::time::VirtualTime;

    #[test]
    fn requests_and_replies_round_trip() {
        let request = Request::Chaos {
            settings: ChaosSettings::verification_test(Fencing::Off),
            seeds: SeedRange { first: 7, end: 32 },
        };
        assert_eq!(Request::from_json(&request.to_json()), Ok(request));
        let run = ChaosRun {
            seed: 9,
            events: 1234,
            broken: vec![Broken {
                invariant: Invariant::NoStaleWrite,
                first_at: VirtualTime(4_500),
                first_event: 321,
            }],
            writers: WritersVerdict::TwoAtOnce {
                first_event: 400,
                first_at: VirtualTime(5_100),
            },
            data: DataVerdict::Lost {
                accepted: 40,
                lost: 2,
                diverged_at: Some(7),
            },
        };
        for reply in [
            Reply::Ready,
            Reply::ChaosRuns(vec![run]),
            Reply::Failed("no".to_owned()),
        ] {
            assert_eq!(Reply::from_json(&reply.to_json()), Ok(reply));
        }
    }

    #[test]
    fn a_real_run_crosses_intact() {
        let settings = ChaosSettings::verification_test(Fencing::Off);
        let run = run_chaos(&settings, 3);
        assert!(run.events > 1_000, "a chaos run has events: {run:?}");
        let reply = Reply::ChaosRuns(vec![run.clone()]);
        assert_eq!(
            Reply::from_json(&reply.to_json()),
            Ok(Reply::ChaosRuns(vec![run]))
        );
    }

    #[test]
    fn bad_text_is_an_error_that_says_what() {
        let error = Request::from_json("{\"chaos\":{}}").expect_err("no settings");
        assert!(
            error
                .to_string()
                .starts_with("the request cannot be read: ")
        );
        assert!(error.to_string().contains("settings"), "{error}");
        assert!(Request::from_json("").is_err());
        assert!(Reply::from_json("{\"sideways\":[]}").is_err());
    }

    #[test]
    fn a_range_counts_its_seeds() {
        let range = SeedRange { first: 5, end: 8 };
        assert_eq!(range.len(), 3);
        assert_eq!(range.seeds().collect::<Vec<_>>(), vec![5, 6, 7]);
        assert!(SeedRange { first: 8, end: 5 }.is_empty());
    }
}
