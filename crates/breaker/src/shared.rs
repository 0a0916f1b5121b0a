//! Use from a multi-threaded service: one breaker state shared under a lock with a bounded wait.
//!
//! Design §2: a change that cannot take the lock within the lock timeout (default 2 s) is dropped,
//! since one lost result does less harm than a held-up call. A permit request that cannot take the
//! lock gets [`Locked::Dropped`] and no permit: make the call anyway and report nothing (as
//! [`Shared::call`] does), so a stuck lock holds a call up for at most the lock timeout.
//!
//! `now` is read from the wrapper's [`Clock`]: for a permit once the lock is taken (the call is
//! admitted then), for a result before the wait for the lock (the call ended then).

use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::types::{Decision, Permit, PermitKind, Recorded, State};
use crate::{Breaker, Outcome};

/// A monotonic clock in seconds since the clock was made: the `now` every breaker method takes.
#[derive(Debug, Clone, Copy)]
pub struct Clock {
    start: Instant,
}

impl Default for Clock {
    fn default() -> Self {
        Clock {
            start: Instant::now(),
        }
    }
}

impl Clock {
    /// A clock starting now.
    pub fn new() -> Self {
        Self::default()
    }

    /// Seconds since the clock was made.
    pub fn now(&self) -> f64 {
        self.start.elapsed().as_secs_f64()
    }
}

/// The result of a change under the lock.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Locked<T> {
    /// The lock was taken and the change applied.
    Done(T),
    /// The lock could not be taken within the timeout; the change was dropped.
    Dropped,
}

/// A breaker shared between threads, changed under a lock with a bounded wait.
#[derive(Debug)]
pub struct Shared<B> {
    inner: Mutex<B>,
    lock_timeout: Duration,
    clock: Clock,
}

impl<B: Breaker> Shared<B> {
    /// Share `breaker` with the default 2 s lock timeout and a clock starting now.
    pub fn new(breaker: B) -> Self {
        Self::with_lock_timeout(breaker, Duration::from_secs(2))
    }

    /// Share `breaker` with a custom lock timeout.
    pub fn with_lock_timeout(breaker: B, lock_timeout: Duration) -> Self {
        Shared {
            inner: Mutex::new(breaker),
            lock_timeout,
            clock: Clock::new(),
        }
    }

    /// The clock this wrapper uses for `now`.
    pub fn clock(&self) -> Clock {
        self.clock
    }

    /// Ask for a permit, at the time the lock is taken. If the lock cannot be taken in time the
    /// answer is [`Locked::Dropped`], with no permit: make the call anyway, uncounted (as
    /// [`Shared::call`] does).
    pub fn permit(&self) -> Locked<Decision> {
        match self.inner.try_lock_for(self.lock_timeout) {
            Some(mut b) => Locked::Done(b.permit(self.clock.now())),
            None => Locked::Dropped,
        }
    }

    /// Report an outcome now (read before the wait for the lock); dropped if the lock cannot be
    /// taken in time.
    pub fn record(&self, permit: &Permit, outcome: Outcome) -> Locked<Recorded> {
        let now = self.clock.now();
        match self.inner.try_lock_for(self.lock_timeout) {
            Some(mut b) => Locked::Done(b.record(permit, outcome, now)),
            None => Locked::Dropped,
        }
    }

    /// Run `f` around a call: ask, call, report. Returns `None` when the breaker rejects the call
    /// (use the fallback). `f` returns its value and the outcome to report.
    pub fn call<T>(&self, f: impl FnOnce() -> (T, Outcome)) -> Option<T> {
        let permit = match self.permit() {
            Locked::Done(Decision::Admit(p)) => Some(p),
            Locked::Done(Decision::Reject(_)) => return None,
            Locked::Dropped => None,
        };
        let (value, outcome) = f();
        if let Some(p) = permit {
            let _ = self.record(&p, outcome);
        }
        Some(value)
    }

    /// The current state (waits for the lock).
    pub fn state(&self) -> State {
        self.inner.lock().state()
    }

    /// Run `f` with the breaker locked (for reading observations).
    pub fn with<T>(&self, f: impl FnOnce(&mut B) -> T) -> T {
        f(&mut self.inner.lock())
    }
}

/// Whether a permit's result will be counted at all.
pub fn counts(permit: &Permit) -> bool {
    permit.kind != PermitKind::LastOption
}
