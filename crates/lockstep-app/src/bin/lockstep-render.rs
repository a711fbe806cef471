//! `lockstep-render DIST SITE_URL [EMBEDS]`: the build's render (decision 43). Every page the
//! build knows (`lockstep::render::pages`) rendered by the app's own components and written into
//! the site Trunk built in DIST, each at its own path (`s/<id>/index.html`, `learn/<id>/<step>/…`),
//! with `sitemap.xml` (absolute, under SITE_URL) and `404.html`; then the embeds' documents
//! (`lockstep::render::embeds`: every built-in scenario's, and those the book's list EMBEDS
//! names), whose paths it writes into the host script (`DIST/embed.js`) so that it points frames
//! at them. `cargo xtask dist` runs it.

use lockstep::render::shell::Shown;
use lockstep::render::{self, host_script, pages::Page, shell};
use lockstep_view::link::{params, path};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (dist, site_url, embeds) = match args.as_slice() {
        [dist, site_url] => (dist, site_url, None),
        [dist, site_url, embeds] => (dist, site_url, Some(Path::new(embeds))),
        _ => {
            eprintln!("usage: lockstep-render DIST SITE_URL [EMBEDS] (SITE_URL ends in /)");
            return ExitCode::from(2);
        }
    };
    match write_site(Path::new(dist), site_url, embeds) {
        Ok(count) => {
            eprintln!("lockstep-render: {count} pages written into {dist}");
            ExitCode::SUCCESS
        }
        Err(problem) => {
            eprintln!("lockstep-render: {problem}");
            ExitCode::FAILURE
        }
    }
}

/// Every page, the sitemap, the 404 page and the embeds' documents written into `dist`; how
/// many pages.
fn write_site(dist: &Path, site_url: &str, embeds: Option<&Path>) -> Result<usize, String> {
    let index = dist.join("index.html");
    let shell_html =
        std::fs::read_to_string(&index).map_err(|e| format!("reading {}: {e}", index.display()))?;
    let icon = dist.join("favicon.svg");
    let icon =
        std::fs::read_to_string(&icon).map_err(|e| format!("reading {}: {e}", icon.display()))?;
    let shell_html = shell::inline_icon(&shell_html, &icon);
    let pages = render::pages::all();
    let mut paths = Vec::with_capacity(pages.len());
    for page in &pages {
        let place = path::locate(&page.address).path;
        let canonical = place.clone();
        write_page(
            dist,
            &shell_html,
            site_url,
            page,
            (&place, &canonical, Shown::Page),
        )?;
        paths.push(place);
    }
    write(&dist.join("sitemap.xml"), &sitemap(site_url, &paths))?;
    write(&dist.join("404.html"), &not_found(site_url))?;
    let listed = match embeds {
        Some(list) => std::fs::read_to_string(list)
            .map_err(|e| format!("reading the book's embeds {}: {e}", list.display()))?,
        None => String::new(),
    };
    let documents = render::embeds::documents(&listed)?;
    for document in &documents {
        let shown = (
            document.path.as_str(),
            document.canonical.as_str(),
            Shown::Embed,
        );
        write_page(dist, &shell_html, site_url, &document.page, shown)?;
    }
    let paths: Vec<&str> = documents.iter().map(|d| d.path.as_str()).collect();
    host_script::point_at(&dist.join("embed.js"), &paths)?;
    Ok(pages.len() + documents.len())
}

/// One page rendered and written at its path, given with the path of its canonical page and
/// how it is shown.
fn write_page(
    dist: &Path,
    shell_html: &str,
    site_url: &str,
    page: &Page,
    (at, canonical, shown): (&str, &str, Shown),
) -> Result<(), String> {
    // The browser reads the page's address from its path alone: the render must draw that.
    let read = path::address(at, "").map_err(|e| e.to_string())?;
    if read != page.address {
        return Err(format!(
            "the page #{} would be written at /{at}, which reads as #{read}",
            page.address
        ));
    }
    let markup = render::at(&page.address, at).map_err(|e| e.to_string())?;
    let html = shell::fill(
        shell_html,
        &shell::Filled {
            path: at,
            canonical,
            shown,
            base: &path::base(at),
            site_url,
            title: &page.title,
            description: &page.description,
            markup: &markup,
            files: &page.files,
            // An embed's document loads its wasm only when the reader acts on it.
            binary: (shown == Shown::Page).then(|| render::binary_of(&page.address)),
        },
    )
    .map_err(|e| e.to_string())?;
    // A path is written as an address writes it (`caption=a%20b`); a static host decodes it
    // before it looks for the file.
    let on_disk = params::percent_decode("path", at).map_err(|e| e.to_string())?;
    let folder: PathBuf = dist.join(on_disk);
    std::fs::create_dir_all(&folder).map_err(|e| format!("creating {}: {e}", folder.display()))?;
    write(&folder.join("index.html"), &html)
}

fn write(file: &Path, text: &str) -> Result<(), String> {
    std::fs::write(file, text).map_err(|e| format!("writing {}: {e}", file.display()))
}

/// `sitemap.xml`: every rendered page's absolute address.
fn sitemap(site_url: &str, paths: &[String]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for path in paths {
        let _ = writeln!(xml, "  <url><loc>{site_url}{path}</loc></url>");
    }
    xml.push_str("</urlset>\n");
    xml
}

/// `404.html`, which a static host sends for an address it has no file for, from any depth: so
/// it needs no file of the site's and links by absolute address.
fn not_found(site_url: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\" />\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\" />\n\
         <meta name=\"color-scheme\" content=\"light dark\" />\n\
         <title>Not here — Lockstep</title>\n\
         <style>body {{ font: 16px/1.5 system-ui, sans-serif; max-width: 60ch; margin: 2rem auto; padding: 0 1rem; }}</style>\n\
         </head>\n<body>\n<main>\n<h1>This page is not here</h1>\n\
         <p>Lockstep has no page at this address. It may have moved, or the link was cut short.</p>\n\
         <ul>\n<li><a href=\"{site_url}\">The playground</a>: break a lock and watch a fencing token save the data.</li>\n\
         <li><a href=\"{site_url}learn/\">The lessons</a>, each over a run you can step through.</li>\n\
         <li><a href=\"{site_url}sources/\">The sources</a> every scenario rests on.</li>\n\
         </ul>\n</main>\n</body>\n</html>\n"
    )
}
