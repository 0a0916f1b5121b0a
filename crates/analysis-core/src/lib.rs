//! The figures behind both breakers, each labeled with what it is: the numeric methods of the
//! `analysis` crate, which re-exports every module here under its own name and adds the reports
//! (`analysis::report`) and `breaker analyze` (`analysis::cli`).
//!
//! A crate of its own so that the page's wasm can build the two at different optimization
//! levels: these loops at 2 (at "z" the curves took 1.7x as long), the reports and the command
//! line's parsing and text at "z" (smaller, and as fast: see the workspace's Cargo.toml).
//!
//! * [`cusum`]: the closed statistical breaker (Page's CUSUM with a floor, real weights).
//! * [`sprt`]: the half-open test (Wald's SPRT, no floor).
//! * [`window`]: the textbook window breaker.
//! * [`drift`]: expected score change per call and the zero-drift rate.
//! * [`dp`]: the (n, k) dynamic program both tests share; [`num`] and [`mc`]: numerics and
//!   seeded Monte Carlo; [`figure`]: a number with its kind.
//!
//! Everything is deterministic: no threads, no clock, no OS randomness; simulations take a seed.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod cusum;
pub mod dp;
pub mod drift;
pub mod figure;
pub mod mc;
pub mod num;
pub mod sprt;
pub mod window;

pub use figure::{Figure, Kind};
