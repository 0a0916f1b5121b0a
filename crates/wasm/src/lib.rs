//! The breaker playground's wasm layer: a thin `wasm-bindgen` shell over the simulator (`sim`) and
//! the analysis (`analysis`), for the page in `www/`.
//!
//! Like ruff's `ruff_wasm`, this crate holds no logic of its own: it converts settings from JS
//! objects into the simulator's [`sim::Scenario`] (the same JSON the CLI reads), keeps a run in a
//! [`Playground`] handle, and returns small results (snapshots, events, metrics, derived numbers,
//! series as `Float64Array`s) to JS. Anything computed here must also be computable natively
//! through `sim` or `analysis`.
//!
//! Errors: invalid settings come back as a JS `Error` whose message names the field and the
//! allowed range (`statistical.broken_rate = 0.01 is invalid: allowed fine_rate (0.05) < x < 1`).
//! A panic is written to the console by `console_error_panic_hook` (installed at start); the page
//! forwards it to a visible banner.

use breaker::{StatisticalSettings, WindowSettings};
use js_sys::{Array, Float64Array, Object, Reflect, JSON};
use serde::Serialize;
use sim::{BreakerKind, Scenario};
use wasm_bindgen::prelude::*;

mod convert;
use convert::{scenario_from_js, to_js, to_js_json, to_js_sorted};

/// The allocator: talc rather than Rust's default for wasm (dlmalloc). The page's wasm is
/// 2,818 bytes smaller (gzip: 149,719 -> 146,901), and the simulator as fast: busy-service in
/// Chromium's worker 3211 against 3198 ms, in Firefox's 3528 against 3488 ms (one run each,
/// `cargo xtask bench`; within the figures' spread).
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static TALC: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

/// Installs the panic hook so a Rust panic's message reaches the console (and the page's banner).
#[wasm_bindgen(start)]
pub fn start() {
    console_error_panic_hook::set_once();
}

// The shapes of the results and of the settings taken, for the `.d.ts` (the custom section is
// read by the wasm-bindgen CLI and left out of the wasm: no bytes there). tests/e2e/package.test.mjs
// checks each result against the objects the calls return, and each setting taken against the
// settings reader (text exactly where the type says).
#[wasm_bindgen(typescript_custom_section)]
const TS_SHAPES: &'static str = r#"
/** A breaker state as the simulator writes it. */
export type BreakerState = "closed" | "open" | "half_open";
/** A breaker's numbers at the cursor (`breaker::Observation`: scores and lines in nats; NaN where one does not apply). */
export interface Observation {
  state: BreakerState;
  generation: number;
  level: number;
  threshold: number;
  trial: number;
  trial_upper: number;
  trial_lower: number;
  wait: number;
  rate: number;
  count: number;
}
/** What one breaker did with a call (`sim::Decided`). */
export interface Decided {
  verdict: string;
  outcome: OutcomeName | null;
  result_at_s: number | null;
}
/** The last call to arrive (`sim::CallReport`). */
export interface CallReport {
  index: number;
  t_s: number;
  caller: number;
  drawn: OutcomeName;
  statistical: Decided;
  window: Decided;
}
/** The state at the cursor (`sim::Snapshot`); `events`: how many state changes each breaker (statistical, window) has made by `t_s`; `done`: nothing left to happen after `t_s`, known once the simulation has looked for the next call (a step onto the last call may say false, a seek there says true). */
export interface Snapshot {
  t_s: number;
  calls: number;
  done: boolean;
  statistical: Observation;
  window: Observation;
  last_call: CallReport | null;
  events: [number, number];
}
/** A state change (`sim::Event`, with its breaker); `detail` holds the reason's numbers, by `kind`. */
export interface BreakerEvent {
  t_s: number;
  breaker: "statistical" | "window";
  caller: number;
  from: BreakerState;
  to: BreakerState;
  generation: number;
  reason: string;
  detail: { kind: string; [key: string]: number | string };
}
/** A run's name, seed and length (seconds: the scenario's duration, or a replayed trace's last call; a run cut short ends before it, at `metrics().cut_at_s`). */
export interface Info {
  name: string;
  seed: number;
  duration: number;
}
/** A preset: its name, what it shows, and its scenario with every field filled in. */
export interface Preset {
  name: string;
  story: string;
  scenario: Scenario;
}
/** An outcome's name (`breaker::Outcome`). */
export type OutcomeName = "success" | FailureName;
/** The outcomes a phase's failure can carry: every outcome but success. */
export type FailureName = "timeout" | "refused" | "server_error" | "overload" | "service_rate_limited" | "auth_rejected" | "input_rejected" | "user_rate_limited";
/** A scenario with every field filled in, as the calls give it back (`sim::Scenario`: seconds, rates as fractions). The calls that take one take a `ScenarioInput`: any part of it, durations and rates also as text ("5s", "5%"). */
export interface Scenario {
  callers: Callers;
  dependency: Phase[];
  duration: number;
  name: string;
  seed: number;
  statistical: StatisticalSettings;
  trace: string | null;
  traffic: Traffic;
  window: WindowSettings;
}
/** `sim::Callers`. */
export interface Callers {
  call_timeout: number;
  count: number;
  lock_hold: number;
  lock_timeout: number;
  shared_state: boolean;
}
/** One phase of the dependency (`sim::Phase`), from `start` seconds. */
export interface Phase {
  burst: Burst;
  capacity: number;
  condition: "fine" | "degraded" | "outage";
  failure: FailureName;
  failure_latency: number;
  failure_latency_jitter: number;
  failure_rate: number;
  hang_rate: number;
  input_error_rate: number;
  label: string;
  latency: number;
  latency_jitter: number;
  one_in: number;
  start: number;
}
/** `sim::Burst`: entered with chance `enter` a call, left with `leave`. */
export interface Burst {
  enter: number;
  failure_rate: number;
  leave: number;
}
/** `breaker::StatisticalSettings`. */
export interface StatisticalSettings {
  backoff_factor: number;
  broken_rate: number;
  call_timeout: number;
  expected_calls_per_minute: number;
  false_alarm_period: number;
  fine_rate: number;
  first_wait: number;
  half_open_time_factor: number;
  traffic_time_constant: number;
  trial_wrongly_closes: number;
  trial_wrongly_opens: number;
  wait_cap: number;
}
/** `sim::Traffic`. */
export interface Traffic {
  arrivals: "poisson" | "even";
  calls_per_minute: number;
  daily_swing: number;
}
/** `breaker::WindowSettings` (resilience4j's, in seconds). */
export interface WindowSettings {
  automatic_transition_from_open_to_half_open_enabled: boolean;
  failure_rate_threshold: number;
  max_wait_duration_in_half_open_state: number;
  max_wait_duration_in_open_state: number;
  minimum_number_of_calls: number;
  permitted_number_of_calls_in_half_open_state: number;
  random_seed: number;
  sliding_window_size: number;
  sliding_window_type: "count_based" | "time_based";
  slow_call_duration_threshold: number;
  slow_call_rate_threshold: number;
  transition_to_state_after_wait_duration: "open" | "closed";
  wait_duration_in_open_state: number;
  wait_interval_multiplier: number;
  wait_randomization_factor: number;
}
/** One breaker's metrics over the run (`sim::Metrics`; a time is null where there was none to measure). */
export interface BreakerMetrics {
  openings: number;
  false_openings: number;
  calls_waited_on_failure: number;
  good_calls_to_fallback: number;
  failed_while_unhealthy: number;
  calls_rejected: number;
  late_results_ignored: number;
  late_results_in_half_open: number;
  dropped_updates: number;
  time_to_open_s: number | null;
  time_to_close_s: number | null;
}
/** One breaker's running totals (`sim::Totals`). */
export interface Totals {
  calls: number;
  admitted: number;
  trials: number;
  answered: number;
  failed: number;
  to_fallback: number;
  results_counted: number;
  results_neutral: number;
  in_flight_at_end: number;
}
/** Caller 0's state changes in brief (`sim::Changes`). */
export interface Changes {
  opened: boolean;
  retrips: number;
  last_s: number | null;
  last_to: BreakerState;
}
/** One breaker's part of `metrics()`. */
export interface BreakerSummary {
  metrics: BreakerMetrics;
  totals: Totals;
  changes: Changes;
}
/** `metrics()`: both breakers', whether the run is whole, where it was cut short (or null), its calls, and its outages as [start, end or null]. */
export interface RunMetrics {
  statistical: BreakerSummary;
  window: BreakerSummary;
  complete: boolean;
  cut_at_s: number | null;
  calls: number;
  outages: [number, number | null][];
}
/** `derived()`: the numbers the settings give (NaN where one does not apply; see the page's derived panel). Scores and lines in nats; all exact from the settings, but `trials_expected_fine` (exact, or NaN past its work cap). */
export interface Derived {
  /** p0, the fine failure rate (a fraction). */
  fine_rate: number;
  /** p1, the broken failure rate. */
  broken_rate: number;
  /** Seconds: on average at most one false alarm per this period at p0 (Lorden's bound). */
  false_alarm_period: number;
  /** A failure's weight, ln(p1 / p0). */
  w_fail: number;
  /** A success's weight, ln((1 - p1) / (1 - p0)), below 0. */
  w_ok: number;
  /** One point on the page's charts: |w_ok| nats. */
  point: number;
  /** Wald's upper line A = ln((1 - b) / a): half-open opens again at or above it. */
  upper: number;
  /** Wald's lower line B = ln(b / (1 - a)): half-open closes at or below it. */
  lower: number;
  /** Successes in a row that close half-open from 0: ceil(B / w_ok). */
  trials_to_close: number;
  /** Failures in a row that open it again from 0: ceil(A / w_fail). */
  trials_to_open: number;
  /** The failure rate where the score's expected change is 0: -w_ok / (w_fail - w_ok). */
  zero_drift_rate: number;
  /** The closed line's floor: max(A, w_fail + |w_ok|). */
  line_floor: number;
  /** The score's expected change a call at p0: p0 w_fail + (1 - p0) w_ok (below 0). */
  drift_fine: number;
  /** The same at p1 (above 0). */
  drift_broken: number;
  /** The scenario's traffic, calls per second (all callers; for a trace replay still the setting, which it does not use). */
  nominal_rate: number;
  /** The closed line one breaker has at the nominal traffic: max(ln(half_open_rate x false_alarm_period), line_floor); NaN for a trace replay. */
  nominal_line: number;
  /** Calls per second one breaker sees at the nominal traffic (callers that do not share state each have their own); NaN for a trace replay. */
  half_open_rate: number;
  /** Seconds: half-open's time limit at that rate, half_open_time_factor x trials_to_close / half_open_rate. */
  half_open_limit: number;
  /** Seconds: the least latency of a successful answer in any phase that gives one (NaN for none, or a trace replay). */
  trial_latency_floor: number;
  /** Seconds: the least mean latency of a successful answer (latency + latency_jitter) among the fine phases that answer. */
  trial_latency_fine_mean: number;
  /** Trials a half-open test takes on average at p0, Wald's test run to its end (exact; NaN past its work cap). */
  trials_expected_fine: number;
  /** Calls per minute the analysis curves are computed at: one breaker's share of the traffic, or of a replayed trace's own. */
  curves_calls_per_minute: number;
}
/** `series()`: bucket `i` starts at `t0 + i x bucket`; each column one value a bucket (NaN where none applies), statistical (`s_`) and window (`w_`). */
export interface Series {
  bucket: number;
  t0: number;
  t1: number;
  s_level_min: Float64Array;
  s_level_max: Float64Array;
  s_threshold_min: Float64Array;
  s_threshold_max: Float64Array;
  s_trial_min: Float64Array;
  s_trial_max: Float64Array;
  s_trial_upper_min: Float64Array;
  s_trial_upper_max: Float64Array;
  s_trial_lower_min: Float64Array;
  s_trial_lower_max: Float64Array;
  s_state_min: Float64Array;
  s_state_max: Float64Array;
  s_wait_min: Float64Array;
  s_wait_max: Float64Array;
  s_answered: Float64Array;
  s_failed: Float64Array;
  s_fallback: Float64Array;
  s_late_ignored: Float64Array;
  w_level_min: Float64Array;
  w_level_max: Float64Array;
  w_threshold_min: Float64Array;
  w_threshold_max: Float64Array;
  w_trial_min: Float64Array;
  w_trial_max: Float64Array;
  w_trial_upper_min: Float64Array;
  w_trial_upper_max: Float64Array;
  w_trial_lower_min: Float64Array;
  w_trial_lower_max: Float64Array;
  w_state_min: Float64Array;
  w_state_max: Float64Array;
  w_wait_min: Float64Array;
  w_wait_max: Float64Array;
  w_answered: Float64Array;
  w_failed: Float64Array;
  w_fallback: Float64Array;
  w_late_ignored: Float64Array;
}
/** How a figure was found (`analysis::Kind`): every number the page shows says which. */
export type FigureKind = "exact" | "bound" | "approximation" | "simulated";
/** One line of an analysis chart (`curves::Line`; y NaN where the way does not apply); a simulated line also has its 95% interval at each point and how many runs or calls are behind it. */
export interface CurveLine {
  label: string;
  kind: FigureKind;
  x: number[];
  y: number[];
  ci95_lo?: number[];
  ci95_hi?: number[];
  n?: number;
}
/** One analysis chart (`curves::Curve`); `mark`: a place on the x axis (one x, no y), the settings' own line or window, or null. */
export interface Curve {
  id: string;
  title: string;
  x_label: string;
  y_label: string;
  log_x: boolean;
  log_y: boolean;
  note: string;
  series: CurveLine[];
  mark: CurveLine | null;
}
/** A phase's failure as the settings take it: a failure or neutral outcome's name (read in any case), `"fail"` (a server error), or an HTTP status from 400 to 599, as a number or as text (`"503"`). */
export type FailureInput = FailureName | "fail" | number | `${number}`;
/** Seconds, as a number or as text: with a unit ("250ms", "5s", "1.5m", "2h", "30d", "1w") or without one ("12.5", seconds). */
export type Seconds = number | string;
/** A fraction from 0 to 1, as a number or as text: a percentage ("5%") or a number ("0.05"). */
export type Fraction = number | string;
/** The settings the calls take (`new Playground`, `normalizeScenario`): any part of a `Scenario`, the rest its defaults; durations and rates also as text. A key whose value is `undefined` is left out, as `JSON.stringify` leaves it. */
export interface ScenarioInput {
  callers?: CallersInput;
  dependency?: PhaseInput[];
  duration?: Seconds;
  name?: string;
  seed?: number;
  statistical?: StatisticalInput;
  trace?: string | null;
  traffic?: TrafficInput;
  window?: WindowInput;
}
/** Any part of `Callers`. */
export interface CallersInput {
  call_timeout?: Seconds;
  count?: number;
  lock_hold?: Seconds;
  lock_timeout?: Seconds;
  shared_state?: boolean;
}
/** Any part of a `Phase` (the first phase starts at 0; each later one after the one before). */
export interface PhaseInput {
  burst?: BurstInput;
  capacity?: number;
  condition?: "fine" | "degraded" | "outage";
  failure?: FailureInput;
  failure_latency?: Seconds;
  failure_latency_jitter?: Seconds;
  failure_rate?: Fraction;
  hang_rate?: Fraction;
  input_error_rate?: Fraction;
  label?: string;
  latency?: Seconds;
  latency_jitter?: Seconds;
  one_in?: number;
  start?: Seconds;
}
/** Any part of a `Burst`. */
export interface BurstInput {
  enter?: Fraction;
  failure_rate?: Fraction;
  leave?: Fraction;
}
/** Any part of `StatisticalSettings` (also `analysis()`'s first argument). */
export interface StatisticalInput {
  backoff_factor?: number;
  broken_rate?: Fraction;
  call_timeout?: Seconds;
  expected_calls_per_minute?: number;
  false_alarm_period?: Seconds;
  fine_rate?: Fraction;
  first_wait?: Seconds;
  half_open_time_factor?: number;
  traffic_time_constant?: Seconds;
  trial_wrongly_closes?: Fraction;
  trial_wrongly_opens?: Fraction;
  wait_cap?: Seconds;
}
/** Any part of `Traffic`. */
export interface TrafficInput {
  arrivals?: "poisson" | "even";
  calls_per_minute?: number;
  daily_swing?: Fraction;
}
/** Any part of `WindowSettings` (also `analysis()`'s second argument). */
export interface WindowInput {
  automatic_transition_from_open_to_half_open_enabled?: boolean;
  failure_rate_threshold?: Fraction;
  max_wait_duration_in_half_open_state?: Seconds;
  max_wait_duration_in_open_state?: Seconds;
  minimum_number_of_calls?: number;
  permitted_number_of_calls_in_half_open_state?: number;
  random_seed?: number;
  sliding_window_size?: number;
  sliding_window_type?: "count_based" | "time_based" | "COUNT_BASED" | "TIME_BASED";
  slow_call_duration_threshold?: Seconds;
  slow_call_rate_threshold?: Fraction;
  transition_to_state_after_wait_duration?: "open" | "closed" | "OPEN" | "CLOSED";
  wait_duration_in_open_state?: Seconds;
  wait_interval_multiplier?: number;
  wait_randomization_factor?: number;
}
"#;

/// This crate's version (the workspace version).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// The simulator's presets: `[{name, story, scenario}]` in the simulator's order (the first is
/// the page's default); `scenario` has every field filled in.
///
/// Each preset's JSON is read by the browser's `JSON.parse` (the wasm tests check that it gives
/// bit for bit what the native `serde_json` parse of `sim::Preset::scenario` gives), which keeps
/// a JSON parser out of the wasm.
#[wasm_bindgen(unchecked_return_type = "Preset[]")]
pub fn presets() -> Result<JsValue, JsError> {
    let list = Array::new();
    for p in sim::presets() {
        let json = JSON::parse(p.json)
            .map_err(|_| JsError::new(&format!("preset {} is not JSON", p.name)))?;
        let mut scenario: Scenario = convert::from_js(&json)
            .map_err(|e| JsError::new(&format!("preset {} does not parse: {e}", p.name)))?;
        scenario.name = p.name.to_string();
        let o = Object::new();
        set(&o, "name", &JsValue::from_str(p.name))?;
        set(&o, "story", &JsValue::from_str(p.story))?;
        set(&o, "scenario", &to_js_sorted(&scenario)?)?;
        list.push(&o);
    }
    Ok(list.into())
}

/// The default scenario (every field present), as a JS object.
#[wasm_bindgen(js_name = defaultScenario, unchecked_return_type = "Scenario")]
pub fn default_scenario() -> Result<JsValue, JsError> {
    to_js_sorted(&Scenario::default())
}

/// Read and validate a scenario object and return it with every field filled in: the settings
/// round trip. Throws an `Error` naming the field when invalid.
#[wasm_bindgen(js_name = normalizeScenario, unchecked_return_type = "Scenario")]
pub fn normalize_scenario(
    #[wasm_bindgen(unchecked_param_type = "ScenarioInput")] scenario: JsValue,
) -> Result<JsValue, JsError> {
    let s = scenario_from_js(&scenario)?;
    to_js_sorted(&s)
}

/// The analysis figures for the page's curves, from the breaker settings (`statistical`,
/// `window`, objects as in the scenario) and `options` (`{calls_per_minute}`, default 60): a
/// list of curves `{id, title, x_label, y_label, log_x, log_y, note, series: [{label, kind, x,
/// y}], mark}` (a simulated line also has `ci95_lo`, `ci95_hi`, `n`; `mark` is a place on the
/// x axis, the user's own line on the false-alarm curve or window on the window curve, or
/// null).
#[wasm_bindgen(unchecked_return_type = "Curve[]")]
pub fn analysis(
    #[wasm_bindgen(unchecked_param_type = "StatisticalInput")] statistical: JsValue,
    #[wasm_bindgen(unchecked_param_type = "WindowInput")] window: JsValue,
    // Optional to TypeScript (as to the code: undefined or null is the default), at no cost in
    // the wasm, where an `Option<JsValue>` cost 49 B.
    #[wasm_bindgen(unchecked_optional_param_type = "{ calls_per_minute?: number } | null")]
    options: JsValue,
) -> Result<JsValue, JsError> {
    let st = convert::from_js_named(&statistical, "statistical", StatisticalSettings::validate)?;
    let win = convert::from_js_named(&window, "window", WindowSettings::validate)?;
    let opts: convert::AnalysisOptions = if options.is_undefined() || options.is_null() {
        convert::AnalysisOptions::default()
    } else {
        convert::from_js_named(&options, "options", convert::AnalysisOptions::validate)?
    };
    let curves = curves::page_curves(&st, &win, opts.calls_per_minute / 60.0);
    to_js(&curves)
}

/// `breaker analyze` in the browser: `args` are the command line's arguments after `analyze`
/// (`["false-alarms", "--fine", "0.05", "--simulate", "200"]`), the result is the object that
/// `breaker analyze ... --format json` prints (`--format json` is implied). The report
/// (`analysis::cli::report`) goes to JS as objects rather than JSON text, so no JSON printer is
/// in the wasm; it is what `JSON.parse` of the command line's text gives (same keys in the same
/// order, non-finite numbers as `null`, every number to the last bit: the wasm tests compare it
/// with `JSON.parse` of [`analyze_text`]). Bad arguments throw an `Error` with the command line's
/// one-line message naming the flag. For the walkthrough (`www/learn.html`), which shows each
/// step's command beside its numbers.
#[wasm_bindgen]
pub fn analyze(args: Vec<String>) -> Result<JsValue, JsError> {
    let report = analysis::cli::report(&args).map_err(|e| JsError::new(&e))?;
    to_js_json(&report)
}

/// What [`analyze`] parses, natively: the text of `breaker analyze <args> --format json`.
pub fn analyze_text(args: &[String]) -> Result<String, String> {
    let mut all: Vec<String> = args.to_vec();
    all.push("--format".into());
    all.push("json".into());
    analysis::cli::run(&all)
}

/// A run of one scenario, held in Rust. Built from the scenario settings (a JS object that
/// serializes to the simulator's Scenario JSON).
///
/// Two simulations of the same scenario: `full` collects series over the whole run and is
/// computed to the end in chunks (for the worker's progress bar); it answers series, events and
/// metrics; it keeps checkpoints as it goes (`sim::Sim::with_checkpoints`). `cursor` is the
/// playback position that `seek`, `stepCall` and `nextEvent` move; it takes the full run's
/// checkpoints (`sim::Sim::adopt_checkpoints`), so a seek replays only from the nearest one. A
/// series request for another range or bucket count replays a collecting copy from the latest
/// checkpoint before the range (`sim::Sim::collecting_from_checkpoint`: the same values as a
/// copy from time 0) up to the range's end.
#[wasm_bindgen]
pub struct Playground {
    scenario: Scenario,
    full: sim::Sim,
    cursor: sim::Sim,
}

/// Buckets of the full run's series (the chart's first view).
pub const FULL_BUCKETS: usize = 600;

/// Most checkpoints the full run keeps: a month of 26M calls has one every 200k calls or less,
/// so a zoomed series or a seek replays at most that many (tens of ms). With tens of thousands
/// of calls in flight or large window breakers, fewer (`sim::MAX_CHECKPOINT_BYTES` bounds what
/// they hold), and a seek replays more.
pub const FULL_CHECKPOINTS: usize = 256;

#[wasm_bindgen]
impl Playground {
    /// Build from a scenario object. Throws an `Error` naming the field when invalid.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "ScenarioInput")] scenario: JsValue,
    ) -> Result<Playground, JsError> {
        let scenario = scenario_from_js(&scenario)?;
        let cursor = sim::Sim::new(&scenario).map_err(|e| JsError::new(&e.to_string()))?;
        let full = cursor
            .collecting(FULL_BUCKETS, 0.0, cursor.end_s())
            .with_checkpoints(sim::DEFAULT_CHECKPOINT_EVERY, FULL_CHECKPOINTS);
        Ok(Playground {
            scenario,
            full,
            cursor,
        })
    }

    /// The scenario with every field filled in.
    #[wasm_bindgen(unchecked_return_type = "Scenario")]
    pub fn scenario(&self) -> Result<JsValue, JsError> {
        to_js_sorted(&self.scenario)
    }

    /// `{name, seed, duration}`; duration in seconds.
    #[wasm_bindgen(unchecked_return_type = "Info")]
    pub fn info(&self) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct Info<'a> {
            name: &'a str,
            seed: u64,
            duration: f64,
        }
        to_js(&Info {
            name: &self.scenario.name,
            seed: self.scenario.seed,
            duration: self.full.end_s(),
        })
    }

    /// Compute up to `max_calls` more calls of the full run; returns the fraction done (1 = the
    /// whole run). For the worker's chunked progress. Any number: rounded down, at least 1 (NaN,
    /// 0 and below too, so a loop until 1 always ends), `Infinity` the rest of the run. (Taken
    /// as a `u32`, JS's 2^32 and `Infinity` wrapped to 0 calls, and the loop never ended.)
    pub fn advance(&mut self, max_calls: f64) -> f64 {
        self.full.advance((max_calls as u64).max(1));
        if self.full.is_done() {
            1.0
        } else {
            self.full.progress().min(0.999_999)
        }
    }

    /// How far the full run has been computed (seconds).
    pub fn reached(&self) -> f64 {
        self.full.known_to()
    }

    /// Whether the full run is complete.
    pub fn finished(&self) -> bool {
        self.full.is_done()
    }

    /// Move the playback cursor to `t` (seconds) and return the snapshot there. `t` is clamped to
    /// the run, `[0, end]`, and NaN is the end; a `t` that is not a number is taken as JS
    /// `Number(t)` takes it, with no error (`"5"` is 5, `null` 0, `"x"` NaN).
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn seek(&mut self, t: f64) -> Result<JsValue, JsError> {
        self.cursor.adopt_checkpoints(&self.full);
        self.cursor.seek(t);
        self.snapshot()
    }

    /// The snapshot at the playback cursor: `{t_s, calls, done, statistical, window, last_call,
    /// events}` (observations in nats; see `sim::Snapshot`).
    #[wasm_bindgen(unchecked_return_type = "Snapshot")]
    pub fn snapshot(&self) -> Result<JsValue, JsError> {
        to_js(&self.cursor.snapshot())
    }

    /// Advance the cursor by one call (its arrival) and return the snapshot.
    #[wasm_bindgen(js_name = stepCall, unchecked_return_type = "Snapshot")]
    pub fn step_call(&mut self) -> Result<JsValue, JsError> {
        self.cursor.adopt_checkpoints(&self.full);
        self.cursor.step_call();
        self.snapshot()
    }

    /// Move the cursor one call back (`sim::Sim::step_back`, the inverse of `stepCall`) and
    /// return the snapshot.
    #[wasm_bindgen(js_name = stepBack, unchecked_return_type = "Snapshot")]
    pub fn step_back(&mut self) -> Result<JsValue, JsError> {
        self.cursor.adopt_checkpoints(&self.full);
        self.cursor.step_back();
        self.snapshot()
    }

    /// Advance the cursor to the next state change of either breaker, looking no further than
    /// `until` (seconds) when given; returns `{snapshot, event}` (`event` null when there is
    /// none left, or none by `until`: the cursor then stops there, `sim::Sim::next_event_by`).
    /// An `until` that is NaN (or that `Number()` makes NaN) is no limit.
    #[wasm_bindgen(js_name = nextEvent, unchecked_return_type = "{ snapshot: Snapshot; event: BreakerEvent | null }")]
    pub fn next_event(&mut self, until: Option<f64>) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct Out<T: Serialize, E: Serialize> {
            snapshot: T,
            event: Option<E>,
        }
        self.cursor.adopt_checkpoints(&self.full);
        let event = self.cursor.next_event_by(until.unwrap_or(f64::INFINITY));
        to_js(&Out {
            snapshot: self.cursor.snapshot(),
            event,
        })
    }

    /// Both breakers' series over `[t0, t1]` in `buckets` buckets, as an object: `bucket` (the
    /// width), `t0`, `t1` (bucket `i` starts at `t0 + i x bucket`), then `Float64Array`s
    /// `s_<column>` and `w_<column>` for
    /// every column of `sim::Series` (`level_min`, `level_max`, ..., `answered`, `failed`,
    /// `fallback`, `late_ignored`). NaN where a value does not apply, and in every column past
    /// the bucket holding the time the full run reached, while it is not done. A range is
    /// computed from a checkpoint up to `t1` whatever the full run reached: the page asks only
    /// within it. The range is cut to the run's `[0, end]` (an end that is NaN reads as the
    /// run's); one with nothing left of it, or too short for its buckets, is the whole run (past
    /// the end it gave `[5000, 5001]` of a run of 3600 s, all NaN), computed to its end in this
    /// call if the full run has not reached it: as long as the run itself may take. `buckets`: any number,
    /// rounded down, within 1 to 20,000 (NaN is 1).
    #[wasm_bindgen(unchecked_return_type = "Series")]
    pub fn series(&mut self, t0: f64, t1: f64, buckets: f64) -> Result<JsValue, JsError> {
        let end = self.full.end_s();
        let buckets = (buckets as u32).clamp(1, 20_000) as usize;
        // (`max` and `min` take the other side of a NaN: a NaN end reads as the run's.)
        let (a, b) = (t0.max(0.0), t1.min(end));
        let (t0, t1) = if (b - a) / buckets as f64 > 0.0 {
            (a, b)
        } else {
            (0.0, end)
        };
        let whole = t0 <= 0.0 && t1 >= end && buckets == FULL_BUCKETS;
        let range = if whole {
            None
        } else {
            let mut c = self.full.collecting_from_checkpoint(buckets, t0, t1);
            c.run_until(t1);
            Some(c)
        };
        let out = Object::new();
        for (i, kind) in BreakerKind::ALL.into_iter().enumerate() {
            let s = &range.as_ref().unwrap_or(&self.full).series(kind);
            if i == 0 {
                set(&out, "bucket", &JsValue::from_f64(s.bucket_s))?;
                set(&out, "t0", &JsValue::from_f64(s.t0_s))?;
                set(&out, "t1", &JsValue::from_f64(s.t1_s))?;
            }
            let prefix = match kind {
                BreakerKind::Statistical => "s_",
                BreakerKind::Window => "w_",
            };
            for (name, col) in sim::Series::COLUMNS.iter().zip(s.columns()) {
                set(
                    &out,
                    &format!("{prefix}{name}"),
                    &Float64Array::from(col).into(),
                )?;
            }
        }
        Ok(out.into())
    }

    /// Both breakers' state changes of the full run, merged in time order: `{list, total}`, each
    /// `{t_s, breaker, caller, from, to, generation, reason, detail}`; at most `limit` listed
    /// (default 5000; any number, rounded down: NaN and below 1 list none, `Infinity` all).
    #[wasm_bindgen(unchecked_return_type = "{ list: BreakerEvent[]; total: number }")]
    pub fn events(&self, limit: Option<f64>) -> Result<JsValue, JsError> {
        // Each breaker's events are in time order (`sim::BreakerResult::events`), so merging the
        // two lists gives what a stable sort of them by time gives (statistical first at equal
        // times), without a sort's code in the wasm.
        let s = self.full.events(BreakerKind::Statistical);
        let w = self.full.events(BreakerKind::Window);
        let total = s.len() + w.len();
        let limit = limit.map_or(5000, |l| l as usize).min(total);
        let list = Array::new();
        let (mut i, mut j) = (0, 0);
        for _ in 0..limit {
            let e = match (s.get(i), w.get(j)) {
                (Some(a), Some(b)) if b.t_s.total_cmp(&a.t_s).is_ge() => {
                    i += 1;
                    a
                }
                (Some(a), None) => {
                    i += 1;
                    a
                }
                (_, Some(b)) => {
                    j += 1;
                    b
                }
                (None, None) => break,
            };
            list.push(&to_js(e)?);
        }
        let out = Object::new();
        set(&out, "list", &list.into())?;
        set(&out, "total", &JsValue::from_f64(total as f64))?;
        Ok(out.into())
    }

    /// The run's metrics, totals and caller 0's changes in brief per breaker:
    /// `{statistical: {metrics, totals, changes}, window: ..., complete, cut_at_s, calls,
    /// outages}` (names as in the CLI's JSON), of the part of the run computed so far.
    #[wasm_bindgen(unchecked_return_type = "RunMetrics")]
    pub fn metrics(&self) -> Result<JsValue, JsError> {
        #[derive(Serialize)]
        struct One {
            metrics: sim::Metrics,
            totals: sim::Totals,
            changes: sim::Changes,
        }
        #[derive(Serialize)]
        struct Both {
            statistical: One,
            window: One,
            complete: bool,
            /// When the run was cut short (`sim::MAX_EVENTS` changes of one breaker), if it was.
            cut_at_s: Option<f64>,
            calls: u64,
            /// The outages `[start, end]` (end null when it lasts to the end of the run).
            outages: Vec<(f64, Option<f64>)>,
        }
        let one = |k| {
            let (metrics, totals, changes) = self.full.summary(k);
            One {
                metrics,
                totals,
                changes,
            }
        };
        to_js(&Both {
            statistical: one(BreakerKind::Statistical),
            window: one(BreakerKind::Window),
            complete: self.full.is_done(),
            cut_at_s: self.full.cut_at_s(),
            calls: self.full.calls(),
            outages: self
                .scenario
                .outages()
                .into_iter()
                .map(|(a, b)| (a, b.is_finite().then_some(b)))
                .collect(),
        })
    }

    /// The numbers derived from the statistical settings (`breaker::Derived`), flattened for
    /// the page: weights (nats), one point (nats), Wald's lines, trials to close/open, the rate
    /// of zero drift, the line's floor, the drift per call at p0 and p1, and the line at the
    /// scenario's nominal traffic.
    #[wasm_bindgen(unchecked_return_type = "Derived")]
    pub fn derived(&self) -> Result<JsValue, JsError> {
        derived_of(&self.scenario)
    }

    /// The trace hash of the full run, as the native `sim::trace_hash` computes it, all 64 hex
    /// digits of the SHA-256 (`breaker run` and the page print its first 16): the part
    /// of the run not yet computed is computed first (the whole run, in this one call, for a
    /// fresh handle: `finished()` is then true).
    #[wasm_bindgen(js_name = traceHash)]
    pub fn trace_hash(&mut self) -> String {
        self.full.advance(u64::MAX);
        self.full.trace_hash()
    }
}

/// Whether a phase answers some calls successfully (not every call failing, hanging or refused).
fn answers(p: &sim::Phase) -> bool {
    p.failure_rate < 1.0 && p.hang_rate < 1.0 && p.input_error_rate < 1.0 && p.one_in != 1
}

/// The least of `latency` over the phases it gives a value for (seconds; NaN when none does,
/// or for a trace replay, whose phases play no part).
fn least_latency(s: &Scenario, latency: impl Fn(&sim::Phase) -> Option<f64>) -> f64 {
    if s.trace.is_some() {
        return f64::NAN;
    }
    s.dependency
        .iter()
        .filter_map(latency)
        .fold(f64::NAN, f64::min)
}

fn derived_of(s: &Scenario) -> Result<JsValue, JsError> {
    #[derive(Serialize)]
    struct D {
        fine_rate: f64,
        broken_rate: f64,
        false_alarm_period: f64,
        w_fail: f64,
        w_ok: f64,
        point: f64,
        upper: f64,
        lower: f64,
        // As floats: past 2^53 (rates one rounding step apart) a `u64` cannot go to JS.
        trials_to_close: f64,
        trials_to_open: f64,
        zero_drift_rate: f64,
        line_floor: f64,
        drift_fine: f64,
        drift_broken: f64,
        nominal_rate: f64,
        /// The line one breaker has at the nominal traffic: at its share of the calls
        /// (`half_open_rate`), as its traffic meter reads it in a steady run; NaN for a trace
        /// replay.
        nominal_line: f64,
        /// The calls per second one breaker sees at the nominal traffic: callers that do not
        /// share state each have their own breaker. NaN for a trace replay (its own traffic).
        half_open_rate: f64,
        /// Half-open's time limit when the breaker's traffic meter reads `half_open_rate`
        /// (seconds): `half_open_time_factor x trials_to_close / rate`.
        half_open_limit: f64,
        /// The least latency of a successful answer in any phase that gives one (seconds; NaN
        /// when none does, or for a trace replay): trials go one at a time, so
        /// `trials_to_close` of them take at least that many times it.
        trial_latency_floor: f64,
        /// The mean latency of a successful answer (`latency + latency_jitter`) in the fine
        /// phases that answer, the least of them (seconds; NaN when none does, or for a trace
        /// replay): what a recovered service's trials take on average, for the approximations.
        trial_latency_fine_mean: f64,
        /// Trials a half-open test takes on average at the fine rate, Wald's test run to its
        /// end (exact: the (n, k) dynamic program); NaN where the program met its work cap.
        trials_expected_fine: f64,
        /// The traffic the analysis curves are computed at, calls per minute: one breaker's
        /// share of the generated traffic, or of a replayed trace's own
        /// (`Scenario::calls_per_minute_per_breaker`, as `breaker analyze curves` takes it).
        curves_calls_per_minute: f64,
    }
    let st = &s.statistical;
    let d = st.derived();
    let w = d.weights;
    let nominal_rate = s.traffic.calls_per_minute / 60.0;
    let half_open_rate = match (&s.trace, s.callers.shared_state) {
        (Some(_), _) => f64::NAN,
        (None, true) => nominal_rate,
        (None, false) => nominal_rate / f64::from(s.callers.count.max(1)),
    };
    to_js(&D {
        fine_rate: st.fine_rate,
        broken_rate: st.broken_rate,
        false_alarm_period: st.false_alarm_period,
        w_fail: w.fail,
        w_ok: w.ok,
        point: d.point,
        upper: d.upper,
        lower: d.lower,
        trials_to_close: d.trials_to_close as f64,
        trials_to_open: d.trials_to_open as f64,
        zero_drift_rate: d.zero_drift_rate,
        line_floor: d.line_floor,
        drift_fine: w.drift(st.fine_rate),
        drift_broken: w.drift(st.broken_rate),
        nominal_rate,
        // (`line` takes the larger of ln N and the floor, and `max` passes over a NaN.)
        nominal_line: if half_open_rate.is_nan() {
            f64::NAN
        } else {
            d.line(half_open_rate, st.false_alarm_period)
        },
        half_open_rate,
        half_open_limit: st.half_open_time_factor * d.trials_to_close as f64 / half_open_rate,
        trial_latency_floor: least_latency(s, |p| answers(p).then_some(p.latency)),
        trial_latency_fine_mean: least_latency(s, |p| {
            (p.condition == sim::Condition::Fine && answers(p))
                .then_some(p.latency + p.latency_jitter)
        }),
        trials_expected_fine: {
            let lines = breaker::trial::WaldLines {
                upper: d.upper,
                lower: d.lower,
            };
            // A small cap: this runs on every change of the settings; near-equal rates whose
            // test runs long are left out rather than delayed.
            let e = analysis::sprt::exact_capped(w, lines, st.fine_rate, 2_000_000);
            if e.trials_is_exact() {
                e.expected_trials
            } else {
                f64::NAN
            }
        },
        curves_calls_per_minute: s.calls_per_minute_per_breaker(),
    })
}

fn set(o: &Object, key: &str, v: &JsValue) -> Result<(), JsError> {
    Reflect::set(o, &JsValue::from_str(key), v)
        .map(|_| ())
        .map_err(|_| JsError::new("could not build a result object"))
}
