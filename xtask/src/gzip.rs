//! Gzip at level 9, as a host would send a file: the size a file costs a reader, for the size
//! report (`dist`) and the loading line, and the bytes themselves, for the static file server's
//! compressed answers ([`crate::static_files`]).

use std::io::{self, Write};

use flate2::Compression;
use flate2::write::GzEncoder;

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
