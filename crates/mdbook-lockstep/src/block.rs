//! What a ```` ```lockstep ```` block says, read from its lines:
//!
//! ```text
//! s2-gc-pause-fenced        a built-in scenario, by id
//! at = 12                   options, one `name = value` a line (see `option.rs`)
//! controls = transport
//! ```
//!
//! or options followed by a scenario of the author's own, inline: everything from the first
//! line that starts with `{` to the end of the block is its JSON; or `file = <path>`, a scenario
//! file beside the chapter, read while the book builds (through the loader the caller gives,
//! so that this module does no I/O) and embedded as if inline. A whole lesson is
//! `learn = <lesson id>` (with `step = <n>`) and no scenario; a run recorded against real
//! servers, beside its simulation, is `real = <recording id>`. Blank lines are ignored.
//!
//! Reading checks the form only (one subject, known names, well-formed values); whether the
//! scenario runs and the positions exist is `check.rs`'s business.

use std::fmt;

use crate::option::{OptionName, Setting};
use lockstep_view::link::embed::Parameter;

/// What the embed shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Subject {
    /// A built-in scenario, by its id, and the chapter line the id is on.
    BuiltIn { id: String, line: usize },
    /// The author's own scenario: its JSON, and the chapter line its first line is on; or, with
    /// `file`, the JSON of that file (its lines its own) and the chapter line of `file =`.
    Inline {
        json: String,
        line: usize,
        file: Option<String>,
    },
    /// A whole lesson (`learn = …`).
    Lesson,
    /// A recorded real run (`real = …`).
    Real,
}

/// One block, read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Block {
    pub subject: Subject,
    /// The options in the order written; each name at most once.
    pub settings: Vec<Setting>,
}

/// What is wrong with a block, and on which line of the chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockError {
    pub line: usize,
    pub reason: String,
}

impl fmt::Display for BlockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

impl Block {
    /// Reads a block from its lines (each with its chapter line number); `opening` is the
    /// opening fence's line, named when the block as a whole is at fault. `load` reads the file
    /// a `file =` names, or says why it cannot.
    pub fn read(
        opening: usize,
        lines: &[(usize, String)],
        load: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<Block, BlockError> {
        let mut parts = Parts::read(lines)?;
        parts.load_file(load)?;
        let subject = parts.subject(opening)?;
        let settings = parts.settings;
        if subject != Subject::Lesson
            && let Some(step) = settings
                .iter()
                .find(|s| s.name == OptionName::Embed(Parameter::Step))
        {
            return Err(BlockError {
                line: step.line,
                reason: "`step` is a lesson's step: it needs `learn = <lesson id>`".to_string(),
            });
        }
        Ok(Block { subject, settings })
    }

    /// The setting `name`, if the block gives it.
    pub fn setting(&self, name: OptionName) -> Option<&Setting> {
        self.settings.iter().find(|s| s.name == name)
    }
}

/// A block's lines sorted out: the scenario id, the options, the inline JSON (or the file's).
struct Parts {
    id: Option<(usize, String)>,
    settings: Vec<Setting>,
    inline: Option<Subject>,
}

impl Parts {
    fn read(lines: &[(usize, String)]) -> Result<Parts, BlockError> {
        let mut parts = Parts {
            id: None,
            settings: Vec::new(),
            inline: None,
        };
        for (index, (line, text)) in lines.iter().enumerate() {
            let line = *line;
            let trimmed = text.trim();
            if trimmed.is_empty() {
                continue;
            }
            if trimmed.starts_with('{') {
                let json = lines[index..]
                    .iter()
                    .map(|(_, text)| text.as_str())
                    .collect::<Vec<_>>()
                    .join("\n");
                parts.inline = Some(Subject::Inline {
                    json,
                    line,
                    file: None,
                });
                break;
            }
            parts.line(line, trimmed)?;
        }
        Ok(parts)
    }

    /// One line that is an option or a scenario id.
    fn line(&mut self, line: usize, trimmed: &str) -> Result<(), BlockError> {
        let error = |reason: String| BlockError { line, reason };
        match trimmed.split_once('=') {
            Some((name, value)) => {
                let setting = Setting::read(name.trim(), value.trim(), line).map_err(error)?;
                if self.settings.iter().any(|s| s.name == setting.name) {
                    return Err(error(format!("`{}` is given twice", setting.name)));
                }
                self.settings.push(setting);
            }
            None if is_id(trimmed) => {
                if let Some((first, _)) = &self.id {
                    return Err(error(format!(
                        "a second scenario id (the first is on line {first}); a block embeds one scenario"
                    )));
                }
                self.id = Some((line, trimmed.to_string()));
            }
            None => {
                return Err(error(format!(
                    "`{trimmed}` is neither a scenario id, nor an option `name = value`, nor \
                     a scenario's JSON (which starts with `{{`)"
                )));
            }
        }
        Ok(())
    }

    /// Reads the file `file =` names, as if its JSON were inline.
    fn load_file(
        &mut self,
        load: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<(), BlockError> {
        let Some(file) = self.settings.iter().find(|s| s.name == OptionName::File) else {
            return Ok(());
        };
        if let Some(Subject::Inline { line, .. }) = &self.inline {
            return Err(BlockError {
                line: *line,
                reason: "a block embeds one thing: `file =` or a scenario's JSON, not both"
                    .to_string(),
            });
        }
        let json = load(&file.value).map_err(|reason| BlockError {
            line: file.line,
            reason: format!("`file`: {reason}"),
        })?;
        self.inline = Some(Subject::Inline {
            json,
            line: file.line,
            file: Some(file.value.clone()),
        });
        Ok(())
    }

    /// The one thing the block embeds.
    fn subject(&mut self, opening: usize) -> Result<Subject, BlockError> {
        let line_of = |parameter| {
            self.settings
                .iter()
                .find(|s| s.name == OptionName::Embed(parameter))
                .map(|s| s.line)
        };
        let (learn, real) = (line_of(Parameter::Learn), line_of(Parameter::Real));
        let id = self.id.take();
        let inline = self.inline.take();
        let inline_line = match &inline {
            Some(Subject::Inline { line, .. }) => Some(*line),
            _ => None,
        };
        let lines = [id.as_ref().map(|(line, _)| *line), inline_line, learn, real];
        match lines.iter().flatten().count() {
            0 => Err(BlockError {
                line: opening,
                reason: "the block names nothing to embed: give a scenario id, a scenario's \
                         JSON, `file = <scenario file>`, `learn = <lesson id>` or `real = \
                         <recording id>`"
                    .to_string(),
            }),
            1 => Ok(match (id, inline) {
                (Some((line, id)), _) => Subject::BuiltIn { id, line },
                (None, Some(inline)) => inline,
                (None, None) if learn.is_some() => Subject::Lesson,
                (None, None) => Subject::Real,
            }),
            _ => Err(BlockError {
                line: lines.into_iter().flatten().max().unwrap_or(opening),
                reason: "a block embeds one thing: a scenario id, a scenario's JSON (inline \
                         or `file =`), a lesson (`learn =`) or a recorded run (`real =`), not \
                         two of them"
                    .to_string(),
            }),
        }
    }
}

/// Whether `text` can be a scenario id: the catalogue's ids are lowercase words and digits
/// joined by hyphens.
fn is_id(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reads a block whose first body line is chapter line 2 (the fence is on line 1).
    fn read(body: &str) -> Result<Block, BlockError> {
        let lines: Vec<(usize, String)> = body
            .lines()
            .enumerate()
            .map(|(i, text)| (i + 2, text.to_string()))
            .collect();
        Block::read(1, &lines, &load)
    }

    /// A file system of one file, `mine.json`.
    fn load(path: &str) -> Result<String, String> {
        match path {
            "mine.json" => Ok("{\"format\": 1}".to_string()),
            _ => Err(format!("cannot read {path}")),
        }
    }

    fn error(body: &str) -> BlockError {
        read(body).expect_err("the block is wrong")
    }

    #[test]
    fn an_id_with_options() {
        let block = read("s2-gc-pause-fenced\n\nat = 12\ncontrols = full\n").expect("valid");
        assert_eq!(
            block.subject,
            Subject::BuiltIn {
                id: "s2-gc-pause-fenced".to_string(),
                line: 2
            }
        );
        let at = block.setting(OptionName::Embed(Parameter::At)).expect("at");
        assert_eq!((at.value.as_str(), at.line), ("12", 4));
        assert_eq!(block.settings.len(), 2);
    }

    #[test]
    fn inline_json_runs_to_the_end_and_keeps_its_first_line() {
        let block = read("caption = Mine\n{\n  \"format\": 1\n}\n").expect("valid");
        assert_eq!(
            block.subject,
            Subject::Inline {
                json: "{\n  \"format\": 1\n}".to_string(),
                line: 3,
                file: None
            }
        );
    }

    #[test]
    fn a_file_is_read_and_embedded_as_if_inline() {
        let block = read("controls = full\nfile = mine.json\n").expect("valid");
        assert_eq!(
            block.subject,
            Subject::Inline {
                json: "{\"format\": 1}".to_string(),
                line: 3,
                file: Some("mine.json".to_string())
            }
        );
        let missing = error("file = yours.json\n");
        assert_eq!(missing.line, 2);
        assert_eq!(missing.reason, "`file`: cannot read yours.json");
        assert_eq!(error("file = mine.json\n{\n}\n").line, 3);
        assert_eq!(error("s2\nfile = mine.json\n").line, 3);
    }

    #[test]
    fn a_lesson_with_its_step() {
        let block = read("learn = fencing-tokens\nstep = 2\n").expect("valid");
        assert_eq!(block.subject, Subject::Lesson);
    }

    #[test]
    fn a_recorded_run() {
        let block =
            read("real = s2-gc-pause-fenced.postgres\ncaption = For real\n").expect("valid");
        assert_eq!(block.subject, Subject::Real);
        assert_eq!(error("s2\nreal = s2-gc-pause-fenced.postgres\n").line, 3);
        assert_eq!(
            error("learn = fencing-tokens\nreal = s2-gc-pause-fenced.postgres\n").line,
            3
        );
        assert_eq!(
            error("real = s2-gc-pause-fenced.postgres\nstep = 2\n").line,
            3
        );
    }

    #[test]
    fn each_mistake_names_its_line() {
        assert_eq!(error("s2\ns3\n").line, 3);
        assert_eq!(error("s2\nat = 1\nat = 2\n").line, 4);
        assert_eq!(error("s2\nspeed = fast\n").line, 3);
        assert_eq!(error("s2\nThe GC pause\n").line, 3);
        assert_eq!(error("at = 3\n").line, 1);
        assert_eq!(error("s2\nlearn = fencing-tokens\n").line, 3);
        assert_eq!(error("s2\nstep = 2\n").line, 3);
        assert!(error("s2\nspeed = fast\n").reason.contains("`speed`"));
    }
}
