//! Named scenarios, each with a one-line story. Each is written in the scenario JSON a file or
//! the page would hold, so they double as examples of the format.

use crate::scenario::Scenario;

/// A named scenario.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Preset {
    /// Its name (`breaker run --preset NAME`).
    pub name: &'static str,
    /// One line saying what it shows.
    pub story: &'static str,
    /// The scenario JSON (defaults fill what it does not name).
    pub json: &'static str,
}

impl Preset {
    /// The scenario.
    pub fn scenario(&self) -> Scenario {
        let mut s: Scenario = serde_json::from_str(self.json)
            .unwrap_or_else(|e| panic!("preset {} does not parse: {e}", self.name));
        s.name = self.name.to_string();
        s
    }
}

const PRESETS: [Preset; 7] = [
    Preset {
        name: "recovery-warmup",
        story: "A call every 0.2 s, 1 in 10 failing; everything fails from 8 s to 30 s, then the \
                service warms up, answering only 2 calls/s until 40 s (a published \
                recovery-tuning experiment).",
        json: r#"{
  "duration": "60s",
  "traffic": { "calls_per_minute": 300, "arrivals": "even" },
  "dependency": [
    { "start": 0, "label": "healthy", "condition": "fine", "one_in": 10,
      "latency": 0, "failure_latency": 0 },
    { "start": "8s", "label": "outage", "condition": "outage", "failure_rate": 1,
      "latency": 0, "failure_latency": 0 },
    { "start": "30s", "label": "warm-up", "condition": "degraded", "failure_rate": 0,
      "capacity": 2, "latency": 0, "failure_latency": 0 },
    { "start": "40s", "label": "healthy", "condition": "fine", "one_in": 10,
      "latency": 0, "failure_latency": 0 }
  ],
  "statistical": { "fine_rate": "10%", "broken_rate": "40%", "first_wait": "5s",
                   "wait_cap": "1m", "expected_calls_per_minute": 300 },
  "window": { "sliding_window_type": "count_based", "sliding_window_size": 20,
              "minimum_number_of_calls": 20, "failure_rate_threshold": "50%",
              "permitted_number_of_calls_in_half_open_state": 3,
              "wait_duration_in_open_state": "5s" }
}"#,
    },
    Preset {
        name: "normal-week",
        story: "A week at 60 calls/min with a daily swing, 1% failures and 2% input errors \
                (which must not count), and one 20-minute outage on day 3.",
        json: r#"{
  "duration": "7d",
  "traffic": { "calls_per_minute": 60, "daily_swing": "50%", "arrivals": "poisson" },
  "dependency": [
    { "start": 0, "label": "normal", "failure_rate": "1%", "input_error_rate": "2%",
      "latency": "40ms", "latency_jitter": "20ms" },
    { "start": "62h", "label": "outage", "condition": "outage", "failure_rate": "95%",
      "failure": "refused", "input_error_rate": "2%", "failure_latency": "5ms" },
    { "start": "3740m", "label": "normal", "failure_rate": "1%", "input_error_rate": "2%",
      "latency": "40ms", "latency_jitter": "20ms" }
  ],
  "statistical": { "expected_calls_per_minute": 60 }
}"#,
    },
    Preset {
        name: "bad-day",
        story: "One day at 120 calls/min with three incidents: refused connections at 09:00 \
                (10 min), 30% server errors at 13:00 (30 min), hangs until the 10 s timeout \
                at 17:00 (5 min).",
        json: r#"{
  "duration": "1d",
  "traffic": { "calls_per_minute": 120, "daily_swing": "50%" },
  "callers": { "call_timeout": "10s" },
  "dependency": [
    { "start": 0, "label": "normal", "failure_rate": "1%", "latency": "50ms",
      "latency_jitter": "30ms" },
    { "start": "9h", "label": "refused", "condition": "outage", "failure_rate": "100%",
      "failure": "refused", "failure_latency": "2ms" },
    { "start": "550m", "label": "normal", "failure_rate": "1%", "latency": "50ms",
      "latency_jitter": "30ms" },
    { "start": "13h", "label": "5xx", "condition": "outage", "failure_rate": "30%",
      "failure": 500, "latency": "80ms", "latency_jitter": "40ms", "failure_latency": "20ms" },
    { "start": "810m", "label": "normal", "failure_rate": "1%", "latency": "50ms",
      "latency_jitter": "30ms" },
    { "start": "17h", "label": "hangs", "condition": "outage", "failure_rate": "1%",
      "hang_rate": "80%", "latency": "50ms" },
    { "start": "1025m", "label": "normal", "failure_rate": "1%", "latency": "50ms",
      "latency_jitter": "30ms" }
  ],
  "statistical": { "expected_calls_per_minute": 120, "call_timeout": "10s" }
}"#,
    },
    Preset {
        name: "quiet-service",
        story: "1 call a minute for 30 days with a 2-hour outage on day 10: the window \
                breaker waits for half its last 100 calls to fail, about 49 calls into the \
                outage, most of an hour at this traffic (an approximation: about 1 failure in \
                its window before), and after a close its 100-call minimum takes 100 minutes \
                to fill.",
        json: r#"{
  "duration": "30d",
  "traffic": { "calls_per_minute": 1 },
  "dependency": [
    { "start": 0, "label": "normal", "failure_rate": "1%" },
    { "start": "219h", "label": "outage", "condition": "outage", "failure_rate": "100%",
      "failure": "server_error" },
    { "start": "221h", "label": "normal", "failure_rate": "1%" }
  ],
  "statistical": { "expected_calls_per_minute": 1 }
}"#,
    },
    Preset {
        name: "busy-service",
        story: "600 calls/min for 30 days (about 26 million calls) at 0.5% failures with one \
                10-minute outage on day 15: false alarms at scale.",
        json: r#"{
  "duration": "30d",
  "traffic": { "calls_per_minute": 600, "daily_swing": "30%" },
  "dependency": [
    { "start": 0, "label": "normal", "failure_rate": "0.5%", "latency": "20ms",
      "latency_jitter": "10ms" },
    { "start": "347h", "label": "outage", "condition": "outage", "failure_rate": "100%",
      "failure": 503, "failure_latency": "5ms" },
    { "start": "20830m", "label": "normal", "failure_rate": "0.5%", "latency": "20ms",
      "latency_jitter": "10ms" }
  ],
  "statistical": { "expected_calls_per_minute": 600 }
}"#,
    },
    Preset {
        name: "bursty-failures",
        story: "A healthy service (1% failures) with short bursts of failures, about 10 calls \
                long and a few an hour: does a breaker open on every burst?",
        json: r#"{
  "duration": "1d",
  "traffic": { "calls_per_minute": 120 },
  "dependency": [
    { "start": 0, "label": "bursty", "failure_rate": "1%",
      "burst": { "enter": "0.05%", "leave": "10%", "failure_rate": "100%" },
      "failure": 502 }
  ],
  "statistical": { "expected_calls_per_minute": 120 },
  "window": { "sliding_window_size": 20, "minimum_number_of_calls": 20 }
}"#,
    },
    Preset {
        name: "late-results",
        story: "Calls hang for the 60 s timeout during a 10-minute outage, so failures land \
                long after the breaker opened: generations drop them, the window records them.",
        json: r#"{
  "duration": "1h",
  "traffic": { "calls_per_minute": 120 },
  "callers": { "call_timeout": "60s" },
  "dependency": [
    { "start": 0, "label": "normal", "failure_rate": "1%", "latency": "100ms" },
    { "start": "20m", "label": "hangs", "condition": "outage", "failure_rate": "0%",
      "hang_rate": "100%" },
    { "start": "30m", "label": "normal", "failure_rate": "1%", "latency": "100ms" }
  ],
  "statistical": { "expected_calls_per_minute": 120, "call_timeout": "10s",
                   "first_wait": "30s" },
  "window": { "sliding_window_size": 20, "minimum_number_of_calls": 20,
              "wait_duration_in_open_state": "30s",
              "permitted_number_of_calls_in_half_open_state": 3 }
}"#,
    },
];

/// Every preset, in a fixed order.
pub fn presets() -> &'static [Preset] {
    &PRESETS
}

/// The preset called `name`.
pub fn preset(name: &str) -> Option<Scenario> {
    PRESETS
        .iter()
        .find(|p| p.name == name)
        .map(Preset::scenario)
}

/// The preset called `name`, or an error listing the names.
pub fn preset_or_err(name: &str) -> Result<Scenario, String> {
    preset(name).ok_or_else(|| {
        let names: Vec<&str> = PRESETS.iter().map(|p| p.name).collect();
        format!(
            "unknown preset {}: allowed {}",
            breaker::quote::Quoted(name),
            names.join(", ")
        )
    })
}

/// Each preset's pinned trace hash (`trace_hash` of a full run at the preset's own seed).
///
/// The native tests and the browser tests (crates/wasm) compare against this one table, so a pass
/// on both means native and wasm runs agree call for call. A change here is a change in
/// behaviour: update it only on purpose, and say why in the commit.
pub const GOLDEN_TRACE_HASHES: [(&str, &str); 7] = [
    (
        "recovery-warmup",
        "06f0736797fcfc5ea9a7b0e6952c64ece010afebcc65d8b69f6e51eb9d33d184",
    ),
    (
        "normal-week",
        "dde1babb3e2eb7d8795630676f78631353daacff012f6c775619ec21620d4c98",
    ),
    (
        "bad-day",
        "3380d0fb9b64db4b087c6e6a692045fe4c19a5b33aaaa5fbd4bd46b477666029",
    ),
    (
        "quiet-service",
        "179b60ab27c935803eb0b31acc153387ce264442fcc32dc18f92988fb92c2e4f",
    ),
    (
        "busy-service",
        "151245adc9781284a7cc274ddcca35c488d90a53a7b36b41313f949671f3e5b7",
    ),
    (
        "bursty-failures",
        "3d8a3185f2781a9325f47e3a6acd2e5e8663812667ee4ea91ca35f62a7027d6e",
    ),
    (
        "late-results",
        "36ffcfcb7192ade313abd63fabfee8148f6219bd5631edffbe63d8411bd5a092",
    ),
];
