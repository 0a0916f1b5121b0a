//! The window breaker against a model: a direct transcription of resilience4j 2.x's
//! `CircuitBreakerStateMachine` (its CLOSED, OPEN and HALF_OPEN states, the scheduled automatic
//! transition and half-open maximum), `CircuitBreakerMetrics` (`checkIfThresholdsExceeded`, float
//! percentages, the minimum) and the two windows as its source writes them:
//! `FixedSizeSlidingWindowMetrics` (a ring of measurements with a head index) and
//! `SlidingTimeWindowMetrics` (a ring of epoch-second buckets, pre-filled from the second it was
//! created, moved on every record and snapshot). Random calls, results and polls drive both; they
//! must agree on every decision, every transition (and its time), the attempt, the half-open
//! slots and the window's counts.
//!
//! The model keeps time in ticks of 0.5 ms; calls happen on even ticks and every wait, maximum
//! and slow-call threshold is an odd number of ticks, so a call seldom lands on a deadline. Where
//! one does (a deadline timed from another: a half-open begun at the end of a wait; a doubled
//! wait), a scheduled task (automatic transition, half-open maximum) has fired at its deadline,
//! and a permit exactly at the end of the open wait is admitted: the crate's `>=` where
//! resilience4j's `isAfter` is strict, a documented difference of one clock tick. Waits double
//! (or not), capped or not, without randomization. A neutral result is only ever given by a probe
//! of the current half-open: for any other, the crate deliberately returns no slot, where
//! resilience4j returns one for every ignored result (also documented).

#[cfg(target_arch = "wasm32")]
use wasm_bindgen_test::wasm_bindgen_test as test;
#[cfg(target_arch = "wasm32")]
wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

use breaker::{
    AfterHalfOpenWait, Breaker, Decision, Outcome, Permit, SlidingWindowType, State, Window,
    WindowSettings,
};

const TICKS_PER_SECOND: i64 = 2000;

fn secs(ticks: i64) -> f64 {
    ticks as f64 / TICKS_PER_SECOND as f64
}

struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// `TotalAggregation` / `Measurement` / `PartialAggregation`: calls, failed, slow.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
struct Agg {
    calls: i64,
    failed: i64,
    slow: i64,
}

impl Agg {
    fn add(&mut self, o: Agg) {
        self.calls += o.calls;
        self.failed += o.failed;
        self.slow += o.slow;
    }
    fn sub(&mut self, o: Agg) {
        self.calls -= o.calls;
        self.failed -= o.failed;
        self.slow -= o.slow;
    }
}

#[derive(Debug, Clone)]
enum Win {
    /// `FixedSizeSlidingWindowMetrics`.
    Count {
        measurements: Vec<Agg>,
        head: usize,
        total: Agg,
    },
    /// `SlidingTimeWindowMetrics`: (epoch second, partial aggregation).
    Time {
        buckets: Vec<(i64, Agg)>,
        head: usize,
        total: Agg,
    },
}

impl Win {
    fn count(size: usize) -> Win {
        Win::Count {
            measurements: vec![Agg::default(); size],
            head: 0,
            total: Agg::default(),
        }
    }

    /// The constructor: bucket i holds epoch second `now + i`, the head is bucket 0.
    fn time(size: usize, now: i64) -> Win {
        let epoch = now.div_euclid(TICKS_PER_SECOND);
        Win::Time {
            buckets: (0..size as i64)
                .map(|i| (epoch + i, Agg::default()))
                .collect(),
            head: 0,
            total: Agg::default(),
        }
    }

    /// `moveWindowToCurrentEpochSecond`: the head bucket after the move.
    fn move_window(
        buckets: &mut [(i64, Agg)],
        head: &mut usize,
        total: &mut Agg,
        now: i64,
    ) -> usize {
        let n = buckets.len();
        let current = now.div_euclid(TICKS_PER_SECOND);
        let difference = current - buckets[*head].0;
        if difference <= 0 {
            return *head;
        }
        let mut seconds_to_move = difference.min(n as i64);
        loop {
            seconds_to_move -= 1;
            *head = (*head + 1) % n;
            total.sub(buckets[*head].1);
            buckets[*head] = (current - seconds_to_move, Agg::default());
            if seconds_to_move <= 0 {
                break;
            }
        }
        *head
    }

    fn record(&mut self, o: Agg, now: i64) -> Agg {
        match self {
            Win::Count {
                measurements,
                head,
                total,
            } => {
                total.add(o);
                *head = (*head + 1) % measurements.len();
                total.sub(measurements[*head]);
                measurements[*head] = o;
                *total
            }
            Win::Time {
                buckets,
                head,
                total,
            } => {
                total.add(o);
                let h = Self::move_window(buckets, head, total, now);
                buckets[h].1.add(o);
                *total
            }
        }
    }

    fn snapshot(&mut self, now: i64) -> Agg {
        match self {
            Win::Count { total, .. } => *total,
            Win::Time {
                buckets,
                head,
                total,
            } => {
                Self::move_window(buckets, head, total, now);
                *total
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Verdict {
    BelowMinimum,
    Below,
    Above,
}

/// `CircuitBreakerMetrics`.
#[derive(Debug, Clone)]
struct Metrics {
    window: Win,
    minimum: i64,
    failure_threshold: f32,
    slow_threshold: f32,
    slow_ticks: i64,
}

impl Metrics {
    fn new(size: usize, count_based: bool, c: &Config, now: i64) -> Metrics {
        let (window, minimum) = if count_based {
            (Win::count(size), c.minimum.min(size as i64))
        } else {
            (Win::time(size, now), c.minimum)
        };
        Metrics {
            window,
            minimum,
            failure_threshold: c.failure_pct,
            slow_threshold: c.slow_pct,
            slow_ticks: c.slow_ticks,
        }
    }

    fn on_result(&mut self, failed: bool, duration: i64, now: i64) -> Verdict {
        let slow = duration > self.slow_ticks;
        let s = self.window.record(
            Agg {
                calls: 1,
                failed: failed as i64,
                slow: slow as i64,
            },
            now,
        );
        // `checkIfThresholdsExceeded`, in float percentages.
        if s.calls == 0 || s.calls < self.minimum {
            return Verdict::BelowMinimum;
        }
        let failure = s.failed as f32 * 100.0f32 / s.calls as f32;
        let slow = s.slow as f32 * 100.0f32 / s.calls as f32;
        if failure >= self.failure_threshold || slow >= self.slow_threshold {
            Verdict::Above
        } else {
            Verdict::Below
        }
    }
}

#[derive(Debug, Clone)]
struct Config {
    count_based: bool,
    size: usize,
    minimum: i64,
    failure_pct: f32,
    slow_pct: f32,
    slow_ticks: i64,
    wait_ticks: i64,
    /// `IntervalFunction.ofExponentialBackoff(wait, multiplier, cap)` (cap 0: none).
    multiplier: i64,
    cap_ticks: i64,
    permitted: i64,
    half_open_max_ticks: i64,
    after_wait_closed: bool,
    automatic: bool,
}

#[derive(Debug, Clone)]
enum St {
    Closed(Metrics),
    Open {
        attempts: u32,
        retry_after: i64,
        metrics: Metrics,
    },
    HalfOpen {
        attempts: u32,
        permitted: i64,
        metrics: Metrics,
        /// The scheduled half-open maximum, if any.
        until: Option<i64>,
        /// Which half-open this is (for the driver's neutral results).
        instance: u64,
    },
}

struct Model {
    c: Config,
    st: St,
    transitions: Vec<(State, State, i64)>,
    instances: u64,
    /// Counted results recorded in a half-open that were not its own probes'.
    late_in_half_open: u64,
}

impl Model {
    fn new(c: Config) -> Model {
        let m = Metrics::new(c.size, c.count_based, &c, 0);
        Model {
            c,
            st: St::Closed(m),
            transitions: Vec::new(),
            instances: 0,
            late_in_half_open: 0,
        }
    }

    fn state(&self) -> State {
        match self.st {
            St::Closed(_) => State::Closed,
            St::Open { .. } => State::Open,
            St::HalfOpen { .. } => State::HalfOpen,
        }
    }

    fn metrics(&mut self) -> &mut Metrics {
        match &mut self.st {
            St::Closed(m) => m,
            St::Open { metrics, .. } | St::HalfOpen { metrics, .. } => metrics,
        }
    }

    fn attempts(&self) -> u32 {
        match self.st {
            St::Closed(_) => 0,
            St::Open { attempts, .. } | St::HalfOpen { attempts, .. } => attempts,
        }
    }

    /// `transitionToOpenState`: `new OpenState(attempts + 1, currentState.getMetrics())`.
    fn transition_to_open(&mut self, at: i64) {
        let from = self.state();
        let attempts = self.attempts() + 1;
        let metrics = self.metrics().clone();
        // `getWaitIntervalFunctionInOpenState().apply(attempts)`.
        let mut wait = self.c.wait_ticks;
        for _ in 1..attempts {
            wait = wait.saturating_mul(self.c.multiplier);
        }
        if self.c.cap_ticks > 0 {
            wait = wait.min(self.c.cap_ticks);
        }
        self.st = St::Open {
            attempts,
            retry_after: at + wait,
            metrics,
        };
        self.transitions.push((from, State::Open, at));
    }

    /// `transitionToHalfOpenState`: `new HalfOpenState(attempts)`, its metrics a count window of
    /// the permitted calls.
    fn transition_to_half_open(&mut self, at: i64) {
        let from = self.state();
        let attempts = self.attempts();
        self.instances += 1;
        self.st = St::HalfOpen {
            attempts,
            permitted: self.c.permitted,
            metrics: Metrics::new(self.c.permitted as usize, true, &self.c, at),
            until: (self.c.half_open_max_ticks > 0).then_some(at + self.c.half_open_max_ticks),
            instance: self.instances,
        };
        self.transitions.push((from, State::HalfOpen, at));
    }

    /// `transitionToClosedState`: `new ClosedState()`, a fresh window created now.
    fn transition_to_closed(&mut self, at: i64) {
        let from = self.state();
        self.st = St::Closed(Metrics::new(self.c.size, self.c.count_based, &self.c, at));
        self.transitions.push((from, State::Closed, at));
    }

    /// The scheduler's tasks that are due by `now`, each run at its own time.
    fn run_scheduled(&mut self, now: i64) {
        loop {
            match self.st {
                St::Open { retry_after, .. } if self.c.automatic && retry_after <= now => {
                    self.transition_to_half_open(retry_after)
                }
                St::HalfOpen { until: Some(u), .. } if u <= now => {
                    if self.c.after_wait_closed {
                        self.transition_to_closed(u)
                    } else {
                        self.transition_to_open(u)
                    }
                }
                _ => break,
            }
        }
    }

    /// `tryAcquirePermission`: `Some(half-open instance)` if admitted.
    fn try_acquire(&mut self, now: i64) -> Option<Option<u64>> {
        self.transitions.clear();
        self.run_scheduled(now);
        if let St::Open { retry_after, .. } = self.st {
            // `clock.instant().isAfter(retryAfterWaitDuration)`; here `>=`, the crate's documented
            // difference, met when a doubled wait lands on a call's tick.
            if now >= retry_after {
                self.transition_to_half_open(now);
            } else {
                return None;
            }
        }
        match &mut self.st {
            St::Closed(_) => Some(None),
            St::HalfOpen {
                permitted,
                instance,
                ..
            } => {
                if *permitted > 0 {
                    *permitted -= 1;
                    Some(Some(*instance))
                } else {
                    None
                }
            }
            St::Open { .. } => unreachable!(),
        }
    }

    fn poll(&mut self, now: i64) {
        self.transitions.clear();
        self.run_scheduled(now);
    }

    /// `onSuccess` / `onError` / an ignored error's `releasePermission`. The driver's rule: a
    /// neutral result in half-open from a call that is not one of its probes is made a success;
    /// the outcome used is returned.
    fn on_result(
        &mut self,
        mut outcome: Outcome,
        probe_of: Option<u64>,
        issued: i64,
        now: i64,
    ) -> Outcome {
        self.transitions.clear();
        self.run_scheduled(now);
        if let St::HalfOpen { instance, .. } = self.st {
            if outcome == Outcome::InputRejected && probe_of != Some(instance) {
                outcome = Outcome::Success;
            }
        }
        let failed = match outcome {
            Outcome::Success => false,
            Outcome::InputRejected => {
                if let St::HalfOpen { permitted, .. } = &mut self.st {
                    *permitted += 1;
                }
                return outcome;
            }
            _ => true,
        };
        let duration = now - issued;
        match &mut self.st {
            St::Closed(m) => {
                if m.on_result(failed, duration, now) == Verdict::Above {
                    self.transition_to_open(now);
                }
            }
            St::Open { metrics, .. } => {
                metrics.on_result(failed, duration, now);
            }
            St::HalfOpen {
                metrics, instance, ..
            } => {
                if probe_of != Some(*instance) {
                    self.late_in_half_open += 1;
                }
                match metrics.on_result(failed, duration, now) {
                    Verdict::Above => self.transition_to_open(now),
                    Verdict::Below => self.transition_to_closed(now),
                    Verdict::BelowMinimum => {}
                }
            }
        }
        outcome
    }
}

struct Held {
    permit: Permit,
    issued: i64,
    instance: Option<u64>,
}

fn settings_of(c: &Config) -> WindowSettings {
    WindowSettings {
        sliding_window_type: if c.count_based {
            SlidingWindowType::CountBased
        } else {
            SlidingWindowType::TimeBased
        },
        sliding_window_size: c.size as u32,
        minimum_number_of_calls: c.minimum as u32,
        failure_rate_threshold: f64::from(c.failure_pct) / 100.0,
        slow_call_rate_threshold: f64::from(c.slow_pct) / 100.0,
        slow_call_duration_threshold: secs(c.slow_ticks),
        wait_duration_in_open_state: secs(c.wait_ticks),
        wait_interval_multiplier: c.multiplier as f64,
        max_wait_duration_in_open_state: secs(c.cap_ticks),
        permitted_number_of_calls_in_half_open_state: c.permitted as u32,
        max_wait_duration_in_half_open_state: secs(c.half_open_max_ticks),
        transition_to_state_after_wait_duration: if c.after_wait_closed {
            AfterHalfOpenWait::Closed
        } else {
            AfterHalfOpenWait::Open
        },
        automatic_transition_from_open_to_half_open_enabled: c.automatic,
        ..WindowSettings::default()
    }
}

fn odd_ticks(rng: &mut SplitMix64, lo_s: i64, hi_s: i64) -> i64 {
    let lo = lo_s * TICKS_PER_SECOND;
    let hi = hi_s * TICKS_PER_SECOND;
    (lo + rng.below((hi - lo) as u64) as i64) | 1
}

#[test]
fn the_window_breaker_follows_resilience4js_state_machine() {
    let mut rng = SplitMix64(2024);
    let mut steps = 0;
    let mut transitions = 0;
    // Late results recorded in a half-open, summed over the cases (each case's final count).
    let mut late = 0;
    for case in 0..600 {
        let c = Config {
            count_based: case % 2 == 0,
            size: 1 + rng.below(12) as usize,
            minimum: 1 + rng.below(14) as i64,
            failure_pct: [20.0, 25.0, 50.0, 100.0][rng.below(4) as usize],
            slow_pct: [30.0, 50.0, 100.0][rng.below(3) as usize],
            slow_ticks: odd_ticks(&mut rng, 0, 2),
            wait_ticks: odd_ticks(&mut rng, 1, 4),
            multiplier: 1 + rng.below(2) as i64,
            cap_ticks: if rng.below(2) == 0 {
                0
            } else {
                odd_ticks(&mut rng, 4, 12)
            },
            permitted: 1 + rng.below(5) as i64,
            half_open_max_ticks: if rng.below(2) == 0 {
                0
            } else {
                odd_ticks(&mut rng, 1, 6)
            },
            after_wait_closed: rng.below(3) == 0,
            automatic: rng.below(2) == 0,
        };
        let mut model = Model::new(c.clone());
        let mut b = Window::new(settings_of(&c)).unwrap();
        let mut held: Vec<Held> = Vec::new();
        let mut now: i64 = 0;
        let mut log: Vec<String> = Vec::new();
        macro_rules! ctx {
            ($step:expr) => {
                format!(
                    "case {case} step {} {c:?}\n{}",
                    $step,
                    log[log.len().saturating_sub(25)..].join("\n")
                )
            };
        }
        for step in 0..500 {
            // Even ticks, at most 0.6 s apart: at most one time rule falls due between calls.
            now += 2 * rng.below(601) as i64;
            let t = secs(now);
            match rng.below(10) {
                0..=3 => {
                    let m = model.try_acquire(now);
                    match (b.permit(t), m) {
                        (Decision::Admit(permit), Some(instance)) => {
                            log.push(format!("{t}: admit {} {:?}", permit.id, instance));
                            held.push(Held {
                                permit,
                                issued: now,
                                instance,
                            })
                        }
                        (Decision::Reject(_), None) => log.push(format!("{t}: reject")),
                        (d, m) => panic!("{}: crate {d:?}, resilience4j {m:?}", ctx!(step)),
                    }
                }
                4 => {
                    model.poll(now);
                    b.poll(t);
                    log.push(format!("{t}: poll"));
                }
                _ if !held.is_empty() => {
                    let h = held.swap_remove(rng.below(held.len() as u64) as usize);
                    let o = [
                        Outcome::Success,
                        Outcome::ServerError,
                        Outcome::InputRejected,
                    ][rng.below(3) as usize];
                    let o = model.on_result(o, h.instance, h.issued, now);
                    let r = b.record(&h.permit, o, t);
                    log.push(format!(
                        "{t}: record {:?} issued {} {o:?} -> {r:?} model {:?}",
                        h.permit.id,
                        secs(h.issued),
                        model.state()
                    ));
                }
                _ => {}
            }
            steps += 1;
            let got: Vec<(State, State, f64)> = b
                .transitions()
                .iter()
                .map(|x| (x.from, x.to, x.at))
                .collect();
            assert_eq!(
                got.len(),
                model.transitions.len(),
                "{}: {got:?} vs {:?}",
                ctx!(step),
                model.transitions
            );
            for (g, m) in got.iter().zip(&model.transitions) {
                assert_eq!((g.0, g.1), (m.0, m.1), "{}", ctx!(step));
                assert!(
                    (g.2 - secs(m.2)).abs() < 1e-9,
                    "{}: at {} vs {}",
                    ctx!(step),
                    g.2,
                    secs(m.2)
                );
            }
            transitions += got.len();
            assert_eq!(b.state(), model.state(), "{}", ctx!(step));
            assert_eq!(b.attempt(), model.attempts(), "{}", ctx!(step));
            assert_eq!(
                b.late_in_half_open(),
                model.late_in_half_open,
                "{}",
                ctx!(step)
            );
            if let St::HalfOpen { permitted, .. } = model.st {
                assert_eq!(i64::from(b.probes_available()), permitted, "{}", ctx!(step));
            }
            let s = model.metrics().window.snapshot(now);
            assert_eq!(
                (
                    i64::from(b.calls_in_window(t)),
                    i64::from(b.failed_calls_in_window(t)),
                    i64::from(b.slow_calls_in_window(t))
                ),
                (s.calls, s.failed, s.slow),
                "{}",
                ctx!(step)
            );
        }
        late += model.late_in_half_open;
    }
    assert!(
        steps > 100_000 && transitions > 5_000 && late > 500,
        "{steps} {transitions} {late}"
    );
}
