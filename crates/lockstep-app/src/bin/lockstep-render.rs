//! `lockstep-render DIST SITE_URL`: the build's render (decision 43). Every page the build knows
//! (`lockstep::render::pages`) rendered by the app's own components and written into the site
//! Trunk built in DIST, each at its own path (`s/<id>/index.html`, `learn/<id>/<step>/…`), with
//! `sitemap.xml` (absolute, under SITE_URL) and `404.html`. `cargo xtask dist` runs it.

use lockstep::render::{self, pages::Page, shell};
use lockstep_view::link::path;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [dist, site_url] = args.as_slice() else {
        eprintln!("usage: lockstep-render DIST SITE_URL (SITE_URL ends in /)");
        return ExitCode::from(2);
    };
    match write_site(Path::new(dist), site_url) {
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

/// Every page, the sitemap and the 404 page written into `dist`; how many pages.
fn write_site(dist: &Path, site_url: &str) -> Result<usize, String> {
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
        paths.push(write_page(dist, &shell_html, site_url, page)?);
    }
    write(&dist.join("sitemap.xml"), &sitemap(site_url, &paths))?;
    write(&dist.join("404.html"), &not_found(site_url))?;
    Ok(pages.len())
}

/// One page rendered and written at its path; that path.
fn write_page(
    dist: &Path,
    shell_html: &str,
    site_url: &str,
    page: &Page,
) -> Result<String, String> {
    let place = path::locate(&page.address);
    // The browser reads the page's address from its path alone: the render must draw that.
    let read = path::address(&place.path, "").map_err(|e| e.to_string())?;
    if read != page.address {
        return Err(format!(
            "the page #{} would be written at /{}, which reads as #{read}",
            page.address, place.path
        ));
    }
    let markup = render::page(&page.address).map_err(|e| e.to_string())?;
    let html = shell::fill(
        shell_html,
        &shell::Filled {
            path: &place.path,
            base: &path::base(&place.path),
            site_url,
            title: &page.title,
            description: &page.description,
            markup: &markup,
            files: &page.files,
        },
    )
    .map_err(|e| e.to_string())?;
    let folder: PathBuf = dist.join(&place.path);
    std::fs::create_dir_all(&folder).map_err(|e| format!("creating {}: {e}", folder.display()))?;
    write(&folder.join("index.html"), &html)?;
    Ok(place.path)
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
