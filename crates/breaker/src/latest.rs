//! What a breaker reads a `now` that is not finite (`NaN`, an infinity: a broken clock) as: the
//! latest finite `now` it was given, so that one bad reading cannot poison a meter, end a wait or
//! pin a time window.

/// The latest finite `now` a breaker was given (its start, at first).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Latest(f64);

impl Latest {
    /// Starting at `t` (read as 0 if it is not finite).
    pub(crate) fn starting_at(t: f64) -> Self {
        Latest(if t.is_finite() { t } else { 0.0 })
    }

    /// `now` for a mutating call: a finite `now` becomes the latest; any other is read as it.
    #[inline]
    pub(crate) fn take(&mut self, now: f64) -> f64 {
        self.0 = self.read(now);
        self.0
    }

    /// `now` for a reading: a `now` that is not finite is read as the latest finite one.
    #[inline]
    pub(crate) fn read(&self, now: f64) -> f64 {
        if now.is_finite() {
            now
        } else {
            self.0
        }
    }
}
