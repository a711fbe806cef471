//! `cargo xtask cycles`: import cycles between the files of every crate of the workspace.
//!
//! Each library and binary is read from its root file with `syn` ([`tree`]), the same parser
//! the length gate uses, so the gate needs no tool of its own to install. Every path a file
//! writes counts — a `use` item, a path in a signature, in a function body or in a macro's input
//! such as `html!` — and is followed to the file that defines what it names ([`resolve`]), through
//! re-exports. A re-export (`pub use`) is a passage, not a use: it ties its file to nothing,
//! and paths through it land where the item is defined. Two or more files that reach each other are a circle (petgraph's Tarjan): they
//! cannot be read one after the other. A parent's `mod` declarations are no edge; a parent and
//! a child that take items from each other are a circle. Test code counts too ([`tree`]).
//! It reads Rust; it never changes a file.

mod resolve;
mod tree;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use petgraph::algo::tarjan_scc;
use petgraph::graph::DiGraph;

use crate::error::Error;
use crate::process::{describe as command_line, say};
use crate::workspace::Workspace;
use tree::Tree;

/// A circle: its files, and for each edge inside it the names the first file takes from the
/// second.
#[derive(Debug, PartialEq)]
pub struct Circle {
    pub files: Vec<PathBuf>,
    pub links: Vec<(PathBuf, PathBuf, Vec<String>)>,
}

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    if !args.is_empty() {
        return Err(Error::Usage("usage: cargo xtask cycles".to_string()));
    }
    check(workspace)
}

/// Fails, naming every circle and what ties it, when any crate has one.
pub fn check(workspace: &Workspace) -> Result<(), Error> {
    let root = workspace.join("");
    let mut found: Vec<Circle> = Vec::new();
    let roots = crate_roots(workspace)?;
    for crate_root in &roots {
        for circle in circles(crate_root)? {
            if !found.iter().any(|known| known.files == circle.files) {
                found.push(circle);
            }
        }
    }
    say(format!("read the modules of {} crate targets", roots.len()));
    if found.is_empty() {
        say("no import cycles between files");
        return Ok(());
    }
    let words: Vec<String> = found.iter().map(|c| describe(c, &root)).collect();
    Err(Error::Check(format!(
        "{} import cycle(s) between files:\n{}",
        found.len(),
        words.join("\n")
    )))
}

fn describe(circle: &Circle, root: &Path) -> String {
    let shown = |file: &Path| {
        file.strip_prefix(root)
            .unwrap_or(file)
            .display()
            .to_string()
    };
    let files: Vec<String> = circle.files.iter().map(|f| shown(f)).collect();
    let links: Vec<String> = circle
        .links
        .iter()
        .map(|(from, to, names)| {
            format!(
                "    {} uses {}: {}",
                shown(from),
                shown(to),
                names.join(", ")
            )
        })
        .collect();
    format!("  {}\n{}", files.join(" ⇄ "), links.join("\n"))
}

/// The circles among the files of the crate whose root file is `root`.
pub fn circles(root: &Path) -> Result<Vec<Circle>, Error> {
    let tree = Tree::read(root)?;
    // Between two files, the names the first takes from the second.
    let mut uses: BTreeMap<(PathBuf, PathBuf), BTreeSet<String>> = BTreeMap::new();
    for (id, module) in tree.modules.iter().enumerate() {
        let own = module
            .imports
            .iter()
            .filter(|i| i.reach == tree::Reach::Own);
        let written = own.map(|i| &i.path).chain(&module.paths);
        for path in written {
            let Some(to) = resolve::target(&tree, id, path) else {
                continue;
            };
            let to = &tree.modules[to].file;
            if *to != module.file {
                let name = path.last().cloned().unwrap_or_default();
                uses.entry((module.file.clone(), to.clone()))
                    .or_default()
                    .insert(name);
            }
        }
    }
    let mut graph = DiGraph::<&PathBuf, ()>::new();
    let files: BTreeSet<&PathBuf> = tree.modules.iter().map(|m| &m.file).collect();
    let index: BTreeMap<&PathBuf, _> = files.iter().map(|f| (*f, graph.add_node(*f))).collect();
    for (from, to) in uses.keys() {
        graph.add_edge(index[from], index[to], ());
    }
    let mut found: Vec<Circle> = tarjan_scc(&graph)
        .into_iter()
        .filter(|component| component.len() > 1)
        .map(|component| {
            let members: BTreeSet<&PathBuf> = component.iter().map(|i| graph[*i]).collect();
            let links = uses
                .iter()
                .filter(|((a, b), _)| members.contains(a) && members.contains(b))
                .map(|((a, b), names)| (a.clone(), b.clone(), names.iter().cloned().collect()))
                .collect();
            Circle {
                files: members.into_iter().cloned().collect(),
                links,
            }
        })
        .collect();
    found.sort_by(|a, b| a.files.cmp(&b.files));
    Ok(found)
}

/// The root file of every library and binary of the workspace's packages, from `cargo metadata`.
fn crate_roots(workspace: &Workspace) -> Result<Vec<PathBuf>, Error> {
    let mut command = workspace.cargo();
    command.args(["metadata", "--no-deps", "--format-version", "1"]);
    let output = command.output().map_err(|source| Error::Spawn {
        command: command_line(&command),
        source,
    })?;
    if !output.status.success() {
        return Err(Error::Check(format!(
            "`{}` failed: {}",
            command_line(&command),
            String::from_utf8_lossy(&output.stderr).trim()
        )));
    }
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout)
        .map_err(|err| Error::Config(format!("cargo metadata printed no JSON: {err}")))?;
    let mut roots = Vec::new();
    for package in metadata["packages"].as_array().into_iter().flatten() {
        for target in package["targets"].as_array().into_iter().flatten() {
            let kinds = target["kind"].as_array().into_iter().flatten();
            let product = kinds
                .filter_map(|kind| kind.as_str())
                .any(|kind| matches!(kind, "lib" | "rlib" | "cdylib" | "bin" | "proc-macro"));
            if let (true, Some(path)) = (product, target["src_path"].as_str()) {
                roots.push(PathBuf::from(path));
            }
        }
    }
    Ok(roots)
}

#[cfg(test)]
mod tests;
