//! `cargo xtask bench --write`: what the benchmarks print, kept section by section and written as
//! `docs/benchmarks.md`, so that the published figures are the printed text itself, never pasted
//! by hand. Without `--write` it only runs and prints, as before.
//!
//! It keeps a child's stdout only (the tables); progress on stderr (cargo's, the `==>` lines) is
//! shown and not kept. It must not change what a benchmark prints or measures.

use std::fs;
use std::process::Command;
use std::time::{SystemTime, UNIX_EPOCH};

use crate::error::Error;
use crate::process;
use crate::workspace::Workspace;

/// Where `--write` puts the record, relative to the repository root.
pub const FILE: &str = "docs/benchmarks.md";

/// How a section's text goes into Markdown.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Layout {
    /// Markdown already (the benchmarks' own tables): written as printed.
    Markdown,
    /// Columns aligned with spaces: written in a code block, so they stay aligned.
    Aligned,
}

/// One benchmark's printed output, under the title `cargo xtask bench` announces it with.
#[derive(Debug, PartialEq)]
pub struct Section {
    pub title: String,
    pub text: String,
    pub layout: Layout,
}

/// The sections printed so far, kept only when writing.
pub struct Record {
    writing: bool,
    sections: Vec<Section>,
}

impl Record {
    pub fn new(writing: bool) -> Self {
        Record {
            writing,
            sections: Vec::new(),
        }
    }

    /// Runs `command` (see [`process::run`]), keeping its stdout when writing.
    pub fn run(&mut self, title: &str, layout: Layout, command: &mut Command) -> Result<(), Error> {
        if !self.writing {
            return process::run(command);
        }
        let text = process::run_capturing(command)?;
        self.keep(title, layout, text);
        Ok(())
    }

    /// Prints text that xtask computed itself, keeping it when writing.
    pub fn print(&mut self, title: &str, layout: Layout, text: String) {
        print!("{text}");
        if self.writing {
            self.keep(title, layout, text);
        }
    }

    fn keep(&mut self, title: &str, layout: Layout, text: String) {
        self.sections.push(Section {
            title: title.to_owned(),
            text,
            layout,
        });
    }

    /// Writes `docs/benchmarks.md` when writing; does nothing otherwise.
    pub fn finish(&self, workspace: &Workspace) -> Result<(), Error> {
        if !self.writing {
            return Ok(());
        }
        let path = workspace.join(FILE);
        let text = render(&today(), &machine(workspace)?, &self.sections);
        fs::write(&path, text).map_err(Error::io(format!("writing {}", path.display())))?;
        process::say(format!("wrote {}", path.display()));
        Ok(())
    }
}

/// The whole file: a heading, the date and machine line, then each section under its title.
pub fn render(date: &str, machine: &str, sections: &[Section]) -> String {
    let mut out = format!(
        "# Benchmarks\n\n\
         Written by `cargo xtask bench --write` on {date}, on {machine}: what it printed, \
         section by section. Do not edit by hand; rerun it on a quiet machine. How to measure, \
         and what the figures can tell, is in [performance.md](performance.md).\n"
    );
    for section in sections {
        out.push_str(&format!("\n## {}\n\n", section.title));
        let text = section.text.trim_end();
        match section.layout {
            Layout::Markdown => out.push_str(text),
            Layout::Aligned => out.push_str(&format!("```\n{text}\n```")),
        }
        out.push('\n');
    }
    out
}

/// The machine, as the figures depend on it: cores, compiler, system.
pub fn machine(workspace: &Workspace) -> Result<String, Error> {
    let cores = std::thread::available_parallelism().map_or(0, usize::from);
    let rustc = process::probe(workspace.command("rustc").arg("--version"))?
        .unwrap_or_else(|| "rustc (version unknown)".to_owned());
    Ok(format!(
        "{cores} cores, {rustc}, {}/{}",
        std::env::consts::OS,
        std::env::consts::ARCH
    ))
}

/// Today's date in UTC, `YYYY-MM-DD`.
pub fn today() -> String {
    let seconds = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |since| since.as_secs());
    date_of(seconds / 86_400)
}

/// The civil date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
fn date_of(days: u64) -> String {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_from_days() {
        assert_eq!(date_of(0), "1970-01-01");
        assert_eq!(date_of(11_016), "2000-02-29");
        assert_eq!(date_of(20_788), "2026-12-01");
    }

    #[test]
    fn render_writes_the_text_as_printed_under_each_title() {
        let sections = [
            Section {
                title: "the simulator natively".to_owned(),
                text: "| backend | events |\n|---|---:|\n| SQL row | 24443 |\n".to_owned(),
                layout: Layout::Markdown,
            },
            Section {
                title: "the bundle".to_owned(),
                text: "file      raw\nindex.html  56,992 B\n\n".to_owned(),
                layout: Layout::Aligned,
            },
        ];
        let file = render(
            "2026-12-01",
            "2 cores, rustc 1.95.0, linux/x86_64",
            &sections,
        );
        assert_eq!(
            file,
            "# Benchmarks\n\n\
             Written by `cargo xtask bench --write` on 2026-12-01, on 2 cores, rustc 1.95.0, \
             linux/x86_64: what it printed, section by section. Do not edit by hand; rerun it on \
             a quiet machine. How to measure, and what the figures can tell, is in \
             [performance.md](performance.md).\n\
             \n## the simulator natively\n\n\
             | backend | events |\n|---|---:|\n| SQL row | 24443 |\n\
             \n## the bundle\n\n\
             ```\nfile      raw\nindex.html  56,992 B\n```\n"
        );
    }

    #[test]
    fn a_record_that_is_not_writing_keeps_nothing() {
        let mut record = Record::new(false);
        record.print("a table", Layout::Markdown, String::new());
        assert!(record.sections.is_empty());
        let mut record = Record::new(true);
        record.print("a table", Layout::Markdown, "| a |\n".to_owned());
        assert_eq!(record.sections.len(), 1);
    }
}
