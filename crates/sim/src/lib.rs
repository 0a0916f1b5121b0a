//! The deterministic simulator of the breaker playground: the same scenario and seed give the
//! same run, call for call, natively and in wasm.
//!
//! A [`Scenario`] (traffic, dependency phases, callers, both breakers' settings, duration, seed,
//! optionally a recorded trace) is played on a fake clock. Every call is offered to both
//! breakers, the statistical one ([`breaker::Statistical`]) and the window one
//! ([`breaker::Window`]); the dependency's outcome for a call is drawn once and used for both, so
//! their numbers compare like for like (each breaker has its own copy of the dependency's
//! capacity, since a breaker that holds calls back lightens the load on it).
//!
//! * [`Sim`]: step one call, to the next transition, to a time; scrub back through checkpoints;
//!   run in chunks with progress; [`Sim::snapshot`] for the page.
//! * [`run`]: a whole run with downsampled series; [`replay`]: stream a trace from any reader.
//! * [`presets()`]: named scenarios; [`trace_hash`]: SHA-256 of a run's event trace.
//!
//! Determinism: xoshiro256++ streams seeded from the scenario's seed, uniforms built from raw bits,
//! `libm` for every transcendental function, no hash-map iteration, and ties on the clock broken
//! by a sequence number. The core path uses no clock, thread or file (it builds for
//! `wasm32-unknown-unknown`); files are read through `impl BufRead`.
#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod allowed;
#[doc(hidden)]
pub mod bare;
mod engine;
mod log;
mod output;
mod presets;
mod rng;
mod scenario;
mod series;
mod sim;
mod trace;
mod traffic;

pub use log::{EventLog, MAX_EVENTS};
pub use output::{
    canonical_trace, trace_hash, BreakerKind, BreakerResult, Breakers, CallReport, Changes,
    Decided, Event, Metrics, RunResult, Series, Snapshot, Totals, Verdict,
};
pub use presets::{preset, preset_or_err, presets, Preset, GOLDEN_TRACE_HASHES};
pub use scenario::{
    set_path, Arrivals, Burst, Callers, Condition, Phase, Scenario, Traffic, MAX_DURATION_S,
    MIN_CALLS_PER_MINUTE,
};
pub use sim::{
    replay, run, Sim, DEFAULT_CHECKPOINT_EVERY, DEFAULT_MAX_CHECKPOINTS, MAX_CHECKPOINT_BYTES,
};
pub use trace::{scan_trace, scan_trace_against, TraceError, TraceReader, TraceRecord, TraceSpan};

/// Why a run could not be made.
#[derive(Debug, Clone, PartialEq)]
pub enum SimError {
    /// An invalid setting (the field is named in full, e.g. `statistical.broken_rate`).
    Settings(breaker::SettingsError),
    /// A malformed trace (line and field named).
    Trace(TraceError),
}

impl std::fmt::Display for SimError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SimError::Settings(e) => e.fmt(f),
            SimError::Trace(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SimError {}
