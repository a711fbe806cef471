//! A link from one client to one server, as a network between them behaves: a loopback proxy
//! that forwards both ways, each way as late as its lag says (a slow link, or asynchronous
//! replication over one), and that can be cut: from then on it drops whatever crosses it the
//! cut way (both ways, or only from the client), as a network partition does, what was still
//! on its way included. The client's connections stay open, so a request sent over a cut link
//! gets no answer and the client's own timeout decides, as on a real network (a refused
//! connection would tell the client at once, which a partition does not). A one-way cut still
//! carries the server's answers to requests it already has.
//!
//! Every connection made to the link is joined to the server (a gRPC client may open more than
//! one). Dropping the link stops it from taking new ones; each joined connection lives until
//! either side closes it, and a side that closes is closed on the other only after what it
//! sent before has arrived there.

use lockstep_sim::vocabulary::happening::Direction;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};
use thiserror::Error;

/// Why a link could not be had.
#[derive(Debug, Error)]
pub enum LinkError {
    /// Its loopback port could not be opened.
    #[error("could not open a link: {0}")]
    Open(std::io::Error),
    /// A fault cuts a link the run did not make.
    #[error("no link from {client} to {node}")]
    NoLink { client: String, node: String },
}

pub struct Link {
    pub port: u16,
    state: Arc<State>,
}

/// One way along a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Way {
    /// From the client (the side that connects) to the server.
    Up,
    /// From the server to the client.
    Down,
}

/// What the link's threads read: each way's lag and whether it is cut, and whether the link
/// is dropped.
#[derive(Default)]
struct State {
    up: WayState,
    down: WayState,
    closed: AtomicBool,
}

#[derive(Default)]
struct WayState {
    cut: AtomicBool,
    lag_ms: AtomicU64,
}

impl State {
    fn way(&self, way: Way) -> &WayState {
        match way {
            Way::Up => &self.up,
            Way::Down => &self.down,
        }
    }
}

/// What cuts one link, held by whoever makes the run's faults.
#[derive(Clone)]
pub struct CutSwitch(Arc<State>);

impl CutSwitch {
    /// From now on, nothing crosses the link from the client (`OneWay`), or either way.
    pub fn cut(&self, direction: Direction) {
        self.0.up.cut.store(true, Ordering::SeqCst);
        if direction == Direction::Both {
            self.0.down.cut.store(true, Ordering::SeqCst);
        }
    }
}

impl Link {
    /// Listens on a free loopback port; each connection to it is joined to `target`'s port.
    /// Neither way is late until [`Self::slow`] says.
    pub fn start(target: u16) -> Result<Link, LinkError> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(LinkError::Open)?;
        let port = listener.local_addr().map_err(LinkError::Open)?.port();
        let state = Arc::new(State::default());
        let shared = Arc::clone(&state);
        thread::spawn(move || {
            for near in listener.incoming() {
                if shared.closed.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(near) = near
                    && let Ok(far) = TcpStream::connect(("127.0.0.1", target))
                {
                    join(near, far, &shared);
                }
            }
        });
        Ok(Link { port, state })
    }

    /// From now on, what crosses the link `way` arrives `lag` late.
    pub fn slow(&self, way: Way, lag: Duration) {
        let lag_ms = u64::try_from(lag.as_millis()).unwrap_or(u64::MAX);
        self.state.way(way).lag_ms.store(lag_ms, Ordering::SeqCst);
    }

    pub fn switch(&self) -> CutSwitch {
        CutSwitch(Arc::clone(&self.state))
    }
}

impl Drop for Link {
    /// Wakes the listening thread with a connection of its own, so that it sees the link is
    /// closed and ends.
    fn drop(&mut self) {
        self.state.closed.store(true, Ordering::SeqCst);
        let _ = TcpStream::connect(("127.0.0.1", self.port));
    }
}

fn join(near: TcpStream, far: TcpStream, state: &Arc<State>) {
    let (Ok(near_reader), Ok(far_writer)) = (near.try_clone(), far.try_clone()) else {
        return;
    };
    carry(near_reader, far_writer, Arc::clone(state), Way::Up);
    carry(far, near, Arc::clone(state), Way::Down);
}

/// Carries `from` to `to`, `way` along the link: each chunk is due its lag after it was read,
/// and is dropped if the way is cut when it is due. When `from` closes, `to` is closed once
/// everything read before has been delivered or dropped.
fn carry(mut from: TcpStream, mut to: TcpStream, state: Arc<State>, way: Way) {
    let (send, receive) = mpsc::channel::<(Instant, Vec<u8>)>();
    let reading = Arc::clone(&state);
    thread::spawn(move || {
        let mut buffer = [0u8; 16 * 1024];
        while let Ok(n) = from.read(&mut buffer) {
            let lag = Duration::from_millis(reading.way(way).lag_ms.load(Ordering::SeqCst));
            if n == 0
                || send
                    .send((Instant::now() + lag, buffer[..n].to_vec()))
                    .is_err()
            {
                break;
            }
        }
    });
    thread::spawn(move || {
        for (due, bytes) in receive {
            thread::sleep(due.saturating_duration_since(Instant::now()));
            if !state.way(way).cut.load(Ordering::SeqCst) && to.write_all(&bytes).is_err() {
                break;
            }
        }
        let _ = to.shutdown(Shutdown::Both);
    });
}
