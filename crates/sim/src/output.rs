//! What a run returns: events, metrics, totals and downsampled series, and the trace hash.

use breaker::{Observation, PermitKind, Reason, State};
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::scenario::{Condition, Scenario};

/// Which breaker.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BreakerKind {
    /// The statistical breaker (SPRT / CUSUM).
    Statistical,
    /// The window breaker (resilience4j semantics).
    Window,
}

impl BreakerKind {
    /// Both, in output order.
    pub const ALL: [BreakerKind; 2] = [BreakerKind::Statistical, BreakerKind::Window];

    /// `statistical` or `window`.
    pub fn as_str(self) -> &'static str {
        match self {
            BreakerKind::Statistical => "statistical",
            BreakerKind::Window => "window",
        }
    }
}

/// A state change of one breaker copy.
///
/// Serialized as `{t_s, breaker, caller, from, to, generation, reason, detail}` where `reason`
/// is the human sentence (`Reason`'s `Display`) and `detail` the structured reason.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Event {
    /// When (s).
    pub t_s: f64,
    /// Which breaker.
    pub breaker: BreakerKind,
    /// Which caller's copy (always 0 with shared state).
    pub caller: u32,
    /// State before.
    pub from: State,
    /// State after.
    pub to: State,
    /// The generation after the change.
    pub generation: u64,
    /// Why, with numbers.
    pub reason: Reason,
}

impl Serialize for Event {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Event", 8)?;
        st.serialize_field("t_s", &self.t_s)?;
        st.serialize_field("breaker", &self.breaker)?;
        st.serialize_field("caller", &self.caller)?;
        st.serialize_field("from", &self.from)?;
        st.serialize_field("to", &self.to)?;
        st.serialize_field("generation", &self.generation)?;
        st.serialize_field("reason", &self.reason.to_string())?;
        st.serialize_field("detail", &self.reason)?;
        st.end()
    }
}

/// The metrics of one breaker (summed over callers' copies).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Closed -> open transitions.
    pub openings: u64,
    /// Closed -> open transitions while the dependency's phase was `fine` (false alarms).
    pub false_openings: u64,
    /// Admitted calls that ended in a timeout (hung or timed out): a generated call waits the
    /// whole `callers.call_timeout`, a trace's recorded timeout the latency it recorded (at most
    /// that). Counted when admitted: a call still waiting when the run ends counts.
    pub calls_waited_on_failure: u64,
    /// Calls sent to the fallback that the dependency would have answered successfully. In a
    /// phase with a capacity, within the capacity of the second before each, taken by admitted
    /// calls answered and by rejected calls counted here: had they all been admitted, no more
    /// would have been answered.
    pub good_calls_to_fallback: u64,
    /// Admitted calls that failed and came while the dependency's phase was not `fine` (an
    /// outage or a degraded stretch): the failures let through while the breaker was there to
    /// protect, without a fine dependency's own. Counted when admitted, by the outcome the
    /// call will have: a call still in flight when the run ends counts.
    pub failed_while_unhealthy: u64,
    /// Calls rejected by the breaker (sent to the fallback).
    pub calls_rejected: u64,
    /// Results that moved nothing because they came late: from an earlier generation, a lost
    /// trial, or (window) while open.
    pub late_results_ignored: u64,
    /// Window breaker: results of calls let in before the half-open they came back in (while
    /// closed, or in an earlier half-open), recorded in its window with the probes', as
    /// resilience4j records them ([`breaker::Window::late_in_half_open`]). Always 0 for the
    /// statistical breaker, whose generations drop them (`late_results_ignored`).
    pub late_results_in_half_open: u64,
    /// Shared state: changes dropped because the lock could not be had within the lock timeout.
    pub dropped_updates: u64,
    /// Mean over outages of (first opening after an outage starts) - (outage start), seconds,
    /// counting an opening only while it answers the outage: during it, or after it while the
    /// dependency is not yet `fine` again (a `degraded` stretch); an opening once it is fine is
    /// a false alarm, not a late reaction. A breaker already open when the outage starts counts
    /// 0. Outages that start after the run's end do not count. `null` when the breaker never
    /// opened so.
    pub time_to_open_s: Option<f64>,
    /// Mean over outages of (last close of the outage's recovery) - (outage end), seconds, for
    /// outages that ended by the run's end, the breaker opened for (as `time_to_open_s` counts)
    /// and after which it was closed when the recovery ended (with a copy per caller: every
    /// copy, and the time is the last copy's close); negative when it closed before the
    /// dependency recovered; `null` when there is none. The recovery ends at the next outage,
    /// the run's end, or the first opening once the dependency was `fine` again (an opening
    /// that no longer answers the outage, as `time_to_open_s` reads it: a false alarm, or the
    /// reaction to a later degraded stretch), whichever comes first: the closes after that
    /// opening are its own, however long after the outage they come.
    pub time_to_close_s: Option<f64>,
}

/// Counts of calls and results of one breaker (summed over callers' copies).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Totals {
    /// Calls that arrived.
    pub calls: u64,
    /// Calls admitted (sent to the dependency), trials and last options included.
    pub admitted: u64,
    /// Half-open trials (statistical) or probes (window) admitted.
    pub trials: u64,
    /// Admitted calls whose result was not a failure (successes and neutral outcomes).
    pub answered: u64,
    /// Admitted calls whose result was a failure.
    pub failed: u64,
    /// Calls sent to the fallback (= `calls_rejected`).
    pub to_fallback: u64,
    /// Results the breaker counted.
    pub results_counted: u64,
    /// Results ignored as neutral (input errors, user rate limits).
    pub results_neutral: u64,
    /// Results of calls still in flight when the run ended (never reported).
    pub in_flight_at_end: u64,
}

/// Per-bucket series of one breaker, over `[t0_s, t1_s]` in `buckets` equal buckets.
///
/// Values are those of caller 0's copy (the shared one with shared state). For each value
/// the bucket holds its minimum and maximum over the bucket (the value held at the bucket's start
/// included); `null` (NaN) where the value does not apply. The statistical line moves smoothly
/// and is sampled at a bucket's first event and at transitions only: a bucket with a sample (after
/// an earlier one had one) ranges over its own samples and the next bucket's first, which stands
/// for where the line ended it (with sparse calls, an approximation); a bucket with no call holds
/// the last sample. Statistical: `level` = closed CUSUM
/// score, `threshold` = line, `trial` = trial score (half-open only), `trial_upper`/`trial_lower`
/// = Wald's lines (nats). Window: `level` = failure rate in the window (null until the minimum
/// number of calls), `threshold` = `failure_rate_threshold`, `trial` = the probes' failure rate,
/// Wald's lines null. `state`: closed 0, half-open 1, open 2. `wait`: the open wait in force (s).
/// Counts (all callers): `answered`, `failed`, `fallback`, `late_ignored` calls per bucket.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Series {
    /// Start of the range (s).
    pub t0_s: f64,
    /// End of the range (s).
    pub t1_s: f64,
    /// Bucket width (s).
    pub bucket_s: f64,
    #[allow(missing_docs)]
    pub level_min: Vec<f64>,
    #[allow(missing_docs)]
    pub level_max: Vec<f64>,
    #[allow(missing_docs)]
    pub threshold_min: Vec<f64>,
    #[allow(missing_docs)]
    pub threshold_max: Vec<f64>,
    #[allow(missing_docs)]
    pub trial_min: Vec<f64>,
    #[allow(missing_docs)]
    pub trial_max: Vec<f64>,
    #[allow(missing_docs)]
    pub trial_upper_min: Vec<f64>,
    #[allow(missing_docs)]
    pub trial_upper_max: Vec<f64>,
    #[allow(missing_docs)]
    pub trial_lower_min: Vec<f64>,
    #[allow(missing_docs)]
    pub trial_lower_max: Vec<f64>,
    #[allow(missing_docs)]
    pub state_min: Vec<f64>,
    #[allow(missing_docs)]
    pub state_max: Vec<f64>,
    #[allow(missing_docs)]
    pub wait_min: Vec<f64>,
    #[allow(missing_docs)]
    pub wait_max: Vec<f64>,
    /// Admitted calls answered (not failed), by arrival of the result.
    pub answered: Vec<f64>,
    /// Admitted calls failed, by arrival of the result.
    pub failed: Vec<f64>,
    /// Calls sent to the fallback, by arrival.
    pub fallback: Vec<f64>,
    /// Results ignored as late, by arrival of the result.
    pub late_ignored: Vec<f64>,
}

impl Series {
    /// The names of the columns [`Series::columns`] returns, in order.
    pub const COLUMNS: [&'static str; 18] = [
        "level_min",
        "level_max",
        "threshold_min",
        "threshold_max",
        "trial_min",
        "trial_max",
        "trial_upper_min",
        "trial_upper_max",
        "trial_lower_min",
        "trial_lower_max",
        "state_min",
        "state_max",
        "wait_min",
        "wait_max",
        "answered",
        "failed",
        "fallback",
        "late_ignored",
    ];

    /// The columns in the order of [`Series::COLUMNS`].
    pub fn columns(&self) -> [&[f64]; 18] {
        [
            &self.level_min,
            &self.level_max,
            &self.threshold_min,
            &self.threshold_max,
            &self.trial_min,
            &self.trial_max,
            &self.trial_upper_min,
            &self.trial_upper_max,
            &self.trial_lower_min,
            &self.trial_lower_max,
            &self.state_min,
            &self.state_max,
            &self.wait_min,
            &self.wait_max,
            &self.answered,
            &self.failed,
            &self.fallback,
            &self.late_ignored,
        ]
    }

    /// Number of buckets.
    pub fn len(&self) -> usize {
        self.state_min.len()
    }

    /// Whether there are no buckets.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Caller 0's state changes in brief, what the page's verdict judges (the metrics sum every
/// caller's copy): whether it opened, its re-trips, and its last change (where the run leaves it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Changes {
    /// Whether it ever went to open.
    pub opened: bool,
    /// Closed -> open changes after its first close (the first change to closed), in the order
    /// of the changes: one at the same instant as that close counts.
    pub retrips: u64,
    /// When it last changed state (s), if it did.
    pub last_s: Option<f64>,
    /// The state its last change led to: where the run leaves it (closed if it never changed).
    pub last_to: State,
}

impl Default for Changes {
    fn default() -> Changes {
        Changes {
            opened: false,
            retrips: 0,
            last_s: None,
            last_to: State::Closed,
        }
    }
}

impl Changes {
    /// Take the next event (of any caller) into account; `closed_once`: whether caller 0 has
    /// changed to closed so far.
    fn see(&mut self, e: &Event, closed_once: &mut bool) {
        if e.caller != 0 {
            return;
        }
        self.last_s = Some(e.t_s);
        self.last_to = e.to;
        self.opened |= e.to == State::Open;
        // After the first close in the order of changes, at the same instant too (a trace's
        // results can share a time stamp).
        if *closed_once {
            if e.from == State::Closed && e.to == State::Open {
                self.retrips += 1;
            }
        } else if e.to == State::Closed {
            *closed_once = true;
        }
    }
}

/// Everything about one breaker in a run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BreakerResult {
    /// The metrics (names fixed: the CLI's JSON and the page use them).
    pub metrics: Metrics,
    /// Call and result counts.
    pub totals: Totals,
    /// Caller 0's state changes in brief (from `events`).
    pub changes: Changes,
    /// Every transition, in time order.
    pub events: Vec<Event>,
    /// The downsampled series (empty when the run collected none).
    pub series: Series,
}

/// Both breakers' results, keyed as in the CLI's JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Breakers {
    /// The statistical breaker.
    pub statistical: BreakerResult,
    /// The window breaker.
    pub window: BreakerResult,
}

impl Breakers {
    /// One breaker's result.
    pub fn get(&self, kind: BreakerKind) -> &BreakerResult {
        match kind {
            BreakerKind::Statistical => &self.statistical,
            BreakerKind::Window => &self.window,
        }
    }
}

/// The result of a whole run.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct RunResult {
    /// The scenario's name.
    pub name: String,
    /// The seed.
    pub seed: u64,
    /// When the run ended (s): the scenario's duration, or the time it was cut short.
    pub end_s: f64,
    /// Set when the run was cut short, to the time of the call it stopped before: a breaker had
    /// changed state [`MAX_EVENTS`](crate::MAX_EVENTS) times (a month-long outage with waits of
    /// a millisecond). `end_s` is then the same time; the series still cover the scenario's
    /// time, NaN after it. Left out of the JSON when the run went to its end.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cut_at_s: Option<f64>,
    /// Calls that arrived.
    pub calls: u64,
    /// Per breaker: metrics, totals, events, series.
    pub breakers: Breakers,
}

/// What one breaker did with a call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Admitted while closed.
    Admitted,
    /// Admitted as a half-open trial / probe.
    Trial,
    /// Admitted uncounted (the shared state's lock could not be had, or a last option).
    LastOption,
    /// Rejected: open.
    RejectedOpen,
    /// Rejected: half-open with its trial slots taken.
    RejectedBusy,
}

impl Verdict {
    pub(crate) fn of_kind(k: PermitKind) -> Verdict {
        match k {
            PermitKind::Normal => Verdict::Admitted,
            PermitKind::Trial => Verdict::Trial,
            PermitKind::LastOption => Verdict::LastOption,
            // `PermitKind` is non-exhaustive; a kind added later reads as a plain admission
            // until the trace learns its name.
            _ => Verdict::Admitted,
        }
    }

    /// Whether the call went to the dependency.
    pub fn admitted(self) -> bool {
        matches!(
            self,
            Verdict::Admitted | Verdict::Trial | Verdict::LastOption
        )
    }
}

/// One breaker's decision on a call, and what the call got.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Decided {
    /// The decision.
    pub verdict: Verdict,
    /// The outcome the call got (admitted calls; after this breaker's capacity rule), else null.
    pub outcome: Option<Outcome>,
    /// When its result arrives (admitted calls), else null.
    pub result_at_s: Option<f64>,
}

use breaker::Outcome;

/// The most recent call.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct CallReport {
    /// Its sequence number (1-based).
    pub index: u64,
    /// When it arrived (s).
    pub t_s: f64,
    /// Which caller made it.
    pub caller: u32,
    /// The outcome drawn for it (what it would get if admitted, before capacity).
    pub drawn: Outcome,
    /// The statistical breaker's decision.
    pub statistical: Decided,
    /// The window breaker's decision.
    pub window: Decided,
}

/// The state of a stepping simulation at its current time.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Snapshot {
    /// The simulation's time (s).
    pub t_s: f64,
    /// Calls that have arrived so far.
    pub calls: u64,
    /// Whether the run is over: no call still to arrive and no result still to land after
    /// `t_s`. Known once the simulation has looked for the next call: on the last call reached
    /// by a step (or a step back) it may say false until a later step or a seek looks past it
    /// (a seek to the same time says true).
    pub done: bool,
    /// The statistical breaker (caller 0's copy) at `t_s`.
    pub statistical: Observation,
    /// The window breaker (caller 0's copy) at `t_s`.
    pub window: Observation,
    /// The most recent call, if any.
    pub last_call: Option<CallReport>,
    /// Events so far: statistical, window.
    pub events: [usize; 2],
}

/// Compute metrics from counters and the events, given the scenario's phases; and caller 0's
/// [`Changes`] in the same pass.
///
/// For each outage `[s, e)` (its segment runs to the next outage's start): the time to open is
/// from `s` to the segment's first opening (in the log's order) before the dependency is fine
/// again, or 0 if some caller's copy is open just before `s`; the time to close, from `e` to the
/// last change of its recovery, when every caller's copy is closed then. The recovery ends at
/// the segment's end or at the segment's first opening once the dependency was fine again. A
/// few passes over the
/// events, each with a binary search among the outages (a scan of every event per outage cost a
/// run of many phases O(outages x events)).
pub(crate) fn finish_metrics(
    m: &mut Metrics,
    events: &[&[Event]],
    scenario_phases: &Phases,
    end: f64,
) -> Changes {
    m.openings = 0;
    m.false_openings = 0;
    let outages = &scenario_phases.outages;
    let seg_end = |i: usize| outages.get(i + 1).map_or(f64::INFINITY, |o| o.0);
    // An opening answers the outage until the dependency is fine again (after that it is a
    // false alarm, counted as one, not a late reaction to this outage).
    let answers_until: Vec<f64> = (0..outages.len())
        .map(|i| scenario_phases.fine_from(outages[i].1).min(seg_end(i)))
        .collect();
    // The recovery from an outage ends at the segment's end, or earlier at the first opening
    // that no longer answers it (once the dependency was fine again: a false alarm, or the
    // reaction to a later degraded stretch): the closes after it are that opening's.
    let mut close_until: Vec<f64> = (0..outages.len()).map(seg_end).collect();
    let mut changes = Changes::default();
    let mut closed_once = false;
    for e in events.iter().copied().flatten() {
        changes.see(e, &mut closed_once);
        if e.from == State::Closed && e.to == State::Open {
            m.openings += 1;
            if scenario_phases.condition_at(e.t_s) == Condition::Fine {
                m.false_openings += 1;
            }
            if let Some(i) = outages.partition_point(|o| o.0 <= e.t_s).checked_sub(1) {
                if let (Some(&answers), Some(close)) =
                    (answers_until.get(i), close_until.get_mut(i))
                {
                    if e.t_s >= answers && e.t_s < *close {
                        *close = e.t_s;
                    }
                }
            }
        }
    }
    // Some caller's copy open just before each outage starts: its segment opened at once.
    let starts: Vec<f64> = outages.iter().map(|o| o.0).collect();
    let before = last_states_before(events, &starts, |_| true);
    let mut first_open: Vec<Option<f64>> = before
        .iter()
        .zip(outages)
        .map(|(b, o)| b.any_open.then_some(o.0))
        .collect();
    let mut last: Vec<Option<f64>> = vec![None; outages.len()];
    for ev in events.iter().copied().flatten() {
        // The segment holding the event (none before the first outage).
        let Some(i) = outages.partition_point(|o| o.0 <= ev.t_s).checked_sub(1) else {
            continue;
        };
        if !(ev.t_s < seg_end(i) && ev.t_s <= end) {
            continue;
        }
        // (Every index is in range: the lists are the outages'.)
        let (Some(first), Some(&answers), Some(&close), Some(last)) = (
            first_open.get_mut(i),
            answers_until.get(i),
            close_until.get(i),
            last.get_mut(i),
        ) else {
            continue;
        };
        if first.is_none() && ev.to == State::Open && ev.t_s < answers {
            *first = Some(ev.t_s);
        }
        if ev.t_s < close {
            *last = Some(last.map_or(ev.t_s, |l: f64| l.max(ev.t_s)));
        }
    }
    // Closed once every caller's copy is: with one copy per caller, the last of their closes
    // (one copy closed while another stays open is not the breaker closed).
    let after = last_states_before(events, &close_until, |ev| ev.t_s <= end);
    let mut opens = Vec::new();
    let mut closes = Vec::new();
    for (((&(s, e), &first), &last), after) in
        outages.iter().zip(&first_open).zip(&last).zip(&after)
    {
        // An outage after the run's end (a phase past the duration, a run cut short) is none of
        // its outages; one that ends after it has no time to close.
        if s > end {
            continue;
        }
        if let Some(first) = first {
            opens.push(first - s);
            if let Some(l) = last.filter(|_| e <= end) {
                if after.all_closed {
                    closes.push(l - e);
                }
            }
        }
    }
    let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
    m.time_to_open_s = mean(&opens);
    m.time_to_close_s = mean(&closes);
    changes
}

/// Where the callers' copies stand before a time: from each caller's last change (in the log's
/// order) among the events `keep` keeps that come before it. A caller with none there is closed,
/// as every copy starts.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Standing {
    /// Some caller's copy is open.
    any_open: bool,
    /// Every caller's copy is closed.
    all_closed: bool,
}

/// [`Standing`] before each of `times` (increasing): for each caller, its last change in the
/// log's order among the events `keep` keeps with `t_s < time`. One pass over the log backwards:
/// an event at `t` speaks for the times after `t` that no later event of its caller has spoken
/// for, a run of them it adds to the counts of open and not-closed copies there (as
/// differences, summed at the end). No sort and no map, so little code in the page's wasm.
fn last_states_before(
    events: &[&[Event]],
    times: &[f64],
    keep: impl Fn(&Event) -> bool,
) -> Vec<Standing> {
    debug_assert!(times.windows(2).all(|w| w[0] < w[1]));
    let n = times.len();
    let (mut open, mut not_closed) = (vec![0i64; n + 1], vec![0i64; n + 1]);
    // For each caller: the first of the times its later events already speak for.
    let mut spoken_from: Vec<usize> = Vec::new();
    for ev in events.iter().rev().flat_map(|part| part.iter().rev()) {
        // A NaN time is before no time.
        if !keep(ev) || ev.t_s.is_nan() {
            continue;
        }
        let from = times.partition_point(|&x| x <= ev.t_s);
        let c = ev.caller as usize;
        if c >= spoken_from.len() {
            spoken_from.resize(c + 1, n);
        }
        let until = spoken_from[c];
        if from < until {
            spoken_from[c] = from;
            if ev.to == State::Open {
                open[from] += 1;
                open[until] -= 1;
            }
            if ev.to != State::Closed {
                not_closed[from] += 1;
                not_closed[until] -= 1;
            }
        }
    }
    let (mut o, mut nc) = (0, 0);
    (0..n)
        .map(|k| {
            o += open[k];
            nc += not_closed[k];
            Standing {
                any_open: o > 0,
                all_closed: nc == 0,
            }
        })
        .collect()
}

/// The phases' conditions, as the metrics need them.
#[derive(Debug, Clone)]
pub(crate) struct Phases {
    pub starts: Vec<f64>,
    pub conditions: Vec<Condition>,
    pub outages: Vec<(f64, f64)>,
    /// The start of the first `fine` phase at or after each index (and after the last:
    /// infinite).
    next_fine: Vec<f64>,
}

impl Phases {
    pub(crate) fn of(s: &Scenario) -> Phases {
        let mut next_fine = vec![f64::INFINITY; s.dependency.len() + 1];
        for (i, p) in s.dependency.iter().enumerate().rev() {
            next_fine[i] = if p.condition == Condition::Fine {
                p.start
            } else {
                next_fine[i + 1]
            };
        }
        Phases {
            starts: s.dependency.iter().map(|p| p.start).collect(),
            conditions: s.dependency.iter().map(|p| p.condition).collect(),
            outages: s.outages(),
            next_fine,
        }
    }

    /// The condition of the phase in force at `t` (the first's before it). The starts are
    /// increasing (validated): a binary search.
    pub(crate) fn condition_at(&self, t: f64) -> Condition {
        let i = self.starts.partition_point(|&s| s <= t).saturating_sub(1);
        self.conditions[i]
    }

    /// The start of the first `fine` phase starting at or after `t` (infinite if none).
    pub(crate) fn fine_from(&self, t: f64) -> f64 {
        if t.is_nan() {
            return f64::INFINITY;
        }
        self.next_fine[self.starts.partition_point(|&s| s < t)]
    }
}

/// The canonical text of a run's event trace: one line per event, statistical first, then
/// window, each `breaker t_s caller from to generation reason-detail`, with floats in Rust's
/// shortest round-trip form (the same on every platform) and the reason's exact numbers.
pub fn canonical_trace(r: &RunResult) -> String {
    canonical_events(BreakerKind::ALL.map(|k| vec![r.breakers.get(k).events.as_slice()]))
}

/// [`canonical_trace`] of each breaker's events (statistical, window), each in parts.
fn canonical_events(events: [Vec<&[Event]>; 2]) -> String {
    use std::fmt::Write;
    let mut out = String::new();
    for (kind, events) in BreakerKind::ALL.into_iter().zip(events) {
        for e in events.iter().copied().flatten() {
            let _ = writeln!(
                out,
                "{} {:?} {} {} {} {} {:?}",
                kind.as_str(),
                e.t_s,
                e.caller,
                e.from,
                e.to,
                e.generation,
                e.reason
            );
        }
    }
    out
}

/// SHA-256 (lower-case hex) of [`canonical_trace`]: pins a run's events, natively and in wasm.
pub fn trace_hash(r: &RunResult) -> String {
    hash_events(BreakerKind::ALL.map(|k| vec![r.breakers.get(k).events.as_slice()]))
}

/// [`trace_hash`] of each breaker's events (statistical, window), each in parts.
pub(crate) fn hash_events(events: [Vec<&[Event]>; 2]) -> String {
    let digest = Sha256::digest(canonical_events(events).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    //! `finish_metrics`, `open_at` and `Changes::see` on hand-made events, with every expected
    //! number worked out by hand from the metrics' docs.

    use super::*;
    use crate::scenario::Phase;
    use State::{Closed as C, HalfOpen as H, Open as O};

    fn ev(t_s: f64, caller: u32, from: State, to: State) -> Event {
        Event {
            t_s,
            breaker: BreakerKind::Statistical,
            caller,
            from,
            to,
            generation: 0,
            reason: Reason::WaitElapsed { wait: 1.0 },
        }
    }

    /// `finish_metrics` as it was before its sweep: each outage scanning every event, each lookup
    /// scanning the phases (quadratic, plainly right). The oracle of the sweep.
    fn finish_metrics_by_scans(
        m: &mut Metrics,
        events: &[&[Event]],
        scenario_phases: &Phases,
        end: f64,
    ) -> Changes {
        m.openings = 0;
        m.false_openings = 0;
        let mut changes = Changes::default();
        let mut closed_once = false;
        for e in events.iter().copied().flatten() {
            changes.see(e, &mut closed_once);
            if e.from == State::Closed && e.to == State::Open {
                m.openings += 1;
                if condition_by_scan(scenario_phases, e.t_s) == Condition::Fine {
                    m.false_openings += 1;
                }
            }
        }
        let outages = &scenario_phases.outages;
        let mut opens = Vec::new();
        let mut closes = Vec::new();
        for (i, &(s, e)) in outages.iter().enumerate() {
            if s > end {
                continue; // not the run's outage
            }
            let seg_end = outages.get(i + 1).map(|o| o.0).unwrap_or(f64::INFINITY);
            // An opening answers the outage until the dependency is fine again (after that it is a
            // false alarm, counted as one, not a late reaction to this outage).
            let answers_until = fine_from_by_scan(scenario_phases, e).min(seg_end);
            // The segment's first opening and its last change. A breaker (any caller's copy) still
            // open when the outage starts answers it at once: its next opening, a half-open trial
            // failing, is not its reaction.
            let (mut first_open, mut last): (Option<f64>, Option<f64>) = (None, None);
            if open_at_by_scan(events, s) {
                first_open = Some(s);
            }
            let in_segment = |ev: &Event| ev.t_s < seg_end && ev.t_s <= end;
            // The recovery ends at the first opening once the dependency was fine again.
            let close_until = events
                .iter()
                .copied()
                .flatten()
                .filter(|ev| {
                    ev.from == State::Closed
                        && ev.to == State::Open
                        && ev.t_s >= answers_until
                        && ev.t_s < seg_end
                })
                .map(|ev| ev.t_s)
                .fold(seg_end, f64::min);
            let in_recovery = |ev: &Event| ev.t_s < close_until && ev.t_s <= end;
            for ev in events.iter().copied().flatten() {
                if ev.t_s >= s
                    && in_segment(ev)
                    && first_open.is_none()
                    && ev.to == State::Open
                    && ev.t_s < answers_until
                {
                    first_open = Some(ev.t_s);
                }
                if ev.t_s >= s && in_recovery(ev) {
                    last = Some(last.map_or(ev.t_s, |l: f64| l.max(ev.t_s)));
                }
            }
            if let Some(first) = first_open {
                opens.push(first - s);
                // Closed once every caller's copy is: with one copy per caller, the last of their
                // closes (one copy closed while another stays open is not the breaker closed).
                if let Some(last) = last.filter(|_| e <= end) {
                    if last_states_by_scan(events, in_recovery).all(|(_, st)| st == State::Closed) {
                        closes.push(last - e);
                    }
                }
            }
        }
        let mean = |v: &[f64]| (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64);
        m.time_to_open_s = mean(&opens);
        m.time_to_close_s = mean(&closes);
        changes
    }

    /// Whether some caller's copy is open just before `t` (its last change before `t` went to
    /// open). Each caller's events are in time order.
    fn open_at_by_scan(events: &[&[Event]], t: f64) -> bool {
        last_states_by_scan(events, |ev| ev.t_s < t).any(|(_, st)| st == State::Open)
    }

    /// Each caller's state after its last change among the events `keep` keeps (a caller with no
    /// change there is not listed: closed, as every copy starts). Each caller's events are in time
    /// order.
    fn last_states_by_scan(
        events: &[&[Event]],
        keep: impl Fn(&Event) -> bool,
    ) -> impl Iterator<Item = (u32, State)> {
        let mut states: Vec<(u32, State)> = Vec::new();
        for ev in events.iter().copied().flatten().filter(|ev| keep(ev)) {
            match states.iter_mut().find(|(c, _)| *c == ev.caller) {
                Some(s) => s.1 = ev.to,
                None => states.push((ev.caller, ev.to)),
            }
        }
        states.into_iter()
    }

    /// Whether some caller's copy is open just before `t`, by the sweep.
    fn open_at(events: &[&[Event]], t: f64) -> bool {
        last_states_before(events, &[t], |_| true)[0].any_open
    }

    fn condition_by_scan(p: &Phases, t: f64) -> Condition {
        p.conditions[p.starts.iter().rposition(|&s| s <= t).unwrap_or(0)]
    }

    fn fine_from_by_scan(p: &Phases, t: f64) -> f64 {
        p.starts
            .iter()
            .zip(&p.conditions)
            .find(|&(&s, &c)| s >= t && c == Condition::Fine)
            .map_or(f64::INFINITY, |(&s, _)| s)
    }

    /// Random phases, events and ends: the sweep gives what the scans gave, every metric and
    /// change, over 20,000 cases. Times sit on a grid of quarter seconds (ties with each other,
    /// with phase starts and with the end), some past the end; callers 0-3; the log is in time
    /// order per caller in half the cases and shuffled in the rest; 0 to 40 phases' worth of
    /// fine, degraded and outage stretches (runs of outages make one outage).
    #[test]
    fn the_sweep_gives_what_the_scans_gave() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move |n: u64| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x % n
        };
        let conds = [Condition::Fine, Condition::Degraded, Condition::Outage];
        let states = [State::Closed, State::Open, State::HalfOpen];
        for case in 0..20_000 {
            let n_phases = 1 + next(40) as usize;
            let mut start = 0.0;
            let mut ph = Vec::new();
            for _ in 0..n_phases {
                ph.push((start, conds[next(3) as usize]));
                start += 0.25 * (1 + next(12)) as f64;
            }
            let p = phases(&ph);
            let end = 0.25 * next(4 * start as u64 + 20) as f64;
            let mut events: Vec<Event> = (0..next(60))
                .map(|_| {
                    let t = 0.25 * next(4 * start as u64 + 24) as f64;
                    ev(
                        t,
                        next(4) as u32,
                        states[next(3) as usize],
                        states[next(3) as usize],
                    )
                })
                .collect();
            if case % 2 == 0 {
                events.sort_by(|a, b| a.t_s.total_cmp(&b.t_s));
            }
            let mut m1 = Metrics::default();
            let c1 = finish_metrics(&mut m1, &[&events], &p, end);
            let mut m2 = Metrics::default();
            let c2 = finish_metrics_by_scans(&mut m2, &[&events], &p, end);
            assert_eq!(
                (m1, c1),
                (m2, c2),
                "case {case}: {ph:?}, end {end}, {events:?}"
            );
        }
    }

    /// A run of many phases: 20,000 outages, each answered. (Summed in one sweep: the scans took
    /// O(outages x events). The test checks the numbers; how long it takes is for the bench.)
    #[test]
    fn many_outages_are_summed_in_one_sweep() {
        use Condition::{Fine, Outage};
        let ph: Vec<(f64, Condition)> = (0..40_000)
            .map(|i| (i as f64, if i % 2 == 0 { Fine } else { Outage }))
            .collect();
        let p = phases(&ph);
        let mut events = Vec::new();
        for i in 0..20_000 {
            let s = (2 * i + 1) as f64;
            events.push(ev(s + 0.25, 0, State::Closed, State::Open));
            events.push(ev(s + 1.5, 0, State::Open, State::HalfOpen));
            events.push(ev(s + 1.75, 0, State::HalfOpen, State::Closed));
        }
        let mut m = Metrics::default();
        finish_metrics(&mut m, &[&events], &p, 1e9);
        assert_eq!(m.openings, 20_000);
        assert_eq!(m.false_openings, 0);
        assert_eq!(m.time_to_open_s, Some(0.25));
        assert_eq!(m.time_to_close_s, Some(0.75));
    }

    fn phases(p: &[(f64, Condition)]) -> Phases {
        let s = Scenario {
            dependency: p
                .iter()
                .map(|&(start, condition)| Phase {
                    start,
                    condition,
                    ..Phase::default()
                })
                .collect(),
            ..Scenario::default()
        };
        Phases::of(&s)
    }

    /// The metrics and changes of `events`, checked to be the same when the events come in
    /// several parts (the event log's chunks).
    fn finish(events: &[Event], p: &Phases, end: f64) -> (Metrics, Changes) {
        let mut m = Metrics::default();
        let c = finish_metrics(&mut m, &[events], p, end);
        for k in 0..=events.len() {
            let mut m2 = Metrics::default();
            let c2 = finish_metrics(&mut m2, &[&events[..k], &[], &events[k..]], p, end);
            assert_eq!((&m2, &c2), (&m, &c), "split at {k}");
        }
        (m, c)
    }

    /// Two outages, a degraded stretch, false alarms before and between them, a second caller.
    #[test]
    fn two_outages_worked_by_hand() {
        use Condition::{Degraded, Fine, Outage};
        let p = phases(&[
            (0.0, Fine),
            (100.0, Outage),
            (200.0, Degraded),
            (300.0, Fine),
            (400.0, Outage),
            (500.0, Fine),
        ]);
        let events = [
            ev(50.0, 0, C, O), // false alarm (fine)
            ev(60.0, 0, O, H),
            ev(70.0, 0, H, O), // re-opening from half-open: no opening
            ev(80.0, 0, O, H),
            ev(90.0, 0, H, C),  // caller 0's first close
            ev(130.0, 0, C, O), // outage 1 answered after 30 s
            ev(135.0, 1, C, O), // caller 1, in the outage
            ev(190.0, 0, O, H),
            ev(195.0, 0, H, O),
            ev(230.0, 0, O, H),
            ev(240.0, 0, H, C),
            ev(250.0, 0, C, O), // degraded: not a false alarm
            ev(260.0, 0, O, H),
            ev(270.0, 0, H, C),
            ev(300.0, 1, O, H),
            ev(310.0, 1, H, C), // both closed: 110 s after outage 1 (the last close before 350)
            ev(350.0, 0, C, O), // fine again: false alarm, which ends outage 1's recovery
            ev(360.0, 0, O, H),
            ev(380.0, 0, H, C), // the alarm's close, not the outage's
            ev(420.0, 0, C, O), // outage 2 answered after 20 s
            ev(520.0, 0, O, H),
            ev(530.0, 0, H, C), // closed 30 s after outage 2
        ];
        let (m, c) = finish(&events, &p, 1000.0);
        // Closed -> open at 50, 130, 135 (caller 1), 250, 350, 420; false at 50 and 350.
        assert_eq!((m.openings, m.false_openings), (6, 2));
        assert_eq!(m.time_to_open_s, Some((30.0 + 20.0) / 2.0));
        assert_eq!(m.time_to_close_s, Some((110.0 + 30.0) / 2.0));
        // Caller 0 only: first close at 90, then closed -> open at 130, 250, 350, 420.
        assert_eq!(
            c,
            Changes {
                opened: true,
                retrips: 4,
                last_s: Some(530.0),
                last_to: C,
            }
        );
        // The counters are recomputed, not added to.
        let mut again = m.clone();
        let c2 = finish_metrics(&mut again, &[&events], &p, 1000.0);
        assert_eq!((again, c2), (m, c));
    }

    /// A change at the very start of the next outage belongs to that outage: the close that
    /// `time_to_close_s` takes is the last change *before* the next outage (and before a false
    /// alarm after the outage's end).
    #[test]
    fn a_change_at_the_next_outages_start_is_that_outages() {
        use Condition::{Fine, Outage};
        let p = phases(&[
            (0.0, Fine),
            (100.0, Outage),
            (200.0, Fine),
            (300.0, Outage),
            (400.0, Fine),
        ]);
        let events = [
            ev(110.0, 0, C, O),
            ev(210.0, 0, O, H),
            ev(220.0, 0, H, C), // outage 1's close, 20 s after it
            ev(290.0, 0, C, O), // false alarm: the changes from here are its own
            ev(295.0, 0, O, H),
            ev(300.0, 0, H, C), // at outage 2's start: not open when it starts
            ev(310.0, 0, C, O),
            ev(410.0, 0, O, H),
            ev(420.0, 0, H, C),
        ];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.openings, m.false_openings), (3, 1));
        assert_eq!(m.time_to_open_s, Some(10.0));
        // 20 s and 20 s.
        assert_eq!(m.time_to_close_s, Some(20.0));
        // Changes after the run's end are not its changes: outage 2 was left half-open.
        let (m, _) = finish(&events, &p, 415.0);
        assert_eq!(m.time_to_open_s, Some(10.0));
        // Outage 1's alone.
        assert_eq!(m.time_to_close_s, Some(20.0));
        // No false alarm: outage 1's recovery runs to outage 2's start, where its last change
        // (half-open at 295) leaves it not closed; the close at 300 is outage 2's.
        let events = [
            ev(110.0, 0, C, O),
            ev(210.0, 0, O, H),
            ev(290.0, 0, H, O), // a failed trial: open again, no opening
            ev(295.0, 0, O, H),
            ev(300.0, 0, H, C), // at outage 2's start
            ev(310.0, 0, C, O),
            ev(410.0, 0, O, H),
            ev(420.0, 0, H, C),
        ];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.openings, m.false_openings), (2, 0));
        assert_eq!(
            (m.time_to_open_s, m.time_to_close_s),
            (Some(10.0), Some(20.0))
        );
    }

    /// The run's end (its duration, or a run cut short) before an outage ends: no time to close
    /// for it (it was -40 s here: the close at 60 minus an end at 100 the run never reached);
    /// before an outage starts: not the run's outage, even with the breaker open then (it was a
    /// time to open of 0).
    #[test]
    fn outages_past_the_runs_end_are_not_its_outages() {
        use Condition::{Fine, Outage};
        let p = phases(&[(0.0, Fine), (10.0, Outage), (100.0, Fine), (150.0, Outage)]);
        let events = [
            ev(12.0, 0, C, O),
            ev(20.0, 0, O, H),
            ev(60.0, 0, H, C),
            ev(110.0, 0, C, O), // a false alarm, still open at 150
        ];
        let (m, _) = finish(&events[..3], &p, 80.0);
        assert_eq!(m.time_to_open_s, Some(2.0));
        assert_eq!(m.time_to_close_s, None);
        // Run to 120: outage 1 ended at 100 (closed 40 s before it, and still at 120).
        let (m, _) = finish(&events[..3], &p, 120.0);
        assert_eq!(
            (m.time_to_open_s, m.time_to_close_s),
            (Some(2.0), Some(-40.0))
        );
        // With the false alarm, to 120: outage 2 (from 150) is after the end, and outage 1's
        // close is still the one at 60 (the alarm open at 120 is not the outage's).
        let (m, _) = finish(&events, &p, 120.0);
        assert_eq!(
            (m.time_to_open_s, m.time_to_close_s),
            (Some(2.0), Some(-40.0))
        );
        // To 200: outage 2 counts, open when it starts (0).
        let (m, _) = finish(&events, &p, 200.0);
        assert_eq!(m.time_to_open_s, Some(1.0));
    }

    /// A false alarm long after an outage's recovery ends that recovery: its close is not the
    /// outage's. (The close taken was once the last before the next outage or the end: a week
    /// with bursts gave a time to close of 4.3 days for a breaker that closed 335 s after.)
    #[test]
    fn a_false_alarm_after_the_recovery_is_not_the_outages_close() {
        use Condition::{Fine, Outage};
        let p = phases(&[(0.0, Fine), (100.0, Outage), (200.0, Fine)]);
        let events = [
            ev(105.0, 0, C, O),
            ev(260.0, 0, O, H),
            ev(335.0, 0, H, C),    // closed 135 s after the outage
            ev(90_000.0, 0, C, O), // a false alarm a day later
            ev(90_060.0, 0, O, H),
            ev(90_100.0, 0, H, C),
            ev(400_000.0, 1, C, O), // another caller's false alarm
            ev(400_060.0, 1, O, H),
            ev(400_100.0, 1, H, C),
        ];
        let (m, _) = finish(&events, &p, 500_000.0);
        assert_eq!((m.openings, m.false_openings), (3, 2));
        assert_eq!(
            (m.time_to_open_s, m.time_to_close_s),
            (Some(5.0), Some(135.0))
        );
        // Another caller still open when the first false alarm comes, closed only after it:
        // not closed when the recovery ended (the last close before the next outage or the end,
        // 95,000, was the time taken before).
        let mut open_on = events[..6].to_vec();
        open_on.insert(1, ev(150.0, 1, C, O));
        open_on.extend([ev(94_900.0, 1, O, H), ev(95_000.0, 1, H, C)]);
        let (m, _) = finish(&open_on, &p, 500_000.0);
        assert_eq!(m.time_to_close_s, None);
        // An opening in a degraded stretch after the dependency was fine again is not the
        // outage's either (it gave 1900 s here: the close at 2100).
        let p = phases(&[
            (0.0, Fine),
            (100.0, Outage),
            (200.0, Fine),
            (1000.0, Condition::Degraded),
            (2000.0, Fine),
        ]);
        let events = [
            ev(105.0, 0, C, O),
            ev(250.0, 0, O, H),
            ev(265.0, 0, H, C),
            ev(1100.0, 0, C, O),
            ev(2090.0, 0, O, H),
            ev(2100.0, 0, H, C),
        ];
        let (m, _) = finish(&events, &p, 5000.0);
        assert_eq!((m.openings, m.false_openings), (2, 0));
        assert_eq!(
            (m.time_to_open_s, m.time_to_close_s),
            (Some(5.0), Some(65.0))
        );
    }

    /// An opening at the moment the dependency is fine again is a false alarm, not a late
    /// reaction to the outage; one in a degraded stretch before that is the outage's.
    #[test]
    fn an_opening_answers_the_outage_until_the_dependency_is_fine() {
        use Condition::{Degraded, Fine, Outage};
        let p = phases(&[(0.0, Fine), (100.0, Outage), (200.0, Fine)]);
        let events = [ev(200.0, 0, C, O), ev(210.0, 0, O, H), ev(220.0, 0, H, C)];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.openings, m.false_openings), (1, 1));
        assert_eq!((m.time_to_open_s, m.time_to_close_s), (None, None));

        let p = phases(&[
            (0.0, Fine),
            (100.0, Outage),
            (200.0, Degraded),
            (300.0, Fine),
        ]);
        let events = [ev(250.0, 0, C, O), ev(260.0, 0, O, H), ev(270.0, 0, H, C)];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.openings, m.false_openings), (1, 0));
        assert_eq!(m.time_to_open_s, Some(150.0));
        assert_eq!(m.time_to_close_s, Some(70.0));
        // The same opening at 300 (fine again) is a false alarm.
        let events = [ev(300.0, 0, C, O), ev(310.0, 0, O, H), ev(320.0, 0, H, C)];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.openings, m.false_openings), (1, 1));
        assert_eq!((m.time_to_open_s, m.time_to_close_s), (None, None));
    }

    /// Open just before the outage starts (its last change before it went to open) counts 0,
    /// even when it goes half-open at that very moment; open earlier but closed again does not.
    #[test]
    fn open_when_the_outage_starts() {
        use Condition::{Fine, Outage};
        let p = phases(&[(0.0, Fine), (100.0, Outage), (200.0, Fine)]);
        let events = [
            ev(50.0, 0, C, O),
            ev(100.0, 0, O, H),
            ev(105.0, 0, H, O),
            ev(250.0, 0, O, H),
            ev(260.0, 0, H, C),
        ];
        assert!(open_at(&[&events], 100.0));
        assert!(!open_at(&[&events], 50.0));
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.openings, m.false_openings), (1, 1));
        assert_eq!(m.time_to_open_s, Some(0.0));
        assert_eq!(m.time_to_close_s, Some(60.0));

        // Opened, went half-open, closed: not open at 100; it opens 5 s into the outage.
        let events = [
            ev(50.0, 0, C, O),
            ev(60.0, 0, O, H),
            ev(70.0, 0, H, C),
            ev(105.0, 0, C, O),
        ];
        assert!(!open_at(&[&events], 100.0));
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!(m.time_to_open_s, Some(5.0));
        // Left open at the end: no time to close.
        assert_eq!(m.time_to_close_s, None);
    }

    /// With a copy per caller, the breaker has closed after an outage once every copy has: one
    /// copy's close while another is still open or half-open is not it.
    #[test]
    fn closed_after_an_outage_means_every_callers_copy() {
        use Condition::{Fine, Outage};
        let p = phases(&[(0.0, Fine), (100.0, Outage), (200.0, Fine)]);
        // Caller 1 opens first and is still half-open at the end; caller 0 closes last.
        let events = [
            ev(110.0, 1, C, O),
            ev(120.0, 0, C, O),
            ev(240.0, 1, O, H),
            ev(250.0, 0, O, H),
            ev(260.0, 0, H, C),
        ];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!(m.time_to_open_s, Some(10.0));
        assert_eq!(m.time_to_close_s, None);
        // Caller 1 closes after caller 0: the breaker closed at caller 1's close.
        let mut events = events.to_vec();
        events.push(ev(280.0, 1, H, C));
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!(m.time_to_close_s, Some(80.0));
        // The same closes, caller 1's first: the later one, caller 0's, is the breaker's.
        let events = [
            ev(110.0, 1, C, O),
            ev(120.0, 0, C, O),
            ev(220.0, 1, O, H),
            ev(230.0, 1, H, C),
            ev(250.0, 0, O, H),
            ev(260.0, 0, H, C),
        ];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!(m.time_to_close_s, Some(60.0));
        // A copy that never changed is closed throughout: caller 2 alone opens and closes.
        let events = [ev(150.0, 2, C, O), ev(220.0, 2, O, H), ev(230.0, 2, H, C)];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!(m.time_to_close_s, Some(30.0));
        // A copy still open from before the outage, untouched in it, keeps the breaker open.
        let events = [
            ev(50.0, 1, C, O),
            ev(150.0, 0, C, O),
            ev(220.0, 0, O, H),
            ev(230.0, 0, H, C),
        ];
        let (m, _) = finish(&events, &p, 1000.0);
        assert_eq!((m.time_to_open_s, m.time_to_close_s), (Some(0.0), None));
    }

    /// Any caller's copy open at the outage's start counts, whatever the others do.
    #[test]
    fn open_at_takes_each_callers_last_change() {
        let events = [
            ev(10.0, 1, C, O),
            ev(20.0, 0, C, O),
            ev(30.0, 0, O, H),
            ev(40.0, 2, C, O),
            ev(45.0, 2, O, H),
            ev(50.0, 0, H, C),
            ev(60.0, 1, O, H),
            ev(70.0, 2, H, O),
        ];
        let want = [
            (5.0, false),
            (15.0, true),  // 1 open
            (35.0, true),  // 1 open, 0 half-open
            (55.0, true),  // 1 open, 2 half-open, 0 closed
            (65.0, false), // 1 half-open, 2 half-open, 0 closed
            (75.0, true),  // 2 open again
        ];
        for (t, open) in want {
            assert_eq!(open_at(&[&events], t), open, "at {t}");
            assert_eq!(open_at(&[&events[..3], &events[3..]], t), open, "at {t}");
        }
    }

    /// A single opening: opened, no re-trip, left open; an outage without an end has no time to
    /// close.
    #[test]
    fn opened_once_and_left_open() {
        use Condition::{Fine, Outage};
        let p = phases(&[(0.0, Fine), (100.0, Outage)]);
        let (m, c) = finish(&[ev(112.5, 0, C, O)], &p, 1000.0);
        assert_eq!(
            c,
            Changes {
                opened: true,
                retrips: 0,
                last_s: Some(112.5),
                last_to: O,
            }
        );
        assert_eq!((m.openings, m.false_openings), (1, 0));
        assert_eq!((m.time_to_open_s, m.time_to_close_s), (Some(12.5), None));
        // No events: nothing opened, left closed.
        let (m, c) = finish(&[], &p, 1000.0);
        assert_eq!(c, Changes::default());
        assert_eq!(c.last_to, C);
        assert!(!c.opened);
        assert_eq!(m, Metrics::default());
    }

    /// Re-trips are caller 0's closed -> open changes after its first close in the order of the
    /// changes, one at the same instant as that close included; other callers' never count.
    #[test]
    fn retrips_come_after_the_first_close() {
        use Condition::Fine;
        let p = phases(&[(0.0, Fine)]);
        let events = [
            ev(10.0, 0, C, O),
            ev(20.0, 0, O, H),
            ev(30.0, 0, H, C),
            ev(30.0, 0, C, O),
            ev(35.0, 1, C, O),
            ev(40.0, 0, O, H),
            ev(50.0, 0, H, O),
            ev(55.0, 0, O, H),
            ev(58.0, 0, H, C),
            ev(60.0, 0, C, O),
            ev(65.0, 1, O, H),
        ];
        let (m, c) = finish(&events, &p, 1000.0);
        // Closed -> open at 10, 30, 35 (caller 1) and 60, all while fine.
        assert_eq!((m.openings, m.false_openings), (4, 4));
        assert_eq!(
            c,
            Changes {
                opened: true,
                retrips: 2,
                last_s: Some(60.0),
                last_to: O,
            }
        );
    }

    /// Each permit kind reads as its verdict (the engine only ever asks with `Normal` and
    /// `Trial`: its last options are its own); admitted means sent to the dependency.
    #[test]
    fn verdicts_of_permit_kinds() {
        assert_eq!(Verdict::of_kind(PermitKind::Normal), Verdict::Admitted);
        assert_eq!(Verdict::of_kind(PermitKind::Trial), Verdict::Trial);
        assert_eq!(
            Verdict::of_kind(PermitKind::LastOption),
            Verdict::LastOption
        );
        use Verdict::*;
        for (v, admitted) in [
            (Admitted, true),
            (Trial, true),
            (LastOption, true),
            (RejectedOpen, false),
            (RejectedBusy, false),
        ] {
            assert_eq!(v.admitted(), admitted, "{v:?}");
        }
    }

    /// A series' length is its number of buckets; the default (a run that collected none) is
    /// empty.
    #[test]
    fn series_length() {
        let none = Series::default();
        assert_eq!((none.len(), none.is_empty()), (0, true));
        let three = Series {
            state_min: vec![0.0, 1.0, 2.0],
            ..Series::default()
        };
        assert_eq!((three.len(), three.is_empty()), (3, false));
    }
}
