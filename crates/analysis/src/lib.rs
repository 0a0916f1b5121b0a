//! Exact numbers behind both breakers, each labeled with what it is.
//!
//! * [`cusum`]: the closed statistical breaker (Page's CUSUM with a floor, real weights): average
//!   run length exactly (renewal + (n, k) dynamic program), by a Brook-Evans chain, Ville/Lorden's
//!   bound, Wald's approximation and Monte Carlo.
//! * [`sprt`]: the half-open test (Wald's SPRT, no floor): chance to close (OC) and expected
//!   trials (ASN), exactly and by Wald's approximations.
//! * [`window`]: the textbook window breaker: spurious trips per day from the binomial tail with
//!   windows back to back, an exact chain for a sliding window of up to [`window::MAX_EXACT`]
//!   calls, Monte Carlo otherwise; time to fill; calls to open at an outage rate (exact for any
//!   window in a total outage).
//! * [`drift`]: expected score change per call and the zero-drift rate.
//! * [`report`]: the tables the command line and the page show (single points and sweeps).
//! * [`cli`]: `breaker analyze ...`.
//!
//! Everything is deterministic: no threads, no clock, no OS randomness; simulations take a seed.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cli;
pub mod report;

// The figures' methods, in a crate of their own (optimized for speed in the page's wasm, where
// this one is optimized for size); here under their own names.
pub use analysis_core::{cusum, dp, drift, figure, mc, num, sprt, window};
pub use figure::{Figure, Kind};
