//! Compression as a host would send a file: gzip at level 9 and brotli at quality 11. It gives
//! the size a file costs a reader (the size report of `dist`, the loading line), and the
//! precompressed copies `cargo xtask dist` writes beside the site's files (`FILE.gz`, `FILE.br`)
//! for a host to send as they are, as the static file server does ([`crate::static_files`]).
//! It writes only those copies: it never changes or removes a file it compresses.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use brotli::enc::BrotliEncoderParams;
use flate2::Compression;
use flate2::write::GzEncoder;

/// The extensions of the precompressed copies, `FILE.gz` and `FILE.br`, beside `FILE`.
pub(crate) const COPY_EXTENSIONS: [&str; 2] = ["gz", "br"];

/// The types worth precompressing: text and wasm. Images and fonts are compressed already.
const COMPRESSIBLE: [&str; 8] = ["html", "js", "wasm", "css", "json", "svg", "md", "txt"];

/// `bytes` gzipped at level 9 (what `gzip -9` makes, less the file name in its header).
pub(crate) fn gzipped(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes)?;
    encoder.finish()
}

/// Size of `bytes` gzipped at level 9.
pub(crate) fn gzip_len(bytes: &[u8]) -> io::Result<u64> {
    Ok(gzipped(bytes)?.len() as u64)
}

/// `bytes` in brotli at quality 11 with a 16 MiB window (what `brotli -q 11 -w 24` makes): the
/// smallest brotli that every browser decodes.
pub(crate) fn brotlied(bytes: &[u8]) -> io::Result<Vec<u8>> {
    let params = BrotliEncoderParams {
        quality: 11,
        lgwin: 24,
        size_hint: bytes.len(),
        ..BrotliEncoderParams::default()
    };
    let mut out = Vec::new();
    brotli::BrotliCompress(&mut &bytes[..], &mut out, &params)?;
    Ok(out)
}

/// Whether `file` is a precompressed copy (`*.gz`, `*.br`), which is never compressed again nor
/// counted as a file of the site.
pub(crate) fn is_copy(file: &Path) -> bool {
    extension(file).is_some_and(|e| COPY_EXTENSIONS.contains(&e.as_str()))
}

/// Whether `file` gets precompressed copies.
pub(crate) fn is_compressible(file: &Path) -> bool {
    extension(file).is_some_and(|e| COMPRESSIBLE.contains(&e.as_str()))
}

/// `file` with `.gz` or `.br` added to its name.
pub(crate) fn copy_path(file: &Path, extension: &str) -> PathBuf {
    let mut name = file.as_os_str().to_owned();
    name.push(".");
    name.push(extension);
    PathBuf::from(name)
}

/// Writes `gzip` and `brotli`, `file`'s bytes compressed, beside it as `FILE.gz` and `FILE.br`,
/// replacing any copies of an earlier build; nothing when `file` is not worth compressing.
pub(crate) fn write_copies(file: &Path, gzip: &[u8], brotli: &[u8]) -> io::Result<()> {
    if !is_compressible(file) {
        return Ok(());
    }
    fs::write(copy_path(file, "gz"), gzip)?;
    fs::write(copy_path(file, "br"), brotli)
}

fn extension(file: &Path) -> Option<String> {
    Some(file.extension()?.to_str()?.to_ascii_lowercase())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn brotli_shrinks_repetitive_input_and_decodes_back() -> io::Result<()> {
        let input = b"lockstep ".repeat(2_000);
        let compressed = brotlied(&input)?;
        assert!(compressed.len() < 100, "{}", compressed.len());
        let mut decoded = Vec::new();
        brotli::Decompressor::new(&compressed[..], 4096).read_to_end(&mut decoded)?;
        assert_eq!(decoded, input);
        Ok(())
    }

    #[test]
    fn only_text_and_wasm_get_copies_and_copies_are_not_compressed_again() {
        for name in [
            "index.html",
            "app_bg.wasm",
            "a/b.JSON",
            "style.css",
            "x.svg",
        ] {
            assert!(is_compressible(Path::new(name)), "{name}");
        }
        for name in ["logo.png", "font.woff2", "app.js.gz", "app.js.br", "README"] {
            assert!(!is_compressible(Path::new(name)), "{name}");
        }
        assert!(is_copy(Path::new("app.js.gz")) && is_copy(Path::new("a/app.js.br")));
        assert!(!is_copy(Path::new("app.js")));
        assert_eq!(
            copy_path(Path::new("a/app.js"), "br"),
            PathBuf::from("a/app.js.br")
        );
    }
}
