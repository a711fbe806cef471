//! The embed's address: `#embed&s=s2-gc-pause-fenced&at=12&controls=transport`.
//!
//! Every playground link parameter (see [`crate::link`]) plus the embed's own: which controls
//! show (`controls=`), a lesson-sized excerpt (`from=`, `to=`), `autoplay=1`, the theme for this
//! view (`theme=`), a caption (`caption=`), or a whole lesson (`learn=`, `step=`). Reading never
//! panics: anything wrong is an [`EmbedError`] naming the parameter, which the embed shows in
//! its frame. The playground parameters are only sorted out here; [`crate::link::decode`] reads
//! them once the scenario they name has loaded. This module does not touch the browser.

use lockstep_sim::catalogue;
use std::fmt;

/// The word a fragment starts with to be an embed.
pub const EMBED: &str = "embed";

/// The playground link's parameters, passed on to [`crate::link::decode`] (`at=` apart: the
/// embed reads it, as it defaults to `from=`).
const PLAYGROUND: [&str; 6] = ["s", "scenario", "seed", "fencing", "log", "compare"];

/// Which buttons the embed shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ControlSet {
    /// None: a still picture, or an autoplaying one.
    None,
    /// Back, Step, Play and the scrubber.
    Transport,
    /// The transport, the fencing switch, the compare toggle and the violation jumps.
    Full,
}

impl ControlSet {
    const ALL: [ControlSet; 3] = [ControlSet::None, ControlSet::Transport, ControlSet::Full];

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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EmbedTheme {
    /// The system's (`prefers-color-scheme`).
    Auto,
    Light,
    Dark,
}

impl EmbedTheme {
    const ALL: [EmbedTheme; 3] = [EmbedTheme::Auto, EmbedTheme::Light, EmbedTheme::Dark];

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
}

/// A lesson-sized excerpt: positions (events shown) the embed keeps within.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Excerpt {
    pub from: Option<usize>,
    pub to: Option<usize>,
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

/// What is wrong with an embed's address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmbedError {
    UnknownParameter(String),
    /// A parameter is there but its value cannot be used.
    Bad {
        parameter: &'static str,
        reason: String,
    },
    /// An embed parameter given twice.
    Repeated(&'static str),
    /// Neither a scenario nor a lesson.
    NothingToShow,
    /// A parameter that a lesson embed does not take (the lesson chooses its own moments).
    NotForALesson(&'static str),
    FromAfterTo {
        from: usize,
        to: usize,
    },
    /// `at=` outside `from..=to`.
    AtOutside {
        at: usize,
        from: usize,
        to: usize,
    },
}

impl fmt::Display for EmbedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EmbedError::UnknownParameter(name) => {
                write!(
                    f,
                    "`{name}`: this parameter means nothing to a Lockstep embed"
                )
            }
            EmbedError::Bad { parameter, reason } => write!(f, "`{parameter}=`: {reason}"),
            EmbedError::Repeated(name) => write!(f, "`{name}=` is given more than once"),
            EmbedError::NothingToShow => {
                f.write_str("it names no scenario (`s=` or `scenario=`) and no lesson (`learn=`)")
            }
            EmbedError::NotForALesson(name) => write!(
                f,
                "`{name}=` does not apply to a lesson (`learn=`): the lesson chooses its own \
                 moments"
            ),
            EmbedError::FromAfterTo { from, to } => write!(
                f,
                "`from={from}` is after `to={to}`: the excerpt must start before it ends"
            ),
            EmbedError::AtOutside { at, from, to } => write!(
                f,
                "`at={at}` is outside the excerpt `from={from}` to `to={to}`"
            ),
        }
    }
}

/// Whether a fragment (with or without `#`) is an embed's.
pub fn is_embed(fragment: &str) -> bool {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let first = fragment.split('&').next().unwrap_or_default();
    first == EMBED
        || first
            .strip_prefix(EMBED)
            .is_some_and(|r| r.starts_with('='))
}

/// The embed a fragment (with or without `#`, starting with `embed`) asks for.
pub fn parse(fragment: &str) -> Result<EmbedSpec, EmbedError> {
    let fragment = fragment.strip_prefix('#').unwrap_or(fragment);
    let mut setup = Vec::new();
    let mut at = None;
    let mut controls = None;
    let mut from = None;
    let mut to = None;
    let mut autoplay = None;
    let mut theme = None;
    let mut caption = None;
    let mut learn = None;
    let mut step = None;
    for (index, pair) in fragment.split('&').enumerate() {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if index == 0 {
            if name != EMBED || !value.is_empty() {
                return Err(EmbedError::Bad {
                    parameter: EMBED,
                    reason: "an embed's address starts with `embed&`".to_owned(),
                });
            }
            continue;
        }
        if pair.is_empty() {
            continue;
        }
        match name {
            "at" => once(&mut at, "at", number("at", value)?)?,
            "controls" => once(
                &mut controls,
                "controls",
                word("controls", value, &ControlSet::ALL, ControlSet::word)?,
            )?,
            "from" => once(&mut from, "from", number("from", value)?)?,
            "to" => once(&mut to, "to", number("to", value)?)?,
            "autoplay" => once(
                &mut autoplay,
                "autoplay",
                match value {
                    "1" => Autoplay::On,
                    "0" => Autoplay::Off,
                    _ => {
                        return Err(EmbedError::Bad {
                            parameter: "autoplay",
                            reason: format!("`{value}` is not 1 (play on load) or 0"),
                        });
                    }
                },
            )?,
            "theme" => once(
                &mut theme,
                "theme",
                word("theme", value, &EmbedTheme::ALL, EmbedTheme::word)?,
            )?,
            "caption" => once(&mut caption, "caption", caption_text(value)?)?,
            "learn" => {
                if value.is_empty() {
                    return Err(EmbedError::Bad {
                        parameter: "learn",
                        reason: "name a lesson: `learn=<lesson id>`".to_owned(),
                    });
                }
                once(&mut learn, "learn", value.to_owned())?
            }
            "step" => {
                let n = number::<usize>("step", value)?;
                if n == 0 {
                    return Err(EmbedError::Bad {
                        parameter: "step",
                        reason: "steps are numbered from 1".to_owned(),
                    });
                }
                once(&mut step, "step", n - 1)?
            }
            "s" if catalogue::entry(value).is_none() => {
                return Err(EmbedError::Bad {
                    parameter: "s",
                    reason: format!("there is no built-in scenario `{value}`"),
                });
            }
            name if PLAYGROUND.contains(&name) => setup.push(pair.to_owned()),
            other => return Err(EmbedError::UnknownParameter(other.to_owned())),
        }
    }
    let names_scenario = setup
        .iter()
        .any(|p| p.starts_with("s=") || p.starts_with("scenario="));
    let shows = match learn {
        Some(id) => {
            let mut not_for_lesson = setup
                .iter()
                .filter_map(|p| PLAYGROUND.iter().find(|n| p.split('=').next() == Some(**n)))
                .map(|n| *n)
                .chain(at.map(|_| "at"))
                .chain(from.map(|_| "from"))
                .chain(to.map(|_| "to"))
                .chain(autoplay.map(|_| "autoplay"));
            if let Some(name) = not_for_lesson.next() {
                return Err(EmbedError::NotForALesson(name));
            }
            Shows::Lesson {
                id,
                step: step.unwrap_or(0),
            }
        }
        None if step.is_some() => {
            return Err(EmbedError::Bad {
                parameter: "step",
                reason: "a step belongs to a lesson: add `learn=<lesson id>`".to_owned(),
            });
        }
        None if !names_scenario => return Err(EmbedError::NothingToShow),
        None => {
            if let (Some(from), Some(to)) = (from, to)
                && from > to
            {
                return Err(EmbedError::FromAfterTo { from, to });
            }
            if let Some(at) = at
                && (from.is_some_and(|from| at < from) || to.is_some_and(|to| at > to))
            {
                return Err(EmbedError::AtOutside {
                    at,
                    from: from.unwrap_or(0),
                    to: to.unwrap_or(usize::MAX),
                });
            }
            Shows::Moment {
                setup: setup.join("&"),
                at,
            }
        }
    };
    Ok(EmbedSpec {
        shows,
        controls: controls.unwrap_or(ControlSet::Transport),
        excerpt: Excerpt { from, to },
        autoplay: autoplay.unwrap_or(Autoplay::Off),
        theme: theme.unwrap_or(EmbedTheme::Auto),
        caption,
    })
}

impl EmbedSpec {
    /// The position the embed opens at: `at=`, else `from=`, else `None` (the run's start).
    pub fn opening(&self) -> Option<usize> {
        match &self.shows {
            Shows::Moment { at, .. } => at.or(self.excerpt.from),
            Shows::Lesson { .. } => None,
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
            parts.push(format!("caption={}", percent_encode(caption)));
        }
        parts.join("&")
    }
}

fn once<T>(slot: &mut Option<T>, name: &'static str, value: T) -> Result<(), EmbedError> {
    if slot.replace(value).is_some() {
        return Err(EmbedError::Repeated(name));
    }
    Ok(())
}

fn number<T: std::str::FromStr>(parameter: &'static str, value: &str) -> Result<T, EmbedError> {
    value.parse().map_err(|_| EmbedError::Bad {
        parameter,
        reason: format!("`{value}` is not a whole number in range"),
    })
}

fn word<T: Copy>(
    parameter: &'static str,
    value: &str,
    all: &[T],
    word_of: fn(T) -> &'static str,
) -> Result<T, EmbedError> {
    all.iter()
        .copied()
        .find(|t| word_of(*t) == value)
        .ok_or_else(|| EmbedError::Bad {
            parameter,
            reason: format!(
                "`{value}` is not one of {}",
                all.iter()
                    .map(|t| word_of(*t))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        })
}

/// The caption's text: `%XX` escapes decoded as UTF-8 (what `encodeURIComponent` writes).
fn caption_text(value: &str) -> Result<String, EmbedError> {
    let bad = |reason: &str| EmbedError::Bad {
        parameter: "caption",
        reason: reason.to_owned(),
    };
    let bytes = value.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| bad("a `%` must be followed by two hexadecimal digits"))?;
            decoded.push(hex);
            i += 3;
        } else {
            decoded.push(bytes[i]);
            i += 1;
        }
    }
    let text = String::from_utf8(decoded)
        .map_err(|_| bad("the decoded text is not UTF-8"))?
        .trim()
        .to_owned();
    if text.is_empty() {
        return Err(bad("the caption is empty"));
    }
    Ok(text)
}

/// `text` with everything but unreserved characters written as `%XX` (as
/// `encodeURIComponent` does).
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}
