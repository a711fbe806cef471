//! Bad scenario files are rejected with a message that says what is wrong and where.

use lockstep_sim::Scenario;

const VALID: &str = r#"{"format":1,"id":"x","title":"x","seed":1,"end_ms":1000,
 "lock_service":{"kind":"sql_row"},
 "resource":{"kind":"register","fencing":"on"},
 "network":{"latency_ms":[1,2]},
 "clients":[{"name":"client-a","start_ms":0,"ttl_ms":10,"work_ms":1,
             "access":{"kind":"read_modify_write"}}],
 "interventions":[{"at_ms":5,"do":{"action":"pause","node":"client-a","for_ms":10}}]}"#;

/// Replaces `from` with `to` in the valid file and checks the error names every `expected` part.
fn check(from: &str, to: &str, expected: &[&str]) {
    assert!(VALID.contains(from), "the test's own input: {from}");
    let error = Scenario::parse(&VALID.replace(from, to))
        .expect_err("the mangled scenario must be rejected")
        .to_string();
    for part in expected {
        assert!(error.contains(part), "{error:?} should mention {part:?}");
    }
}

#[test]
fn the_valid_file_is_valid() {
    assert!(Scenario::parse(VALID).is_ok());
}

#[test]
fn unknown_fields_are_named_with_their_path_even_in_tagged_objects() {
    check(
        r#""kind":"read_modify_write""#,
        r#""kind":"read_modify_write","amount":1"#,
        &["clients[0].access", "unknown field `amount`"],
    );
    check(
        r#""seed":1"#,
        r#""seed":1,"colour":"red""#,
        &["unknown field `colour`", "line 1"],
    );
}

#[test]
fn bad_values_name_the_field_and_the_choices() {
    check(
        r#""fencing":"on""#,
        r#""fencing":"sometimes""#,
        &["resource", "`on`, `off`"],
    );
    check(r#""end_ms":1000"#, r#""end_ms":-5"#, &["end_ms"]);
}

#[test]
fn another_format_says_so_before_anything_else() {
    check(
        r#""format":1,"#,
        r#""format":2,"future":true,"#,
        &["format 2", "reads format 1"],
    );
}

#[test]
fn semantic_errors_name_the_path_and_the_reason() {
    check(
        r#""node":"client-a""#,
        r#""node":"client-z""#,
        &[
            "interventions[0].do",
            "client-z",
            "lock-service, resource, client-a",
        ],
    );
    check(
        r#""latency_ms":[1,2]"#,
        r#""latency_ms":[9,2]"#,
        &["network.latency_ms", "above the maximum"],
    );
    check(
        r#""kind":"read_modify_write""#,
        r#""kind":"decrement","amount":1"#,
        &["clients[0].access", "inventory"],
    );
    check(
        r#""name":"client-a""#,
        r#""name":"Client A""#,
        &["clients[0].name", "not a name"],
    );
    check(
        r#"{"action":"pause","node":"client-a","for_ms":10}"#,
        r#"{"action":"partition","from":"client-a","to":"client-a","direction":"both"}"#,
        &["interventions[0].do", "itself"],
    );
    check(
        r#"{"action":"pause","node":"client-a","for_ms":10}"#,
        r#"{"action":"clock_drift","node":"client-a","drift_ppm":-2000000}"#,
        &["drift_ppm", "forwards"],
    );
    check(
        r#""resource":{"kind":"register","fencing":"on"}"#,
        r#""resource":{"kind":"inventory","fencing":"sequencer","sku":"x","quantity":1}"#,
        &["resource.fencing", "sequencer apply to a register"],
    );
    check(
        r#""at_ms":5"#,
        r#""at_ms":5000"#,
        &["interventions[0].at_ms", "after the end"],
    );
}

#[test]
fn a_citation_must_name_a_bibliography_entry_and_say_where() {
    let cite =
        |sources: &str| VALID.replace(r#""seed":1"#, &format!(r#""sources":{sources},"seed":1"#));
    assert!(
        Scenario::parse(&cite(
            r#"[{"source":"kleppmann-2016","at":"§ Protecting a resource with a lock"}]"#
        ))
        .is_ok()
    );
    let dangling = Scenario::parse(&cite(
        r#"[{"source":"chubby-2006","at":"§2.4"},{"source":"no-such-source","at":"§1"}]"#,
    ))
    .expect_err("a dangling id is refused")
    .to_string();
    assert!(
        dangling.contains("sources[1]") && dangling.contains("no source \"no-such-source\""),
        "{dangling}"
    );
    let nowhere = Scenario::parse(&cite(r#"[{"source":"chubby-2006","at":""}]"#))
        .expect_err("a citation without a locator is refused")
        .to_string();
    assert!(
        nowhere.contains("sources[0]") && nowhere.contains("`at`"),
        "{nowhere}"
    );
    check(
        r#""seed":1"#,
        r#""source":"free text","seed":1"#,
        &["unknown field `source`"],
    );
}
