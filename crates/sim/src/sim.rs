//! The stepping simulator the page drives: one call, the next transition, a time; scrubbing back
//! through checkpoints; chunked runs with progress.

use std::io::BufRead;
use std::sync::Arc;

use breaker::Breaker;

use crate::engine::{Arrival, Engine, Source, Stepped};
use crate::output::{BreakerKind, Breakers, Event, RunResult, Snapshot};
use crate::scenario::Scenario;
use crate::trace::{scan_trace, TextCursor, TraceError, TraceReader, TraceSpan};
use crate::traffic::Generator;
use crate::SimError;

#[derive(Debug, Clone)]
enum Src {
    Generated(Generator),
    Text(TextCursor),
}

impl Source for Src {
    fn next_arrival(&mut self) -> Result<Option<Arrival>, TraceError> {
        match self {
            Src::Generated(g) => g.next_arrival(),
            Src::Text(c) => Ok(c.next_record()?.map(Arrival::from)),
        }
    }
}

impl<R: BufRead> Source for TraceReader<R> {
    fn next_arrival(&mut self) -> Result<Option<Arrival>, TraceError> {
        Ok(self.next_record()?.map(Arrival::from))
    }
}

#[derive(Debug, Clone)]
struct Checkpoint {
    engine: Engine,
    src: Src,
}

/// Default calls between checkpoints at the start (the spacing doubles as they thin out).
pub const DEFAULT_CHECKPOINT_EVERY: u64 = 256;
/// Default most checkpoints kept.
pub const DEFAULT_MAX_CHECKPOINTS: usize = 64;
/// Most bytes a simulation's checkpoints hold together beyond their fixed size: 96 MiB. Each
/// checkpoint copies the queue at its time, two entries a call in flight (one per breaker; 48
/// bytes, 56 for one out of time order, kept with its sequence number) and the breakers' deadlines
/// (a superseded one stays queued until its time), and every window breaker's outcomes (a byte a
/// call of a count window, 32 bytes a second of a time window, up to its size). So a run keeps
/// every checkpoint it would keep anyway up to 14,000 to 16,000 calls in flight with 64
/// checkpoints (3,500 to 4,000 with 256); with 50,000, 9 to 20 of them, and a seek replays up to
/// 2/9 of the run. (Until 2026-12-04 this counted queued entries only, 2^21 of them: a time
/// window of 1e6 s over busy-service's month held 32 MB in each of 64 checkpoints, and the page's
/// wasm ran out of its 4 GB. Until 2026-12-07 it counted 48 bytes for every entry, and the
/// checkpoints of 50,000 calls in flight, most out of order, held 112 MB.)
pub const MAX_CHECKPOINT_BYTES: usize = 96 << 20;

/// A deterministic run that can be stepped, scrubbed and finished.
///
/// Cloning is cheap relative to a run (the scenario's fixed parts and any trace text are shared),
/// which is what the checkpoints use.
///
/// Scrubbing: every `every` calls (256 at first) a checkpoint (a clone of the simulation) is kept;
/// when more than `max` (64) are held, or what they hold beyond their fixed size (queued
/// results and deadlines, window breakers' outcomes) passes [`MAX_CHECKPOINT_BYTES`], every
/// other one is dropped and the spacing doubles (down to
/// two: the one at 0 and one more). So a run of `C` calls holds at most `max + 1` checkpoints,
/// spaced at most `2 C / max` calls apart while few calls are in flight, and [`Sim::seek`] to any
/// time costs one clone plus replaying at most that many calls. With many calls in flight the
/// cap decides instead: `k` checkpoints fit, spaced up to `2 C / k` apart, and with a checkpoint
/// alone past the cap (over about 1M calls in flight) a seek may replay up to the whole run.
/// Memory: `O(events + max x callers)` plus at most about 100 MB of queued entries beside one
/// checkpoint's, never per call: the checkpoints share the run's events, see
/// [`crate::EventLog`]. Checkpoints are only taken while stepping into time not seen before.
/// (Without the cap, about 50,000 calls in flight held 436 MB in 43 checkpoints, and a million,
/// the most a run may have, would pass the 4 GB a page's wasm can address.)
#[derive(Debug, Clone)]
pub struct Sim {
    engine: Engine,
    src: Src,
    checkpoints: Vec<Checkpoint>,
    every: u64,
    max: usize,
    /// A collecting copy that keeps checkpoints too ([`Sim::with_checkpoints`]).
    keep: bool,
}

impl Sim {
    /// A simulation of `scenario` at time 0. The scenario is validated; a trace in
    /// `scenario.trace` is checked whole here (so stepping never fails) and replaces the
    /// generated traffic; the run then ends at the trace's last call.
    pub fn new(scenario: &Scenario) -> Result<Sim, SimError> {
        // The trace is read before the settings are checked (over its span, from its first call
        // to its last: the window breaker's clock can go round only once a call opened it).
        let (end, span) = match &scenario.trace {
            Some(text) => {
                let t = scan_trace(text.as_bytes()).map_err(SimError::Trace)?;
                (t.last_s, t.last_s - t.first_s)
            }
            None => (scenario.duration, scenario.duration),
        };
        let engine = Engine::new(scenario, end, span)?;
        let src = match &scenario.trace {
            Some(text) => Src::Text(TextCursor::new(Arc::from(text.as_str()))),
            None => Src::Generated(Generator::new(scenario)),
        };
        let mut sim = Sim {
            engine,
            src,
            checkpoints: Vec::new(),
            every: DEFAULT_CHECKPOINT_EVERY,
            max: DEFAULT_MAX_CHECKPOINTS,
            keep: false,
        };
        let c = sim.checkpoint();
        sim.checkpoints.push(c);
        Ok(sim)
    }

    /// Change the checkpoint spacing (calls) and the most kept (at least 2), from now on.
    pub fn set_checkpoints(&mut self, every: u64, max: usize) {
        self.every = every.max(1);
        self.max = max.max(2);
    }

    /// A clone of the simulation, without series (a collecting copy's buckets are not kept).
    fn checkpoint(&mut self) -> Checkpoint {
        let series = (
            self.engine.stat.series.take(),
            self.engine.win.series.take(),
        );
        let c = Checkpoint {
            engine: self.engine.clone(),
            src: self.src.clone(),
        };
        (self.engine.stat.series, self.engine.win.series) = series;
        c
    }

    fn maybe_checkpoint(&mut self) {
        let calls = self.engine.calls;
        let last = self.checkpoints.last().map(|c| c.engine.calls).unwrap_or(0);
        if calls % self.every != 0 || calls <= last {
            return;
        }
        let c = self.checkpoint();
        self.checkpoints.push(c);
        let held = |cs: &[Checkpoint]| cs.iter().map(|c| c.engine.held_bytes()).sum::<usize>();
        while self.checkpoints.len() > 2
            && (self.checkpoints.len() > self.max || held(&self.checkpoints) > MAX_CHECKPOINT_BYTES)
        {
            self.every = self.every.saturating_mul(2);
            let every = self.every;
            self.checkpoints.retain(|c| c.engine.calls % every == 0);
        }
    }

    fn step(&mut self) -> Stepped {
        // A trace held in memory was checked whole in `new`, so an error cannot happen here;
        // if it did, the run simply ends.
        let s = self.engine.step(&mut self.src).unwrap_or(Stepped::Done);
        self.stepped(s)
    }

    /// [`Sim::step`] until a call has arrived (or the run is over): [`Engine::step_to_call`].
    fn step_to_call(&mut self) -> Stepped {
        let s = self
            .engine
            .step_to_call(&mut self.src)
            .unwrap_or(Stepped::Done);
        self.stepped(s)
    }

    /// After a step: a checkpoint when a call arrived.
    #[inline(always)]
    fn stepped(&mut self, s: Stepped) -> Stepped {
        if s == Stepped::Arrival && (self.engine.stat.series.is_none() || self.keep) {
            self.maybe_checkpoint();
        }
        s
    }

    /// Advance until the next call has arrived and both breakers have decided on it (results
    /// and deadlines before it are processed on the way), then process the results and deadlines
    /// due at that same instant (a zero-latency answer), so a step shows what seeking to the
    /// call's time shows. Returns false if the run was over.
    pub fn step_call(&mut self) -> bool {
        loop {
            match self.step() {
                Stepped::Arrival => break,
                Stepped::Done => return false,
                _ => {}
            }
        }
        let now = self.now_s();
        while self.engine.queued_due(now) {
            self.step();
        }
        true
    }

    /// Go to the state [`Sim::step_call`] leaves after call `n` (0: the start, no call yet):
    /// restore the latest checkpoint from before that call (a checkpoint taken at a call's
    /// arrival precedes the results due at the same instant) and step calls up to it. Going
    /// forward from before `n` steps on from here. A collecting copy does not go back.
    pub fn seek_call(&mut self, n: u64) {
        if self.engine.stat.series.is_none() {
            let i = self
                .checkpoints
                .iter()
                .rposition(|c| c.engine.calls < n)
                .unwrap_or(0);
            if let Some(c) = self.checkpoints.get(i) {
                if n <= self.engine.calls || c.engine.calls > self.engine.calls {
                    self.restore(i);
                }
            }
        }
        while self.engine.calls < n && self.step_call() {}
    }

    /// Back to checkpoint `i` (one copy of the clone code for every way back).
    #[inline(never)]
    fn restore(&mut self, i: usize) {
        if let Some(c) = self.checkpoints.get(i) {
            self.engine = c.engine.clone();
            self.src = c.src.clone();
        }
    }

    /// One call back, the inverse of [`Sim::step_call`]: to the state it left after the last
    /// call if the clock has moved on since (a seek or an event between calls), else after the
    /// call before it (the start, before the first).
    pub fn step_back(&mut self) {
        let target = match &self.engine.last {
            Some(c) if self.engine.now > c.t_s => c.index,
            Some(c) => c.index - 1,
            None => 0,
        };
        self.seek_call(target);
    }

    /// Advance until either breaker changes state, then through the rest of that instant (so
    /// the cursor shows what seeking to its time shows); returns the change that stopped it, or
    /// `None` if the run ended without one. Each instant with a change is visited once, in time
    /// order (the time a change was asked for: with a shared state, its event gives the time it
    /// had the lock, see [`crate::Callers::lock_hold`]). When one step changes both breakers
    /// (one call half-opens both), the earlier event is returned, at one time the statistical
    /// breaker's.
    pub fn next_event(&mut self) -> Option<Event> {
        self.next_event_by(f64::INFINITY)
    }

    /// [`Sim::next_event`], looking no further than `limit`: with no state change at or before
    /// it, the clock stops at `limit` (as [`Sim::run_until`]) and `None` is returned. The page
    /// passes the time a cancelled run reached, so "Next event" never computes past the part
    /// it shows.
    pub fn next_event_by(&mut self, limit: f64) -> Option<Event> {
        let (s0, w0) = (self.engine.stat.events.len(), self.engine.win.events.len());
        loop {
            if limit < f64::INFINITY
                && !matches!(self.engine.peek(&mut self.src), Ok(Some(next)) if next <= limit)
            {
                self.run_until(limit);
                return None;
            }
            if self.step() == Stepped::Done {
                return None;
            }
            let s = self.engine.stat.events.get(s0).copied();
            let w = self.engine.win.events.get(w0).copied();
            if s.is_some() || w.is_some() {
                self.run_until(self.engine.now);
            }
            match (s, w) {
                (Some(a), Some(b)) => return Some(if b.t_s < a.t_s { b } else { a }),
                (Some(a), None) => return Some(a),
                (None, Some(b)) => return Some(b),
                (None, None) => {}
            }
        }
    }

    /// Process every event at or before `t`, then set the clock to `t` (at most the end).
    pub fn run_until(&mut self, t: f64) {
        while let Ok(Some(next)) = self.engine.peek(&mut self.src) {
            if next > t {
                break;
            }
            self.step();
        }
        let t = t.min(self.engine.end);
        if t > self.engine.now {
            self.engine.now = t;
        }
    }

    /// Go to time `t`, backwards or forwards: restore the latest checkpoint at or before `t`
    /// (going back, or going forward when that checkpoint is ahead of the current position, e.g.
    /// one adopted with [`Sim::adopt_checkpoints`]) and replay from it (see the type's docs for
    /// the cost). The state reached is the same either way.
    pub fn seek(&mut self, t: f64) {
        // A collecting copy cannot go back (its buckets are not checkpointed): it only goes on.
        if self.engine.stat.series.is_none() {
            let i = self
                .checkpoints
                .iter()
                .rposition(|c| c.engine.now <= t)
                .unwrap_or(0);
            if let Some(c) = self.checkpoints.get(i) {
                if t < self.engine.now || c.engine.calls > self.engine.calls {
                    self.restore(i);
                }
            }
        }
        self.run_until(t);
    }

    /// Back to time 0 (keeps the checkpoints).
    pub fn restart(&mut self) {
        self.restore(0);
    }

    /// Advance by at most `max_calls` arrivals (and everything between them); returns whether
    /// the run is over. A web worker calls this in chunks, reporting [`Sim::progress`] between
    /// them and stopping when cancelled.
    pub fn advance(&mut self, max_calls: u64) -> bool {
        let mut calls = 0;
        while calls < max_calls {
            // Natively a call at a time: the queue, both sides and the call inline into this
            // loop (1334 -> 1262 instructions a call, callgrind). In wasm an event at a time:
            // the per-call loop ran 2.4% slower in V8 (node, busy month; see Engine::step).
            let s = if cfg!(target_arch = "wasm32") {
                self.step()
            } else {
                self.step_to_call()
            };
            match s {
                Stepped::Arrival => calls += 1,
                Stepped::Done => return true,
                _ => {}
            }
        }
        self.is_done()
    }

    /// Whether every event up to the end has been processed.
    pub fn is_done(&self) -> bool {
        self.engine.is_done()
    }

    /// How far the run is, 0..=1 (by time).
    pub fn progress(&self) -> f64 {
        let end = self.engine.end;
        if self.is_done() || end <= 0.0 {
            1.0
        } else {
            (self.engine.now / end).clamp(0.0, 1.0)
        }
    }

    /// The current time (s).
    pub fn now_s(&self) -> f64 {
        self.engine.now
    }

    /// When the scenario ends (s). A run cut short ends sooner, at [`Sim::cut_at_s`] (and
    /// [`RunResult::end_s`] says so); series and progress are over the scenario's time.
    pub fn end_s(&self) -> f64 {
        self.engine.cfg.end
    }

    /// Calls so far.
    pub fn calls(&self) -> u64 {
        self.engine.calls
    }

    /// Checkpoints held (for tests and memory reports).
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// One breaker's events so far.
    pub fn events(&self, kind: BreakerKind) -> &crate::EventLog {
        match kind {
            BreakerKind::Statistical => &self.engine.stat.events,
            BreakerKind::Window => &self.engine.win.events,
        }
    }

    /// The state now.
    pub fn snapshot(&self) -> Snapshot {
        let now = self.engine.now;
        Snapshot {
            t_s: now,
            calls: self.engine.calls,
            done: self.is_done(),
            statistical: self.engine.stat.copies[0].breaker.observe(now),
            window: self.engine.win.copies[0].breaker.observe(now),
            last_call: self.engine.last,
            events: [self.engine.stat.events.len(), self.engine.win.events.len()],
        }
    }

    /// The result so far: metrics and events up to now (the metrics of the part computed, as a
    /// run ending there: [`Sim::known_to`]); series only on a collecting copy
    /// ([`Sim::collecting`]).
    pub fn result(&self) -> RunResult {
        let cfg = &self.engine.cfg;
        let in_flight = self.engine.in_flight();
        let known = self.engine.known_to();
        RunResult {
            name: cfg.name.clone(),
            seed: cfg.seed,
            end_s: self.engine.end,
            cut_at_s: self.engine.cut_at,
            calls: self.engine.calls,
            breakers: Breakers {
                statistical: self.engine.stat.result_of(cfg, known, in_flight[0], known),
                window: self.engine.win.result_of(cfg, known, in_flight[1], known),
            },
        }
    }

    /// One breaker's metrics, totals and caller 0's changes so far: [`Sim::result`]'s, without
    /// copying the events and series (a month with a flapping window has hundreds of thousands
    /// of events).
    pub fn summary(&self, kind: BreakerKind) -> (crate::Metrics, crate::Totals, crate::Changes) {
        let cfg = &self.engine.cfg;
        let in_flight = self.engine.in_flight()[kind as usize];
        // The metrics of the part computed (the end once done): outages after it are none of
        // its own, as for a run that ended there.
        let known = self.engine.known_to();
        match kind {
            BreakerKind::Statistical => self.engine.stat.summary_of(cfg, known, in_flight),
            BreakerKind::Window => self.engine.win.summary_of(cfg, known, in_flight),
        }
    }

    /// The SHA-256 of this simulation's events so far: [`crate::trace_hash`] of its result,
    /// without copying the result.
    pub fn trace_hash(&self) -> String {
        crate::output::hash_events([
            self.engine.stat.events.parts(),
            self.engine.win.events.parts(),
        ])
    }

    /// A fresh copy from time 0 that collects series in `buckets` buckets over `[t0, t1]`
    /// (and keeps no checkpoints): drive it with [`Sim::advance`], then take [`Sim::result`].
    /// Unchecked: `t0 < t1`, both finite, and `buckets` from 1 (0 reads as 1) to what memory
    /// holds, 36 columns of it (the command line takes up to 1e5, the page 2e4).
    pub fn collecting(&self, buckets: usize, t0: f64, t1: f64) -> Sim {
        self.copy_from(0, |e| e.enable_series(buckets, t0, t1))
    }

    /// A copy starting at checkpoint `i`, set up by `setup`, keeping no checkpoints.
    fn copy_from(&self, i: usize, setup: impl FnOnce(&mut Engine)) -> Sim {
        let c = &self.checkpoints[i];
        let mut engine = c.engine.clone();
        setup(&mut engine);
        Sim {
            engine,
            src: c.src.clone(),
            checkpoints: vec![],
            every: u64::MAX,
            max: 2,
            keep: false,
        }
    }

    /// Let a collecting copy ([`Sim::collecting`]) keep checkpoints as it goes (without its
    /// series), like a plain simulation: every `every` calls at first, at most `max` (the
    /// spacing doubles as they thin out). Then [`Sim::collecting_from_checkpoint`] on it can
    /// collect any range without replaying from time 0. It still cannot seek back itself.
    pub fn with_checkpoints(mut self, every: u64, max: usize) -> Sim {
        self.keep = true;
        self.set_checkpoints(every, max);
        if self.checkpoints.is_empty() {
            let c = self.checkpoint();
            self.checkpoints.push(c);
        }
        self
    }

    /// Like [`Sim::collecting`] (series in `buckets` buckets over `[t0, t1]`, no checkpoints),
    /// but starting from the latest checkpoint before `t0` instead of time 0, so collecting a
    /// late range replays only from that checkpoint. The series come out exactly as a copy from
    /// time 0 collects them over the same range: the values carried into the first buckets are
    /// the last ones sampled before the checkpoint, and the checkpoint is early enough that
    /// nothing before it was sampled or counted at `t0` or later (with shared state, a change
    /// applies up to `callers.lock_timeout` after its event, so that much earlier).
    ///
    /// Uses this simulation's checkpoints (those taken so far: a plain simulation's as it
    /// stepped, a collecting one's with [`Sim::with_checkpoints`]); drive the copy with
    /// [`Sim::run_until`]`(t1)` or [`Sim::advance`], then take [`Sim::result`] or
    /// [`Sim::series`].
    pub fn collecting_from_checkpoint(&self, buckets: usize, t0: f64, t1: f64) -> Sim {
        self.copy_from(self.checkpoint_for(t0), |e| {
            e.enable_series_resumed(buckets, t0, t1)
        })
    }

    /// Take `other`'s checkpoints if they reach further into the run than this simulation's own
    /// (`other` must come from the same [`Sim::new`], e.g. a collecting copy of this one that
    /// kept checkpoints and ran ahead): [`Sim::seek`] then replays only from the checkpoint
    /// nearest `t`, however far this simulation has been. Returns whether they were taken (not
    /// when the runs differ, when this is a collecting copy, or when its own reach as far).
    pub fn adopt_checkpoints(&mut self, other: &Sim) -> bool {
        let reach = |s: &Sim| s.checkpoints.last().map_or(0, |c| c.engine.calls);
        if !Arc::ptr_eq(&self.engine.cfg, &other.engine.cfg)
            || self.engine.stat.series.is_some()
            || reach(other) <= reach(self)
        {
            return false;
        }
        self.checkpoints.clone_from(&other.checkpoints);
        self.every = other.every;
        self.max = other.max;
        true
    }

    /// The time of the checkpoint [`Sim::collecting_from_checkpoint`] would start from for a
    /// range starting at `t0` (s).
    pub fn checkpoint_before(&self, t0: f64) -> f64 {
        self.checkpoints
            .get(self.checkpoint_for(t0))
            .map_or(0.0, |c| c.engine.now)
    }

    /// The latest checkpoint from which a series over a range starting at `t0` comes out as
    /// from time 0: the first (time 0, nothing sampled yet) or one whose events all sampled and
    /// counted before `t0`.
    fn checkpoint_for(&self, t0: f64) -> usize {
        let cfg = &self.engine.cfg;
        let slack = if cfg.shared { cfg.lock_timeout } else { 0.0 };
        self.checkpoints
            .iter()
            .rposition(|c| c.engine.calls == 0 || c.engine.now + slack < t0)
            .unwrap_or(0)
    }

    /// One breaker's series so far (empty unless this is a collecting copy) as [`Sim::result`]
    /// gives it, without copying the events: filled up to [`Sim::known_to`]; in the buckets after
    /// the one holding it (a run not computed to its end) every count is NaN, not a guess, and
    /// so is every value but one sampled ahead of the clock: with shared state, a change is
    /// sampled at its lock time, up to the lock timeout later (the bucket holding `known_to` has
    /// the part computed).
    pub fn series(&self, kind: BreakerKind) -> crate::Series {
        let side = match kind {
            BreakerKind::Statistical => self.engine.stat.series.as_ref(),
            BreakerKind::Window => self.engine.win.series.as_ref(),
        };
        side.cloned()
            .map(|s| s.finish(self.engine.known_to()))
            .unwrap_or_default()
    }

    /// The time up to which this simulation is computed: the run's end once it is done, else
    /// its clock ([`Sim::run_until`] moves the clock to its `t`).
    pub fn known_to(&self) -> f64 {
        self.engine.known_to()
    }

    /// The whole run from time 0 (whatever this simulation's position), with series in
    /// `buckets` buckets over `[0, end]`.
    pub fn run_to_end(&self, buckets: usize) -> RunResult {
        self.run_to_end_reporting(buckets, u64::MAX, |_| {})
    }

    /// [`Sim::run_to_end`], calling `report` with the simulation after every `every` calls
    /// (not after the last chunk): for a progress display ([`Sim::progress`], [`Sim::calls`]).
    /// The result is the same whatever `every` is.
    pub fn run_to_end_reporting(
        &self,
        buckets: usize,
        every: u64,
        mut report: impl FnMut(&Sim),
    ) -> RunResult {
        // On the heap, not the stack: the queue's header then sits at a fixed distance from the
        // queue's entries, not at one that moves with the size of the process's environment.
        // On the stack, a 4 KiB alias between the two stalled every call's loads on the last
        // store for some launch paths (the same binary ran 7.1M or 11.3M calls/s).
        let mut s = Box::new(self.collecting(buckets, 0.0, self.end_s()));
        while !s.advance(every.max(1)) {
            report(&s);
        }
        s.into_result()
    }

    /// [`Sim::result`], taking the series rather than copying them (see `Engine::into_result`).
    fn into_result(self) -> RunResult {
        self.engine.into_result()
    }

    /// When the run was cut short, if it was: a breaker changed state
    /// [`MAX_EVENTS`](crate::MAX_EVENTS) times ([`RunResult::cut_at_s`]).
    pub fn cut_at_s(&self) -> Option<f64> {
        self.engine.cut_at
    }
}

/// Run `scenario` to the end, collecting series in `buckets` buckets over the whole run
/// (from 1, 0 reading as 1, to what memory holds: see [`Sim::collecting`]).
pub fn run(scenario: &Scenario, buckets: usize) -> Result<RunResult, SimError> {
    Ok(Sim::new(scenario)?.run_to_end(buckets))
}

/// Replay a trace read from `reader`, streaming: one line is held at a time, so memory stays
/// bounded by buckets + events whatever the trace's length. `span` is what
/// [`crate::scan_trace`] found on a first pass: the run ends at its last call, series cover
/// `[0, last_s]`, and the settings are validated over its first call to its last.
/// `scenario.trace` is ignored.
pub fn replay<R: BufRead>(
    scenario: &Scenario,
    reader: R,
    span: &TraceSpan,
    buckets: usize,
) -> Result<RunResult, SimError> {
    let end_s = span.last_s;
    let mut engine = Engine::new(scenario, end_s, end_s - span.first_s)?;
    engine.enable_series(buckets, 0.0, end_s);
    let mut src = TraceReader::new(reader);
    while engine.step(&mut src)? != Stepped::Done {}
    Ok(engine.into_result())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// bad-day with a window of 2 calls that waits 1 s open, so it flaps (thousands of events):
    /// a simulation at time 0, and a collecting copy run to the end that kept up to `max`
    /// checkpoints at the default spacing.
    fn flapping(max: usize) -> (Sim, Sim) {
        let mut sc = crate::preset("bad-day").unwrap();
        sc.window.sliding_window_size = 2;
        sc.window.minimum_number_of_calls = 2;
        sc.window.wait_duration_in_open_state = 1.0;
        let base = Sim::new(&sc).unwrap();
        let mut full = base
            .collecting(600, 0.0, base.end_s())
            .with_checkpoints(DEFAULT_CHECKPOINT_EVERY, max);
        full.advance(u64::MAX);
        (base, full)
    }

    /// The checkpoints of a run that changes state a lot share its events instead of copying
    /// them: each holds at most one chunk of events of its own, whatever the run's count (they
    /// held a copy of every event before them: 1.7 GB for a month of a window that flaps).
    #[test]
    fn checkpoints_share_the_events() {
        let (_, full) = flapping(256);
        let total = full.engine.win.events.len();
        assert!(total > 5_000, "{total} events");
        assert!(full.checkpoints.len() > 50);
        for c in &full.checkpoints {
            for (mine, theirs) in [
                (&full.engine.stat.events, &c.engine.stat.events),
                (&full.engine.win.events, &c.engine.win.events),
            ] {
                let own = theirs.len() - theirs.shared_with(mine);
                assert!(own < 1024, "a checkpoint holds {own} events of its own");
            }
        }
    }

    /// Going forward to a call or a time past an adopted checkpoint (the one before the last)
    /// starts from that checkpoint rather than stepping on from where the simulation is (time 0
    /// here): the engine then shares every full chunk of the checkpoint's events (it is a clone
    /// of it), where stepping would have shared none.
    #[test]
    fn going_forward_starts_from_an_adopted_checkpoint_ahead() {
        let (base, full) = flapping(16);
        let ahead = full.checkpoints[full.checkpoints.len() - 2].engine.clone();
        let own = ahead.win.events.shared_with(&ahead.win.events);
        assert!(own >= 2048, "{own} events in full chunks");
        let by_call = |sim: &mut Sim| sim.seek_call(ahead.calls + 1);
        let by_time = |sim: &mut Sim| sim.seek(ahead.now + 1.0);
        for (how, go) in [("call", &by_call as &dyn Fn(&mut Sim)), ("time", &by_time)] {
            let mut sim = base.clone();
            assert!(sim.adopt_checkpoints(&full));
            go(&mut sim);
            assert!(sim.calls() > ahead.calls, "{how}");
            assert_eq!(
                sim.engine.win.events.shared_with(&ahead.win.events),
                own,
                "{how}"
            );
            let mut stepped = base.clone();
            go(&mut stepped);
            assert_eq!(stepped.engine.win.events.shared_with(&ahead.win.events), 0);
            assert_eq!(
                serde_json::to_string(&sim.snapshot()).unwrap(),
                serde_json::to_string(&stepped.snapshot()).unwrap(),
                "{how}"
            );
        }
    }

    /// The checkpoints' schedule as the type's docs give it, worked by hand for one every 10
    /// calls and at most 4, few calls in flight (so the bytes' cap plays no part): one at 0,
    /// one at each 10th call up to 4 (0, 10, 20, 30); a fifth (40) is one too many, so every
    /// other one goes and the spacing doubles (0, 20, 40); 60 makes 4, 80 a fifth again (0, 40,
    /// 80), 120 makes 4, 160 a fifth (0, 80, 160). Stepping back takes none.
    #[test]
    fn checkpoints_are_thinned_to_every_other_one_past_the_most() {
        let mut sim = Sim::new(&crate::preset("quiet-service").unwrap()).unwrap();
        sim.set_checkpoints(10, 4);
        let want: [(u64, &[u64]); 9] = [
            (9, &[0]),
            (10, &[0, 10]),
            (39, &[0, 10, 20, 30]),
            (40, &[0, 20, 40]),
            (79, &[0, 20, 40, 60]),
            (80, &[0, 40, 80]),
            (159, &[0, 40, 80, 120]),
            (160, &[0, 80, 160]),
            (239, &[0, 80, 160]),
        ];
        for (n, at) in want {
            while sim.calls() < n {
                assert!(sim.step_call());
            }
            let held: Vec<u64> = sim.checkpoints.iter().map(|c| c.engine.calls).collect();
            assert_eq!(held, at, "after {n} calls");
        }
        sim.seek_call(100);
        sim.step_back();
        assert_eq!(sim.calls(), 99);
        while sim.calls() < 239 {
            assert!(sim.step_call());
        }
        let held: Vec<u64> = sim.checkpoints.iter().map(|c| c.engine.calls).collect();
        assert_eq!(held, [0, 80, 160]);
    }

    /// The checkpoints of a run with many calls in flight hold at most
    /// [`MAX_CHECKPOINT_BYTES`] together (or are down to two), and a seek from
    /// them gives what stepping there gives: ten minutes at 1e5 calls/min with a minute of
    /// latency jitter (about 100,000 queued: 50,000 calls in flight, two entries each), where 43
    /// checkpoints held 436 MB (4.3M queued, and the taken slots before each queue's front).
    #[test]
    fn checkpoints_hold_a_bounded_number_of_calls_in_flight() {
        let mut sc = crate::preset("busy-service").unwrap();
        sc.duration = 600.0;
        sc.traffic.calls_per_minute = 1e5;
        sc.dependency[0].latency_jitter = 60.0;
        sc.callers.call_timeout = 1e4;
        let (sim, most) = within_the_cap(&sc, 1 << 16, |e| e.queued_len());
        assert!(most > 80_000, "{most} in flight at most");
        assert!(sim.checkpoints.len() >= 4, "{}", sim.checkpoints.len());
    }

    /// A window breaker's outcomes count against the checkpoints' cap too: a time window of
    /// 1e6 s over 4e5 s of a call a second holds a bucket for each of the 63% of seconds with a
    /// call, 8 MB, and 64 checkpoints of it 250 MB, with
    /// nothing queued to count (busy-service's month with such a window ran the page's wasm out
    /// of its 4 GB). A seek from the thinned checkpoints gives what stepping there gives.
    #[test]
    fn checkpoints_count_what_the_window_breakers_hold() {
        let mut sc = crate::preset("quiet-service").unwrap();
        sc.duration = 4e5;
        sc.traffic.calls_per_minute = 60.0;
        sc.traffic.daily_swing = 0.0;
        sc.window.sliding_window_type = breaker::SlidingWindowType::TimeBased;
        sc.window.sliding_window_size = 1_000_000;
        let (sim, most) = within_the_cap(&sc, 1 << 14, |e| e.held_bytes());
        assert!(most > 7_500_000, "{most} bytes at most");
        assert!(sim.checkpoints.len() >= 8, "{}", sim.checkpoints.len());
    }

    /// Play `sc` to the end `chunk` calls at a time with the default checkpoints, checking after
    /// each chunk that they hold at most [`MAX_CHECKPOINT_BYTES`] together (or are down to two);
    /// then a seek from them to 70% of the run gives what stepping there gives. The simulation,
    /// and the most `probe` read of its engine after a chunk.
    fn within_the_cap(sc: &Scenario, chunk: u64, probe: fn(&Engine) -> usize) -> (Sim, usize) {
        let mut sim = Sim::new(sc).unwrap();
        let mut most = 0;
        while !sim.advance(chunk) {
            most = most.max(probe(&sim.engine));
            let held: usize = sim.checkpoints.iter().map(|c| c.engine.held_bytes()).sum();
            assert!(
                held <= MAX_CHECKPOINT_BYTES || sim.checkpoints.len() <= 2,
                "{} checkpoints hold {held} bytes",
                sim.checkpoints.len()
            );
        }
        let t = sim.end_s() * 0.7;
        let mut stepped = Sim::new(sc).unwrap();
        stepped.set_checkpoints(u64::MAX / 4, 2);
        stepped.run_until(t);
        sim.seek(t);
        assert_eq!(sim.calls(), stepped.calls());
        assert_eq!(
            serde_json::to_string(&sim.snapshot()).unwrap(),
            serde_json::to_string(&stepped.snapshot()).unwrap()
        );
        (sim, most)
    }
}
