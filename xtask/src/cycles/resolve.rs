//! Which file each path of a module lands in. A path is followed as the compiler would, far
//! enough to know the file that defines what it names: `crate::`, `super::`, `self::`, a child
//! module's name, or a name the module imported; then module by module, through re-exports
//! (`pub use`, globs included), until it reaches the module that defines the item. So a facade
//! (`mod.rs` re-exporting its children) ties nobody to itself, and a path written inside a
//! function body counts as much as a `use`. A path into another crate lands nowhere.

use super::tree::{Import, ModId, Tree};

/// How deep re-exports are followed before giving up (a `use` loop the compiler would refuse).
const MAX_HOPS: usize = 32;

/// The module whose file defines what `path`, written in module `from`, names.
pub fn target(tree: &Tree, from: ModId, path: &[String]) -> Option<ModId> {
    start(tree, from, path, 0)
}

/// Finds where a path's first segments lead, then walks the rest.
fn start(tree: &Tree, from: ModId, path: &[String], hops: usize) -> Option<ModId> {
    if hops > MAX_HOPS {
        return None;
    }
    let (first, rest) = path.split_first()?;
    match first.as_str() {
        "crate" => walk(tree, 0, rest, hops),
        "self" => walk(tree, from, rest, hops),
        "super" => {
            let mut at = tree.modules[from].parent?;
            let mut rest = rest;
            while let Some(("super", more)) = rest.split_first().map(|(s, m)| (s.as_str(), m)) {
                at = tree.modules[at].parent?;
                rest = more;
            }
            walk(tree, at, rest, hops)
        }
        name => {
            let module = &tree.modules[from];
            if let Some(&child) = module.children.get(name) {
                return walk(tree, child, rest, hops);
            }
            let import = named(&module.imports, name)?;
            follow(tree, from, &import.path, rest, hops)
        }
    }
}

/// From module `at`, the rest of a path's segments.
fn walk(tree: &Tree, at: ModId, rest: &[String], hops: usize) -> Option<ModId> {
    let Some((segment, more)) = rest.split_first() else {
        return Some(at);
    };
    let module = &tree.modules[at];
    if more.is_empty() && module.defines.contains(segment) {
        return Some(at);
    }
    if let Some(&child) = module.children.get(segment) {
        return walk(tree, child, more, hops);
    }
    if module.defines.contains(segment) {
        // A type's associated item or an enum's variant: defined here.
        return Some(at);
    }
    if let Some(import) = named(&module.imports, segment) {
        return follow(tree, at, &import.path, more, hops);
    }
    for glob in module.imports.iter().filter(|import| import.name.is_none()) {
        let Some(source) = start(tree, at, &glob.path, hops + 1) else {
            continue;
        };
        if provides(tree, source, segment) {
            return walk(tree, source, rest, hops + 1);
        }
    }
    Some(at)
}

/// An import's path, written in `at`, then the segments after the imported name.
fn follow(
    tree: &Tree,
    at: ModId,
    import: &[String],
    more: &[String],
    hops: usize,
) -> Option<ModId> {
    let whole: Vec<String> = import.iter().chain(more).cloned().collect();
    start(tree, at, &whole, hops + 1)
}

/// Whether module `at` has `name` to offer: defined, a child, or imported by that name.
fn provides(tree: &Tree, at: ModId, name: &str) -> bool {
    let module = &tree.modules[at];
    module.defines.contains(name)
        || module.children.contains_key(name)
        || named(&module.imports, name).is_some()
}

fn named<'a>(imports: &'a [Import], name: &str) -> Option<&'a Import> {
    imports
        .iter()
        .find(|import| import.name.as_deref() == Some(name))
}
