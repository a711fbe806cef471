//! A Redis node whose wall clock can jump, as a clock stepped by NTP or by hand does: the
//! server runs with `clock_jump.c` preloaded, which adds an offset, read from a file of the
//! node's, to every reading of the wall clock. Redis expires keys by that clock (Redis's
//! "Distributed Locks with Redis": no monotonic clock for TTLs), so a jump forward expires a
//! lock early on that node alone.
//!
//! The shim is compiled with the machine's C compiler (`gcc`) into a temporary directory when
//! a run first needs it; libfaketime, the usual tool, cannot start Debian's Redis (see the C
//! file's comment).

use crate::server::{ServerError, io};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU32, Ordering};

/// Numbers the shims of this process, for their directories' names.
static BUILT: AtomicU32 = AtomicU32::new(0);

const SOURCE: &str = include_str!("clock_jump.c");
const COMPILER: &str = "gcc";

/// The compiled shim, in a directory of its own that is removed with it.
pub struct ClockShim {
    dir: PathBuf,
    library: PathBuf,
}

impl ClockShim {
    /// Compiles the shim into a new directory under the system's temporary directory.
    pub fn build() -> Result<ClockShim, ServerError> {
        let dir = std::env::temp_dir().join(format!(
            "lockstep-clock-{}-{}",
            std::process::id(),
            BUILT.fetch_add(1, Ordering::Relaxed)
        ));
        fs::create_dir_all(&dir).map_err(|e| io("create the clock shim's directory", &e))?;
        let shim = ClockShim {
            library: dir.join("clock_jump.so"),
            dir,
        };
        let source = shim.dir.join("clock_jump.c");
        fs::write(&source, SOURCE).map_err(|e| io("write the clock shim's source", &e))?;
        let built = Command::new(COMPILER)
            .args(["-shared", "-fPIC", "-O2", "-o"])
            .arg(&shim.library)
            .arg(&source)
            .output()
            .map_err(|_| ServerError::NotInstalled {
                missing: COMPILER.to_owned(),
                package: "gcc",
            })?;
        if !built.status.success() {
            return Err(ServerError::Io(format!(
                "could not compile the clock shim: {}",
                String::from_utf8_lossy(&built.stderr)
            )));
        }
        Ok(shim)
    }
}

impl Drop for ClockShim {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.dir);
    }
}

/// One server's clock offset: the file the shim reads, and the offset written there so far.
pub struct NodeClock {
    library: PathBuf,
    offset_file: PathBuf,
    offset_ms: Mutex<i64>,
}

impl NodeClock {
    /// A clock with no offset yet, its file in the server's directory `dir`.
    pub fn new(shim: &ClockShim, dir: &Path) -> Result<NodeClock, ServerError> {
        let offset_file = dir.join("clock-offset-ms");
        fs::write(&offset_file, "0").map_err(|e| io("write the clock's offset", &e))?;
        Ok(NodeClock {
            library: shim.library.clone(),
            offset_file,
            offset_ms: Mutex::new(0),
        })
    }

    /// What the server's process needs in its environment.
    pub fn env(&self) -> [(&'static str, PathBuf); 2] {
        [
            ("LD_PRELOAD", self.library.clone()),
            ("LOCKSTEP_CLOCK_OFFSET_FILE", self.offset_file.clone()),
        ]
    }

    /// Steps the clock by `by_ms` more.
    pub fn jump(&self, by_ms: i64) -> Result<(), ServerError> {
        let mut offset = self.offset_ms.lock().unwrap_or_else(|e| e.into_inner());
        *offset += by_ms;
        fs::write(&self.offset_file, offset.to_string()).map_err(ServerError::Clock)
    }
}
