//! Series for a range collected from a checkpoint (`Sim::collecting_from_checkpoint`) are the
//! series a copy from time 0 collects over the same range (`Sim::collecting`), bit for bit: the
//! page's zoom uses the first so that a late range does not replay the run from the start.

use sim::{BreakerKind, Scenario, Series, Sim};

/// Every column's bits, NaN included (NaN marks "no value" in a series).
fn bits(s: &Series) -> Vec<Vec<u64>> {
    let mut v: Vec<Vec<u64>> = s
        .columns()
        .iter()
        .map(|c| c.iter().map(|x| x.to_bits()).collect())
        .collect();
    v.push(vec![
        s.t0_s.to_bits(),
        s.t1_s.to_bits(),
        s.bucket_s.to_bits(),
    ]);
    v
}

/// Compare both ways of collecting `[t0, t1]` in `buckets` buckets, run to `t1` as the page does.
/// Returns the time of the checkpoint the range started from (where the copy's clock starts,
/// before `t0` unless it is time 0).
fn same_range(sim: &Sim, buckets: usize, t0: f64, t1: f64, what: &str) -> f64 {
    let mut from0 = sim.collecting(buckets, t0, t1);
    from0.run_until(t1);
    let mut near = sim.collecting_from_checkpoint(buckets, t0, t1);
    let start = near.now_s();
    assert_eq!(sim.checkpoint_before(t0), start, "{what}: [{t0}, {t1}]");
    assert!(
        start < t0 || start == 0.0,
        "{what}: from {start} for [{t0}, {t1}]"
    );
    near.run_until(t1);
    let a = from0.result();
    let b = near.result();
    for kind in BreakerKind::ALL {
        let (sa, sb) = (&a.breakers.get(kind).series, &b.breakers.get(kind).series);
        assert_eq!(
            bits(sa),
            bits(sb),
            "{what}: {kind:?} series over [{t0}, {t1}] in {buckets} buckets differ"
        );
        assert_eq!(bits(sa), bits(&near.series(kind)), "{what}: Sim::series");
        assert_eq!(a.breakers.get(kind).events, b.breakers.get(kind).events);
        assert_eq!(a.breakers.get(kind).totals, b.breakers.get(kind).totals);
    }
    assert_eq!(a.calls, b.calls);
    start
}

/// Ranges over the run, early to late, wide and narrow, and ranges starting right at, just
/// after and just before a checkpoint.
fn check(scenario: &Scenario, what: &str) {
    // A plain simulation, stepped to the end (its checkpoints cover the run), with denser
    // checkpoints than the default so that many ranges start near one.
    let mut plain = Sim::new(scenario).unwrap();
    plain.set_checkpoints(64, 256);
    plain.advance(u64::MAX);
    // The page's full run: a collecting copy that keeps checkpoints as it goes.
    let base = Sim::new(scenario).unwrap();
    let end = base.end_s();
    let mut full = base.collecting(600, 0.0, end).with_checkpoints(64, 256);
    full.advance(u64::MAX);
    // Keeping checkpoints does not change the run.
    let reference = sim::run(scenario, 600).unwrap();
    let kept = full.result();
    for kind in BreakerKind::ALL {
        assert_eq!(
            bits(&reference.breakers.get(kind).series),
            bits(&kept.breakers.get(kind).series)
        );
    }
    assert_eq!(sim::trace_hash(&reference), sim::trace_hash(&kept));

    let mut ranges = vec![];
    for &(a, b) in &[
        (0.0, 1.0),
        (0.0, 0.1),
        (0.05, 0.3),
        (0.25, 0.5),
        (0.5, 0.51),
        (0.7, 1.0),
        (0.9, 0.95),
        (0.999, 1.0),
        (0.33, 0.34),
    ] {
        ranges.push((a * end, b * end));
    }
    let mut from_later = 0;
    for sim in [&plain, &full] {
        for &(t0, t1) in &ranges {
            for buckets in [1, 7, 600] {
                if same_range(sim, buckets, t0, t1, what) > 0.0 {
                    from_later += 1;
                }
            }
        }
        // Right at a checkpoint, a hair after it and a hair before it.
        for x in [0.2, 0.5, 0.8] {
            let c = sim.checkpoint_before(x * end);
            for t0 in [c, c + 1e-9, c + 1e-3, (c - 1e-9).max(0.0)] {
                let t1 = (t0 + end * 0.05).min(end);
                same_range(sim, 600, t0, t1, what);
                same_range(sim, 13, t0, t0 + (t1 - t0) * 1e-4, what);
            }
        }
    }
    assert!(
        from_later > 20,
        "{what}: only {from_later} ranges started from a later checkpoint"
    );
}

#[test]
fn recovery_warmup_ranges() {
    check(&sim::preset("recovery-warmup").unwrap(), "recovery-warmup");
}

#[test]
fn bad_day_ranges() {
    check(&sim::preset("bad-day").unwrap(), "bad-day");
}

#[test]
fn late_results_ranges() {
    check(&sim::preset("late-results").unwrap(), "late-results");
}

/// Several callers with their own copies (caller 0's is charted), and several sharing one copy
/// behind a lock (changes apply after the lock's wait, so after their events).
#[test]
fn callers_ranges() {
    let mut s = sim::preset("bad-day").unwrap();
    s.duration = 4.0 * 3600.0;
    s.callers.count = 3;
    check(&s, "bad-day, 3 callers");
    s.callers.shared_state = true;
    s.callers.lock_hold = 0.4;
    s.callers.lock_timeout = 1.5;
    check(&s, "bad-day, 3 callers sharing a lock");
}

/// A simulation that adopts a collecting copy's checkpoints seeks to the same states as one that
/// stepped there itself.
#[test]
fn adopted_checkpoints_seek_the_same() {
    let s = sim::preset("bad-day").unwrap();
    let mut cursor = Sim::new(&s).unwrap();
    let end = cursor.end_s();
    let mut full = cursor.collecting(600, 0.0, end).with_checkpoints(256, 256);
    full.advance(u64::MAX);
    let mut plain = Sim::new(&s).unwrap();
    assert!(!plain.adopt_checkpoints(&full), "another run's checkpoints");
    assert!(cursor.adopt_checkpoints(&full));
    assert!(cursor.checkpoint_count() > 100);
    assert!(!cursor.adopt_checkpoints(&full), "nothing further to take");
    let json = |s: &Sim| serde_json::to_string(&s.snapshot()).unwrap();
    for f in [0.9, 0.1, 0.5, 0.50001, 1.0, 0.0, 0.77] {
        cursor.seek(f * end);
        plain.seek(f * end);
        assert_eq!(json(&cursor), json(&plain), "at {}", f * end);
        cursor.step_call();
        plain.step_call();
        assert_eq!(json(&cursor), json(&plain));
        assert_eq!(cursor.next_event(), plain.next_event());
        assert_eq!(json(&cursor), json(&plain));
    }
}

/// A run stopped part way (the page's cancelled or still-computing run) shows what it computed
/// and nothing more: every bucket before the one holding [`Sim::known_to`] is the finished run's,
/// bit for bit, and every bucket after it is NaN in every column (values and counts alike), not
/// the last state carried on or a count of 0.
#[test]
fn a_run_stopped_part_way_has_no_series_after_the_time_reached() {
    for (name, chunk) in [
        ("recovery-warmup", 37),
        ("bad-day", 5_000),
        ("late-results", 900),
    ] {
        let sc = sim::preset(name).unwrap();
        let base = Sim::new(&sc).unwrap();
        let end = base.end_s();
        let reference = sim::run(&sc, 600).unwrap();
        let mut part = base.collecting(600, 0.0, end);
        let mut stops = 0;
        while !part.advance(chunk) {
            stops += 1;
            let known = part.known_to();
            assert!(known > 0.0 && known < end, "{name}: known {known} of {end}");
            for kind in BreakerKind::ALL {
                let s = part.series(kind);
                let full = &reference.breakers.get(kind).series;
                let here = ((known - s.t0_s) / s.bucket_s) as usize;
                for (c, (col, whole)) in s.columns().iter().zip(full.columns()).enumerate() {
                    let col_name = Series::COLUMNS[c];
                    for j in 0..here {
                        assert_eq!(
                            col[j].to_bits(),
                            whole[j].to_bits(),
                            "{name} {kind:?} at {known} s: {col_name}[{j}] before the time reached"
                        );
                    }
                    for (j, x) in col.iter().enumerate().skip(here + 1) {
                        assert!(
                            x.is_nan(),
                            "{name} {kind:?} at {known} s: {col_name}[{j}] = {x} after the time reached"
                        );
                    }
                }
            }
        }
        assert!(stops >= 3, "{name}: only {stops} stops");
        // Done: the whole series, as the run gives it.
        for kind in BreakerKind::ALL {
            assert_eq!(part.known_to(), end);
            assert_eq!(
                bits(&part.series(kind)),
                bits(&reference.breakers.get(kind).series),
                "{name}: finished"
            );
        }
    }
}
