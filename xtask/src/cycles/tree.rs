//! One crate's modules, read from its root file with `syn`: for each module, the file it is
//! written in, its parent and children, the names it defines, what its `use` items import, and
//! every path its other items write — in signatures, bodies and macro input alike (a Yew
//! `html!` names components by path too). Test code is read like the rest, but an inline
//! `#[cfg(test)] mod` counts as a file of its own (`sim.rs#tests`): a file's unit tests take
//! from other files without their file taking anything, and a test-only helper module that
//! another takes from is structure like any other. It reads; it resolves nothing (that is
//! [`super::resolve`]).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use proc_macro2::{TokenStream, TokenTree};
use quote::ToTokens;

use crate::error::Error;
use crate::rust_files;

pub type ModId = usize;

/// One `use` leaf: the name it brings in (none for a glob) and the path it names.
#[derive(Debug, Clone)]
pub struct Import {
    pub name: Option<String>,
    pub path: Vec<String>,
    pub reach: Reach,
}

/// What a `use` is for: the module's own code, or passing a name on (`pub use`, any `pub(..)`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reach {
    Own,
    ReExport,
}

#[derive(Debug)]
pub struct Module {
    pub file: PathBuf,
    pub parent: Option<ModId>,
    pub children: BTreeMap<String, ModId>,
    /// Names of the items defined here (types, functions, constants, traits, macros).
    pub defines: BTreeSet<String>,
    pub imports: Vec<Import>,
    /// Paths of two or more segments written outside `use` items.
    pub paths: Vec<Vec<String>>,
}

#[derive(Debug)]
pub struct Tree {
    pub modules: Vec<Module>,
}

impl Tree {
    /// The module tree of the crate whose root file is `root`.
    pub fn read(root: &Path) -> Result<Tree, Error> {
        let mut tree = Tree {
            modules: Vec::new(),
        };
        let parsed = rust_files::parse(root)?;
        let dir = root.parent().unwrap_or(Path::new("")).to_path_buf();
        let id = tree.add(root, None);
        tree.read_items(id, &parsed.items, &dir)?;
        Ok(tree)
    }

    fn add(&mut self, file: &Path, parent: Option<ModId>) -> ModId {
        self.modules.push(Module {
            file: file.to_path_buf(),
            parent,
            children: BTreeMap::new(),
            defines: BTreeSet::new(),
            imports: Vec::new(),
            paths: Vec::new(),
        });
        self.modules.len() - 1
    }

    /// Reads a module's items; `dir` is where its `mod x;` children's files are.
    fn read_items(&mut self, id: ModId, items: &[syn::Item], dir: &Path) -> Result<(), Error> {
        for item in items {
            match item {
                syn::Item::Mod(module) => self.read_child(id, module, dir)?,
                syn::Item::Use(used) if used.leading_colon.is_none() => {
                    let reach = match used.vis {
                        syn::Visibility::Inherited => Reach::Own,
                        _ => Reach::ReExport,
                    };
                    let imports = &mut self.modules[id].imports;
                    let first = imports.len();
                    use_leaves(&used.tree, &[], imports);
                    for import in &mut imports[first..] {
                        import.reach = reach;
                    }
                }
                syn::Item::Use(_) => {}
                other => {
                    let module = &mut self.modules[id];
                    if let Some(name) = defined_name(other) {
                        module.defines.insert(name);
                    }
                    scan_paths(other.to_token_stream(), &mut module.paths);
                }
            }
        }
        Ok(())
    }

    fn read_child(
        &mut self,
        parent: ModId,
        module: &syn::ItemMod,
        dir: &Path,
    ) -> Result<(), Error> {
        let name = module.ident.to_string();
        let child_dir = dir.join(&name);
        if let Some((_, items)) = &module.content {
            let mut file = self.modules[parent].file.clone();
            if is_test_only(&module.attrs) {
                file.as_mut_os_string().push(format!("#{name}"));
            }
            let id = self.add(&file, Some(parent));
            self.modules[parent].children.insert(name, id);
            return self.read_items(id, items, &child_dir);
        }
        let (file, children_dir) = child_file(dir, &name, &module.attrs)?;
        let parsed = rust_files::parse(&file)?;
        let id = self.add(&file, Some(parent));
        self.modules[parent].children.insert(name, id);
        self.read_items(id, &parsed.items, &children_dir)
    }
}

/// The file of `mod name;` declared in a module whose children live in `dir`, and the folder
/// of its own children: `name.rs` (children in `name/`) or `name/mod.rs` (children beside it),
/// or a `#[path]` attribute's file.
fn child_file(
    dir: &Path,
    name: &str,
    attrs: &[syn::Attribute],
) -> Result<(PathBuf, PathBuf), Error> {
    for attr in attrs.iter().filter(|attr| attr.path().is_ident("path")) {
        if let syn::Meta::NameValue(pair) = &attr.meta
            && let syn::Expr::Lit(syn::ExprLit {
                lit: syn::Lit::Str(path),
                ..
            }) = &pair.value
        {
            let file = dir.join(path.value());
            let children = file.with_extension("");
            return Ok((file, children));
        }
    }
    let flat = dir.join(format!("{name}.rs"));
    if flat.exists() {
        return Ok((flat, dir.join(name)));
    }
    let nested = dir.join(name).join("mod.rs");
    if nested.exists() {
        return Ok((nested, dir.join(name)));
    }
    Err(Error::Check(format!(
        "`mod {name};` in {}: neither {} nor {} exists",
        dir.display(),
        flat.display(),
        nested.display()
    )))
}

/// Attributes that include `#[cfg(test)]`.
fn is_test_only(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|attr| {
        attr.path().is_ident("cfg")
            && attr
                .parse_args::<syn::Ident>()
                .is_ok_and(|word| word == "test")
    })
}

/// The name an item defines in its module's namespace, if any.
fn defined_name(item: &syn::Item) -> Option<String> {
    let ident = match item {
        syn::Item::Const(i) => &i.ident,
        syn::Item::Enum(i) => &i.ident,
        syn::Item::Fn(i) => &i.sig.ident,
        syn::Item::Static(i) => &i.ident,
        syn::Item::Struct(i) => &i.ident,
        syn::Item::Trait(i) => &i.ident,
        syn::Item::Type(i) => &i.ident,
        syn::Item::Union(i) => &i.ident,
        syn::Item::Macro(i) => i.ident.as_ref()?,
        _ => return None,
    };
    Some(ident.to_string())
}

/// The leaves of a `use` tree: `use a::{b::C, d as e, self, f::*}` gives `C` = `a::b::C`,
/// `e` = `a::d`, `a` = `a`, and a glob of `a::f`.
fn use_leaves(tree: &syn::UseTree, prefix: &[String], into: &mut Vec<Import>) {
    let joined = |last: &syn::Ident| {
        let mut path = prefix.to_vec();
        if last != "self" {
            path.push(last.to_string());
        }
        path
    };
    match tree {
        syn::UseTree::Path(step) => {
            let mut longer = prefix.to_vec();
            longer.push(step.ident.to_string());
            use_leaves(&step.tree, &longer, into);
        }
        syn::UseTree::Name(leaf) => {
            let path = joined(&leaf.ident);
            into.push(Import {
                name: path.last().cloned(),
                path,
                reach: Reach::Own,
            });
        }
        syn::UseTree::Rename(leaf) => into.push(Import {
            name: Some(leaf.rename.to_string()),
            path: joined(&leaf.ident),
            reach: Reach::Own,
        }),
        syn::UseTree::Glob(_) => into.push(Import {
            name: None,
            path: prefix.to_vec(),
            reach: Reach::Own,
        }),
        syn::UseTree::Group(group) => {
            for tree in &group.items {
                use_leaves(tree, prefix, into);
            }
        }
    }
}

/// Every path of two or more segments in `tokens` (`a::b`, `crate::x::y`, `super::z`), at any
/// depth, macro input included. A path after a leading `::` names another crate: skipped.
pub fn scan_paths(tokens: TokenStream, into: &mut Vec<Vec<String>>) {
    let tokens: Vec<TokenTree> = tokens.into_iter().collect();
    let mut at = 0;
    while at < tokens.len() {
        match &tokens[at] {
            TokenTree::Group(group) => {
                scan_paths(group.stream(), into);
                at += 1;
            }
            TokenTree::Ident(first) if !(at >= 2 && is_path_sep(&tokens, at - 2)) => {
                let mut path = vec![first.to_string()];
                let mut next = at + 1;
                while is_path_sep(&tokens, next) {
                    let Some(TokenTree::Ident(segment)) = tokens.get(next + 2) else {
                        break;
                    };
                    path.push(segment.to_string());
                    next += 3;
                }
                if path.len() > 1 {
                    into.push(path);
                }
                at = next;
            }
            _ => at += 1,
        }
    }
}

/// `::` at `at`: a joint `:` followed by `:`.
fn is_path_sep(tokens: &[TokenTree], at: usize) -> bool {
    matches!(
        (tokens.get(at), tokens.get(at + 1)),
        (Some(TokenTree::Punct(a)), Some(TokenTree::Punct(b)))
            if a.as_char() == ':' && a.spacing() == proc_macro2::Spacing::Joint && b.as_char() == ':'
    )
}
