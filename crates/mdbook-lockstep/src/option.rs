//! A block's options: the embed's parameters, named as in the embed's URL and the host
//! script's `data-` attributes (`at = 12` becomes `data-at="12"`). Reading one checks its name
//! and the form of its value; whether a position exists in the run is `check.rs`'s business.

use std::fmt;

use lockstep_view::link::embed::{ControlSet, EmbedTheme, Parameter};
use lockstep_view::link::fencing::{FENCINGS, fencing_word};
use strum::VariantArray;

/// Every option a block may give: the embed's parameters (declared once, in
/// `lockstep_view::link::embed`) that a block may set, and the three only a block has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionName {
    Embed(Parameter),
    /// The iframe's title (the host script's `data-title`).
    Title,
    /// The iframe's height before the embed says how tall it is (`data-height`).
    Height,
    /// A scenario file beside the chapter, read by the preprocessor.
    File,
}

impl OptionName {
    /// A block names its scenario by id, inline JSON or `file`, never by `s=`, `scenario=` or
    /// with a `log=`: every other parameter of the embed is an option.
    pub const ALL: [OptionName; 16] = [
        OptionName::Embed(Parameter::At),
        OptionName::Embed(Parameter::From),
        OptionName::Embed(Parameter::To),
        OptionName::Embed(Parameter::Controls),
        OptionName::Embed(Parameter::Fencing),
        OptionName::Embed(Parameter::Compare),
        OptionName::Embed(Parameter::Seed),
        OptionName::Embed(Parameter::Autoplay),
        OptionName::Embed(Parameter::Theme),
        OptionName::Embed(Parameter::Caption),
        OptionName::Title,
        OptionName::Height,
        OptionName::Embed(Parameter::Learn),
        OptionName::Embed(Parameter::Step),
        OptionName::Embed(Parameter::Real),
        OptionName::File,
    ];

    /// The name as written in a block, and after `data-` on the host script's element (all but
    /// `file`, which the preprocessor reads itself).
    pub fn as_str(self) -> &'static str {
        match self {
            OptionName::Embed(parameter) => parameter.name(),
            OptionName::Title => "title",
            OptionName::Height => "height",
            OptionName::File => "file",
        }
    }

    fn parse(name: &str) -> Option<OptionName> {
        OptionName::ALL.into_iter().find(|o| o.as_str() == name)
    }

    /// Checks the form of a value: `Err` says what is allowed.
    fn check(self, value: &str) -> Result<(), String> {
        let one_of = |allowed: &[&str]| {
            if allowed.contains(&value) {
                Ok(())
            } else {
                Err(format!("`{value}` is not one of {}", allowed.join(", ")))
            }
        };
        match self {
            OptionName::Embed(Parameter::At | Parameter::From | Parameter::To) => {
                number::<usize>(value).map(|_| ()).ok_or_else(|| {
                    format!("`{value}` is not a position (a whole number, 0 or more)")
                })
            }
            OptionName::Embed(Parameter::Step) => match number::<usize>(value) {
                Some(step) if step >= 1 => Ok(()),
                _ => Err(format!(
                    "`{value}` is not a lesson's step (a whole number, 1 or more)"
                )),
            },
            OptionName::Embed(Parameter::Seed) => {
                number::<u64>(value).map(|_| ()).ok_or_else(|| {
                    format!(
                        "`{value}` is not a seed (a whole number from 0 to {})",
                        u64::MAX
                    )
                })
            }
            OptionName::Height => match number::<u32>(value) {
                Some(px) if (100..=4000).contains(&px) => Ok(()),
                _ => Err(format!(
                    "`{value}` is not a height in CSS pixels from 100 to 4000"
                )),
            },
            OptionName::Embed(Parameter::Controls) => {
                one_of(&words(ControlSet::VARIANTS, ControlSet::word))
            }
            OptionName::Embed(Parameter::Fencing) => one_of(&FENCINGS.map(fencing_word)),
            // A block compares with fencing switched or not at all; `autoplay` is on or off.
            OptionName::Embed(Parameter::Compare | Parameter::Autoplay) => one_of(&["0", "1"]),
            OptionName::Embed(Parameter::Theme) => {
                one_of(&words(EmbedTheme::VARIANTS, EmbedTheme::word))
            }
            OptionName::Embed(
                Parameter::Caption
                | Parameter::Learn
                | Parameter::S
                | Parameter::Scenario
                | Parameter::Log
                | Parameter::Real,
            )
            | OptionName::Title
            | OptionName::File => {
                if value.is_empty() {
                    Err("it is empty".to_string())
                } else {
                    Ok(())
                }
            }
        }
    }
}

impl fmt::Display for OptionName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A whole number in plain decimal digits (no sign, no spaces).
pub fn number<T: std::str::FromStr>(value: &str) -> Option<T> {
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok()
}

/// One option of a block, with the chapter line it is on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setting {
    pub name: OptionName,
    pub value: String,
    pub line: usize,
}

impl Setting {
    /// Reads `name = value`; `Err` says what is wrong, naming the option.
    pub fn read(name: &str, value: &str, line: usize) -> Result<Setting, String> {
        let known = OptionName::parse(name).ok_or_else(|| {
            let names: Vec<&str> = OptionName::ALL.iter().map(|o| o.as_str()).collect();
            format!(
                "`{name}` is not an option; the options are {}",
                names.join(", ")
            )
        })?;
        known
            .check(value)
            .map_err(|reason| format!("`{name}`: {reason}"))?;
        Ok(Setting {
            name: known,
            value: value.to_string(),
            line,
        })
    }

    /// The value as a number, for the options that are numbers (checked when read).
    pub fn number<T: std::str::FromStr>(&self) -> Option<T> {
        number(&self.value)
    }
}

/// The words of every variant, in declaration order.
fn words<T: Copy>(all: &[T], word: fn(T) -> &'static str) -> Vec<&'static str> {
    all.iter().map(|t| word(*t)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reason(name: &str, value: &str) -> String {
        Setting::read(name, value, 1).expect_err("refused")
    }

    #[test]
    fn every_option_reads_a_good_value() {
        let good = [
            ("at", "0"),
            ("from", "3"),
            ("to", "40"),
            ("controls", "full"),
            ("fencing", "check_and_set"),
            ("compare", "1"),
            ("seed", "18446744073709551615"),
            ("autoplay", "0"),
            ("theme", "dark"),
            ("caption", "A pause, with fencing"),
            ("title", "Lockstep: S2"),
            ("height", "420"),
            ("learn", "fencing-tokens"),
            ("step", "1"),
            ("real", "s2-gc-pause-fenced.postgres"),
            ("file", "scenarios/mine.json"),
        ];
        assert_eq!(good.len(), OptionName::ALL.len());
        for (name, value) in good {
            let setting = Setting::read(name, value, 7).expect(name);
            assert_eq!((setting.name.as_str(), setting.line), (name, 7));
        }
    }

    #[test]
    fn bad_values_are_named() {
        assert!(reason("at", "-1").starts_with("`at`: `-1` is not a position"));
        assert!(reason("at", "+3").contains("not a position"));
        assert!(reason("step", "0").contains("1 or more"));
        assert!(reason("seed", "18446744073709551616").contains("not a seed"));
        assert!(reason("height", "99").contains("from 100 to 4000"));
        assert!(reason("controls", "some").contains("none, transport, full"));
        assert!(reason("compare", "yes").contains("0, 1"));
        assert!(reason("theme", "blue").contains("auto, light, dark"));
        assert!(reason("caption", "").contains("empty"));
        assert!(reason("speed", "2").starts_with("`speed` is not an option"));
    }
}
