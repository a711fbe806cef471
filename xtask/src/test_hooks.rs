//! The check that every `data-testid` the code writes is documented in `docs/test-hooks.md`, run
//! as a step of `cargo xtask test`: a hook the browser tests rely on, or that someone automating
//! the page could, must be findable without reading the components.
//!
//! It reads source text, not a parsed syntax tree, so it knows the shapes the app writes its
//! hooks in (see [`hooks_in`]); it must not judge whether the documentation of a hook is right,
//! only that there is some. An id built with `format!` is a pattern (`lab-fault-{kind}`), which
//! the documentation writes with any name between the braces.

use std::collections::BTreeSet;
use std::fs;

use crate::error::Error;
use crate::process::say;
use crate::rust_files;
use crate::workspace::Workspace;

/// The documentation, relative to the repository root.
pub const DOC: &str = "docs/test-hooks.md";

/// Directories never scanned: build output and installed packages.
/// Fails, naming each one and the file that writes it, when a hook in the code is not in the
/// first column of a table in [`DOC`].
pub fn check(workspace: &Workspace) -> Result<(), Error> {
    let doc_path = workspace.join(DOC);
    let doc = fs::read_to_string(&doc_path)
        .map_err(Error::io(format!("reading {}", doc_path.display())))?;
    let documented = documented_in(&doc);
    let files = rust_files::under(&workspace.join(""))?;
    let mut missing = BTreeSet::new();
    let mut found = 0;
    for file in &files {
        let source =
            fs::read_to_string(file).map_err(Error::io(format!("reading {}", file.display())))?;
        for hook in hooks_in(&outside_tests(&source)) {
            found += 1;
            if !documented.contains(&hook) {
                let shown = file.strip_prefix(workspace.join("")).unwrap_or(file);
                missing.insert(format!("`{hook}` ({})", shown.display()));
            }
        }
    }
    if missing.is_empty() {
        say(format!(
            "every data-testid in {} Rust files is in {DOC} ({found} uses)",
            files.len()
        ));
        return Ok(());
    }
    Err(Error::Check(format!(
        "{} data-testid values written by the code are missing from {DOC} (add each to the \
         first column of the table of its section, with its element and data attributes):\n  {}",
        missing.len(),
        missing.into_iter().collect::<Vec<_>>().join("\n  ")
    )))
}

/// The source's code before its test module, without comment lines: tests and comments (this
/// module's own among them) quote hooks without writing them to a page.
fn outside_tests(source: &str) -> String {
    source
        .lines()
        .take_while(|line| line.trim() != "#[cfg(test)]")
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The hooks a Rust source writes, each a literal id or a `format!` pattern with its
/// placeholders emptied (`lab-fault-{}`):
/// - `data-testid="id"` and `data-testid={"id"}`;
/// - `data-testid={format!("prefix-{name}")}`;
/// - `testid="id"`: a component's prop that it writes as its `data-testid`;
/// - where a file writes `data-testid={variable}`, the kebab-case string literals it passes as
///   arguments or tuple fields (`button("act-pause", …)`), except those that name CSS classes
///   (`classes!("…")`, `.then_some("…")`).
pub fn hooks_in(source: &str) -> BTreeSet<String> {
    let mut hooks = BTreeSet::new();
    let mut indirect = false;
    for (at, _) in source.match_indices("testid=") {
        let is_attribute = source[..at].ends_with("data-");
        let value = source[at + "testid=".len()..].trim_start_matches('{');
        // `[data-testid=\"lane-label\"]` in a Rust string: a selector the code looks up,
        // not an attribute it writes.
        if value.starts_with("\\\"") {
            continue;
        }
        let literal = string_literal(value).filter(|id| is_hook_text(id));
        let pattern = value
            .strip_prefix("format!(")
            .and_then(string_literal)
            .map(empty_placeholders)
            .filter(|pattern| is_hook_text(pattern));
        if let Some(id) = literal {
            hooks.insert(id.to_owned());
        } else if let Some(pattern) = pattern {
            hooks.insert(pattern);
        } else if is_attribute {
            indirect = true;
        }
    }
    if indirect {
        hooks.extend(ids_passed_as_arguments(source));
    }
    hooks
}

/// The string literal that `text` starts with, if it starts with one (no escapes in an id).
fn string_literal(text: &str) -> Option<&str> {
    let rest = text.strip_prefix('"')?;
    rest.find('"').map(|end| &rest[..end])
}

/// Kebab-case literals just after `(` or `,`, except in a `classes!` or `then_some` call.
fn ids_passed_as_arguments(source: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for (at, _) in source.match_indices('"') {
        let before = source[..at].trim_end();
        if !(before.ends_with('(') || before.ends_with(',')) {
            continue;
        }
        if before.ends_with("classes!(") || before.ends_with("then_some(") {
            continue;
        }
        if let Some(id) = string_literal(&source[at..]).filter(|id| is_kebab_id(id)) {
            ids.push(id.to_owned());
        }
    }
    ids
}

/// What an id (or a pattern, placeholders emptied) can be made of; anything else after
/// `testid=` is code that mentions the word (this module's own).
fn is_hook_text(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "-_{}".contains(c))
}

/// `act-pause`: lower-case words joined by hyphens, at least two.
fn is_kebab_id(text: &str) -> bool {
    text.contains('-')
        && text.split('-').all(|word| {
            !word.is_empty()
                && word
                    .chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        })
}

/// `timeline-{name}` → `timeline-{}`, so that a pattern matches whatever names its placeholder.
fn empty_placeholders(pattern: &str) -> String {
    let mut out = String::new();
    let mut in_braces = false;
    for c in pattern.chars() {
        match c {
            '{' => {
                in_braces = true;
                out.push('{');
            }
            '}' => {
                in_braces = false;
                out.push('}');
            }
            _ if !in_braces => out.push(c),
            _ => {}
        }
    }
    out
}

/// The hooks the documentation lists: every `code span` in the first column of a table row.
pub fn documented_in(doc: &str) -> BTreeSet<String> {
    doc.lines()
        .filter_map(|line| line.strip_prefix('|'))
        .filter_map(|row| row.split('|').next())
        .flat_map(|first| first.split('`').skip(1).step_by(2))
        .map(empty_placeholders)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(items: &[&str]) -> BTreeSet<String> {
        items.iter().map(|item| (*item).to_owned()).collect()
    }

    #[test]
    fn literal_ids_in_either_form() {
        let source = r#"html! { <button data-testid="step" /> <p data-testid={"now"}>{ t }</p> }"#;
        assert_eq!(hooks_in(source), set(&["step", "now"]));
    }

    #[test]
    fn ids_built_with_format_are_patterns() {
        let source = r#"<input data-testid={format!("lab-fault-{}", kind.id())} />
            <section data-testid={format!("timeline-{name}")}>"#;
        assert_eq!(hooks_in(source), set(&["lab-fault-{}", "timeline-{}"]));
    }

    #[test]
    fn code_that_mentions_the_attribute_is_no_hook() {
        let source = r#"for (at, _) in source.match_indices("testid=") { f("x") }"#;
        assert_eq!(hooks_in(source), set(&[]));
    }

    #[test]
    fn a_testid_prop_is_a_hook() {
        let source = r#"<FencingSwitch {fencing} testid="embed-fencing" />"#;
        assert_eq!(hooks_in(source), set(&["embed-fencing"]));
    }

    #[test]
    fn ids_passed_to_a_helper_that_writes_them() {
        let source = r#"
            fn button(testid: &'static str) -> Html { html! { <button data-testid={testid} /> } }
            let a = button("act-pause");
            let b = button(
                "act-crash",
            );
            let (class, testid) = ("bar lease", "lease-bar");
            html! { <div class={classes!("timeline-body", wide.then_some("names-above"))} /> }
            let label = format!("{}", "Pause it");"#;
        assert_eq!(
            hooks_in(source),
            set(&["act-pause", "act-crash", "lease-bar"])
        );
    }

    #[test]
    fn a_file_without_a_variable_hook_gives_no_argument_ids() {
        let source = r#"let x = f("not-an-id"); html! { <b data-testid="bold" /> }"#;
        assert_eq!(hooks_in(source), set(&["bold"]));
    }

    #[test]
    fn a_selector_in_a_string_is_no_hook() {
        let source = r#"let e = d.query_selector("[data-testid=\"lane-label\"][data-node=\"a\"]");
            e.get_attribute("data-node");"#;
        assert_eq!(hooks_in(source), set(&[]));
    }

    #[test]
    fn tests_are_not_read() {
        let source = "<b data-testid=\"bold\" />\n\
                      /// `data-testid=\"said\"` in a comment\n\
                      let s = \"#[cfg(test)] in a string\";\n\
                      <i data-testid=\"italic\" />\n\
                      #[cfg(test)]\n\
                      mod tests { \"data-testid=\\\"x\\\"\" }";
        assert_eq!(hooks_in(&outside_tests(source)), set(&["bold", "italic"]));
    }

    #[test]
    fn the_doc_lists_the_first_column_only() {
        let doc = "| `data-testid` | Element | Notes |\n\
                   |---|---|---|\n\
                   | `reset`, `back` | buttons | see `step` |\n\
                   | `lab-{name}` | inputs | `lab-runs` … |\n\
                   Prose with `stray` and | a bar.\n";
        assert_eq!(
            documented_in(doc),
            set(&["data-testid", "reset", "back", "lab-{}"])
        );
    }

    /// The check itself, on this repository, so that `cargo test` fails too.
    #[test]
    fn every_hook_in_this_workspace_is_documented() {
        let workspace = Workspace::locate().expect("xtask's workspace");
        if let Err(err) = check(&workspace) {
            panic!("{err}");
        }
    }

    #[test]
    fn a_hook_missing_from_the_doc_is_found() {
        let doc = documented_in("| `step` | button |\n| `lab-{name}` | input |\n");
        let hooks = hooks_in(
            r#"<b data-testid="step" /><i data-testid="back" /><input data-testid={format!("lab-{}", n)} />"#,
        );
        let missing: Vec<&String> = hooks.iter().filter(|h| !doc.contains(*h)).collect();
        assert_eq!(missing, vec!["back"]);
    }
}
