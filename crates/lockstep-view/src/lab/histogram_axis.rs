//! Which of the first-violation histogram's labels show, so that none collide with another or
//! with a bar: each bucket's count sits above its bar and its end time below, outside the bars'
//! area. On a narrow chart (a phone) a bar is a few pixels wide, so only the time at every
//! quarter of the run ([`BucketLabel::tick`]) and the highest bar's count
//! ([`BucketLabel::peak`]) show; the others stay for screen readers and on a wide chart.
//!
//! Pure: which labels, not where; the app's CSS places them.

/// How many time labels a narrow chart shows (at the ends of its quarters).
pub const TICKS: usize = 4;

/// What one bucket's labels do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BucketLabel {
    /// Its end time shows at every width.
    pub tick: bool,
    /// Its count shows at every width: the first of the highest bars, when any run broke.
    pub peak: bool,
}

/// The labels of the buckets with these counts.
pub fn bucket_labels(counts: &[u64]) -> Vec<BucketLabel> {
    let every = (counts.len() / TICKS).max(1);
    let highest = counts.iter().copied().max().unwrap_or(0);
    let peak = counts.iter().position(|&n| n == highest && n > 0);
    (0..counts.len())
        .map(|i| BucketLabel {
            tick: (i + 1) % every == 0,
            peak: peak == Some(i),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twenty_buckets_show_the_quarters_and_the_first_highest_bar() {
        let mut counts = vec![1; 20];
        counts[6] = 9;
        counts[12] = 9;
        let labels = bucket_labels(&counts);
        let ticks: Vec<usize> = (0..20).filter(|&i| labels[i].tick).collect();
        assert_eq!(
            ticks,
            [4, 9, 14, 19],
            "45, 90, 135 and 180 s of a 180 s run"
        );
        let peaks: Vec<usize> = (0..20).filter(|&i| labels[i].peak).collect();
        assert_eq!(peaks, [6]);
    }

    #[test]
    fn no_run_broke_no_peak_and_few_buckets_all_ticks() {
        assert!(bucket_labels(&[0; 20]).iter().all(|l| !l.peak));
        assert!(bucket_labels(&[2, 1, 0]).iter().all(|l| l.tick));
        assert!(bucket_labels(&[]).is_empty());
    }
}
