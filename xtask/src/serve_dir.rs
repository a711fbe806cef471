//! `cargo xtask serve-dir DIR [--base /p/] [--port N] [--precompressed] [--piped]`: one
//! directory served by [`static_files`] on 127.0.0.1, for as long as it runs. The browser tests
//! and benchmarks serve every site through it (`serveDirectory` in `e2e/harness.mjs`), so
//! `cargo xtask serve` and the tests share one server. `--precompressed` sends the copies that
//! `cargo xtask dist` writes beside the files (`FILE.br`, `FILE.gz`) to clients that accept
//! their encoding ([`static_files`]).
//!
//! On stdout, and nothing else there: the site's address once it listens
//! (`http://127.0.0.1:PORT/p/`), then `404 PATH` for each request it could not answer, before
//! the client hears it. With `--piped` stdin is its owner's channel: a line `sync` is answered
//! `synced` (after every 404 line of the requests answered before it), and the end of stdin
//! stops the server, so it cannot outlive a test that died. xtask gives the programs it starts
//! in `e2e/` its own path in [`PROGRAM_ENV`], so they start this binary rather than cargo.

use std::io::{self, BufRead, Write};
use std::path::PathBuf;
use std::thread;

use crate::error::Error;
use crate::process::say;
use crate::static_files::{self, Site};

/// The environment variable that holds the path of this xtask binary for `e2e/harness.mjs`.
pub const PROGRAM_ENV: &str = "LOCKSTEP_XTASK";

/// This xtask binary, for [`PROGRAM_ENV`].
pub fn program() -> Result<PathBuf, Error> {
    std::env::current_exe().map_err(Error::io("finding the xtask binary"))
}

const USAGE: &str =
    "usage: cargo xtask serve-dir DIR [--base /PATH/] [--port N] [--precompressed] [--piped]";

/// The command line, read.
struct Options {
    site: Site,
    port: u16,
    piped: bool,
}

pub fn run(args: &[String]) -> Result<(), Error> {
    let options = parse(args)?;
    let base = options.site.base.clone();
    let root = options.site.root.clone();
    let port = static_files::serve(options.site, options.port, |path| {
        println!("{}", not_found_line(path));
    })?;
    println!("http://127.0.0.1:{port}{base}");
    if options.piped {
        return answer_stdin();
    }
    say(format!(
        "serving {} at http://127.0.0.1:{port}{base} (Ctrl-C stops)",
        root.display()
    ));
    loop {
        thread::park();
    }
}

/// The line that reports a 404 of `path` (the request's path as sent, without its query) to
/// `e2e/harness.mjs`, which reads it as `404 PATH`.
fn not_found_line(path: &str) -> String {
    format!("404 {path}")
}

/// Answers each `sync` on stdin with `synced`, until stdin ends.
fn answer_stdin() -> Result<(), Error> {
    for line in io::stdin().lock().lines() {
        let line = line.map_err(Error::io("reading stdin"))?;
        if line.trim() == "sync" {
            let mut out = io::stdout().lock();
            writeln!(out, "synced")
                .and_then(|()| out.flush())
                .map_err(Error::io("writing stdout"))?;
        }
    }
    Ok(())
}

fn parse(args: &[String]) -> Result<Options, Error> {
    let usage = |problem: &str| Error::Usage(format!("{problem}\n{USAGE}"));
    let mut root = None;
    let mut options = Options {
        site: Site {
            root: PathBuf::new(),
            base: "/".to_owned(),
            precompressed: false,
        },
        port: 0,
        piped: false,
    };
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--base" => {
                let base = args.next().ok_or_else(|| usage("--base needs a path"))?;
                options.site.base.clone_from(base);
            }
            "--port" => {
                let port = args.next().and_then(|port| port.parse().ok());
                options.port = port.ok_or_else(|| usage("--port needs a number"))?;
            }
            "--precompressed" => options.site.precompressed = true,
            "--piped" => options.piped = true,
            dir if root.is_none() && !dir.starts_with("--") => root = Some(PathBuf::from(dir)),
            other => return Err(usage(&format!("unexpected argument `{other}`"))),
        }
    }
    options.site.root = root.ok_or_else(|| usage("which directory?"))?;
    if !options.site.root.is_dir() {
        return Err(usage(&format!(
            "{} is not a directory",
            options.site.root.display()
        )));
    }
    Ok(options)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(line: &str) -> Vec<String> {
        line.split_whitespace().map(str::to_owned).collect()
    }

    #[test]
    fn reads_its_options() -> Result<(), Error> {
        let dir = std::env::temp_dir();
        let options = parse(&args(&format!(
            "--base /p/ {} --port 8081 --precompressed --piped",
            dir.display()
        )))?;
        assert_eq!(options.site.root, dir);
        assert_eq!(
            (
                options.site.base.as_str(),
                options.port,
                options.site.precompressed,
                options.piped
            ),
            ("/p/", 8081, true, true)
        );
        assert!(parse(&args("")).is_err());
        assert!(parse(&args("/no/such/directory/here")).is_err());
        assert!(parse(&args(&format!("{} --port x", dir.display()))).is_err());
        Ok(())
    }

    #[test]
    fn reports_a_404_as_the_line_the_harness_reads() -> Result<(), Error> {
        let dir = std::env::temp_dir().join(format!("xtask-serve-dir-{}", std::process::id()));
        std::fs::create_dir_all(&dir).map_err(Error::io("mkdir"))?;
        let (told, heard) = std::sync::mpsc::channel();
        let told = std::sync::Mutex::new(told);
        let site = Site {
            root: dir.clone(),
            base: "/play/ground/".to_owned(),
            precompressed: false,
        };
        let port = static_files::serve(site, 0, move |path| {
            let _ = told.lock().map(|told| told.send(not_found_line(path)));
        })?;
        let mut stream =
            std::net::TcpStream::connect(("127.0.0.1", port)).map_err(Error::io("connecting"))?;
        let request = "GET /play/ground/missing.js?v=1 HTTP/1.1\r\nConnection: close\r\n\r\n";
        let mut answer = String::new();
        io::Write::write_all(&mut stream, request.as_bytes())
            .and_then(|()| io::Read::read_to_string(&mut stream, &mut answer))
            .map_err(Error::io("talking to the server"))?;
        let _ = std::fs::remove_dir_all(&dir);
        assert!(answer.starts_with("HTTP/1.1 404 "), "{answer}");
        let lines: Vec<String> = heard.try_iter().collect();
        assert_eq!(
            lines,
            ["404 /play/ground/missing.js"],
            "told before answered"
        );
        Ok(())
    }
}
