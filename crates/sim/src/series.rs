//! Downsampling into buckets: min and max of each value per bucket, counts per bucket.
//! Memory is fixed by the number of buckets, whatever the number of calls.

use breaker::Observation;

use crate::output::Series;

/// Values sampled per observation (min and max kept for each).
const VALUES: usize = 7;
/// The index of the level (the closed score, the window's failure rate) in [`values`].
pub(crate) const LEVEL: usize = 0;
/// The index of the line (the statistical breaker's; the window's threshold) in [`values`].
const LINE: usize = 1;
/// The index of the trial value (the trial score, the probes' failure rate) in [`values`].
pub(crate) const TRIAL: usize = 2;
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

/// Hits on the current bucket found by division before its bounds are worked out
/// ([`SeriesAcc::same_bucket`]). A bucket of a short run sees one call or none: the result's
/// count and sample at the call's time are two hits, and bounding the bucket for them cost more
/// than the two divisions (recovery-warmup: a sixth of the series' instructions). A busy bucket
/// pays two divisions more, once.
const DIVIDED_HITS: u8 = 2;

#[derive(Debug, Clone)]
pub(crate) struct SeriesAcc {
    t0: f64,
    t1: f64,
    width: f64,
    n: usize,
    // One vector per column: many small allocations rather than one large one (a large block
    // freed and allocated again per run is handed back to the system and faulted in again).
    mins: [Vec<f64>; VALUES],
    maxs: [Vec<f64>; VALUES],
    counts: [Vec<f64>; COUNTS],
    /// The bucket last sampled (-1 before any sample).
    cur: isize,
    /// The times whose bucket is `cur`, inclusive, once `bounded`: `index(t) == Some(cur)`
    /// exactly when `cur_lo <= t <= cur_hi`. Saves the division of [`SeriesAcc::index`] for
    /// every sample and count in the current bucket. Worked out after [`DIVIDED_HITS`] hits
    /// found by division (many buckets of a short run see a call or none); an empty range until
    /// then.
    cur_lo: f64,
    cur_hi: f64,
    bounded: bool,
    /// Hits on `cur` found by division so far.
    hits: u8,
    last: [f64; VALUES],
    /// `last` holds the latest sample's values and they are already in bucket `cur`'s minima
    /// and maxima: sampling the same values again in that bucket would change nothing.
    fresh: bool,
    /// The bucket of the last full sample ([`SeriesAcc::sample`]; -1 before any).
    line_at: isize,
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

/// The next float up from a finite `x` (`f64::next_up`, stable only from Rust 1.86).
fn next_up(x: f64) -> f64 {
    if x == 0.0 {
        f64::from_bits(1)
    } else if x > 0.0 {
        f64::from_bits(x.to_bits() + 1)
    } else {
        f64::from_bits(x.to_bits() - 1)
    }
}

/// The next float down from a finite `x`.
fn next_down(x: f64) -> f64 {
    -next_up(-x)
}

fn hi(a: f64, b: f64) -> f64 {
    if a.is_nan() || b > a {
        b
    } else {
        a
    }
}

/// `vec![x; n]`, out of line: [`SeriesAcc::new`] makes every column with it, and the inlined
/// allocation and fill of each came to ~3.5 KB of the page's wasm for a constructor that runs
/// once per series.
#[inline(never)]
fn filled(n: usize, x: f64) -> Vec<f64> {
    vec![x; n]
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
            mins: std::array::from_fn(|_| filled(n, f64::NAN)),
            maxs: std::array::from_fn(|_| filled(n, f64::NAN)),
            counts: std::array::from_fn(|_| filled(n, 0.0)),
            cur: -1,
            cur_lo: f64::INFINITY,
            cur_hi: f64::NEG_INFINITY,
            bounded: false,
            hits: 0,
            last: values(initial),
            fresh: false,
            line_at: -1,
        }
    }

    fn index(&self, t: f64) -> Option<usize> {
        if !(t >= self.t0 && t <= self.t1) {
            return None;
        }
        Some(self.raw_index(t).min(self.n - 1))
    }

    fn raw_index(&self, t: f64) -> usize {
        ((t - self.t0) / self.width) as usize
    }

    /// The first time in `[t0, t1]` whose raw index is at least `i` (`None` if there is none):
    /// `t0 + i x width` moved by ulps to the exact boundary of the division in
    /// [`SeriesAcc::index`] (which is monotone in `t`).
    fn first_time_of(&self, i: usize) -> Option<f64> {
        let mut c = (self.t0 + i as f64 * self.width).clamp(self.t0, self.t1);
        while c > self.t0 && self.raw_index(next_down(c)) >= i {
            c = next_down(c);
        }
        while c < self.t1 && self.raw_index(c) < i {
            c = next_up(c);
        }
        (self.raw_index(c) >= i).then_some(c)
    }

    /// Set `cur_lo..=cur_hi` for the bucket `cur`.
    #[cold]
    fn bound_current(&mut self) {
        let i = self.cur as usize;
        self.bounded = true;
        self.cur_lo = if i == 0 {
            self.t0
        } else {
            self.first_time_of(i).unwrap_or(f64::INFINITY)
        };
        self.cur_hi = if i + 1 >= self.n {
            self.t1
        } else {
            self.first_time_of(i + 1).map_or(self.t1, next_down)
        };
    }

    /// Carry the last values into every bucket up to and including `i`.
    fn fill_to(&mut self, i: usize) {
        if self.cur >= i as isize {
            return;
        }
        let new = (self.cur + 1) as usize..=i;
        for k in 0..VALUES {
            self.mins[k][new.clone()].fill(self.last[k]);
            self.maxs[k][new.clone()].fill(self.last[k]);
        }
        self.cur = i as isize;
        self.bounded = false;
        self.hits = 0;
        self.cur_lo = f64::INFINITY;
        self.cur_hi = f64::NEG_INFINITY;
    }

    /// The breaker's observation at `t`.
    #[inline]
    pub(crate) fn sample(&mut self, t: f64, o: &Observation) {
        let v = values(o);
        match self.index(t) {
            Some(i) => {
                self.fill_to(i);
                // The line moves smoothly between its samples (a bucket's first sampled event
                // and transitions), so the value carried in, sampled a bucket or more before,
                // is not where it starts this bucket: the first sample here is taken for that,
                // and for where it ended the bucket before, if sampled, whose range it closes.
                // (Carried, each bucket held its own start and the one before's: a bucket late.)
                if self.line_at >= 0 && self.line_at < i as isize {
                    self.mins[LINE][i] = v[LINE];
                    self.maxs[LINE][i] = v[LINE];
                    if self.line_at + 1 == i as isize {
                        self.mins[LINE][i - 1] = lo(self.mins[LINE][i - 1], v[LINE]);
                        self.maxs[LINE][i - 1] = hi(self.maxs[LINE][i - 1], v[LINE]);
                    }
                }
                self.line_at = i as isize;
                for (k, &x) in v.iter().enumerate() {
                    self.mins[k][i] = lo(self.mins[k][i], x);
                    self.maxs[k][i] = hi(self.maxs[k][i], x);
                }
                self.fresh = i as isize == self.cur;
            }
            None if t < self.t0 => self.fresh = false,
            None => {
                self.fresh = false;
                return;
            }
        }
        self.last = v;
    }

    /// A value reached at `t`, the time sampled last, that the observation then did not give
    /// (the score that opened the statistical breaker, the trial score or the probes' failure
    /// rate that ended half-open): in that bucket's minimum and maximum of value `k` only
    /// ([`LEVEL`] or [`TRIAL`]), not carried into later buckets.
    pub(crate) fn reach(&mut self, t: f64, k: usize, x: f64) {
        if let Some(i) = self.index(t) {
            if i as isize == self.cur {
                self.mins[k][i] = lo(self.mins[k][i], x);
                self.maxs[k][i] = hi(self.maxs[k][i], x);
            }
        }
    }

    /// Whether `t` falls in the bucket sampled last.
    #[inline]
    pub(crate) fn same_bucket(&mut self, t: f64) -> bool {
        let same = if self.cur_lo <= t && t <= self.cur_hi {
            true
        } else if self.bounded || self.cur < 0 {
            false
        } else {
            let same = self.index(t) == Some(self.cur as usize);
            if same {
                self.hits += 1;
                if self.hits > DIVIDED_HITS {
                    self.bound_current();
                }
            }
            same
        };
        debug_assert_eq!(
            same,
            self.cur >= 0 && self.index(t) == Some(self.cur as usize)
        );
        same
    }

    /// Whether a sample at `t` of the values sampled last would change nothing (they are in the
    /// current bucket already, and `t` falls in it).
    #[inline]
    pub(crate) fn holds_last(&mut self, t: f64) -> bool {
        self.fresh && self.same_bucket(t)
    }

    /// Only the level (index 0) and trial (index 2) values, in the bucket sampled last.
    #[inline]
    pub(crate) fn sample_quick(&mut self, t: f64, level: f64, trial: f64) {
        debug_assert_eq!(self.index(t), Some(self.cur as usize));
        if self.fresh
            && level.to_bits() == self.last[0].to_bits()
            && trial.to_bits() == self.last[2].to_bits()
        {
            // The same values again (a score resting at its floor, a window unchanged): they
            // are in this bucket's minima and maxima already.
            return;
        }
        let i = self.cur as usize;
        for (k, x) in [(0, level), (2, trial)] {
            self.mins[k][i] = lo(self.mins[k][i], x);
            self.maxs[k][i] = hi(self.maxs[k][i], x);
            self.last[k] = x;
        }
        self.fresh = true;
    }

    /// One call more in count `c` at `t`.
    #[inline]
    pub(crate) fn count(&mut self, t: f64, c: Count) {
        let i = if self.same_bucket(t) {
            self.cur as usize
        } else {
            match self.index(t) {
                Some(i) => i,
                None => return,
            }
        };
        self.counts[c as usize][i] += 1.0;
    }

    /// Fill the buckets up to `known` (the time the run is computed to) and hand out the series.
    /// Buckets that start after `known` (a run stopped before `t1`) get NaN counts as well as
    /// NaN values: nothing was simulated there, and a count of 0 would say nothing happened.
    pub(crate) fn finish(mut self, known: f64) -> Series {
        let known = known.min(self.t1);
        let first_unknown = match self.index(known) {
            Some(i) => {
                self.fill_to(i);
                i + 1
            }
            None => 0,
        };
        if known < self.t1 {
            for c in &mut self.counts {
                c[first_unknown.min(self.n)..].fill(f64::NAN);
            }
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

#[cfg(test)]
mod tests {
    use super::*;
    use breaker::{Breaker, Statistical};

    /// The cached bounds of the current bucket agree with the division, right at the bucket
    /// edges too, for awkward ranges and widths.
    #[test]
    fn current_bucket_bounds_match_the_division() {
        let o = Statistical::new(Default::default()).unwrap().observe(0.0);
        let ranges = [
            (0.0, 2_592_000.0, 600),
            (0.0, 60.0, 7),
            (0.1, 0.7, 3),
            (-5.3, 1e-3, 11),
            (1234.5678, 98765.4321, 599),
            (1e9, 1e9 + 1.0, 1000),
            (0.0, 1e-300, 5),
        ];
        for (t0, t1, n) in ranges {
            let mut s = SeriesAcc::new(n, t0, t1, &o);
            let w = (t1 - t0) / n as f64;
            for i in 0..n {
                let edge = t0 + i as f64 * w;
                let mut probes = vec![edge, t0 + (i as f64 + 0.5) * w];
                let mut a = edge;
                let mut b = edge;
                for _ in 0..4 {
                    a = next_up(a);
                    b = next_down(b);
                    probes.push(a);
                    probes.push(b);
                }
                for t in probes {
                    let want = s.cur >= 0 && s.index(t) == Some(s.cur as usize);
                    assert_eq!(s.same_bucket(t), want, "{t0} {t1} {n}: t = {t}");
                    // Again: a hit is counted, and the third works the bounds out.
                    assert_eq!(s.same_bucket(t), want, "{t0} {t1} {n}: t = {t}");
                    if let Some(j) = s.index(t) {
                        if j as isize > s.cur {
                            s.sample(t, &o);
                            assert!(s.same_bucket(t));
                        }
                    }
                }
            }
            assert!(!s.same_bucket(f64::NAN));
            assert!(!s.same_bucket(next_up(t1)));
        }
    }

    /// One thing the engine does to a series, in time order.
    #[derive(Debug, Clone, Copy)]
    enum Op {
        Sample(f64, [f64; VALUES]),
        /// Right after a sample at the same time, as the engine does: (time, value index, value).
        Reach(f64, usize, f64),
        /// Only in the bucket sampled last, as the engine does.
        Quick(f64, f64, f64),
        Count(f64, usize),
    }

    /// Per bucket: minima, maxima (of the values, in `values` order) and counts.
    type Recounted = (Vec<[f64; VALUES]>, Vec<[f64; VALUES]>, Vec<[f64; COUNTS]>);

    /// What the docs say a series holds, recounted bucket by bucket from the list of what
    /// happened: bucket `i` over `[t0 + i w, t0 + (i + 1) w)` (the last one closed) holds the
    /// min and max of the values in force at its start (the last sample before it, or the
    /// initial values) and of those sampled in it (and of a level or trial value reached in
    /// it), NaN ignored; buckets after the one `known` falls in hold NaN; the counts are the
    /// calls at times in each bucket, NaN after `known` when it is before `t1`.
    fn recount(
        ops: &[Op],
        initial: [f64; VALUES],
        (t0, t1, n): (f64, f64, usize),
        known: f64,
    ) -> Recounted {
        let w = (t1 - t0) / n as f64;
        let bucket = |t: f64| {
            (t0..=t1)
                .contains(&t)
                .then(|| (((t - t0) / w) as usize).min(n - 1))
        };
        // Every sample as full values (a quick one changes the level and trial only), with the
        // samples after the range dropped.
        let mut last = initial;
        let mut samples = vec![];
        for op in ops {
            match *op {
                Op::Sample(t, v) if t <= t1 => last = v,
                Op::Quick(_, level, trial) => {
                    last[0] = level;
                    last[2] = trial;
                }
                _ => continue,
            }
            samples.push((op_time(op), last));
        }
        let reached = samples
            .iter()
            .filter_map(|&(t, _)| bucket(t))
            .chain(bucket(known.min(t1)))
            .max();
        let mut mins = vec![[f64::NAN; VALUES]; n];
        let mut maxs = vec![[f64::NAN; VALUES]; n];
        let mut counts = vec![[0.0; COUNTS]; n];
        let fold = |lo: &mut [f64; VALUES], hi: &mut [f64; VALUES], v: &[f64; VALUES]| {
            for k in 0..VALUES {
                if !v[k].is_nan() {
                    lo[k] = if lo[k].is_nan() {
                        v[k]
                    } else {
                        lo[k].min(v[k])
                    };
                    hi[k] = if hi[k].is_nan() {
                        v[k]
                    } else {
                        hi[k].max(v[k])
                    };
                }
            }
        };
        for i in 0..reached.map_or(0, |r| r + 1) {
            let start = t0 + i as f64 * w;
            let held = samples
                .iter()
                .rev()
                .find(|&&(t, _)| t < start)
                .map_or(initial, |&(_, v)| v);
            fold(&mut mins[i], &mut maxs[i], &held);
            for (_, v) in samples.iter().filter(|&&(t, _)| bucket(t) == Some(i)) {
                fold(&mut mins[i], &mut maxs[i], v);
            }
            for op in ops {
                if let Op::Reach(t, k, x) = *op {
                    if bucket(t) == Some(i) {
                        let mut v = [f64::NAN; VALUES];
                        v[k] = x;
                        fold(&mut mins[i], &mut maxs[i], &v);
                    }
                }
            }
        }
        // The line (value 1): the full samples in range, by bucket. A bucket with one, after
        // an earlier bucket had one, holds its own (not the value carried in); a bucket with
        // one also holds the first of the next bucket's.
        let mut full: Vec<Vec<f64>> = vec![vec![]; n];
        for op in ops {
            if let Op::Sample(t, v) = *op {
                if let Some(i) = bucket(t) {
                    full[i].push(v[1]);
                }
            }
        }
        for i in 0..n {
            if full[i].is_empty() {
                continue;
            }
            let mut own = full[i].clone();
            if let Some(&next) = full.get(i + 1).and_then(|f| f.first()) {
                own.push(next);
            }
            let (mut lo_, mut hi_) = if full[..i].iter().any(|f| !f.is_empty()) {
                (f64::NAN, f64::NAN)
            } else {
                (mins[i][1], maxs[i][1])
            };
            for x in own.into_iter().filter(|x| !x.is_nan()) {
                lo_ = if lo_.is_nan() { x } else { lo_.min(x) };
                hi_ = if hi_.is_nan() { x } else { hi_.max(x) };
            }
            (mins[i][1], maxs[i][1]) = (lo_, hi_);
        }
        for op in ops {
            if let Op::Count(t, c) = *op {
                if let Some(i) = bucket(t) {
                    counts[i][c] += 1.0;
                }
            }
        }
        if known < t1 {
            let first_unknown = bucket(known).map_or(0, |i| i + 1);
            for c in &mut counts[first_unknown..] {
                *c = [f64::NAN; COUNTS];
            }
        }
        (mins, maxs, counts)
    }

    fn op_time(op: &Op) -> f64 {
        match *op {
            Op::Sample(t, _) | Op::Reach(t, _, _) | Op::Quick(t, _, _) | Op::Count(t, _) => t,
        }
    }

    /// Random runs of samples, quick samples, levels reached and counts, before, in and after
    /// the range, against the recount (bit for bit: NaN is "no value"). Times are multiples of
    /// 1/4 s and widths whole seconds, so the buckets' edges are exact. The values sampled last
    /// are sampled again now and then as the engine does after a permit that moved nothing:
    /// skipped where `holds_last` says, which must be exactly where they are in the current
    /// bucket already, and the recount takes every one as a sample.
    #[test]
    fn buckets_hold_what_the_docs_say() {
        use breaker::State;
        let base = Statistical::new(Default::default()).unwrap().observe(0.0);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |m: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % m
        };
        let pick = [f64::NAN, -1.5, 0.0, 0.5, 2.0, 3.25];
        let states = [State::Closed, State::HalfOpen, State::Open];
        let mut buckets_seen = 0;
        let mut skipped = 0;
        for round in 0..300 {
            let (t0, t1, n) = [(4.0, 20.0, 8), (0.0, 3.0, 3), (4.0, 20.0, 1)][round % 3];
            let obs = |next: &mut dyn FnMut(u64) -> u64| {
                let mut o = base;
                o.level = pick[next(6) as usize];
                o.threshold = pick[next(6) as usize];
                o.trial = pick[next(6) as usize];
                o.trial_upper = pick[next(6) as usize];
                o.trial_lower = pick[next(6) as usize];
                o.state = states[next(3) as usize];
                o.wait = pick[next(6) as usize];
                o
            };
            let initial = obs(&mut next);
            let mut acc = SeriesAcc::new(n, t0, t1, &initial);
            // From before t0 to past t1, or stopped part way.
            let end = if next(3) == 0 {
                t0 + next(((t1 - t0) * 4.0) as u64) as f64 / 4.0
            } else {
                t1 + 4.0
            };
            let mut ops = vec![];
            let mut t = 0.0;
            let mut cur: Option<usize> = None;
            // The values sampled last (none after `t1` is kept), and the bucket they are known
            // to be in: that of the last sample or quick sample, if it was in range.
            let mut last = initial;
            let mut fresh: Option<usize> = None;
            while t <= end {
                match next(6) {
                    0 | 1 => {
                        let o = obs(&mut next);
                        acc.sample(t, &o);
                        ops.push(Op::Sample(t, values(&o)));
                        if t <= t1 {
                            last = o;
                        }
                        fresh = acc.index(t);
                        if t >= t0 && t <= t1 {
                            cur = acc.index(t);
                            // None, one or both of the level and the trial reached.
                            for k in [LEVEL, TRIAL] {
                                if next(2) == 0 {
                                    let x = pick[next(6) as usize];
                                    acc.reach(t, k, x);
                                    ops.push(Op::Reach(t, k, x));
                                }
                            }
                        }
                    }
                    2 if cur.is_some() && acc.index(t) == cur => {
                        let (level, trial) = (pick[next(6) as usize], pick[next(6) as usize]);
                        assert!(acc.same_bucket(t));
                        acc.sample_quick(t, level, trial);
                        ops.push(Op::Quick(t, level, trial));
                        (last.level, last.trial) = (level, trial);
                        fresh = cur;
                    }
                    // The values sampled last, again (a permit that moved nothing): skipped
                    // exactly when they are in this bucket already, and the same either way.
                    5 => {
                        let held = fresh.is_some() && acc.index(t) == fresh;
                        assert_eq!(acc.holds_last(t), held, "round {round} at {t}: {ops:?}");
                        if held {
                            skipped += 1;
                        } else {
                            acc.sample(t, &last);
                            fresh = acc.index(t);
                        }
                        ops.push(Op::Sample(t, values(&last)));
                    }
                    _ => {
                        let c = next(4) as usize;
                        let count = [
                            Count::Answered,
                            Count::Failed,
                            Count::Fallback,
                            Count::LateIgnored,
                        ][c];
                        acc.count(t, count);
                        ops.push(Op::Count(t, c));
                    }
                }
                // Now and then a jump over half the range: gaps of several buckets to carry
                // the values over, as well as the short ones.
                t += if next(12) == 0 {
                    (t1 - t0) / 2.0
                } else {
                    next(4) as f64 / 4.0
                };
            }
            let known = end.min(t1 + 4.0);
            let (mins, maxs, counts) = recount(&ops, values(&initial), (t0, t1, n), known);
            let s = acc.finish(known);
            assert_eq!((s.t0_s, s.t1_s, s.bucket_s), (t0, t1, (t1 - t0) / n as f64));
            let cols = s.columns();
            let bits = |v: &[f64]| v.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
            for k in 0..VALUES {
                let want_min: Vec<f64> = mins.iter().map(|b| b[k]).collect();
                let want_max: Vec<f64> = maxs.iter().map(|b| b[k]).collect();
                assert_eq!(
                    bits(cols[2 * k]),
                    bits(&want_min),
                    "round {round} value {k} min: {ops:?}"
                );
                assert_eq!(
                    bits(cols[2 * k + 1]),
                    bits(&want_max),
                    "round {round} value {k} max: {ops:?}"
                );
            }
            for c in 0..COUNTS {
                let want: Vec<f64> = counts.iter().map(|b| b[c]).collect();
                assert_eq!(
                    bits(cols[14 + c]),
                    bits(&want),
                    "round {round} count {c}: {ops:?}"
                );
            }
            buckets_seen += mins.iter().filter(|b| !b[0].is_nan()).count();
        }
        assert!(buckets_seen > 500, "{buckets_seen}");
        assert!(skipped > 100, "{skipped}");
    }
}
