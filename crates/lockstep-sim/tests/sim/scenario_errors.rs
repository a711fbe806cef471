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
    check(
        r#""fencing":"on""#,
        r#""fencing":"on","token_memory":"sometimes""#,
        &["resource", "`durable` or `volatile`"],
    );
}

/// An inventory keeps its token in its row, so it has no choice of where to keep it.
#[test]
fn only_a_register_chooses_where_it_keeps_its_highest_token() {
    check(
        r#""kind":"register","fencing":"on""#,
        r#""kind":"inventory","fencing":"on","quantity":1,"token_memory":"volatile""#,
        &["resource", "unknown field `token_memory`"],
    );
}

#[test]
fn another_format_says_so_before_anything_else() {
    check(
        r#""format":1,"#,
        r#""format":3,"future":true,"#,
        &["format: this is format 3", "reads formats 1 to 2"],
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
    // Format 1's free text is a note (see tests/sim/corpus.rs); format 2 has none.
    check(
        r#""format":1,"id":"x","title":"x","seed":1"#,
        r#""format":2,"id":"x","title":"x","source":"free text","seed":1"#,
        &["source: format 2 has no `source`", "{ \"note\": \"…\" }"],
    );
}

/// Parses `text` and returns the error, which must carry a line and column.
fn rejected_with_position(text: &str) -> String {
    let error = Scenario::parse(text)
        .expect_err("the file must be rejected")
        .to_string();
    assert!(
        error.starts_with("line ") && error.contains(", column "),
        "{error:?} should say where"
    );
    error
}

#[test]
fn content_after_the_scenario_is_rejected_with_its_position() {
    let error = rejected_with_position(&format!("{VALID}xyz"));
    assert!(error.contains("after the end of the scenario"), "{error}");
    assert!(error.contains("line 7"), "{error}");
    let error = rejected_with_position(&format!("{VALID}\n{VALID}"));
    assert!(error.contains("after the end of the scenario"), "{error}");
    assert!(error.contains("line 8, column 1"), "{error}");
}

#[test]
fn arrays_in_place_of_objects_are_rejected_with_their_position() {
    let error = rejected_with_position(r#"[1,"x","x","","",1,1000]"#);
    assert!(
        error.contains("an array where an object belongs"),
        "{error}"
    );
    // Serde's sequence form of a struct would take the fields in order and skip the check for
    // unknown ones; a tagged object's would read the tag from the first element.
    for (from, to, path) in [
        (
            r#"{"latency_ms":[1,2]}"#,
            r#"[[1,2],0,[],"extra"]"#,
            "network",
        ),
        (
            r#"{"name":"client-a","start_ms":0,"ttl_ms":10,"work_ms":1,
             "access":{"kind":"read_modify_write"}}"#,
            r#"["client-a",0,"lease",10,1,{"kind":"read_modify_write"}]"#,
            "clients[0]",
        ),
        (r#"{"kind":"sql_row"}"#, r#"["sql_row"]"#, "lock_service"),
        (
            r#"{"kind":"read_modify_write"}"#,
            r#"["read_modify_write"]"#,
            "access",
        ),
        (
            r#"{"at_ms":5,"do":{"action":"pause","node":"client-a","for_ms":10}}"#,
            r#"[5,{"action":"pause","node":"client-a","for_ms":10}]"#,
            "interventions[0]",
        ),
        (
            r#"{"action":"pause","node":"client-a","for_ms":10}"#,
            r#"["pause","client-a",10]"#,
            "interventions[0].do",
        ),
    ] {
        assert!(VALID.contains(from), "the test's own input: {from}");
        let error = rejected_with_position(&VALID.replace(from, to));
        assert!(
            error.contains(path) && error.contains("an array where an object belongs"),
            "{to}: {error}"
        );
    }
}

#[test]
fn a_seed_above_the_largest_says_which_seeds_there_are() {
    check(
        r#""seed":1"#,
        r#""seed":18446744073709551616"#,
        &[
            "line 1",
            "seed: must be a whole number from 0 to 18446744073709551615",
        ],
    );
    check(
        r#""seed":1"#,
        r#""seed":-1"#,
        &["seed: must be a whole number from 0 to 18446744073709551615"],
    );
}

#[test]
fn a_file_with_a_byte_order_mark_reads_like_one_without() {
    let with_mark = format!("\u{feff}{VALID}");
    assert_eq!(Scenario::parse(&with_mark), Scenario::parse(VALID));
    let mut bytes = vec![0xef, 0xbb, 0xbf];
    bytes.extend_from_slice(VALID.as_bytes());
    assert_eq!(Scenario::parse_bytes(&bytes), Scenario::parse(VALID));
}

#[test]
fn a_file_that_is_not_utf8_says_where_the_first_bad_byte_is() {
    let latin1 = VALID.replace(r#""title":"x""#, "\"title\":\"caf\u{e9}\"");
    let mut bytes = latin1.into_bytes();
    let at = bytes
        .windows(2)
        .position(|w| w == [0xc3, 0xa9])
        .expect("the é");
    bytes.splice(at..at + 2, [0xe9]);
    let error = Scenario::parse_bytes(&bytes)
        .expect_err("Latin-1 is not UTF-8")
        .to_string();
    assert!(
        error.starts_with(&format!(
            "line 1, column {}: byte {at} is not UTF-8",
            at + 1
        )),
        "{error}"
    );
}

#[test]
fn numbers_beyond_what_a_run_can_use_are_refused_with_the_field_and_its_range() {
    check(
        r#""ttl_ms":10"#,
        r#""ttl_ms":18446744073709551615"#,
        &["clients[0].ttl_ms", "from 1 to 3600000 ms"],
    );
    check(
        r#""lock_service":{"kind":"sql_row"}"#,
        r#""lock_service":{"kind":"consensus","heartbeat_ms":18446744073709551614,"election_timeout_ms":18446744073709551615}"#,
        &["lock_service.heartbeat_ms", "from 1 to 3600000 ms"],
    );
    check(
        r#""resource":{"kind":"register","fencing":"on"}"#,
        r#""resource":{"kind":"inventory","fencing":"on","quantity":5}"#,
        &["clients[0].access"],
    );
    let order = VALID
        .replace(
            r#""resource":{"kind":"register","fencing":"on"}"#,
            r#""resource":{"kind":"inventory","fencing":"on","quantity":5}"#,
        )
        .replace(
            r#""kind":"read_modify_write""#,
            r#""kind":"decrement","amount":-9223372036854775808"#,
        );
    let error = Scenario::parse(&order).expect_err("i64::MIN").to_string();
    assert!(
        error.contains("clients[0].access.amount")
            && error.contains("from -1000000000000 to 1000000000000"),
        "{error}"
    );
    let charge = VALID
        .replace(
            r#""resource":{"kind":"register","fencing":"on"}"#,
            r#""resource":{"kind":"payments","idempotency":"none"}"#,
        )
        .replace(
            r#""kind":"read_modify_write""#,
            r#""kind":"charge","key":1,"amount":9223372036854775807,"timeout_ms":5,"attempts":3"#,
        );
    let error = Scenario::parse(&charge).expect_err("i64::MAX").to_string();
    assert!(error.contains("clients[0].access.amount"), "{error}");
    check(
        r#"{"action":"pause","node":"client-a","for_ms":10}"#,
        r#"{"action":"clock_jump","node":"client-a","by_ms":-9223372036854775808}"#,
        &["interventions[0].do.by_ms", "one day either way"],
    );
}
