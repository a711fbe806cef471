//! A link from one client to one server that can be cut: a loopback proxy that forwards both
//! ways until it is cut, and from then on drops whatever either side sends, as a network
//! partition does. The client's connection stays open, so a request sent over a cut link gets
//! no answer and the client's own timeout decides, as on a real network (a refused connection
//! would tell the client at once, which a partition does not).
//!
//! It lives as long as its threads: when either side closes, the other side is closed too.

use crate::server::{ServerError, io};
use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;

pub struct Link {
    pub port: u16,
    cut: Arc<AtomicBool>,
}

/// What cuts one link, held by whoever makes the run's faults.
#[derive(Clone)]
pub struct CutSwitch(Arc<AtomicBool>);

impl CutSwitch {
    /// From now on, nothing crosses the link either way.
    pub fn cut(&self) {
        self.0.store(true, Ordering::SeqCst);
    }
}

impl Link {
    /// Listens on a free loopback port; the first connection to it (the client's one) is
    /// joined to `target`'s port.
    pub fn start(target: u16) -> Result<Link, ServerError> {
        let listener = TcpListener::bind("127.0.0.1:0").map_err(|e| io("open a link", &e))?;
        let port = listener
            .local_addr()
            .map_err(|e| io("open a link", &e))?
            .port();
        let cut = Arc::new(AtomicBool::new(false));
        let shared = Arc::clone(&cut);
        thread::spawn(move || {
            if let Ok((near, _)) = listener.accept()
                && let Ok(far) = TcpStream::connect(("127.0.0.1", target))
            {
                join(near, far, &shared);
            }
        });
        Ok(Link { port, cut })
    }

    pub fn switch(&self) -> CutSwitch {
        CutSwitch(Arc::clone(&self.cut))
    }
}

fn join(near: TcpStream, far: TcpStream, cut: &Arc<AtomicBool>) {
    let (Ok(near_reader), Ok(far_writer)) = (near.try_clone(), far.try_clone()) else {
        return;
    };
    let (up, down) = (Arc::clone(cut), Arc::clone(cut));
    thread::spawn(move || pump(near_reader, far_writer, &up));
    thread::spawn(move || pump(far, near, &down));
}

/// Forwards `from` to `to` while the link is whole; drops what comes once it is cut.
fn pump(mut from: TcpStream, mut to: TcpStream, cut: &AtomicBool) {
    let mut buffer = [0u8; 16 * 1024];
    while let Ok(n) = from.read(&mut buffer) {
        if n == 0 {
            break;
        }
        if !cut.load(Ordering::SeqCst) && to.write_all(&buffer[..n]).is_err() {
            break;
        }
    }
    let _ = to.shutdown(Shutdown::Both);
}
