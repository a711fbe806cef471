//! A loopback proxy that delays one direction of a TCP link: what a primary sends its replica
//! arrives `lag` later, as asynchronous replication over a slow network would have it. On one
//! machine Redis replicates in well under a millisecond, so without it a primary could never
//! crash "before the write reached its replica"; with it the lag is the scenario's.
//!
//! It serves one link (the replica's), and lives as long as its threads: when either side
//! closes, the other side is closed too.

use crate::server::{ServerError, io};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

pub struct DelayProxy {
    pub port: u16,
}

impl DelayProxy {
    /// Listens on a free loopback port; the first connection to it is joined to `target`'s
    /// port, with what `target` sends delayed by `lag`.
    pub fn start(target: u16, lag: Duration) -> Result<DelayProxy, ServerError> {
        let listener =
            TcpListener::bind("127.0.0.1:0").map_err(|e| io("open the replication proxy", &e))?;
        let port = listener
            .local_addr()
            .map_err(|e| io("open the replication proxy", &e))?
            .port();
        thread::spawn(move || {
            if let Ok((near, _)) = listener.accept()
                && let Ok(far) = TcpStream::connect(("127.0.0.1", target))
            {
                join(near, far, lag);
            }
        });
        Ok(DelayProxy { port })
    }
}

/// `near` (the replica) to `far` (the primary) at once; `far` to `near` after `lag`.
fn join(near: TcpStream, far: TcpStream, lag: Duration) {
    let (Ok(near_reader), Ok(far_writer)) = (near.try_clone(), far.try_clone()) else {
        return;
    };
    thread::spawn(move || pump(near_reader, far_writer));
    let (send, receive) = mpsc::channel::<(Instant, Vec<u8>)>();
    let mut near_writer = near;
    thread::spawn(move || {
        for (due, bytes) in receive {
            thread::sleep(due.saturating_duration_since(Instant::now()));
            if near_writer.write_all(&bytes).is_err() {
                break;
            }
        }
        let _ = near_writer.shutdown(Shutdown::Both);
    });
    let mut far_reader = far;
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(n) = far_reader.read(&mut buffer) {
        if n == 0
            || send
                .send((Instant::now() + lag, buffer[..n].to_vec()))
                .is_err()
        {
            break;
        }
    }
}

fn pump(mut from: TcpStream, mut to: TcpStream) {
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0 || to.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
}
