//! Points and rectangles in px: the one `Rect` of the drawing code, a timeline label's box and a
//! node's box on the stage alike, and the arithmetic both need. Pure geometry: it knows nothing
//! of what a box stands for.

/// A rectangle in px: `x`, `y` its top-left corner. A label's box on the timeline, and a node's
/// box on the stage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn right(&self) -> f64 {
        self.x + self.width
    }

    pub fn bottom(&self) -> f64 {
        self.y + self.height
    }

    /// Whether the two share any area (touching edges do not count).
    pub fn intersects(&self, other: &Rect) -> bool {
        self.x < other.right()
            && other.x < self.right()
            && self.y < other.bottom()
            && other.y < self.bottom()
    }

    pub fn inside(&self, outer: &Rect) -> bool {
        self.x >= outer.x
            && self.y >= outer.y
            && self.right() <= outer.right()
            && self.bottom() <= outer.bottom()
    }
}

/// A point in px.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub(crate) fn towards(self, to: Point, fraction: f64) -> Point {
        Point {
            x: self.x + (to.x - self.x) * fraction,
            y: self.y + (to.y - self.y) * fraction,
        }
    }
}

/// What a node's box on the stage needs besides.
impl Rect {
    pub(crate) fn centred(centre: Point, width: f64, height: f64) -> Rect {
        Rect {
            x: centre.x - width / 2.0,
            y: centre.y - height / 2.0,
            width,
            height,
        }
    }

    pub fn centre(&self) -> Point {
        Point {
            x: self.x + self.width / 2.0,
            y: self.y + self.height / 2.0,
        }
    }

    /// Whether the two boxes come closer than `gap` to each other.
    pub fn crowds(&self, other: &Rect, gap: f64) -> bool {
        self.x < other.right() + gap
            && other.x < self.right() + gap
            && self.y < other.bottom() + gap
            && other.y < self.bottom() + gap
    }

    /// Whether `point` lies inside the box or within `tolerance` of it.
    pub fn holds(&self, point: Point, tolerance: f64) -> bool {
        point.x >= self.x - tolerance
            && point.x <= self.right() + tolerance
            && point.y >= self.y - tolerance
            && point.y <= self.bottom() + tolerance
    }

    /// Whether `point` lies on the box's outline, within `tolerance`.
    pub fn rims(&self, point: Point, tolerance: f64) -> bool {
        let inner = Rect {
            x: self.x + tolerance,
            y: self.y + tolerance,
            width: self.width - 2.0 * tolerance,
            height: self.height - 2.0 * tolerance,
        };
        self.holds(point, tolerance) && !inner.holds(point, 0.0)
    }

    /// Where a line from the box's centre towards `to` (shifted sideways by `shift`) leaves it.
    pub(crate) fn exit(&self, direction: Point, shift: Point) -> Point {
        let centre = self.centre();
        let from = Point {
            x: centre.x + shift.x,
            y: centre.y + shift.y,
        };
        // The smallest step along `direction` that reaches a side.
        let along = |d: f64, low: f64, high: f64, at: f64| {
            if d > 0.0 {
                (high - at) / d
            } else if d < 0.0 {
                (low - at) / d
            } else {
                f64::INFINITY
            }
        };
        let t = along(direction.x, self.x, self.right(), from.x).min(along(
            direction.y,
            self.y,
            self.bottom(),
            from.y,
        ));
        let t = if t.is_finite() { t.max(0.0) } else { 0.0 };
        Point {
            x: from.x + direction.x * t,
            y: from.y + direction.y * t,
        }
    }
}
