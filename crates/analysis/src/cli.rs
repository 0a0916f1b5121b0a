//! `breaker analyze false-alarms | open-delay | trials | window | drift [flags]`.
//!
//! [`run`] takes the arguments after `analyze` and returns the report (text or JSON) or one line
//! naming the bad flag and what it allows. The `breaker` binary prints `Ok` to stdout and `Err`
//! to stderr with exit status 2. [`report()`] gives the JSON report as data, for callers that hand
//! it on without JSON text (the wasm layer).

use crate::figure::{Figure, Kind};
use crate::report::{self, Simulation, Statistical, Ways};
use crate::window::CountWindow;
use breaker::error::Num;
use breaker::float_parse::parse_f64;
use breaker::quote::Quoted;
use breaker::units::{parse_duration, parse_rate};
use std::fmt::Write as _;

/// Usage text (also returned for `help`, `--help`, `-h`).
pub const USAGE: &str = "\
usage: breaker analyze <false-alarms|open-delay|trials|window|drift> [flags]

  false-alarms  calls (and time) between false alarms of the closed breaker (CUSUM)
  open-delay    calls (and time) to open vs the true failure rate
  trials        half-open: chance to close (OC) and expected trials (ASN)
  window        the window breaker: spurious trips per day, time to fill, time to open
  drift         score change per call vs the true failure rate; the zero-drift rate

flags (rates as 0.05 or 5%, durations as 30d, 1h, 5s; a flag the command does not use is
refused, each given once):
  --fine RATE             fine failure rate p0 (default 5%)
  --broken RATE           broken failure rate p1 > p0 (default 20%)
  --a RATE                trial wrongly opens (default 1%)
  --b RATE                trial wrongly closes (default 5%)
  --line-calls N          the closed line is ln N (N > 1; default: calls per minute x period),
                          never below the breaker's floor: A, or w_fail + |w_ok| if more
  --calls-per-minute R    traffic (default 60)
  --rps R                 traffic in calls per second (instead of --calls-per-minute)
  --period DURATION       false-alarm period (default 30d)
  --true-rate RATE        true failure rate, above 0 (drift: from 0; window: the outage's;
                          default: fine for false-alarms; broken for open-delay and window;
                          fine, the zero-drift rate and broken for trials and drift)
  --window N              window breaker: slidingWindowSize of a COUNT_BASED window, in
                          calls (default 100); a TIME_BASED window of T s at R calls/s holds
                          about R x T calls: pass that (an approximation)
  --threshold RATE        window breaker: failureRateThreshold (default 50%)
  --min-calls N           window breaker: minimumNumberOfCalls (default: the window size)
  --baseline RATE         window breaker: baseline failure rate (default: fine)
  --half-open-time-factor F
                          trials: half-open ends after F x trials to close / rate (default 3);
                          its chances with that limit are approximate (trials as a Poisson
                          stream, answers fast, none lost)
  --simulate N            add Monte Carlo with N runs (window trips: N x 10,000 calls, at
                          most 2e7 in all; n says how many were simulated); the 95% interval
                          of a mean is Student's t, approximate: for skewed counts (run
                          lengths, trials) it holds the truth about 90% of the time at 10
                          runs, 92% at 30 and 94% at 100 (measured), about 95% from a few
                          hundred
  --seed S                simulation seed (default 1): with --simulate, or a window over
                          18 calls, which is simulated anyway
  --sweep FROM:TO:STEPS[:log|:lin]
                          sweep the line calls N (false-alarms, log by default), the
                          baseline (window) or the true rate (others), as a table
  --format text|json      output (default text)";

#[derive(Debug, Clone, Copy, PartialEq)]
enum Command {
    FalseAlarms,
    OpenDelay,
    Trials,
    Window,
    Drift,
}

#[derive(Debug, Clone, Copy)]
struct Sweep {
    from: f64,
    to: f64,
    steps: usize,
    log: Option<bool>,
}

#[derive(Debug, Default)]
struct Flags {
    fine: Option<f64>,
    broken: Option<f64>,
    a: Option<f64>,
    b: Option<f64>,
    line_calls: Option<f64>,
    calls_per_minute: Option<f64>,
    rps: Option<f64>,
    period: Option<f64>,
    true_rate: Option<f64>,
    window: Option<u32>,
    threshold: Option<f64>,
    min_calls: Option<u32>,
    baseline: Option<f64>,
    half_open_time_factor: Option<f64>,
    simulate: Option<u64>,
    seed: Option<u64>,
    sweep: Option<Sweep>,
    json: bool,
}

/// Values are quoted with [`Quoted`] rather than `{:?}`, here and below: the same text for any
/// ordinary value, without Rust's Unicode tables in the page's wasm (`analyze` runs this there).
fn bad(flag: &str, value: &str, allowed: &str) -> String {
    format!("--{flag}: {} is not allowed: {allowed}", Quoted(value))
}

/// A rate `lo_open < x < hi` (`x <= hi` when `hi_included`).
fn rate_in(
    flag: &str,
    v: &str,
    lo_open: f64,
    hi: f64,
    hi_included: bool,
    allowed: &str,
) -> Result<f64, String> {
    let x = parse_rate(v).map_err(|e| format!("--{flag}: {e}; allowed {allowed}"))?;
    if x > lo_open && (x < hi || (hi_included && x == hi)) {
        Ok(x)
    } else {
        Err(bad(flag, v, allowed))
    }
}

fn number_in(
    flag: &str,
    v: &str,
    lo_open: f64,
    hi_closed: f64,
    allowed: &str,
) -> Result<f64, String> {
    match parse_f64(v.trim()) {
        Some(x) if x > lo_open && x <= hi_closed => Ok(x),
        _ => Err(bad(flag, v, allowed)),
    }
}

/// The traffic one breaker sees, in calls per minute, that the analysis takes: a scenario's
/// `1e-6 <= x <= 1e7` split among up to 1,000 callers, or a replayed trace's own calls over its
/// run. `--calls-per-minute`, the wasm's analysis options and `breaker analyze curves` all take
/// this range (they disagreed once: the page refused 5e-7 beside curves drawn at it).
pub const CALLS_PER_MINUTE: (f64, f64) = (1e-12, 1e12);

/// The largest double below `x > 0`: [`number_in`]'s open low end for a closed one (traffic's
/// floor keeps its times finite: at 1e-305 calls a minute, 1793 calls read "inf" years).
const fn below(x: f64) -> f64 {
    f64::from_bits(x.to_bits() - 1)
}

fn integer_in(flag: &str, v: &str, lo: u64, hi: u64) -> Result<u64, String> {
    let allowed = format!("an integer from {lo} to {hi}");
    match parse_f64(v.trim()) {
        Some(x) if x.fract() == 0.0 && x >= lo as f64 && x <= hi as f64 => Ok(x as u64),
        _ => Err(bad(flag, v, &allowed)),
    }
}

/// A seed: every u64, so read as one, never through a double (which holds 2^53 exactly).
fn parse_seed(v: &str) -> Result<u64, String> {
    v.trim().parse::<u64>().map_err(|_| {
        let why = seed_spelling(v);
        bad(
            "seed",
            v,
            why.as_deref().unwrap_or("an integer from 0 to 2^64-1"),
        )
    })
}

/// Why `v` is refused as a seed when it is a whole number from 0 to 2^64 - 1 spelt as a decimal
/// with a point or an exponent (`1e3`, `7.0`, `1.8446744073709551615e19`): a seed is written as
/// a whole number, as a scenario's `seed` and `--set seed=` say. Worked out from the digits by
/// [`breaker::float_parse::parse_whole`], as `--set`'s hint is, not through a double (which
/// would take `5.0000000000000001` for 5, or 2^53 + 1 for 2^53). `None` for other text (a sign
/// other than `+`, a fraction, a number past 2^64 - 1, not a number). Shared with `breaker run
/// --seed`.
pub fn seed_spelling(v: &str) -> Option<String> {
    let t = v.trim();
    let whole = breaker::float_parse::parse_whole(t)?;
    Some(breaker::float_parse::spelt_whole("a seed", whole, t))
}

fn parse_sweep(v: &str) -> Result<Sweep, String> {
    let allowed = "FROM:TO:STEPS[:log|:lin] with 2 <= STEPS <= 1000 (e.g. 1%:30%:30 or 1e2:1e9:8)";
    let parts: Vec<&str> = v.split(':').collect();
    if !(parts.len() == 3 || parts.len() == 4) {
        return Err(bad("sweep", v, allowed));
    }
    let num = |s: &str| -> Result<f64, String> {
        let t = s.trim();
        let x = if t.ends_with('%') {
            parse_rate(t).ok()
        } else {
            parse_f64(t)
        };
        x.filter(|x| x.is_finite())
            .ok_or_else(|| bad("sweep", v, allowed))
    };
    let from = num(parts[0])?;
    let to = num(parts[1])?;
    let steps = parts[2]
        .trim()
        .parse::<usize>()
        .ok()
        .filter(|s| (2..=1000).contains(s));
    let steps = steps.ok_or_else(|| bad("sweep", v, allowed))?;
    let log = match parts.get(3).map(|s| s.trim()) {
        None => None,
        Some("log") => Some(true),
        Some("lin") => Some(false),
        Some(_) => return Err(bad("sweep", v, allowed)),
    };
    Ok(Sweep {
        from,
        to,
        steps,
        log,
    })
}

/// Every flag `parse` reads (each takes a value), with the commands that read it (bits of
/// [`Command::bit`]): a flag a command does not read is refused, not ignored (`drift --simulate
/// 1000` simulated nothing, unsaid).
const FLAGS: [(&str, u8); 18] = [
    ("fine", ALL),
    ("broken", ALL),
    ("a", FA | OD | TR),
    ("b", FA | OD | TR),
    ("line-calls", FA | OD),
    ("calls-per-minute", ALL & !DR),
    ("rps", ALL & !DR),
    ("period", FA | OD),
    ("true-rate", ALL),
    ("window", WI),
    ("threshold", WI),
    ("min-calls", WI),
    ("baseline", WI),
    ("half-open-time-factor", TR),
    ("simulate", ALL & !DR),
    ("seed", ALL & !DR),
    ("sweep", ALL),
    ("format", ALL),
];
const FA: u8 = 1;
const OD: u8 = 2;
const TR: u8 = 4;
const WI: u8 = 8;
const DR: u8 = 16;
const ALL: u8 = 31;

impl Command {
    fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// Whether `command` (`"window"`, ...) reads `--<flag>` (`"min-calls"`), as [`run`] takes
/// them: `None` for no such command. (For `breaker analyze <command> --help`, which lists the
/// flags a command reads.)
pub fn reads(command: &str, flag: &str) -> Option<bool> {
    let bit = match command {
        "false-alarms" => FA,
        "open-delay" => OD,
        "trials" => TR,
        "window" => WI,
        "drift" => DR,
        _ => return None,
    };
    Some(FLAGS.iter().any(|&(f, bits)| f == flag && bits & bit != 0))
}

fn unknown_flag(name: &str) -> String {
    format!("analyze: unknown flag --{name} (see breaker analyze --help)")
}

fn parse(args: &[String]) -> Result<(Command, Flags), String> {
    let Some(cmd) = args.first() else {
        return Err(
            "analyze: missing command: false-alarms, open-delay, trials, window or drift".into(),
        );
    };
    let command = match cmd.as_str() {
        "false-alarms" => Command::FalseAlarms,
        "open-delay" => Command::OpenDelay,
        "trials" => Command::Trials,
        "window" => Command::Window,
        "drift" => Command::Drift,
        other => {
            return Err(format!(
                "analyze: unknown command {}: allowed false-alarms, open-delay, trials, window, \
                 drift",
                Quoted(other)
            ));
        }
    };
    let mut f = Flags::default();
    // The flags given so far, by their bit (1 << index in FLAGS).
    let mut given = 0u32;
    let mut i = 1;
    while i < args.len() {
        let arg = &args[i];
        let Some(name) = arg.strip_prefix("--") else {
            return Err(format!(
                "analyze: unexpected argument {}: flags start with --",
                Quoted(arg)
            ));
        };
        let (name, inline) = match name.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (name.to_string(), None),
        };
        // An unknown flag is named as such, not as one missing its value.
        let Some(k) = FLAGS.iter().position(|(f, _)| *f == name) else {
            return Err(unknown_flag(&name));
        };
        if FLAGS[k].1 & command.bit() == 0 {
            return Err(format!(
                "--{name}: {cmd} does not use it (see breaker analyze {cmd} --help)"
            ));
        }
        if given & 1 << k != 0 {
            return Err(format!("--{name}: given twice"));
        }
        given |= 1 << k;
        let value = match inline {
            Some(v) => v,
            None => {
                i += 1;
                args.get(i)
                    .cloned()
                    .ok_or_else(|| format!("--{name}: missing value"))?
            }
        };
        let v = value.as_str();
        match name.as_str() {
            "fine" => {
                f.fine = Some(rate_in(
                    "fine",
                    v,
                    0.0,
                    1.0,
                    false,
                    "0 < fine < 1 (e.g. 5%)",
                )?)
            }
            "broken" => {
                f.broken = Some(rate_in(
                    "broken",
                    v,
                    0.0,
                    1.0,
                    false,
                    "fine < broken < 1 (e.g. 20%)",
                )?)
            }
            "a" => f.a = Some(rate_in("a", v, 0.0, 1.0, false, "0 < a < 1 - b (e.g. 1%)")?),
            "b" => f.b = Some(rate_in("b", v, 0.0, 1.0, false, "0 < b < 1 - a (e.g. 5%)")?),
            "line-calls" => {
                f.line_calls = Some(number_in("line-calls", v, 1.0, 1e23, "1 < N <= 1e23")?)
            }
            "calls-per-minute" => {
                f.calls_per_minute = Some(number_in(
                    "calls-per-minute",
                    v,
                    below(CALLS_PER_MINUTE.0),
                    CALLS_PER_MINUTE.1,
                    "1e-12 <= calls per minute <= 1e12",
                )?)
            }
            "rps" => {
                // Inside --calls-per-minute's range over 60 (1.7e-14 to 1.7e10), in round
                // figures: 1e-8 to 1e8 refused rates that flag and the page's curves take.
                f.rps = Some(number_in(
                    "rps",
                    v,
                    below(1e-13),
                    1e10,
                    "1e-13 <= calls per second <= 1e10",
                )?)
            }
            "period" => {
                // The settings' false_alarm_period range: 0.0005 s ran, where a scenario and
                // the page refuse it.
                let allowed = "1e-3 <= period <= 1e12 s (e.g. 30d)";
                let p =
                    parse_duration(v).map_err(|e| format!("--period: {e}; allowed {allowed}"))?;
                // Two comparisons: `contains` put 73 B more in the page's wasm.
                #[allow(clippy::manual_range_contains)]
                let allowed_p = p >= 1e-3 && p <= 1e12;
                if !allowed_p {
                    return Err(bad("period", v, allowed));
                }
                f.period = Some(p);
            }
            "true-rate" => {
                // Drift is defined at 0 too, as its --sweep takes it; the others need failures.
                let allowed = "0 < true rate <= 1 (e.g. 20%; drift takes 0)";
                f.true_rate = Some(match rate_in("true-rate", v, 0.0, 1.0, true, allowed) {
                    Err(_) if command == Command::Drift && parse_rate(v) == Ok(0.0) => 0.0,
                    r => r?,
                })
            }
            "window" => f.window = Some(integer_in("window", v, 1, 1_000_000)? as u32),
            "threshold" => {
                f.threshold = Some(rate_in(
                    "threshold",
                    v,
                    0.0,
                    1.0,
                    true,
                    "0 < threshold <= 100%",
                )?)
            }
            "min-calls" => f.min_calls = Some(integer_in("min-calls", v, 1, 1_000_000)? as u32),
            "baseline" => {
                f.baseline = Some(rate_in("baseline", v, 0.0, 1.0, false, "0 < baseline < 1")?)
            }
            "half-open-time-factor" => {
                f.half_open_time_factor = Some(match parse_f64(v.trim()) {
                    Some(x) if (1e-3..=1e6).contains(&x) => x,
                    _ => {
                        return Err(bad(
                            "half-open-time-factor",
                            v,
                            "1e-3 <= factor <= 1e6 (e.g. 3)",
                        ))
                    }
                })
            }
            "simulate" => f.simulate = Some(integer_in("simulate", v, 1, 10_000_000)?),
            "seed" => f.seed = Some(parse_seed(v)?),
            "sweep" => f.sweep = Some(parse_sweep(v)?),
            "format" => {
                f.json = match v {
                    "json" => true,
                    "text" => false,
                    _ => return Err(bad("format", v, "text or json")),
                }
            }
            other => return Err(unknown_flag(other)),
        }
        i += 1;
    }
    Ok((command, f))
}

/// Run `breaker analyze` with the arguments after `analyze` (`args[0]` is the command).
pub fn run(args: &[String]) -> Result<String, String> {
    if is_help(args) {
        return Ok(USAGE.to_string());
    }
    let (r, as_json) = compute(args)?;
    if as_json {
        return serde_json::to_string_pretty(&r)
            .map_err(|e| format!("analyze: cannot write JSON: {e}"));
    }
    Ok(match &r {
        Report::RunLengths(r) => text_run_lengths(r),
        Report::Trials(r) => text_trials(r),
        Report::Drift(r) => text_drift(r),
        Report::Window(r) => text_window(r),
    })
}

/// Whether the arguments ask for the usage text: `help` as the command, or `--help` / `-h`
/// anywhere (`breaker analyze trials --help`; no flag takes either as its value).
pub fn is_help(args: &[String]) -> bool {
    args.first().map(String::as_str) == Some("help")
        || args.iter().any(|a| a == "--help" || a == "-h")
}

/// The report that `breaker analyze <args> --format json` prints, as data (for callers that
/// serialize it themselves, like the wasm layer, which hands it to JS without JSON text). `--format`
/// is accepted and ignored; `help` is an error here (it has no report).
pub fn report(args: &[String]) -> Result<Report, String> {
    if is_help(args) {
        return Err("analyze: help has no report (see breaker analyze --help)".into());
    }
    compute(args).map(|(r, _)| r)
}

/// One of the four reports; serializes exactly as the report it holds.
// One report per call, moved once: boxing the big variants would buy nothing.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum Report {
    /// `false-alarms`, `open-delay`.
    RunLengths(report::RunLengths),
    /// `trials`.
    Trials(report::TrialsReport),
    /// `drift`.
    Drift(report::DriftReport),
    /// `window`.
    Window(report::WindowReport),
}

/// The report for `args` and whether `--format json` was asked for.
fn compute(args: &[String]) -> Result<(Report, bool), String> {
    let (command, f) = parse(args)?;
    let fine = f.fine.unwrap_or(0.05);
    let broken = f.broken.unwrap_or(0.20);
    if fine >= 1.0 {
        return Err(bad("fine", &fine.to_string(), "0 < fine < 1"));
    }
    if !(broken > fine && broken < 1.0) {
        return Err(format!(
            "--broken: {} is not allowed: fine ({}) < broken < 1",
            Num(broken),
            Num(fine)
        ));
    }
    let a = f.a.unwrap_or(0.01);
    let b = f.b.unwrap_or(0.05);
    if a + b >= 1.0 {
        return Err(format!(
            // `a` as given: `1 - a` worked out in f64 is not the bound `a + b < 1` checks (a =
            // 0.7 gave 0.30000000000000004, which the refused b = 0.3 is below).
            "--b: {} is not allowed: 0 < b < 1 - a (a = {})",
            Num(b),
            Num(a)
        ));
    }
    // The breaker's own rules for the rates (a success must weigh something in f64; no rate is
    // subnormal, where the weights and Wald's lines lose their digits or overflow: a fine rate
    // of 5e-324 reached the analysis and stopped it with an internal error), each said with
    // its flag.
    let rates = breaker::StatisticalSettings {
        fine_rate: fine,
        broken_rate: broken,
        trial_wrongly_opens: a,
        trial_wrongly_closes: b,
        ..breaker::StatisticalSettings::default()
    };
    if let Err(e) = rates.validate() {
        let flag = match e.field.as_str() {
            "fine_rate" => Some(("fine", fine)),
            "broken_rate" => Some(("broken", broken)),
            "trial_wrongly_opens" => Some(("a", a)),
            "trial_wrongly_closes" => Some(("b", b)),
            _ => None,
        };
        if let Some((flag, value)) = flag {
            return Err(format!(
                "--{flag}: {} is not allowed: {}",
                Num(value),
                e.allowed
            ));
        }
    }
    if f.rps.is_some() && f.calls_per_minute.is_some() {
        return Err("--rps: give --rps or --calls-per-minute, not both".into());
    }
    // The period sets N only: beside --line-calls, or a false-alarms sweep over N, it is unread.
    if f.period.is_some() {
        if f.line_calls.is_some() {
            return Err(
                "--period: --line-calls already sets N (the period only sets it as calls per \
                 minute x period); give one or the other"
                    .into(),
            );
        }
        if command == Command::FalseAlarms && f.sweep.is_some() {
            return Err(
                "--period: a false-alarms --sweep already varies N (the period only sets it); \
                 give one or the other"
                    .into(),
            );
        }
    }
    // A seed that draws nothing would be ignored unsaid, as a flag a command does not read
    // is refused (above): only --simulate draws, and a window too long for the exact chain.
    let window_draws =
        command == Command::Window && f.window.unwrap_or(100) > crate::window::MAX_EXACT;
    if f.seed.is_some() && f.simulate.is_none() && !window_draws {
        return Err(format!(
            "--seed: nothing here is simulated without --simulate N{}; give both or neither",
            if command == Command::Window {
                format!(
                    " (a window of up to {} calls is exact)",
                    crate::window::MAX_EXACT
                )
            } else {
                String::new()
            }
        ));
    }
    let cps = f
        .rps
        .or(f.calls_per_minute.map(|c| c / 60.0))
        .unwrap_or(1.0);
    let period = f.period.unwrap_or(30.0 * 86_400.0);
    let s = Statistical {
        fine,
        broken,
        a,
        b,
        calls_per_second: cps,
    };
    let sim = f.simulate.map(|runs| Simulation {
        runs,
        seed: f.seed.unwrap_or(1),
    });
    let line_calls = f.line_calls.unwrap_or(cps * period);
    let rate_sweep = |default: &[f64]| -> Result<(Vec<f64>, &'static str), String> {
        match f.sweep {
            Some(sw) => {
                if f.true_rate.is_some() && command != Command::Window {
                    return Err(
                        "--true-rate: --sweep already varies the true rate; give one or the other"
                            .into(),
                    );
                }
                // Drift is defined at 0 too; everything else needs some failures.
                let zero_ok = command == Command::Drift;
                let ok = |x: f64| (x > 0.0 || (zero_ok && x == 0.0)) && x <= 1.0;
                if !(ok(sw.from) && ok(sw.to))
                    || (sw.log == Some(true) && sw.from.min(sw.to) <= 0.0)
                {
                    return Err(format!(
                        "--sweep: {}:{}:{}{} is not allowed: rates between 0 ({}) and 1",
                        Num(sw.from),
                        Num(sw.to),
                        sw.steps,
                        if sw.log == Some(true) { ":log" } else { "" },
                        if zero_ok {
                            "allowed for drift on a linear sweep"
                        } else {
                            "excluded"
                        }
                    ));
                }
                Ok((
                    report::sweep_values(sw.from, sw.to, sw.steps, sw.log.unwrap_or(false)),
                    "true_rate",
                ))
            }
            None => Ok((
                f.true_rate
                    .map(|p| vec![p])
                    .unwrap_or_else(|| default.to_vec()),
                "none",
            )),
        }
    };
    let w = s.weights();
    let out = match command {
        Command::FalseAlarms | Command::OpenDelay => {
            let (lines, rates, sweep) = if command == Command::FalseAlarms {
                let p = f.true_rate.unwrap_or(fine);
                match f.sweep {
                    Some(sw) => {
                        if f.line_calls.is_some() {
                            return Err(
                                "--line-calls: --sweep already varies N; give one or the other"
                                    .into(),
                            );
                        }
                        if !(sw.from > 1.0 && sw.to > 1.0 && sw.from <= 1e23 && sw.to <= 1e23) {
                            return Err(format!(
                                "--sweep: {}:{}:{} is not allowed: line calls N with 1 < N <= 1e23",
                                Num(sw.from),
                                Num(sw.to),
                                sw.steps
                            ));
                        }
                        let ns =
                            report::sweep_values(sw.from, sw.to, sw.steps, sw.log.unwrap_or(true));
                        let n = ns.len();
                        (
                            ns.iter().map(|&n| s.line_for_calls(n)).collect::<Vec<_>>(),
                            vec![p; n],
                            "line_calls",
                        )
                    }
                    None => (vec![s.line_for_calls(line_calls)], vec![p], "none"),
                }
            } else {
                let (rates, sweep) = rate_sweep(&[broken])?;
                (
                    vec![s.line_for_calls(line_calls); rates.len()],
                    rates,
                    sweep,
                )
            };
            let points: Vec<_> = lines
                .iter()
                .zip(&rates)
                .map(|(&line, &p)| report::run_length(&s, line, p, sim))
                .collect();
            let r = report::RunLengths {
                command: if command == Command::FalseAlarms {
                    "false-alarms"
                } else {
                    "open-delay"
                },
                sweep,
                settings: report::Echo::of(&s),
                points,
            };
            Report::RunLengths(r)
        }
        Command::Trials => {
            let (rates, sweep) = rate_sweep(&[fine, w.zero_drift_rate(), broken])?;
            let d = breaker::StatisticalSettings {
                fine_rate: fine,
                broken_rate: broken,
                trial_wrongly_opens: a,
                trial_wrongly_closes: b,
                ..Default::default()
            }
            .derived();
            let r = report::TrialsReport {
                command: "trials",
                sweep,
                settings: report::Echo::of(&s),
                trials_to_close: d.trials_to_close,
                trials_to_open: d.trials_to_open,
                points: rates
                    .iter()
                    .map(|&p| {
                        let mut t = report::trials(&s, p, sim);
                        let factor = f.half_open_time_factor.unwrap_or(
                            breaker::StatisticalSettings::default().half_open_time_factor,
                        );
                        report::time_limit(
                            &s,
                            &mut t,
                            factor,
                            d.trials_to_close,
                            report::Budget::DEFAULT,
                        );
                        t
                    })
                    .collect(),
            };
            Report::Trials(r)
        }
        Command::Drift => {
            let (rates, sweep) = rate_sweep(&[fine, w.zero_drift_rate(), broken])?;
            let r = report::DriftReport {
                command: "drift",
                sweep,
                settings: report::Echo::of(&s),
                zero_drift_rate: Figure::exact(w.zero_drift_rate()),
                indifference_zone: (fine, broken),
                points: rates.iter().map(|&p| report::drift(&s, p)).collect(),
            };
            Report::Drift(r)
        }
        Command::Window => {
            let size = f.window.unwrap_or(100);
            let cw = CountWindow {
                size,
                threshold: f.threshold.unwrap_or(0.5),
                minimum_calls: f.min_calls.unwrap_or(size),
            };
            let baseline = f.baseline.unwrap_or(fine);
            let (baselines, sweep) = match f.sweep {
                Some(sw) => {
                    if f.baseline.is_some() {
                        return Err("--baseline: --sweep already varies the baseline; give one or the other".into());
                    }
                    if !(sw.from > 0.0 && sw.from < 1.0 && sw.to > 0.0 && sw.to < 1.0) {
                        return Err(format!(
                            "--sweep: {}:{}:{} is not allowed: baselines between 0 and 1 (excluded)",
                            Num(sw.from),
                            Num(sw.to),
                            sw.steps
                        ));
                    }
                    (
                        report::sweep_values(sw.from, sw.to, sw.steps, sw.log.unwrap_or(false)),
                        "baseline",
                    )
                }
                None => (vec![baseline], "none"),
            };
            let outage = f.true_rate.unwrap_or(broken);
            // Beyond the exact chain the sliding figures come from simulation, with --seed.
            let sim = sim.or((size > crate::window::MAX_EXACT).then_some(Simulation {
                runs: 1000,
                seed: f.seed.unwrap_or(1),
            }));
            let r = report::WindowReport {
                command: "window",
                sweep,
                window: size,
                threshold: cw.threshold,
                minimum_calls: cw.effective_minimum(),
                minimum_calls_given: cw.minimum_calls,
                failures_to_trip: cw.failures_to_trip(size),
                calls_per_second: cps,
                time_to_fill: crate::window::time_to_fill(&cw, cps),
                time_to_first_evaluation: crate::window::time_to_first_evaluation(&cw, cps),
                points: baselines
                    .iter()
                    .map(|&p| report::window_trips(&cw, p, cps, sim))
                    .collect(),
                outage: report::window_outage(&cw, baseline, outage, cps, sim),
            };
            Report::Window(r)
        }
    };
    Ok((out, f.json))
}

/// A number with about 4 significant digits.
pub fn num(x: f64) -> String {
    if x.is_nan() {
        return "n/a".into();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".into() } else { "-inf".into() };
    }
    let a = x.abs();
    if a == 0.0 {
        "0".into()
    } else if !(1e-3..1e6).contains(&a) {
        format!("{x:.3e}")
    } else {
        let mut digits = (3 - libm::floor(libm::log10(a)) as i32).clamp(0, 6) as usize;
        // A value that rounds up to the next power of ten takes one decimal fewer: 9.99999 read
        // "10.000" (five digits), and a sweep's 0.09999999999999998 "10.000%" beside "50.00%".
        let scale = [1.0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6];
        if digits > 0 && libm::round(a * scale.get(digits).copied().unwrap_or(1.0)) >= 1e4 {
            digits -= 1;
        }
        format!("{x:.digits$}")
    }
}

/// A chance's text: [`num`], after "at most" for a bound (a window's trip chance too small for
/// a double: [`crate::window::trip_probability`]).
pub fn chance(f: &Figure) -> String {
    match f.kind {
        Kind::Bound => format!("at most {}", num(f.value)),
        _ => num(f.value),
    }
}

/// [`num`] without trailing zeros: "3", "54", "5.4", "0.018" (for settings and averages that are
/// often whole).
pub fn short(x: f64) -> String {
    let s = num(x);
    if s.contains('.') && !s.contains('e') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A whole count with its noun, singular for exactly 1: `count(1, "call", "calls")` is
/// "1 call", `count(2, "call", "calls")` "2 calls".
pub fn count(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    format!("{n} {}", if n == 1 { one } else { many })
}

/// A rate as a percentage, 4 significant digits (the report's notes; the text's rates are
/// [`pcts`]', which may take more).
pub fn pct(x: f64) -> String {
    let p = x * 100.0;
    if p != 0.0 && p.abs() < 0.01 {
        format!("{p:.2e}%")
    } else {
        format!("{}%", num(p))
    }
}

/// How one report's text gives its rates: [`pct`]'s 4 significant digits, or, where those would
/// read two different rates of the report alike or one below 1 as 100% or more, all of them to
/// as many decimals as it takes: "fine 5.000%  broken 5.000%" said nothing of 4.9999% and 5%,
/// nor "true rate 5.000%" beside them which one it was, and 0.999999 read "100.0%", a fine
/// rate the settings refuse. (Text only: formatting to a number of decimals would add some 15 kB
/// to the page's wasm, which the report's notes, with [`pct`], are in.)
#[derive(Debug, Clone, Copy)]
pub struct Rates(Option<Option<usize>>);

impl Rates {
    /// The way to give every rate in `xs` (all the rates one report's text shows).
    pub fn of(xs: &[f64]) -> Rates {
        if readable(xs, &xs.iter().map(|&x| pct(x)).collect::<Vec<_>>()) {
            return Rates(None);
        }
        // Past 15 decimals, each rate's shortest form, which tells any two doubles apart (17
        // decimals read 1e-20 as 0.00000000000000000%).
        Rates(Some((3..=15).find(|&d| {
            readable(
                xs,
                &xs.iter()
                    .map(|&x| format!("{:.d$}%", x * 100.0))
                    .collect::<Vec<_>>(),
            )
        })))
    }

    /// `x` as a percentage.
    pub fn show(self, x: f64) -> String {
        match self.0 {
            None => pct(x),
            Some(Some(d)) => format!("{:.d$}%", x * 100.0),
            Some(None) => {
                let p = x * 100.0;
                if p == 0.0 || (1e-3..1e15).contains(&p.abs()) {
                    format!("{p}%")
                } else {
                    format!("{p:e}%")
                }
            }
        }
    }
}

/// Rates given together ([`Rates::of`] them all).
pub fn pcts<const N: usize>(xs: [f64; N]) -> [String; N] {
    let r = Rates::of(&xs);
    xs.map(|x| r.show(x))
}

/// Whether percentages `texts` tell rates `xs` apart, and read none below 1 as 100% or more and
/// none above 0 as 0% (`--b 1e-9` beside a true rate of 0.999999 read "b 0.0000%").
fn readable(xs: &[f64], texts: &[String]) -> bool {
    let read = |t: &String| t.trim_end_matches('%').parse::<f64>().unwrap_or(f64::NAN);
    let apart = xs.iter().zip(texts).all(|(x, t)| {
        xs.iter()
            .zip(texts)
            .all(|(y, u)| x == y || x.is_nan() || y.is_nan() || t != u)
    });
    apart
        && xs
            .iter()
            .zip(texts)
            .all(|(x, t)| !(*x < 1.0 && read(t) >= 100.0 || *x > 0.0 && read(t) == 0.0))
}

/// Seconds in the largest fitting unit.
pub fn duration(s: f64) -> String {
    duration_as(s, s)
}

/// Seconds in the unit [`duration`] gives `reference`: an interval's ends and an error in
/// their figure's unit ("2.024 min [1.972 min, 2.076 min]", not "[118.3 s, 2.076 min]").
fn duration_as(s: f64, reference: f64) -> String {
    if !s.is_finite() {
        return num(s);
    }
    let reference = if reference.is_finite() { reference } else { s };
    let units = [
        (365.25 * 86_400.0, "years"),
        (86_400.0, "d"),
        (3600.0, "h"),
        (60.0, "min"),
        (1.0, "s"),
    ];
    for &(k, u) in &units {
        if reference.abs() >= 2.0 * k {
            return format!("{} {u}", num(s / k));
        }
    }
    format!("{} s", num(s))
}

/// A figure's text; `fmt(x, reference)` writes `x` (an interval's end) as it writes the figure's
/// value `reference` (in its unit).
fn fig(f: &Figure, fmt: &Fmt) -> String {
    let v = fmt(f.value, f.value);
    match f.kind {
        Kind::Bound => format!(">= {v}"),
        Kind::Simulated => match (f.ci95, f.n) {
            (Some((lo, hi)), Some(n)) if lo.is_finite() && hi.is_finite() => {
                format!("{v} [{}, {}] n={n}", fmt(lo, f.value), fmt(hi, f.value))
            }
            (_, Some(1)) => format!("{v} n=1 (no interval from one run)"),
            (_, Some(n)) => format!("{v} n={n} (every run gave this: no spread for an interval)"),
            _ => v,
        },
        _ => v,
    }
}

/// How [`fig`] writes a number `x` beside a figure's value `reference`.
type Fmt = dyn Fn(f64, f64) -> String;

/// [`num`] as a [`Fmt`].
fn plain(x: f64, _: f64) -> String {
    num(x)
}

fn ways(w: &Ways, fmt: &Fmt, errors: (Option<f64>, Option<f64>)) -> String {
    ways_of(w, fmt, errors, false)
}

/// [`ways`]; `chance`: the figures are a probability, compared with Wald's by their
/// complements too.
fn ways_of(w: &Ways, fmt: &Fmt, errors: (Option<f64>, Option<f64>), chance: bool) -> String {
    let mut parts = Vec::new();
    if let Some(f) = &w.bound {
        parts.push(format!("bound {}", fig(f, fmt)));
    }
    if let Some(f) = &w.exact {
        // An error that is not finite says nothing ("exact inf (+-inf)"; JSON has null).
        let e = errors
            .0
            .filter(|e| e.is_finite())
            .map(|e| format!(" (+-{})", fmt(e, f.value)))
            .unwrap_or_default();
        parts.push(format!("exact {}{e}", fig(f, fmt)));
    }
    if let Some(f) = &w.markov_chain {
        let e = errors
            .1
            .filter(|e| e.is_finite())
            .map(|e| format!(" (+-{})", fmt(e, f.value)))
            .unwrap_or_default();
        parts.push(format!("markov chain approximation {}{e}", fig(f, fmt)));
    }
    if let Some(f) = &w.approximation {
        // Below a proven bound, an approximation is plainly off: said, so that the reader does
        // not take the bound for the loose one (p0 = 0.001%, p1 = 99%: 2.150e6 against 9.900e6).
        // Far from the exact figure (under half or over twice it), the same: Wald's 0.049
        // expected trials where every test takes at least one, 1446 calls between false alarms
        // against 126,423, were printed with nothing said.
        // (Not against an exact figure that overflowed. A chance is also compared by its
        // complement: 0.7 against 0.999 is 0.3 against 0.001.)
        let below = w.bound.as_ref().is_some_and(|b| f.value < b.value);
        let far = w
            .exact
            .as_ref()
            .and_then(|e| wald_far(e.value, f.value, chance));
        let why = if below {
            " (below the bound: it leaves out the overshoot past the line)".to_string()
        } else if let Some((complement, far)) = far {
            let (of, what) = if complement {
                ("its complement ", "one's")
            } else {
                ("", "figure")
            };
            format!(
                " ({of}{far} the exact {what}: it leaves out the overshoot past the line, large where one step is a large part of it)"
            )
        } else {
            String::new()
        };
        parts.push(format!("wald approximation {}{why}", fig(f, fmt)));
    }
    if let Some(f) = &w.simulated {
        parts.push(format!("simulated {}", fig(f, fmt)));
    }
    if parts.is_empty() {
        "n/a".into()
    } else {
        parts.join(" | ")
    }
}

/// Whether Wald's `approx` is far from the `exact` figure: `Some((complement, how))` with `how`
/// "under half" or "over twice" when it is, or, for a `chance`, when its complement is
/// (`complement` true); `None` when it is near, equal (0 included), or the exact figure
/// overflowed. An exact 0 against Wald's above it is far. `analyze`'s text and `analyze curves`
/// say it by this rule; the page's charts by the same in `www/src/analysis.js`.
pub fn wald_far(exact: f64, approx: f64, chance: bool) -> Option<(bool, &'static str)> {
    let at = |r: f64| {
        if r < 0.5 {
            Some("under half")
        } else if r > 2.0 {
            Some("over twice")
        } else {
            None
        }
    };
    if !exact.is_finite() || approx == exact {
        return None;
    }
    match at(approx / exact) {
        Some(how) => Some((false, how)),
        None if chance && exact < 1.0 && approx < 1.0 => {
            at((1.0 - approx) / (1.0 - exact)).map(|how| (true, how))
        }
        None => None,
    }
}

fn header(out: &mut String, e: &report::Echo, rate: impl Fn(f64) -> String) {
    let (fine, broken) = (rate(e.fine), rate(e.broken));
    let _ = writeln!(
        out,
        "fine {fine}  broken {broken}  w_fail {} nats  w_ok {} nats  (1 point = {} nats: a failure is +{} points)",
        num(e.w_fail),
        num(e.w_ok),
        num(e.point),
        num(e.w_fail / e.point)
    );
}

fn text_run_lengths(r: &report::RunLengths) -> String {
    let mut out = String::new();
    let what = if r.command == "false-alarms" {
        "calls between false alarms"
    } else {
        "calls to open"
    };
    let _ = writeln!(
        out,
        "{} (closed breaker, CUSUM from a score of 0)",
        r.command
    );
    let mut all = vec![r.settings.fine, r.settings.broken];
    all.extend(r.points.iter().map(|p| p.true_rate));
    let rates = Rates::of(&all);
    let rate = |x| rates.show(x);
    header(&mut out, &r.settings, rate);
    let _ = writeln!(
        out,
        "traffic {} calls/min",
        num(r.settings.calls_per_second * 60.0)
    );
    for p in &r.points {
        let _ = writeln!(
            out,
            "\ntrue rate {}  line {} nats = ln({}) = {} points  drift {} nats/call (exact)",
            rate(p.true_rate),
            num(p.line),
            num(p.line_calls),
            num(p.line_points),
            num(p.drift)
        );
        // `--period 1s` at 60 calls/min asks for ln 1 and gets the floor, ln(95): said.
        if p.line == r.settings.line_floor {
            let _ = writeln!(
                out,
                "  (the line is the breaker's floor, max(A, w_fail + |w_ok|): no line is lower, so a smaller N asked for gives this one)"
            );
        }
        let errs = (Some(p.exact_error), p.markov_chain_error);
        let _ = writeln!(out, "  {what}: {}", ways(&p.calls, &plain, errs));
        let k = 1.0 / r.settings.calls_per_second;
        let _ = writeln!(
            out,
            "  time: {}",
            ways(
                &p.seconds,
                &duration_as,
                (Some(p.exact_error * k), p.markov_chain_error.map(|e| e * k))
            )
        );
        for n in [&p.exact_note, &p.simulation_note].into_iter().flatten() {
            let _ = writeln!(out, "  ({n})");
        }
        // The one figure left out with no note in the report (nor in the JSON, which the
        // page's wasm gives as it is: a note there would cost its bytes): the chain's grids
        // are past its work limit, or the one within it says nothing (`report::run_length_capped`).
        if p.calls.markov_chain.is_none() {
            let _ = writeln!(
                out,
                "  (no markov chain figure: past its work limit, or the finest grid within it too coarse to say anything: an error not below its value, or a value below the bound)"
            );
        }
    }
    out
}

fn text_trials(r: &report::TrialsReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "trials (half-open: Wald's SPRT from 0, no floor)");
    let e = &r.settings;
    let mut all = vec![e.fine, e.broken, e.a, e.b];
    all.extend(r.points.iter().map(|p| p.true_rate));
    let rates = Rates::of(&all);
    let rate = |x| rates.show(x);
    header(&mut out, &r.settings, rate);
    let _ = writeln!(
        out,
        "a {}  b {}  open again at A = {} nats, close at B = {} nats; {} in a row {}, {} in a row {}",
        rate(e.a),
        rate(e.b),
        num(e.upper),
        num(e.lower),
        count(r.trials_to_close, "success", "successes"),
        if r.trials_to_close == 1 { "closes" } else { "close" },
        count(r.trials_to_open, "failure", "failures"),
        if r.trials_to_open == 1 { "opens" } else { "open" }
    );
    for p in &r.points {
        let _ = writeln!(out, "\ntrue rate {}", rate(p.true_rate));
        let _ = writeln!(
            out,
            "  chance to close: {}",
            ways_of(
                &p.close_probability,
                &plain,
                (Some(p.close_error), None),
                true
            )
        );
        let _ = writeln!(
            out,
            "  expected trials: {}",
            ways(&p.expected_trials, &plain, (Some(p.trials_error), None))
        );
        if let Some(l) = &p.time_limit {
            // The limit in time at the traffic (`--calls-per-minute` reads here: trials come
            // at its rate, so the chances do not depend on it).
            let cps = e.calls_per_second;
            let _ = writeln!(
                out,
                "  with the time limit ({} x {} trials to close / the traffic: {} at {} calls/min, about 1 + {} = {} trials tried): chance to close {} approx., ends at the limit {} approx.",
                short(l.factor),
                r.trials_to_close,
                duration(l.factor * r.trials_to_close as f64 / cps),
                short(cps * 60.0),
                short(l.mean_trials - 1.0),
                short(l.mean_trials),
                num(l.close_probability.value),
                num(l.ends_at_limit.value)
            );
        }
        for n in [&p.exact_note, &p.simulation_note, &p.time_limit_note]
            .into_iter()
            .flatten()
        {
            let _ = writeln!(out, "  ({n})");
        }
    }
    out
}

fn text_drift(r: &report::DriftReport) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "drift (expected score change per call)");
    let mut all = vec![
        r.settings.fine,
        r.settings.broken,
        r.zero_drift_rate.value,
        r.indifference_zone.0,
        r.indifference_zone.1,
    ];
    all.extend(r.points.iter().map(|p| p.true_rate));
    let rates = Rates::of(&all);
    let rate = |x| rates.show(x);
    header(&mut out, &r.settings, rate);
    let (zero, lo, hi) = (
        rate(r.zero_drift_rate.value),
        rate(r.indifference_zone.0),
        rate(r.indifference_zone.1),
    );
    let _ = writeln!(
        out,
        "zero drift at {zero} (exact), inside the indifference zone {lo} .. {hi}"
    );
    let _ = writeln!(
        out,
        "\n{:>12}  {:>19}  {:>19}",
        "true rate", "nats/call (exact)", "points/call (exact)"
    );
    for p in &r.points {
        let _ = writeln!(
            out,
            "{:>12}  {:>19}  {:>19}",
            rate(p.true_rate),
            num(p.nats_per_call.value),
            num(p.points_per_call.value)
        );
    }
    out
}

fn text_window(r: &report::WindowReport) -> String {
    let mut out = String::new();
    let mut all = vec![r.threshold, r.outage.outage_rate, r.outage.baseline];
    all.extend(r.points.iter().map(|p| p.baseline));
    let rates = Rates::of(&all);
    let rate = |x| rates.show(x);
    let _ = writeln!(
        out,
        "window breaker: count-based window of {}, threshold {}, minimum calls {} ({}{} in a full window {}), traffic {} calls/s",
        count(r.window, "call", "calls"),
        rate(r.threshold),
        r.minimum_calls,
        // Capped as resilience4j caps it, without a word there: said here.
        if r.minimum_calls_given > r.minimum_calls {
            format!(
                "{} given, capped at the window size as resilience4j caps it; ",
                r.minimum_calls_given
            )
        } else {
            String::new()
        },
        count(r.failures_to_trip, "failure", "failures"),
        if r.failures_to_trip == 1 { "trips" } else { "trip" },
        num(r.calls_per_second)
    );
    // The figures are for a count window; a time window of T s holds about r T calls (the page's
    // window curve marks it so): say which one this stands for.
    let _ = writeln!(
        out,
        "a time-based window of T s holds about {} x T calls at this traffic: this stands for one of about {} (an approximation: the calls in T s vary, and its minimum calls is not capped at them)",
        num(r.calls_per_second),
        duration(r.window as f64 / r.calls_per_second)
    );
    let _ = writeln!(
        out,
        "time to fill the window: {}; to the first evaluation: {} (both exact as calls over the traffic: for calls evenly spaced, the n-th at n / rate as the simulator's, and the mean for Poisson calls)",
        duration(r.time_to_fill.value),
        duration(r.time_to_first_evaluation.value)
    );
    for p in &r.points {
        let _ = writeln!(out, "\nbaseline {}", rate(p.baseline));
        // Exact, or where the tail is smaller than a double holds, a bound (at most).
        let kind = match p.trip_probability_per_window.kind {
            Kind::Bound => "a bound: the binomial tail is under the smallest normal double",
            _ => "exact, binomial tail",
        };
        let _ = writeln!(
            out,
            "  chance a full window trips: {} ({kind})",
            chance(&p.trip_probability_per_window)
        );
        let _ = writeln!(
            out,
            "  spurious trips per day, windows back to back: {} ({})",
            chance(&p.trips_per_day_back_to_back),
            match (
                p.trips_per_day_back_to_back.kind,
                p.trip_probability_per_window.kind
            ) {
                (Kind::Bound, Kind::Bound) => "a bound, as the chance",
                // Fewer windows than one a day: the product is under the least normal double.
                (Kind::Bound, _) => "a bound: under the smallest normal double",
                _ => "exact",
            }
        );
        let _ = writeln!(
            out,
            "  spurious trips per day, sliding window: {}",
            ways(&p.trips_per_day_sliding, &plain, (p.sliding_error, None))
        );
        // Each call's window trips with chance at most q: n x the back-to-back figure bounds the
        // trips of full windows (the page heads its card with it where it is the tighter).
        let full = num(r.window as f64 * p.trips_per_day_back_to_back.value);
        let _ = if r.minimum_calls >= r.window {
            writeln!(
                out,
                "  spurious trips per day, a window ending at each call: at most {full} (a bound: n x windows back to back)"
            )
        } else {
            writeln!(
                out,
                "  spurious trips per day, a full window ending at each call: at most {full} (n x windows back to back; it leaves out the trips of a window judged from {} as it fills again after a trip)",
                count(r.minimum_calls, "call", "calls")
            )
        };
    }
    let o = &r.outage;
    let _ = writeln!(
        out,
        "\noutage at {} (from a full window at {})",
        rate(o.outage_rate),
        rate(o.baseline)
    );
    let _ = writeln!(
        out,
        "  calls to open: {}",
        ways(&o.calls_to_open, &plain, (o.calls_error, None))
    );
    let k = 1.0 / r.calls_per_second;
    let _ = writeln!(
        out,
        "  time to open: {}",
        ways(
            &o.seconds_to_open,
            &duration_as,
            (o.calls_error.map(|e| e * k), None)
        )
    );
    if let Some(n) = &o.note {
        let _ = writeln!(out, "  ({n})");
    }
    out
}
