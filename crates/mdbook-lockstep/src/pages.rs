//! One page per built-in scenario, made from the catalogue at build time (never copied by
//! hand): its title, its summary, a live embed (a ```` ```lockstep ```` block, checked and
//! written like an author's), its sources resolved against the bibliography, a link into the
//! playground and the block that embeds it elsewhere. A chapter holding the marker
//! [`MARKER`] gets the list of them in its place and the pages as its sub-chapters.

use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::sources::{Bibliography, Citation};
use lockstep_sim::scenario::types::Scenario;

/// What a chapter writes where the catalogue's list goes.
pub const MARKER: &str = "{{#lockstep-catalogue}}";

/// One generated page: the file name it is given (beside the marker's chapter) and its text.
pub struct Page {
    pub file: String,
    pub title: String,
    pub markdown: String,
}

/// Every built-in scenario's page, in catalogue order. `app` is the app's URL from the page
/// (e.g. `../../`). `Err` names a scenario that does not load (the catalogue's own tests
/// prevent it).
pub fn scenario_pages(app: &str) -> Result<Vec<Page>, String> {
    catalogue::BUILT_IN
        .iter()
        .map(|built_in| {
            let scenario = built_in
                .load()
                .map_err(|e| format!("the built-in scenario {}: {e}", built_in.id))?;
            Ok(Page {
                file: format!("{}.md", built_in.id),
                title: scenario.title.clone(),
                markdown: page(built_in.id, &scenario, app),
            })
        })
        .collect()
}

/// The list that replaces [`MARKER`]: one link per page, named by its scenario's title.
pub fn list(pages: &[Page]) -> String {
    pages
        .iter()
        .map(|page| format!("- [{}]({})\n", markdown_text(&page.title), page.file))
        .collect()
}

fn page(id: &str, scenario: &Scenario, app: &str) -> String {
    let mut markdown = format!("# {}\n\n", markdown_text(&scenario.title));
    if !scenario.summary.is_empty() {
        markdown.push_str(&format!("{}\n\n", markdown_text(&scenario.summary)));
    }
    markdown.push_str(&format!("```lockstep\n{id}\ncontrols = full\n```\n\n"));
    markdown.push_str(&format!(
        "[Open it in the full playground]({app}#s={id}), with the inspector, the event log and \
         the faults you can add yourself.\n\n"
    ));
    if !scenario.sources.is_empty() {
        markdown.push_str("## Sources\n\n");
        for citation in &scenario.citations() {
            markdown.push_str(&format!("- {}\n", source_line(citation)));
        }
        for note in scenario.notes() {
            markdown.push_str(&format!("- Note: {}\n", markdown_text(note)));
        }
        markdown.push('\n');
    }
    markdown.push_str(&format!(
        "## Embed it\n\nIn this book or any mdBook with the preprocessor:\n\n\
         ````markdown\n```lockstep\n{id}\n```\n````\n\n\
         In any other page: the host script once (from wherever a Lockstep site is served; see \
         [In plain HTML](../html.md)), then a `<div>` for each embed:\n\n\
         ```html\n<script src=\"https://example.org/lockstep/embed.js\" defer></script>\n\
         <div data-lockstep=\"{id}\"></div>\n```\n"
    ));
    markdown
}

/// A citation as a Markdown list item's text: the work (linked when it has an address), then
/// where in it.
fn source_line(citation: &Citation) -> String {
    let found = Bibliography::embedded()
        .ok()
        .and_then(|bibliography| bibliography.find(&citation.source));
    match found {
        Some(source) => {
            let work = markdown_text(&source.short());
            let work = match &source.url {
                Some(url) => format!("[{work}](<{url}>)"),
                None => work,
            };
            format!("{work}, {}", markdown_text(&citation.at))
        }
        // Scenario::parse refuses a citation of no entry, so a built-in one always resolves.
        None => markdown_text(&format!("{}, {}", citation.source, citation.at)),
    }
}

/// Text that Markdown shows as written: the characters that would start markup are escaped.
fn markdown_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if "\\`*_[]<>#|".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_page_per_built_in_scenario_in_catalogue_order() {
        let pages = scenario_pages("../../").expect("the catalogue loads");
        let files: Vec<String> = pages.iter().map(|p| p.file.clone()).collect();
        let ids: Vec<String> = catalogue::INDEX
            .iter()
            .map(|e| format!("{}.md", e.id))
            .collect();
        assert_eq!(files, ids);
        let list = list(&pages);
        assert_eq!(list.lines().count(), catalogue::INDEX.len());
    }

    #[test]
    fn a_page_has_its_title_summary_embed_and_resolved_sources() {
        let pages = scenario_pages("../../").expect("the catalogue loads");
        let s2 = pages
            .iter()
            .find(|p| p.file == "s2-gc-pause-fenced.md")
            .expect("S2's page");
        let text = &s2.markdown;
        assert!(text.starts_with("# S2 · A GC pause"), "{text}");
        assert!(
            text.contains("client-a takes the lock with token 33"),
            "{text}"
        );
        assert!(text.contains("```lockstep\ns2-gc-pause-fenced\ncontrols = full\n```"));
        assert!(text.contains("(../../#s=s2-gc-pause-fenced)"), "{text}");
        assert!(
            text.contains(
                "- [Martin Kleppmann (2016), “How to do distributed locking”]\
             (<https://martin.kleppmann.com/2016/02/08/how-to-do-distributed-locking.html>), \
             § Making the lock safe with fencing\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn markup_characters_are_shown_as_written() {
        assert_eq!(
            markdown_text("a_b *c* [d] <e>"),
            "a\\_b \\*c\\* \\[d\\] \\<e\\>"
        );
    }
}
