//! The lab's Web Worker: answers [`Request`]s with [`Reply`]s, off the page's main thread. The
//! page loads it (`src/bin/lockstep-worker.rs`, built by Trunk as a worker) only when the chaos
//! lab first runs something.
//!
//! [`Worker::answer_text`] is pure and natively tested; [`start`] only wires it to the worker's
//! `postMessage`. Nothing here may panic: a panic would kill the worker and the run with it, so
//! whatever goes wrong is answered as [`Reply::Failed`].

use crate::worker_protocol::{MAX_BATCH, Reply, Request};
use lockstep_sim::chaos::run_chaos;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

/// What the worker keeps between requests.
#[derive(Debug, Default)]
pub struct Worker {}

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

/// Runs in the worker: answers every message with its reply, after saying it is ready.
pub fn start() {
    let Ok(scope) = js_sys::global().dyn_into::<DedicatedWorkerGlobalScope>() else {
        return;
    };
    let mut worker = Worker::default();
    let reply_to = scope.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
        let text = event.data().as_string().unwrap_or_default();
        let reply = worker.answer_text(&text);
        // A reply that cannot be posted has nobody to go to.
        let _ = reply_to.post_message(&JsValue::from_str(&reply));
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker.
    on_message.forget();
    let _ = scope.post_message(&JsValue::from_str(&Reply::Ready.to_json()));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::worker_protocol::SeedRange;
    use lockstep_sim::chaos::ChaosSettings;
    use lockstep_sim::resource::Fencing;

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
}
