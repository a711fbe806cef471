//! The lab's Web Worker: answers [`Request`]s with [`Reply`]s, off the page's main thread. The
//! page loads it (`src/bin/lockstep-worker.rs`, built by Trunk as a worker) only when the chaos
//! lab first runs something.
//!
//! [`Worker::answer_text`] and [`deliver`] are pure and natively tested; [`start`] only wires
//! them to the worker's `postMessage`. Nothing here may panic: a panic would kill the worker and
//! the run with it, so whatever goes wrong is answered as [`Reply::Failed`] — a reply the browser
//! refuses to post included, so the page is never left waiting for an answer that cannot come.
//! When not even that can be posted, the worker throws, which the page hears as the worker's
//! `error` event (`crate::lab::workers` shows it as a failure too).

use lockstep_sim::analysis::chaos::run_chaos;
use lockstep_sim::analysis::search::Search;
use lockstep_view::lab::worker_protocol::{MAX_BATCH, Reply, Request};
use std::fmt;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// The most states one [`Request::SearchAdvance`] may ask for: a slice must stay short for
/// Stop to be prompt.
pub const MAX_SEARCH_SLICE: u64 = 100_000;

/// What the worker keeps between requests: the counterexample search under way.
#[derive(Default)]
pub struct Worker {
    search: Option<Search>,
}

impl Worker {
    pub fn answer(&mut self, request: Request) -> Reply {
        match request {
            Request::Chaos { settings, seeds } => {
                if seeds.len() > MAX_BATCH {
                    return Reply::Failed(format!(
                        "a batch may hold at most {MAX_BATCH} seeds; this one holds {}",
                        seeds.len()
                    ));
                }
                Reply::ChaosRuns(
                    seeds
                        .seeds()
                        .map(|seed| run_chaos(&settings, seed))
                        .collect(),
                )
            }
            Request::SearchStart { config } => match Search::new(&config) {
                Ok(search) => {
                    let status = search.status();
                    self.search = Some(search);
                    Reply::Search(status)
                }
                Err(error) => {
                    self.search = None;
                    Reply::Failed(format!("the search cannot start: {error}"))
                }
            },
            Request::SearchAdvance { max_states } => match &mut self.search {
                _ if max_states > MAX_SEARCH_SLICE => Reply::Failed(format!(
                    "a slice may explore at most {MAX_SEARCH_SLICE} states, not {max_states}"
                )),
                Some(search) => Reply::Search(search.advance(max_states)),
                None => Reply::Failed("no search has been started".to_owned()),
            },
        }
    }

    /// The reply's text to a request's text.
    pub fn answer_text(&mut self, text: &str) -> String {
        match Request::from_json(text) {
            Ok(request) => self.answer(request),
            Err(error) => Reply::Failed(error.to_string()),
        }
        .to_json()
    }
}

/// A reply the browser would not post to the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PostError {
    /// `postMessage` refused the reply, for the browser's reason; the page is told this instead.
    Refused(String),
    /// Not even the [`Reply::Failed`] saying so could be posted, for the browser's reason.
    Silenced(String),
}

impl fmt::Display for PostError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PostError::Refused(reason) => {
                write!(f, "the worker could not post its reply ({reason})")
            }
            PostError::Silenced(reason) => write!(
                f,
                "the worker could not post its reply, nor say so ({reason})"
            ),
        }
    }
}

/// Posts the reply `text` with `post`; when that is refused, posts a [`Reply::Failed`] that says
/// why instead. An error only when that is refused too: then nothing reaches the page.
pub fn deliver(
    text: &str,
    mut post: impl FnMut(&str) -> Result<(), String>,
) -> Result<(), PostError> {
    let Err(reason) = post(text) else {
        return Ok(());
    };
    let failed = Reply::Failed(PostError::Refused(reason).to_string()).to_json();
    post(&failed).map_err(PostError::Silenced)
}

/// Runs in the worker: answers every message with its reply, after saying it is ready.
pub fn start() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let mut worker = Worker::default();
    let reply_to = scope.clone();
    let post = move |text: &str| {
        reply_to
            .post_message(&JsValue::from_str(text))
            .map_err(|e| crate::platform::browser::reason(&e))
    };
    let mut post_to_page = post.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        let reply = worker.answer_text(&text);
        if let Err(error) = deliver(&reply, &mut post_to_page) {
            // No message gets through: an uncaught error is the one way left to tell the page
            // (its `error` event on the worker).
            wasm_bindgen::throw_str(&error.to_string());
        }
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    if let Err(error) = deliver(&Reply::Ready.to_json(), post) {
        wasm_bindgen::throw_str(&error.to_string());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::analysis::chaos::ChaosSettings;
    use lockstep_sim::models::resource::Fencing;
    use lockstep_view::lab::worker_protocol::SeedRange;

    #[test]
    fn a_reply_the_browser_refuses_is_answered_with_why() {
        let reply = Reply::Ready.to_json();
        let mut posted = Vec::new();
        let delivered = deliver(&reply, |text| {
            posted.push(text.to_owned());
            if posted.len() == 1 {
                Err("DataCloneError: refused".to_owned())
            } else {
                Ok(())
            }
        });
        assert_eq!(delivered, Ok(()));
        assert_eq!(posted.len(), 2, "{posted:?}");
        assert_eq!(
            Reply::from_json(&posted[1]),
            Ok(Reply::Failed(
                "the worker could not post its reply (DataCloneError: refused)".to_owned()
            ))
        );
        // Posted at once, it is posted once.
        let mut count = 0;
        assert_eq!(
            deliver(&reply, |_| {
                count += 1;
                Ok(())
            }),
            Ok(())
        );
        assert_eq!(count, 1);
        // Nothing gets through: the caller is told, to tell the page another way.
        assert_eq!(
            deliver(&reply, |_| Err("closing".to_owned())),
            Err(PostError::Silenced("closing".to_owned()))
        );
    }

    #[test]
    fn a_batch_is_answered_with_its_runs_in_seed_order() {
        let request = Request::Chaos {
            settings: ChaosSettings::verification_test(Fencing::On),
            seeds: SeedRange { first: 4, end: 7 },
        };
        let reply = Reply::from_json(&Worker::default().answer_text(&request.to_json()));
        let Ok(Reply::ChaosRuns(runs)) = reply else {
            panic!("runs: {reply:?}");
        };
        assert_eq!(
            runs.iter().map(|r| r.seed).collect::<Vec<_>>(),
            vec![4, 5, 6]
        );
    }

    #[test]
    fn bad_requests_are_answered_with_why() {
        let mut worker = Worker::default();
        let reply = Reply::from_json(&worker.answer_text("{not json"));
        assert!(
            matches!(&reply, Ok(Reply::Failed(why)) if why.starts_with("the request cannot be read")),
            "{reply:?}"
        );
        let huge = Request::Chaos {
            settings: ChaosSettings::verification_test(Fencing::On),
            seeds: SeedRange {
                first: 0,
                end: MAX_BATCH + 1,
            },
        };
        let reply = Reply::from_json(&worker.answer_text(&huge.to_json()));
        assert!(
            matches!(&reply, Ok(Reply::Failed(why)) if why.contains("at most")),
            "{reply:?}"
        );
    }

    fn search_config(fencing: Fencing) -> lockstep_sim::analysis::search::SearchConfig {
        use lockstep_sim::analysis::search::{Bounds, FaultBudget, SearchConfig};
        let mut base = lockstep_sim::scenario::catalogue::find("s1-gc-pause-unfenced")
            .and_then(|b| b.load().ok())
            .expect("S1 is built in");
        base.interventions.clear();
        base.expectations.clear();
        base.resource = base.resource.with_fencing(fencing);
        SearchConfig {
            base,
            invariant: lockstep_sim::vocabulary::invariant::Invariant::NoStaleWrite,
            faults: FaultBudget {
                max: 1,
                pauses: vec![lockstep_sim::world::time::Millis(2_000)],
                ..FaultBudget::default()
            },
            bounds: Bounds::default(),
        }
    }

    /// Sends `request` as text and reads the reply, as the page does.
    fn ask(worker: &mut Worker, request: &Request) -> Reply {
        Reply::from_json(&worker.answer_text(&request.to_json())).expect("a reply")
    }

    #[test]
    fn a_search_runs_in_slices_to_its_counterexample() {
        use lockstep_sim::analysis::search::SearchStatus;
        let mut worker = Worker::default();
        let start = Request::SearchStart {
            config: Box::new(search_config(Fencing::Off)),
        };
        assert!(matches!(
            ask(&mut worker, &start),
            Reply::Search(SearchStatus::Running { states: 1, .. })
        ));
        let mut slices = 0;
        let found = loop {
            slices += 1;
            match ask(&mut worker, &Request::SearchAdvance { max_states: 100 }) {
                Reply::Search(SearchStatus::Running { .. }) => {}
                Reply::Search(SearchStatus::Found(found)) => break found,
                other => panic!("{other:?}"),
            }
        };
        assert!(slices > 2, "{slices} slices");
        assert_eq!(found.first_event + 1, found.length);
        // Fencing on: the same search ends with none within the bounds.
        let start = Request::SearchStart {
            config: Box::new(search_config(Fencing::On)),
        };
        ask(&mut worker, &start);
        let exhausted = loop {
            match ask(&mut worker, &Request::SearchAdvance { max_states: 5_000 }) {
                Reply::Search(SearchStatus::Running { .. }) => {}
                Reply::Search(status) => break status,
                other => panic!("{other:?}"),
            }
        };
        assert!(
            matches!(exhausted, SearchStatus::Exhausted { .. }),
            "{exhausted:?}"
        );
    }

    #[test]
    fn a_search_request_that_cannot_be_answered_says_why() {
        let mut worker = Worker::default();
        let advance = Request::SearchAdvance { max_states: 10 };
        assert_eq!(
            ask(&mut worker, &advance),
            Reply::Failed("no search has been started".to_owned())
        );
        let mut config = search_config(Fencing::Off);
        config.faults.pauses.clear();
        let reply = ask(
            &mut worker,
            &Request::SearchStart {
                config: Box::new(config),
            },
        );
        assert!(
            matches!(&reply, Reply::Failed(why) if why.starts_with("the search cannot start: faults:")),
            "{reply:?}"
        );
        let huge = Request::SearchAdvance {
            max_states: MAX_SEARCH_SLICE + 1,
        };
        assert!(matches!(ask(&mut worker, &huge), Reply::Failed(why) if why.contains("at most")));
    }
}
