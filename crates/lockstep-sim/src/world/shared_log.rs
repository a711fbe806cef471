//! `SharedLog`: a record that only grows (every message sent, every timer set), stored in
//! fixed-size chunks that copies of a simulation share.
//!
//! Copying a `Sim` — a step of the app on a copy, a snapshot kept every few thousand events —
//! then copies a list of chunk pointers, not the run's whole history: a chunk is copied only when
//! a copy changes an entry in it (a message arriving, a timer cancelled), and only that chunk.
//! Entries are addressed by index, as with a `Vec`. This module knows nothing of what it stores.

use std::ops::Index;
// `Arc`, not `Rc`: a copy of a simulation may cross threads (the model checker in
// `lockstep-stateright` explores on worker threads); without threads, as in wasm, it costs the same.
use std::sync::Arc;

/// Entries per chunk: small enough that copying one on a write costs little, large enough that
/// the list of chunks stays short (a 250,000-input run has a few thousand).
const CHUNK: usize = 256;

#[derive(Debug)]
pub struct SharedLog<T> {
    chunks: Vec<Arc<Vec<T>>>,
    len: usize,
}

impl<T> Default for SharedLog<T> {
    fn default() -> Self {
        SharedLog {
            chunks: Vec::new(),
            len: 0,
        }
    }
}

impl<T> Clone for SharedLog<T> {
    /// Shares every chunk: O(number of chunks).
    fn clone(&self) -> Self {
        SharedLog {
            chunks: self.chunks.clone(),
            len: self.len,
        }
    }
}

impl<T: Clone> SharedLog<T> {
    pub fn new() -> Self {
        SharedLog::default()
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn push(&mut self, entry: T) {
        match self.chunks.last_mut() {
            Some(last) if last.len() < CHUNK => Arc::make_mut(last).push(entry),
            _ => {
                let mut chunk = Vec::with_capacity(CHUNK);
                chunk.push(entry);
                self.chunks.push(Arc::new(chunk));
            }
        }
        self.len += 1;
    }

    pub fn get(&self, index: usize) -> Option<&T> {
        self.chunks.get(index / CHUNK)?.get(index % CHUNK)
    }

    /// The entry at `index`, to change: its chunk is copied first if another copy shares it.
    pub fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        let chunk = self.chunks.get_mut(index / CHUNK)?;
        if index % CHUNK >= chunk.len() {
            return None;
        }
        Arc::make_mut(chunk).get_mut(index % CHUNK)
    }

    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &T> + '_ {
        self.chunks.iter().flat_map(|chunk| chunk.iter())
    }

    /// The entries from `start` on.
    pub fn iter_from(&self, start: usize) -> impl Iterator<Item = &T> + '_ {
        let first = (start / CHUNK).min(self.chunks.len());
        self.chunks[first..]
            .iter()
            .flat_map(|chunk| chunk.iter())
            .skip(start.saturating_sub(first * CHUNK))
    }
}

impl<T: Clone> Index<usize> for SharedLog<T> {
    type Output = T;

    fn index(&self, index: usize) -> &T {
        match self.get(index) {
            Some(entry) => entry,
            None => panic!("index {index} out of a log of {}", self.len),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_of(n: usize) -> SharedLog<usize> {
        let mut log = SharedLog::new();
        for i in 0..n {
            log.push(i);
        }
        log
    }

    #[test]
    fn reads_back_what_was_pushed_across_chunks() {
        let log = log_of(3 * CHUNK + 5);
        assert_eq!(log.len(), 3 * CHUNK + 5);
        assert!(log.iter().copied().eq(0..3 * CHUNK + 5));
        assert_eq!(log.get(CHUNK), Some(&CHUNK));
        assert_eq!(log.get(3 * CHUNK + 5), None);
        assert_eq!(log[2 * CHUNK + 1], 2 * CHUNK + 1);
        for start in [
            0,
            1,
            CHUNK - 1,
            CHUNK,
            CHUNK + 1,
            3 * CHUNK + 4,
            3 * CHUNK + 5,
            10_000,
        ] {
            assert!(
                log.iter_from(start)
                    .copied()
                    .eq(start.min(log.len())..log.len()),
                "from {start}"
            );
        }
    }

    #[test]
    fn a_copy_changes_apart_from_the_original() {
        let mut original = log_of(2 * CHUNK + 3);
        let mut copy = original.clone();
        *copy.get_mut(5).unwrap() = 1_000;
        copy.push(7);
        *original.get_mut(2 * CHUNK + 1).unwrap() = 2_000;
        assert_eq!(original[5], 5);
        assert_eq!(copy[5], 1_000);
        assert_eq!(original.len(), 2 * CHUNK + 3);
        assert_eq!(copy.len(), 2 * CHUNK + 4);
        assert_eq!(copy[2 * CHUNK + 1], 2 * CHUNK + 1);
        assert_eq!(original[2 * CHUNK + 1], 2_000);
        assert_eq!(copy.get_mut(2 * CHUNK + 4), None);
    }

    #[test]
    fn a_copy_shares_the_chunks_it_did_not_change() {
        let original = log_of(4 * CHUNK);
        let mut copy = original.clone();
        *copy.get_mut(CHUNK).unwrap() = 0;
        let shared = (0..4)
            .filter(|&c| Arc::ptr_eq(&original.chunks[c], &copy.chunks[c]))
            .count();
        assert_eq!(shared, 3, "only the changed chunk was copied");
    }
}
