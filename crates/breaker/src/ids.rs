//! Permit ids: each breaker numbers its permits from a base of its own, so that one breaker's
//! permit is not taken for another's.
//!
//! A breaker replaced while its calls are out (a configuration reload inside
//! [`Shared::with`](crate::shared::Shared::with)) leaves their results to its replacement. Had
//! both numbered their permits from 1, an old call could carry the generation and id of one of
//! the replacement's half-open trials and be taken for it. Natively the k-th breaker made in
//! the process (counting from 0) numbers from `k x 2^40 + 1`: 2^40 permits each (35 years at
//! 1,000 calls a second), 2^24 breakers before the bases come round again. In wasm every
//! breaker numbers from 1: the page never replaces one, and its size budget has no room for the
//! counter.

/// The id before a new breaker's first permit.
#[cfg(not(target_arch = "wasm32"))]
pub(crate) fn base() -> u64 {
    use core::sync::atomic::{AtomicUsize, Ordering};
    static BREAKERS: AtomicUsize = AtomicUsize::new(0);
    (BREAKERS.fetch_add(1, Ordering::Relaxed) as u64) << 40
}

/// The id before a new breaker's first permit.
#[cfg(target_arch = "wasm32")]
pub(crate) fn base() -> u64 {
    0
}
