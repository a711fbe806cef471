//! The page's side of the lab's Web Workers: starts them (only when the lab first runs, so the
//! first page load never fetches the worker's wasm), posts [`Request`]s and hands each
//! [`Reply`] to a callback with the worker's index. What goes wrong — a worker that cannot be
//! made or fails to load, a reply that cannot be read — arrives as [`Reply::Failed`]; a request
//! that cannot be posted is a [`WorkerError`] for the caller to show, since no reply will come.

use crate::platform::browser;
use lockstep_view::lab::worker_protocol::{Reply, Request};
use std::fmt;
use wasm_bindgen::JsCast;
use wasm_bindgen::prelude::{Closure, JsValue};
use web_sys::{ErrorEvent, MessageEvent, Worker};
use yew::Callback;

/// The worker's script, at the site's root (Trunk's loader for `src/bin/lockstep-worker.rs`).
pub const WORKER_SCRIPT: &str = "lockstep-worker_loader.js";

/// How many workers the lab runs: one per core the browser reports, at least one, at most two
/// (a page should not take every core of a larger machine).
pub fn worker_count() -> usize {
    let cores = crate::platform::browser::window()
        .map(|w| w.navigator().hardware_concurrency())
        .unwrap_or(1.0);
    (cores as usize).clamp(1, 2)
}

/// What went wrong between the page and its workers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WorkerError {
    /// The browser would not start a worker, for its reason.
    Start(String),
    /// A request went to a worker the pool does not have.
    NoWorker(usize),
    /// The browser refused to post a request to the worker, for its reason.
    Post(String),
}

impl fmt::Display for WorkerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WorkerError::Start(reason) => {
                write!(f, "the browser would not start a worker ({reason})")
            }
            WorkerError::NoWorker(index) => write!(f, "there is no worker {index}"),
            WorkerError::Post(reason) => {
                write!(
                    f,
                    "the request could not be posted to the worker ({reason})"
                )
            }
        }
    }
}

struct Slot {
    worker: Worker,
    // Kept alive as long as the worker: the browser calls them.
    _on_message: Closure<dyn FnMut(MessageEvent)>,
    _on_error: Closure<dyn FnMut(ErrorEvent)>,
}

/// The lab's workers.
pub struct WorkerPool {
    slots: Vec<Slot>,
}

impl WorkerPool {
    /// Starts `count` workers; each says [`Reply::Ready`] once it reads requests.
    pub fn start(
        count: usize,
        on_reply: Callback<(usize, Reply)>,
    ) -> Result<WorkerPool, WorkerError> {
        let mut slots = Vec::new();
        for index in 0..count {
            let worker = Worker::new(&browser::site_file(WORKER_SCRIPT))
                .map_err(|e| WorkerError::Start(browser::reason(&e)))?;
            let on_message = {
                let on_reply = on_reply.clone();
                Closure::<dyn FnMut(MessageEvent)>::new(move |event: MessageEvent| {
                    let reply = match event.data().as_string() {
                        Some(text) => {
                            Reply::from_json(&text).unwrap_or_else(|e| Reply::Failed(e.to_string()))
                        }
                        None => Reply::Failed(
                            "the worker answered with something other than text".to_owned(),
                        ),
                    };
                    on_reply.emit((index, reply));
                })
            };
            let on_error = {
                let on_reply = on_reply.clone();
                Closure::<dyn FnMut(ErrorEvent)>::new(move |event: ErrorEvent| {
                    let message = event.message();
                    on_reply.emit((
                        index,
                        Reply::Failed(if message.is_empty() {
                            "the worker could not be loaded".to_owned()
                        } else {
                            format!("the worker stopped: {message}")
                        }),
                    ));
                })
            };
            worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
            worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
            slots.push(Slot {
                worker,
                _on_message: on_message,
                _on_error: on_error,
            });
        }
        Ok(WorkerPool { slots })
    }

    /// How many workers the pool holds.
    pub fn count(&self) -> usize {
        self.slots.len()
    }

    /// Posts `request` to worker `index`. An error means no reply will come for it.
    pub fn send(&self, index: usize, request: &Request) -> Result<(), WorkerError> {
        let slot = self.slots.get(index).ok_or(WorkerError::NoWorker(index))?;
        slot.worker
            .post_message(&JsValue::from_str(&request.to_json()))
            .map_err(|e| WorkerError::Post(browser::reason(&e)))
    }
}

impl Drop for WorkerPool {
    fn drop(&mut self) {
        for slot in &self.slots {
            slot.worker.terminate();
        }
    }
}
