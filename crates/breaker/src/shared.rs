//! Use from a multi-threaded service: one breaker state shared under a lock with a bounded wait.
//!
//! A change that cannot take the lock within the lock timeout (default 2 s) is dropped, since one
//! lost result does less harm than a held-up call. A permit request that cannot take the
//! lock gets [`Locked::Dropped`] and no permit: make the call anyway and report nothing (as
//! [`Shared::call`] does), so a stuck lock holds a call up for at most the lock timeout. That is
//! while the breaker was last seen closed: last seen open or half-open, the request is rejected
//! instead (open: until its wait's end, or now if that has passed, when the breaker itself would
//! let a trial through), so that a busy lock lets no call through to a dependency known to be
//! failing. A lock held long with the breaker last seen open rejects every call meanwhile.
//!
//! `now` is read from the wrapper's [`Clock`]: for a permit once the lock is taken (the call is
//! admitted then), for a result before the wait for the lock (the call ended then). Tests can
//! give it a [`ManualClock`] and move time by hand ([`Shared::with_clock`]).
//!
//! A call admitted by [`Shared::admit`] is held in a [`Guard`] until its outcome is reported
//! (by [`Shared::admit_owned`] in an [`OwnedGuard`], for a `'static` future): a guard dropped
//! unfinished (an error on your side, a panic, an async call's future dropped at an `.await`)
//! reports a neutral result, so no abandoned call holds a half-open slot, or the outcome set
//! with [`Guard::dropped_as`] (a timeout, where a drop means the dependency took too long).
//!
//! [`Shared::counts`] keeps running totals of calls (admitted, rejected, last-option, uncounted)
//! and results (successes, failures, ignored, dropped) for metrics, without the lock.
//!
//! [`Breaker::transitions`] holds only what the most recent call changed, so with many threads
//! another thread's call may clear it before this one can look: to see every state change (for
//! logs, metrics, alerts), register [`Shared::on_transition`], which is called for each one, in
//! order, exactly once (inside [`Shared::with`], for its last mutating call's only), or
//! [`Shared::on_transition_with_breaker`], which is also handed the breaker (when an opening's
//! wait ends, say, which a [`Transition`] does not hold). The
//! listener must not panic: it runs under the lock, also while a panicking call unwinds. (Write
//! logs with `let _ = writeln!(std::io::stderr(), ..)`: `eprintln!` panics when stderr is a
//! broken pipe.) If it panics anyway, the panic goes on through the call whose change it heard,
//! the rest of that call's transitions go unheard, and a permit that call was given is first
//! reported neutral, so it holds no half-open slot.
//!
//! In async code (tokio tasks) the lock is a blocking one, held for the breaker's own step (a
//! few arithmetic operations) and the listener, never across an `.await`: as tokio advises for
//! a mutex held that briefly, no async mutex is needed. But a task waiting for the lock holds
//! its executor thread meanwhile, so the lock timeout bounds each call's wait, not the
//! runtime's: while something holds the lock for long (a slow listener, a long
//! [`Shared::with`], a slow [`Clock::from_fn`]), every worker thread in turn waits up to the
//! timeout and timers and other tasks stop for about as long as the lock is held. In an async
//! service, make the wrapper with [`Shared::with_lock_timeout`] and [`Duration::ZERO`] (or a
//! millisecond): a call that finds the lock held then goes ahead uncounted at once (or is
//! rejected, the breaker last seen open or half-open), and a
//! result is dropped, as a change that cannot take the lock in time must be (a breaker that
//! waited for its own lock would slow every call it guards). More
//! results are dropped so: give a window breaker `max_wait_duration_in_half_open_state`, since
//! a probe's dropped result would otherwise hold half-open. Read the breaker there with
//! [`Shared::try_with`], which keeps to the timeout, rather than [`Shared::with`], which waits.
//!
//! The lock is not reentrant. A call that would take it on a thread that already holds it (from
//! the listener, or from inside [`Shared::with`]'s closure, including a [`Guard`] finished or
//! dropped there) panics with a message saying so, at the caller's line (not the crate's; a
//! guard's drop has no caller's line, so its panic names the crate's), rather than wait for a
//! lock its own thread holds ([`Shared::with`] would wait for good, the others for the lock
//! timeout while every other thread waits too). Only [`Shared::state`], [`Shared::clock`] and
//! [`Shared::counts`] may be called there.
//! The one exception: a guard dropped unfinished there while a panic unwinds reports nothing
//! (a second panic during unwinding would abort the process).

use std::fmt;
use std::sync::atomic::{AtomicU64, AtomicU8, AtomicUsize, Ordering as AtomicOrdering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use parking_lot::{Mutex, MutexGuard};

use crate::types::{Decision, Permit, PermitKind, Recorded, Rejection, State, Transition};
use crate::{Breaker, Class, Outcome};

/// A monotonic clock in seconds: the `now` every breaker method takes. [`Clock::new`] reads the
/// system's monotonic clock from its first reading (not before: on `wasm32-unknown-unknown`,
/// which has no system clock, a [`Shared`] given its own clock never reads one); a
/// [`ManualClock`]'s moves only when told (for tests of code that uses [`Shared`]).
#[derive(Debug, Clone)]
pub struct Clock {
    source: Source,
}

#[derive(Clone)]
enum Source {
    /// The system's monotonic clock from the first reading, shared by clones.
    Real(Arc<OnceLock<Instant>>),
    /// The time in whole nanoseconds, shared with the [`ManualClock`] that moves it (whole
    /// numbers, so that advancing by 100 ms ten times reads exactly 1 s more).
    Manual(Arc<AtomicU64>),
    /// Another clock's reading ([`Clock::from_fn`]).
    Fn(Arc<dyn Fn() -> f64 + Send + Sync>),
}

impl fmt::Debug for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Real(start) => f.debug_tuple("Real").field(start).finish(),
            Source::Manual(ns) => f.debug_tuple("Manual").field(ns).finish(),
            Source::Fn(_) => f.write_str("Fn"),
        }
    }
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            source: Source::Real(Arc::new(OnceLock::new())),
        }
    }
}

impl Clock {
    /// The system's monotonic clock, starting at 0 s at its first reading.
    pub fn new() -> Self {
        Self::default()
    }

    /// A clock that reads `now`: seconds on a time line of your own that never goes back, such
    /// as a runtime's clock, so that a test on a paused or mocked runtime clock moves the
    /// breaker's time too. With tokio: `let start = tokio::time::Instant::now();
    /// Clock::from_fn(move || start.elapsed().as_secs_f64())` follows `tokio::time::pause` and
    /// `advance`. (tokio's paused clock is the runtime's: read from a thread outside the runtime,
    /// `tokio::time::Instant::now()` is the system's clock, and such a thread's calls would go
    /// back in the breaker's time: a time that goes back is taken as given, and only one that
    /// is not finite is read as the latest time given.) It is read under the breaker's lock for
    /// a permit or a poll, and before the lock for a result: keep it quick, call nothing of
    /// the [`Shared`] from it, and do not panic in it (a result whose time cannot be read is
    /// reported nowhere, so a window probe's slot stays taken).
    ///
    /// ```
    /// # use std::sync::{Arc, Mutex};
    /// # use breaker::shared::{Clock, Shared};
    /// # use breaker::{Window, WindowSettings};
    /// let t = Arc::new(Mutex::new(5.0));
    /// let seen = t.clone();
    /// let breaker = Shared::new(Window::new(WindowSettings::default())?)
    ///     .with_clock(Clock::from_fn(move || *seen.lock().unwrap()));
    /// assert_eq!(breaker.clock().now(), 5.0);
    /// *t.lock().unwrap() = 7.5;
    /// assert_eq!(breaker.clock().now(), 7.5);
    /// # Ok::<(), breaker::SettingsError>(())
    /// ```
    pub fn from_fn(now: impl Fn() -> f64 + Send + Sync + 'static) -> Self {
        Clock {
            source: Source::Fn(Arc::new(now)),
        }
    }

    /// Seconds since the clock's first reading, a manual clock's time, or [`Clock::from_fn`]'s.
    pub fn now(&self) -> f64 {
        match &self.source {
            Source::Real(start) => start.get_or_init(Instant::now).elapsed().as_secs_f64(),
            Source::Manual(ns) => ns.load(AtomicOrdering::Acquire) as f64 / 1e9,
            Source::Fn(now) => now(),
        }
    }
}

/// A clock that stands still until advanced: give its [`ManualClock::clock`] to
/// [`Shared::with_clock`] to test a service's handling of an open breaker, a half-open trial or
/// a backoff without waiting for them. Clones move together.
#[derive(Debug, Clone)]
pub struct ManualClock {
    /// Whole nanoseconds.
    ns: Arc<AtomicU64>,
}

/// A clock standing at 0.
impl Default for ManualClock {
    fn default() -> Self {
        ManualClock::new(0.0)
    }
}

impl ManualClock {
    /// A clock standing at `start` seconds (rounded to the nanosecond; finite, at least 0;
    /// otherwise 0; at most `u64::MAX` nanoseconds, about 1.8e10 s, as a larger start is read).
    pub fn new(start: f64) -> Self {
        let start = if start.is_finite() {
            start.max(0.0)
        } else {
            0.0
        };
        ManualClock {
            ns: Arc::new(AtomicU64::new((start * 1e9).round() as u64)),
        }
    }

    /// Move the clock on by `by` (it never goes back).
    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_nanos()).unwrap_or(u64::MAX);
        let _ = self
            .ns
            .fetch_update(AtomicOrdering::AcqRel, AtomicOrdering::Acquire, |ns| {
                Some(ns.saturating_add(by))
            });
    }

    /// The time now, in seconds.
    pub fn now(&self) -> f64 {
        self.ns.load(AtomicOrdering::Acquire) as f64 / 1e9
    }

    /// A [`Clock`] reading this one.
    pub fn clock(&self) -> Clock {
        Clock {
            source: Source::Manual(self.ns.clone()),
        }
    }
}

/// The result of a change under the lock.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Locked<T> {
    /// The lock was taken and the change applied.
    Done(T),
    /// The lock could not be taken within the timeout; the change was dropped.
    Dropped,
}

/// Running totals of the calls and results that went through a [`Shared`] since it was made
/// ([`Shared::counts`]), for a metrics exporter: resilience4j's successful, failed, ignored and
/// not-permitted calls, and what the lock timeout dropped. What is done to the breaker inside
/// [`Shared::with`] or [`Shared::try_with`] is not counted.
///
/// Each total is exact, but read while other threads call they may be of slightly different
/// moments (a result counted before its permit, say): take differences between two readings,
/// as counters are used. A result is counted under the lock, before the listener
/// ([`Shared::on_transition`]) hears of the change it made.
///
/// With `serde`: serializes as an object of its totals, for a metrics endpoint.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[non_exhaustive]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Counts {
    /// Calls admitted ([`Shared::permit`], the guards, [`Shared::call`], and last-option calls
    /// given an ordinary permit): closed, or as a half-open trial or probe.
    pub admitted: u64,
    /// Of `admitted`, the half-open trials (statistical) or probes (window).
    pub trials: u64,
    /// Calls rejected: sent to the fallback (resilience4j's not-permitted calls).
    pub rejected: u64,
    /// Last-option calls tried while the breaker rejected calls ([`PermitKind::LastOption`]).
    pub last_option: u64,
    /// Calls that went ahead uncounted because the lock was not had in time (a permit or a
    /// last-option permit [`Locked::Dropped`]; a permit only while the breaker was last seen
    /// closed, else it is rejected, and counted in `rejected`).
    pub uncounted: u64,
    /// Results that counted, as a success.
    pub successes: u64,
    /// Results that counted, as a failure.
    pub failures: u64,
    /// Results that moved nothing ([`Recorded::Ignored`]: late, neutral, last-option, a lost
    /// trial, or arrived while open).
    pub ignored: u64,
    /// Results dropped because the lock was not had in time ([`Locked::Dropped`]).
    pub results_dropped: u64,
}

/// [`Counts`] as atomics.
#[derive(Debug, Default)]
struct Tally {
    admitted: AtomicU64,
    trials: AtomicU64,
    rejected: AtomicU64,
    last_option: AtomicU64,
    uncounted: AtomicU64,
    successes: AtomicU64,
    failures: AtomicU64,
    ignored: AtomicU64,
    results_dropped: AtomicU64,
}

/// One more.
fn bump(n: &AtomicU64) {
    n.fetch_add(1, AtomicOrdering::Relaxed);
}

impl Tally {
    fn permit(&self, kind: PermitKind) {
        bump(match kind {
            PermitKind::LastOption => &self.last_option,
            _ => &self.admitted,
        });
        if kind == PermitKind::Trial {
            bump(&self.trials);
        }
    }

    fn read(&self) -> Counts {
        let get = |n: &AtomicU64| n.load(AtomicOrdering::Relaxed);
        Counts {
            admitted: get(&self.admitted),
            trials: get(&self.trials),
            rejected: get(&self.rejected),
            last_option: get(&self.last_option),
            uncounted: get(&self.uncounted),
            successes: get(&self.successes),
            failures: get(&self.failures),
            ignored: get(&self.ignored),
            results_dropped: get(&self.results_dropped),
        }
    }
}

/// A breaker shared between threads, changed under a lock with a bounded wait.
///
/// `Send` and `Sync` when the breaker is `Send` (both breakers are): wrap it in an `Arc` and
/// hand a clone to each thread or task.
pub struct Shared<B> {
    inner: Mutex<Inner<B>>,
    tally: Tally,
    /// The breaker's state after the last change under the lock ([`Shared::state`] reads it
    /// without the lock, so a listener may call it).
    state: AtomicU8,
    /// When the open wait ends (`f64` bits), kept as the breaker opens and from each rejection
    /// while open: what a call that cannot take the lock while it is open is rejected with
    /// ([`Shared::permit`]); `-inf` before (a rejection then gives the time of the call).
    open_until: AtomicU64,
    lock_timeout: Duration,
    clock: Clock,
    on_transition: Option<Listener<B>>,
    /// The thread holding the lock ([`this_thread`]), 0 when none: how a reentrant call is told
    /// from a wait for another thread.
    owner: AtomicUsize,
}

/// When the open wait of the breaker's last opening ends, if its last mutating call opened it:
/// the opening's time plus the wait in force (what its rejections give as `until`); `-inf`
/// otherwise.
fn opened_until<B: Breaker>(b: &B) -> f64 {
    match b.transitions().iter().rev().find(|t| t.to == State::Open) {
        Some(t) if b.state() == State::Open => t.at + b.observe(t.at).wait,
        _ => f64::NEG_INFINITY,
    }
}

thread_local! {
    /// Its address names the thread (see [`this_thread`]).
    static THREAD_MARK: u8 = const { 0 };
}

/// A number naming the calling thread among the threads alive (the address of a thread-local),
/// never 0; 0 if it cannot be had (the thread's locals being torn down: no check then).
fn this_thread() -> usize {
    THREAD_MARK
        .try_with(|mark| mark as *const u8 as usize)
        .unwrap_or(0)
}

/// The lock, held: marks the thread that took it as [`Shared`]'s owner until dropped.
struct Held<'a, B> {
    inner: MutexGuard<'a, Inner<B>>,
    owner: &'a AtomicUsize,
}

impl<B> Drop for Held<'_, B> {
    fn drop(&mut self) {
        // Before the lock is let go (fields drop after this): only the holder writes `owner`.
        self.owner.store(0, AtomicOrdering::Relaxed);
    }
}

type Listener<B> = Box<dyn Fn(&Transition, &B) + Send + Sync>;

/// The breaker and the generation of the last transition passed to the listener.
#[derive(Debug)]
struct Inner<B> {
    breaker: B,
    reported: u64,
}

impl<B: fmt::Debug> fmt::Debug for Shared<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Shared")
            .field("inner", &self.inner)
            .field("lock_timeout", &self.lock_timeout)
            .field("clock", &self.clock)
            .field("on_transition", &self.on_transition.is_some())
            .finish()
    }
}

impl<B: Breaker> Shared<B> {
    /// Share `breaker` with the default 2 s lock timeout and the system's monotonic clock,
    /// from its first reading ([`Clock::new`]).
    pub fn new(breaker: B) -> Self {
        Self::with_lock_timeout(breaker, Duration::from_secs(2))
    }

    /// Share `breaker` with a custom lock timeout. [`Duration::ZERO`] takes the lock only if it
    /// is free (after a brief spin): the choice for async code, where a wait holds an executor
    /// thread (see the [module](self) docs).
    pub fn with_lock_timeout(breaker: B, lock_timeout: Duration) -> Self {
        Shared {
            state: AtomicU8::new(state_code(breaker.state())),
            open_until: AtomicU64::new(opened_until(&breaker).to_bits()),
            inner: Mutex::new(Inner {
                reported: breaker.generation(),
                breaker,
            }),
            lock_timeout,
            clock: Clock::new(),
            on_transition: None,
            owner: AtomicUsize::new(0),
            tally: Tally::default(),
        }
    }

    /// Call `listener` with every state change from now on (in place of any listener set
    /// before: there is one), in order, each exactly once, however
    /// many threads share the breaker: those caused by [`Shared::permit`], [`Shared::record`],
    /// [`Shared::permit_last_option`], [`Shared::poll`] and [`Shared::call`], and the last
    /// mutating call's inside [`Shared::with`] (only the last one's: [`Breaker::transitions`]
    /// keeps no more).
    ///
    /// The listener runs with the lock held, so that the changes arrive in order: keep it short
    /// (count, log, send to a channel). [`Shared::state`] may be called from it (it reads a copy
    /// kept without the lock, already the new state), [`Shared::clock`] and [`Shared::counts`]
    /// (read without the lock; the call being heard is counted when it returns); anything else of
    /// this `Shared` called from it panics (the lock is not reentrant: see the
    /// [module](self)), and so does the call whose transition the listener was hearing. Send
    /// what needs the breaker to another thread or task instead. That goes for another `Shared`
    /// too, where its listener may call this one: two threads each in one of those listeners
    /// wait for each other's lock, which is not detected (the calls with a lock timeout give up
    /// after it, dropping their change; [`Shared::with`] waits for good).
    #[must_use = "the wrapper with the listener is returned; the one given is moved"]
    pub fn on_transition(self, listener: impl Fn(&Transition) + Send + Sync + 'static) -> Self {
        self.on_transition_with_breaker(move |t, _| listener(t))
    }

    /// [`Shared::on_transition`], with the breaker as well, as the change left it (read under
    /// the lock the listener runs in): for what the [`Transition`] does not hold, such as when
    /// an opening's wait ends ([`Window::open_until`](crate::Window::open_until),
    /// [`Statistical::open_until`](crate::Statistical::open_until)) or the breaker's numbers at
    /// the change ([`Breaker::observe`] at `t.at`). It is the breaker as the whole call left it:
    /// where one call makes several changes (a catch-up), each is heard with the breaker as it
    /// stands after the last. The same rules as `on_transition`'s otherwise, and it takes that
    /// one's place (there is one listener).
    ///
    /// ```
    /// # use std::sync::{Arc, Mutex};
    /// # use breaker::shared::{ManualClock, Shared};
    /// # use breaker::{Outcome, State, Window, WindowSettings};
    /// let log = Arc::new(Mutex::new(Vec::new()));
    /// let heard = log.clone();
    /// let settings = WindowSettings { minimum_number_of_calls: 1, wait_duration_in_open_state: 5.0, ..Default::default() };
    /// let breaker = Shared::new(Window::new(settings)?)
    ///     .with_clock(ManualClock::new(10.0).clock())
    ///     .on_transition_with_breaker(move |t, b| {
    ///         if t.to == State::Open {
    ///             heard.lock().unwrap().push(format!("{t}; open until {:.3} s", b.open_until()));
    ///         }
    ///     });
    /// let _ = breaker.call(|| ((), Outcome::ServerError));
    /// assert_eq!(
    ///     log.lock().unwrap()[..],
    ///     ["closed -> open at 10.000 s (generation 1): failure rate 100.0% of 1 call reached \
    ///       threshold 50.0%; open until 15.000 s"]
    /// );
    /// # Ok::<(), breaker::SettingsError>(())
    /// ```
    #[must_use = "the wrapper with the listener is returned; the one given is moved"]
    pub fn on_transition_with_breaker(
        mut self,
        listener: impl Fn(&Transition, &B) + Send + Sync + 'static,
    ) -> Self {
        self.on_transition = Some(Box::new(listener));
        self
    }

    /// Read `now` from `clock` instead of the system's ([`Clock::new`]; a
    /// [`ManualClock`]'s in tests). Set it before the first call: the breaker's times must not
    /// go back.
    #[must_use = "the wrapper with the clock is returned; the one given is moved"]
    pub fn with_clock(mut self, clock: Clock) -> Self {
        self.clock = clock;
        self
    }

    /// The clock this wrapper uses for `now`.
    pub fn clock(&self) -> Clock {
        self.clock.clone()
    }

    /// Keep the state for [`Shared::state`], then pass the transitions of the breaker's last
    /// mutating call that the listener has not had.
    fn report(&self, inner: &mut Inner<B>) {
        let b = &inner.breaker;
        let state = b.state();
        if state == State::Open {
            let until = opened_until(b);
            if until > f64::NEG_INFINITY {
                self.open_until
                    .store(until.to_bits(), AtomicOrdering::Release);
            }
        }
        self.state.store(state_code(state), AtomicOrdering::Release);
        if let Some(listener) = &self.on_transition {
            for t in inner.breaker.transitions() {
                if t.generation > inner.reported {
                    inner.reported = t.generation;
                    listener(t, &inner.breaker);
                }
            }
        }
    }

    /// Panic if the calling thread holds the lock: `what` would wait for it (see the
    /// [module](self)).
    #[inline]
    #[track_caller]
    fn not_reentrant(&self, what: &str) {
        // Relaxed is enough: reading our own mark means this thread wrote it and has not yet
        // cleared it (a thread reads its own writes in order), so it holds the lock.
        if self.held_here() {
            reentrant(what);
        }
    }

    /// Whether the calling thread holds the lock (inside [`Shared::with`] or the listener).
    fn held_here(&self) -> bool {
        let me = this_thread();
        me != 0 && self.owner.load(AtomicOrdering::Relaxed) == me
    }

    /// Mark the lock just taken as held by this thread.
    fn held<'a>(&'a self, inner: MutexGuard<'a, Inner<B>>) -> Held<'a, B> {
        self.owner.store(this_thread(), AtomicOrdering::Relaxed);
        Held {
            inner,
            owner: &self.owner,
        }
    }

    /// Run `f` on the breaker if the lock can be taken in time, then report its transitions.
    /// `what` names the call for [`Shared::not_reentrant`]'s message; `admitted` finds the
    /// permit in `f`'s answer, if it gave one.
    ///
    /// A listener that panics anyway (`eprintln!` does on a broken pipe) unwinds through the
    /// caller, who never gets the permit: it is reported neutral first, so it cannot hold a
    /// half-open slot (for good, in a window breaker without a half-open maximum).
    #[track_caller]
    fn change<T>(
        &self,
        what: &str,
        f: impl FnOnce(&mut B) -> T,
        admitted: impl FnOnce(&T) -> Option<Permit>,
    ) -> Locked<T> {
        self.not_reentrant(what);
        match self.inner.try_lock_for(self.lock_timeout) {
            Some(inner) => {
                let mut held = self.held(inner);
                let value = f(&mut held.inner.breaker);
                let reported = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    self.report(&mut held.inner)
                }));
                if let Err(panic) = reported {
                    if let Some(permit) = admitted(&value) {
                        let b = &mut held.inner.breaker;
                        b.record(&permit, Outcome::InputRejected, self.clock.now());
                        self.state
                            .store(state_code(b.state()), AtomicOrdering::Release);
                    }
                    std::panic::resume_unwind(panic);
                }
                Locked::Done(value)
            }
            None => Locked::Dropped,
        }
    }

    /// Ask for a permit, at the time the lock is taken. If the lock cannot be taken in time the
    /// answer is [`Locked::Dropped`], with no permit: make the call anyway, uncounted (as
    /// [`Shared::call`] does). That is while the breaker was last seen closed ([`Shared::state`]):
    /// last seen open, the answer is the breaker's own rejection (`Rejection::Open` with the
    /// wait's end, or now once that has passed: the next call may be the trial), and half-open
    /// [`Rejection::HalfOpenBusy`].
    ///
    /// Report every permit admitted, also when the call is abandoned (an error on your side, a
    /// dropped future): as a neutral outcome ([`Outcome::InputRejected`]) if it says nothing of
    /// the service. An unreported statistical trial is lost only after `call_timeout`; a window
    /// half-open waits for every probe's result, for good unless
    /// `max_wait_duration_in_half_open_state` is set. [`Shared::admit`] does this for you.
    ///
    /// # Panics
    ///
    /// If called on a thread that holds this `Shared`'s lock (from the transition listener or
    /// inside [`Shared::with`]): it would wait for its own lock. So do [`Shared::admit`],
    /// [`Shared::admit_owned`], [`Shared::call`], [`Shared::permit_last_option`],
    /// [`Shared::record`], [`Shared::poll`] and a guard's `finish` or drop.
    #[must_use = "make the call unless rejected, and report its outcome with the permit"]
    #[track_caller]
    pub fn permit(&self) -> Locked<Decision> {
        let decision = match self.change(
            "permit, admit or call",
            |b| {
                let d = b.permit(self.clock.now());
                // Kept under the lock, so a later opening's wait is not overwritten: the wait's
                // end of a breaker opened before it was shared, or replaced in `with`.
                if let Decision::Reject(Rejection::Open { until }) = d {
                    self.open_until
                        .store(until.to_bits(), AtomicOrdering::Release);
                }
                d
            },
            |d| d.permit(),
        ) {
            // The lock not had in time: a breaker last seen open or half-open rejects the call,
            // as it most likely would have (past the open wait's end, the `until` given is now:
            // the next call may be the trial); only one last seen closed lets it go ahead
            // uncounted. (Every such call went ahead: 1,532 of 200,000 to a dependency known
            // broken while another thread polled the breaker.)
            Locked::Dropped => match self.state() {
                State::Open => {
                    let until = f64::from_bits(self.open_until.load(AtomicOrdering::Acquire));
                    Locked::Done(Decision::Reject(Rejection::Open {
                        until: until.max(self.clock.now()),
                    }))
                }
                State::HalfOpen => Locked::Done(Decision::Reject(Rejection::HalfOpenBusy)),
                State::Closed => Locked::Dropped,
            },
            decision => decision,
        };
        match &decision {
            Locked::Done(Decision::Admit(p)) => self.tally.permit(p.kind),
            Locked::Done(Decision::Reject(_)) => bump(&self.tally.rejected),
            Locked::Dropped => bump(&self.tally.uncounted),
        }
        decision
    }

    /// Ask for a last-option permit ([`Breaker::permit_last_option`]: the call has no other
    /// target, so it is tried even while open, where its result moves nothing; closed or with a
    /// free half-open slot it is an ordinary permit and its result counts), at the time the
    /// lock is taken. Ask with this *instead of* [`Shared::permit`]. If the lock cannot be taken
    /// in time: make the call anyway, with nothing to report.
    #[must_use = "report the call's outcome with the permit"]
    #[track_caller]
    pub fn permit_last_option(&self) -> Locked<Permit> {
        let permit = self.change(
            "permit_last_option",
            |b| b.permit_last_option(self.clock.now()),
            |p| Some(*p),
        );
        match &permit {
            Locked::Done(p) => self.tally.permit(p.kind),
            Locked::Dropped => bump(&self.tally.uncounted),
        }
        permit
    }

    /// Report an outcome now (read before the wait for the lock); dropped if the lock cannot be
    /// taken in time.
    #[track_caller]
    pub fn record(&self, permit: &Permit, outcome: Outcome) -> Locked<Recorded> {
        let now = self.clock.now();
        let recorded = self.change(
            "record, or a guard's finish or drop",
            |b| {
                let r = b.record(permit, outcome, now);
                // Counted under the lock, before the listener hears of its change: a listener
                // that panics left a result applied and counted nowhere.
                bump(match r {
                    Recorded::Counted => match outcome.class() {
                        Class::Success => &self.tally.successes,
                        Class::Failure => &self.tally.failures,
                        Class::Neutral => &self.tally.ignored,
                    },
                    Recorded::Ignored(_) => &self.tally.ignored,
                });
                r
            },
            |_| None,
        );
        if let Locked::Dropped = recorded {
            bump(&self.tally.results_dropped);
        }
        recorded
    }

    /// The running totals of calls and results (see [`Counts`]); never waits.
    pub fn counts(&self) -> Counts {
        self.tally.read()
    }

    /// Let time-driven rules act now ([`Breaker::poll`]: lost trials, time limits, automatic
    /// transitions), at the time the lock is taken; dropped if it cannot be taken in time.
    /// Optional: the same rules act on the next permit or record. A service that wants a state
    /// change reported when it is due rather than at the next call polls at
    /// [`Breaker::next_deadline`] (read through [`Shared::try_with`] or [`Shared::with`]).
    #[track_caller]
    pub fn poll(&self) -> Locked<()> {
        self.change("poll", |b| b.poll(self.clock.now()), |_| None)
    }

    /// Ask for a permit and hold it in a [`Guard`], which reports the call's outcome with
    /// [`Guard::finish`], or a neutral result if it is dropped unfinished: an error on your side,
    /// a panic, or a future dropped at an `.await` (the caller gave up, a `select!` took another
    /// branch). `Err` is the rejection: use the fallback. If the lock cannot be taken in time,
    /// the guard holds no permit: make the call anyway, uncounted (the breaker last seen closed;
    /// open or half-open, it is rejected: see [`Shared::permit`]).
    ///
    /// A timeout on the dependency must be caught inside and reported as
    /// [`Outcome::Timeout`], or the guard made with [`Guard::dropped_as`]`(Outcome::Timeout)`:
    /// otherwise a timeout that drops the whole future reports neutral, and hangs never count
    /// against the service.
    ///
    /// ```
    /// # use breaker::shared::Shared;
    /// # use breaker::{Outcome, Window, WindowSettings};
    /// # let breaker = Shared::new(Window::new(WindowSettings::default())?);
    /// # async fn fetch() -> Result<u32, u16> { Ok(7) }
    /// # async {
    /// let Ok(guard) = breaker.admit() else {
    ///     return None; // rejected: the fallback
    /// };
    /// let answer = fetch().await; // if this future is dropped here, the guard reports neutral
    /// guard.finish(match answer {
    ///     Ok(_) => Outcome::Success,
    ///     Err(status) => Outcome::from_http_status(status),
    /// });
    /// answer.ok()
    /// # };
    /// # Ok::<(), breaker::SettingsError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The breaker's [`Rejection`] when it rejects the call: open (with the wait's end), or
    /// half-open with its trial slots taken; also when the lock cannot be taken in time and the
    /// breaker was last seen open (with its wait's end) or half-open.
    #[track_caller]
    pub fn admit(&self) -> Result<Guard<'_, B>, Rejection> {
        Ok(Guard {
            shared: self,
            call: self.admission()?,
        })
    }

    /// [`Shared::admit`] for a guard that owns a clone of the `Arc` instead of borrowing: an
    /// [`OwnedGuard`] is `'static` (and `Send` when `B` is), so it can be held across `.await`s
    /// in a future that is spawned (`tokio::spawn`) or boxed as `'static` (tower or axum
    /// middleware), as tokio's `Semaphore::acquire_owned` does for permits. Same rules: `Err` is
    /// the rejection, [`OwnedGuard::finish`] reports the outcome, dropped unfinished it reports
    /// a neutral result.
    ///
    /// ```
    /// # use std::sync::Arc;
    /// # use breaker::shared::Shared;
    /// # use breaker::{Outcome, Window, WindowSettings};
    /// # fn spawn<F: std::future::Future + Send + 'static>(_: F) {}
    /// # async fn fetch() -> Result<u32, u16> { Ok(7) }
    /// let breaker = Arc::new(Shared::new(Window::new(WindowSettings::default())?));
    /// if let Ok(guard) = breaker.admit_owned() {
    ///     spawn(async move {
    ///         let answer = fetch().await; // if the future is dropped here, the guard reports neutral
    ///         guard.finish(match answer {
    ///             Ok(_) => Outcome::Success,
    ///             Err(status) => Outcome::from_http_status(status),
    ///         });
    ///     });
    /// }
    /// # Ok::<(), breaker::SettingsError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The [`Rejection`], as [`Shared::admit`] gives it.
    #[track_caller]
    pub fn admit_owned(self: &Arc<Self>) -> Result<OwnedGuard<B>, Rejection> {
        Ok(OwnedGuard {
            call: self.admission()?,
            shared: self.clone(),
        })
    }

    /// A permit for a guard: `Err` for a rejection, no permit if the lock was not had in time.
    #[track_caller]
    fn admission(&self) -> Result<Admitted, Rejection> {
        let permit = match self.permit() {
            Locked::Done(Decision::Admit(p)) => Some(p),
            Locked::Done(Decision::Reject(r)) => return Err(r),
            Locked::Dropped => None,
        };
        Ok(Admitted {
            permit,
            // It moves nothing and gives back a half-open slot.
            dropped_as: Outcome::InputRejected,
        })
    }

    /// Run `f` around a call: ask, call, report ([`Shared::admit`] and [`Guard::finish`]).
    /// Returns the [`Rejection`] when the breaker rejects the call (use the fallback; its
    /// [`Rejection::retry_after`] at `self.clock().now()` gives a `Retry-After`), never running
    /// `f`. `f` returns its value and the outcome to report.
    ///
    /// If `f` panics, the permit is reported as a neutral result ([`Outcome::InputRejected`]:
    /// it moves nothing and gives back a half-open slot) before the panic goes on, so that a
    /// bug on the caller's side cannot hold a window breaker's half-open for good.
    ///
    /// # Errors
    ///
    /// The [`Rejection`], as [`Shared::admit`] gives it; `f` is not run.
    #[track_caller]
    pub fn call<T>(&self, f: impl FnOnce() -> (T, Outcome)) -> Result<T, Rejection> {
        let guard = self.admit()?;
        let (value, outcome) = f();
        let _ = guard.finish(outcome);
        Ok(value)
    }

    /// [`Shared::call`] for async code: ask, await `call`, report. Returns the [`Rejection`]
    /// when the breaker rejects the call (use the fallback; `call` is then never polled). `call` resolves
    /// to its value and the outcome to report, so an error it returns early from (`?` inside it)
    /// reports its own outcome. With a guard, a `?` between [`Shared::admit`] and
    /// [`Guard::finish`] drops the guard, which reports a neutral result: a dependency that
    /// refuses every connection would never count.
    ///
    /// Dropped before `call` resolves (the caller gave up, a timeout around this future), it
    /// reports a neutral result, as a dropped guard does: catch the dependency's timeout inside
    /// `call` and give [`Outcome::Timeout`].
    ///
    /// ```
    /// # use breaker::shared::Shared;
    /// # use breaker::{Outcome, Window, WindowSettings};
    /// # #[derive(Debug)] struct Refused;
    /// # async fn send() -> Result<u16, Refused> { Err(Refused) }
    /// # async fn fetch(breaker: &Shared<Window>) -> Result<Result<u16, Refused>, breaker::Rejection> {
    /// let answer = breaker
    ///     .call_async(async {
    ///         let result = send().await; // a refused connection is counted, not dropped
    ///         let outcome = match &result {
    ///             Ok(status) => Outcome::from_http_status(*status),
    ///             Err(Refused) => Outcome::Refused,
    ///         };
    ///         (result, outcome)
    ///     })
    ///     .await; // Err(rejection): rejected, use the fallback
    /// # answer }
    /// ```
    ///
    /// # Errors
    ///
    /// The [`Rejection`], as [`Shared::admit`] gives it; `call` is not polled.
    pub async fn call_async<T>(
        &self,
        call: impl std::future::Future<Output = (T, Outcome)>,
    ) -> Result<T, Rejection> {
        let guard = self.admit()?;
        let (value, outcome) = call.await;
        let _ = guard.finish(outcome);
        Ok(value)
    }

    /// The current state: the breaker's state after the last change made under the lock (states
    /// change only there), read without the lock, so it never waits and may be called from an
    /// [`Shared::on_transition`] listener.
    pub fn state(&self) -> State {
        match self.state.load(AtomicOrdering::Acquire) {
            0 => State::Closed,
            1 => State::Open,
            _ => State::HalfOpen,
        }
    }

    /// Run `f` with the breaker locked (for reading observations; waits for the lock). Give the
    /// breaker times from [`Shared::clock`], as every other method here does. The transitions of
    /// the last mutating call `f` makes, if any, go to the listener. If `f` replaces the breaker,
    /// the listener has the replacement's transitions from then on, whatever its generation against
    /// the replaced one's: those of its last call if `f` drives it (a clone's last call is its
    /// original's, which it then hears), unless that call ends where the replaced breaker's last
    /// call did (the same generation, as many changes, the last at the same time: then they are
    /// taken as heard); calls out at that moment then report to the replacement, which did not
    /// issue their permits and takes them at their word (see [`Permit::new`](crate::Permit::new)):
    /// the window breaker counts their results as late ones, the statistical one drops those of a
    /// generation other than its own. None is taken for one of the replacement's own half-open
    /// trials when the replacement is made new (`Window::new`, `Statistical::new`): each breaker
    /// numbers its permits from a base of its own ([`Permit::id`](crate::Permit::id)). A clone goes
    /// on with its original's numbers, so a replacement cloned from the replaced breaker, or both
    /// cloned from one template, can carry the ids of the replaced one's trials; so can any in
    /// wasm, where every breaker numbers from 1. There a trial of the replaced breaker still out
    /// can carry the generation and id of one of the replacement's and be taken for it: replace a
    /// breaker while it is not half-open to rule that out. If `f` panics, what it changed is
    /// reported all the same (to [`Shared::state`] and the listener) before the panic goes on.
    ///
    /// # Panics
    ///
    /// If called on a thread that holds this `Shared`'s lock (from the transition listener or
    /// inside another `with`), rather than wait for good for its own lock; and if `f` calls
    /// anything of this `Shared` but [`Shared::state`], [`Shared::clock`] and [`Shared::counts`].
    ///
    /// Only this `Shared`'s own lock is checked: `with` of one breaker inside `with` of another
    /// is an ordinary nested lock, and two threads nesting the same two in opposite orders wait
    /// for each other for good. Nest them in one order, or read one and then the other.
    #[track_caller]
    pub fn with<T>(&self, f: impl FnOnce(&mut B) -> T) -> T {
        self.not_reentrant("with");
        self.run_held(self.inner.lock(), f)
    }

    /// [`Shared::with`] within the lock timeout: [`Locked::Dropped`], `f` not run, if the lock
    /// cannot be taken in time. For reads from an async task (an observation for metrics,
    /// [`Breaker::next_deadline`] for a poller) under a zero lock timeout, where `with` would
    /// hold the task's worker thread while it waits. Panics as `with` does.
    #[track_caller]
    pub fn try_with<T>(&self, f: impl FnOnce(&mut B) -> T) -> Locked<T> {
        self.not_reentrant("try_with");
        match self.inner.try_lock_for(self.lock_timeout) {
            Some(inner) => Locked::Done(self.run_held(inner, f)),
            None => Locked::Dropped,
        }
    }

    /// `f` on the breaker under the lock just taken ([`Shared::with`], [`Shared::try_with`]).
    fn run_held<T>(&self, inner: MutexGuard<'_, Inner<B>>, f: impl FnOnce(&mut B) -> T) -> T {
        let mut held = self.held(inner);
        let before = mark(&held.inner.breaker);
        // Reported on the way out, also when `f` panics: what it changed before the panic reaches
        // `state` and the listener (the next call clears the breaker's transitions).
        let out = WithReport {
            shared: self,
            held: &mut held,
            before,
        };
        f(&mut out.held.inner.breaker)
    }
}

/// What [`Shared::with`] compares before and after its `f`: the breaker's generation and its last
/// call's changes (how many, and the last one's generation and time). A call that changes
/// a state changes it (the generation moves), and so does putting another breaker in place,
/// unless the replacement ends at the same mark: a copy of the breaker as it was, or one driven
/// inside `f` to the same generation by a last call of as many changes at the same time (a
/// fresh breaker opened at the instant the replaced one had opened), whose changes are then
/// taken as heard.
fn mark<B: Breaker>(b: &B) -> (u64, usize, Option<(u64, u64)>) {
    let t = b.transitions();
    let last = t.last().map(|t| (t.generation, t.at.to_bits()));
    (b.generation(), t.len(), last)
}

/// [`Shared::with`]'s report of the breaker's changes, when `f` returns or unwinds.
struct WithReport<'a, 'b, B: Breaker> {
    shared: &'a Shared<B>,
    held: &'b mut Held<'a, B>,
    before: (u64, usize, Option<(u64, u64)>),
}

impl<B: Breaker> Drop for WithReport<'_, '_, B> {
    fn drop(&mut self) {
        let inner = &mut *self.held.inner;
        // `f` made a call or put another breaker in place: the breaker's last call's changes
        // are new, whatever their generations against those heard before (a replacement's start
        // from its own). Else they are the ones already reported (or none).
        if mark(&inner.breaker) != self.before {
            let first = inner.breaker.transitions().first().map(|t| t.generation);
            inner.reported = first.map_or(inner.breaker.generation(), |g| g.saturating_sub(1));
        }
        self.shared.report(inner);
    }
}

/// The panic of a reentrant call (out of line: the check stays small where it is inlined).
#[cold]
#[inline(never)]
#[track_caller]
fn reentrant(what: &str) -> ! {
    panic!(
        "breaker::shared::Shared ({what}) called on a thread that holds its lock (from the \
         transition listener or inside `with`): the lock is not reentrant, so the call would \
         wait for itself; only `state`, `clock` and `counts` may be called there"
    )
}

/// [`State`] as a byte, for [`Shared::state`]'s copy.
fn state_code(s: State) -> u8 {
    match s {
        State::Closed => 0,
        State::Open => 1,
        State::HalfOpen => 2,
    }
}

/// The permit of an admitted call until its outcome is reported: what [`Guard`] and
/// [`OwnedGuard`] share (they differ only in how they hold the [`Shared`]).
#[derive(Debug)]
struct Admitted {
    permit: Option<Permit>,
    /// Reported if the guard is dropped unfinished: neutral unless set ([`Guard::dropped_as`]).
    dropped_as: Outcome,
}

impl Admitted {
    /// The report of a guard dropped unfinished (neutral unless set). Skipped while this thread unwinds a
    /// panic holding the lock (the guard was moved into [`Shared::with`]'s closure): the report
    /// would panic as reentrant, and a panic during unwinding aborts the process. The call then
    /// reports nothing, as when the lock is not had in time.
    fn abandon<B: Breaker>(&mut self, shared: &Shared<B>) {
        if std::thread::panicking() && shared.held_here() {
            self.permit = None;
            return;
        }
        let _ = self.report(shared, self.dropped_as);
    }

    /// Report `outcome` for the permit, once: `None` if there is none (uncounted, or reported).
    #[track_caller]
    fn report<B: Breaker>(
        &mut self,
        shared: &Shared<B>,
        outcome: Outcome,
    ) -> Option<Locked<Recorded>> {
        let p = self.permit.take()?;
        Some(shared.record(&p, outcome))
    }
}

/// A call [`Shared::admit`] let through, until its outcome is reported. Dropped unfinished, it
/// reports a neutral result ([`Outcome::InputRejected`]: it moves nothing and gives back a
/// half-open slot; or what [`Guard::dropped_as`] set), so that a call abandoned for any reason does not hold a trial slot (unless
/// that report, too, cannot take the lock within the lock timeout, or the guard is dropped
/// inside [`Shared::with`] while a panic unwinds). Dropping it waits for the
/// lock like [`Shared::record`], on the thread that drops it. It borrows the [`Shared`]: for a
/// `'static` future, use [`Shared::admit_owned`]'s [`OwnedGuard`].
#[must_use = "make the call, then report its outcome with `finish`"]
pub struct Guard<'a, B: Breaker> {
    shared: &'a Shared<B>,
    call: Admitted,
}

impl<B: Breaker> Guard<'_, B> {
    /// The permit, or `None` for a call going ahead uncounted (the lock was not had in time).
    pub fn permit(&self) -> Option<&Permit> {
        self.call.permit.as_ref()
    }

    /// Report `outcome`, not a neutral result, if this guard is dropped unfinished. For a
    /// timeout that drops the whole call (tower's `Timeout`, a request deadline, `select!` with
    /// a sleep) around a guard made inside it: `dropped_as(Outcome::Timeout)` makes such a hang
    /// count against the service, as a timeout caught inside would. Any other drop reports it
    /// too (an error on your side, a panic, a caller that gave up), so use it where a drop means
    /// the dependency took too long. A [`Statistical`](crate::Statistical) trial past its call
    /// timeout is lost whatever is reported.
    ///
    /// ```
    /// # use breaker::shared::{ManualClock, Shared};
    /// # use breaker::{Outcome, State, Window, WindowSettings};
    /// let settings = WindowSettings { minimum_number_of_calls: 2, sliding_window_size: 2, ..Default::default() };
    /// let breaker = Shared::new(Window::new(settings)?).with_clock(ManualClock::new(0.0).clock());
    /// for _ in 0..2 {
    ///     let guard = breaker.admit().unwrap().dropped_as(Outcome::Timeout);
    ///     drop(guard); // as an outer timeout drops the future holding it
    /// }
    /// assert_eq!(breaker.state(), State::Open);
    /// # Ok::<(), breaker::SettingsError>(())
    /// ```
    pub fn dropped_as(mut self, outcome: Outcome) -> Self {
        self.call.dropped_as = outcome;
        self
    }

    /// Report the call's outcome now. `None` for an uncounted call (nothing to report);
    /// otherwise what [`Shared::record`] answers.
    #[track_caller]
    pub fn finish(mut self, outcome: Outcome) -> Option<Locked<Recorded>> {
        self.call.report(self.shared, outcome)
    }
}

impl<B: Breaker> fmt::Debug for Guard<'_, B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Guard")
            .field("permit", &self.call.permit)
            .finish()
    }
}

impl<B: Breaker> Drop for Guard<'_, B> {
    fn drop(&mut self) {
        self.call.abandon(self.shared);
    }
}

/// A [`Guard`] that holds an `Arc` of the [`Shared`] rather than a borrow
/// ([`Shared::admit_owned`]), so that a `'static` future can hold it: the same rules, reported
/// with [`OwnedGuard::finish`] or, dropped unfinished, as a neutral result
/// ([`Outcome::InputRejected`]) that gives back a half-open slot (or what
/// [`OwnedGuard::dropped_as`] set).
#[must_use = "make the call, then report its outcome with `finish`"]
pub struct OwnedGuard<B: Breaker> {
    shared: Arc<Shared<B>>,
    call: Admitted,
}

impl<B: Breaker> OwnedGuard<B> {
    /// The permit, or `None` for a call going ahead uncounted (the lock was not had in time).
    pub fn permit(&self) -> Option<&Permit> {
        self.call.permit.as_ref()
    }

    /// Report `outcome`, not a neutral result, if this guard is dropped unfinished. For a
    /// timeout that drops the whole call (tower's `Timeout`, a request deadline, `select!` with
    /// a sleep) around a guard made inside it ([`Guard::dropped_as`]): `dropped_as(Outcome::Timeout)` makes such a hang
    /// count against the service, as a timeout caught inside would. Any other drop reports it
    /// too (an error on your side, a panic, a caller that gave up), so use it where a drop means
    /// the dependency took too long. A [`Statistical`](crate::Statistical) trial past its call
    /// timeout is lost whatever is reported.
    pub fn dropped_as(mut self, outcome: Outcome) -> Self {
        self.call.dropped_as = outcome;
        self
    }

    /// Report the call's outcome now. `None` for an uncounted call (nothing to report);
    /// otherwise what [`Shared::record`] answers.
    #[track_caller]
    pub fn finish(mut self, outcome: Outcome) -> Option<Locked<Recorded>> {
        self.call.report(&self.shared, outcome)
    }
}

impl<B: Breaker> fmt::Debug for OwnedGuard<B> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("OwnedGuard")
            .field("permit", &self.call.permit)
            .finish()
    }
}

impl<B: Breaker> Drop for OwnedGuard<B> {
    fn drop(&mut self) {
        self.call.abandon(&self.shared);
    }
}

/// Whether a permit's result will be counted at all.
pub fn counts(permit: &Permit) -> bool {
    permit.kind != PermitKind::LastOption
}
