//! Scenario files one edit away from valid: every catalogue file with one field's value or type
//! changed, one field deleted, or an unknown field added. Each either parses or is refused with
//! a message naming the place: a line, a field, the edited field's parent, or the offending
//! value. Enough of them parse that the test exercises the parser past the first error.
//! (Running what parses is left to the run budget's tests: a TTL of 1 ms loops today.)

use crate::cases::{self, Cases};
use lockstep_sim::{Scenario, scenario::catalogue};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use serde_json::{Value, json};

/// One step of a path into a JSON document.
#[derive(Clone, Debug)]
enum Step {
    Key(String),
    Index(usize),
}

/// What to do at the chosen place.
#[derive(Clone, Copy, Debug)]
enum Edit {
    /// Another value of the same type, from `ALTERNATIVES`.
    ChangeValue(usize),
    ChangeType,
    Delete,
    AddUnknownField,
}

/// Values of each type a scenario file uses, many of them valid somewhere.
const NUMBERS: [i64; 8] = [1, 3, 7, 50, 120, 400, 900, 0];
const STRINGS: [&str; 10] = [
    "on",
    "off",
    "client-a",
    "client-b",
    "lock-service",
    "sql_row",
    "every",
    "blind_write",
    "x",
    "",
];

fn paths(value: &Value, prefix: &mut Vec<Step>, out: &mut Vec<Vec<Step>>) {
    match value {
        Value::Object(map) => {
            for (key, child) in map {
                prefix.push(Step::Key(key.clone()));
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        Value::Array(items) => {
            for (index, child) in items.iter().enumerate() {
                prefix.push(Step::Index(index));
                out.push(prefix.clone());
                paths(child, prefix, out);
                prefix.pop();
            }
        }
        _ => {}
    }
}

/// The path as serde_path_to_error writes it: `clients[1].ttl_ms`.
fn display(path: &[Step]) -> String {
    let mut text = String::new();
    for step in path {
        match step {
            Step::Key(key) if text.is_empty() => text.push_str(key),
            Step::Key(key) => text.push_str(&format!(".{key}")),
            Step::Index(index) => text.push_str(&format!("[{index}]")),
        }
    }
    text
}

fn at<'a>(value: &'a Value, path: &[Step]) -> Option<&'a Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Key(key) => node.get(key.as_str()),
        Step::Index(index) => node.get(*index),
    })
}

fn at_mut<'a>(value: &'a mut Value, path: &[Step]) -> Option<&'a mut Value> {
    path.iter().try_fold(value, |node, step| match step {
        Step::Key(key) => node.get_mut(key.as_str()),
        Step::Index(index) => node.get_mut(*index),
    })
}

/// Applies `edit` at `path`; returns the words an error about it may use to name the place.
fn apply(document: &mut Value, path: &[Step], edit: Edit) -> Vec<String> {
    let (last, parent_path) = path.split_last().expect("never the root");
    let mut names = vec![display(path), display(parent_path)];
    if let Step::Key(key) = last {
        names.push(key.clone());
    }
    match edit {
        Edit::ChangeValue(choice) => {
            if let Some(node) = at_mut(document, path) {
                let new = match node {
                    Value::Number(_) => json!(NUMBERS[choice % NUMBERS.len()]),
                    // Half the time the same text, edited: still valid where any text is.
                    Value::String(text) if choice % 2 == 0 => json!(format!("{text} 2")),
                    Value::String(_) => json!(STRINGS[choice / 2 % STRINGS.len()]),
                    Value::Bool(b) => json!(!*b),
                    Value::Array(items) => {
                        items.pop();
                        return names;
                    }
                    Value::Object(_) | Value::Null => json!(null),
                };
                names.push(new.to_string().trim_matches('"').to_owned());
                *node = new;
            }
        }
        Edit::ChangeType => {
            if let Some(node) = at_mut(document, path) {
                *node = match node {
                    Value::Number(n) => json!(n.to_string()),
                    Value::String(_) => json!(1),
                    Value::Array(_) => json!({}),
                    Value::Object(_) => json!([]),
                    Value::Bool(_) | Value::Null => json!("yes"),
                };
            }
        }
        Edit::Delete => match (at_mut(document, parent_path), last) {
            (Some(Value::Object(map)), Step::Key(key)) => {
                map.remove(key);
            }
            (Some(Value::Array(items)), Step::Index(index)) if *index < items.len() => {
                items.remove(*index);
            }
            _ => {}
        },
        Edit::AddUnknownField => {
            let target = match at_mut(document, path) {
                Some(Value::Object(_)) => path,
                _ => parent_path,
            };
            if let Some(Value::Object(map)) = at_mut(document, target) {
                map.insert("colour".to_owned(), json!(3));
                names.push("colour".to_owned());
            }
        }
    }
    names
}

fn mutation() -> impl Strategy<Value = (usize, prop::sample::Index, Edit)> {
    (
        0..catalogue::BUILT_IN.len(),
        any::<prop::sample::Index>(),
        prop_oneof![
            4 => (0usize..64).prop_map(Edit::ChangeValue),
            1 => Just(Edit::ChangeType),
            2 => Just(Edit::Delete),
            1 => Just(Edit::AddUnknownField),
        ],
    )
}

#[test]
fn scenario_files_one_edit_away_parse_or_name_the_place_and_never_panic() {
    const CASES: Cases = Cases {
        test: 1_500,
        soak: 1_500,
    };
    let documents: Vec<Value> = catalogue::BUILT_IN
        .iter()
        .map(|b| serde_json::from_str(b.json).expect("catalogue files are JSON"))
        .collect();
    let mut runner = cases::runner(CASES, file!());
    let cases = runner.config().cases;
    let strategy = mutation();
    let mut parsed = 0;
    for _ in 0..cases {
        let (which, place, edit) = strategy
            .new_tree(&mut runner)
            .expect("the strategy generates")
            .current();
        let mut document = documents[which].clone();
        let mut all = Vec::new();
        paths(&document, &mut Vec::new(), &mut all);
        // A value is changed at a leaf; the other edits work on any field.
        if let Edit::ChangeValue(_) = edit {
            all.retain(|path| at(&document, path).is_some_and(|v| !v.is_object() && !v.is_array()));
        }
        let path = &all[place.index(all.len())];
        let names = apply(&mut document, path, edit);
        let text = serde_json::to_string_pretty(&document).expect("serialises");
        match Scenario::parse(&text) {
            Ok(_) => parsed += 1,
            Err(error) => {
                let message = error.to_string();
                // Another place may be the one at fault: a deleted client is missed where an
                // expectation names it.
                let mut places = Vec::new();
                paths(&document, &mut Vec::new(), &mut places);
                let names_a_place = places
                    .iter()
                    .map(|p| format!("{}: ", display(p)))
                    .any(|p| message.contains(&p));
                assert!(
                    message.contains("line ")
                        || names_a_place
                        || names
                            .iter()
                            .any(|n| !n.is_empty() && message.contains(n.as_str())),
                    "{edit:?} at {}: \"{message}\" names neither a line, a field, the edited \
                     field's parent nor the value",
                    display(path)
                );
            }
        }
    }
    // A fifth: citations (an edited source id is refused) and the ranges checked at parse time
    // refuse many one-field edits on purpose; a generator that mostly produced syntax errors would
    // fall far below this.
    assert!(
        parsed * 5 >= cases,
        "only {parsed} of {cases} edited files parse: the test hardly gets past the parser"
    );
    assert!(parsed < cases, "every edit parsed: the edits test nothing");
}
