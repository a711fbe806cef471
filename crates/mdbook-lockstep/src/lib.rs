//! `mdbook-lockstep`: an [mdBook] preprocessor that turns fenced ```` ```lockstep ```` blocks
//! into live Lockstep embeds, and fails the book's build, naming the file and line, when a
//! block's scenario is invalid — checked natively with `lockstep-sim` at build time.
//!
//! ````markdown
//! ```lockstep
//! s2-gc-pause-fenced
//! at = 12
//! controls = transport
//! ```
//! ````
//!
//! becomes the host script's `<div data-lockstep="s2-gc-pause-fenced" data-at="12" …>` and,
//! once per page, `<script src="…/embed.js" defer>`; the host script makes the iframe. A
//! chapter holding `{{#lockstep-catalogue}}` gets one sub-chapter per built-in scenario.
//!
//! In `book.toml`:
//!
//! ```toml
//! [preprocessor.lockstep]
//! command = "cargo run --quiet --package mdbook-lockstep --"
//! before = ["index", "links"]       # so that lines are the files' own
//! host-script = "../embed.js"        # from the book's root; the default
//! embeds-list = "embeds.txt"         # optional: where to list the built-in scenarios' embeds
//! site-url = "https://your.site/lockstep/"  # optional: the site the book is built for
//! ```
//!
//! With `embeds-list`, the preprocessor also writes, one per line, the address the host script
//! will give each built-in scenario's embed in the book: `cargo xtask dist` sets it (through
//! mdBook's `MDBOOK_PREPROCESSOR__LOCKSTEP__EMBEDS_LIST`) and renders a document for each.
//! `site-url` is where the catalogue's snippets for other pages load the host script from
//! (`cargo xtask dist` sets it to its site's address, `MDBOOK_PREPROCESSOR__LOCKSTEP__SITE_URL`);
//! without it they say to replace a placeholder ([`pages::Site`]).
//!
//! The modules: [`fence`] finds the blocks, [`block`] and [`option`] read them, [`check`] runs
//! them, [`embed`] writes them, [`pages`] makes the catalogue's pages.
//!
//! [mdBook]: https://rust-lang.github.io/mdBook/

pub mod block;
pub mod check;
pub mod embed;
pub mod fence;
pub mod lessons;
pub mod option;
pub mod pages;

use std::fmt;
use std::path::{Path, PathBuf};

use mdbook_preprocessor::book::{Book, BookItem, Chapter, SectionNumber};
use mdbook_preprocessor::errors::Result;
use mdbook_preprocessor::{Preprocessor, PreprocessorContext};

use block::{Block, BlockError};
use lessons::Lessons;

/// The host script's URL from the book's root when `book.toml` does not say: the app is built
/// beside the book (`dist/` and `dist/book/`).
pub const DEFAULT_HOST_SCRIPT: &str = "../embed.js";

/// A block that cannot be embedded, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The chapter's file, or what made the page when no file did.
    pub file: String,
    pub error: BlockError,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: lockstep block: {}",
            self.file, self.error.line, self.error.reason
        )
    }
}

/// Every broken block of a book, one per line.
#[derive(Debug)]
pub struct BrokenBlocks(pub Vec<Located>);

impl fmt::Display for BrokenBlocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let lines: Vec<String> = self.0.iter().map(ToString::to_string).collect();
        write!(f, "{}", lines.join("\n"))
    }
}

impl std::error::Error for BrokenBlocks {}

/// The preprocessor.
pub struct Lockstep;

impl Preprocessor for Lockstep {
    fn name(&self) -> &str {
        "lockstep"
    }

    fn run(&self, ctx: &PreprocessorContext, mut book: Book) -> Result<Book> {
        let host_script = ctx
            .config
            .get::<String>("preprocessor.lockstep.host-script")?
            .unwrap_or_else(|| DEFAULT_HOST_SCRIPT.to_string());
        let lessons = Lessons::embedded().map_err(mdbook_preprocessor::errors::Error::msg)?;
        let site =
            pages::Site::from_setting(ctx.config.get::<String>("preprocessor.lockstep.site-url")?);
        let src = ctx.root.join(&ctx.config.book.src);
        add_catalogue(&mut book, &host_script, &site)
            .map_err(mdbook_preprocessor::errors::Error::msg)?;
        let mut broken = Vec::new();
        let mut documents = std::collections::BTreeSet::new();
        book.for_each_mut(|item| {
            if let BookItem::Chapter(chapter) = item {
                let file = chapter_file(&src, chapter);
                let folder = chapter
                    .source_path
                    .as_deref()
                    .and_then(Path::parent)
                    .map(|folder| src.join(folder));
                let page = Page {
                    host_script: &host_script,
                    depth: depth(chapter),
                    folder: folder.as_deref(),
                };
                match embed_blocks(&chapter.content, &page, &lessons) {
                    Ok(embedded) => {
                        chapter.content = embedded.content;
                        documents.extend(embedded.documents);
                    }
                    Err(errors) => broken.extend(errors.into_iter().map(|error| Located {
                        file: file.clone(),
                        error,
                    })),
                }
            }
        });
        if !broken.is_empty() {
            return Err(BrokenBlocks(broken).into());
        }
        if let Some(list) = ctx
            .config
            .get::<PathBuf>("preprocessor.lockstep.embeds-list")?
        {
            let lines: String = documents.iter().map(|a| format!("{a}\n")).collect();
            std::fs::write(ctx.root.join(&list), lines).map_err(|e| {
                mdbook_preprocessor::errors::Error::msg(format!(
                    "writing the embeds' list {}: {e}",
                    list.display()
                ))
            })?;
        }
        Ok(book)
    }

    fn supports_renderer(&self, renderer: &str) -> Result<bool> {
        // The embeds are HTML; other renderers get the blocks as code.
        Ok(renderer == "html")
    }
}

/// Where a chapter's page is, for what its blocks need from it.
pub struct Page<'a> {
    /// The host script's URL from the book's root.
    pub host_script: &'a str,
    /// How many folders below the book's root the page is.
    pub depth: usize,
    /// The folder of the chapter's file, where `file =` paths start; `None` for a page that
    /// was generated.
    pub folder: Option<&'a Path>,
}

impl Page<'_> {
    /// The text of the scenario file `path`, relative to the chapter's folder.
    fn load(&self, path: &str) -> std::result::Result<String, String> {
        let folder = self
            .folder
            .ok_or("a generated page has no folder to read a file from")?;
        let file = folder.join(path);
        std::fs::read_to_string(&file).map_err(|e| format!("cannot read {}: {e}", file.display()))
    }
}

/// A chapter with its blocks embedded.
#[derive(Debug, PartialEq, Eq)]
pub struct Embedded {
    pub content: String,
    /// The addresses of its built-in scenarios' embeds ([`embed::document_address`]).
    pub documents: Vec<String>,
}

/// `content` with every ```` ```lockstep ```` block replaced by its embed, and the host script
/// loaded before the first; or every broken block's error.
pub fn embed_blocks(
    content: &str,
    page: &Page<'_>,
    lessons: &Lessons,
) -> std::result::Result<Embedded, Vec<BlockError>> {
    let fences = fence::lockstep_blocks(content);
    let mut documents = Vec::new();
    let mut out = String::with_capacity(content.len());
    let mut errors = Vec::new();
    let mut copied = 0;
    for (index, fence) in fences.iter().enumerate() {
        out.push_str(&content[copied..fence.span.start]);
        copied = fence.span.end;
        let block = Block::read(fence.line, &fence.body, &|path| page.load(path))
            .and_then(|block| check::check(&block, fence.line, lessons).map(|()| block));
        match block {
            Ok(block) => {
                if index == 0 {
                    out.push_str(&embed::host_script(&embed::relative_to_page(
                        page.host_script,
                        page.depth,
                    )));
                }
                out.push_str(&embed::markup(&block));
                documents.extend(embed::document_address(&block));
            }
            Err(error) => errors.push(error),
        }
    }
    out.push_str(&content[copied..]);
    if errors.is_empty() {
        Ok(Embedded {
            content: out,
            documents,
        })
    } else {
        Err(errors)
    }
}

/// How many folders below the book's root a chapter's page is.
fn depth(chapter: &Chapter) -> usize {
    chapter
        .path
        .as_deref()
        .map_or(0, |path| path.components().count().saturating_sub(1))
}

/// The chapter's file, for messages: its path on disk, or what made it.
fn chapter_file(src: &Path, chapter: &Chapter) -> String {
    match &chapter.source_path {
        Some(path) => src.join(path).display().to_string(),
        None => format!("(the generated page \"{}\")", chapter.name),
    }
}

/// Finds the chapter holding [`pages::MARKER`] and gives it the catalogue: the list in the
/// marker's place, one sub-chapter per built-in scenario beside its file, whose snippets for
/// other pages name `site`.
fn add_catalogue(
    book: &mut Book,
    host_script: &str,
    site: &pages::Site,
) -> std::result::Result<(), String> {
    let mut result = Ok(());
    book.for_each_mut(|item| {
        let BookItem::Chapter(chapter) = item else {
            return;
        };
        if result.is_err() || !has_marker(&chapter.content) {
            return;
        }
        let folder: PathBuf = chapter
            .path
            .as_deref()
            .and_then(Path::parent)
            .map(Path::to_path_buf)
            .unwrap_or_default();
        let page_depth = folder.components().count();
        let app = embed::relative_to_page(&app_of(host_script), page_depth);
        match pages::scenario_pages(&app, site) {
            Ok(pages) => {
                chapter.content = with_list(&chapter.content, &pages::list(&pages));
                let mut parents = chapter.parent_names.clone();
                parents.push(chapter.name.clone());
                for (index, page) in pages.into_iter().enumerate() {
                    let mut sub = Chapter::new(
                        &page.title,
                        page.markdown,
                        folder.join(&page.file),
                        parents.clone(),
                    );
                    // A generated page has no file of its own.
                    sub.source_path = None;
                    sub.number = chapter.number.as_ref().map(|number| {
                        let mut numbers = number.to_vec();
                        numbers.push(u32::try_from(index + 1).unwrap_or(u32::MAX));
                        SectionNumber::new(numbers)
                    });
                    chapter.sub_items.push(BookItem::Chapter(sub));
                }
            }
            Err(reason) => result = Err(reason),
        }
    });
    result
}

/// Whether a line of `content` is the marker alone (the marker quoted in a sentence is not).
fn has_marker(content: &str) -> bool {
    content.lines().any(|line| line.trim() == pages::MARKER)
}

/// `content` with each line that is the marker alone replaced by `list`.
fn with_list(content: &str, list: &str) -> String {
    content
        .split_inclusive('\n')
        .map(|line| {
            if line.trim() == pages::MARKER {
                list
            } else {
                line
            }
        })
        .collect()
}

/// The app's URL: the folder the host script is in (`../embed.js` gives `../`).
fn app_of(host_script: &str) -> String {
    match host_script.rfind('/') {
        Some(slash) => host_script[..=slash].to_string(),
        None => "./".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lessons() -> Lessons {
        Lessons::embedded().expect("the shipped lessons read")
    }

    /// A page `depth` folders down whose chapter's folder is `folder`.
    fn page(depth: usize, folder: Option<&Path>) -> Page<'_> {
        Page {
            host_script: "../embed.js",
            depth,
            folder,
        }
    }

    #[test]
    fn blocks_become_embeds_with_one_host_script() {
        let content = "# Two\n\n```lockstep\ns2-gc-pause-fenced\n```\n\ntext\n\n```lockstep\ns1-gc-pause-unfenced\nat = 3\n```\n";
        let embedded = embed_blocks(content, &page(1, None), &lessons()).expect("valid");
        let html = embedded.content;
        assert_eq!(
            html.matches("<script src=\"../../embed.js\" defer>")
                .count(),
            1
        );
        assert!(html.contains("data-lockstep=\"s2-gc-pause-fenced\""));
        assert!(html.contains("data-lockstep=\"s1-gc-pause-unfenced\" data-at=\"3\""));
        assert!(html.contains("\ntext\n"));
        assert!(!html.contains("```"));
        assert_eq!(
            embedded.documents,
            [
                "embed&s=s2-gc-pause-fenced",
                "embed&s=s1-gc-pause-unfenced&at=3"
            ]
        );
    }

    #[test]
    fn a_documents_address_is_the_host_scripts_whatever_the_blocks_order() {
        let content = "```lockstep\ns8-held-safely-from-acquisition\ncaption = heldSafely() it's 100%\nheight = 300\ncontrols = none\nfrom = 4\n```\n\n```lockstep\nlearn = not-a-mutex\n```\n";
        let embedded = embed_blocks(content, &page(0, None), &lessons()).expect("valid");
        assert_eq!(
            embedded.documents,
            [
                "embed&s=s8-held-safely-from-acquisition&from=4&controls=none&caption=heldSafely%28%29%20it%27s%20100%25"
            ]
        );
    }

    #[test]
    fn a_page_without_blocks_is_unchanged() {
        let content = "# None\n\n````markdown\n```lockstep\nnot-checked\n```\n````\n";
        assert_eq!(
            embed_blocks(content, &page(0, None), &lessons()).map(|e| e.content),
            Ok(content.to_owned())
        );
    }

    #[test]
    fn every_broken_block_is_reported_with_its_line() {
        let content = "# Broken\n\n```lockstep\nno-such-scenario\n```\n\n```lockstep\ns2-gc-pause-fenced\nat = 99999\n```\n";
        let errors = embed_blocks(content, &page(0, None), &lessons()).expect_err("broken");
        let lines: Vec<usize> = errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [4, 9]);
        let located = Located {
            file: "book/src/broken.md".to_string(),
            error: errors[0].clone(),
        };
        assert!(
            located
                .to_string()
                .starts_with("book/src/broken.md:4: lockstep block: `no-such-scenario`")
        );
    }

    #[test]
    fn a_file_is_read_from_the_chapters_folder() {
        let folder = std::env::temp_dir().join(format!("mdbook-lockstep-{}", std::process::id()));
        std::fs::create_dir_all(folder.join("scenarios")).expect("a folder");
        std::fs::write(
            folder.join("scenarios").join("mine.json"),
            lockstep_sim::scenario::catalogue::DEFAULT_JSON,
        )
        .expect("a file");
        let content = "```lockstep\nfile = scenarios/mine.json\n```\n";
        let html = embed_blocks(content, &page(0, Some(&folder)), &lessons());
        let missing = embed_blocks(content, &page(0, None), &lessons());
        let _ = std::fs::remove_dir_all(&folder);
        let embedded = html.expect("valid");
        assert!(
            embedded.documents.is_empty(),
            "the author's own has no document"
        );
        let html = embedded.content;
        assert!(html.contains("data-lockstep=\"\"><script type=\"application/json\">"));
        assert!(html.contains("\"id\": \"s2-gc-pause-fenced\""));
        assert!(!html.contains("data-file"));
        let missing = missing.expect_err("no folder");
        assert_eq!(missing[0].line, 2);
        assert!(
            missing[0].reason.contains("generated page"),
            "{}",
            missing[0].reason
        );
    }

    #[test]
    fn the_catalogue_becomes_sub_chapters_beside_the_marker() {
        let mut index = Chapter::new(
            "Scenarios",
            format!("# Scenarios\n\n{}\n", pages::MARKER),
            "scenarios/README.md",
            Vec::new(),
        );
        index.number = Some(SectionNumber::new(vec![3]));
        let mut book = Book::new();
        book.push_item(index);
        add_catalogue(&mut book, "../embed.js", &pages::Site::Unknown)
            .expect("the catalogue loads");
        let Some(BookItem::Chapter(index)) = book.iter().next() else {
            panic!("the chapter is there");
        };
        assert!(!index.content.contains(pages::MARKER));
        assert!(index.content.contains("(s2-gc-pause-fenced.md)"));
        assert_eq!(
            index.sub_items.len(),
            lockstep_sim::scenario::catalogue::INDEX.len()
        );
        let BookItem::Chapter(first) = &index.sub_items[0] else {
            panic!("a chapter");
        };
        assert_eq!(
            first.path.as_deref(),
            Some(Path::new("scenarios/a1-optimistic-concurrency.md"))
        );
        assert_eq!(first.number, Some(SectionNumber::new(vec![3, 1])));
        assert!(
            first
                .content
                .contains("(../../#s=a1-optimistic-concurrency)")
        );
        assert_eq!(first.parent_names, ["Scenarios"]);
    }

    #[test]
    fn only_a_line_of_its_own_is_the_marker() {
        let quoted = format!("Write `{}` on a line.\n", pages::MARKER);
        assert!(!has_marker(&quoted));
        let content = format!("{quoted}\n  {}\nend\n", pages::MARKER);
        assert!(has_marker(&content));
        assert_eq!(
            with_list(&content, "- a\n"),
            format!("{quoted}\n- a\nend\n")
        );
    }

    #[test]
    fn the_app_is_the_host_scripts_folder() {
        assert_eq!(app_of("../embed.js"), "../");
        assert_eq!(
            app_of("https://example.org/lockstep/embed.js"),
            "https://example.org/lockstep/"
        );
        assert_eq!(app_of("embed.js"), "./");
    }
}
