//! The bare loop: the practical limit a full run is measured against (`cargo xtask bench`).
//!
//! It plays the same arrivals and draws the same dependency outcomes as a run of the scenario
//! (the same generators and the same draws per call, in the same order), and does one
//! CUSUM update per call against a fixed line (the line at the scenario's nominal traffic). It
//! has no breakers, no calls in flight, no events, no series: what is left when the simulator
//! does nothing but draw and score. A full run within 2x of it is the target (issue 8).

use breaker::score::Weights;
use breaker::Class;

use crate::engine::{Dependency, Source};
use crate::scenario::{phase_index, Scenario};
use crate::traffic::Generator;

/// What a bare loop did (returned so the work cannot be optimized away).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bare {
    /// Calls played.
    pub calls: u64,
    /// Times the score reached the line (then reset to 0).
    pub alarms: u64,
    /// The score at the end (nats).
    pub score: f64,
}

/// Play `scenario`'s generated traffic (a trace is ignored) through the bare loop. For a
/// validated scenario, as the bench gives it: with no phase it panics, with a `NaN` duration it
/// never ends.
pub fn bare_loop(scenario: &Scenario) -> Bare {
    let st = &scenario.statistical;
    let d = st.derived();
    let w: Weights = d.weights;
    let line = d.line(
        scenario.traffic.calls_per_minute / 60.0,
        st.false_alarm_period,
    );
    let end = scenario.duration;
    let timeout = scenario.callers.call_timeout;
    let phases = &scenario.dependency;
    let mut src = Generator::new(scenario);
    let mut dep = Dependency::new(scenario.seed);
    let mut out = Bare {
        calls: 0,
        alarms: 0,
        score: 0.0,
    };
    while let Ok(Some(a)) = src.next_arrival() {
        if a.t > end {
            break;
        }
        out.calls += 1;
        let phase = &phases[phase_index(phases, a.t)];
        let drawn = dep.draw(phase, out.calls, timeout);
        let wt = match drawn.outcome.class() {
            Class::Failure => w.fail,
            Class::Success => w.ok,
            Class::Neutral => continue,
        };
        out.score = (out.score + wt).max(0.0);
        if out.score >= line {
            out.alarms += 1;
            out.score = 0.0;
        }
    }
    out
}
