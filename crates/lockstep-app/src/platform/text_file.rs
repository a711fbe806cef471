//! Reading a file the user chose as text: as bytes first, so that a file that is not UTF-8 is
//! said with where its first stray byte is (`strict_json::text`) rather than quietly patched by
//! the browser's decoder.

use gloo_file::callbacks::FileReader;
use lockstep_sim::scenario::strict_json;

/// Starts reading `file`; `done` gets its text, or why it cannot be read. The read lasts as long
/// as the returned reader is kept: dropping it cancels the read.
pub fn read(
    file: web_sys::File,
    done: impl FnOnce(Result<String, String>) + 'static,
) -> FileReader {
    gloo_file::callbacks::read_as_bytes(&gloo_file::File::from(file), move |bytes| {
        done(bytes.map_err(|e| e.to_string()).and_then(|bytes| {
            strict_json::text(&bytes)
                .map(str::to_owned)
                .map_err(|e| e.to_string())
        }));
    })
}
