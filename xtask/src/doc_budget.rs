//! `cargo xtask test`'s `docs` step: the two front-door documents stay maps, not atlases.
//! README.md opens with the two commands and stays within [`README_LINES`]; ARCHITECTURE.md
//! within [`ARCHITECTURE_LINES`]. Generated tables (benchmarks, the reality check's runs) live
//! in `docs/`, linked from them. This counts lines; it judges no wording.

use std::fs;

use crate::error::Error;
use crate::process::say;
use crate::workspace::Workspace;

pub const README_LINES: usize = 200;
pub const ARCHITECTURE_LINES: usize = 250;

/// The two commands README.md must show before anything else it shows in code.
const COMMANDS: [&str; 2] = ["cargo xtask serve", "cargo xtask test"];

pub fn check(workspace: &Workspace) -> Result<(), Error> {
    let mut problems = Vec::new();
    for (name, budget) in [
        ("README.md", README_LINES),
        ("ARCHITECTURE.md", ARCHITECTURE_LINES),
    ] {
        let path = workspace.join(name);
        let text =
            fs::read_to_string(&path).map_err(Error::io(format!("reading {}", path.display())))?;
        problems.extend(over_budget(name, &text, budget));
        if name == "README.md" {
            problems.extend(commands_first(&text));
        }
    }
    if problems.is_empty() {
        say(format!(
            "README.md within {README_LINES} lines, ARCHITECTURE.md within {ARCHITECTURE_LINES}, \
             the two commands first"
        ));
        return Ok(());
    }
    Err(Error::Check(problems.join("\n")))
}

fn over_budget(name: &str, text: &str, budget: usize) -> Option<String> {
    let lines = text.lines().count();
    (lines > budget).then(|| {
        format!(
            "{name} is {lines} lines, over its budget of {budget}: a map, not an atlas; move \
             detail and generated tables to docs/ and link them"
        )
    })
}

/// The first code block of the README must hold both commands.
fn commands_first(text: &str) -> Option<String> {
    let block: String = text.split("```").nth(1).unwrap_or_default().to_string();
    let missing: Vec<&str> = COMMANDS
        .into_iter()
        .filter(|command| !block.contains(command))
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "README.md's first code block lacks {}: the two commands come first",
            missing.join(" and ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_document_over_its_budget_is_named_with_its_length() {
        let text = "line\n".repeat(201);
        let found = over_budget("README.md", &text, README_LINES).expect("over");
        assert!(found.starts_with("README.md is 201 lines, over its budget of 200"));
        assert_eq!(
            over_budget("README.md", &"line\n".repeat(200), README_LINES),
            None
        );
    }

    #[test]
    fn the_two_commands_must_open_the_readme() {
        let good = "# L\n\n```sh\ncargo xtask serve\ncargo xtask test\n```\n";
        assert_eq!(commands_first(good), None);
        let late =
            "# L\n\n```sh\ncargo build\n```\n\n```sh\ncargo xtask serve\ncargo xtask test\n```\n";
        assert!(
            commands_first(late)
                .expect("missing")
                .contains("cargo xtask serve and cargo xtask test")
        );
    }
}
