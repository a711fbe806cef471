//! The preprocessor as mdBook runs it: `mdbook-lockstep supports <renderer>` answers by its exit
//! status; `mdbook-lockstep` reads the book as JSON on stdin and writes it back on stdout, or
//! says on stderr which blocks are broken (file:line: reason) and exits with status 1, which
//! fails the build.

use std::io;
use std::process::ExitCode;

use mdbook_lockstep::Lockstep;
use mdbook_preprocessor::Preprocessor;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [command, renderer] if command == "supports" => {
            match Lockstep.supports_renderer(renderer) {
                Ok(true) => ExitCode::SUCCESS,
                _ => ExitCode::FAILURE,
            }
        }
        [] => match preprocess() {
            Ok(()) => ExitCode::SUCCESS,
            Err(error) => {
                eprintln!("{error}");
                ExitCode::FAILURE
            }
        },
        _ => {
            eprintln!(
                "usage: mdbook-lockstep [supports <renderer>] (mdBook runs it; see the crate's docs)"
            );
            ExitCode::from(2)
        }
    }
}

fn preprocess() -> mdbook_preprocessor::errors::Result<()> {
    let (ctx, book) = mdbook_preprocessor::parse_input(io::stdin())?;
    let book = Lockstep.run(&ctx, book)?;
    serde_json::to_writer(io::stdout(), &book)?;
    Ok(())
}
