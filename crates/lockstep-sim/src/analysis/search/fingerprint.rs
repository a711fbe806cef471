//! A 64-bit FNV-1a hash fed as a `fmt::Write`, so a simulation's state can be hashed as it is
//! written, without building the text. Two different states collide with odds of about one in
//! 2^64 per pair, as with Stateright's own fingerprints; the search accepts that risk.

use std::fmt;

const OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const PRIME: u64 = 0x0100_0000_01b3;

pub struct Fnv64(u64);

impl Default for Fnv64 {
    fn default() -> Fnv64 {
        Fnv64(OFFSET)
    }
}

impl Fnv64 {
    pub fn add(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(PRIME);
        }
    }

    pub fn finish(&self) -> u64 {
        self.0
    }
}

impl fmt::Write for Fnv64 {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.add(text.as_bytes());
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_published_fnv_1a_values() {
        let mut empty = Fnv64::default();
        empty.add(b"");
        assert_eq!(empty.finish(), 0xcbf2_9ce4_8422_2325);
        let mut a = Fnv64::default();
        a.add(b"a");
        assert_eq!(a.finish(), 0xaf63_dc4c_8601_ec8c);
    }
}
