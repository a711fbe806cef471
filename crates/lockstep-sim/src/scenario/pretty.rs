//! Indented JSON, as `serde_json::to_string_pretty` writes it, made from the compact text.
//!
//! Why not `to_string_pretty`: serde compiles every `Serialize` once per formatter, so a type
//! written both compactly (the trace hash, links) and pretty (exported files) is in the wasm
//! twice; re-indenting the compact text costs one small function instead. This module only
//! changes whitespace outside strings; it must never change what the document says.

use serde::Serialize;

/// `value` as indented JSON (two spaces, `"key": value`, empty `[]` and `{}` kept on one line),
/// the same text `serde_json::to_string_pretty` gives; empty if it cannot be serialised.
pub fn to_string<T: Serialize + ?Sized>(value: &T) -> String {
    indent(&serde_json::to_string(value).unwrap_or_default())
}

/// Re-indents compact JSON (no whitespace outside strings, as serde_json writes it).
fn indent(compact: &str) -> String {
    let mut out = String::with_capacity(compact.len() * 2);
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    let mut chars = compact.chars().peekable();
    let newline = |out: &mut String, depth: usize| {
        out.push('\n');
        for _ in 0..depth {
            out.push_str("  ");
        }
    };
    while let Some(c) = chars.next() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                (false, _) => {}
            }
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                out.push(c);
            }
            '{' | '[' => {
                let close = if c == '{' { '}' } else { ']' };
                out.push(c);
                if chars.next_if_eq(&close).is_some() {
                    out.push(close);
                } else {
                    depth += 1;
                    newline(&mut out, depth);
                }
            }
            '}' | ']' => {
                depth = depth.saturating_sub(1);
                newline(&mut out, depth);
                out.push(c);
            }
            ',' => {
                out.push(c);
                newline(&mut out, depth);
            }
            ':' => out.push_str(": "),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Sim;
    use crate::analysis::chaos::{Chaos, ChaosBackend};
    use crate::models::resource::Fencing;
    use crate::story::export::TraceExport;
    use serde_json::json;

    #[test]
    fn matches_serde_json_on_awkward_values() {
        let value = json!({
            "empty object": {},
            "empty array": [],
            "nested": [[], [{}], {"a": [1, -2.5, null, true]}],
            "text": "quotes \" and \\ backslashes \\\" and brackets [{,:}] and \u{1} and é",
            "": "",
            "big": u64::MAX,
        });
        assert_eq!(
            to_string(&value),
            serde_json::to_string_pretty(&value).unwrap()
        );
    }

    #[test]
    fn matches_serde_json_on_scenarios_and_a_trace_export() {
        for backend in [
            ChaosBackend::SqlRow,
            ChaosBackend::Redlock,
            ChaosBackend::Consensus,
        ] {
            let scenario = Chaos::verification_test(1, Fencing::On)
                .with_backend(backend)
                .scenario();
            assert_eq!(
                to_string(&scenario),
                serde_json::to_string_pretty(&scenario).unwrap(),
                "{backend:?}"
            );
        }
        let scenario = Chaos::verification_test(1, Fencing::Off).scenario();
        let mut sim = Sim::new(&scenario).expect("valid");
        sim.run_until(crate::world::time::VirtualTime(5_000));
        let export = TraceExport::of(&sim, &scenario.id);
        assert_eq!(
            to_string(&export),
            serde_json::to_string_pretty(&export).unwrap()
        );
    }
}
