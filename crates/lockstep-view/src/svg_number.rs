//! Numbers written into SVG attributes: to a tenth of a pixel, which no one can see, rather than
//! the seventeen digits a float prints. A Step writes hundreds of them and a scrub thousands, so
//! this goes through integer formatting: printing a float in wasm costs several times as much.
//! Pure; it knows nothing of the page.

use std::fmt::Write;

/// `value` rounded to a tenth, as the shortest decimal text ("12", "12.5", "-0.5").
pub fn px(value: f64) -> String {
    // Coordinates are within a few million pixels; `as` saturates anything beyond, and NaN
    // becomes 0, both still valid attribute values.
    let tenths = (value * 10.0).round() as i64;
    let whole = tenths / 10;
    let tenth = (tenths % 10).unsigned_abs();
    let mut text = String::with_capacity(8);
    if tenths < 0 && whole == 0 {
        text.push('-');
    }
    let _ = write!(text, "{whole}");
    if tenth != 0 {
        let _ = write!(text, ".{tenth}");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::px;

    /// What the two components wrote before: the float rounded to a tenth, printed.
    fn by_float(value: f64) -> f64 {
        ((value * 10.0).round() / 10.0).to_string().parse().unwrap()
    }

    #[test]
    fn writes_the_same_number_as_rounding_the_float() {
        let mut value = -2_000.0;
        while value < 2_000.0 {
            let text = px(value);
            assert_eq!(
                text.parse::<f64>().unwrap(),
                by_float(value),
                "{value} gave {text}"
            );
            assert!(
                text.split_once('.')
                    .is_none_or(|(_, tenth)| tenth.len() == 1),
                "{value} gave {text}"
            );
            value += 0.037;
        }
    }

    #[test]
    fn writes_the_shortest_text() {
        assert_eq!(px(0.0), "0");
        assert_eq!(px(12.0), "12");
        assert_eq!(px(12.04), "12");
        assert_eq!(px(12.06), "12.1");
        assert_eq!(px(-0.5), "-0.5");
        assert_eq!(px(-0.04), "0");
        assert_eq!(px(-12.25), "-12.3");
        assert_eq!(px(799.95), "800");
    }
}
