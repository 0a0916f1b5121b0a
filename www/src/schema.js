// What each setting is, for the controls: label, unit, display scale, input range, help.
// The names are the JSON field names of the simulator's Scenario (and of the breaker crate's
// StatisticalSettings / WindowSettings), so a control's path is where its value lives in the
// scenario object handed to the wasm `Playground`. Ranges here only shape the inputs; the
// allowed ranges are the Rust side's, reported back by name (see controls.js).

import { duration } from './format.js';

const pct = { unit: '%', scale: 100, step: 'any' };

/**
 * The run's seed. A u64 for the simulator (the command line takes any up to
 * 18446744073709551615); the page holds it as a JS number, exact only up to 2^53 − 1, so that is
 * its largest here (see whole.js; a larger one is refused with this range). The help stays
 * short: the seed's column in the form's head is as wide as it.
 */
export const SEED = { path: 'seed', label: 'Seed', step: 1, min: 0, max: Number.MAX_SAFE_INTEGER, int: true,
  help: 'Same seed, same run, call for call.' };
// A duration: seconds, or typed with a unit ("2h"), as a scenario file takes it (units.js).
const secs = { unit: 's', step: 'any', duration: true };

/** The five settings that say what the statistical breaker decides. Shown first, large. */
export const PROMINENT = [
  { path: 'statistical.fine_rate', label: 'Fine failure rate p₀', ...pct, min: 0.01, max: 99,
    help: 'A failure rate you can live with.' },
  { path: 'statistical.broken_rate', label: 'Broken failure rate p₁', ...pct, min: 0.01, max: 99.99,
    help: 'A failure rate worth skipping the service for; above p₀.' },
  { path: 'statistical.false_alarm_period', label: 'False alarms at most', type: 'select',
    options: [[86400, 'one per day'], [604800, 'one per week'], [2592000, 'one per month (30 d)'], [31536000, 'one per year (365 d)']],
    // Another period (from a link or a scenario file) is listed as it reads: one per 2 d (172800 s).
    custom: (v) => (typeof v === 'number' ? `one per ${duration(v)} (${v} s)` : String(v)),
    help: 'On average, while the service fails at p₀ (a bound on the mean gap; single gaps vary).' },
  { path: 'statistical.trial_wrongly_opens', label: 'Trial wrongly opens a', ...pct, min: 0.01, max: 99,
    help: 'Chance the half-open test keeps out a recovered service.' },
  { path: 'statistical.trial_wrongly_closes', label: 'Trial wrongly closes b', ...pct, min: 0.01, max: 99,
    help: 'Chance the half-open test lets a broken service back.' },
];

export const SECTIONS = [
  {
    id: 'scenario', title: 'Scenario: traffic, callers, run', open: true,
    fields: [
      { path: 'duration', label: 'Run length', ...secs, min: 0.001, help: 'Simulated time.' },
      { path: 'traffic.calls_per_minute', label: 'Traffic', unit: 'calls/min', step: 'any', min: 1e-6, max: 1e7 },
      { path: 'traffic.daily_swing', label: 'Daily swing', ...pct, min: 0, max: 99.9, help: 'Rate × (1 − swing × cos(2πt / 1 d)): lowest at midnight.' },
      { path: 'traffic.arrivals', label: 'Arrivals', type: 'select', options: [['poisson', 'Poisson (random gaps)'], ['even', 'evenly spaced']] },
      { path: 'callers.call_timeout', label: 'Call timeout', ...secs, min: 0.001, help: 'A call with no answer by then completes as a timeout.' },
      { path: 'callers.count', label: 'Caller instances', unit: 'servers', step: 1, min: 1, max: 1000, int: true },
      { path: 'callers.shared_state', label: 'Callers share one breaker state (under a lock)', type: 'checkbox' },
      { path: 'callers.lock_hold', label: 'Lock held per change', ...secs, min: 0, help: 'Changes wait for the lock in order; each is made when asked for, its event at the time it has the lock. Under a busy lock the state shown runs up to the lock timeout ahead of the clock.' },
      { path: 'callers.lock_timeout', label: 'Lock timeout', ...secs, min: 0.001, help: 'A change that cannot take the lock in time is dropped.' },
      { path: 'trace', label: 'Replay a recorded trace (CSV: time, outcome, latency)', type: 'textarea',
        help: 'Optional. Rows of time_s,outcome,latency_s: seconds from the run\'s start (not clock times), an outcome (200, 503, timeout, …), a latency in seconds or with a unit (120ms: bare numbers are seconds; one at the call timeout or over counts as a timeout); a header, if any, is time_s,outcome,latency_s. Replaces the generated traffic and outcomes, and the run ends at its last call (the run length is not used); the phases still say when the dependency was fine, and a phase\'s capacity still sheds calls over it as overloads: mark the trace\'s outages as phases, with capacity 0. A CSV file opens here with “Open scenario…” too; one past a million characters (some 50,000 lines) is held beside this box, not shown in it, as laying it out froze the page. Empty = none.' },
    ],
    list: {
      path: 'dependency', title: 'Dependency phases (fine, outage, recovery, warm-up)',
      item: [
        { key: 'start', label: 'Starts at', ...secs, min: 0 },
        { key: 'condition', label: 'Condition (for the metrics)', type: 'select', options: [['fine', 'fine (an opening is a false alarm)'], ['degraded', 'degraded (recovering)'], ['outage', 'outage']] },
        { key: 'failure_rate', label: 'Failure chance', ...pct, min: 0, max: 100, help: 'Of the calls neither rejected for their input nor hung (those chances come first): a call fails with (1 − input errors)(1 − hangs) × this.' },
        { key: 'one_in', label: 'Instead: 1 call in k fails (0 = off)', unit: 'k', step: 1, min: 0, max: 4294967295, int: true },
        { key: 'failure', label: 'A failure is', type: 'select', options: [['server_error', '5xx server error'], ['timeout', 'timeout'], ['refused', 'connection refused'], ['overload', 'overload'], ['service_rate_limited', '429 from the service'], ['auth_rejected', 'our key rejected'], ['input_rejected', '4xx for our input (neutral)'], ['user_rate_limited', 'user\'s own rate limit (neutral)']] },
        { key: 'burst.enter', label: 'Burst starts, per call', ...pct, min: 0, max: 100, help: 'Clustered failures (0 = none).' },
        { key: 'burst.leave', label: 'Burst ends, per call', ...pct, min: 0, max: 100, help: 'A burst goes on into the next phase and ends at that phase\'s chance.' },
        { key: 'burst.failure_rate', label: 'Failure chance in a burst', ...pct, min: 0, max: 100 },
        { key: 'hang_rate', label: 'Hangs until the timeout', ...pct, min: 0, max: 100, help: 'Of the calls not rejected for their input (that chance comes first).' },
        { key: 'input_error_rate', label: 'Rejected for own input (neutral)', ...pct, min: 0, max: 100 },
        { key: 'latency', label: 'Latency of an answer', ...secs, min: 0 },
        { key: 'latency_jitter', label: '+ exponential jitter, mean', ...secs, min: 0 },
        { key: 'failure_latency', label: 'Latency of a failure', ...secs, min: 0 },
        { key: 'failure_latency_jitter', label: '+ exponential jitter, mean', ...secs, min: 0 },
        { key: 'capacity', label: 'Capacity (0 = unlimited)', unit: 'calls/s', step: 'any', min: 0, help: 'Above it, calls fail as overload at the failure latency (a timeout if the call timeout comes first): a service warming up. Counted in whole calls in the last second: a fraction acts as the next whole number.' },
      ],
    },
  },
  {
    id: 'statistical', title: 'Statistical breaker: the rest',
    fields: [
      { path: 'statistical.traffic_time_constant', label: 'Traffic meter time constant τ', ...secs, min: 0.001 },
      { path: 'statistical.expected_calls_per_minute', label: 'Traffic assumed at start', unit: 'calls/min', step: 'any', min: 0, help: '0 = cold meter (the line starts at its floor: Wald’s A, or one failure and one point if more).' },
      { path: 'statistical.first_wait', label: 'First open wait', ...secs, min: 0.001 },
      { path: 'statistical.wait_cap', label: 'Wait cap', ...secs, min: 0.001 },
      { path: 'statistical.backoff_factor', label: 'Backoff factor', unit: '×', step: 'any', min: 1 },
      { path: 'statistical.half_open_time_factor', label: 'Half-open time limit', unit: '× trials-to-close / rate', step: 'any', min: 0.001 },
      { path: 'statistical.call_timeout', label: 'Trial lost after', ...secs, min: 0.001 },
    ],
  },
  {
    id: 'window', title: 'Window breaker (resilience4j)',
    fields: [
      { path: 'window.sliding_window_type', label: 'slidingWindowType', type: 'select', options: [['count_based', 'COUNT_BASED (calls)'], ['time_based', 'TIME_BASED (seconds)']] },
      { path: 'window.sliding_window_size', label: 'slidingWindowSize', unit: 'calls or s', step: 1, min: 1, max: 1000000, int: true },
      { path: 'window.minimum_number_of_calls', label: 'minimumNumberOfCalls', unit: 'calls', step: 1, min: 1, max: 1000000, int: true },
      { path: 'window.failure_rate_threshold', label: 'failureRateThreshold', ...pct, min: 0.01, max: 100 },
      { path: 'window.slow_call_rate_threshold', label: 'slowCallRateThreshold', ...pct, min: 0.01, max: 100 },
      { path: 'window.slow_call_duration_threshold', label: 'slowCallDurationThreshold', ...secs, min: 1e-9 },
      { path: 'window.wait_duration_in_open_state', label: 'waitDurationInOpenState', ...secs, min: 0.001 },
      { path: 'window.wait_interval_multiplier', label: 'backoff multiplier', unit: '×', step: 'any', min: 1 },
      { path: 'window.max_wait_duration_in_open_state', label: 'maxWaitInterval (0 = none)', ...secs, min: 0 },
      { path: 'window.wait_randomization_factor', label: 'randomizationFactor', unit: 'fraction', step: 'any', min: 0, max: 0.999, help: 'Each open wait drawn uniformly within ± this fraction of it (0 = none, below 1).' },
      { path: 'window.random_seed', label: 'Seed of the randomized wait', step: 1, min: 0, max: Number.MAX_SAFE_INTEGER, int: true },
      { path: 'window.permitted_number_of_calls_in_half_open_state', label: 'permittedNumberOfCallsInHalfOpenState', unit: 'calls', step: 1, min: 1, max: 1000000, int: true },
      { path: 'window.max_wait_duration_in_half_open_state', label: 'maxWaitDurationInHalfOpenState (0 = off)', ...secs, min: 0 },
      { path: 'window.transition_to_state_after_wait_duration', label: 'transitionToStateAfterWaitDuration', type: 'select', options: [['open', 'OPEN'], ['closed', 'CLOSED']] },
      { path: 'window.automatic_transition_from_open_to_half_open_enabled', label: 'automaticTransitionFromOpenToHalfOpenEnabled', type: 'checkbox' },
    ],
  },
];

/**
 * Every whole-number setting's range, by path (`*` for a list's index): the simulator's ranges,
 * with 2^53 − 1 for the u64 seeds, the most a JS number holds exactly (see whole.js).
 */
export const WHOLE = Object.fromEntries([
  SEED, ...PROMINENT, ...SECTIONS.flatMap((s) => [...s.fields, ...(s.list ? s.list.item.map((f) => ({ ...f, path: `${s.list.path}.*.${f.key}` })) : [])]),
].filter((f) => f.int).map((f) => [f.path, [f.min ?? 0, f.max ?? Number.MAX_SAFE_INTEGER]]));
