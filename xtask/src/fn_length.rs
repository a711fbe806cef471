//! `cargo xtask length`: no function of the workspace runs over one screen.
//!
//! Clippy's `too_many_lines` skips code that a macro rewrites, and every Yew component is a
//! `#[component]` function, so the longest functions of the app were invisible to it. This check
//! parses every Rust file under `crates/` and `xtask/` with `syn` and measures each free function,
//! method and trait method with a body, the way clippy counts: lines of its span that hold code,
//! not blank lines or comment-only lines. It reads Rust only to measure; it never changes a file.
//!
//! One exemption, written where it applies: a function marked
//! `#[expect(clippy::too_many_lines, reason = "...")]`, with a reason. It is for the one shape
//! that must be long, an exhaustive `match` whose length is the compiler's check that every
//! variant was decided (a gate must never trade that check for a line count). Clippy verifies
//! the expectation in crates whose `clippy.toml` sets the threshold.

use std::fs;
use std::path::{Path, PathBuf};

use syn::visit::{self, Visit};

use crate::error::Error;
use crate::process::say;
use crate::rust_files;
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
        files.extend(rust_files::under(&workspace.join(folder))?);
    }
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

/// The functions of one file's source over [`LIMIT`] lines.
pub fn long_functions(file: &Path, text: &str) -> Result<Vec<Long>, Error> {
    let parsed = rust_files::parse_text(file, text)?;
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
    fn measure(&mut self, attrs: &[syn::Attribute], sig: &syn::Signature, body: &syn::Block) {
        if attrs.iter().any(expects_length_with_reason) {
            return;
        }
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

/// `#[expect(clippy::too_many_lines, reason = "...")]`: the length is meant, and says why.
fn expects_length_with_reason(attr: &syn::Attribute) -> bool {
    use syn::punctuated::Punctuated;
    if !attr.path().is_ident("expect") {
        return false;
    }
    let Ok(args) = attr.parse_args_with(Punctuated::<syn::Meta, syn::Token![,]>::parse_terminated)
    else {
        return false;
    };
    let lint = args.iter().any(|meta| {
        let path = meta.path();
        path.segments.len() == 2
            && path.segments[0].ident == "clippy"
            && path.segments[1].ident == "too_many_lines"
    });
    let reason = args.iter().any(|meta| {
        matches!(meta, syn::Meta::NameValue(pair) if pair.path.is_ident("reason")
            && matches!(&pair.value, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Str(text), .. })
                if !text.value().trim().is_empty()))
    });
    lint && reason
}

/// A line that holds code: not blank, not only a comment.
fn is_code(line: &str) -> bool {
    let line = line.trim();
    !(line.is_empty() || line.starts_with("//") || line.starts_with("/*") || line.starts_with('*'))
}

impl<'ast> Visit<'ast> for Measure<'_> {
    fn visit_item_fn(&mut self, item: &'ast syn::ItemFn) {
        self.measure(&item.attrs, &item.sig, &item.block);
        visit::visit_item_fn(self, item);
    }

    fn visit_impl_item_fn(&mut self, item: &'ast syn::ImplItemFn) {
        self.measure(&item.attrs, &item.sig, &item.block);
        visit::visit_impl_item_fn(self, item);
    }

    fn visit_trait_item_fn(&mut self, item: &'ast syn::TraitItemFn) {
        if let Some(body) = &item.default {
            self.measure(&item.attrs, &item.sig, body);
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
    fn an_expected_length_with_a_reason_is_exempt_and_without_one_is_not() {
        let long = function("dispatch", LIMIT + 5);
        let with_reason =
            format!("#[expect(clippy::too_many_lines, reason = \"one exhaustive match\")]\n{long}");
        let without = format!("#[expect(clippy::too_many_lines)]\n{long}");
        let allowed = format!("#[allow(clippy::too_many_lines, reason = \"x\")]\n{long}");
        let names = |text: &str| -> Vec<String> {
            long_functions(Path::new("a.rs"), text)
                .expect("parses")
                .into_iter()
                .map(|f| f.name)
                .collect()
        };
        assert!(names(&with_reason).is_empty());
        assert_eq!(names(&without), ["dispatch"]);
        assert_eq!(names(&allowed), ["dispatch"]);
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
