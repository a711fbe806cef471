//! The host script (`assets/embed.js`) told which embeds have a document of their own: the
//! build writes the documents' paths into its `RENDERED` list, and the script points a frame at
//! one whenever the element it mounts asks for exactly that embed (`lockstep_view::link::path::
//! embed_document`). Text in, text out; it renders nothing.

use std::path::Path;

/// The line in `embed.js` that the build fills: the list of documents' paths.
pub const MARKER: &str = "var RENDERED = [];";

/// `script` with `paths` in its [`MARKER`] line; `None` when the script has no such line (one
/// already filled, or another script).
pub fn with_documents(script: &str, paths: &[&str]) -> Option<String> {
    if script.matches(MARKER).count() != 1 {
        return None;
    }
    let list = serde_json::to_string(paths).ok()?;
    Some(script.replacen(MARKER, &format!("var RENDERED = {list};"), 1))
}

/// Fills the host script at `file` with `paths`, or says why it cannot.
pub fn point_at(file: &Path, paths: &[&str]) -> Result<(), String> {
    let script = std::fs::read_to_string(file)
        .map_err(|e| format!("reading the host script {}: {e}", file.display()))?;
    let filled = with_documents(&script, paths).ok_or_else(|| {
        format!(
            "the host script {} has no empty `{MARKER}` line (filled already? rebuild with \
             `cargo xtask dist`)",
            file.display()
        )
    })?;
    std::fs::write(file, filled).map_err(|e| format!("writing {}: {e}", file.display()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_view::link::embed::HOST_SCRIPT_ORDER;

    const SCRIPT: &str = include_str!("../../assets/embed.js");

    #[test]
    fn the_shipped_script_has_one_line_to_fill_and_is_filled_once() {
        let filled = with_documents(SCRIPT, &["embed/s1-gc-pause-unfenced/", "embed/s2/at=3/"])
            .expect("the marker");
        assert!(
            filled.contains(r#"var RENDERED = ["embed/s1-gc-pause-unfenced/","embed/s2/at=3/"];"#)
        );
        assert_eq!(with_documents(&filled, &[]), None);
    }

    /// The build finds a document by the address the script writes: both must write an
    /// element's parameters in the same order.
    #[test]
    fn the_script_writes_parameters_in_the_order_the_build_does() {
        let start = SCRIPT.find("var PARAMETERS = [").expect("the list");
        let list = &SCRIPT[start..start + SCRIPT[start..].find("];").expect("its end")];
        let names: Vec<&str> = list.split('\'').skip(1).step_by(2).collect();
        let expected: Vec<&str> = HOST_SCRIPT_ORDER.iter().map(|p| p.name()).collect();
        assert_eq!(names, expected);
    }
}
