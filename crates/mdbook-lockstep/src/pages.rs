//! One page per built-in scenario, made from the catalogue at build time (never copied by
//! hand): its title, its summary, a live embed (a ```` ```lockstep ```` block, checked and
//! written like an author's), its sources resolved against the bibliography, a link into the
//! playground and the block that embeds it elsewhere. A chapter holding the marker
//! [`MARKER`] gets the list of them in its place and the pages as its sub-chapters.
//!
//! The HTML that embeds a scenario elsewhere is copied into other sites' pages, so it names the
//! host script by the address of the site the book was built for ([`Site`]); a hand-run build,
//! which knows none, writes a placeholder and says to replace it, never an address that merely
//! looks real.

use lockstep_sim::scenario::catalogue;
use lockstep_sim::scenario::sources::{Bibliography, Citation};
use lockstep_sim::scenario::types::Scenario;

/// What a chapter writes where the catalogue's list goes.
pub const MARKER: &str = "{{#lockstep-catalogue}}";

/// The address the catalogue's "Embed it" snippets load the host script from, once copied
/// into another site's page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Site {
    /// The site the book was built for (`site-url`, which `cargo xtask dist` sets), ending in
    /// `/`: its `embed.js` is the one beside the app this book's pages embed.
    At(String),
    /// A build that was not told (a hand-run `mdbook build`): [`PLACEHOLDER`], with a sentence
    /// saying to replace it.
    Unknown,
}

/// What the snippets say where the site's address goes when the build does not know it: no
/// host answers it, and it reads as something to fill in.
pub const PLACEHOLDER: &str = "https://YOUR-SITE/lockstep/";

impl Site {
    /// The site from the preprocessor's `site-url` setting, if any; a missing `/` at its end is
    /// added, so that `embed.js` lands inside the site's folder.
    pub fn from_setting(url: Option<String>) -> Site {
        match url.map(|url| url.trim().to_owned()) {
            Some(url) if url.is_empty() => Site::Unknown,
            Some(url) if url.ends_with('/') => Site::At(url),
            Some(url) => Site::At(format!("{url}/")),
            None => Site::Unknown,
        }
    }

    /// The site's folder as the snippet writes it.
    fn address(&self) -> &str {
        match self {
            Site::At(url) => url,
            Site::Unknown => PLACEHOLDER,
        }
    }

    /// The sentence before the snippet: where its script comes from, or what to replace.
    fn sentence(&self) -> String {
        match self {
            Site::At(url) => format!(
                "In any other page: the host script once, then a `<div>` for each embed. As \
                 copied, the script comes from `{url}`, the Lockstep site this book was built \
                 for (see [In plain HTML](../html.md)):"
            ),
            Site::Unknown => format!(
                "In any other page: the host script once, then a `<div>` for each embed. This \
                 book was built without its site's address: replace `{PLACEHOLDER}` with the \
                 address a Lockstep site is served from before you paste it (see \
                 [In plain HTML](../html.md)):"
            ),
        }
    }
}

/// One generated page: the file name it is given (beside the marker's chapter) and its text.
pub struct Page {
    pub file: String,
    pub title: String,
    pub markdown: String,
}

/// Every built-in scenario's page, in catalogue order. `app` is the app's URL from the page
/// (e.g. `../../`); `site` is where the snippets for other pages find the host script. `Err` names a scenario that does not load (the catalogue's own tests
/// prevent it).
pub fn scenario_pages(app: &str, site: &Site) -> Result<Vec<Page>, String> {
    catalogue::BUILT_IN
        .iter()
        .map(|built_in| {
            let scenario = built_in
                .load()
                .map_err(|e| format!("the built-in scenario {}: {e}", built_in.id))?;
            Ok(Page {
                file: format!("{}.md", built_in.id),
                title: scenario.title.clone(),
                markdown: page(built_in.id, &scenario, app, site),
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

fn page(id: &str, scenario: &Scenario, app: &str, site: &Site) -> String {
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
         ````markdown\n```lockstep\n{id}\n```\n````\n\n{}\n\n\
         ```html\n<script src=\"{}embed.js\" defer></script>\n\
         <div data-lockstep=\"{id}\"></div>\n```\n",
        site.sentence(),
        site.address()
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
        let pages = scenario_pages("../../", &Site::Unknown).expect("the catalogue loads");
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
        let pages = scenario_pages("../../", &Site::Unknown).expect("the catalogue loads");
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

    /// S2's "Embed it" section: from its heading to the page's end.
    fn embed_it(site: &Site) -> String {
        let pages = scenario_pages("../../", site).expect("the catalogue loads");
        let s2 = pages
            .iter()
            .find(|p| p.file == "s2-gc-pause-fenced.md")
            .expect("S2's page");
        let (_, section) = s2.markdown.split_once("## Embed it").expect("the section");
        section.to_owned()
    }

    #[test]
    fn the_snippet_for_other_pages_loads_the_host_script_from_the_site_built_for() {
        let site = Site::from_setting(Some("https://locks.example.net/play".to_owned()));
        assert_eq!(site, Site::At("https://locks.example.net/play/".to_owned()));
        let section = embed_it(&site);
        assert!(
            section.contains(
                "```html\n<script src=\"https://locks.example.net/play/embed.js\" defer></script>\n\
                 <div data-lockstep=\"s2-gc-pause-fenced\"></div>\n```"
            ),
            "{section}"
        );
        assert!(!section.contains(PLACEHOLDER), "{section}");
    }

    #[test]
    fn without_the_sites_address_the_snippet_says_what_to_replace() {
        for site in [None, Some(" ".to_owned())].map(Site::from_setting) {
            assert_eq!(site, Site::Unknown);
            let section = embed_it(&site);
            assert!(
                section.contains(
                    "replace `https://YOUR-SITE/lockstep/` with the address a Lockstep site is \
                     served from"
                ),
                "{section}"
            );
            assert!(
                section.contains("<script src=\"https://YOUR-SITE/lockstep/embed.js\" defer>"),
                "{section}"
            );
        }
    }

    #[test]
    fn markup_characters_are_shown_as_written() {
        assert_eq!(
            markdown_text("a_b *c* [d] <e>"),
            "a\\_b \\*c\\* \\[d\\] \\<e\\>"
        );
    }
}
