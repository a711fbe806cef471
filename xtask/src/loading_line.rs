//! The size in the loading line. `index.html` shows, before any script runs, what is loading and
//! how big it is; only the build knows how big, so after Trunk's build this writes the wasm's
//! size, gzipped as a host would send it, into `dist/index.html`'s `<span data-wasm-size>`, and
//! its size unpacked as `data-raw-bytes`: `assets/loading.js` counts the download's progress
//! against it (Trunk's own figure is the wasm's size before wasm-opt, a third larger).
//! It edits that one element and nothing else of the page.

use std::fs;
use std::path::Path;

use crate::error::Error;
use crate::gzip::gzip_len;

/// The element Trunk leaves as `index.html` wrote it (possibly with an empty attribute value).
const SLOTS: [&str; 2] = [
    "<span data-wasm-size></span>",
    "<span data-wasm-size=\"\"></span>",
];

/// Writes the size of the site's one `*_bg.wasm` into `dist/index.html`'s loading line.
pub fn stamp(dist: &Path) -> Result<(), Error> {
    let wasm = the_wasm(dist)?;
    let bytes = fs::read(&wasm).map_err(Error::io(format!("reading {}", wasm.display())))?;
    let gzip = gzip_len(&bytes).map_err(Error::io(format!("gzipping {}", wasm.display())))?;
    let index = dist.join("index.html");
    let html =
        fs::read_to_string(&index).map_err(Error::io(format!("reading {}", index.display())))?;
    let stamped = with_size(&html, bytes.len() as u64, gzip).ok_or_else(|| {
        Error::Config(format!(
            "{} has no empty <span data-wasm-size></span> for the loading line's size",
            index.display()
        ))
    })?;
    fs::write(&index, stamped).map_err(Error::io(format!("writing {}", index.display())))
}

/// The app's wasm in `dist`: the one file named `*_bg.wasm` that is not the chaos lab's worker
/// (which the first load never fetches, [`crate::dist::WORKER_BIN`]).
fn the_wasm(dist: &Path) -> Result<std::path::PathBuf, Error> {
    let listing = fs::read_dir(dist).map_err(Error::io(format!("listing {}", dist.display())))?;
    let mut found = Vec::new();
    for item in listing {
        let path = item
            .map_err(Error::io(format!("listing {}", dist.display())))?
            .path();
        if path.file_name().is_some_and(|name| {
            let name = name.to_string_lossy();
            name.ends_with("_bg.wasm") && !name.starts_with(crate::dist::WORKER_BIN)
        }) {
            found.push(path);
        }
    }
    match found.as_slice() {
        [one] => Ok(one.clone()),
        _ => Err(Error::Config(format!(
            "expected one *_bg.wasm besides the worker's in {}, found {}",
            dist.display(),
            found.len()
        ))),
    }
}

/// `html` with the sizes written into its loading line's slot, or `None` if it has no empty slot.
fn with_size(html: &str, raw_bytes: u64, gzip_bytes: u64) -> Option<String> {
    let slot = SLOTS.iter().find(|slot| html.contains(*slot))?;
    let filled = format!(
        "<span data-wasm-size data-raw-bytes=\"{raw_bytes}\"> (WebAssembly, {} compressed)</span>",
        kilobytes(gzip_bytes)
    );
    Some(html.replacen(slot, &filled, 1))
}

/// Whole kilobytes of 1000 bytes, rounded up, as a visitor's download counts them: `417 KB`,
/// with a no-break space so that a narrow screen never splits the number from its unit.
fn kilobytes(bytes: u64) -> String {
    format!("{}&nbsp;KB", bytes.div_ceil(1000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_the_size_into_the_empty_slot_only() {
        let html = "<p>Loading the simulator<span data-wasm-size></span>…</p>";
        assert_eq!(
            with_size(html, 1_372_005, 416_201).as_deref(),
            Some(
                "<p>Loading the simulator<span data-wasm-size data-raw-bytes=\"1372005\"> \
                 (WebAssembly, 417&nbsp;KB compressed)</span>…</p>"
            )
        );
        let rewritten = "<span data-wasm-size=\"\"></span>";
        assert!(
            with_size(rewritten, 2, 1).is_some_and(|out| out.contains("(WebAssembly, 1&nbsp;KB"))
        );
    }

    #[test]
    fn a_page_without_the_slot_or_already_stamped_is_refused() {
        assert_eq!(with_size("<p>Loading</p>", 2000, 1000), None);
        let once = with_size("<span data-wasm-size></span>", 2000, 1000).unwrap_or_default();
        assert_eq!(with_size(&once, 2000, 1000), None);
    }

    #[test]
    fn the_app_wasm_is_found_beside_the_worker_wasm() -> Result<(), Error> {
        let dir = std::env::temp_dir().join(format!("xtask-the-wasm-{}", std::process::id()));
        fs::create_dir_all(&dir).map_err(Error::io("mkdir"))?;
        for name in [
            "lockstep-1a2b_bg.wasm",
            "lockstep-worker_bg.wasm",
            "index.html",
        ] {
            fs::write(dir.join(name), "x").map_err(Error::io("write"))?;
        }
        let found = the_wasm(&dir);
        let _ = fs::remove_dir_all(&dir);
        assert_eq!(found?.file_name(), Some("lockstep-1a2b_bg.wasm".as_ref()));
        Ok(())
    }

    #[test]
    fn kilobytes_round_up() {
        assert_eq!(kilobytes(0), "0&nbsp;KB");
        assert_eq!(kilobytes(1), "1&nbsp;KB");
        assert_eq!(kilobytes(417_000), "417&nbsp;KB");
        assert_eq!(kilobytes(417_001), "418&nbsp;KB");
    }
}
