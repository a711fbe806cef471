//! `cargo xtask cycles`: import cycles between the modules of every crate of the workspace.
//!
//! cargo-modules (pinned, [`tools::ensure_cargo_modules`]) reads each library and binary with
//! rust-analyzer and prints its items and their `use` edges as a graph. Its own `--acyclic` works
//! item by item (a type and its method already form a circle there), so this module folds every
//! item into the module that defines it and looks for strongly connected components of two or
//! more modules (petgraph's Tarjan). A module and one of its children that use each other count:
//! they are two files that cannot be read one after the other. Tests (`#[cfg(test)]`) are left
//! out. This module reads cargo-modules' output; it never reads Rust itself.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;

use crate::error::Error;
use crate::process::{describe as command_line, say};
use crate::tools;
use crate::workspace::Workspace;

/// One crate target to read: the package and `--lib` or `--bin NAME`.
struct Target {
    package: String,
    selector: Vec<String>,
}

/// A circle: the modules in it, and for each import that closes it, an item that one module
/// takes from another.
#[derive(Debug, PartialEq)]
pub struct Circle {
    pub modules: Vec<String>,
    pub links: Vec<(String, String)>,
}

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    if !args.is_empty() {
        return Err(Error::Usage("usage: cargo xtask cycles".to_string()));
    }
    check(workspace)
}

/// Fails, naming every circle and what ties it, when any crate has one.
pub fn check(workspace: &Workspace) -> Result<(), Error> {
    tools::ensure_cargo_modules(workspace)?;
    let mut found = Vec::new();
    for target in targets(workspace)? {
        say(format!(
            "reading the modules of {} ({})",
            target.package,
            target.selector.join(" ")
        ));
        let graph = stdout_of(
            workspace
                .cargo()
                .args(["modules", "dependencies", "--package", &target.package])
                .args(&target.selector)
                // The "owns" edges stay: they keep every module in the graph (without them a
                // module whose items are used only by path would be left out).
                .args(["--no-externs", "--no-sysroot"]),
        )?;
        found.extend(circles(&graph));
    }
    if found.is_empty() {
        say("no import cycles between modules");
        return Ok(());
    }
    let words: Vec<String> = found.iter().map(describe).collect();
    Err(Error::Check(format!(
        "{} import cycle(s) between modules:\n{}",
        found.len(),
        words.join("\n")
    )))
}

fn describe(circle: &Circle) -> String {
    let links: Vec<String> = circle
        .links
        .iter()
        .map(|(from, to)| format!("    {from} uses {to}"))
        .collect();
    format!("  {}\n{}", circle.modules.join(" ⇄ "), links.join("\n"))
}

/// Every library and binary of the workspace's packages, from `cargo metadata`.
fn targets(workspace: &Workspace) -> Result<Vec<Target>, Error> {
    let metadata =
        stdout_of(
            workspace
                .cargo()
                .args(["metadata", "--no-deps", "--format-version", "1"]),
        )?;
    let metadata: serde_json::Value = serde_json::from_str(&metadata)
        .map_err(|err| Error::Config(format!("cargo metadata printed no JSON: {err}")))?;
    let packages = metadata["packages"].as_array().cloned().unwrap_or_default();
    let mut targets = Vec::new();
    for package in &packages {
        let name = package["name"].as_str().unwrap_or_default().to_string();
        for target in package["targets"].as_array().into_iter().flatten() {
            let kinds: Vec<&str> = target["kind"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|k| k.as_str())
                .collect();
            let selector = if kinds.contains(&"lib") {
                vec!["--lib".to_string()]
            } else if kinds.contains(&"bin") {
                let bin = target["name"].as_str().unwrap_or_default().to_string();
                vec!["--bin".to_string(), bin]
            } else {
                continue;
            };
            targets.push(Target {
                package: name.clone(),
                selector,
            });
        }
    }
    Ok(targets)
}

/// The circles of one crate's graph, as cargo-modules prints it (Graphviz: a node per line,
/// `"path" [...]; // "kind" node`, and an edge per line, `"from" -> "to" [...]; // "uses" edge`).
pub fn circles(dot: &str) -> Vec<Circle> {
    let modules: BTreeSet<&str> = dot
        .lines()
        .filter(|line| line.ends_with("// \"mod\" node") || line.ends_with("// \"crate\" node"))
        .filter_map(first_quoted)
        .collect();
    let module_of = |item: &str| {
        modules
            .iter()
            .filter(|m| item == **m || item.starts_with(&format!("{m}::")))
            .max_by_key(|m| m.len())
            .copied()
    };
    // Between two modules, the first item seen that one takes from the other.
    let mut uses: BTreeMap<(&str, &str), (&str, &str)> = BTreeMap::new();
    for line in dot.lines().filter(|l| l.ends_with("// \"uses\" edge")) {
        let Some((from, to)) = edge(line) else {
            continue;
        };
        if let (Some(a), Some(b)) = (module_of(from), module_of(to))
            && a != b
        {
            uses.entry((a, b)).or_insert((from, to));
        }
    }
    let mut graph = DiGraph::<&str, ()>::new();
    let index: BTreeMap<&str, _> = modules.iter().map(|m| (*m, graph.add_node(m))).collect();
    for (a, b) in uses.keys() {
        graph.add_edge(index[a], index[b], ());
    }
    let mut found: Vec<Circle> = tarjan_scc(&graph)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let members: BTreeSet<&str> = component.iter().map(|i| graph[*i]).collect();
            let links = uses
                .iter()
                .filter(|((a, b), _)| members.contains(a) && members.contains(b))
                .map(|(_, (from, to))| (from.to_string(), to.to_string()))
                .collect();
            Circle {
                modules: members.iter().map(|m| m.to_string()).collect(),
                links,
            }
        })
        .collect();
    found.sort_by(|a, b| a.modules.cmp(&b.modules));
    found
}

/// What `command` prints on stdout; an error with its stderr if it fails.
fn stdout_of(command: &mut Command) -> Result<String, Error> {
    let output = command.output().map_err(|source| Error::Spawn {
        command: command_line(command),
        source,
    })?;
    if !output.status.success() {
        return Err(Error::Check(format!(
            "`{}` failed: {}",
            command_line(command),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// The text between the first pair of double quotes.
fn first_quoted(line: &str) -> Option<&str> {
    let start = line.find('"')? + 1;
    let end = start + line[start..].find('"')?;
    Some(&line[start..end])
}

/// `"from" -> "to"` at the start of an edge line.
fn edge(line: &str) -> Option<(&str, &str)> {
    let from = first_quoted(line)?;
    let rest = &line[line.find("->")? + 2..];
    Some((from, first_quoted(rest)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(path: &str, kind: &str) -> String {
        format!("    \"{path}\" [label=\"pub {kind}|{path}\"]; // \"{kind}\" node\n")
    }

    fn uses(from: &str, to: &str) -> String {
        format!(
            "    \"{from}\" -> \"{to}\" [label=\"uses\"] [constraint=false]; // \"uses\" edge\n"
        )
    }

    fn graph(lines: &[String]) -> String {
        format!("digraph {{\n{}}}\n", lines.concat())
    }

    #[test]
    fn two_modules_that_take_items_from_each_other_are_a_circle() {
        let dot = graph(&[
            node("k", "crate"),
            node("k::a", "mod"),
            node("k::a::A", "struct"),
            node("k::b", "mod"),
            node("k::b::f", "fn"),
            uses("k::a::A", "k::b::f"),
            uses("k::b::f", "k::a::A"),
        ]);
        assert_eq!(
            circles(&dot),
            vec![Circle {
                modules: vec!["k::a".into(), "k::b".into()],
                links: vec![
                    ("k::a::A".into(), "k::b::f".into()),
                    ("k::b::f".into(), "k::a::A".into()),
                ],
            }]
        );
    }

    #[test]
    fn a_type_and_its_method_or_imports_one_way_are_no_circle() {
        let dot = graph(&[
            node("k", "crate"),
            node("k::a", "mod"),
            node("k::a::A", "struct"),
            node("k::a::A::new", "fn"),
            node("k::b", "mod"),
            node("k::b::f", "fn"),
            uses("k::a::A", "k::a::A::new"),
            uses("k::a::A::new", "k::a::A"),
            uses("k::b::f", "k::a::A"),
        ]);
        assert_eq!(circles(&dot), Vec::new());
    }

    #[test]
    fn a_parent_and_a_child_that_use_each_other_are_a_circle_across_three_modules() {
        let dot = graph(&[
            node("k", "crate"),
            node("k::p", "mod"),
            node("k::p::T", "struct"),
            node("k::p::c", "mod"),
            node("k::p::c::g", "fn"),
            node("k::q", "mod"),
            node("k::q::h", "fn"),
            uses("k::p::T", "k::q::h"),
            uses("k::q::h", "k::p::c::g"),
            uses("k::p::c::g", "k::p::T"),
        ]);
        let found = circles(&dot);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].modules, ["k::p", "k::p::c", "k::q"]);
    }
}
