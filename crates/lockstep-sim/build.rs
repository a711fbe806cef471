//! Embeds every `scenarios/*.json` file of the repository into the crate as the built-in
//! catalogue, in catalogue order (a1, a2, …, s1, s2, …, s10), so adding a scenario is adding a
//! file; and writes the catalogue's index (each scenario's id, title and file size), which the
//! app carries instead of the files it fetches when they are opened.

use std::fmt::Write as _;
use std::path::PathBuf;

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let folder = manifest.join("../../scenarios");
    println!("cargo:rerun-if-changed={}", folder.display());
    // A catalogue that cannot be read must stop the build: an empty one would compile, and the
    // app and the CLI would ship without their scenarios.
    let entries = std::fs::read_dir(&folder).unwrap_or_else(|error| {
        panic!("cannot read the scenarios in {}: {error}", folder.display())
    });
    let mut files: Vec<PathBuf> = Vec::new();
    for entry in entries {
        let path = entry
            .unwrap_or_else(|error| panic!("cannot list {}: {error}", folder.display()))
            .path();
        if path.extension().is_some_and(|ext| ext == "json") {
            files.push(path);
        }
    }
    if files.is_empty() {
        panic!(
            "{} holds no scenario (*.json): the catalogue would be empty",
            folder.display()
        );
    }
    // Catalogue order: s2 before s10 (the number in an id is compared as a number).
    files.sort_by_key(|path| {
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_default()
            .to_owned();
        let letter = name.chars().next().unwrap_or_default();
        let number: String = name
            .chars()
            .skip(1)
            .take_while(char::is_ascii_digit)
            .collect();
        (letter, number.parse::<u32>().unwrap_or(0), name)
    });
    let mut code = String::from("&[\n");
    let mut index = String::from("&[\n");
    for path in &files {
        let id = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or_else(|| panic!("{}: a scenario's file name must be UTF-8", path.display()));
        println!("cargo:rerun-if-changed={}", path.display());
        let _ = writeln!(
            code,
            "    BuiltIn {{ id: {id:?}, json: include_str!({:?}) }},",
            path.display().to_string()
        );
        let text = std::fs::read_to_string(path)
            .unwrap_or_else(|error| panic!("cannot read {}: {error}", path.display()));
        // Only the title is read here; `Scenario::parse` checks the whole file in the tests.
        let title = serde_json::from_str::<serde_json::Value>(&text)
            .ok()
            .and_then(|v| v.get("title")?.as_str().map(str::to_owned))
            .unwrap_or_else(|| panic!("{}: a scenario needs a string `title`", path.display()));
        let _ = writeln!(
            index,
            "    Entry {{ id: {id:?}, title: {title:?}, bytes: {} }},",
            text.len()
        );
    }
    code.push(']');
    index.push(']');
    let out = PathBuf::from(std::env::var_os("OUT_DIR").unwrap_or_default());
    for (name, text) in [("catalogue.rs", code), ("index.rs", index)] {
        let file = out.join(name);
        if let Err(error) = std::fs::write(&file, text) {
            panic!("cannot write {}: {error}", file.display());
        }
    }
}
