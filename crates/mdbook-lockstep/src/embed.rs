//! A checked block written as the host script's markup: a `div[data-lockstep]` with one
//! `data-` attribute per option, and the author's own scenario, if any, inside it as
//! `<script type="application/json">`. The host script (`assets/embed.js`, beside the app) turns
//! the div into a self-sizing iframe; the page loads it once, from a URL relative to the page.
//!
//! Everything here is text: this module neither checks blocks nor knows about mdBook.

use crate::block::{Block, Subject};
use crate::option::OptionName;
use lockstep_view::link::embed::{Parameter, host_script_address};

/// The markup for one block, as a Markdown HTML block (blank lines around it).
pub fn markup(block: &Block) -> String {
    let scenario = match &block.subject {
        Subject::BuiltIn { id, .. } => id.as_str(),
        Subject::Inline { .. } | Subject::Lesson | Subject::Real => "",
    };
    let mut html = format!(
        "\n<div class=\"lockstep-embed\" data-lockstep=\"{}\"",
        escape(scenario)
    );
    // `file` is read here, at build time, and embedded as inline JSON: not an attribute.
    for setting in block.settings.iter().filter(|s| s.name != OptionName::File) {
        html.push_str(&format!(
            " data-{}=\"{}\"",
            setting.name,
            escape(&setting.value)
        ));
    }
    html.push('>');
    if let Subject::Inline { json, .. } = &block.subject {
        html.push_str("<script type=\"application/json\">\n");
        html.push_str(&script_text(json));
        html.push_str("\n</script>");
    }
    html.push_str("</div>\n\n");
    html
}

/// The address the host script will write for this block's embed, for a built-in scenario's
/// (`lockstep_view::link::embed::host_script_address`): the build renders a document for each
/// (`cargo xtask dist`, through the book's `embeds-list`). `None` for the author's own scenario,
/// a lesson or a recorded run, which have none.
pub fn document_address(block: &Block) -> Option<String> {
    let Subject::BuiltIn { id, .. } = &block.subject else {
        return None;
    };
    let given: Vec<(Parameter, &str)> = block
        .settings
        .iter()
        .filter_map(|setting| match setting.name {
            OptionName::Embed(parameter) => Some((parameter, setting.value.as_str())),
            OptionName::Title | OptionName::Height | OptionName::File => None,
        })
        .collect();
    Some(host_script_address(id, &given))
}

/// The tag that loads the host script, once per page, before the page's first embed.
/// `url` is the script's URL as the page at `depth` folders below the book's root must write it.
pub fn host_script(url: &str) -> String {
    format!("\n<script src=\"{}\" defer></script>\n", escape(url))
}

/// The host script's URL from a page `depth` folders below the book's root, given its URL from
/// the root (`../embed.js`): a relative URL gains one `../` per folder; an absolute one (a
/// scheme, or a leading `/`) is kept as it is.
pub fn relative_to_page(url: &str, depth: usize) -> String {
    let absolute = url.starts_with('/') || url.contains("://");
    if absolute {
        url.to_string()
    } else {
        format!("{}{url}", "../".repeat(depth))
    }
}

/// The scenario's JSON as the text of a `<script>` element inside a Markdown HTML block: blank
/// lines dropped (one would end the HTML block; JSON never needs one) and `</` written `<\/`
/// (which would close the element; JSON reads `\/` as `/`, and `</` can only be in a string).
fn script_text(json: &str) -> String {
    json.lines()
        .filter(|line| !line.trim().is_empty())
        .collect::<Vec<_>>()
        .join("\n")
        .replace("</", "<\\/")
}

/// Text for an attribute value in double quotes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use lockstep_sim::Scenario;

    fn block(body: &str) -> Block {
        let lines: Vec<(usize, String)> = body
            .lines()
            .enumerate()
            .map(|(i, text)| (i + 2, text.to_string()))
            .collect();
        Block::read(1, &lines, &|path| match path {
            "mine.json" => Ok("{\"format\": 1}".to_string()),
            _ => Err(format!("cannot read {path}")),
        })
        .expect("valid")
    }

    #[test]
    fn a_built_in_scenario_with_options() {
        assert_eq!(
            markup(&block(
                "s2-gc-pause-fenced\nat = 12\ncaption = Tokens \"33\" & <34>"
            )),
            "\n<div class=\"lockstep-embed\" data-lockstep=\"s2-gc-pause-fenced\" data-at=\"12\" \
             data-caption=\"Tokens &quot;33&quot; &amp; &lt;34&gt;\"></div>\n\n"
        );
    }

    #[test]
    fn a_file_is_embedded_inline_and_not_named() {
        assert_eq!(
            markup(&block("file = mine.json\nat = 2")),
            "\n<div class=\"lockstep-embed\" data-lockstep=\"\" data-at=\"2\"><script \
             type=\"application/json\">\n{\"format\": 1}\n</script></div>\n\n"
        );
    }

    #[test]
    fn a_recorded_run_names_no_scenario() {
        assert_eq!(
            markup(&block("real = s10-redlock-clock-jump.redlock")),
            "\n<div class=\"lockstep-embed\" data-lockstep=\"\" \
             data-real=\"s10-redlock-clock-jump.redlock\"></div>\n\n"
        );
    }

    #[test]
    fn a_lesson_names_no_scenario() {
        assert_eq!(
            markup(&block("learn = fencing-tokens\nstep = 2")),
            "\n<div class=\"lockstep-embed\" data-lockstep=\"\" data-learn=\"fencing-tokens\" \
             data-step=\"2\"></div>\n\n"
        );
    }

    #[test]
    fn inline_json_keeps_its_meaning_and_cannot_close_the_element() {
        let json = lockstep_sim::scenario::catalogue::DEFAULT_JSON
            .replacen("\"summary\": \"", "\"summary\": \"</script> <b>", 1)
            .replace(",\n", ",\n   \n");
        let html = markup(&block(&format!("controls = full\n{json}")));
        let text = html
            .split_once("<script type=\"application/json\">\n")
            .and_then(|(_, rest)| rest.split_once("\n</script></div>"))
            .map(|(text, _)| text)
            .expect("a script element");
        assert!(!text.contains("</"), "{text}");
        assert!(
            !html.trim().contains("\n\n"),
            "a blank line ends the HTML block"
        );
        let original = Scenario::parse(&json).expect("the original parses");
        assert_eq!(Scenario::parse(text), Ok(original));
    }

    #[test]
    fn the_host_script_url_climbs_to_the_root() {
        assert_eq!(relative_to_page("../embed.js", 0), "../embed.js");
        assert_eq!(relative_to_page("../embed.js", 2), "../../../embed.js");
        assert_eq!(
            relative_to_page("/lockstep/embed.js", 2),
            "/lockstep/embed.js"
        );
        assert_eq!(
            relative_to_page("https://example.org/embed.js", 1),
            "https://example.org/embed.js"
        );
        assert_eq!(
            host_script("../embed.js"),
            "\n<script src=\"../embed.js\" defer></script>\n"
        );
    }
}
