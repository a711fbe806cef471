//! A link from one client to one server that can be cut: a loopback proxy that forwards both
//! ways until it is cut, and from then on drops whatever crosses it the cut way (both ways, or
//! only from the client), as a network partition does. The client's connections stay open, so
//! a request sent over a cut link gets no answer and the client's own timeout decides, as on a
//! real network (a refused connection would tell the client at once, which a partition does
//! not). A one-way cut still carries the server's answers to requests it already has.
//!
//! Every connection made to the link is joined to the server (a gRPC client may open more than
//! one). Dropping the link stops it from taking new ones; each joined connection lives until
//! either side closes it.

use crate::server::{ServerError, io};
use lockstep_sim::vocabulary::happening::Direction;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

pub struct Link {
    pub port: u16,
    state: Arc<State>,
}

/// What the link's threads read: whether each way is cut, and whether the link is dropped.
#[derive(Default)]
struct State {
    /// From the client to the server.
    up_cut: AtomicBool,
    /// From the server to the client.
    down_cut: AtomicBool,
    closed: AtomicBool,
}

/// What cuts one link, held by whoever makes the run's faults.
#[derive(Clone)]
pub struct CutSwitch(Arc<State>);

impl CutSwitch {
    /// From now on, nothing crosses the link from the client (`OneWay`), or either way.
    pub fn cut(&self, direction: Direction) {
        self.0.up_cut.store(true, Ordering::SeqCst);
        if direction == Direction::Both {
            self.0.down_cut.store(true, Ordering::SeqCst);
        }
    }
}

impl Link {
    /// Listens on a free loopback port; each connection to it is joined to `target`'s port.
    pub fn start(target: u16) -> Result<Link, ServerError> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| io("open a link", &e))?;
        let port = listener
            .local_addr()
            .map_err(|e| io("open a link", &e))?
            .port();
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
    let (up, down) = (Arc::clone(state), Arc::clone(state));
    thread::spawn(move || pump(near_reader, far_writer, || up.up_cut.load(Ordering::SeqCst)));
    thread::spawn(move || pump(far, near, || down.down_cut.load(Ordering::SeqCst)));
}

/// Forwards `from` to `to` while this way is whole; drops what comes once it is cut.
fn pump(mut from: TcpStream, mut to: TcpStream, cut: impl Fn() -> bool) {
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0 {
            break;
        }
        if !cut() && to.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
}
