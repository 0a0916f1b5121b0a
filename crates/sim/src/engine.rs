//! The event loop: a fake clock, a time-ordered queue of pending results and breaker deadlines,
//! and the next arrival held beside it.
//!
//! Order of events: the earliest time first; at equal times, queued entries (results, deadlines)
//! in the order they were scheduled, and an arrival after every queued entry of the same time (a
//! result that lands at `t` is seen before a call made at `t`).

use std::cmp::Ordering;
use std::collections::{BinaryHeap, VecDeque};
use std::sync::Arc;

use breaker::{
    Breaker, Class, Decision, Ignored, Outcome, Permit, PermitKind, Reason, Recorded, Rejection,
    Statistical, Window,
};

use crate::log::EventLog;
use crate::output::{
    finish_metrics, BreakerKind, BreakerResult, Breakers, CallReport, Changes, Decided, Event,
    Metrics, Phases, RunResult, Totals, Verdict,
};
use crate::rng::Stream;
use crate::scenario::{phase_index, Condition, Phase, Scenario};
use crate::series::{Count, SeriesAcc, LEVEL, TRIAL};
use crate::trace::{TraceError, TraceRecord};
use crate::SimError;

/// Times closer than this are taken as equal by the capacity rule's open interval.
const TIME_EPS: f64 = 1e-9;

/// The fixed part of a run, shared by every clone of an engine (the same allocation: how
/// [`Sim::adopt_checkpoints`](crate::Sim::adopt_checkpoints) knows a run's own).
#[derive(Debug)]
pub(crate) struct Config {
    pub name: String,
    pub seed: u64,
    pub end: f64,
    pub phases: Vec<Phase>,
    pub meta: Phases,
    pub callers: u32,
    pub shared: bool,
    pub lock_hold: f64,
    pub lock_timeout: f64,
    pub call_timeout: f64,
    /// How many recent success times the capacity rule needs (0 = no phase has a capacity).
    pub cap_keep: usize,
}

/// A call about to arrive: its time and, for a trace, its recorded outcome and latency.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Arrival {
    pub t: f64,
    pub given: Option<(Outcome, f64)>,
}

impl From<TraceRecord> for Arrival {
    fn from(r: TraceRecord) -> Self {
        Arrival {
            t: r.time_s,
            given: Some((r.outcome, r.latency_s)),
        }
    }
}

/// Where arrivals come from.
pub(crate) trait Source {
    fn next_arrival(&mut self) -> Result<Option<Arrival>, TraceError>;
}

/// What the dependency would do with a call (drawn once, used for both breakers).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Drawn {
    /// What the dependency answers.
    pub outcome: Outcome,
    /// When, after the call.
    pub latency: f64,
    /// The latency if the call is shed as overload instead.
    pub fail_latency: f64,
}

#[derive(Debug, Clone, Copy)]
enum What {
    /// A call's result. The permit is held field by field (see [`Slip`]).
    Result {
        side: BreakerKind,
        copy: u32,
        slip: Slip,
        outcome: Outcome,
        /// Admitted uncounted because the shared lock was not had: the result skips the breaker.
        uncounted: bool,
    },
    Deadline {
        side: BreakerKind,
        copy: u32,
        at: f64,
    },
}

/// A [`Permit`] as the queue holds it. Each field is moved on its own: a permit copied whole
/// right after it was built field by field is read back in 16-byte pieces spanning two 8-byte
/// writes, which stalls the load on store forwarding (it showed in the profile on every call).
#[derive(Debug, Clone, Copy)]
struct Slip {
    generation: u64,
    id: u64,
    issued_at: f64,
    kind: PermitKind,
}

impl Slip {
    #[inline(always)]
    fn of(p: &Permit) -> Slip {
        Slip {
            generation: p.generation,
            id: p.id,
            issued_at: p.issued_at,
            kind: p.kind,
        }
    }

    #[inline(always)]
    fn permit(self) -> Permit {
        Permit::new(self.generation, self.id, self.issued_at, self.kind)
    }
}

#[derive(Debug, Clone, Copy)]
struct Entry {
    t: f64,
    what: What,
}

impl Entry {
    /// Overwritten as soon as it is pushed ([`Queue::push`]).
    const PLACEHOLDER: Entry = Entry {
        t: 0.0,
        what: What::Deadline {
            side: BreakerKind::Statistical,
            copy: 0,
            at: 0.0,
        },
    };
}

/// Pending results and deadlines, given in the order of a binary heap on `(t, sequence number)`
/// exactly: earliest time first, then the order of scheduling (a new entry goes after every
/// entry of its time).
///
/// Two parts. Results come back nearly in the order the calls went out (latencies are short
/// beside the spacing of calls), so an entry due at or after the last one queued goes at the
/// back of a sorted buffer (one comparison) and the next leaves from its front, without a
/// heap's sifts of whole entries. An entry due before the last one queued (a fast answer behind
/// slower ones) is placed in the buffer if its place is near the back ([`Queue::push_late`]),
/// else it goes into a binary heap of its own ([`Late`]). Placing every such entry in the
/// buffer shifted the entries on one side of its place: with a latency jitter of a minute at
/// 1e5 calls/min, about half of the 100,000 results queued (50,000 calls in flight, a result
/// each per breaker) for every call, and a 10-minute run took 27.5 s (0.5 s with the heap).
///
/// The heap's entries are all due before the buffer's last entry: each was when it was pushed,
/// and the buffer's last entry leaves only after them. So the buffer is empty only when the
/// heap is too. At equal times the buffer's entries were pushed before the heap's: an entry goes
/// into the buffer only when due after every entry in the heap, and the heap's first moves to
/// the buffer only when due before the buffer's front.
///
/// The buffer is a `Vec` from `head` on (cheaper per entry than a `VecDeque`'s wrapping
/// indices): it empties often (then starts over at the front), and the slots before `head` are
/// reclaimed once they are the larger part.
#[derive(Debug)]
struct Queue {
    entries: Vec<Entry>,
    head: usize,
    late: BinaryHeap<Late>,
    /// Entries pushed into `late` so far: the order among its equal times.
    late_pushed: u64,
    /// No entry in `late` is due later than this (the latest pushed there since it was last
    /// empty; unset, `-inf`, while empty): a buffer entry due after it can tie with none.
    late_latest: f64,
}

/// A copy of the entries queued, without the taken slots before `head` (a checkpoint is such a
/// copy: those slots can be as many as the entries left, and cost as much).
impl Clone for Queue {
    fn clone(&self) -> Self {
        Queue {
            entries: self.entries[self.head..].to_vec(),
            head: 0,
            late: self.late.clone(),
            late_pushed: self.late_pushed,
            late_latest: self.late_latest,
        }
    }
}

impl Default for Queue {
    fn default() -> Self {
        Queue {
            entries: Vec::new(),
            head: 0,
            late: BinaryHeap::new(),
            late_pushed: 0,
            late_latest: f64::NEG_INFINITY,
        }
    }
}

/// An entry pushed out of order, with its push number among such entries. Ordered for
/// `BinaryHeap` (a max-heap) so that its greatest is the earliest: reversed on `(t, seq)`.
#[derive(Debug, Clone, Copy)]
struct Late {
    e: Entry,
    seq: u64,
}

// The sizes `MAX_CHECKPOINT_BYTES`' docs (and the sim README) give for a queued entry, checked
// when the crate is built for any target: 48 bytes, 56 out of time order (with its sequence
// number). No field is pointer-sized, and wasm32 aligns `u64` and `f64` to 8 bytes as 64-bit
// targets do, so the page's wasm holds the same as a native run.
const _: () = assert!(std::mem::size_of::<Entry>() == 48 && std::mem::size_of::<Late>() == 56);

impl Ord for Late {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .e
            .t
            .total_cmp(&self.e.t)
            .then(other.seq.cmp(&self.seq))
    }
}

impl PartialOrd for Late {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Late {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Late {}

impl Queue {
    /// How far back from the buffer's end an out-of-order entry is placed in the buffer itself.
    const NEAR: usize = 8;

    /// Add an entry after every entry of its time or earlier.
    ///
    /// At the back of the buffer when no entry there is due later; else [`Queue::push_late`].
    /// The slot is made first and the entry written into it: an entry built before the slot
    /// exists (`push` may grow the buffer) is kept on the stack and copied over in wider pieces
    /// than it was written in, and that copy stalls on store forwarding (it showed on every call).
    ///
    /// The order test reads the buffer's last entry, not `entries[head..]`'s (no slice to
    /// bound): it is the queue's last, as the buffer is empty whenever the queue is (a take
    /// starts over then).
    #[inline(always)]
    fn push(&mut self, t: f64, what: What) {
        if matches!(self.entries.last(), Some(last) if last.t.total_cmp(&t) == Ordering::Greater) {
            self.push_late(Entry { t, what });
            return;
        }
        self.entries.push(Entry::PLACEHOLDER);
        if let Some(slot) = self.entries.last_mut() {
            *slot = Entry { t, what };
        }
    }

    /// Place an entry due before the buffer's last. Rare: a fast answer behind slower ones.
    ///
    /// Into the buffer if its place is after the first of the buffer's last [`Queue::NEAR`]
    /// entries (those after it move on one slot) and it is due after every entry in the heap;
    /// else into the heap. So at equal times the buffer's entries stay the earlier pushed: an
    /// entry of a time the heap holds goes into the heap, after it. (Most out-of-order answers
    /// are a few places behind.)
    #[cold]
    #[inline(never)]
    fn push_late(&mut self, e: Entry) {
        let after_heap = e.t.total_cmp(&self.late_latest) == Ordering::Greater;
        if after_heap {
            let n = self.entries.len();
            let lo = n.saturating_sub(Self::NEAR).max(self.head);
            let i = lo
                + self.entries[lo..].partition_point(|x| x.t.total_cmp(&e.t) != Ordering::Greater);
            if i > lo || lo == self.head {
                self.entries.insert(i, e);
                return;
            }
        }
        let seq = self.late_pushed;
        self.late_pushed += 1;
        if after_heap {
            self.late_latest = e.t;
        }
        self.late.push(Late { e, seq });
    }

    /// The heap's first entry if it comes before the buffer's front (or the buffer is empty).
    fn late_first(&self) -> Option<&Entry> {
        let l = &self.late.peek()?.e;
        match self.entries.get(self.head) {
            Some(front) if l.t.total_cmp(&front.t) != Ordering::Less => None,
            _ => Some(l),
        }
    }

    #[inline]
    fn peek(&self) -> Option<&Entry> {
        self.late_first().or_else(|| self.entries.get(self.head))
    }

    /// Entries queued (the tests' count; a clone's size is [`Queue::clone_bytes`]).
    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len() - self.head + self.late.len()
    }

    /// What a clone holds on the heap, in bytes: the entries left in the buffer, and those out
    /// of order with their sequence numbers (`Late`, 8 bytes more an entry).
    fn clone_bytes(&self) -> usize {
        (self.entries.len() - self.head) * std::mem::size_of::<Entry>()
            + self.late.len() * std::mem::size_of::<Late>()
    }

    /// Take the first entry (the tests' take; a run takes with [`Queue::pop_due`]).
    #[cfg(test)]
    fn pop(&mut self) -> Option<Entry> {
        self.pop_due(f64::INFINITY)
    }

    /// Take the first entry if it is due at or before `t`.
    ///
    /// The heap's first entry, when it is the queue's and due, is first moved to the buffer's
    /// front ([`Queue::promote`]): the take itself is then the buffer's alone. (Returning the
    /// heap's entry from here instead cost 16 instructions a call, callgrind, busy-service: the
    /// entry was no longer handed over in registers.)
    #[inline(always)]
    fn pop_due(&mut self, t: f64) -> Option<Entry> {
        if !self.late.is_empty() {
            self.promote(t);
        }
        if self.entries.get(self.head)?.t <= t {
            self.pop_front()
        } else {
            None
        }
    }

    /// If the heap's first entry comes before the buffer's front and is due by `t`, move it
    /// there, to be taken at once: into the free slot before `head` (one is free after any take,
    /// and [`Queue::reclaim`] keeps one), else in front of the buffer's entries (they move on one
    /// slot: only at a take with no free slot, once after the buffer started over). It was once
    /// moved whether due or not: an entry moved but not taken then held the front, the next
    /// look found no free slot before it, and answers due in falling order shifted the whole
    /// buffer for each.
    #[cold]
    #[inline(never)]
    fn promote(&mut self, t: f64) {
        if !self.late_first().is_some_and(|l| l.t <= t) {
            return;
        }
        let Some(Late { e, .. }) = self.late.pop() else {
            return;
        };
        if self.late.is_empty() {
            self.late_latest = f64::NEG_INFINITY;
        }
        if self.head > 0 {
            self.head -= 1;
            self.entries[self.head] = e;
        } else {
            self.entries.insert(0, e);
        }
    }

    /// Take the buffer's front entry (copied out field by field, see [`Slip`]).
    #[inline(always)]
    fn pop_front(&mut self) -> Option<Entry> {
        let e = self.entries.get(self.head).map(|e| Entry {
            t: e.t,
            what: e.what,
        })?;
        self.head += 1;
        if self.head == self.entries.len() {
            self.entries.clear();
            self.head = 0;
        } else if self.head >= 64 && self.head * 2 >= self.entries.len() {
            self.reclaim();
        }
        Some(e)
    }

    /// Drop the slots before `head` but one: the slot [`Queue::promote`] moves an entry into.
    #[cold]
    fn reclaim(&mut self) {
        self.entries.drain(..self.head - 1);
        self.head = 1;
    }

    /// Every entry queued, in no particular order.
    fn iter(&self) -> impl Iterator<Item = &Entry> {
        self.entries[self.head..]
            .iter()
            .chain(self.late.iter().map(|l| &l.e))
    }
}

/// What one step did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stepped {
    Arrival,
    Result,
    Deadline,
    Done,
}

/// One copy of a breaker and the deadline queued for it, side by side so that an event finds
/// both with one index (one bounds check).
#[derive(Debug, Clone)]
pub(crate) struct Held<B> {
    pub breaker: B,
    /// The deadline queued for this copy (infinite when none).
    scheduled: f64,
}

/// How many of `times` (in order) are in `(t - 1 s, t]`, after dropping those before. (Out of
/// line: only calls in a phase with a capacity come here.)
#[inline(never)]
fn last_second(times: &mut VecDeque<f64>, t: f64) -> usize {
    while let Some(&s) = times.front() {
        if s <= t - 1.0 + TIME_EPS {
            times.pop_front();
        } else {
            break;
        }
    }
    times.len()
}

/// One breaker kind's world: its copies (one per caller, or one shared), its own copy of the
/// dependency's capacity, its lock, counters, events and series.
#[derive(Debug, Clone)]
pub(crate) struct Side<B> {
    kind: BreakerKind,
    pub copies: Vec<Held<B>>,
    successes: VecDeque<f64>,
    /// Rejected calls counted as good in a capacity phase, in the last second: they would have
    /// taken the capacity had they been admitted ([`Side::would_succeed`]).
    good_rejected: VecDeque<f64>,
    lock_free_at: f64,
    pub metrics: Metrics,
    pub totals: Totals,
    pub events: EventLog,
    pub series: Option<SeriesAcc>,
    /// When caller 0's copy was last sampled (0 before any sample). The copy changes only at
    /// sampled events, so observing it now at this time gives that last sample again: what a
    /// series started later (from a checkpoint) carries into its first buckets.
    sampled_at: f64,
}

/// How a breaker's chart values are sampled. Every event of caller 0's copy is sampled; each
/// breaker gives its fast-moving values (the score, the trial score) cheaply, and the full
/// observation (with the line, which needs `exp` and `ln`) is taken only at the first event in
/// each bucket and at each transition (the line moves smoothly in between).
pub(crate) trait Probe: Breaker {
    /// `(level, trial)` at `t`, as [`Breaker::observe`] gives them, without a full observation.
    fn quick(&self, t: f64) -> (f64, f64);

    /// Whether a permit that makes no transition leaves [`Probe::quick`]'s values as they were
    /// (whatever the time then).
    fn permit_keeps_quick(&self) -> bool;

    /// The level the breaker reached in the instant its last transitions left it, when the
    /// observation after them no longer gives it: the statistical score that opened it.
    fn level_left(&self) -> Option<f64> {
        None
    }

    /// The trial value that ended half-open in its last transitions (the observation after
    /// them has none): the trial score that reached A or B, the probes' failure rate judged.
    fn trial_left(&self) -> Option<f64>;

    /// Results recorded in a half-open they came late to ([`Window::late_in_half_open`]; the
    /// statistical breaker drops them).
    fn late_in_half_open(&self) -> u64 {
        0
    }
}

impl Probe for Statistical {
    #[inline]
    fn quick(&self, _t: f64) -> (f64, f64) {
        // As `observe`: the closed score only while closed, the trial score only half-open.
        match self.state() {
            breaker::State::Closed => (self.score(), f64::NAN),
            breaker::State::HalfOpen => (f64::NAN, self.trial_score()),
            breaker::State::Open => (f64::NAN, f64::NAN),
        }
    }

    /// A permit moves neither score (it only meters traffic and may start a trial).
    #[inline]
    fn permit_keeps_quick(&self) -> bool {
        true
    }

    /// Leaving closed (for open), the score that reached the line: held as it was, unused.
    fn level_left(&self) -> Option<f64> {
        self.transitions()
            .iter()
            .any(|tr| tr.from == breaker::State::Closed)
            .then(|| self.score())
    }

    /// Leaving half-open, the trial score that decided it (the trial score is 0 outside
    /// half-open).
    fn trial_left(&self) -> Option<f64> {
        self.transitions().iter().find_map(|tr| match tr.reason {
            Reason::TrialReachedUpper { trial, .. }
            | Reason::TrialReachedLower { trial, .. }
            | Reason::HalfOpenTimeLimit { trial, .. } => Some(trial),
            _ => None,
        })
    }
}

impl Probe for Window {
    /// The same `level` and `trial` as [`Breaker::observe`] gives (failure rate of the current
    /// window, the probes' failure rate in half-open); the other values change only with a
    /// transition.
    #[inline]
    fn quick(&self, t: f64) -> (f64, f64) {
        let level = self.failure_rate(t);
        let trial = if self.state() == breaker::State::HalfOpen {
            let calls = self.calls_in_window(t);
            if calls > 0 {
                self.failed_calls_in_window(t) as f64 / calls as f64
            } else {
                f64::NAN
            }
        } else {
            f64::NAN
        };
        (level, trial)
    }

    /// A permit records nothing in the window; a count window's rates do not depend on the
    /// time (a time window's drop old seconds as time goes on).
    #[inline]
    fn permit_keeps_quick(&self) -> bool {
        self.settings().sliding_window_type == breaker::SlidingWindowType::CountBased
    }

    /// Leaving half-open on the probes' results, their failure rate (judged, then cleared).
    /// Not when the slow-call rate opened it: its reason holds that rate, not the failures'.
    fn trial_left(&self) -> Option<f64> {
        self.transitions().iter().find_map(|tr| match tr.reason {
            Reason::ProbesPassed { failure_rate, .. } => Some(failure_rate),
            Reason::FailureRate { rate, .. } if tr.from == breaker::State::HalfOpen => Some(rate),
            _ => None,
        })
    }

    fn late_in_half_open(&self) -> u64 {
        Window::late_in_half_open(self)
    }
}

impl<B: Probe> Side<B> {
    fn new(kind: BreakerKind, copies: Vec<B>, cap_keep: usize) -> Self {
        Side {
            kind,
            copies: copies
                .into_iter()
                .map(|breaker| Held {
                    breaker,
                    scheduled: f64::INFINITY,
                })
                .collect(),
            // Grown as needed: the capacity may be up to 1e9 calls/s, far past what a 32-bit
            // wasm can reserve (3e8 made the page's simulator panic on "capacity overflow").
            successes: VecDeque::with_capacity(cap_keep.min(1024)),
            good_rejected: VecDeque::new(),
            lock_free_at: f64::NEG_INFINITY,
            metrics: Metrics::default(),
            totals: Totals::default(),
            events: EventLog::default(),
            series: None,
            sampled_at: 0.0,
        }
    }

    /// Take the shared lock at `t`: `Some(time the change applies)` or `None` (dropped).
    fn lock(&mut self, cfg: &Config, t: f64) -> Option<f64> {
        let wait = (self.lock_free_at - t).max(0.0);
        if wait > cfg.lock_timeout {
            self.metrics.dropped_updates += 1;
            return None;
        }
        let at = t + wait;
        self.lock_free_at = at + cfg.lock_hold;
        Some(at)
    }

    /// Successes of this side's dependency copy in `(t - 1 s, t]`, capped at `cap_keep`.
    fn recent_successes(&mut self, t: f64) -> usize {
        last_second(&mut self.successes, t)
    }

    /// The outcome and latency an admitted call gets from this side's dependency copy.
    /// A failure while the phase is not `fine` is counted in `failed_while_unhealthy` here.
    fn serve(&mut self, cfg: &Config, phase: &Phase, t: f64, d: &Drawn) -> (Outcome, f64) {
        if d.outcome != Outcome::Success {
            self.failed_unless_fine(phase, d.outcome);
            return (d.outcome, d.latency);
        }
        if cfg.cap_keep == 0 {
            return (d.outcome, d.latency);
        }
        if phase.capacity > 0.0 && self.recent_successes(t) as f64 >= phase.capacity {
            let shed = shed(d.fail_latency, cfg.call_timeout);
            self.failed_unless_fine(phase, shed.0);
            return shed;
        }
        if self.successes.len() == cfg.cap_keep {
            self.successes.pop_front();
        }
        self.successes.push_back(t);
        (Outcome::Success, d.latency)
    }

    /// Count an admitted call's `outcome` in `failed_while_unhealthy` if it is a failure and
    /// `phase` is not `fine`. Only on the paths of calls that do not succeed: a success (most
    /// calls) pays nothing for it.
    #[inline]
    fn failed_unless_fine(&mut self, phase: &Phase, outcome: Outcome) {
        if phase.condition != Condition::Fine && outcome.class() == Class::Failure {
            self.metrics.failed_while_unhealthy += 1;
        }
    }

    /// Whether a rejected call would have been answered successfully. In a capacity phase the
    /// rejected calls counted so take the capacity too: of 50 calls rejected in 10 s at 2
    /// answers a second, at most 20 are good, as admitting them all would have let through.
    fn would_succeed(&mut self, cfg: &Config, phase: &Phase, t: f64, d: &Drawn) -> bool {
        if d.outcome != Outcome::Success {
            return false;
        }
        if cfg.cap_keep == 0 || phase.capacity <= 0.0 {
            return true;
        }
        let taken = self.recent_successes(t) + last_second(&mut self.good_rejected, t);
        let good = (taken as f64) < phase.capacity;
        if good {
            self.good_rejected.push_back(t);
        }
        good
    }

    /// After `copy` changed at `t` (a permit, a result, a deadline): its transitions become
    /// events, its next deadline is queued if it moved (`after`: only a deadline later than this,
    /// which guards against one that a poll did not clear), and caller 0's copy is sampled
    /// (`after_permit`: see [`sample_after_permit`]). The copy is indexed once for all three.
    /// Inlined into each caller: out of line it costs more than the index it saves.
    #[inline(always)]
    fn settle(
        &mut self,
        q: &mut Queue,
        cfg: &Config,
        copy: usize,
        t: f64,
        after: f64,
        after_permit: bool,
    ) {
        let held = &mut self.copies[copy];
        let b = &held.breaker;
        for tr in b.transitions() {
            self.events.push(Event {
                t_s: tr.at,
                breaker: self.kind,
                caller: copy as u32,
                from: tr.from,
                to: tr.to,
                generation: tr.generation,
                reason: tr.reason,
            });
        }
        let d = b.next_deadline().unwrap_or(f64::INFINITY);
        let d = if d > after { d } else { f64::INFINITY };
        if d != held.scheduled {
            held.scheduled = d;
            schedule(q, cfg, self.kind, copy, t, d);
        }
        if copy == 0 {
            if after_permit {
                sample_after_permit(&mut self.series, &mut self.sampled_at, b, t);
            } else {
                sample(&mut self.series, &mut self.sampled_at, b, t);
            }
        }
    }

    fn arrive(
        &mut self,
        q: &mut Queue,
        cfg: &Config,
        phase: &Phase,
        t: f64,
        caller: u32,
        d: &Drawn,
    ) -> Decided {
        let copy = if cfg.shared { 0 } else { caller as usize };
        self.totals.calls += 1;
        let (decision, at, uncounted) = if cfg.shared {
            match self.lock(cfg, t) {
                Some(at) => (self.copies[copy].breaker.permit(at), at, false),
                None => {
                    // The shared state could not be read in time: the call goes out uncounted.
                    let b = &self.copies[copy].breaker;
                    let p = Permit::new(b.generation(), 0, t, PermitKind::LastOption);
                    (Decision::Admit(p), t, true)
                }
            }
        } else {
            (self.copies[copy].breaker.permit(t), t, false)
        };
        let decided = match decision {
            Decision::Admit(permit) => {
                self.totals.admitted += 1;
                if permit.kind == PermitKind::Trial {
                    self.totals.trials += 1;
                }
                let (outcome, latency) = self.serve(cfg, phase, at, d);
                if outcome == Outcome::Timeout {
                    self.metrics.calls_waited_on_failure += 1;
                }
                let result_at = at + latency;
                q.push(
                    result_at,
                    What::Result {
                        side: self.kind,
                        copy: copy as u32,
                        slip: Slip::of(&permit),
                        outcome,
                        uncounted,
                    },
                );
                Decided {
                    verdict: if uncounted {
                        Verdict::LastOption
                    } else {
                        Verdict::of_kind(permit.kind)
                    },
                    outcome: Some(outcome),
                    result_at_s: Some(result_at),
                }
            }
            Decision::Reject(r) => {
                self.metrics.calls_rejected += 1;
                self.totals.to_fallback += 1;
                if self.would_succeed(cfg, phase, at, d) {
                    self.metrics.good_calls_to_fallback += 1;
                }
                // By the call's arrival, as the series' docs say (a shared lock can put the
                // decision past the run's end, where the bucket would drop it).
                if let Some(s) = self.series.as_mut() {
                    s.count(t, Count::Fallback);
                }
                Decided {
                    verdict: match r {
                        Rejection::Open { .. } => Verdict::RejectedOpen,
                        Rejection::HalfOpenBusy => Verdict::RejectedBusy,
                        // `Rejection` is non-exhaustive; a reason added later reads as open
                        // until the trace learns its name.
                        _ => Verdict::RejectedOpen,
                    },
                    outcome: None,
                    result_at_s: None,
                }
            }
        };
        if !uncounted {
            self.settle(q, cfg, copy, at, f64::NEG_INFINITY, true);
        }
        decided
    }

    #[allow(clippy::too_many_arguments)]
    fn result(
        &mut self,
        q: &mut Queue,
        cfg: &Config,
        t: f64,
        copy: usize,
        permit: &Permit,
        outcome: Outcome,
        uncounted: bool,
    ) {
        let failed = outcome.class() == Class::Failure;
        if failed {
            self.totals.failed += 1;
        } else {
            self.totals.answered += 1;
        }
        if let Some(s) = self.series.as_mut() {
            s.count(
                t,
                if failed {
                    Count::Failed
                } else {
                    Count::Answered
                },
            );
        }
        if uncounted {
            return;
        }
        let at = if cfg.shared {
            match self.lock(cfg, t) {
                Some(at) => at,
                None => return,
            }
        } else {
            t
        };
        match self.copies[copy].breaker.record(permit, outcome, at) {
            Recorded::Counted => self.totals.results_counted += 1,
            Recorded::Ignored(Ignored::Neutral) => self.totals.results_neutral += 1,
            Recorded::Ignored(Ignored::LastOption) => {}
            Recorded::Ignored(Ignored::Stale { .. } | Ignored::Lost | Ignored::NoEffect) => {
                self.metrics.late_results_ignored += 1;
                // By the result's arrival, as `answered` and `failed` are counted.
                if let Some(s) = self.series.as_mut() {
                    s.count(t, Count::LateIgnored);
                }
            }
            // `Ignored` is non-exhaustive; a reason added later is counted nowhere until the
            // simulator learns it.
            Recorded::Ignored(_) => {}
        }
        self.settle(q, cfg, copy, at, f64::NEG_INFINITY, false);
    }

    fn deadline(&mut self, q: &mut Queue, cfg: &Config, t: f64, copy: usize, at: f64) {
        let held = &mut self.copies[copy];
        if held.scheduled != at {
            return; // superseded
        }
        held.scheduled = f64::INFINITY;
        held.breaker.poll(t);
        self.settle(q, cfg, copy, t, at, false);
    }

    /// The metrics so far, with what the breakers count themselves.
    #[inline(never)]
    fn metrics_now(&self) -> Metrics {
        Metrics {
            late_results_in_half_open: self
                .copies
                .iter()
                .map(|h| h.breaker.late_in_half_open())
                .sum(),
            ..self.metrics.clone()
        }
    }

    /// This side's result so far; `end` is the run's end ([`Engine::end`]), `known` the time up
    /// to which it has been computed ([`Engine::known_to`]).
    pub(crate) fn result_of(
        &self,
        cfg: &Config,
        end: f64,
        in_flight: u64,
        known: f64,
    ) -> BreakerResult {
        breaker_result(
            self.metrics_now(),
            self.totals.clone(),
            self.events.to_vec(),
            self.series.clone(),
            cfg,
            end,
            in_flight,
            known,
        )
    }

    /// This side's metrics, totals (with `in_flight` at the end) and caller 0's changes so far:
    /// [`Side::result_of`]'s, without copying the events and series.
    pub(crate) fn summary_of(
        &self,
        cfg: &Config,
        end: f64,
        in_flight: u64,
    ) -> (Metrics, Totals, Changes) {
        summary(
            self.metrics_now(),
            &self.totals,
            &self.events,
            cfg,
            end,
            in_flight,
        )
    }

    /// [`Side::result_of`], taking the series rather than copying it (the event log's chunks are
    /// gathered into one `Vec`).
    pub(crate) fn into_result(
        self,
        cfg: &Config,
        end: f64,
        in_flight: u64,
        known: f64,
    ) -> BreakerResult {
        breaker_result(
            self.metrics_now(),
            self.totals,
            self.events.to_vec(),
            self.series,
            cfg,
            end,
            in_flight,
            known,
        )
    }
}

/// A call the capacity sheds: an overload at the failure latency, or a timeout at the call
/// timeout if the answer would not come before it (`fail_latency` is capped there, as every
/// call's is). Out of line: inlined into [`Side::serve`], it cost every call 16 instructions
/// (callgrind, busy-service), out of line 8.
#[cold]
#[inline(never)]
fn shed(fail_latency: f64, call_timeout: f64) -> (Outcome, f64) {
    let outcome = if fail_latency >= call_timeout {
        Outcome::Timeout
    } else {
        Outcome::Overload
    };
    (outcome, fail_latency)
}

/// Queue a copy's new deadline `d` (kept out of line: deadlines change rarely).
#[cold]
#[inline(never)]
fn schedule(q: &mut Queue, cfg: &Config, side: BreakerKind, copy: usize, now: f64, d: f64) {
    if d.is_finite() && d <= cfg.end {
        q.push(
            d.max(now),
            What::Deadline {
                side,
                copy: copy as u32,
                at: d,
            },
        );
    }
}

/// Sample caller 0's copy `b` at `t` into the series, if any, and note the time
/// ([`Side::sampled_at`]).
#[inline]
fn sample<B: Probe>(series: &mut Option<SeriesAcc>, sampled_at: &mut f64, b: &B, t: f64) {
    *sampled_at = t;
    if let Some(s) = series.as_mut() {
        if b.transitions().is_empty() && s.same_bucket(t) {
            let (level, trial) = b.quick(t);
            s.sample_quick(t, level, trial);
            return;
        }
        s.sample(t, &b.observe(t));
        if let Some(x) = b.level_left() {
            s.reach(t, LEVEL, x);
        }
        if let Some(x) = b.trial_left() {
            s.reach(t, TRIAL, x);
        }
    }
}

/// [`sample`] after a permit: when it made no transition, the breaker's quick values are those
/// sampled last ([`Probe::permit_keeps_quick`]), so if they are in the current bucket already,
/// sampling them again would change nothing.
#[inline]
fn sample_after_permit<B: Probe>(
    series: &mut Option<SeriesAcc>,
    sampled_at: &mut f64,
    b: &B,
    t: f64,
) {
    if let Some(s) = series.as_mut() {
        if b.transitions().is_empty() && b.permit_keeps_quick() && s.holds_last(t) {
            *sampled_at = t;
            return;
        }
    }
    sample(series, sampled_at, b, t);
}

/// [`Side::summary_of`], not generic over the breaker (one copy in the wasm, not two).
fn summary(
    mut metrics: Metrics,
    totals: &Totals,
    events: &EventLog,
    cfg: &Config,
    end: f64,
    in_flight: u64,
) -> (Metrics, Totals, Changes) {
    let parts = events.parts();
    let changes = finish_metrics(&mut metrics, &parts, &cfg.meta, end);
    let mut totals = totals.clone();
    totals.in_flight_at_end = in_flight;
    (metrics, totals, changes)
}

#[allow(clippy::too_many_arguments)]
fn breaker_result(
    mut metrics: Metrics,
    mut totals: Totals,
    events: Vec<Event>,
    series: Option<SeriesAcc>,
    cfg: &Config,
    end: f64,
    in_flight: u64,
    known: f64,
) -> BreakerResult {
    let changes = finish_metrics(&mut metrics, &[&events], &cfg.meta, end);
    totals.in_flight_at_end = in_flight;
    BreakerResult {
        metrics,
        totals,
        changes,
        events,
        series: series.map(|s| s.finish(known)).unwrap_or_default(),
    }
}

/// The simulation's state: clock, queue, dependency, both breakers' worlds.
#[derive(Debug, Clone)]
pub(crate) struct Engine {
    pub cfg: Arc<Config>,
    pub now: f64,
    pub calls: u64,
    q: Queue,
    pending: Option<Arrival>,
    source_done: bool,
    dep: Dependency,
    pub stat: Side<Statistical>,
    pub win: Side<Window>,
    pub last: Option<CallReport>,
    phase: PhaseCursor,
    /// The run's end: the scenario's (`cfg.end`), or earlier once cut short ([`Engine::cut`]).
    pub end: f64,
    /// When the run was cut short: a breaker's log reached [`MAX_EVENTS`](crate::MAX_EVENTS)
    /// ([`Engine::cut`]).
    pub cut_at: Option<f64>,
}

/// The phase in force, kept between calls: most calls fall in the phase of the call before.
#[derive(Debug, Clone)]
struct PhaseCursor {
    /// [`phase_index`] of every `t` in `from <= t < until` (an empty range at first).
    index: usize,
    from: f64,
    until: f64,
}

impl PhaseCursor {
    fn new() -> Self {
        PhaseCursor {
            index: 0,
            from: f64::INFINITY,
            until: f64::NEG_INFINITY,
        }
    }

    /// [`phase_index`]`(phases, t)`.
    #[inline]
    fn index(&mut self, phases: &[Phase], t: f64) -> usize {
        if !(self.from <= t && t < self.until) {
            let i = phase_index(phases, t);
            // Phase i is in force from its start (from any time before for the first) to the
            // next one's start.
            self.index = i;
            self.from = if i == 0 {
                f64::NEG_INFINITY
            } else {
                phases[i].start
            };
            self.until = phases.get(i + 1).map_or(f64::INFINITY, |p| p.start);
        }
        self.index
    }
}

impl Engine {
    /// The run ends at `end`; `span` is the time its calls cover (the duration, or a trace's
    /// first call to its last), over which the settings are validated.
    pub(crate) fn new(s: &Scenario, end: f64, span: f64) -> Result<Engine, SimError> {
        s.validate_over(span).map_err(SimError::Settings)?;
        let n = s.callers.count as usize;
        let copies = if s.callers.shared_state { 1 } else { n };
        let stat = (0..copies)
            // The meter starts with the run, at 0, not at the first call.
            .map(|_| Statistical::starting_at(s.statistical.clone(), 0.0))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| SimError::Settings(e.within("statistical")))?;
        let win = (0..copies)
            .map(|i| {
                let mut w = s.window.clone();
                // Each caller's copy draws its own randomized waits.
                w.random_seed = w.random_seed.wrapping_add(i as u64);
                Window::new(w)
            })
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| SimError::Settings(e.within("window")))?;
        let cap_keep = s
            .dependency
            .iter()
            .map(|p| libm::ceil(p.capacity) as usize)
            .max()
            .unwrap_or(0);
        let cfg = Config {
            name: s.name.clone(),
            seed: s.seed,
            end,
            phases: s.dependency.clone(),
            meta: Phases::of(s),
            callers: s.callers.count,
            shared: s.callers.shared_state,
            lock_hold: s.callers.lock_hold,
            lock_timeout: s.callers.lock_timeout,
            call_timeout: s.callers.call_timeout,
            cap_keep,
        };
        Ok(Engine {
            end: cfg.end,
            cfg: Arc::new(cfg),
            now: 0.0,
            calls: 0,
            q: Queue::default(),
            pending: None,
            source_done: false,
            dep: Dependency::new(s.seed),
            stat: Side::new(BreakerKind::Statistical, stat, cap_keep),
            win: Side::new(BreakerKind::Window, win, cap_keep),
            last: None,
            phase: PhaseCursor::new(),
            cut_at: None,
        })
    }

    pub(crate) fn enable_series(&mut self, buckets: usize, t0: f64, t1: f64) {
        let o = self.stat.copies[0].breaker.observe(self.now);
        self.stat.series = Some(SeriesAcc::new(buckets, t0, t1, &o));
        let o = self.win.copies[0].breaker.observe(self.now);
        self.win.series = Some(SeriesAcc::new(buckets, t0, t1, &o));
    }

    /// Series as [`Engine::enable_series`] from time 0 would have them, started now (from a
    /// checkpoint): the value carried into the first buckets is the last sample's observation.
    /// The caller makes sure no event before now was sampled or counted in `[t0, t1]`.
    pub(crate) fn enable_series_resumed(&mut self, buckets: usize, t0: f64, t1: f64) {
        let o = self.stat.copies[0].breaker.observe(self.stat.sampled_at);
        self.stat.series = Some(SeriesAcc::new(buckets, t0, t1, &o));
        let o = self.win.copies[0].breaker.observe(self.win.sampled_at);
        self.win.series = Some(SeriesAcc::new(buckets, t0, t1, &o));
    }

    pub(crate) fn is_done(&self) -> bool {
        self.source_done && self.pending.is_none() && self.next_queued_time().is_none()
    }

    /// The time up to which the run is computed: the end once every event is processed, else
    /// the clock (events are processed in time order, so nothing before it is still to come).
    pub(crate) fn known_to(&self) -> f64 {
        if self.is_done() {
            self.end
        } else {
            self.now.min(self.end)
        }
    }

    /// Whether a result or deadline (not an arrival) is due at or before `t`.
    pub(crate) fn queued_due(&self, t: f64) -> bool {
        self.next_queued_time().is_some_and(|q| q <= t)
    }

    fn next_queued_time(&self) -> Option<f64> {
        self.q.peek().map(|e| e.t).filter(|&t| t <= self.end)
    }

    fn load<S: Source>(&mut self, src: &mut S) -> Result<(), SimError> {
        if self.pending.is_none() && !self.source_done {
            match src.next_arrival().map_err(SimError::Trace)? {
                Some(a) if a.t <= self.end => self.pending = Some(a),
                _ => self.source_done = true,
            }
        }
        Ok(())
    }

    /// The time of the next event, if any.
    pub(crate) fn peek<S: Source>(&mut self, src: &mut S) -> Result<Option<f64>, SimError> {
        self.load(src)?;
        let h = self.next_queued_time();
        let a = self.pending.map(|a| a.t);
        Ok(match (h, a) {
            (Some(h), Some(a)) => Some(h.min(a)),
            (h, a) => h.or(a),
        })
    }

    /// Process the next event.
    ///
    /// Natively, [`Engine::events`] (shared with [`Engine::step_to_call`]); in wasm, the same
    /// step written on its own ([`Engine::step_one`]): the per-call loop in the wasm ran the
    /// busy month 2.4% slower in V8 (node, one process per run) with 2.5% more instructions and
    /// 1 kB more gzip. A test plays every preset both ways.
    pub(crate) fn step<S: Source>(&mut self, src: &mut S) -> Result<Stepped, SimError> {
        if cfg!(target_arch = "wasm32") {
            self.step_one(src)
        } else {
            self.events(src, true)
        }
    }

    /// Process the events up to the next arrival and the arrival itself ([`Engine::step`] until
    /// it gives [`Stepped::Arrival`]), or the next event when no arrival is left. Natively
    /// only (see [`Sim::advance`](crate::Sim::advance)).
    pub(crate) fn step_to_call<S: Source>(&mut self, src: &mut S) -> Result<Stepped, SimError> {
        self.events(src, false)
    }

    /// The next event (`single`), or the events up to and including the next arrival, in one
    /// loop: the source is asked once per call, not once per event. The same order as
    /// [`Engine::step_one`]: queued entries while due by the next arrival (never later than the
    /// end), or one due by the end when no arrival is left; then the arrival, or the end.
    fn events<S: Source>(&mut self, src: &mut S, single: bool) -> Result<Stepped, SimError> {
        self.load(src)?;
        let (due_by, single) = match self.pending {
            Some(a) => (a.t, single),
            None => (self.end, true),
        };
        while let Some(e) = self.q.pop_due(due_by) {
            let s = self.queued(e);
            if single {
                return Ok(s);
            }
        }
        Ok(self.arrival_or_end())
    }

    /// [`Engine::step`] in wasm: [`Engine::events`] with `single`, written without the loop.
    fn step_one<S: Source>(&mut self, src: &mut S) -> Result<Stepped, SimError> {
        self.load(src)?;
        // A queued entry first if it is due by the next arrival (never later than the end), or
        // by the end when no arrival is left: one look at the queue's front, taken if due.
        let due_by = match self.pending {
            Some(a) => a.t,
            None => self.end,
        };
        Ok(match self.q.pop_due(due_by) {
            Some(e) => self.queued(e),
            None => self.arrival_or_end(),
        })
    }

    /// With nothing queued due first: the next arrival, or the end when none is left.
    #[inline(always)]
    fn arrival_or_end(&mut self) -> Stepped {
        if let Some(a) = self.pending.take() {
            if self.stat.events.is_full() || self.win.events.is_full() {
                self.cut(a.t);
                return Stepped::Done;
            }
            self.arrive(a);
            Stepped::Arrival
        } else {
            if self.end > self.now {
                self.now = self.end;
            }
            Stepped::Done
        }
    }

    /// End the run at `t`, the time of the next call, without that call: a breaker's log holds
    /// [`MAX_EVENTS`](crate::MAX_EVENTS) changes. Everything due by `t` has been processed (a
    /// call comes after the results and deadlines of its instant), so the run is then as one
    /// whose scenario ended at `t`: no more arrivals, nothing queued later processed (results
    /// still out count as in flight at the end). The time is the call's, not the clock's, which
    /// a seek may have left anywhere before it: the cut is the same however the run is played.
    #[cold]
    #[inline(never)]
    fn cut(&mut self, t: f64) {
        self.source_done = true;
        self.cut_at = Some(t);
        self.end = t;
        if t > self.now {
            self.now = t;
        }
    }

    /// Process a queued entry, just taken from the queue (inlined: one caller on each target).
    #[inline(always)]
    fn queued(&mut self, e: Entry) -> Stepped {
        if e.t > self.now {
            self.now = e.t;
        }
        // A plain borrow of the shared config (disjoint from the fields changed below): no
        // reference count to bump per event.
        let cfg: &Config = &self.cfg;
        match e.what {
            What::Result {
                side,
                copy,
                slip,
                outcome,
                uncounted,
            } => {
                let c = copy as usize;
                let permit = slip.permit();
                match side {
                    BreakerKind::Statistical => {
                        self.stat
                            .result(&mut self.q, cfg, e.t, c, &permit, outcome, uncounted)
                    }
                    BreakerKind::Window => {
                        self.win
                            .result(&mut self.q, cfg, e.t, c, &permit, outcome, uncounted)
                    }
                }
                Stepped::Result
            }
            What::Deadline { side, copy, at } => {
                let c = copy as usize;
                match side {
                    BreakerKind::Statistical => self.stat.deadline(&mut self.q, cfg, e.t, c, at),
                    BreakerKind::Window => self.win.deadline(&mut self.q, cfg, e.t, c, at),
                }
                Stepped::Deadline
            }
        }
    }

    fn arrive(&mut self, a: Arrival) {
        let cfg: &Config = &self.cfg;
        let t = a.t;
        if t > self.now {
            self.now = t;
        }
        self.calls += 1;
        let n = self.calls;
        // (No 64-bit division for the usual single caller.)
        let caller = if cfg.callers == 1 {
            0
        } else {
            ((n - 1) % cfg.callers as u64) as u32
        };
        let phase = &cfg.phases[self.phase.index(&cfg.phases, t)];
        let d = match a.given {
            Some((outcome, latency)) => given(outcome, latency, cfg.call_timeout),
            None => self.dep.draw(phase, n, cfg.call_timeout),
        };
        let s = self.stat.arrive(&mut self.q, cfg, phase, t, caller, &d);
        let w = self.win.arrive(&mut self.q, cfg, phase, t, caller, &d);
        self.last = Some(CallReport {
            index: n,
            t_s: t,
            caller,
            drawn: d.outcome,
            statistical: s,
            window: w,
        });
    }

    /// The run's result, taking the series rather than copying them (the events are gathered
    /// into one `Vec` per breaker).
    pub(crate) fn into_result(self) -> RunResult {
        let in_flight = self.in_flight();
        let known = self.known_to();
        let Engine {
            cfg,
            calls,
            stat,
            win,
            cut_at,
            end,
            ..
        } = self;
        RunResult {
            name: cfg.name.clone(),
            seed: cfg.seed,
            end_s: end,
            cut_at_s: cut_at,
            calls,
            breakers: Breakers {
                statistical: stat.into_result(&cfg, end, in_flight[0], known),
                window: win.into_result(&cfg, end, in_flight[1], known),
            },
        }
    }

    /// Results and deadlines queued: two results a call in flight, one per breaker, and each
    /// breaker copy's deadlines, a superseded one staying queued until its time (then dropped).
    #[cfg(test)]
    pub(crate) fn queued_len(&self) -> usize {
        self.q.len()
    }

    /// What a clone of this engine copies beyond its fixed size, in bytes: the queue and the
    /// window breakers' outcomes (every caller's copy).
    pub(crate) fn held_bytes(&self) -> usize {
        let windows: usize = self
            .win
            .copies
            .iter()
            .map(|h| h.breaker.window_bytes())
            .sum();
        self.q.clone_bytes() + windows
    }

    pub(crate) fn in_flight(&self) -> [u64; 2] {
        let mut n = [0u64; 2];
        for e in self.q.iter() {
            if let What::Result { side, .. } = e.what {
                n[side as usize] += 1;
            }
        }
        n
    }
}

/// The dependency's random side: its streams and whether a failure burst is on.
#[derive(Debug, Clone)]
pub(crate) struct Dependency {
    /// The outcome decisions: four uniforms per call.
    rng: Stream,
    /// The latency jitter: one exponential per call while a phase has jitter.
    jitter: Stream,
    burst: bool,
}

impl Dependency {
    pub(crate) fn new(seed: u64) -> Self {
        Dependency {
            rng: Stream::new(seed, 2),
            jitter: Stream::new(seed, 3),
            burst: false,
        }
    }

    /// Draw what the dependency does with call `n` in `phase`: always four uniforms, in the same
    /// order, so that settings which change one decision do not shift the rest of the stream;
    /// the jitter comes from a stream of its own, so turning it on or off moves no outcome.
    #[inline]
    pub(crate) fn draw(&mut self, p: &Phase, n: u64, timeout: f64) -> Drawn {
        let u_input = self.rng.uniform();
        let u_hang = self.rng.uniform();
        let u_burst = self.rng.uniform();
        let u_fail = self.rng.uniform();
        if self.burst {
            if u_burst < p.burst.leave {
                self.burst = false;
            }
        } else if u_burst < p.burst.enter {
            self.burst = true;
        }
        let jitter = if p.latency_jitter == 0.0 && p.failure_latency_jitter == 0.0 {
            0.0
        } else {
            self.jitter.exponential()
        };
        let ok_latency = p.latency + p.latency_jitter * jitter;
        let fail_latency = p.failure_latency + p.failure_latency_jitter * jitter;
        let (outcome, latency) = if u_input < p.input_error_rate {
            (Outcome::InputRejected, ok_latency)
        } else if u_hang < p.hang_rate {
            (Outcome::Timeout, timeout)
        } else {
            let failed = if p.one_in > 0 {
                n % p.one_in as u64 == 0
            } else if self.burst {
                u_fail < p.burst.failure_rate
            } else {
                u_fail < p.failure_rate
            };
            if failed {
                let lat = if p.failure == Outcome::Timeout {
                    timeout
                } else {
                    fail_latency
                };
                (p.failure, lat)
            } else {
                (Outcome::Success, ok_latency)
            }
        };
        let d = Drawn {
            outcome,
            latency,
            fail_latency,
        };
        cap_at_timeout(d, timeout)
    }
}

/// A call with no answer by the call timeout completes then, as a timeout.
fn cap_at_timeout(mut d: Drawn, timeout: f64) -> Drawn {
    if d.latency >= timeout {
        d.outcome = Outcome::Timeout;
        d.latency = timeout;
    }
    if timeout < d.fail_latency {
        d.fail_latency = timeout;
    }
    d
}

fn given(outcome: Outcome, latency: f64, timeout: f64) -> Drawn {
    // A recorded timeout keeps its recorded latency (the recording client's timeout), capped at
    // this scenario's call timeout like every other call.
    cap_at_timeout(
        Drawn {
            outcome,
            latency,
            fail_latency: latency,
        },
        timeout,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::traffic::Generator;

    /// The whole run (series of 600 buckets) stepped by `step`, as JSON.
    fn play(s: &Scenario, end: f64, step: fn(&mut Engine, &mut Generator) -> Stepped) -> String {
        let mut e = Engine::new(s, end, end).expect("valid scenario");
        e.enable_series(600, 0.0, end);
        let mut src = Generator::new(s);
        while step(&mut e, &mut src) != Stepped::Done {}
        serde_json::to_string(&e.into_result()).expect("serializable")
    }

    /// An entry's time and its deadline's `at` (the tests' label for entries of equal times).
    fn label(e: &Entry) -> (f64, f64) {
        match e.what {
            What::Deadline { at, .. } => (e.t, at),
            What::Result { .. } => unreachable!(),
        }
    }

    fn deadline_at(at: f64) -> What {
        What::Deadline {
            side: BreakerKind::Window,
            copy: 0,
            at,
        }
    }

    /// A queue that never empties (a call always in flight) holds the entries still to come,
    /// not one slot per entry ever pushed: the slots before the front are given back once there
    /// are 64 of them and they are at least as many as the entries left. With `live` entries
    /// queued, the buffer stays within `max(64, live) + live + 1` slots, and entries leave in
    /// time order throughout.
    #[test]
    fn a_queue_that_never_empties_stays_small() {
        for live in [1usize, 100] {
            let mut q = Queue::default();
            for k in 0..live {
                q.push(k as f64, deadline_at(k as f64));
            }
            let bound = 64.max(live) + live + 1;
            let mut most = 0;
            for k in live..20_000 {
                q.push(k as f64, deadline_at(k as f64));
                most = most.max(q.entries.len());
                let e = q.pop().expect("queued");
                assert_eq!(e.t, (k - live) as f64, "live {live}");
            }
            assert!(most <= bound, "live {live}: {most} slots, bound {bound}");
            assert_eq!(q.iter().count(), live);
        }
    }

    /// A fast answer behind hung calls moves none of them: with 10,000 hung calls queued (a
    /// result each, due at 1000 s and on), 1,000 fast answers pushed and taken one by one leave
    /// the hung ones in their slots (after the first, taken with no free slot before them).
    /// (Each answer once moved all 10,000 on one slot: half the calls hanging for 1000 s at 1e5
    /// calls/min made a run of 1000 s take 14 s.)
    #[test]
    fn a_fast_answer_behind_hung_calls_moves_none_of_them() {
        let mut q = Queue::default();
        for k in 0..10_000 {
            q.push(1000.0 + k as f64, deadline_at(k as f64));
        }
        // The first is taken with the buffer full from its front: the hung calls move once.
        q.push(0.05, deadline_at(-1.0));
        assert_eq!(q.pop().map(|e| e.t), Some(0.05));
        let slot = |q: &Queue| q.entries.iter().position(|e| e.t == 1000.0);
        let at = slot(&q);
        for k in 1..1000 {
            let t = k as f64 * 0.25 + 0.05;
            q.push(t, deadline_at(-1.0));
            assert_eq!(slot(&q), at, "fast answer {k}");
            assert_eq!(q.peek().map(|e| e.t), Some(t));
            assert_eq!(q.pop().map(|e| e.t), Some(t));
        }
        assert_eq!(q.iter().count(), 10_000);
        assert_eq!(q.pop().map(|e| e.t), Some(1000.0));
    }

    /// An answer due among many calls in flight, anywhere among them, moves none of them: with
    /// 10,000 calls queued (due at 1000 s, 1001 s, ...), 2,000 answers due between two of
    /// them, at places drawn over the range (but its last [`Queue::NEAR`], where an answer is
    /// placed among them), leave the first and the last in their slots; then every entry
    /// leaves in time order. (Each such answer once shifted the entries on one side of its
    /// place, about half of those in flight: a latency jitter of a minute at 1e5 calls/min made
    /// a 10-minute run take 27.5 s instead of 0.5.)
    #[test]
    fn an_answer_among_many_in_flight_moves_none_of_them() {
        let mut q = Queue::default();
        for k in 0..10_000 {
            q.push(1000.0 + k as f64, deadline_at(k as f64));
        }
        let slot = |q: &Queue, t: f64| q.entries.iter().position(|e| e.t == t);
        let (first, last) = (slot(&q, 1000.0), slot(&q, 10_999.0));
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut want: Vec<f64> = (0..10_000).map(|k| 1000.0 + k as f64).collect();
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let t = 1000.5 + (x % (9_999 - Queue::NEAR as u64)) as f64;
            q.push(t, deadline_at(-1.0));
            want.push(t);
            assert_eq!((slot(&q, 1000.0), slot(&q, 10_999.0)), (first, last), "{t}");
        }
        want.sort_by(f64::total_cmp);
        let mut got = Vec::new();
        while let Some(e) = q.pop() {
            got.push(e.t);
        }
        assert_eq!(got, want);
    }

    /// Answers due in falling order, none due yet, move none of the calls in flight: with
    /// 10,000 calls queued (due at 1e6 s and on, none taken), 2,000 answers due at 1000 s,
    /// 999.75 s, ..., each followed by a look for an entry due by 0, leave the first call in its
    /// slot; then every entry leaves in time order. (The heap's first was moved to the buffer's
    /// front at each look, due or not, with no free slot there: the whole buffer moved each time.)
    #[test]
    fn answers_due_in_falling_order_move_none_of_the_calls_in_flight() {
        let mut q = Queue::default();
        for k in 0..10_000 {
            q.push(1e6 + k as f64, deadline_at(k as f64));
        }
        let slot = |q: &Queue| q.entries.iter().position(|e| e.t == 1e6);
        let at = slot(&q);
        for j in 0..2000 {
            q.push(1000.0 - f64::from(j) * 0.25, deadline_at(-1.0));
            assert!(q.pop_due(0.0).is_none());
            assert_eq!(slot(&q), at, "answer {j}");
            assert_eq!(q.peek().map(|e| e.t), Some(1000.0 - f64::from(j) * 0.25));
        }
        let mut got = Vec::new();
        while let Some(e) = q.pop() {
            got.push(e.t);
        }
        let mut want: Vec<f64> = (0..2000).map(|j| 1000.0 - f64::from(j) * 0.25).collect();
        want.extend((0..10_000).map(|k| 1e6 + k as f64));
        want.sort_by(f64::total_cmp);
        assert_eq!(got, want);
    }

    /// Equal times across the buffer and the heap leave in push order: a buffer entry before a
    /// heap entry of its time pushed after it, a moved heap entry before a heap entry of its
    /// time pushed after it, heap entries among themselves by push, and an entry placed in the
    /// buffer near its back while the heap holds earlier ones.
    #[test]
    fn equal_times_across_the_buffer_and_the_heap_leave_in_push_order() {
        let mut q = Queue::default();
        // The buffer: 50 (label 1), then 100, 101, ..., 119 (labels 100 + k).
        q.push(50.0, deadline_at(1.0));
        for k in 0..20 {
            q.push(100.0 + f64::from(k), deadline_at(100.0 + f64::from(k)));
        }
        // 50 again (2): its place is far from the back, so into the heap; then two at 40 (3, 4)
        // and one more at 50 (5), into the heap too.
        for (t, l) in [(50.0, 2.0), (40.0, 3.0), (40.0, 4.0), (50.0, 5.0)] {
            q.push(t, deadline_at(l));
        }
        assert_eq!(q.late.len(), 4);
        // Due after everything in the heap and near the back: into the buffer.
        q.push(118.5, deadline_at(6.0));
        assert_eq!(q.late.len(), 4);
        // A heap entry's time again (40, label 7): into the heap, after 3 and 4.
        q.push(40.0, deadline_at(7.0));
        assert_eq!(q.late.len(), 5);
        let mut got = Vec::new();
        while let Some(e) = q.pop() {
            got.push(label(&e));
        }
        let mut want = vec![
            (40.0, 3.0),
            (40.0, 4.0),
            (40.0, 7.0),
            (50.0, 1.0),
            (50.0, 2.0),
            (50.0, 5.0),
        ];
        for k in 0..20 {
            want.push((100.0 + f64::from(k), 100.0 + f64::from(k)));
            if k == 18 {
                want.push((118.5, 6.0));
            }
        }
        assert_eq!(got, want);
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 500, failure_persistence: None, ..Default::default()
        })]
        /// Any mix of pushes (times from a few values, so that ties are common, some far
        /// ahead) and takes, `pop_due` included, gives the entries in the order of a stable sort
        /// by time of those queued: earliest first, then the first pushed. Its length is the
        /// entries still queued (not the slots taken before its front).
        #[test]
        fn the_queue_gives_entries_as_a_stable_sort_by_time(
            ops in proptest::collection::vec((0u8..4, 0u8..12), 1..300),
        ) {
            let mut q = Queue::default();
            // (time, push number) of the entries queued, in push order.
            let mut model: Vec<(f64, f64)> = Vec::new();
            let mut now = 0.0;
            for (n, (op, x)) in ops.into_iter().enumerate() {
                let first = model
                    .iter()
                    .copied()
                    .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.total_cmp(&b.1)));
                let peeked = q.peek().map(label);
                proptest::prop_assert_eq!(peeked, first);
                match op {
                    0 | 1 => {
                        let t = now + f64::from(x) * if x > 9 { 100.0 } else { 0.5 };
                        q.push(t, deadline_at(n as f64));
                        model.push((t, n as f64));
                    }
                    2 => {
                        let got = q.pop().as_ref().map(label);
                        proptest::prop_assert_eq!(got, first);
                        if let Some(f) = first {
                            now = f.0;
                            model.retain(|&m| m != f);
                        }
                    }
                    _ => {
                        let by = now + f64::from(x);
                        let got = q.pop_due(by).map(|e| e.t);
                        let want = first.filter(|f| f.0 <= by);
                        proptest::prop_assert_eq!(got, want.map(|f| f.0));
                        if let Some(f) = want {
                            now = f.0;
                            model.retain(|&m| m != f);
                        }
                    }
                }
                proptest::prop_assert_eq!(q.iter().count(), model.len());
                proptest::prop_assert_eq!(q.len(), model.len());
            }
        }
    }

    /// The queue's order: earliest time first, then the order of pushing among equal times,
    /// whether an entry goes on at the back or comes before later ones (into the heap).
    #[test]
    fn the_queue_orders_by_time_then_by_push() {
        let mut q = Queue::default();
        // (time, label): the label is the deadline's `at`, to tell equal times apart.
        for (t, at) in [
            (5.0, 1.0),
            (3.0, 2.0),
            (5.0, 3.0),
            (1.0, 4.0),
            (3.0, 5.0),
            (9.0, 6.0),
        ] {
            q.push(t, deadline_at(at));
        }
        assert_eq!(q.peek().map(|e| e.t), Some(1.0));
        assert!(q.pop_due(0.5).is_none());
        let mut out = vec![];
        while let Some(e) = q.pop_due(5.0) {
            out.push(label(&e));
        }
        assert_eq!(
            out,
            vec![(1.0, 4.0), (3.0, 2.0), (3.0, 5.0), (5.0, 1.0), (5.0, 3.0)]
        );
        assert_eq!(q.iter().map(|e| e.t).collect::<Vec<_>>(), vec![9.0]);
        // With entries already taken from the front: one at the back, one due between (placed
        // in the buffer, near its back; `iter` gives every entry, in no particular order).
        q.push(10.0, deadline_at(7.0));
        q.push(9.5, deadline_at(8.0));
        let mut held = q.iter().map(|e| e.t).collect::<Vec<_>>();
        held.sort_by(f64::total_cmp);
        assert_eq!(held, vec![9.0, 9.5, 10.0]);
        for t in [9.0, 9.5, 10.0] {
            assert_eq!(q.pop().map(|e| e.t), Some(t));
        }
        assert!(q.pop().is_none() && q.peek().is_none());
    }

    /// The cursor gives the phase in force at any `t`, in any order (it caches the last phase's
    /// range, and a `t` outside it, earlier or later, looks again): phases from 0, 10 and 20 s;
    /// the first is in force before 0 too, and a start belongs to the phase it starts.
    #[test]
    fn the_phase_cursor_finds_the_phase_at_any_time() {
        let phases: Vec<Phase> = [0.0, 10.0, 20.0]
            .into_iter()
            .map(|start| Phase {
                start,
                ..Phase::default()
            })
            .collect();
        let mut c = PhaseCursor::new();
        let want = [
            (5.0, 0),
            (10.0, 1),
            (15.0, 1),
            (20.0, 2),
            (25.0, 2),
            (12.0, 1),
            (3.0, 0),
            (-1.0, 0),
            (19.999, 1),
            (20.0, 2),
            (1e9, 2),
            (10.0, 1),
            (9.999, 0),
        ];
        for (t, i) in want {
            assert_eq!(c.index(&phases, t), i, "t = {t}");
        }
    }

    /// Past 16 phases the lookup is a binary search: the same phase as the scan at every start,
    /// just before and after it, before the first and past the last (NaN: the first).
    #[test]
    fn many_phases_are_looked_up_as_few_are() {
        for n in [1usize, 2, 16, 17, 40, 1000] {
            let phases: Vec<Phase> = (0..n)
                .map(|i| Phase {
                    start: i as f64 * 2.5,
                    ..Phase::default()
                })
                .collect();
            let scan = |t: f64| phases.iter().rposition(|p| p.start <= t).unwrap_or(0);
            let mut ts = vec![f64::NEG_INFINITY, -1.0, f64::NAN, f64::INFINITY, 1e300];
            for p in &phases {
                ts.extend([p.start, p.start + 1e-9, p.start - 1e-9, p.start + 1.25]);
            }
            let mut c = PhaseCursor::new();
            for t in ts {
                assert_eq!(phase_index(&phases, t), scan(t), "{n} phases, t = {t}");
                assert_eq!(c.index(&phases, t), scan(t), "{n} phases, cursor, t = {t}");
            }
        }
    }

    /// Each of the dependency's chances fires when its uniform is below the rate, never on it
    /// (a uniform in [0, 1) below `p` has probability `p` exactly; on it too would add a draw):
    /// the four uniforms of call 1 are read off the dependency's own stream (seed 7, stream 2),
    /// and a phase whose rate is exactly one of them does not fire on it. The burst's enter
    /// and leave chances are the third; the failure rate in and out of a burst, the fourth.
    #[test]
    fn a_uniform_equal_to_its_rate_does_not_fire() {
        let mut r = Stream::new(7, 2);
        let [u_input, u_hang, u_burst, u_fail] = [(); 4].map(|_| r.uniform());
        assert!([u_input, u_hang, u_burst, u_fail]
            .iter()
            .all(|&u| u > 0.0 && u < 1.0));
        let quiet = Phase {
            failure_rate: 0.0,
            ..Phase::default()
        };
        let draw = |p: &Phase, burst: bool| {
            let mut d = Dependency::new(7);
            d.burst = burst;
            let out = d.draw(p, 1, 30.0).outcome;
            (out, d.burst)
        };
        let ok = (Outcome::Success, false);
        let mut p = quiet.clone();
        p.input_error_rate = u_input;
        assert_eq!(draw(&p, false), ok, "input error rate {u_input}");
        let mut p = quiet.clone();
        p.hang_rate = u_hang;
        assert_eq!(draw(&p, false), ok, "hang rate {u_hang}");
        let mut p = quiet.clone();
        p.failure_rate = u_fail;
        assert_eq!(draw(&p, false), ok, "failure rate {u_fail}");
        // Entering a burst (whose calls all fail) at exactly the third uniform: not entered.
        let mut p = quiet.clone();
        p.burst.enter = u_burst;
        p.burst.failure_rate = 1.0;
        assert_eq!(draw(&p, false), ok, "burst enter {u_burst}");
        // In a burst, leaving at exactly the third uniform: still in it, and its failure rate
        // at exactly the fourth: no failure.
        let mut p = quiet.clone();
        p.burst.leave = u_burst;
        p.burst.failure_rate = 1.0;
        assert_eq!(
            draw(&p, true),
            (Outcome::ServerError, true),
            "burst leave {u_burst}"
        );
        p.burst.failure_rate = u_fail;
        assert_eq!(
            draw(&p, true),
            (Outcome::Success, true),
            "burst failure rate {u_fail}"
        );
    }

    /// A run cut short (a breaker's log full: `MAX_EVENTS`) is cut at the same call by the
    /// wasm's step, the native one and the native step to the next call.
    #[test]
    fn the_steps_cut_a_run_short_at_the_same_call() {
        let s = Scenario::read_json(
            r#"{ "duration": "1d", "seed": 1, "traffic": { "calls_per_minute": 600 },
  "dependency": [ { "start": 0, "label": "down", "condition": "outage", "failure_rate": 1 } ],
  "statistical": { "first_wait": "1ms", "wait_cap": "1ms" },
  "window": { "wait_duration_in_open_state": "1ms", "sliding_window_size": 2,
              "minimum_number_of_calls": 1,
              "permitted_number_of_calls_in_half_open_state": 1 } }"#,
        )
        .unwrap();
        let play = |step: fn(&mut Engine, &mut Generator) -> Stepped| {
            let mut e = Engine::new(&s, s.duration, s.duration).unwrap();
            let mut src = Generator::new(&s);
            while step(&mut e, &mut src) != Stepped::Done {}
            let r = e.into_result();
            let b = r.breakers;
            (
                r.cut_at_s,
                r.end_s,
                r.calls,
                b.statistical.events,
                b.window.events,
            )
        };
        let one = play(|e, src| e.step_one(src).unwrap());
        let single = play(|e, src| e.events(src, true).unwrap());
        let calls = play(|e, src| e.events(src, false).unwrap());
        assert!(one.0.is_some_and(|t| t < s.duration) && one.1 == one.0.unwrap());
        assert_eq!(one, single);
        assert_eq!(one, calls);
    }

    /// [`Engine::step_one`] (the wasm's step) plays every run as [`Engine::events`] (the native
    /// one) does, one event at a time and a call at a time: every preset (the first two days),
    /// alone and with three callers sharing a state behind a lock that drops updates.
    #[test]
    fn the_wasm_step_plays_the_native_run() {
        for p in crate::presets() {
            let mut s = p.scenario();
            for shared in [false, true] {
                if shared {
                    s.callers.count = 3;
                    s.callers.shared_state = true;
                    s.callers.lock_hold = 0.01;
                    s.callers.lock_timeout = 0.005;
                }
                let end = s.duration.min(2.0 * 86_400.0);
                let one = play(&s, end, |e, src| e.step_one(src).expect("no trace"));
                let single = play(&s, end, |e, src| e.events(src, true).expect("no trace"));
                let calls = play(&s, end, |e, src| loop {
                    let s = e.events(src, false).expect("no trace");
                    if s != Stepped::Deadline && s != Stepped::Result {
                        break s;
                    }
                });
                assert!(
                    one == single && one == calls,
                    "{} (shared {shared})",
                    p.name
                );
            }
        }
    }

    /// [`Probe`]'s shortcuts give what [`Breaker::observe`] gives, on runs that open, try and
    /// close each breaker many times (calls every 50 ms on average, answered within 0.3 s,
    /// failing at 2% and at 80% in turns of 300 calls; results of older generations come late).
    /// After every permit, result and poll: `quick` is the observation's level and trial (bit
    /// for bit, NaN where it is NaN) whenever no transition is pending; a permit that made no
    /// transition leaves them as the step before left them where `permit_keeps_quick` says so
    /// (the statistical breaker and a count window: a run then skips that sample), while a time
    /// window's do move as its seconds pass, so it must not say so; and a step that ends
    /// half-open on its trials gives as `trial_left` the trial value that decided, computed here
    /// from the observation before the step: the trial score plus the result's weight,
    /// `ln(p1/p0)` or `ln((1-p1)/(1-p0))` (statistical; the trial score as it was for a time
    /// limit), the probes' failures over their results with this one (window).
    #[test]
    fn the_probe_shortcuts_are_the_observation() {
        use breaker::{Observation, SlidingWindowType, State, StatisticalSettings, WindowSettings};
        fn same(a: (f64, f64), b: (f64, f64)) -> bool {
            let eq = |x: f64, y: f64| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan());
            eq(a.0, b.0) && eq(a.1, b.1)
        }
        /// Steps checked: permits that kept the values, permits past which they moved, and
        /// decisions of half-open. `expect`: the trial value a step that ends half-open leaves,
        /// from the observation before it and the result it recorded (`None`: a permit or a poll).
        fn check<B: Probe>(
            mut b: B,
            what: &str,
            keeps: bool,
            expect: impl Fn(&Observation, Option<bool>) -> f64,
        ) -> [u32; 3] {
            let mut rng = Stream::new(7, 0);
            // Calls in flight: (answered at, permit, failed), the earliest last.
            let mut flight: Vec<(f64, Permit, bool)> = Vec::new();
            let mut last = b.quick(0.0);
            let mut polled = f64::NEG_INFINITY;
            let mut seen = [0u32; 3];
            let mut t = 0.0;
            for n in 0..60_000u32 {
                let p = if (n / 300) % 2 == 0 { 0.02 } else { 0.8 };
                t += 0.05 * rng.exponential();
                // Every result and deadline due by the call at `t`, in time order, then it.
                loop {
                    flight.sort_by(|x, y| y.0.total_cmp(&x.0));
                    let answer = flight.last().map_or(f64::INFINITY, |r| r.0);
                    let deadline = b.next_deadline().filter(|&d| d > polled);
                    let deadline = deadline.unwrap_or(f64::INFINITY);
                    let at = t.min(answer).min(deadline);
                    let before = b.observe(at);
                    let (call, failed) = if at == answer {
                        let (_, permit, failed) = flight.pop().expect("due");
                        let outcome = if failed {
                            Outcome::ServerError
                        } else {
                            Outcome::Success
                        };
                        b.record(&permit, outcome, at);
                        (false, Some(failed))
                    } else if at == deadline {
                        b.poll(at);
                        polled = at;
                        (false, None)
                    } else {
                        if let Decision::Admit(permit) = b.permit(at) {
                            let failed = rng.uniform() < p;
                            flight.push((at + 0.3 * rng.uniform(), permit, failed));
                        }
                        (true, None)
                    };
                    let quick = b.quick(at);
                    if b.transitions().is_empty() {
                        let o = b.observe(at);
                        assert!(same(quick, (o.level, o.trial)), "{what} at {at}: {quick:?}");
                        if call && keeps {
                            assert!(same(quick, last), "{what} at {at}: {quick:?}, {last:?}");
                            seen[0] += 1;
                        } else if call && !same(quick, last) {
                            seen[1] += 1;
                        }
                    }
                    let decided = b.transitions().iter().any(|tr| {
                        tr.from == State::HalfOpen
                            && !matches!(tr.reason, Reason::SlowCallRate { .. })
                    });
                    if decided {
                        let left = b.trial_left().expect("the deciding trial value");
                        let want = expect(&before, failed);
                        assert!(
                            (left - want).abs() <= 1e-12 * want.abs().max(1.0),
                            "{what} at {at}: {left} for {want}"
                        );
                        seen[2] += 1;
                    } else {
                        assert_eq!(b.trial_left(), None, "{what} at {at}");
                    }
                    last = quick;
                    if call {
                        break;
                    }
                }
            }
            assert_eq!(b.permit_keeps_quick(), keeps, "{what}");
            seen
        }
        let stat = StatisticalSettings {
            fine_rate: 0.02,
            broken_rate: 0.5,
            first_wait: 2.0,
            wait_cap: 8.0,
            ..Default::default()
        };
        let (p0, p1) = (stat.fine_rate, stat.broken_rate);
        let b = Statistical::starting_at(stat, 0.0).expect("valid");
        let s = check(b, "statistical", true, |o, failed| {
            let w = |f: bool| {
                if f {
                    (p1 / p0).ln()
                } else {
                    ((1.0 - p1) / (1.0 - p0)).ln()
                }
            };
            o.trial + failed.map_or(0.0, w)
        });
        assert!(s[0] > 500 && s[2] > 100, "statistical: {s:?}");
        for kind in [SlidingWindowType::CountBased, SlidingWindowType::TimeBased] {
            let w = WindowSettings {
                sliding_window_type: kind,
                sliding_window_size: 10,
                minimum_number_of_calls: 5,
                failure_rate_threshold: 0.5,
                wait_duration_in_open_state: 2.0,
                permitted_number_of_calls_in_half_open_state: 3,
                ..Default::default()
            };
            let count = kind == SlidingWindowType::CountBased;
            let b = Window::new(w).expect("valid");
            let s = check(b, &format!("{kind:?}"), count, |o, failed| {
                let n = o.count;
                let f = if n > 0.0 { (o.trial * n).round() } else { 0.0 };
                (f + f64::from(u8::from(failed.expect("a result decides")))) / (n + 1.0)
            });
            let moved = if count { s[0] } else { s[1] };
            assert!(moved > 500 && s[2] > 100, "{kind:?}: {s:?}");
        }
    }
}
