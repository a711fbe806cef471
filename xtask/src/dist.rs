//! `cargo xtask dist`: the static site, built by Trunk into `dist/` (release, relative URLs,
//! wasm-opt on) with the book in `dist/book/` (mdBook, [`book`]), and a report of what a visitor
//! of the app downloads: each file's size raw, gzipped (level 9) and in brotli (quality 11), plus
//! totals; the book is one line of its own. `--json` prints the same report as JSON on stdout.
//! Beside each of the app's text and wasm files it writes the file precompressed, `FILE.gz` and
//! `FILE.br` ([`compress`]), for a host that sends them as they are; not in the book's folder,
//! which mdBook builds on its own. Those copies are neither measured nor counted as files.

use std::fmt::Write as _;
use std::fs;
use std::io;
use std::path::Path;

use crate::book;
use crate::compress;
use crate::error::Error;
use crate::loading_line;
use crate::process::{self, say};
use crate::tools;
use crate::workspace::Workspace;

pub fn run(workspace: &Workspace, args: &[String]) -> Result<(), Error> {
    let json = match args {
        [] => false,
        [flag] if flag == "--json" => true,
        _ => {
            return Err(Error::Usage(format!(
                "usage: cargo xtask dist [--json] (got: {})",
                args.join(" ")
            )));
        }
    };
    let (files, book_files) = build_and_measure(workspace)?;
    if json {
        println!("{}", to_json(&files, &book_files));
    } else {
        print!("{}", size_table(&files, &book_files));
    }
    Ok(())
}

/// What `cargo xtask dist` prints, built afresh: for `cargo xtask bench`, which also keeps it.
pub fn size_report(workspace: &Workspace) -> Result<String, Error> {
    let (files, book_files) = build_and_measure(workspace)?;
    Ok(size_table(&files, &book_files))
}

/// The release site and the book built into `dist/`, then each file measured: the app's files,
/// and the book's.
fn build_and_measure(workspace: &Workspace) -> Result<(Vec<Entry>, Vec<Entry>), Error> {
    tools::ensure_web(workspace)?;
    tools::ensure_mdbook(workspace)?;
    build(workspace)?;
    let dist = workspace.join("dist");
    say(format!(
        "measuring {} and writing its files precompressed beside them (brotli -q 11 is slow)",
        dist.display()
    ));
    let files = measure(&dist, Copies::Write)?;
    let book_files = measure(&workspace.join(book::DIST_DIR), Copies::Skip)?;
    Ok((files, book_files))
}

/// The app's size table, then the book's total on one line.
fn size_table(files: &[Entry], book_files: &[Entry]) -> String {
    let (raw, gzip, brotli) = totals(book_files);
    format!(
        "{}and the book, dist/book/ ({} files): {} raw, {} gzip -9, {} brotli -q 11\n",
        table(files),
        book_files.len(),
        size(raw),
        size(gzip),
        size(brotli)
    )
}

/// `trunk build --release` into `dist/`, with relative URLs so the site works from any sub-path,
/// then the wasm's size written into the page's loading line ([`loading_line`]), the book into
/// `dist/book/` (listing its embeds), then every page the build knows and every embed's document
/// rendered into its own folder ([`render_pages`]).
/// Trunk finds the pinned wasm-bindgen and wasm-opt on the workspace's `PATH`.
pub fn build(workspace: &Workspace) -> Result<(), Error> {
    say("building the app into dist/ with Trunk (release, relative URLs, wasm-opt)");
    process::run(
        workspace
            .trunk()
            .args(["build", "--release", "--public-url", "./"])
            // Trunk's log goes to stderr with xtask's own, keeping stdout for results.
            .stdout(io::stderr()),
    )?;
    loading_line::stamp(&workspace.join("dist"))?;
    let embeds = workspace.target_dir().join("book-embeds.txt");
    let site = site_url();
    book::build_into_dist(workspace, &embeds, &site)?;
    render_pages(workspace, &embeds, site)
}

/// The site's public address, for the canonical links, `sitemap.xml` and the book's snippets
/// for other sites: `LOCKSTEP_SITE_URL`, else the address `cargo xtask serve` serves at.
fn site_url() -> String {
    let url =
        std::env::var("LOCKSTEP_SITE_URL").unwrap_or_else(|_| "http://127.0.0.1:8080/".to_owned());
    if url.ends_with('/') {
        url
    } else {
        format!("{url}/")
    }
}

/// Every page the build knows, rendered natively by the app's own components into `dist/`
/// (decision 43), and every embed's document, the book's `embeds` among them (decision 44): the
/// app's `lockstep-render` binary, built for the host.
fn render_pages(workspace: &Workspace, embeds: &Path, site: String) -> Result<(), Error> {
    say(format!(
        "rendering every known page into dist/ (canonical addresses under {site})"
    ));
    process::run(
        workspace
            .cargo()
            .args([
                "run",
                "--quiet",
                "-p",
                "lockstep-app",
                "--features",
                "ssr",
                "--bin",
                "lockstep-render",
                "--",
            ])
            .arg(workspace.join("dist"))
            .arg(site)
            .arg(embeds)
            .stdout(io::stderr()),
    )
}

/// Checks that `dist/` holds a release build (not missing, not `trunk serve`'s development
/// build, which `trunk serve` also writes there), for the commands that test or look at it.
pub fn require_release_build(workspace: &Workspace) -> Result<(), Error> {
    let dist = workspace.join("dist");
    let index = dist.join("index.html");
    let html = fs::read_to_string(&index).map_err(|source| Error::Io {
        action: format!(
            "reading {} (build the site first: cargo xtask dist)",
            index.display()
        ),
        source,
    })?;
    // `trunk serve`'s development build carries a live-reload script.
    if html.contains(".well-known/trunk/ws") {
        return Err(Error::Config(format!(
            "{} is a development build from `trunk serve`, not a release build: rebuild it \
             (cargo xtask dist)",
            dist.display()
        )));
    }
    Ok(())
}

/// One file of the site.
struct Entry {
    /// Relative to `dist/`, `/`-separated.
    path: String,
    raw: u64,
    gzip: u64,
    brotli: u64,
}

/// Whether [`measure`] writes each compressible file's precompressed copies beside it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Copies {
    Write,
    Skip,
}

/// Every file under `dir`, sorted by path, with its raw, gzipped and brotli sizes; not the book's
/// (in `dist/book/`), which no visitor of the app downloads, nor the precompressed copies
/// (`*.gz`, `*.br`), which a host sends instead of a file, never besides it.
fn measure(dir: &Path, copies: Copies) -> Result<Vec<Entry>, Error> {
    let mut entries = Vec::new();
    collect(dir, "", copies, &mut entries)?;
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(entries)
}

fn collect(
    dir: &Path,
    prefix: &str,
    copies: Copies,
    entries: &mut Vec<Entry>,
) -> Result<(), Error> {
    let listing = fs::read_dir(dir).map_err(Error::io(format!("listing {}", dir.display())))?;
    for item in listing {
        let item = item.map_err(Error::io(format!("listing {}", dir.display())))?;
        let path = item.path();
        let name = format!("{prefix}{}", item.file_name().to_string_lossy());
        if path.is_dir() && prefix.is_empty() && name == "book" {
            continue;
        }
        if path.is_dir() {
            collect(&path, &format!("{name}/"), copies, entries)?;
        } else if !compress::is_copy(&path) {
            entries.push(measured(&path, name, copies)?);
        }
    }
    Ok(())
}

/// One file's sizes, its copies written beside it when `copies` says so.
fn measured(path: &Path, name: String, copies: Copies) -> Result<Entry, Error> {
    let bytes = fs::read(path).map_err(Error::io(format!("reading {}", path.display())))?;
    let compressing = || Error::io(format!("compressing {}", path.display()));
    let gzip = compress::gzipped(&bytes).map_err(compressing())?;
    let brotli = compress::brotlied(&bytes).map_err(compressing())?;
    if copies == Copies::Write {
        compress::write_copies(path, &gzip, &brotli).map_err(Error::io(format!(
            "writing {}'s precompressed copies",
            path.display()
        )))?;
    }
    Ok(Entry {
        path: name,
        raw: bytes.len() as u64,
        gzip: gzip.len() as u64,
        brotli: brotli.len() as u64,
    })
}

/// Raw, gzip and brotli sizes summed.
fn totals<'a>(entries: impl IntoIterator<Item = &'a Entry>) -> (u64, u64, u64) {
    entries
        .into_iter()
        .fold((0, 0, 0), |(raw, gzip, brotli), e| {
            (raw + e.raw, gzip + e.gzip, brotli + e.brotli)
        })
}

/// When a file is loaded, for the table's subtotals.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Load {
    /// The page itself, at the top of `dist/`.
    AtOnce,
    /// The data in the site's folders (`content/`, `scenarios/`), fetched when a page needs it.
    WhenNeeded,
    /// The host script: other sites' pages load it to embed the app; the app never does.
    ByHostPages,
    /// The chaos lab's worker, fetched when the lab first runs.
    Worker,
    /// The full app's binary, fetched when a page or dialog the story lacks first opens.
    Full,
    /// The embed's binary, which an embed's frame loads instead of the story.
    Embed,
    /// The pages the build rendered (decision 43), one per visit: a reader loads the one the
    /// address names instead of the root's `index.html`; with `sitemap.xml` and `404.html`.
    Rendered,
}

/// Whether `path` is one of the build's rendered pages or their sitemap and 404 page.
fn rendered(path: &str) -> bool {
    path.ends_with("/index.html") || path == "404.html" || path == "sitemap.xml"
}

/// The host script's name in `dist/` (Trunk copies `assets/embed.js` there).
const HOST_SCRIPT: &str = "embed.js";

/// The chaos lab's Web Worker: the bin whose files (its script, its wasm, Trunk's loader) start
/// with this name. The page starts it only when the lab first runs.
pub const WORKER_BIN: &str = "lockstep-worker";

/// The full app's binary (decision 33): its glue and its wasm start with this name. The story
/// binary (`lockstep.js`, `lockstep_bg.wasm`) is part of the page.
const FULL_BIN: &str = "lockstep-full";

/// The embed's binary (decision 33): an embed's frame loads it instead of the story.
const EMBED_BIN: &str = "lockstep-embed";

fn load_of(entry: &Entry) -> Load {
    if rendered(&entry.path) {
        Load::Rendered
    } else if entry.path.contains('/') {
        Load::WhenNeeded
    } else if entry.path.starts_with(WORKER_BIN) {
        Load::Worker
    } else if entry.path.starts_with(FULL_BIN) {
        Load::Full
    } else if entry.path.starts_with(EMBED_BIN) {
        Load::Embed
    } else if entry.path == HOST_SCRIPT {
        Load::ByHostPages
    } else {
        Load::AtOnce
    }
}

fn table(entries: &[Entry]) -> String {
    let (raw, gzip, brotli) = totals(entries);
    let total = format!("total ({} files)", entries.len());
    let parts = [
        (Load::AtOnce, "the page, loaded at once"),
        (Load::Full, "the rest of the app, loaded when first opened"),
        (
            Load::Embed,
            "an embed's binary, loaded by an embed instead of the page's",
        ),
        (Load::WhenNeeded, "data loaded when a page needs it"),
        (
            Load::Rendered,
            "the rendered pages (one per visit), sitemap.xml, 404.html",
        ),
        (
            Load::Worker,
            "the chaos lab's worker, loaded when the lab first runs",
        ),
        (
            Load::ByHostPages,
            "the host script, loaded by other sites' pages",
        ),
    ]
    .map(|(load, words)| {
        let part: Vec<&Entry> = entries.iter().filter(|e| load_of(e) == load).collect();
        let sizes = totals(part.iter().copied());
        (format!("  {words} ({} files)", part.len()), sizes)
    });
    let width = entries
        .iter()
        .map(|e| e.path.len())
        .chain([total.len(), 4])
        .chain(parts.iter().map(|(label, _)| label.len()))
        .max()
        .unwrap_or(4);
    let mut out = String::new();
    let mut row = |name: &str, raw: &str, gzip: &str, brotli: &str| {
        // Writing to a String cannot fail.
        let _ = writeln!(out, "{name:<width$}  {raw:>22}  {gzip:>22}  {brotli:>22}");
    };
    row("file", "raw", "gzip -9", "brotli -q 11");
    // The rendered pages are hundreds: the largest stands for them, their total is below.
    let largest_page = entries
        .iter()
        .filter(|e| rendered(&e.path))
        .max_by_key(|e| e.gzip);
    for e in entries
        .iter()
        .filter(|e| !rendered(&e.path))
        .chain(largest_page)
    {
        let name = if rendered(&e.path) {
            format!("{} (the largest rendered page)", e.path)
        } else {
            e.path.clone()
        };
        row(&name, &size(e.raw), &size(e.gzip), &size(e.brotli));
    }
    row(&total, &size(raw), &size(gzip), &size(brotli));
    for (label, (raw, gzip, brotli)) in &parts {
        row(label, &size(*raw), &size(*gzip), &size(*brotli));
    }
    out
}

/// `51,612 B (50.4 KiB)`.
pub(crate) fn size(bytes: u64) -> String {
    let digits = bytes.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    format!("{grouped} B ({:.1} KiB)", bytes as f64 / 1024.0)
}

fn to_json(entries: &[Entry], book: &[Entry]) -> String {
    let (raw, gzip, brotli) = totals(entries);
    let (book_raw, book_gzip, book_brotli) = totals(book);
    let files = entries
        .iter()
        .map(|e| {
            format!(
                "{{\"path\": {}, \"raw\": {}, \"gzip\": {}, \"brotli\": {}}}",
                json_string(&e.path),
                e.raw,
                e.gzip,
                e.brotli
            )
        })
        .collect::<Vec<_>>()
        .join(", ");
    format!(
        "{{\"dir\": \"dist\", \"gzip_level\": 9, \"brotli_quality\": 11, \"files\": [{files}], \
         \"total\": {{\"files\": {}, \"raw\": {raw}, \"gzip\": {gzip}, \"brotli\": {brotli}}}, \
         \"book\": {{\"files\": {}, \"raw\": {book_raw}, \"gzip\": {book_gzip}, \
         \"brotli\": {book_brotli}}}}}",
        entries.len(),
        book.len()
    )
}

fn json_string(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries() -> Vec<Entry> {
        vec![
            Entry {
                path: "index.html".to_string(),
                raw: 900,
                gzip: 500,
                brotli: 400,
            },
            Entry {
                path: "app_bg.wasm".to_string(),
                raw: 1_234_567,
                gzip: 51_612,
                brotli: 45_000,
            },
        ]
    }

    #[test]
    fn sizes_are_grouped_and_in_kib() {
        assert_eq!(size(0), "0 B (0.0 KiB)");
        assert_eq!(size(999), "999 B (1.0 KiB)");
        assert_eq!(size(1_234_567), "1,234,567 B (1205.6 KiB)");
    }

    #[test]
    fn table_has_a_total_row() {
        let table = table(&entries());
        let total = table
            .lines()
            .find(|l| l.starts_with("total"))
            .unwrap_or_default();
        assert!(total.starts_with("total (2 files)"), "{total}");
        assert!(total.contains("1,235,467 B"), "{total}");
        assert!(total.contains("52,112 B"), "{total}");
        assert!(total.ends_with("45,400 B (44.3 KiB)"), "{total}");
        let header = table.lines().next().unwrap_or_default();
        assert!(
            header.contains("gzip -9 ") && header.ends_with(" brotli -q 11"),
            "{header}"
        );
    }

    /// The table's line that starts with `start`, indentation aside.
    fn line(table: &str, start: &str) -> String {
        table
            .lines()
            .find(|l| l.trim_start().starts_with(start))
            .unwrap_or_default()
            .to_string()
    }

    #[test]
    fn table_sets_the_data_loaded_later_apart_from_the_page() {
        let mut entries = entries();
        entries.push(Entry {
            path: "content/lessons.json".to_string(),
            raw: 100_000,
            gzip: 20_000,
            brotli: 18_000,
        });
        let table = table(&entries);
        let first = line(&table, "the page, loaded at once");
        assert!(first.contains("(2 files)"), "{first}");
        assert!(first.contains("1,235,467 B"), "{first}");
        assert!(first.contains("52,112 B"), "{first}");
        let later = line(&table, "data loaded when a page needs it");
        assert!(later.contains("(1 files)"), "{later}");
        assert!(later.contains("100,000 B"), "{later}");
        assert!(later.contains("20,000 B"), "{later}");
        assert!(later.ends_with("18,000 B (17.6 KiB)"), "{later}");
    }

    #[test]
    fn table_sets_the_host_script_apart_from_the_page() {
        let mut entries = entries();
        entries.push(Entry {
            path: "embed.js".to_string(),
            raw: 6_000,
            gzip: 2_500,
            brotli: 2_200,
        });
        let table = table(&entries);
        let first = line(&table, "the page, loaded at once");
        assert!(first.contains("(2 files)"), "{first}");
        assert!(first.contains("1,235,467 B"), "{first}");
        let host = line(&table, "the host script");
        assert!(host.contains("(1 files)"), "{host}");
        assert!(host.contains("6,000 B"), "{host}");
        assert!(host.contains("2,500 B"), "{host}");
    }

    #[test]
    fn table_sets_the_lab_worker_and_the_full_app_apart_from_the_page() {
        let mut entries = entries();
        for (path, raw, gzip, brotli) in [
            ("lockstep-worker.js", 9_000, 3_000, 2_500),
            ("lockstep-worker_bg.wasm", 500_000, 200_000, 170_000),
            ("lockstep-worker_loader.js", 100, 90, 80),
            ("lockstep-full.js", 50_000, 9_000, 8_000),
            ("lockstep-full_bg.wasm", 1_800_000, 680_000, 520_000),
            ("lockstep-embed.js", 40_000, 8_000, 7_000),
            ("lockstep-embed_bg.wasm", 1_100_000, 430_000, 330_000),
        ] {
            entries.push(Entry {
                path: path.to_string(),
                raw,
                gzip,
                brotli,
            });
        }
        let table = table(&entries);
        let first = line(&table, "the page, loaded at once");
        assert!(first.contains("(2 files)"), "{first}");
        assert!(first.contains("1,235,467 B"), "{first}");
        let worker = line(&table, "the chaos lab's worker");
        assert!(worker.contains("(3 files)"), "{worker}");
        assert!(worker.contains("509,100 B"), "{worker}");
        assert!(worker.contains("203,090 B"), "{worker}");
        assert!(worker.contains("172,580 B"), "{worker}");
        let rest = line(&table, "the rest of the app");
        assert!(rest.contains("(2 files)"), "{rest}");
        assert!(rest.contains("1,850,000 B"), "{rest}");
        let embed = line(&table, "an embed's binary");
        assert!(embed.contains("(2 files)"), "{embed}");
        assert!(embed.contains("1,140,000 B"), "{embed}");
    }

    #[test]
    fn json_report() {
        assert_eq!(
            to_json(&entries(), &entries()[..1]),
            "{\"dir\": \"dist\", \"gzip_level\": 9, \"brotli_quality\": 11, \"files\": [\
             {\"path\": \"index.html\", \"raw\": 900, \"gzip\": 500, \"brotli\": 400}, \
             {\"path\": \"app_bg.wasm\", \"raw\": 1234567, \"gzip\": 51612, \"brotli\": 45000}], \
             \"total\": {\"files\": 2, \"raw\": 1235467, \"gzip\": 52112, \"brotli\": 45400}, \
             \"book\": {\"files\": 1, \"raw\": 900, \"gzip\": 500, \"brotli\": 400}}"
        );
        assert_eq!(json_string("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
    }

    /// Writes each `(file, text)` under `dir`, with the folders it needs.
    fn write_files(dir: &std::path::Path, files: &[(&str, &str)]) -> Result<(), Error> {
        for (file, text) in files {
            let path = dir.join(file);
            fs::create_dir_all(path.parent().unwrap_or(dir)).map_err(Error::io("mkdir"))?;
            fs::write(&path, text).map_err(Error::io("write"))?;
        }
        Ok(())
    }

    #[test]
    fn the_book_is_not_measured_with_the_app() -> Result<(), Error> {
        let dir = std::env::temp_dir().join(format!("xtask-measure-{}", std::process::id()));
        write_files(
            &dir,
            &[
                ("index.html", "page"),
                ("book/index.html", "book"),
                ("scenarios/book/x.json", "{}"),
            ],
        )?;
        let paths: Vec<String> = measure(&dir, Copies::Skip)?
            .into_iter()
            .map(|e| e.path)
            .collect();
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(paths, ["index.html", "scenarios/book/x.json"]);
        Ok(())
    }

    #[test]
    fn copies_are_written_beside_the_apps_text_only_and_never_measured() -> Result<(), Error> {
        let dir = std::env::temp_dir().join(format!("xtask-precompress-{}", std::process::id()));
        let page = "<p>page</p>".repeat(50);
        write_files(
            &dir,
            &[
                ("index.html", page.as_str()),
                ("logo.png", "png"),
                ("book/index.html", "book"),
                ("scenarios/x.json", "{}"),
            ],
        )?;
        let first = measure(&dir, Copies::Write)?;
        let again = measure(&dir, Copies::Write)?;
        let gzip = fs::read(dir.join("index.html.gz")).map_err(Error::io("read"))?;
        let exists = |file: &str| dir.join(file).exists();
        let written = [
            "index.html.br",
            "scenarios/x.json.gz",
            "scenarios/x.json.br",
        ]
        .map(exists);
        let not_written = [
            "logo.png.gz",
            "book/index.html.gz",
            "index.html.gz.gz",
            "index.html.br.gz",
        ]
        .map(exists);
        let _ = fs::remove_dir_all(&dir);
        let paths = |entries: &[Entry]| entries.iter().map(|e| e.path.clone()).collect::<Vec<_>>();
        assert_eq!(
            paths(&first),
            ["index.html", "logo.png", "scenarios/x.json"]
        );
        assert_eq!(paths(&again), paths(&first), "a rerun measures no copies");
        assert_eq!(first[0].gzip, gzip.len() as u64);
        assert_eq!(
            gzip,
            compress::gzipped(page.as_bytes()).map_err(Error::io("gzip"))?
        );
        assert!(
            first[0].brotli < first[0].gzip,
            "{} {}",
            first[0].brotli,
            first[0].gzip
        );
        assert_eq!(written, [true; 3]);
        assert_eq!(not_written, [false; 4]);
        Ok(())
    }

    #[test]
    fn gzip_shrinks_repetitive_input() -> io::Result<()> {
        let input = vec![b'a'; 10_000];
        let compressed = compress::gzip_len(&input)?;
        assert!(compressed < 100, "{compressed}");
        Ok(())
    }
}
