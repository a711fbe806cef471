//! Finding the ```` ```lockstep ```` blocks in a chapter's Markdown: fenced code blocks (of
//! backticks or tildes, indented by at most three spaces) whose info string's first word is
//! `lockstep`. It knows CommonMark's fences and nothing else of Markdown: a block nested in
//! another fence (an example in the author's guide, fenced with four backticks) is text of that
//! fence, not a block; a block inside a list item or a quote is not found.
//!
//! This module only finds blocks; what a block means is `block.rs`'s business.

use std::ops::Range;

/// One ```` ```lockstep ```` block of a chapter.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fence {
    /// Where the block is in the chapter, from its opening fence to the end of its closing one
    /// (or of the chapter, when it is never closed), in bytes.
    pub span: Range<usize>,
    /// The opening fence's line, 1-based.
    pub line: usize,
    /// The lines between the fences, each with its 1-based line number in the chapter.
    pub body: Vec<(usize, String)>,
}

/// An opening fence: its character, its length and its indentation.
struct Opening {
    marker: char,
    length: usize,
    indent: usize,
}

/// Every ```` ```lockstep ```` block of `markdown`, in order.
pub fn lockstep_blocks(markdown: &str) -> Vec<Fence> {
    let mut blocks = Vec::new();
    // The fence we are inside, with the block being collected when it is a lockstep one.
    let mut open: Option<(Opening, Option<Fence>)> = None;
    let mut offset = 0;
    for (index, raw) in markdown.split_inclusive('\n').enumerate() {
        let line_number = index + 1;
        let line = raw.trim_end_matches(['\n', '\r']);
        let end = offset + raw.len();
        match open.take() {
            None => {
                if let Some((opening, info)) = opening(line) {
                    let block =
                        (info.split_whitespace().next() == Some("lockstep")).then(|| Fence {
                            span: offset..end,
                            line: line_number,
                            body: Vec::new(),
                        });
                    open = Some((opening, block));
                }
            }
            Some((opening, mut block)) => {
                if closes(line, &opening) {
                    if let Some(mut block) = block {
                        block.span.end = end;
                        blocks.push(block);
                    }
                } else {
                    if let Some(block) = block.as_mut() {
                        block
                            .body
                            .push((line_number, strip_indent(line, opening.indent)));
                        block.span.end = end;
                    }
                    open = Some((opening, block));
                }
            }
        }
        offset = end;
    }
    // A fence left open runs to the end of the chapter (CommonMark says so).
    if let Some((_, Some(block))) = open {
        blocks.push(block);
    }
    blocks
}

/// The line's opening fence and info string, if it opens one.
fn opening(line: &str) -> Option<(Opening, &str)> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return None;
    }
    let rest = &line[indent..];
    let marker = rest.chars().next().filter(|c| *c == '`' || *c == '~')?;
    let length = rest.len() - rest.trim_start_matches(marker).len();
    if length < 3 {
        return None;
    }
    let info = rest[length..].trim();
    // A backtick fence's info string may not hold a backtick (it would be inline code).
    if marker == '`' && info.contains('`') {
        return None;
    }
    Some((
        Opening {
            marker,
            length,
            indent,
        },
        info,
    ))
}

/// Whether `line` closes the fence `opening` opened: the same character, at least as many,
/// indented by at most three spaces, nothing after but spaces.
fn closes(line: &str, opening: &Opening) -> bool {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 {
        return false;
    }
    let rest = line[indent..].trim_end();
    let length = rest.len() - rest.trim_start_matches(opening.marker).len();
    length >= opening.length && length == rest.len()
}

/// The line without up to `indent` leading spaces (an indented fence's content is shifted
/// left by the fence's own indentation).
fn strip_indent(line: &str, indent: usize) -> String {
    let spaces = line.len() - line.trim_start_matches(' ').len();
    line[spaces.min(indent)..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bodies(markdown: &str) -> Vec<(usize, Vec<(usize, String)>)> {
        lockstep_blocks(markdown)
            .into_iter()
            .map(|fence| (fence.line, fence.body))
            .collect()
    }

    fn line(number: usize, text: &str) -> (usize, String) {
        (number, text.to_string())
    }

    #[test]
    fn finds_a_block_with_its_lines_and_span() {
        let markdown = "# Title\n\n```lockstep\ns2-gc-pause-fenced\nat = 12\n```\nafter\n";
        let blocks = lockstep_blocks(markdown);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].line, 3);
        assert_eq!(
            blocks[0].body,
            [line(4, "s2-gc-pause-fenced"), line(5, "at = 12")]
        );
        assert_eq!(
            &markdown[blocks[0].span.clone()],
            "```lockstep\ns2-gc-pause-fenced\nat = 12\n```\n"
        );
    }

    #[test]
    fn other_languages_and_inline_code_are_not_blocks() {
        assert!(bodies("```rust\nlet x = 1;\n```\n`lockstep` here\n").is_empty());
        assert!(bodies("```lockstepper\nx\n```\n").is_empty());
    }

    #[test]
    fn a_block_inside_a_longer_fence_is_an_example_not_a_block() {
        let markdown = "````markdown\n```lockstep\ns1\n```\n````\n~~~lockstep\ns3\n~~~\n";
        assert_eq!(bodies(markdown), [(6, vec![line(7, "s3")])]);
    }

    #[test]
    fn the_closing_fence_must_be_as_long_and_bare() {
        let markdown = "````lockstep\na\n```\n```` x\nb\n````\n";
        assert_eq!(
            bodies(markdown),
            [(
                1,
                vec![
                    line(2, "a"),
                    line(3, "```"),
                    line(4, "```` x"),
                    line(5, "b")
                ]
            )]
        );
    }

    #[test]
    fn tildes_info_words_and_indentation() {
        let markdown = "  ~~~ lockstep extra\n    s2\n  ~~~\n    ```lockstep\n    s1\n    ```\n";
        // The second fence is indented four spaces: an indented code block, not a fence.
        assert_eq!(bodies(markdown), [(1, vec![line(2, "  s2")])]);
    }

    #[test]
    fn an_unclosed_block_runs_to_the_end() {
        let markdown = "text\n```lockstep\ns2\r\n";
        let blocks = lockstep_blocks(markdown);
        assert_eq!(blocks.len(), 1);
        assert_eq!(blocks[0].body, [line(3, "s2")]);
        assert_eq!(blocks[0].span, 5..markdown.len());
    }
}
