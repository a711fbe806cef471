//! Where a term's definition opens: under the term (or over it, low in the window, where the
//! transport bar sits), as wide as fits, and always inside the window — a phone's 320 px too.

/// The window's edge a popover keeps clear of, in px.
const MARGIN: f64 = 8.0;
/// The popover's width where the window allows it, in px.
const WIDTH: f64 = 288.0;
/// The gap between the term and its popover, in px.
const GAP: f64 = 4.0;

/// Where a popover goes, in the window's px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placement {
    pub left: f64,
    pub width: f64,
    pub vertical: Vertical,
}

/// Above or below the term.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Vertical {
    /// Its top edge this far from the window's top.
    Below(f64),
    /// Its bottom edge this far from the window's bottom.
    Above(f64),
}

/// A term's box in the window's px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TermBox {
    pub left: f64,
    pub top: f64,
    pub bottom: f64,
}

/// The popover for a term at `term` in a window `width` × `height`.
pub fn place(term: TermBox, width: f64, height: f64) -> Placement {
    let popover = WIDTH.min(width - 2.0 * MARGIN).max(0.0);
    let left = term.left.min(width - MARGIN - popover).max(MARGIN);
    // Low in the window the popover opens upwards, clear of the transport bar.
    let vertical = if term.bottom > height * 0.55 {
        Vertical::Above(height - term.top + GAP)
    } else {
        Vertical::Below(term.bottom + GAP)
    };
    Placement {
        left,
        width: popover,
        vertical,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn term(left: f64, top: f64) -> TermBox {
        TermBox {
            left,
            top,
            bottom: top + 16.0,
        }
    }

    #[test]
    fn a_popover_stays_inside_the_window_at_every_width() {
        for width in [320.0, 375.0, 640.0, 1280.0] {
            for left in [0.0, 100.0, width / 2.0, width - 20.0] {
                let p = place(term(left, 100.0), width, 700.0);
                assert!(p.left >= MARGIN, "{width}/{left}: {p:?}");
                assert!(
                    p.left + p.width <= width - MARGIN + 1e-9,
                    "{width}/{left}: {p:?}"
                );
                assert!(p.width > 0.0);
            }
        }
    }

    #[test]
    fn it_opens_under_a_high_term_and_over_a_low_one() {
        assert_eq!(
            place(term(10.0, 100.0), 1280.0, 800.0).vertical,
            Vertical::Below(120.0)
        );
        assert_eq!(
            place(term(10.0, 600.0), 1280.0, 800.0).vertical,
            Vertical::Above(204.0)
        );
    }

    #[test]
    fn it_starts_at_its_term_where_there_is_room() {
        assert_eq!(place(term(200.0, 100.0), 1280.0, 800.0).left, 200.0);
    }
}
