//! The embed's address: `#embed&s=s2-gc-pause-fenced&at=12&controls=transport`.
//!
//! Every playground link parameter (see [`super::share`]) plus the embed's own: which controls
//! show (`controls=`), a lesson-sized excerpt (`from=`, `to=`), `autoplay=1`, the theme for this
//! view (`theme=`), a caption (`caption=`), a whole lesson (`learn=`, `step=`), or a run recorded
//! against real servers beside its simulation (`real=`). Reading never
//! panics: anything wrong is a [`LinkError`] naming the parameter, which the embed shows in
//! its frame. The playground parameters are only sorted out here; [`super::share::decode`] reads
//! them once the scenario they name has loaded. This module does not touch the browser.

use super::error::{LinkError, LinkKind, Problem};
use super::params::{self, once};
use crate::recorded::catalogue as recordings;
use lockstep_sim::scenario::catalogue;
use strum::VariantArray;

/// The word a fragment starts with to be an embed.
pub const EMBED: &str = "embed";

/// Every parameter an embed's address may carry: the one declaration that this reader and the
/// book's preprocessor (`mdbook-lockstep`, whose blocks give them as options) share.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum Parameter {
    At,
    From,
    To,
    Controls,
    Fencing,
    Compare,
    Seed,
    Autoplay,
    Theme,
    Caption,
    Learn,
    Step,
    S,
    Scenario,
    Log,
    Real,
}

impl Parameter {
    /// The name in the address (and after `data-` on the host script's element).
    pub fn name(self) -> &'static str {
        match self {
            Parameter::At => "at",
            Parameter::From => "from",
            Parameter::To => "to",
            Parameter::Controls => "controls",
            Parameter::Fencing => "fencing",
            Parameter::Compare => "compare",
            Parameter::Seed => "seed",
            Parameter::Autoplay => "autoplay",
            Parameter::Theme => "theme",
            Parameter::Caption => "caption",
            Parameter::Learn => "learn",
            Parameter::Step => "step",
            Parameter::S => "s",
            Parameter::Scenario => "scenario",
            Parameter::Log => "log",
            Parameter::Real => "real",
        }
    }

    pub fn named(name: &str) -> Option<Parameter> {
        Parameter::VARIANTS
            .iter()
            .copied()
            .find(|p| p.name() == name)
    }

    /// Whether it is the playground link's, passed on to [`super::share::decode`] (`at=` apart:
    /// the embed reads it, as it defaults to `from=`).
    pub fn is_playground(self) -> bool {
        matches!(
            self,
            Parameter::S
                | Parameter::Scenario
                | Parameter::Seed
                | Parameter::Fencing
                | Parameter::Log
                | Parameter::Compare
        )
    }
}

/// The order in which the host script (`assets/embed.js`, its `PARAMETERS`) writes an element's
/// `data-` attributes into the embed's address, after the scenario. The build finds the document
/// it rendered for an embed ([`super::path::embed_document`]) by that address, so it writes the
/// book's embeds the same way ([`host_script_address`]); a test holds the two lists together.
pub const HOST_SCRIPT_ORDER: [Parameter; 14] = [
    Parameter::Learn,
    Parameter::Step,
    Parameter::Real,
    Parameter::Seed,
    Parameter::Fencing,
    Parameter::Log,
    Parameter::At,
    Parameter::Compare,
    Parameter::From,
    Parameter::To,
    Parameter::Controls,
    Parameter::Autoplay,
    Parameter::Theme,
    Parameter::Caption,
];

/// The address the host script writes for an element naming the built-in scenario `id`, with
/// these parameters (its `data-` attributes, in any order; the first of a name counts, and a
/// parameter the host script does not pass on is left out): `embed&s=<id>&…` in
/// [`HOST_SCRIPT_ORDER`], each value written as [`params::percent_encode`] writes it.
pub fn host_script_address(id: &str, given: &[(Parameter, &str)]) -> String {
    let mut parts = vec![
        EMBED.to_owned(),
        format!("s={}", params::percent_encode(id)),
    ];
    for parameter in HOST_SCRIPT_ORDER {
        if let Some((_, value)) = given.iter().find(|(p, _)| *p == parameter) {
            parts.push(format!(
                "{}={}",
                parameter.name(),
                params::percent_encode(value)
            ));
        }
    }
    params::join(&parts)
}

/// Which buttons the embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum ControlSet {
    /// None: a still picture, or an autoplaying one.
    None,
    /// Back, Step, Play and the scrubber.
    Transport,
    /// The transport, the fencing switch, the compare toggle and the violation jumps.
    Full,
}

impl ControlSet {
    pub fn word(self) -> &'static str {
        match self {
            ControlSet::None => "none",
            ControlSet::Transport => "transport",
            ControlSet::Full => "full",
        }
    }
}

/// Whether the embed plays by itself once loaded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Autoplay {
    Off,
    On,
}

/// The colours of this one view; never stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, strum::VariantArray)]
pub enum EmbedTheme {
    /// The host page's, where the host script tells it (`assets/embed.js`), else the system's
    /// (`prefers-color-scheme`).
    Auto,
    Light,
    Dark,
}

impl EmbedTheme {
    /// The value of `<html data-theme>` the stylesheet reads.
    pub fn word(self) -> &'static str {
        match self {
            EmbedTheme::Auto => "auto",
            EmbedTheme::Light => "light",
            EmbedTheme::Dark => "dark",
        }
    }
}

/// What the embed shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shows {
    /// A moment of a run: `setup` is the playground link without `at=` (scenario, seed,
    /// fencing, log, compare, in the order given), `at` the position asked for.
    Moment { setup: String, at: Option<usize> },
    /// Step `step` (0-based) of the lesson `id`.
    Lesson { id: String, step: usize },
    /// The recorded real run `recording` (`lockstep_view::recorded::catalogue`'s id) beside
    /// its simulation, stepped by one clock, with both verdicts.
    Real { recording: String },
}

/// A lesson-sized excerpt: positions (events shown) the embed keeps within.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Excerpt {
    pub from: Option<usize>,
    pub to: Option<usize>,
}

/// The positions an excerpt of a run of `total` events keeps within: `from..=to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    pub from: usize,
    pub to: usize,
}

impl Excerpt {
    /// The bounds within a run of `total` events (an excerpt past the end ends at the end).
    pub fn bounds(self, total: usize) -> Bounds {
        let to = self.to.unwrap_or(total).min(total);
        Bounds {
            from: self.from.unwrap_or(0).min(to),
            to,
        }
    }

    /// Why this excerpt does not fit a run of `total` events, naming the parameter.
    pub fn misfit(self, total: usize, at: Option<usize>) -> Option<String> {
        [("from", self.from), ("to", self.to), ("at", at)]
            .into_iter()
            .find_map(|(name, value)| {
                value
                    .filter(|n| *n > total)
                    .map(|n| format!("`{name}={n}`: this run has only {total} events"))
            })
    }
}

/// Everything an embed's address asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EmbedSpec {
    pub shows: Shows,
    pub controls: ControlSet,
    pub excerpt: Excerpt,
    pub autoplay: Autoplay,
    pub theme: EmbedTheme,
    /// The one-line caption; `None`: the scenario's (or lesson's) title.
    pub caption: Option<String>,
}

/// Whether a fragment (with or without `#`) is an embed's.
pub fn is_embed(fragment: &str) -> bool {
    let first = params::without_hash(fragment)
        .split('&')
        .next()
        .unwrap_or_default();
    first == EMBED
        || first
            .strip_prefix(EMBED)
            .is_some_and(|r| r.starts_with('='))
}

/// The embed a fragment (with or without `#`, starting with `embed`) asks for.
pub fn parse(fragment: &str) -> Result<EmbedSpec, LinkError> {
    let fragment = params::without_hash(fragment);
    let (first, rest) = fragment.split_once('&').unwrap_or((fragment, ""));
    if params::split(first) != (EMBED, "") {
        return Err(LinkError::bad(
            EMBED,
            params::split(first).1,
            "an embed's address starts with `embed&`".to_owned(),
        ));
    }
    let mut read = Reading::default();
    for pair in params::written(rest) {
        read.pair(pair)?;
    }
    let (controls, autoplay, theme, caption) = (
        read.controls,
        read.autoplay,
        read.theme,
        read.caption.take(),
    );
    let excerpt = Excerpt {
        from: read.from,
        to: read.to,
    };
    Ok(EmbedSpec {
        shows: read.shows()?,
        controls: controls.unwrap_or(ControlSet::Transport),
        excerpt,
        autoplay: autoplay.unwrap_or(Autoplay::Off),
        theme: theme.unwrap_or(EmbedTheme::Auto),
        caption,
    })
}

/// An embed's parameters as read so far, each at most once.
#[derive(Default)]
struct Reading {
    /// The playground link's parameters, in the order given.
    setup: Vec<String>,
    at: Option<usize>,
    controls: Option<ControlSet>,
    from: Option<usize>,
    to: Option<usize>,
    autoplay: Option<Autoplay>,
    theme: Option<EmbedTheme>,
    caption: Option<String>,
    learn: Option<String>,
    /// 0-based.
    step: Option<usize>,
    real: Option<String>,
}

impl Reading {
    /// Reads one `name=value` pair.
    fn pair(&mut self, pair: &str) -> Result<(), LinkError> {
        let (name, value) = params::split(pair);
        let parameter = Parameter::named(name)
            .ok_or_else(|| LinkError::at(name, value, Problem::Unknown(LinkKind::Embed)))?;
        let name = parameter.name();
        match parameter {
            Parameter::At => once(&mut self.at, name, params::number(name, value)?),
            Parameter::Controls => once(
                &mut self.controls,
                name,
                params::word(name, value, ControlSet::VARIANTS, ControlSet::word)?,
            ),
            Parameter::From => once(&mut self.from, name, params::number(name, value)?),
            Parameter::To => once(&mut self.to, name, params::number(name, value)?),
            Parameter::Autoplay => once(&mut self.autoplay, name, autoplay(value)?),
            Parameter::Theme => once(
                &mut self.theme,
                name,
                params::word(name, value, EmbedTheme::VARIANTS, EmbedTheme::word)?,
            ),
            Parameter::Caption => once(&mut self.caption, name, caption_text(value)?),
            Parameter::Learn if value.is_empty() => Err(LinkError::bad(
                name,
                value,
                "name a lesson: `learn=<lesson id>`".to_owned(),
            )),
            Parameter::Learn => once(&mut self.learn, name, value.to_owned()),
            Parameter::Real if recordings::find(value).is_none() => Err(LinkError::bad(
                name,
                value,
                format!(
                    "there is no recorded run `{value}`; the recordings: {}",
                    recordings::RECORDINGS
                        .iter()
                        .map(recordings::Recording::id)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            )),
            Parameter::Real => once(&mut self.real, name, value.to_owned()),
            Parameter::Step => match params::number::<usize>(name, value)? {
                0 => Err(LinkError::bad(
                    name,
                    value,
                    "steps are numbered from 1".to_owned(),
                )),
                n => once(&mut self.step, name, n - 1),
            },
            Parameter::S if catalogue::entry(value).is_none() => Err(LinkError::bad(
                name,
                value,
                format!("there is no built-in scenario `{value}`"),
            )),
            Parameter::S
            | Parameter::Scenario
            | Parameter::Seed
            | Parameter::Fencing
            | Parameter::Log
            | Parameter::Compare => {
                self.setup.push(pair.to_owned());
                Ok(())
            }
        }
    }

    /// What the parameters ask the embed to show: a lesson, or a moment of a run.
    fn shows(self) -> Result<Shows, LinkError> {
        if let Some(recording) = self.real.clone() {
            return self.recording(recording);
        }
        match self.learn.clone() {
            Some(id) => self.lesson(id),
            None => match self.step {
                Some(step) => Err(LinkError::bad(
                    "step",
                    &(step + 1).to_string(),
                    "a step belongs to a lesson: add `learn=<lesson id>`".to_owned(),
                )),
                None => self.moment(),
            },
        }
    }

    /// The first parameter given that picks a scenario or a moment of its run, if any: what a
    /// lesson or a recorded run, which choose their own, refuse.
    fn first_of_a_run(&self) -> Option<&'static str> {
        self.setup
            .iter()
            .filter_map(|p| Parameter::named(p.split('=').next().unwrap_or_default()))
            .map(Parameter::name)
            .chain(self.at.map(|_| "at"))
            .chain(self.from.map(|_| "from"))
            .chain(self.to.map(|_| "to"))
            .chain(self.autoplay.map(|_| "autoplay"))
            .next()
    }

    fn lesson(self, id: String) -> Result<Shows, LinkError> {
        if let Some(name) = self.first_of_a_run() {
            return Err(LinkError::at(name, "", Problem::NotForALesson));
        }
        Ok(Shows::Lesson {
            id,
            step: self.step.unwrap_or(0),
        })
    }

    /// A recorded run: shown whole, so no scenario, moment, excerpt, autoplay or lesson.
    fn recording(self, recording: String) -> Result<Shows, LinkError> {
        let not_for_it = self
            .first_of_a_run()
            .or(self.learn.as_ref().map(|_| "learn"))
            .or(self.step.map(|_| "step"));
        if let Some(name) = not_for_it {
            return Err(LinkError::at(name, "", Problem::NotForARecording));
        }
        Ok(Shows::Real { recording })
    }

    fn moment(self) -> Result<Shows, LinkError> {
        let names_scenario = self
            .setup
            .iter()
            .any(|p| p.starts_with("s=") || p.starts_with("scenario="));
        if !names_scenario {
            return Err(LinkError::whole(Problem::NothingToShow));
        }
        let (at, from, to) = (self.at, self.from, self.to);
        if let (Some(from), Some(to)) = (from, to)
            && from > to
        {
            return Err(LinkError::at(
                "from",
                &from.to_string(),
                Problem::FromAfterTo { to },
            ));
        }
        if let Some(at) = at
            && (from.is_some_and(|from| at < from) || to.is_some_and(|to| at > to))
        {
            return Err(LinkError::at(
                "at",
                &at.to_string(),
                Problem::AtOutside {
                    from: from.unwrap_or(0),
                    to: to.unwrap_or(usize::MAX),
                },
            ));
        }
        Ok(Shows::Moment {
            setup: params::join(&self.setup),
            at,
        })
    }
}

fn autoplay(value: &str) -> Result<Autoplay, LinkError> {
    match value {
        "1" => Ok(Autoplay::On),
        "0" => Ok(Autoplay::Off),
        _ => Err(LinkError::bad(
            "autoplay",
            value,
            format!("`{value}` is not 1 (play on load) or 0"),
        )),
    }
}

impl EmbedSpec {
    /// The position the embed opens at: `at=`, else `from=`, else `None` (the run's start).
    pub fn opening(&self) -> Option<usize> {
        match &self.shows {
            Shows::Moment { at, .. } => at.or(self.excerpt.from),
            Shows::Lesson { .. } | Shows::Real { .. } => None,
        }
    }

    /// The fragment (without `#`) that asks for this embed: [`parse`] reads it back.
    pub fn fragment(&self) -> String {
        let mut parts = vec![EMBED.to_owned()];
        match &self.shows {
            Shows::Moment { setup, at } => {
                parts.extend(
                    setup
                        .split('&')
                        .filter(|p| !p.is_empty())
                        .map(str::to_owned),
                );
                parts.extend(at.map(|at| format!("at={at}")));
            }
            Shows::Lesson { id, step } => {
                parts.push(format!("learn={id}"));
                parts.push(format!("step={}", step + 1));
            }
            Shows::Real { recording } => parts.push(format!("real={recording}")),
        }
        if self.controls != ControlSet::Transport {
            parts.push(format!("controls={}", self.controls.word()));
        }
        parts.extend(self.excerpt.from.map(|n| format!("from={n}")));
        parts.extend(self.excerpt.to.map(|n| format!("to={n}")));
        if self.autoplay == Autoplay::On {
            parts.push("autoplay=1".to_owned());
        }
        if self.theme != EmbedTheme::Auto {
            parts.push(format!("theme={}", self.theme.word()));
        }
        if let Some(caption) = &self.caption {
            parts.push(format!("caption={}", params::percent_encode(caption)));
        }
        params::join(&parts)
    }
}

/// The caption's text: `%XX` escapes decoded, trimmed, not empty.
fn caption_text(value: &str) -> Result<String, LinkError> {
    let text = params::percent_decode("caption", value)?.trim().to_owned();
    if text.is_empty() {
        return Err(LinkError::bad(
            "caption",
            value,
            "the caption is empty".to_owned(),
        ));
    }
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    fn error(fragment: &str) -> String {
        parse(fragment).map(|_| ()).unwrap_err().to_string()
    }

    #[test]
    fn an_embed_address_starts_with_embed() {
        assert!(is_embed("#embed&s=s2-gc-pause-fenced"));
        assert!(is_embed("embed"));
        assert!(!is_embed("#embedded&s=x"));
        assert!(!is_embed("#s=s2-gc-pause-fenced&embed"));
        assert!(!is_embed("learn=fencing-tokens"));
    }

    #[test]
    fn the_defaults_are_the_transport_the_whole_run_no_autoplay_and_the_system_theme() {
        let spec = parse("#embed&s=s2-gc-pause-fenced&at=12").expect("valid");
        assert_eq!(
            spec,
            EmbedSpec {
                shows: Shows::Moment {
                    setup: "s=s2-gc-pause-fenced".to_owned(),
                    at: Some(12),
                },
                controls: ControlSet::Transport,
                excerpt: Excerpt::default(),
                autoplay: Autoplay::Off,
                theme: EmbedTheme::Auto,
                caption: None,
            }
        );
        assert_eq!(spec.opening(), Some(12));
    }

    #[test]
    fn every_parameter_is_read() {
        let spec = parse(
            "embed&s=s1-gc-pause-unfenced&seed=7&fencing=on&compare=1&controls=full&from=3&to=9\
             &autoplay=1&theme=dark&caption=Two%20clients%2C%20one%20lock%20%E2%9C%93",
        )
        .expect("valid");
        assert_eq!(
            spec.shows,
            Shows::Moment {
                setup: "s=s1-gc-pause-unfenced&seed=7&fencing=on&compare=1".to_owned(),
                at: None,
            }
        );
        assert_eq!(spec.controls, ControlSet::Full);
        assert_eq!(
            spec.excerpt,
            Excerpt {
                from: Some(3),
                to: Some(9)
            }
        );
        assert_eq!(spec.opening(), Some(3), "`at` defaults to `from`");
        assert_eq!(spec.autoplay, Autoplay::On);
        assert_eq!(spec.theme, EmbedTheme::Dark);
        assert_eq!(spec.caption.as_deref(), Some("Two clients, one lock ✓"));
        let lesson = parse("embed&learn=fencing-tokens&step=3&theme=light").expect("valid");
        assert_eq!(
            lesson.shows,
            Shows::Lesson {
                id: "fencing-tokens".to_owned(),
                step: 2
            }
        );
    }

    /// A recorded real run: shown whole, so nothing that picks a moment, a scenario or a
    /// lesson goes with it; the fragment reads back as itself.
    #[test]
    fn a_recorded_run_is_embedded_whole() {
        let spec = parse("embed&real=s10-redlock-clock-jump.redlock&theme=dark&controls=full")
            .expect("valid");
        assert_eq!(
            spec.shows,
            Shows::Real {
                recording: "s10-redlock-clock-jump.redlock".to_owned()
            }
        );
        assert_eq!(spec.opening(), None);
        assert_eq!(parse(&spec.fragment()), Ok(spec));
        assert!(
            error("embed&real=s2-gc-pause-fenced.redis")
                .starts_with("`real=`: there is no recorded run `s2-gc-pause-fenced.redis`; the recordings: s1-gc-pause-unfenced.postgres, s2-gc-pause-fenced.postgres,"),
        );
        for (extra, name) in [
            ("at=3", "at"),
            ("from=1", "from"),
            ("autoplay=1", "autoplay"),
            ("s=s2-gc-pause-fenced", "s"),
            ("learn=fencing-tokens", "learn"),
            ("step=2", "step"),
        ] {
            assert_eq!(
                error(&format!("embed&real=s2-gc-pause-fenced.postgres&{extra}")),
                format!(
                    "`{name}=` does not apply to a recorded run (`real=`): it is shown whole, \
                     beside its simulation"
                ),
                "{extra}"
            );
        }
    }

    #[test]
    fn wrong_addresses_name_the_parameter_and_the_reason() {
        assert_eq!(
            error("embed&s=s2-gc-pause-fenced&zoom=3"),
            "`zoom`: this parameter means nothing to a Lockstep embed"
        );
        assert_eq!(
            error("embed&s=s2-gc-pause-fenced&controls=some"),
            "`controls=`: `some` is not one of none, transport, full"
        );
        assert_eq!(
            error("embed&s=s2-gc-pause-fenced&theme=sepia"),
            "`theme=`: `sepia` is not one of auto, light, dark"
        );
        assert!(error("embed&s=s2-gc-pause-fenced&autoplay=yes").starts_with("`autoplay=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&from=-1").starts_with("`from=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&to=x").starts_with("`to=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&at=1.5").starts_with("`at=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&caption=%E2%9C").starts_with("`caption=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&caption=%zz").starts_with("`caption=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&caption=").starts_with("`caption=`"));
        assert_eq!(
            error("embed&s=s2-gc-pause-fenced&from=9&to=3"),
            "`from=9` is after `to=3`: the excerpt must start before it ends"
        );
        assert_eq!(
            error("embed&s=s2-gc-pause-fenced&from=4&to=8&at=2"),
            "`at=2` is outside the excerpt `from=4` to `to=8`"
        );
        assert!(error("embed&s=no-such-scenario").starts_with("`s=`"));
        assert_eq!(
            error("embed&at=3"),
            "it names no scenario (`s=` or `scenario=`), no lesson (`learn=`) and no recorded \
             run (`real=`)"
        );
        assert!(error("embed&learn=fencing-tokens&s=s2-gc-pause-fenced").starts_with("`s=`"));
        assert!(error("embed&learn=fencing-tokens&from=2").starts_with("`from=`"));
        assert!(error("embed&s=s2-gc-pause-fenced&step=2").starts_with("`step=`"));
        assert!(error("embed&learn=fencing-tokens&step=0").starts_with("`step=`"));
        assert!(error("embed&learn=").starts_with("`learn=`"));
        assert_eq!(
            error("embed&s=s2-gc-pause-fenced&to=4&to=5"),
            "`to=` is given more than once"
        );
        assert!(error("embed=1&s=s2-gc-pause-fenced").starts_with("`embed=`"));
    }

    /// A valid embed address's parts.
    fn spec() -> impl Strategy<Value = EmbedSpec> {
        let ids: Vec<&'static str> = catalogue::INDEX.iter().map(|e| e.id).collect();
        let moment = (
            proptest::sample::select(ids),
            proptest::option::of(0u64..100),
            any::<bool>(),
            proptest::option::of(0usize..40),
            proptest::option::of(0usize..40),
            proptest::option::of(0usize..40),
        )
            .prop_map(|(id, seed, compare, a, b, c)| {
                let mut setup = vec![format!("s={id}")];
                setup.extend(seed.map(|s| format!("seed={s}")));
                if compare {
                    setup.push("compare=1".to_owned());
                }
                let mut bounds: Vec<usize> = [a, b, c].into_iter().flatten().collect();
                bounds.sort_unstable();
                let (from, at, to) = match bounds.as_slice() {
                    [from, at, to] => (Some(*from), Some(*at), Some(*to)),
                    [from, to] => (Some(*from), None, Some(*to)),
                    [at] => (None, Some(*at), None),
                    _ => (None, None, None),
                };
                (
                    Shows::Moment {
                        setup: setup.join("&"),
                        at,
                    },
                    Excerpt { from, to },
                )
            });
        let lesson = ("[a-z]{1,10}(-[a-z]{1,6}){0,2}", 0usize..12)
            .prop_map(|(id, step)| (Shows::Lesson { id, step }, Excerpt::default()));
        (
            prop_oneof![moment, lesson],
            proptest::sample::select(ControlSet::VARIANTS.to_vec()),
            any::<bool>(),
            proptest::sample::select(EmbedTheme::VARIANTS.to_vec()),
            proptest::option::of("[ -~]{1,20}|[a-zé✓ ]{1,8}"),
        )
            .prop_map(|((shows, excerpt), controls, autoplay, theme, caption)| {
                let lesson = matches!(shows, Shows::Lesson { .. });
                EmbedSpec {
                    shows,
                    controls,
                    excerpt,
                    autoplay: if autoplay && !lesson {
                        Autoplay::On
                    } else {
                        Autoplay::Off
                    },
                    theme,
                    caption: caption
                        .map(|c| c.trim().to_owned())
                        .filter(|c| !c.is_empty()),
                }
            })
    }

    /// One edit to one parameter: drop it, repeat it, give it a bad value, or add an unknown one.
    fn edited(fragment: &str, edit: usize, which: usize) -> (String, String) {
        let mut parts: Vec<String> = fragment.split('&').map(str::to_owned).collect();
        // Never the leading `embed`: that would be another page, not a wrong embed.
        let at = 1 + which % (parts.len() - 1).max(1);
        if at >= parts.len() {
            parts.push("zoom=3".to_owned());
            return (parts.join("&"), "zoom".to_owned());
        }
        let name = parts[at].split('=').next().unwrap_or_default().to_owned();
        match edit {
            0 => {
                parts.remove(at);
            }
            1 => parts.insert(at, parts[at].clone()),
            2 => parts[at] = format!("{name}=-7x"),
            3 => parts[at] = format!("{name}=%g1"),
            _ => {
                parts.insert(at, "zoom=3".to_owned());
                return (parts.join("&"), "zoom".to_owned());
            }
        }
        (parts.join("&"), name)
    }

    #[test]
    fn addresses_round_trip_and_one_edit_away_parse_or_name_the_parameter() {
        const CASES: usize = 1_000;
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = (spec(), 0usize..5, 0usize..12);
        let mut parsed = 0;
        let mut refused = 0;
        for _ in 0..CASES {
            let (spec, edit, which) = strategy
                .new_tree(&mut runner)
                .expect("the strategy generates")
                .current();
            let fragment = spec.fragment();
            assert_eq!(parse(&fragment), Ok(spec.clone()), "{fragment}");
            let (text, name) = edited(&fragment, edit, which);
            match parse(&text) {
                Ok(read) => {
                    parsed += 1;
                    assert_eq!(parse(&read.fragment()), Ok(read), "{text}");
                }
                Err(LinkError {
                    problem: Problem::NothingToShow,
                    ..
                }) => {
                    assert!(edit == 0 && (name == "s" || name == "learn"), "{text}")
                }
                Err(LinkError {
                    problem: Problem::FromAfterTo { .. } | Problem::AtOutside { .. },
                    ..
                }) => {
                    refused += 1;
                    assert!(["from", "to", "at"].contains(&name.as_str()), "{text}");
                }
                Err(error) => {
                    refused += 1;
                    let message = error.to_string();
                    assert!(
                        message.contains(&format!("`{name}")),
                        "\"{message}\" does not name `{name}` ({text})"
                    );
                }
            }
        }
        assert!(parsed * 5 >= CASES, "only {parsed} of {CASES} edits parse");
        assert!(
            refused * 5 >= CASES,
            "only {refused} of {CASES} edits are refused"
        );
    }
}
