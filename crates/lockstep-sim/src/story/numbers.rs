//! Numbers as Lockstep writes them for people: the verdict line, the page, the CLI. Formatting
//! only.

/// 1210 → "1,210".
pub fn thousands(value: u64) -> String {
    let digits = value.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::thousands;

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_210), "1,210");
        assert_eq!(thousands(180_000), "180,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
