use super::*;

use std::fs;

/// A crate of `files` (path, text) in a fresh folder; its root is `lib.rs`.
fn tree_of(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("xtask-cycles-{}-{name}", std::process::id()));
    let _ = fs::remove_dir_all(&dir);
    for (path, text) in files {
        let file = dir.join(path);
        fs::create_dir_all(file.parent().expect("a folder")).expect("creates the folder");
        fs::write(&file, text).expect("writes the file");
    }
    dir
}

fn circle_files(dir: &Path) -> Vec<Vec<String>> {
    circles(&dir.join("lib.rs"))
        .expect("reads the crate")
        .into_iter()
        .map(|circle| {
            circle
                .files
                .iter()
                .map(|f| f.strip_prefix(dir).expect("inside").display().to_string())
                .collect()
        })
        .collect()
}

#[test]
fn a_path_written_inside_a_function_body_closes_a_circle() {
    let dir = tree_of(
        "body",
        &[
            ("lib.rs", "mod a;\nmod b;\n"),
            ("a.rs", "pub fn f() -> u8 { crate::b::g() + 1 }\n"),
            (
                "b.rs",
                "use crate::a::f;\npub fn g() -> u8 { 1 }\npub fn h() -> u8 { f() }\n",
            ),
        ],
    );
    assert_eq!(circle_files(&dir), [["a.rs", "b.rs"]]);
    let circle = &circles(&dir.join("lib.rs")).expect("reads")[0];
    let names: Vec<&Vec<String>> = circle.links.iter().map(|(_, _, names)| names).collect();
    assert_eq!(names, [&vec!["g".to_string()], &vec!["f".to_string()]]);
}

#[test]
fn a_path_in_a_macro_counts_and_one_way_imports_are_no_circle() {
    let dir = tree_of(
        "macro",
        &[
            ("lib.rs", "mod page;\nmod widgets;\n"),
            (
                "page.rs",
                "pub fn view() { html! { <crate::widgets::Button /> } }\npub struct Page;\n",
            ),
            ("widgets.rs", "pub struct Button;\n"),
        ],
    );
    assert!(circle_files(&dir).is_empty());
    let dir = tree_of(
        "macro-back",
        &[
            ("lib.rs", "mod page;\nmod widgets;\n"),
            (
                "page.rs",
                "pub fn view() { html! { <crate::widgets::Button /> } }\npub struct Page;\n",
            ),
            (
                "widgets.rs",
                "use super::page::Page;\npub struct Button(Page);\n",
            ),
        ],
    );
    assert_eq!(circle_files(&dir), [["page.rs", "widgets.rs"]]);
}

#[test]
fn a_facade_that_re_exports_its_children_ties_nobody_to_itself() {
    let dir = tree_of(
        "facade",
        &[
            ("lib.rs", "mod engine;\npub use engine::Sim;\n"),
            (
                "engine/mod.rs",
                "mod queue;\nmod sim;\npub use queue::Queue;\npub use sim::Sim;\n",
            ),
            ("engine/queue.rs", "pub struct Queue;\n"),
            (
                "engine/sim.rs",
                "use super::Queue;\npub struct Sim(Queue);\n",
            ),
        ],
    );
    assert!(circle_files(&dir).is_empty());
}

#[test]
fn a_parent_and_a_child_that_take_from_each_other_are_a_circle() {
    let dir = tree_of(
        "parent",
        &[
            ("lib.rs", "mod story;\n"),
            (
                "story/mod.rs",
                "mod words;\npub struct Cast;\npub fn tell() -> String { words::said() }\n",
            ),
            (
                "story/words.rs",
                "pub fn said() -> String { let _ = super::Cast; String::new() }\n",
            ),
        ],
    );
    assert_eq!(circle_files(&dir), [["story/mod.rs", "story/words.rs"]]);
}

#[test]
fn other_crates_are_left_out_and_test_helpers_count() {
    let dir = tree_of(
        "tests",
        &[
            (
                "lib.rs",
                "mod a;\nmod b;\n#[cfg(test)]\nmod check;\n#[cfg(test)]\nmod claims;\n",
            ),
            (
                "a.rs",
                "pub fn f() { crate::b::g() }\n#[cfg(test)]\nmod tests;\n",
            ),
            ("a/tests.rs", "use super::*;\nuse crate::b::g;\n"),
            (
                "b.rs",
                "pub fn g() {}\nfn s() { ::other::a::f(); other::a::f(); }\n",
            ),
            (
                "check.rs",
                "pub struct Shown;\npub fn check() { crate::claims::unsupported() }\n",
            ),
            (
                "claims.rs",
                "use super::check::Shown;\npub fn unsupported() { let _ = Shown; }\n",
            ),
        ],
    );
    assert_eq!(circle_files(&dir), [["check.rs", "claims.rs"]]);
}
