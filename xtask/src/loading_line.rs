//! The size in the loading line. `index.html` shows, before any script runs, what is loading and
//! how big it is; only the build knows how big, so after Trunk's build this writes the wasm's
//! size, gzipped as a host would send it, into `dist/index.html`'s `<span data-wasm-size>`, and
//! every page binary's sizes as `data-sizes`: `assets/boot.js` counts the download's progress
//! against the unpacked size of the binary it loads.
//! It edits that one element and nothing else of the page.

use std::fs;
use std::path::Path;

use crate::compress::gzip_len;
use crate::error::Error;

/// The element Trunk leaves as `index.html` wrote it (possibly with an empty attribute value).
const SLOTS: [&str; 2] = [
    "<span data-wasm-size></span>",
    "<span data-wasm-size=\"\"></span>",
];

/// The page's binaries (decision 33), the story first: the one a visit loads unless its
/// address is an embed's or names a page only the full binary has.
pub const PAGE_BINS: [&str; 3] = ["lockstep", "lockstep-embed", "lockstep-full"];

/// Writes the page binaries' sizes into `dist/index.html`'s loading line.
pub fn stamp(dist: &Path) -> Result<(), Error> {
    let mut sizes = Vec::new();
    for bin in PAGE_BINS {
        let wasm = dist.join(format!("{bin}_bg.wasm"));
        let bytes = fs::read(&wasm).map_err(Error::io(format!("reading {}", wasm.display())))?;
        let gzip = gzip_len(&bytes).map_err(Error::io(format!("gzipping {}", wasm.display())))?;
        sizes.push((bin, bytes.len() as u64, gzip));
    }
    let index = dist.join("index.html");
    let html =
        fs::read_to_string(&index).map_err(Error::io(format!("reading {}", index.display())))?;
    let stamped = with_sizes(&html, &sizes).ok_or_else(|| {
        Error::Config(format!(
            "{} has no empty <span data-wasm-size></span> for the loading line's size",
            index.display()
        ))
    })?;
    fs::write(&index, stamped).map_err(Error::io(format!("writing {}", index.display())))
}

/// `html` with the sizes (`(binary, unpacked, gzip)`, the story first) written into its loading
/// line's slot: the story's in words, every binary's in `data-sizes` for `assets/boot.js`, which
/// counts the download's progress against the unpacked size. `None` if it has no empty slot.
fn with_sizes(html: &str, sizes: &[(&str, u64, u64)]) -> Option<String> {
    let slot = SLOTS.iter().find(|slot| html.contains(*slot))?;
    let (_, _, story_gzip) = sizes.first()?;
    let listed: Vec<String> = sizes
        .iter()
        .map(|(bin, raw, gzip)| format!("{bin}:{raw}:{gzip}"))
        .collect();
    let filled = format!(
        "<span data-wasm-size data-sizes=\"{}\"> (WebAssembly, {} compressed)</span>",
        listed.join(" "),
        kilobytes(*story_gzip)
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
    fn the_slot_gets_the_story_in_words_and_every_binary_for_the_loader() {
        let html = "<p>Loading the simulator<span data-wasm-size></span>…</p>";
        let sizes = [
            ("lockstep", 1_372_005, 416_212),
            ("lockstep-full", 1_800_000, 600_001),
        ];
        assert_eq!(
            with_sizes(html, &sizes).as_deref(),
            Some(
                "<p>Loading the simulator<span data-wasm-size \
                 data-sizes=\"lockstep:1372005:416212 lockstep-full:1800000:600001\"> \
                 (WebAssembly, 417&nbsp;KB compressed)</span>…</p>"
            )
        );
        let rewritten = "<span data-wasm-size=\"\"></span>";
        assert!(
            with_sizes(rewritten, &[("lockstep", 2, 1)])
                .is_some_and(|out| out.contains("(WebAssembly, 1&nbsp;KB"))
        );
    }

    #[test]
    fn a_page_without_the_slot_or_already_stamped_is_refused() {
        let sizes = [("lockstep", 2000, 1000)];
        assert_eq!(with_sizes("<p>Loading</p>", &sizes), None);
        let once = with_sizes("<span data-wasm-size></span>", &sizes).unwrap_or_default();
        assert_eq!(with_sizes(&once, &sizes), None);
        assert_eq!(with_sizes("<span data-wasm-size></span>", &[]), None);
    }

    #[test]
    fn kilobytes_round_up() {
        assert_eq!(kilobytes(0), "0&nbsp;KB");
        assert_eq!(kilobytes(1), "1&nbsp;KB");
        assert_eq!(kilobytes(417_000), "417&nbsp;KB");
        assert_eq!(kilobytes(417_001), "418&nbsp;KB");
    }
}
