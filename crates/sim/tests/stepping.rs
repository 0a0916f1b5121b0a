//! Stepping one call shows what seeking to that call's time shows: a zero-latency answer lands
//! in the same step as its call, so the score moves on the step that made it move.

use sim::{preset, Sim};

fn same(a: &breaker::Observation, b: &breaker::Observation) -> bool {
    let eq = |x: f64, y: f64| x == y || (x.is_nan() && y.is_nan());
    a.state == b.state
        && a.generation == b.generation
        && eq(a.level, b.level)
        && eq(a.trial, b.trial)
        && eq(a.wait, b.wait)
}

#[test]
fn a_step_and_a_seek_to_the_same_time_agree() {
    for name in ["recovery-warmup", "bursty-failures", "late-results"] {
        let scenario = preset(name).unwrap();
        let mut stepper = Sim::new(&scenario).unwrap();
        let mut seeker = Sim::new(&scenario).unwrap();
        for i in 0..300 {
            assert!(stepper.step_call(), "{name}: the run has 300 calls");
            let a = stepper.snapshot();
            seeker.seek(a.t_s);
            let b = seeker.snapshot();
            assert_eq!((a.t_s, a.calls), (b.t_s, b.calls), "{name} call {i}");
            assert!(
                same(&a.statistical, &b.statistical),
                "{name} call {i}: {:?} vs {:?}",
                a.statistical,
                b.statistical
            );
            assert!(
                same(&a.window, &b.window),
                "{name} call {i}: {:?} vs {:?}",
                a.window,
                b.window
            );
        }
    }
}

#[test]
fn the_score_moves_on_the_step_of_the_failing_call() {
    // recovery-warmup: zero latency, every 10th call fails while healthy (t = 2.0 s is call 10).
    let mut s = Sim::new(&preset("recovery-warmup").unwrap()).unwrap();
    for _ in 0..9 {
        s.step_call();
    }
    assert_eq!(s.snapshot().statistical.level, 0.0);
    s.step_call();
    let snap = s.snapshot();
    assert!(
        (snap.t_s - 2.0).abs() < 1e-9,
        "call 10 at t = 2.0 s, got {}",
        snap.t_s
    );
    assert!(
        snap.statistical.level > 0.0,
        "the failure counted in its own step"
    );
}

#[test]
fn a_step_back_undoes_a_step_call_for_call() {
    // Checkpoints every 4 calls (at most 8 kept): stepping back restores one and replays.
    for name in ["recovery-warmup", "bursty-failures", "late-results"] {
        let scenario = preset(name).unwrap();
        let mut s = Sim::new(&scenario).unwrap();
        s.set_checkpoints(4, 8);
        let mut seen = vec![format!("{:?}", s.snapshot())];
        for _ in 0..200 {
            assert!(s.step_call());
            seen.push(format!("{:?}", s.snapshot()));
        }
        for k in (0..200).rev() {
            s.step_back();
            assert_eq!(s.calls(), k as u64, "{name}: back to call {k}");
            assert_eq!(
                format!("{:?}", s.snapshot()),
                seen[k],
                "{name}: the state after call {k}"
            );
        }
        // At the start there is nothing to go back to.
        s.step_back();
        assert_eq!(format!("{:?}", s.snapshot()), seen[0]);
        // Between calls (after a seek), back lands on the last call, then the one before it.
        s.seek_call(50);
        let t50 = s.now_s();
        s.step_call();
        let t51 = s.now_s();
        s.seek((t50 + t51) / 2.0);
        assert_eq!(
            s.calls(),
            50,
            "{name}: the seek lands between calls 50 and 51"
        );
        s.step_back();
        assert_eq!(
            format!("{:?}", s.snapshot()),
            seen[50],
            "{name}: back to call 50"
        );
        s.step_back();
        assert_eq!(
            format!("{:?}", s.snapshot()),
            seen[49],
            "{name}: then call 49"
        );
        // Forward too: from call 49 to call 120 steps on.
        s.seek_call(120);
        assert_eq!(
            format!("{:?}", s.snapshot()),
            seen[120],
            "{name}: forward to call 120"
        );
    }
}

/// The closed score applies only while the breaker is closed: the chart's series has no value
/// for it in a bucket spent wholly open or half-open (the breaker holds the score that opened it
/// there, unused), and the bucket where the trials close shows the score restarted from 0, not
/// the held one, while the bucket where it opened shows the score that reached the line.
/// recovery-warmup opens at 10.2 s (score 16.64 nats) and closes at 47.8 s.
#[test]
fn the_closed_score_has_no_value_while_open_or_half_open() {
    let scenario = preset("recovery-warmup").unwrap();
    let r = Sim::new(&scenario).unwrap().run_to_end(600);
    let s = &r.breakers.statistical.series;
    let opened = r.breakers.statistical.events[0];
    let held = match opened.reason {
        breaker::Reason::ScoreReachedLine { score, .. } => score,
        other => panic!("{other:?}"),
    };
    let mut apart = 0;
    for i in 0..s.len() {
        let (lo, hi) = (s.level_min[i], s.level_max[i]);
        if s.state_min[i] >= 1.0 {
            apart += 1;
            assert!(lo.is_nan() && hi.is_nan(), "bucket {i}: {lo} {hi}");
        } else {
            assert!(hi.is_finite(), "bucket {i} was closed at some time");
        }
    }
    assert!(
        apart > 300,
        "open or half-open from 10.2 s to 47.8 s: {apart}"
    );
    // The bucket where it opened shows the score that reached the line (the observation after
    // the opening has none).
    let opening = ((opened.t_s - s.t0_s) / s.bucket_s) as usize;
    assert_eq!(s.level_max[opening], held, "the score that opened it");
    let closing = ((47.8 - s.t0_s) / s.bucket_s) as usize;
    assert!(s.state_max[closing] >= 1.0 && s.state_min[closing] == 0.0);
    assert!(
        s.level_max[closing] < held / 2.0,
        "{} vs the held {held}",
        s.level_max[closing]
    );
    let mut sim = Sim::new(&scenario).unwrap();
    sim.seek(30.0);
    assert!(sim.snapshot().statistical.level.is_nan(), "open at 30 s");
    sim.seek(50.0);
    assert!(
        sim.snapshot().statistical.level.is_finite(),
        "closed at 50 s"
    );
}

/// A run stepped to its end stands at its end, not at its last event: one call at 60 s
/// (answered at 60.05 s) in a 100 s run leaves the clock at 100 s once stepping says it is over.
#[test]
fn a_finished_run_stands_at_its_end() {
    let mut s = sim::Scenario {
        duration: 100.0,
        ..sim::Scenario::default()
    };
    s.traffic.calls_per_minute = 1.0;
    s.traffic.arrivals = sim::Arrivals::Even;
    let mut sim = sim::Sim::new(&s).unwrap();
    assert!(sim.step_call());
    assert_eq!(sim.now_s(), 60.0);
    assert!(!sim.step_call());
    assert!(sim.is_done());
    assert_eq!(sim.now_s(), 100.0);
    assert_eq!(sim.progress(), 1.0);
}

/// A trace whose calls all come at time 0 ends at 0: by time the run is all there from the
/// start, so its progress is 1 throughout (not 0 / 0, which a progress bar cannot show), while
/// the calls are still stepped one by one.
#[test]
fn a_run_of_no_time_is_all_there_from_the_start() {
    let s = sim::Scenario {
        trace: Some("0,ok,0\n0,fail,0\n".into()),
        ..sim::Scenario::default()
    };
    let mut sim = sim::Sim::new(&s).unwrap();
    assert_eq!(sim.end_s(), 0.0);
    assert!(!sim.is_done());
    assert_eq!(sim.progress(), 1.0);
    assert!(sim.step_call());
    assert_eq!((sim.calls(), sim.progress()), (1, 1.0));
    assert!(sim.step_call());
    assert!(!sim.step_call());
    assert!(sim.is_done());
    assert_eq!((sim.calls(), sim.progress()), (2, 1.0));
}
