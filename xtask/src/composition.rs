//! What the app's wasm is made of, for `cargo xtask bench`: the biggest items and each crate's
//! share of the code, read with twiggy (pinned by [`tools`]) from the wasm that Cargo builds.
//!
//! twiggy must read Cargo's output (`target/wasm32-unknown-unknown/wasm-release/lockstep.wasm`), not
//! the shipped file: it panics on wasm-opt's output. That file still holds what wasm-bindgen and
//! wasm-opt remove before shipping (the name sections, the `__wasm_bindgen_unstable` custom
//! section, the `__wbindgen_describe_*` functions and their exports), so the report sets those
//! apart and gives shares of the rest; and its sizes are before wasm-opt, so they are larger
//! than the shipped wasm's. This module measures and prints; it judges nothing.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use crate::dist::size;
use crate::error::Error;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

/// How many of the biggest items the report lists.
const TOP_ITEMS: usize = 15;
/// How many crates the report lists by name; the rest are summed on one row.
const TOP_CRATES: usize = 14;

/// Runs twiggy on the wasm that the last release build left and returns the report (a Markdown
/// table), for the caller to print.
pub fn report(workspace: &Workspace) -> Result<String, Error> {
    tools::ensure_twiggy(workspace)?;
    let wasm = workspace.page_wasm("lockstep");
    say(format!(
        "reading the wasm's composition with twiggy ({})",
        wasm.display()
    ));
    let csv = twiggy_top(workspace, &wasm)?;
    let items = parse_csv(&csv).map_err(|problem| {
        Error::Config(format!("could not read twiggy's CSV output: {problem}"))
    })?;
    Ok(Composition::of(&items).table(tools::TWIGGY_VERSION))
}

/// `twiggy top -f csv <wasm>`: every item with its shallow size, biggest first.
fn twiggy_top(workspace: &Workspace, wasm: &Path) -> Result<String, Error> {
    let mut command = workspace.command("twiggy");
    command.arg("top").args(["-f", "csv"]).arg(wasm);
    let output = command.output().map_err(|source| Error::Spawn {
        command: process::describe(&command),
        source,
    })?;
    if !output.status.success() {
        eprint!("{}", String::from_utf8_lossy(&output.stderr));
        return Err(Error::Failed {
            command: process::describe(&command),
            status: output.status,
        });
    }
    String::from_utf8(output.stdout)
        .map_err(|_| Error::Config("twiggy printed something that is not UTF-8".to_string()))
}

/// One row of twiggy's `top`: an item of the wasm (a function, a data segment, a section...) and
/// its own size in bytes.
#[derive(Debug, PartialEq)]
struct Item {
    name: String,
    bytes: u64,
}

/// Parses `twiggy top -f csv`: a header, then `Name,ShallowSize,...` rows, the name quoted (with
/// `""` for a quote) when it holds a comma or a quote.
fn parse_csv(text: &str) -> Result<Vec<Item>, String> {
    let mut lines = text.lines();
    match lines.next() {
        Some(header) if header.starts_with("Name,ShallowSize,") => {}
        other => {
            return Err(format!(
                "expected a `Name,ShallowSize,...` header, got {other:?}"
            ));
        }
    }
    lines
        .filter(|line| !line.is_empty())
        .map(|line| {
            let (name, rest) = first_field(line)?;
            let bytes = rest.split(',').next().unwrap_or_default();
            let bytes = bytes
                .parse()
                .map_err(|_| format!("no size after the name in {line:?}"))?;
            Ok(Item { name, bytes })
        })
        .collect()
}

/// The first CSV field of `line`, unquoted, and what follows its comma.
fn first_field(line: &str) -> Result<(String, &str), String> {
    let Some(quoted) = line.strip_prefix('"') else {
        return line
            .split_once(',')
            .map(|(name, rest)| (name.to_string(), rest))
            .ok_or_else(|| format!("no comma in {line:?}"));
    };
    let mut name = String::new();
    let mut chars = quoted.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        if c != '"' {
            name.push(c);
        } else if chars.next_if(|&(_, next)| next == '"').is_some() {
            name.push('"');
        } else {
            let rest = quoted[at + 1..]
                .strip_prefix(',')
                .ok_or_else(|| format!("no comma after the quoted name in {line:?}"))?;
            return Ok((name, rest));
        }
    }
    Err(format!("unterminated quote in {line:?}"))
}

/// Where an item's bytes count.
#[derive(Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Part {
    /// Removed by wasm-bindgen or wasm-opt before shipping: names, custom sections, describe
    /// functions.
    Removed,
    /// The data section: string literals, tables, anything embedded with `include_str!`.
    Data,
    /// Functions of one crate (by the first path of the item's name).
    Code(String),
    /// Items of the module itself (tables, types, imports, exports) and functions whose name
    /// names no crate.
    Unattributed,
}

/// Which [`Part`] an item of twiggy's `top` belongs to, by its name.
fn classify(name: &str) -> Part {
    let describe = name.contains("__wbindgen_describe")
        || name.contains("wasm_bindgen::describe::WasmDescribe");
    if name.ends_with(" subsection") || name.starts_with("custom section ") || describe {
        return Part::Removed;
    }
    if name.starts_with("data[") {
        return Part::Data;
    }
    match crate_of(name) {
        Some(krate) => Part::Code(krate.to_string()),
        None => Part::Unattributed,
    }
}

/// The crate a function's demangled name starts with: `lockstep_sim` for
/// `lockstep_sim::engine::sim::Sim::dispatch::h…`, `yew` for `<yew::html::Html as …>::…`,
/// `compiler_builtins` for `compiler_builtins[40f5…]::math::…`. A name whose first path names a
/// type parameter (`<T as core::any::Any>::type_id`) counts for the trait's crate.
fn crate_of(name: &str) -> Option<&str> {
    let first = leading_crate(name);
    if first.is_some() {
        return first;
    }
    let (_, after_as) = name.split_once(" as ")?;
    leading_crate(after_as)
}

/// The crate of the path at the start of `text`, past any `<`, `&`, `*const `, `[`, `(`.
fn leading_crate(text: &str) -> Option<&str> {
    let mut text = text;
    loop {
        let trimmed = text
            .trim_start_matches(['<', '&', '[', '(', ' '])
            .trim_start_matches("*const ")
            .trim_start_matches("*mut ")
            .trim_start_matches("mut ")
            .trim_start_matches("dyn ");
        if trimmed.len() == text.len() {
            break;
        }
        text = trimmed;
    }
    let end = text
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(text.len());
    let (krate, rest) = text.split_at(end);
    // `core[a1b2…]::` is how std's crates appear when linked from the sysroot.
    let rest = match rest.strip_prefix('[') {
        Some(hashed) => &hashed[hashed.find(']')? + 1..],
        None => rest,
    };
    (!krate.is_empty() && rest.starts_with("::")).then_some(krate)
}

/// The report's figures.
#[derive(Debug, PartialEq)]
struct Composition {
    total: u64,
    removed: u64,
    /// Bytes per part (without [`Part::Removed`]), biggest first.
    parts: Vec<(Part, u64)>,
    /// The biggest items that ship, biggest first.
    top: Vec<(String, u64)>,
}

impl Composition {
    fn of(items: &[Item]) -> Self {
        let mut by_part: BTreeMap<Part, u64> = BTreeMap::new();
        let mut shipped = Vec::new();
        for item in items {
            let part = classify(&item.name);
            if part != Part::Removed {
                shipped.push((item.name.clone(), item.bytes));
            }
            *by_part.entry(part).or_default() += item.bytes;
        }
        let removed = by_part.remove(&Part::Removed).unwrap_or_default();
        let mut parts: Vec<(Part, u64)> = by_part.into_iter().collect();
        parts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        shipped.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        shipped.truncate(TOP_ITEMS);
        Composition {
            total: items.iter().map(|item| item.bytes).sum(),
            removed,
            parts,
            top: shipped,
        }
    }

    fn kept(&self) -> u64 {
        self.total - self.removed
    }

    fn table(&self, twiggy_version: &str) -> String {
        let kept = self.kept();
        let share = |bytes: u64| {
            if kept == 0 {
                0.0
            } else {
                100.0 * bytes as f64 / kept as f64
            }
        };
        let mut out = String::new();
        // Writing to a String cannot fail.
        let _ = writeln!(
            out,
            "\nThe wasm's composition (twiggy {twiggy_version} on Cargo's lockstep.wasm, before \
             wasm-bindgen and wasm-opt): {} in all, of which {} are names, custom sections and \
             `__wbindgen_describe_*` functions that wasm-bindgen and wasm-opt remove; the shares \
             are of the other {}, and are before wasm-opt's -Oz (the shipped wasm is smaller).\n",
            size(self.total),
            size(self.removed),
            size(kept),
        );
        let _ = writeln!(out, "| part | raw before wasm-opt | share |");
        let _ = writeln!(out, "|---|---:|---:|");
        let mut named = 0;
        let mut others = (0, 0u64);
        for (part, bytes) in &self.parts {
            let label = match part {
                Part::Data => "data section (strings, tables, embedded files)".to_string(),
                Part::Code(krate) if named < TOP_CRATES => {
                    named += 1;
                    format!("code: {krate}")
                }
                Part::Code(_) => {
                    others = (others.0 + 1, others.1 + bytes);
                    continue;
                }
                Part::Unattributed => "unattributed (module structure, glue)".to_string(),
                Part::Removed => continue,
            };
            let _ = writeln!(
                out,
                "| {label} | {} | {:.1} % |",
                size(*bytes),
                share(*bytes)
            );
        }
        if others.0 > 0 {
            let _ = writeln!(
                out,
                "| code: {} other crates | {} | {:.1} % |",
                others.0,
                size(others.1),
                share(others.1)
            );
        }
        let _ = writeln!(out, "\n| biggest items | raw before wasm-opt | share |");
        let _ = writeln!(out, "|---|---:|---:|");
        for (name, bytes) in &self.top {
            let _ = writeln!(
                out,
                "| `{}` | {} | {:.1} % |",
                without_hash(name).replace('|', "\\|"),
                size(*bytes),
                share(*bytes)
            );
        }
        out
    }
}

/// A symbol without its trailing `::h0123456789abcdef` (the same function's copies differ only
/// there, and the table reads better without it).
fn without_hash(name: &str) -> &str {
    match name.rsplit_once("::h") {
        Some((path, hash)) if hash.len() == 16 && hash.chars().all(|c| c.is_ascii_hexdigit()) => {
            path
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CSV: &str = "\
Name,ShallowSize,ShallowSizePercent,RetainedSize,RetainedSizePercent
\"\"\"function names\"\" subsection\",500,50.0,,
custom section '__wasm_bindgen_unstable',200,20.0,,
data[0],120,12.0,,
<lockstep::components::timeline::Timeline as yew::functional::FunctionProvider>::run::inner::h9a38a54735aebff5,60,6.0,,
lockstep_sim::vocabulary::happening::_::<impl serde_core::ser::Serialize for lockstep_sim::vocabulary::happening::Happening>::serialize::h448dba5b854175b2,40,4.0,,
<serde_path_to_error::de::TrackedSeed<X> as serde_core::de::DeserializeSeed>::deserialize::h19d8c81b32136167,30,3.0,,
compiler_builtins[40f58339702e5617]::math::libm_math::pow::pow,20,2.0,,
<&T as core::fmt::Display>::fmt::h0000000000000001,10,1.0,,
\"export \"\"__wbindgen_describe___wbg_new_63c3\"\"\",9,0.9,,
__wbindgen_describe___wbg_new_63c3,8,0.8,,
js_sys::_::<impl wasm_bindgen::describe::WasmDescribe for js_sys::Proxy>::describe::h721ccf1cbc6e7283,7,0.7,,
elem[0],5,0.5,,
main,1,0.1,,
";

    #[test]
    fn parses_quoted_and_plain_names() {
        let items = parse_csv(CSV).unwrap();
        assert_eq!(items.len(), 13);
        assert_eq!(
            items[0],
            Item {
                name: "\"function names\" subsection".to_string(),
                bytes: 500
            }
        );
        assert_eq!(items[2].name, "data[0]");
        assert_eq!(items[2].bytes, 120);
        assert_eq!(
            items[8].name,
            "export \"__wbindgen_describe___wbg_new_63c3\""
        );
        assert_eq!(items[8].bytes, 9);
    }

    #[test]
    fn rejects_what_is_not_twiggy_csv() {
        assert!(parse_csv("Shallow Bytes │ Item\n").is_err());
        assert!(parse_csv("Name,ShallowSize,x\n\"open,1,,\n").is_err());
        assert!(parse_csv("Name,ShallowSize,x\nfoo,big,,\n").is_err());
    }

    #[test]
    fn attributes_functions_to_crates() {
        assert_eq!(
            classify("<lockstep::app::App as yew::functional::FunctionProvider>::run::h1"),
            Part::Code("lockstep".to_string())
        );
        assert_eq!(
            classify("lockstep_sim::engine::sim::Sim::dispatch::hd2ea8f45be4ce8e0"),
            Part::Code("lockstep_sim".to_string())
        );
        assert_eq!(
            classify("compiler_builtins[40f58339702e5617]::int::specialized_div_rem::u128_div_rem"),
            Part::Code("compiler_builtins".to_string())
        );
        assert_eq!(
            classify("<&T as core::fmt::Display>::fmt::h1"),
            Part::Code("core".to_string())
        );
        assert_eq!(
            classify("<[T] as alloc::slice::hack::ConvertVec>::to_vec::h2"),
            Part::Code("alloc".to_string())
        );
        assert_eq!(classify("data[0]"), Part::Data);
        assert_eq!(classify("elem[0]"), Part::Unattributed);
        assert_eq!(classify("main"), Part::Unattributed);
        assert_eq!(classify("\"local names\" subsection"), Part::Removed);
        assert_eq!(
            classify("export \"__wbindgen_describe___wbg_set_on\""),
            Part::Removed
        );
    }

    #[test]
    fn sums_parts_without_what_is_removed() {
        let composition = Composition::of(&parse_csv(CSV).unwrap());
        assert_eq!(composition.total, 1010);
        assert_eq!(composition.removed, 500 + 200 + 9 + 8 + 7);
        assert_eq!(composition.kept(), 286);
        assert_eq!(
            composition.parts,
            vec![
                (Part::Data, 120),
                (Part::Code("lockstep".to_string()), 60),
                (Part::Code("lockstep_sim".to_string()), 40),
                (Part::Code("serde_path_to_error".to_string()), 30),
                (Part::Code("compiler_builtins".to_string()), 20),
                (Part::Code("core".to_string()), 10),
                (Part::Unattributed, 6),
            ]
        );
        assert_eq!(composition.top[0], ("data[0]".to_string(), 120));
        assert!(
            composition
                .top
                .iter()
                .all(|(name, _)| !name.contains("describe") && !name.contains("names"))
        );
    }

    #[test]
    fn table_names_parts_and_strips_hashes() {
        let table = Composition::of(&parse_csv(CSV).unwrap()).table("0.7.0");
        assert!(
            table.contains(
                "| data section (strings, tables, embedded files) | 120 B (0.1 KiB) | 42.0 % |"
            ),
            "{table}"
        );
        assert!(
            table.contains("| code: lockstep_sim | 40 B (0.0 KiB) | 14.0 % |"),
            "{table}"
        );
        assert!(
            table.contains("| `<serde_path_to_error::de::TrackedSeed<X> as serde_core::de::DeserializeSeed>::deserialize` |"),
            "{table}"
        );
        assert!(table.contains("724 B (0.7 KiB) are names"), "{table}");
    }
}
