//! Downsampling into buckets: min and max of each value per bucket, counts per bucket.
//! Memory is fixed by the number of buckets, whatever the number of calls.

use breaker::Observation;

use crate::output::Series;

/// Values sampled per observation (min and max kept for each).
const VALUES: usize = 7;
/// Counts kept per bucket.
const COUNTS: usize = 4;

/// Which count a call adds to.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Count {
    Answered = 0,
    Failed = 1,
    Fallback = 2,
    LateIgnored = 3,
}

#[derive(Debug, Clone)]
pub(crate) struct SeriesAcc {
    t0: f64,
    t1: f64,
    width: f64,
    n: usize,
    mins: [Vec<f64>; VALUES],
    maxs: [Vec<f64>; VALUES],
    counts: [Vec<f64>; COUNTS],
    /// The bucket last sampled (-1 before any sample).
    cur: isize,
    last: [f64; VALUES],
}

fn values(o: &Observation) -> [f64; VALUES] {
    [
        o.level,
        o.threshold,
        o.trial,
        o.trial_upper,
        o.trial_lower,
        o.state.code() as f64,
        o.wait,
    ]
}

/// min/max that treat NaN as "no value".
fn lo(a: f64, b: f64) -> f64 {
    if a.is_nan() || b < a {
        b
    } else {
        a
    }
}

fn hi(a: f64, b: f64) -> f64 {
    if a.is_nan() || b > a {
        b
    } else {
        a
    }
}

impl SeriesAcc {
    /// `n` buckets over `[t0, t1]` (`t1 > t0`, `n >= 1`).
    pub(crate) fn new(n: usize, t0: f64, t1: f64, initial: &Observation) -> Self {
        let n = n.max(1);
        let t1 = if t1 > t0 { t1 } else { t0 + 1.0 };
        SeriesAcc {
            t0,
            t1,
            width: (t1 - t0) / n as f64,
            n,
            mins: std::array::from_fn(|_| vec![f64::NAN; n]),
            maxs: std::array::from_fn(|_| vec![f64::NAN; n]),
            counts: std::array::from_fn(|_| vec![0.0; n]),
            cur: -1,
            last: values(initial),
        }
    }

    fn index(&self, t: f64) -> Option<usize> {
        if !(t >= self.t0 && t <= self.t1) {
            return None;
        }
        let i = ((t - self.t0) / self.width) as usize;
        Some(i.min(self.n - 1))
    }

    /// Carry the last values into every bucket up to and including `i`.
    fn fill_to(&mut self, i: usize) {
        while self.cur < i as isize {
            self.cur += 1;
            let b = self.cur as usize;
            for k in 0..VALUES {
                self.mins[k][b] = self.last[k];
                self.maxs[k][b] = self.last[k];
            }
        }
    }

    /// The breaker's observation at `t`.
    #[inline]
    pub(crate) fn sample(&mut self, t: f64, o: &Observation) {
        let v = values(o);
        match self.index(t) {
            Some(i) => {
                self.fill_to(i);
                for (k, &x) in v.iter().enumerate() {
                    self.mins[k][i] = lo(self.mins[k][i], x);
                    self.maxs[k][i] = hi(self.maxs[k][i], x);
                }
            }
            None if t < self.t0 => {}
            None => return,
        }
        self.last = v;
    }

    /// Whether `t` falls in the bucket sampled last.
    #[inline]
    pub(crate) fn same_bucket(&self, t: f64) -> bool {
        self.cur >= 0 && self.index(t) == Some(self.cur as usize)
    }

    /// Only the level (index 0) and trial (index 2) values, in the bucket sampled last.
    #[inline]
    pub(crate) fn sample_quick(&mut self, t: f64, level: f64, trial: f64) {
        debug_assert!(self.same_bucket(t));
        let i = self.cur as usize;
        for (k, x) in [(0, level), (2, trial)] {
            self.mins[k][i] = lo(self.mins[k][i], x);
            self.maxs[k][i] = hi(self.maxs[k][i], x);
            self.last[k] = x;
        }
    }

    /// One call more in count `c` at `t`.
    #[inline]
    pub(crate) fn count(&mut self, t: f64, c: Count) {
        if let Some(i) = self.index(t) {
            self.counts[c as usize][i] += 1.0;
        }
    }

    /// Fill the buckets up to the run's end and hand out the series.
    pub(crate) fn finish(mut self, end: f64) -> Series {
        if let Some(i) = self.index(end.min(self.t1)) {
            self.fill_to(i);
        }
        let [level_min, threshold_min, trial_min, trial_upper_min, trial_lower_min, state_min, wait_min] =
            self.mins;
        let [level_max, threshold_max, trial_max, trial_upper_max, trial_lower_max, state_max, wait_max] =
            self.maxs;
        let [answered, failed, fallback, late_ignored] = self.counts;
        Series {
            t0_s: self.t0,
            t1_s: self.t1,
            bucket_s: self.width,
            level_min,
            level_max,
            threshold_min,
            threshold_max,
            trial_min,
            trial_max,
            trial_upper_min,
            trial_upper_max,
            trial_lower_min,
            trial_lower_max,
            state_min,
            state_max,
            wait_min,
            wait_max,
            answered,
            failed,
            fallback,
            late_ignored,
        }
    }
}
