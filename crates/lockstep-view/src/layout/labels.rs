//! Places text labels so that none overlaps another label or anything marked as off limits.
//!
//! Each label asks for a list of candidate boxes, best first; [`place`] takes the labels in the
//! order given and gives each the first candidate that is free, or none (the label is then shown
//! only on hover and focus). Labels are drawn in a monospace font at a fixed size whose advance
//! the drawing enforces (SVG `textLength`), so a box's width is exact: [`text_width`].
//!
//! Greedy and local: boxes are kept in columns of [`COLUMN`] px, so a check looks only at what
//! is near, and the cost grows with the number of labels, not with its square. Pure geometry:
//! knows nothing of what a label says or stands for.

pub use super::plane::Rect;

/// How far each character of a label advances, in px (10-px monospace type).
pub const CHAR_WIDTH: f64 = 6.0;
/// How tall a label's box is, in px.
pub const LABEL_HEIGHT: f64 = 12.0;
/// Room left and right of the text inside its box, in px.
const PADDING: f64 = 2.0;
/// Width of the columns boxes are filed in.
const COLUMN: f64 = 64.0;

/// The width of a label's box holding `text`: its characters at [`CHAR_WIDTH`], plus padding.
pub fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH + 2.0 * PADDING
}

/// A label's box with its text at `x`, `y` (the box's top-left corner).
pub fn label_box(text: &str, x: f64, y: f64) -> Rect {
    Rect {
        x,
        y,
        width: text_width(text),
        height: LABEL_HEIGHT,
    }
}

/// Where the text of a label in `bounds` starts: after the box's left padding.
pub fn text_x(bounds: &Rect) -> f64 {
    bounds.x + PADDING
}

/// Where its baseline is: 10-px type centred in the box.
pub fn text_baseline(bounds: &Rect) -> f64 {
    bounds.y + LABEL_HEIGHT - 3.0
}

/// One label's possible boxes, best first, each with the index of the text it would show there
/// in `texts` (a short form may fit where the long one does not).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Request {
    pub texts: Vec<String>,
    pub candidates: Vec<(usize, Rect)>,
}

/// The chosen box of one label.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub text: String,
    pub bounds: Rect,
}

/// Boxes filed by column, so that a query looks only at those near it.
struct Grid {
    origin: f64,
    columns: Vec<Vec<Rect>>,
}

impl Grid {
    fn new(area: &Rect) -> Grid {
        let count = (area.width / COLUMN).ceil().max(1.0) as usize + 1;
        Grid {
            origin: area.x,
            columns: vec![Vec::new(); count],
        }
    }

    fn span(&self, rect: &Rect) -> std::ops::RangeInclusive<usize> {
        let last = self.columns.len() - 1;
        let column = |x: f64| (((x - self.origin) / COLUMN).floor().max(0.0) as usize).min(last);
        column(rect.x)..=column(rect.right())
    }

    fn insert(&mut self, rect: Rect) {
        for column in self.span(&rect) {
            self.columns[column].push(rect);
        }
    }

    fn is_free(&self, rect: &Rect) -> bool {
        self.span(rect)
            .all(|column| self.columns[column].iter().all(|r| !r.intersects(rect)))
    }
}

/// Gives each request, in order, its first candidate that lies inside `area` and overlaps
/// neither an obstacle nor a label placed before it; `None` where no candidate is free.
pub fn place(area: Rect, obstacles: &[Rect], requests: &[Request]) -> Vec<Option<Placement>> {
    let mut grid = Grid::new(&area);
    for obstacle in obstacles.iter().filter(|o| o.intersects(&area)) {
        grid.insert(*obstacle);
    }
    requests
        .iter()
        .map(|request| {
            let (text, bounds) = request
                .candidates
                .iter()
                .find(|(_, bounds)| bounds.inside(&area) && grid.is_free(bounds))?;
            grid.insert(*bounds);
            Some(Placement {
                text: request.texts.get(*text).cloned().unwrap_or_default(),
                bounds: *bounds,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rect(x: f64, y: f64, width: f64, height: f64) -> Rect {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    #[test]
    fn a_label_takes_its_first_free_candidate_and_blocks_the_next_one() {
        let area = rect(0.0, 0.0, 400.0, 100.0);
        let first = label_box("token 34", 10.0, 10.0);
        let below = label_box("token 34", 10.0, 30.0);
        let token = |candidates| Request {
            texts: vec!["token 34".into(), "34".into()],
            candidates,
        };
        let requests = vec![
            token(vec![(0, first)]),
            token(vec![(0, first), (0, below)]),
            token(vec![(1, label_box("34", 12.0, 12.0))]),
        ];
        let placed = place(area, &[], &requests);
        assert_eq!(placed[0].as_ref().map(|p| p.bounds), Some(first));
        assert_eq!(placed[1].as_ref().map(|p| p.bounds), Some(below));
        assert_eq!(placed[2], None, "no free candidate: hover only");
    }

    #[test]
    fn obstacles_and_the_edges_are_off_limits() {
        let area = rect(0.0, 0.0, 100.0, 40.0);
        let hatch = rect(0.0, 0.0, 50.0, 40.0);
        let requests = vec![Request {
            texts: vec![
                "on the hatching".into(),
                "past the edge".into(),
                "clear".into(),
            ],
            candidates: vec![
                (0, label_box("ab", 10.0, 10.0)),
                (1, label_box("abcdefghij", 60.0, 10.0)),
                (2, label_box("ab", 60.0, 10.0)),
            ],
        }];
        let placed = place(area, &[hatch], &requests);
        assert_eq!(placed[0].as_ref().map(|p| p.text.as_str()), Some("clear"));
    }

    #[test]
    fn a_box_wider_than_a_column_is_found_from_every_column_it_spans() {
        let area = rect(0.0, 0.0, 1000.0, 40.0);
        let wide = rect(10.0, 0.0, 500.0, 12.0);
        let requests = vec![Request {
            texts: vec!["x".into()],
            candidates: vec![(0, label_box("x", 300.0, 2.0))],
        }];
        assert_eq!(place(area, &[wide], &requests), vec![None]);
    }
}
