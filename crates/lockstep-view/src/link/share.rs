//! Shareable links: a [`Moment`] written into the URL's fragment and read back.
//!
//! `#s=s2-gc-pause-fenced&seed=7&fencing=off&log=…&at=17&compare=1`: a built-in scenario by id
//! (with the fencing the user chose), or a whole custom scenario (`scenario=`, base64url JSON);
//! the seed when it differs from the scenario's; the user's interventions (`log=`, base64url
//! JSON); the position; what the run is compared with (`compare=1`: fencing switched;
//! `compare=redlock`: another lock service by its id — the twin is recomputed from these, the
//! role mapping included; `compare=s20-consensus-fast-follower-clock`: another built-in
//! scenario by its id); a chaos lab run by its settings and seed instead of its whole scenario
//! (`chaos=`, see [`super::chaos`]; the scenario is generated again). Reading never panics: a
//! bad link is a [`LinkError`] naming the parameter, its value and what is wrong with it. A built-in scenario is read from its loaded file, which
//! the caller hands in ([`Loaded`]): whoever follows a link loads the scenarios it names
//! ([`built_in_named`], [`compared_built_in`]) first. This module does not touch the browser.

use super::chaos::ChaosRunRef;
use super::error::{LinkError, LinkKind, Problem};
use super::fencing::{FENCINGS, fencing_word};
use super::params;
use crate::state::{Compare, Comparison, Moment, Origin};
use lockstep_sim::analysis::chaos::ChaosBackend;
use lockstep_sim::models::resource::Fencing;
use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::strict_json;
use lockstep_sim::scenario::types::Scenario;
use lockstep_sim::world::intervention::Intervention;
use std::rc::Rc;

/// A built-in scenario's file by id, if it is loaded: the caller's cache (the app's library, or
/// the embedded catalogue in tests).
pub type Loaded<'a> = &'a dyn Fn(&str) -> Option<Rc<Scenario>>;

/// The fragment (without `#`) that reproduces `moment`.
pub fn encode(moment: &Moment, loaded: Loaded) -> String {
    at_position(
        &encode_setup(moment, loaded),
        moment.position,
        moment.compare.compare(),
    )
}

/// The part of `moment`'s fragment that stays the same while the user steps through one run:
/// the scenario, seed, fencing and log (everything before `at=`). Encoding a scenario is dear
/// (JSON and base64, or loading the built-in one to compare), so the app does it once per run
/// and adds the position with [`at_position`] on every step.
pub fn encode_setup(moment: &Moment, loaded: Loaded) -> String {
    let mut parts = Vec::new();
    let original = match &moment.origin {
        Origin::BuiltIn(id) => {
            parts.push(format!("s={id}"));
            loaded(id).map(|original| (*original).clone())
        }
        Origin::Chaos(run) => {
            parts.push(format!("chaos={}", run.value()));
            Some(run.settings.scenario(run.seed))
        }
        Origin::Custom => {
            parts.push(format!(
                "scenario={}",
                params::base64(&moment.scenario.to_json())
            ));
            Some(moment.scenario.clone())
        }
    };
    if let Some(original) = &original {
        if moment.seed != original.seed {
            parts.push(format!("seed={}", moment.seed));
        }
        if original.resource != moment.scenario.resource
            && let Some(fencing) = moment.scenario.resource.fencing()
        {
            parts.push(format!("fencing={}", fencing_word(fencing)));
        }
    }
    if !moment.log.is_empty() {
        let json = serde_json::to_string(&moment.log).unwrap_or_default();
        parts.push(format!("log={}", params::base64(&json)));
    }
    params::join(&parts)
}

/// A run's fragment (`setup`, from [`encode_setup`]) standing at `position`, comparing or not.
pub fn at_position(setup: &str, position: Option<usize>, compare: Compare) -> String {
    let mut fragment = setup.to_owned();
    if let Some(position) = position {
        fragment.push_str(&format!("&at={position}"));
    }
    match compare {
        Compare::Off => {}
        Compare::Fencing => fragment.push_str("&compare=1"),
        Compare::Service(service) => {
            fragment.push_str("&compare=");
            fragment.push_str(service.id());
        }
        Compare::Scenario(id) => {
            fragment.push_str("&compare=");
            fragment.push_str(id);
        }
    }
    fragment
}

/// What `compare=` names: `1` for fencing switched (`0` for nothing, as older links may say),
/// a lock service's id, or a built-in scenario's id (an old one too, see `catalogue::RENAMED`).
pub fn compare_of(value: &str) -> Result<Compare, LinkError> {
    match value {
        "1" => Ok(Compare::Fencing),
        "0" => Ok(Compare::Off),
        id => ChaosBackend::from_id(id)
            .map(Compare::Service)
            .or_else(|| catalogue::entry(id).map(|entry| Compare::Scenario(entry.id)))
            .ok_or_else(|| {
                LinkError::bad(
                    "compare",
                    id,
                    format!(
                        "`{id}` is neither 1 (fencing on and off), a lock service ({}) nor a built-in scenario's id",
                        ChaosBackend::ALL.map(ChaosBackend::id).join(", ")
                    ),
                )
            }),
    }
}

/// The moment a fragment (with or without `#`) describes: every parameter must be read, or the
/// link is refused (a lenient reading that keeps what it can is [`super::kept`]'s).
pub fn decode(fragment: &str, loaded: Loaded) -> Result<Moment, LinkError> {
    let mut read = Reading::new();
    for (name, value) in params::pairs(fragment) {
        read.pair(name, value, loaded)?;
    }
    read.moment(loaded)
}

/// A link's parameters as read so far (a later one replaces an earlier one of the same name;
/// one that cannot be read leaves what was there).
pub(super) struct Reading {
    pub(super) scenario: Option<(Origin, Scenario)>,
    seed: Option<u64>,
    pub(super) fencing: Option<Fencing>,
    log: Vec<Intervention<String>>,
    position: Option<usize>,
    pub(super) compare: Compare,
}

/// The parameters that name the scenario: a link without one of them read names nothing to show.
pub(super) const SCENARIO_PARAMETERS: [&str; 3] = ["s", "scenario", "chaos"];

impl Reading {
    pub(super) fn new() -> Reading {
        Reading {
            scenario: None,
            seed: None,
            fencing: None,
            log: Vec::new(),
            position: None,
            compare: Compare::Off,
        }
    }

    /// The moment the parameters read describe, or why there is none.
    pub(super) fn moment(self, loaded: Loaded) -> Result<Moment, LinkError> {
        let Some((origin, mut scenario)) = self.scenario else {
            return Err(LinkError::whole(Problem::NoScenario));
        };
        if let Some(fencing) = self.fencing {
            if scenario.resource.fencing().is_none() {
                return Err(no_fencing_to_set(fencing));
            }
            scenario.resource = scenario.resource.with_fencing(fencing);
        }
        Ok(Moment {
            origin,
            seed: self.seed.unwrap_or(scenario.seed),
            scenario,
            log: self.log,
            position: self.position,
            compare: Comparison::of(self.compare, loaded)
                .map_err(|id| LinkError::at("compare", id, Problem::NotLoaded))?,
        })
    }

    pub(super) fn pair(
        &mut self,
        name: &str,
        value: &str,
        loaded: Loaded,
    ) -> Result<(), LinkError> {
        match name {
            "s" => {
                let entry = catalogue::entry(value)
                    .ok_or_else(|| LinkError::at(name, value, Problem::UnknownScenario))?;
                let file = loaded(entry.id)
                    .ok_or_else(|| LinkError::at(name, entry.id, Problem::NotLoaded))?;
                self.scenario = Some((Origin::BuiltIn(entry.id), (*file).clone()));
            }
            "scenario" => {
                let json = params::base64_text(name, value)?;
                let parsed = Scenario::parse(&json)
                    .map_err(|e| LinkError::bad(name, value, e.to_string()))?;
                self.scenario = Some((Origin::Custom, parsed));
            }
            "chaos" => {
                let run = ChaosRunRef::parse(value)?;
                self.scenario = Some((Origin::Chaos(run), run.settings.scenario(run.seed)));
            }
            "seed" => {
                self.seed = Some(value.parse::<u64>().map_err(|_| {
                    LinkError::bad(
                        name,
                        value,
                        format!("the seed must be a whole number from 0 to {}", u64::MAX),
                    )
                })?)
            }
            "fencing" => self.fencing = Some(params::word(name, value, &FENCINGS, fencing_word)?),
            "log" => {
                let json = params::base64_text(name, value)?;
                self.log =
                    strict_json::from_str::<Vec<Intervention<String>>>(&json, "interventions")
                        .map_err(|e| {
                            LinkError::bad(
                                name,
                                value,
                                format!("the interventions cannot be read: {e}"),
                            )
                        })?;
            }
            "at" => self.position = Some(params::number::<usize>(name, value)?),
            "compare" => self.compare = compare_of(value)?,
            other => {
                return Err(LinkError::at(
                    other,
                    value,
                    Problem::Unknown(LinkKind::Share),
                ));
            }
        }
        Ok(())
    }
}

/// `fencing=` on a scenario whose resource has none.
pub(super) fn no_fencing_to_set(fencing: Fencing) -> LinkError {
    LinkError::bad(
        "fencing",
        fencing_word(fencing),
        "this scenario's resource has no fencing to set".to_owned(),
    )
}

/// The built-in scenario a link names with `s=`, if it names one that exists: the file to load
/// before [`decode`] can read the link.
pub fn built_in_named(fragment: &str) -> Option<&'static str> {
    named_by(fragment, "s")
}

/// The built-in scenario a link compares with (`compare=` a scenario's id), if any: its file
/// must be loaded too before the twin can run.
pub fn compared_built_in(fragment: &str) -> Option<&'static str> {
    named_by(fragment, "compare")
}

fn named_by(fragment: &str, parameter: &str) -> Option<&'static str> {
    params::pairs(fragment)
        .filter(|(name, _)| *name == parameter)
        .find_map(|(_, id)| catalogue::entry(id).map(|e| e.id))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::test_files::loaded;

    fn decode(fragment: &str) -> Result<Moment, LinkError> {
        super::decode(fragment, &loaded)
    }

    fn encode(moment: &Moment) -> String {
        super::encode(moment, &loaded)
    }
    use base64::Engine;
    use base64::engine::general_purpose::URL_SAFE_NO_PAD;
    use lockstep_sim::world::intervention::Action;
    use lockstep_sim::world::time::{Millis, VirtualTime};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    fn moment(id: &'static str) -> Moment {
        crate::test_files::moment(id, 5)
    }

    #[test]
    fn a_link_names_the_built_in_scenarios_to_load_before_it_is_read() {
        assert_eq!(
            built_in_named("#s=s3-fencing-gap&at=5"),
            Some("s3-fencing-gap")
        );
        assert_eq!(
            built_in_named("seed=4&s=a1-optimistic-concurrency"),
            Some("a1-optimistic-concurrency")
        );
        assert_eq!(built_in_named("s=no-such-scenario"), None);
        assert_eq!(built_in_named("scenario=e30&at=1"), None, "a custom one");
        assert_eq!(
            compared_built_in("s=s10-redlock-clock-jump&compare=consensus"),
            None,
            "a lock service is no file"
        );
        let pair =
            "#s=s20-consensus-fast-leader-clock&at=9&compare=s20-consensus-fast-follower-clock";
        assert_eq!(
            built_in_named(pair),
            Some("s20-consensus-fast-leader-clock")
        );
        assert_eq!(
            compared_built_in(pair),
            Some("s20-consensus-fast-follower-clock")
        );
        assert_eq!(
            compared_built_in("scenario=e30&compare=gc-pause-fenced"),
            Some("s2-gc-pause-fenced"),
            "a custom scenario compared with a built-in one, named by its old id"
        );
    }

    #[test]
    fn a_built_in_scenario_makes_a_short_readable_link() {
        let m = moment("s2-gc-pause-fenced");
        assert_eq!(encode(&m), "s=s2-gc-pause-fenced&at=5");
        assert_eq!(decode("#s=s2-gc-pause-fenced&at=5"), Ok(m));
    }

    #[test]
    fn seed_fencing_log_position_and_compare_survive_the_round_trip() {
        let mut m = moment("s2-gc-pause-fenced");
        m.seed = 7;
        m.scenario.resource = m.scenario.resource.with_fencing(Fencing::Off);
        m.log.push(Intervention {
            at_ms: VirtualTime(51),
            action: Action::Pause {
                node: "client-b".to_owned(),
                for_ms: Some(Millis(900)),
            },
        });
        m.compare = Comparison::Fencing;
        let link = encode(&m);
        assert!(link.contains("seed=7") && link.contains("fencing=off"));
        assert!(link.ends_with("&compare=1"), "{link}");
        assert_eq!(decode(&link), Ok(m));
    }

    #[test]
    fn a_comparison_with_each_lock_service_survives_the_round_trip() {
        for service in ChaosBackend::ALL {
            let mut m = moment("s10-redlock-clock-jump");
            m.compare = Comparison::Service(service);
            let link = encode(&m);
            assert!(
                link.ends_with(&format!("&compare={}", service.id())),
                "{link}"
            );
            assert_eq!(decode(&link), Ok(m));
        }
    }

    #[test]
    fn a_comparison_with_another_scenario_survives_the_round_trip_and_reads_old_ids() {
        let mut m = moment("s20-consensus-fast-leader-clock");
        m.compare = Comparison::of(
            Compare::Scenario("s20-consensus-fast-follower-clock"),
            &loaded,
        )
        .expect("built in");
        let link = encode(&m);
        assert!(
            link.ends_with("&compare=s20-consensus-fast-follower-clock"),
            "{link}"
        );
        assert_eq!(decode(&link), Ok(m));
        let renamed =
            decode("s=s1-gc-pause-unfenced&compare=gc-pause-fenced").map(|m| m.compare.compare());
        assert_eq!(renamed, Ok(Compare::Scenario("s2-gc-pause-fenced")));
    }

    #[test]
    fn an_old_compare_link_still_opens_the_fencing_twin() {
        let decoded = decode("s=s2-gc-pause-fenced&at=5&compare=1").map(|m| m.compare.compare());
        assert_eq!(decoded, Ok(Compare::Fencing));
        let none = decode("s=s2-gc-pause-fenced&at=5&compare=0").map(|m| m.compare.compare());
        assert_eq!(none, Ok(Compare::Off));
    }

    #[test]
    fn a_bad_compare_value_is_named_with_the_choices() {
        let error = decode("s=s2-gc-pause-fenced&compare=zookeeper")
            .expect_err("zookeeper is not a service id")
            .to_string();
        assert!(error.starts_with("`compare=`"), "{error}");
        assert!(error.contains("`zookeeper`"), "{error}");
        assert!(
            error.contains("redlock") && error.contains("consensus"),
            "{error}"
        );
    }

    /// A violating seed of the lab's default run (the article's test, fencing on), standing at
    /// its 40th event.
    fn chaos_moment(seed: u64) -> Moment {
        let run = ChaosRunRef {
            settings: lockstep_sim::analysis::chaos::ChaosSettings::verification_test(Fencing::On),
            seed,
        };
        let scenario = run.settings.scenario(run.seed);
        Moment {
            origin: Origin::Chaos(run),
            seed: scenario.seed,
            scenario,
            log: Vec::new(),
            position: Some(40),
            compare: Comparison::Off,
        }
    }

    #[test]
    fn a_chaos_run_travels_as_its_settings_and_seed() {
        let m = chaos_moment(17);
        let Origin::Chaos(run) = m.origin else {
            unreachable!("a chaos moment")
        };
        let link = encode(&m);
        assert_eq!(link, format!("chaos={}&at=40", run.value()));
        assert_eq!(
            link,
            "chaos=1;seed=17;backend=sql-row;fencing=on;clients=8;faults=pauses,partitions,crashes;duration=180000&at=40"
        );
        assert_eq!(decode(&link), Ok(m.clone()));
        // What the user changes in the playground travels as for any scenario.
        let mut changed = m.clone();
        changed.seed = 3;
        changed.scenario.resource = changed.scenario.resource.with_fencing(Fencing::Off);
        let link = encode(&changed);
        assert!(link.contains("&seed=3&fencing=off&at=40"), "{link}");
        assert_eq!(decode(&link), Ok(changed));
    }

    #[test]
    fn a_chaos_link_is_short_and_the_old_whole_scenario_link_still_opens() {
        let m = chaos_moment(17);
        let short = encode(&m);
        let whole = format!(
            "scenario={}&at=40",
            URL_SAFE_NO_PAD.encode(m.scenario.to_json())
        );
        // The figures for the record: `cargo test -p lockstep-view chaos_link_is_short -- --nocapture`.
        println!(
            "a chaos seed's link: {} characters as settings and seed, {} as the whole scenario",
            short.len(),
            whole.len()
        );
        assert!(short.len() < 200, "{}", short.len());
        assert!(whole.len() > 100 * short.len(), "{}", whole.len());
        let old = decode(&whole).expect("an old link opens");
        assert_eq!(old.origin, Origin::Custom);
        assert_eq!((old.scenario, old.position), (m.scenario, m.position));
    }

    #[test]
    fn a_bad_chaos_value_is_named_with_what_is_wrong() {
        for (link, says) in [
            (
                "chaos=2;seed=1",
                "`chaos=`: version 2 is not one this Lockstep reads",
            ),
            (
                "chaos=1;seed=x",
                "`chaos=`: the seed must be a whole number",
            ),
            (
                "chaos=1;seed=1;clients=99",
                "`chaos=`: the chaos lab's settings",
            ),
            ("chaos=seed=1", "`chaos=`: it must start with its version"),
        ] {
            let error = decode(link).expect_err(link).to_string();
            assert!(error.starts_with(says), "{link}: {error}");
        }
    }

    #[test]
    fn a_custom_scenario_travels_whole() {
        let mut m = moment("s1-gc-pause-unfenced");
        m.origin = Origin::Custom;
        m.scenario.title = "Mine".to_owned();
        let link = encode(&m);
        assert!(link.starts_with("scenario="));
        assert_eq!(decode(&link), Ok(m));
    }

    #[test]
    fn a_link_without_a_position_opens_at_the_start() {
        let moment = decode("s=s2-gc-pause-fenced").expect("valid");
        assert_eq!(moment.position, None);
        assert_eq!(encode(&moment), "s=s2-gc-pause-fenced");
    }

    #[test]
    fn bad_links_name_the_parameter_and_the_reason() {
        let message = |link: &str| decode(link).map(|_| ()).unwrap_err().to_string();
        assert!(message("s=nope").contains("s=nope"));
        assert!(message("s=s2-gc-pause-fenced&seed=-3").contains("`seed=`"));
        assert!(message("s=s2-gc-pause-fenced&at=x").contains("`at=`"));
        assert!(message("s=s2-gc-pause-fenced&fencing=maybe").contains("`fencing=`"));
        assert!(message("s=s2-gc-pause-fenced&log=!!").contains("`log=`"));
        let bad_log = URL_SAFE_NO_PAD.encode(r#"[{"at_ms": 5, "do": {"action": "explode"}}]"#);
        assert!(message(&format!("s=s2-gc-pause-fenced&log={bad_log}")).contains("`log=`"));
        let bad_scenario = URL_SAFE_NO_PAD.encode(r#"{"format": 1}"#);
        assert!(message(&format!("scenario={bad_scenario}")).contains("`scenario=`"));
        assert!(message("at=3").contains("names no scenario"));
        assert!(message("s=s2-gc-pause-fenced&zoom=3").contains("`zoom`"));
        assert!(message("s=a3-idempotency-keys&fencing=on").contains("no fencing"));
    }

    #[test]
    fn a_link_says_in_words_what_is_wrong_with_its_data() {
        let message = |link: &str| decode(link).map(|_| ()).unwrap_err().to_string();
        assert_eq!(
            message("s=s2-gc-pause-fenced&seed=18446744073709551616"),
            "`seed=`: the seed must be a whole number from 0 to 18446744073709551615"
        );
        let as_arrays = URL_SAFE_NO_PAD
            .encode(r#"[[5, {"action": "pause", "node": "client-a", "for_ms": 10}]]"#);
        let error = message(&format!("s=s2-gc-pause-fenced&log={as_arrays}"));
        assert!(
            error.contains("line 1, column 2")
                && error.contains("an array where an object belongs"),
            "{error}"
        );
        let trailing = URL_SAFE_NO_PAD.encode(r#"[]xyz"#);
        let error = message(&format!("s=s2-gc-pause-fenced&log={trailing}"));
        assert!(error.contains("line 1, column 3"), "{error}");
        let latin1 = URL_SAFE_NO_PAD.encode(b"{\"title\": \"caf\xe9\"}");
        let error = message(&format!("scenario={latin1}"));
        assert!(error.contains("byte 14 is not UTF-8"), "{error}");
    }

    /// A valid moment: a catalogue scenario (by id, or carried whole as a custom one), a seed,
    /// maybe another fencing, a few interventions, a position, comparison on or off.
    pub(in crate::link) fn valid_moment() -> impl Strategy<Value = Moment> {
        let ids: Vec<&'static str> = catalogue::BUILT_IN.iter().map(|b| b.id).collect();
        (
            proptest::sample::select(ids),
            any::<bool>(),
            proptest::option::of(0u64..10_000),
            proptest::option::of(proptest::sample::select(vec![Fencing::On, Fencing::Off])),
            proptest::collection::vec((0u64..5_000, 0usize..4, 0u64..3_000), 0..3),
            proptest::option::of(0usize..200),
            proptest::sample::select(vec![
                Compare::Off,
                Compare::Fencing,
                Compare::Service(ChaosBackend::Consensus),
                Compare::Service(ChaosBackend::Redlock),
                Compare::Scenario("s20-consensus-fast-follower-clock"),
            ]),
        )
            .prop_map(|(id, custom, seed, fencing, log, position, compare)| {
                let mut m = moment(id);
                if custom {
                    m.origin = Origin::Custom;
                    m.scenario.title = format!("{} (mine)", m.scenario.title);
                }
                if let Some(seed) = seed {
                    m.seed = seed;
                }
                if let Some(fencing) = fencing.filter(|_| m.scenario.resource.fencing().is_some()) {
                    m.scenario.resource = m.scenario.resource.with_fencing(fencing);
                }
                let names: Vec<String> =
                    m.scenario.clients.iter().map(|c| c.name.clone()).collect();
                m.log = log
                    .into_iter()
                    .map(|(at, who, ms)| Intervention {
                        at_ms: VirtualTime(at),
                        action: Action::Pause {
                            node: names[who % names.len()].clone(),
                            for_ms: Some(Millis(ms)),
                        },
                    })
                    .collect();
                m.position = position;
                m.compare = Comparison::of(compare, &loaded).expect("built in");
                m
            })
    }

    /// One edit to a link's parameters.
    #[derive(Clone, Copy, Debug)]
    enum Edit {
        Drop,
        Duplicate,
        /// The value replaced by one of `GARBAGE`, or (past its end) one character changed.
        Corrupt(usize),
        AddUnknown,
    }

    const GARBAGE: [&str; 6] = ["", "x", "-1", "!!", "99999999999999999999999", "on"];

    fn edit() -> impl Strategy<Value = (Edit, proptest::sample::Index)> {
        (
            prop_oneof![
                Just(Edit::Drop),
                Just(Edit::Duplicate),
                (0usize..12).prop_map(Edit::Corrupt),
                Just(Edit::AddUnknown),
            ],
            any::<proptest::sample::Index>(),
        )
    }

    /// Applies the edit to one parameter; returns the edited link and the parameter's name.
    fn apply(link: &str, edit: Edit, which: proptest::sample::Index) -> (String, String) {
        let mut parts: Vec<String> = link.split('&').map(str::to_owned).collect();
        let at = which.index(parts.len());
        let name = parts[at].split('=').next().unwrap_or_default().to_owned();
        match edit {
            Edit::Drop => {
                parts.remove(at);
            }
            Edit::Duplicate => parts.insert(at, parts[at].clone()),
            Edit::Corrupt(choice) => {
                let value = match GARBAGE.get(choice) {
                    Some(garbage) => (*garbage).to_owned(),
                    None => {
                        let value = parts[at].split_once('=').map_or("", |(_, v)| v);
                        let middle = value.len() / 2;
                        let mut chars: Vec<char> = value.chars().collect();
                        if let Some(c) = chars.get_mut(middle) {
                            *c = if *c == 'A' { '*' } else { 'A' };
                        }
                        chars.into_iter().collect()
                    }
                };
                parts[at] = format!("{name}={value}");
            }
            Edit::AddUnknown => parts.insert(at, "zoom=3".to_owned()),
        }
        let named = match edit {
            Edit::AddUnknown => "zoom".to_owned(),
            _ => name,
        };
        (parts.join("&"), named)
    }

    #[test]
    fn links_one_edit_away_decode_or_name_the_parameter() {
        const CASES: usize = 1_000;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = (valid_moment(), edit());
        let mut decoded = 0;
        for _ in 0..CASES {
            let (moment, (edit, which)) = strategy
                .new_tree(&mut runner)
                .expect("the strategy generates")
                .current();
            let link = encode(&moment);
            assert_eq!(decode(&link), Ok(moment.clone()), "{link}");
            let (edited, name) = apply(&link, edit, which);
            match decode(&edited) {
                Ok(read) => {
                    decoded += 1;
                    assert_eq!(decode(&encode(&read)), Ok(read), "{edited}");
                }
                Err(LinkError {
                    problem: Problem::NoScenario,
                    ..
                }) => assert!(
                    matches!(edit, Edit::Drop) && (name == "s" || name == "scenario"),
                    "{edit:?} of {name}: {edited}"
                ),
                Err(error) => {
                    let message = error.to_string();
                    assert!(
                        message.contains(&format!("`{name}")),
                        "{edit:?} of {name}: \"{message}\" does not name it ({edited})"
                    );
                }
            }
        }
        assert!(
            decoded * 3 >= CASES,
            "only {decoded} of {CASES} edited links decode: the test hardly gets past the first error"
        );
        assert!(
            decoded < CASES,
            "every edit decoded: the edits test nothing"
        );
    }
}
