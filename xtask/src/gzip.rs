//! How many bytes a file costs a reader: its size gzipped as a host would send it. Shared by the
//! size report (`dist`) and the loading line.

use std::io::{self, Write};

use flate2::Compression;
use flate2::write::GzEncoder;

/// Size of `bytes` gzipped at level 9 (what `gzip -9` makes, less the file name in its header).
pub(crate) fn gzip_len(bytes: &[u8]) -> io::Result<u64> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::best());
    encoder.write_all(bytes)?;
    Ok(encoder.finish()?.len() as u64)
}
