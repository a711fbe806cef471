//! The book (`book/`): built by mdBook with the project's own preprocessor
//! (`crates/mdbook-lockstep`, which `book.toml` runs through `cargo run`), into `dist/book/`
//! beside the app, whose host script (`dist/embed.js`) its pages load at a relative URL; and the
//! check that a broken ```` ```lockstep ```` block fails the build, naming its file and line.

use std::fs;
use std::path::Path;

use crate::error::Error;
use crate::process::{self, say};
use crate::workspace::Workspace;

/// Where the book goes in the static site.
pub const DIST_DIR: &str = "dist/book";

/// `mdbook build book --dest-dir <dest>`.
pub fn build(workspace: &Workspace, dest: &Path) -> Result<(), Error> {
    say(format!(
        "building the book into {} with mdBook and mdbook-lockstep",
        dest.display()
    ));
    process::run(&mut mdbook_build(workspace, dest))
}

fn mdbook_build(workspace: &Workspace, dest: &Path) -> std::process::Command {
    let mut command = workspace.command("mdbook");
    command
        .arg("build")
        .arg(workspace.join("book"))
        .arg("--dest-dir")
        .arg(dest);
    command
}

/// The book into `dist/book/`, after the app's build (Trunk empties `dist/`), with the
/// addresses of its built-in scenarios' embeds written to `embeds` (the preprocessor's
/// `embeds-list`, set through mdBook's environment), for the build to render their documents,
/// and `site`, the site's public address, as the preprocessor's `site-url`: the snippets its
/// pages give for other sites load the host script from there.
pub fn build_into_dist(workspace: &Workspace, embeds: &Path, site: &str) -> Result<(), Error> {
    let dest = workspace.join(DIST_DIR);
    say(format!(
        "building the book into {} with mdBook and mdbook-lockstep, listing its embeds in {}",
        dest.display(),
        embeds.display()
    ));
    process::run(
        mdbook_build(workspace, &dest)
            .env("MDBOOK_PREPROCESSOR__LOCKSTEP__EMBEDS_LIST", embeds)
            .env("MDBOOK_PREPROCESSOR__LOCKSTEP__SITE_URL", site),
    )
}

/// The page the check adds to a copy of the book: a good block, then a block whose position is
/// past its run's end (line 9), then the author's own scenario with a JSON syntax error on
/// line 16 (a missing colon after "title").
const BROKEN_PAGE: &str = "# Broken blocks\n\
\n\
```lockstep\n\
s2-gc-pause-fenced\n\
```\n\
\n\
```lockstep\n\
s2-gc-pause-fenced\n\
at = 100000\n\
```\n\
\n\
```lockstep\n\
{\n  \"format\": 1,\n  \"id\": \"mine\",\n  \"title\" \"Mine\"\n}\n\
```\n";

/// What the build must say about [`BROKEN_PAGE`]: `file:line: lockstep block: …` for each.
const EXPECTED: [&str; 2] = [
    "broken.md:9: lockstep block: `at`: 100000 is past the run's end",
    "broken.md:16: lockstep block: the scenario, column",
];

/// Builds a copy of the book with [`BROKEN_PAGE`] added; passes only when the build fails and
/// names every broken block's file and line.
pub fn check_broken_block_fails(workspace: &Workspace) -> Result<(), Error> {
    let copy = workspace.target_dir().join("book-check");
    if copy.exists() {
        fs::remove_dir_all(&copy).map_err(Error::io(format!("removing {}", copy.display())))?;
    }
    copy_dir(&workspace.join("book"), &copy)?;
    let summary = copy.join("src").join("SUMMARY.md");
    let mut text = fs::read_to_string(&summary)
        .map_err(Error::io(format!("reading {}", summary.display())))?;
    text.push_str("\n- [Broken blocks](broken.md)\n");
    write(&summary, &text)?;
    write(&copy.join("src").join("broken.md"), BROKEN_PAGE)?;
    say("building a copy of the book with two broken ```lockstep blocks: the build must fail");
    let (built, stderr) = process::run_reading_stderr(
        workspace
            .command("mdbook")
            .arg("build")
            .arg(&copy)
            .arg("--dest-dir")
            .arg(copy.join("out")),
    )?;
    judge(built, &stderr).map_err(Error::Check)?;
    say("the build failed and named both blocks' file and line");
    Ok(())
}

/// Whether the broken book's build went as it must: failed, naming every block.
fn judge(built: bool, stderr: &str) -> Result<(), String> {
    if built {
        return Err(
            "the book with broken ```lockstep blocks built: the preprocessor let them through"
                .to_string(),
        );
    }
    let missing: Vec<&str> = EXPECTED
        .iter()
        .copied()
        .filter(|expected| !stderr.contains(expected))
        .collect();
    if missing.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "the broken book's build failed, but its messages lack: {}",
            missing.join(" | ")
        ))
    }
}

fn write(path: &Path, text: &str) -> Result<(), Error> {
    fs::write(path, text).map_err(Error::io(format!("writing {}", path.display())))
}

/// Copies the directory `from` to `to`, recursively.
fn copy_dir(from: &Path, to: &Path) -> Result<(), Error> {
    fs::create_dir_all(to).map_err(Error::io(format!("creating {}", to.display())))?;
    let listing = fs::read_dir(from).map_err(Error::io(format!("listing {}", from.display())))?;
    for item in listing {
        let item = item.map_err(Error::io(format!("listing {}", from.display())))?;
        let (source, target) = (item.path(), to.join(item.file_name()));
        if source.is_dir() {
            copy_dir(&source, &target)?;
        } else {
            fs::copy(&source, &target)
                .map_err(Error::io(format!("copying {}", source.display())))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_expected_lines_are_the_broken_blocks_lines() {
        let lines: Vec<&str> = BROKEN_PAGE.lines().collect();
        assert_eq!(lines[8], "at = 100000");
        assert_eq!(lines[15], "  \"title\" \"Mine\"");
    }

    #[test]
    fn a_build_that_passes_or_names_too_little_fails_the_check() {
        let both = format!("x/{}\nx/{} 11\n", EXPECTED[0], EXPECTED[1]);
        assert_eq!(judge(false, &both), Ok(()));
        assert!(judge(true, &both).is_err_and(|e| e.contains("built")));
        let one = format!("x/{}\n", EXPECTED[0]);
        assert!(judge(false, &one).is_err_and(|e| e.contains("broken.md:16")));
        assert!(judge(false, "Error: preprocessor failed").is_err());
    }
}
