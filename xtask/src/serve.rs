//! `cargo xtask serve`: installs what is missing, then serves the app and the book together on
//! http://127.0.0.1:8080/ (the app) and http://127.0.0.1:8080/book/ (the book), as
//! `cargo xtask dist` lays them out, so the book's embeds reach the app's host script at the
//! same relative URL.
//!
//! `trunk serve` builds the app, serves it and rebuilds it on every change; Trunk also writes
//! this development build (debug, with a live-reload script) to `dist/`, which `cargo xtask
//! dist` and `cargo xtask test` replace with a release build. The book is built into
//! `target/book-serve/` (Trunk empties `dist/` on each rebuild), served by xtask itself
//! ([`static_files`]) and reached through Trunk's proxy at `/book/`; xtask rebuilds it when a
//! file under `book/`, `scenarios/` or the preprocessor's sources changes (reload the page to
//! see it). Extra arguments go to Trunk, e.g. `cargo xtask serve --port 9000`.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::thread;
use std::time::{Duration, SystemTime};

use crate::book;
use crate::error::Error;
use crate::process::{self, say};
use crate::static_files::{self, Site};
use crate::tools;
use crate::workspace::Workspace;

/// What the book is made from: a change to any file under these rebuilds it.
const BOOK_INPUTS: [&str; 4] = ["book", "scenarios", "content", "crates/mdbook-lockstep/src"];

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    tools::ensure_web(workspace)?;
    tools::ensure_mdbook(workspace)?;
    let out = workspace.target_dir().join("book-serve");
    book::build(workspace, &out)?;
    let site = Site {
        root: out.clone(),
        base: "/".to_owned(),
        precompressed: false,
    };
    let port = static_files::serve(site, 0, |_| {})?;
    let inputs: Vec<PathBuf> = BOOK_INPUTS.iter().map(|dir| workspace.join(dir)).collect();
    let root = workspace.join("");
    thread::spawn(move || rebuild_on_change(&root, &inputs, &out));
    say("serving the app with Trunk, and the book at /book/ through its proxy (Ctrl-C stops both)");
    process::run(
        workspace
            .trunk()
            .arg("serve")
            .arg(format!("--proxy-backend=http://127.0.0.1:{port}/"))
            .arg("--proxy-rewrite=/book/")
            .args(args)
            .stdin(Stdio::inherit()),
    )
}

/// Polls the book's inputs once a second and rebuilds the book when one has changed. A failed
/// build (a broken block, say) is reported and the last good book stays served.
fn rebuild_on_change(root: &Path, inputs: &[PathBuf], out: &Path) {
    let mut seen = newest(inputs);
    loop {
        thread::sleep(Duration::from_secs(1));
        let now = newest(inputs);
        if now == seen {
            continue;
        }
        seen = now;
        // A workspace of its own: this thread outlives no one and needs only the command.
        match Workspace::locate().and_then(|workspace| book::build(&workspace, out)) {
            Ok(()) => say(format!(
                "rebuilt the book (a change under {}); reload the page",
                root.display()
            )),
            Err(error) => eprintln!("error: the book did not rebuild: {error}"),
        }
    }
}

/// The latest modification time of any file under `dirs`.
fn newest(dirs: &[PathBuf]) -> Option<SystemTime> {
    dirs.iter().filter_map(|dir| newest_in(dir)).max()
}

fn newest_in(path: &Path) -> Option<SystemTime> {
    let meta = std::fs::metadata(path).ok()?;
    if !meta.is_dir() {
        return meta.modified().ok();
    }
    std::fs::read_dir(path)
        .ok()?
        .flatten()
        .filter_map(|item| newest_in(&item.path()))
        .chain(meta.modified().ok())
        .max()
}
