//! `cargo xtask`: Lockstep's project automation, in Rust so that it needs nothing but cargo.
//!
//! `cargo xtask` is an alias (see `.cargo/config.toml`) for `cargo run --package xtask --`.
//! Every command first installs the pinned tools it needs ([`tools`]), reusing whatever is
//! already installed at the right version, and says what it is doing as it goes.

mod absences;
mod bench;
mod bench_record;
mod bench_search;
mod book;
mod composition;
mod compress;
mod cycles;
mod dist;
mod doc_budget;
mod error;
mod etcd_unpacked;
mod fn_length;
mod install;
mod loading_line;
mod pins;
mod process;
mod real;
mod rust_files;
mod serve;
mod serve_dir;
mod shots;
mod soak;
mod soak_jobs;
mod static_files;
mod test;
mod test_hooks;
mod toml_file;
mod tools;
mod workspace;

use std::process::ExitCode;

use error::Error;
use workspace::Workspace;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  serve [TRUNK ARGS...]   install what is missing, then `trunk serve` the app on
                          http://127.0.0.1:8080/ and the book at /book/, each rebuilt on change
                          (extra args go to trunk, e.g. --port 9000)
  serve-dir DIR [--base /PATH/] [--port N] [--precompressed] [--piped]
                          serve one directory on 127.0.0.1 (the server of the book and of the
                          browser tests); prints its address, then `404 PATH` for each miss
                          (--precompressed: send dist's FILE.br/FILE.gz to clients that accept
                          them; --piped: stdin's end stops it, a `sync` line is answered `synced`)
  test [--from STEP]      install what is missing, then run every check CI runs, in order:
                          fmt, hooks, docs, clippy, cycles, absences, length, test, real,
                          build, book, browser (--from skips the steps before STEP)
  dist [--json]           build the static site into dist/ (release, relative URLs) with the
                          book in dist/book/, and print each of the app's files' size, raw and
                          gzipped, and the book's total (--json: machine-readable on stdout)
  bench [--write] [ARGS...]
                          run the benchmarks: the simulator natively (cargo bench -p lockstep-sim,
                          ARGS go to it), the bundle size and the wasm's composition (twiggy),
                          the UI step latency in Chromium, and the simulator in the page ÷ native
                          (--write: also write what they print to docs/benchmarks.md)
  soak [--minutes N]      look for new failures for N minutes (default 10): round after round,
                          the property tests with a fresh seed in a release build; a failing
                          case is kept in crates/lockstep-sim/tests/found/, which cargo test
                          replays; prints cases per minute and what it found
  real [--runs N] [--record] [--all] [--only ID]… [--write]
                          the reality check: install PostgreSQL, Redis and gcc if missing, start
                          the servers on loopback, run the conformance cases N times each
                          (default 3; --all: the long ones too, S7's 51 s; --only: those cases
                          alone, not with --write), print scenario,
                          service, runs, matches and time, and stop them (--record: write each
                          case's first matching run into content/recorded/; --write: the
                          table into docs/reality-check-runs.md)
  shots [--no-build]      screenshots to look at: every scenario's opening and first violation or
                          rejected write, at 1280x800 and 375x700, and the guided pages, into
                          e2e/artifacts/shots/ with a contact sheet, index.html (--no-build: reuse dist/)
  cycles                  import cycles between the files of every crate, reading every path
                          written (use items, bodies, macro input) with syn: names each cycle
                          and the names that tie it
  absences                no browser crate (yew, web-sys, js-sys, gloo*, wasm-bindgen*) among the
                          normal dependencies of lockstep-sim and lockstep-view
  length                  every function over 80 lines of code (Yew components included), with
                          its file and line
  help                    print this message";

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("error: {err}");
            match err {
                Error::Usage(_) => ExitCode::from(2),
                _ => ExitCode::FAILURE,
            }
        }
    }
}

fn run() -> Result<(), Error> {
    let args = std::env::args_os()
        .skip(1)
        .map(|arg| {
            arg.into_string()
                .map_err(|arg| Error::Usage(format!("argument {arg:?} is not valid UTF-8")))
        })
        .collect::<Result<Vec<String>, Error>>()?;
    let Some((command, rest)) = args.split_first() else {
        return Err(Error::Usage(format!("missing command\n\n{USAGE}")));
    };
    match command.as_str() {
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(())
        }
        "serve" => serve::run(&Workspace::locate()?, rest),
        "serve-dir" => serve_dir::run(rest),
        "test" => test::run(&Workspace::locate()?, rest),
        "dist" => dist::run(&Workspace::locate()?, rest),
        "bench" => bench::run(&Workspace::locate()?, rest),
        "shots" => shots::run(&Workspace::locate()?, rest),
        "soak" => soak::run(&Workspace::locate()?, rest),
        "real" => real::run(&Workspace::locate()?, rest),
        "cycles" => cycles::run(&Workspace::locate()?, rest),
        "absences" => absences::run(&Workspace::locate()?, rest),
        "length" => fn_length::run(&Workspace::locate()?, rest),
        other => Err(Error::Usage(format!(
            "unknown command `{other}`\n\n{USAGE}"
        ))),
    }
}
