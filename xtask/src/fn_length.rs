//! `cargo xtask length`: no function of the workspace runs over one screen.
//!
//! Clippy's `too_many_lines` skips code that a macro rewrites, and every Yew component is a
//! `#[component]` function, so the longest functions of the app were invisible to it. This check
//! parses every Rust file under `crates/` and `xtask/` with `syn` and measures each free function,
//! method and trait method with a body, the way clippy counts: lines of its span that hold code,
//! not blank lines or comment-only lines. It reads Rust only to measure; it never changes a file.

use std::fs;
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

use crate::error::Error;
use crate::process::say;
use crate::workspace::Workspace;

/// The longest a function may be, in lines of code: about one screen.
pub const LIMIT: usize = 80;

/// The folders whose Rust files are measured, from the workspace's root.
const ROOTS: [&str; 2] = ["crates", "xtask"];

/// A function over the limit: where it starts, its name and its length in lines of code.
#[derive(Debug, PartialEq)]
pub struct Long {
    pub file: PathBuf,
    pub line: usize,
    pub name: String,
    pub lines: usize,
}

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    if !args.is_empty() {
        return Err(Error::Usage("usage: cargo xtask length".to_string()));
    }
    check(workspace)
}

/// Fails, naming each function over [`LIMIT`] lines with its file and line.
pub fn check(workspace: &Workspace) -> Result<(), Error> {
    let root = workspace.join("");
    let mut files = Vec::new();
    for folder in ROOTS {
        rust_files(&workspace.join(folder), &mut files)?;
    }
    files.sort();
    let mut long = Vec::new();
    for file in &files {
        let text =
            fs::read_to_string(file).map_err(Error::io(format!("reading {}", file.display())))?;
        let relative = file.strip_prefix(&root).unwrap_or(file).to_path_buf();
        long.extend(long_functions(&relative, &text)?);
    }
    say(format!("measured the functions of {} files", files.len()));
    if long.is_empty() {
        say(format!("no function over {LIMIT} lines"));
        return Ok(());
    }
    let words: Vec<String> = long
        .iter()
        .map(|f| {
            format!(
                "  {}:{}: `{}` has {} lines",
                f.file.display(),
                f.line,
                f.name,
                f.lines
            )
        })
        .collect();
    Err(Error::Check(format!(
        "{} function(s) over {LIMIT} lines of code (split each along what it does):\n{}",
        long.len(),
        words.join("\n")
    )))
}

/// Every `.rs` file under `dir`, leaving out build output.
fn rust_files(dir: &Path, into: &mut Vec<PathBuf>) -> Result<(), Error> {
    let entries = fs::read_dir(dir).map_err(Error::io(format!("listing {}", dir.display())))?;
    for entry in entries {
        let path = entry
            .map_err(Error::io(format!("listing {}", dir.display())))?
            .path();
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name != "target") {
                rust_files(&path, into)?;
            }
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            into.push(path);
        }
    }
    Ok(())
}

/// The functions of one file's source over [`LIMIT`] lines.
pub fn long_functions(file: &Path, text: &str) -> Result<Vec<Long>, Error> {
    let parsed = syn::parse_file(text)
        .map_err(|err| Error::Check(format!("{}: not valid Rust: {err}", file.display())))?;
    let lines: Vec<&str> = text.lines().collect();
    let mut measure = Measure {
        lines: &lines,
        file,
        long: Vec::new(),
    };
    measure.visit_file(&parsed);
    Ok(measure.long)
}

struct Measure<'a> {
    lines: &'a [&'a str],
    file: &'a Path,
    long: Vec<Long>,
}

impl Measure<'_> {
    /// Measures from the `fn` keyword to the body's closing brace (doc comments and attributes
    /// left out, as clippy leaves them out).
    fn measure(&mut self, sig: &syn::Signature, body: &syn::Block) {
        let name = &sig.ident;
        let first = sig.fn_token.span.start().line;
        let last = body.brace_token.span.close().end().line;
        let code = self
            .lines
            .get(first.saturating_sub(1)..last.min(self.lines.len()))
            .unwrap_or_default()
            .iter()
            .filter(|line| is_code(line))
            .count();
        if code > LIMIT {
            self.long.push(Long {
                file: self.file.to_path_buf(),
                line: first,
                name: name.to_string(),
                lines: code,
            });
        }
    }
}

/// A line that holds code: not blank, not only a comment.
fn is_code(line: &str) -> bool {
    let line = line.trim();
    !(line.is_empty() || line.starts_with("//") || line.starts_with("/*") || line.starts_with('*'))
}

impl<'ast> Visit<'ast> for Measure<'_> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.measure(&item.sig, &item.block);
        visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.measure(&item.sig, &item.block);
        visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(body) = &item.default {
            self.measure(&item.sig, body);
        }
        visit::visit_trait_item_fn(self, item);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn function(name: &str, body_lines: usize) -> String {
        let body: String = (0..body_lines)
            .map(|i| format!("    let _x{i} = {i};\n"))
            .collect();
        format!("fn {name}() {{\n{body}}}\n")
    }

    #[test]
    fn a_function_over_the_limit_is_named_with_its_line() {
        let text = format!("{}\n{}", function("short", 10), function("long", LIMIT + 5));
        let long = long_functions(Path::new("a.rs"), &text).expect("parses");
        assert_eq!(
            long,
            vec![Long {
                file: PathBuf::from("a.rs"),
                line: 14,
                name: "long".to_string(),
                lines: LIMIT + 7,
            }]
        );
    }

    #[test]
    fn blank_and_comment_lines_do_not_count() {
        let body: String = (0..LIMIT)
            .map(|i| format!("    // why {i}\n\n    let _x{i} = {i};\n"))
            .take(LIMIT - 2)
            .collect();
        let text = format!("fn f() {{\n{body}}}\n");
        assert!(
            long_functions(Path::new("a.rs"), &text)
                .expect("parses")
                .is_empty()
        );
    }

    #[test]
    fn a_macro_attributed_component_and_a_method_are_measured() {
        let long_body = function("view", LIMIT).replace("fn view", "pub fn view");
        let text = format!(
            "#[component]\n{}\nimpl T {{\n{}}}\n",
            function("Site", LIMIT + 1),
            long_body
        );
        let names: Vec<String> = long_functions(Path::new("a.rs"), &text)
            .expect("parses")
            .into_iter()
            .map(|f| f.name)
            .collect();
        assert_eq!(names, ["Site", "view"]);
    }
}
