//! `breaker analyze curves`: the page's five analysis charts for a scenario, as tables or JSON.
//!
//! The page computes them with the same function ([`curves::page_curves`]) at the same traffic
//! ([`Scenario::calls_per_minute_per_breaker`]), so these are its numbers, bit for bit.

use std::ffi::OsString;
use std::fmt::Write as _;

use crate::run::once;
use analysis::cli::{duration, short};
use analysis::Kind;
use breaker::SlidingWindowType;
use curves::{fmt_calls, Curve, Line};
use sim::Scenario;

/// Usage text (also for `--help`).
pub(crate) const USAGE: &str = "\
usage: breaker analyze curves [--preset NAME | --scenario FILE.json] [--set key=value ...]
                              [--format text|json]

The page's five analysis charts for a scenario's breaker settings, at the traffic one breaker
sees (the scenario's calls per minute, divided among callers that do not share state): calls
between false alarms vs the line, calls to open vs the true failure rate, half-open's chance to
close and expected trials, and the window breaker's spurious trips per day vs window size. Every
line says what it is: exact, bound, approximation or simulated (with its 95% interval and size).
Points left out for the work budget, and ways that do not apply, are n/a (null in JSON).

  --preset NAME         a named scenario (`breaker presets`)
  --scenario FILE.json  a scenario file, such as the page's Download scenario (- reads stdin);
                        with neither, the default scenario
  --set key=value       edit a dotted path of the scenario, as `breaker run --set`
  --format FMT          text (default) or json: {calls_per_minute_per_breaker, curves}, each
                        curve as the page's analysis() gives it";

#[derive(Debug, Default)]
struct Opts {
    preset: Option<String>,
    scenario: Option<String>,
    sets: Vec<String>,
    /// `--format json` (`Some(false)`: text).
    format: Option<bool>,
}

fn parse(args: Vec<OsString>) -> Result<Opts, String> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut o = Opts::default();
    let value = |p: &mut lexopt::Parser, flag: &str| -> Result<String, String> {
        p.value()
            .map_err(|e| e.to_string())?
            .into_string()
            .map_err(|v| format!("{flag} {v:?}: not valid UTF-8"))
    };
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("preset") => once(&mut o.preset, value(&mut p, "--preset")?, "--preset")?,
            Long("scenario") => {
                once(&mut o.scenario, value(&mut p, "--scenario")?, "--scenario")?
            }
            Long("set") => o.sets.push(value(&mut p, "--set")?),
            Long("format") => {
                let json = match value(&mut p, "--format")?.as_str() {
                    "text" => false,
                    "json" => true,
                    v => return Err(format!("--format {v:?}: allowed text, json")),
                };
                once(&mut o.format, json, "--format")?;
            }
            // Answered before parsing (`run::wants_help`).
            Long("help") | Short('h') => {}
            Value(v) => {
                return Err(format!(
                    "unexpected argument {v:?}: curves takes options only (breaker analyze curves --help)"
                ))
            }
            _ => {
                return Err(format!(
                    "{} (breaker analyze curves --help)",
                    arg.unexpected()
                ))
            }
        }
    }
    Ok(o)
}

/// `breaker analyze curves ...` (`args` after `curves`).
pub(crate) fn run(args: Vec<OsString>) -> Result<String, String> {
    if crate::run::wants_help(&args) {
        return Ok(USAGE.to_string());
    }
    let o = parse(args)?;
    let s = crate::run::settings(
        o.preset.as_deref(),
        o.scenario.as_deref(),
        &o.sets,
        true, // with neither --preset nor --scenario, the default scenario
        "",
        false,
    )?;
    // A trace that does not read is refused, as `breaker run` refuses it (in its words, with
    // its hints): its traffic, which the curves take, is not known (it was the scenario's own,
    // unsaid).
    if let Some(trace) = s.trace.as_deref() {
        sim::scan_trace(trace.as_bytes()).map_err(|e| {
            let (name, _) = crate::run::trace_source(o.scenario.as_deref(), &o.sets);
            format!("{name}: {}", crate::run::hinted(e))
        })?;
    }
    let cpm = s.calls_per_minute_per_breaker();
    // The analysis' traffic range, as the page's analysis options take it; only a trace's
    // traffic can be outside. Three calls in 1e-300 s were drawn at 1.8e302 calls/min, and in
    // 1e-320 s at "inf" (rows of inf, put down to close rates), where the page refuses them.
    let (lo, hi) = analysis::cli::CALLS_PER_MINUTE;
    if !(lo..=hi).contains(&cpm) {
        let (name, _) = crate::run::trace_source(o.scenario.as_deref(), &o.sets);
        return Err(format!(
            "{name}: the trace's calls come at {} calls/min to one breaker (its calls over its \
             run), past what the curves take: 1e-12 <= calls per minute <= 1e12",
            short(cpm)
        ));
    }
    let all = curves::page_curves(&s.statistical, &s.window, cpm / 60.0);
    if o.format == Some(true) {
        let v = serde_json::json!({ "calls_per_minute_per_breaker": cpm, "curves": all });
        let mut text =
            serde_json::to_string_pretty(&v).map_err(|e| format!("cannot write JSON: {e}"))?;
        text.push('\n');
        return Ok(text);
    }
    Ok(text(&s, cpm, &all))
}

fn text(s: &Scenario, cpm: f64, all: &[Curve]) -> String {
    let st = &s.statistical;
    let w = &s.window;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "curves (the page's analysis charts) at {} calls/min, the traffic one breaker sees{}",
        short(cpm),
        match (&s.trace, s.trace_calls_per_minute()) {
            (Some(_), Some(_)) => " (the replayed trace's: its calls over its run)",
            (Some(_), None) => {
                " (the scenario's traffic: the replayed trace's calls all come at 0 s, a run of no length)"
            }
            _ => "",
        }
    );
    // The rates as set (a rounded percent printed 0.19999 and 0.2 both as 20.00%).
    let _ = writeln!(
        out,
        "statistical: fine_rate {}, broken_rate {}, trial_wrongly_opens {}, trial_wrongly_closes \
         {}, false_alarm_period {}",
        st.fine_rate,
        st.broken_rate,
        st.trial_wrongly_opens,
        st.trial_wrongly_closes,
        duration(st.false_alarm_period)
    );
    let size = match w.sliding_window_type {
        SlidingWindowType::CountBased => format!("count-based, {} calls", w.sliding_window_size),
        SlidingWindowType::TimeBased => format!("time-based, {} s", w.sliding_window_size),
    };
    let _ = writeln!(
        out,
        "window: {size}, failure_rate_threshold {}, minimum_number_of_calls {}",
        w.failure_rate_threshold, w.minimum_number_of_calls
    );
    for (i, c) in all.iter().enumerate() {
        let _ = writeln!(out, "\n{}. {}", i + 1, c.title);
        let mut note = c.note.clone();
        for (label, k) in below_bound(c) {
            note.push(' ');
            note.push_str(&below_bound_note(label, k, c.series[0].x.len()));
        }
        for (label, k, n) in far_from_exact(c) {
            let how = if c.id == "trials_oc" {
                " (a chance, or its complement)"
            } else {
                ""
            };
            note.push_str(&format!(
                " {label} is under half or over twice the exact figure{how} at {k} of {n} points: \
                 it leaves out the overshoot past the line, large where one step is a large part \
                 of it."
            ));
        }
        // The back-to-back line's 0s are underflows (p0 > 0): the analysis has a bound there.
        if let Some(x) = (c.id == "window_trips")
            .then(|| c.series.first())
            .flatten()
            .and_then(|l| l.x.iter().zip(&l.y).find(|(_, &y)| y == 0.0))
            .map(|(&x, _)| x)
        {
            note.push_str(&format!(
                " Windows back to back read 0 from {} calls: there the chance that a window \
                 trips, or the trips a day, is under 2.2e-308, too small for a double (breaker \
                 analyze window gives a bound).",
                curves::fmt_calls(x)
            ));
        }
        for l in wrap(&note, 94) {
            let _ = writeln!(out, "   {l}");
        }
        table(&mut out, c);
    }
    out
}

/// Each approximation line of a curve that lies below the curve's bound somewhere (a proven
/// lower bound: the approximation is plainly off there), with the number of such points. The
/// page's analysis charts say the same (`www/src/analysis.js`).
fn below_bound(c: &Curve) -> Vec<(&'static str, usize)> {
    let Some(b) = c.series.iter().find(|l| l.kind == Kind::Bound) else {
        return Vec::new();
    };
    let bound_at = |x: f64| b.x.iter().position(|&bx| bx == x).map(|i| b.y[i]);
    c.series
        .iter()
        .filter(|l| l.kind == Kind::Approximation)
        .map(|l| {
            let k = l.x.iter().zip(&l.y);
            (
                l.label,
                k.filter(|&(&x, &y)| bound_at(x).is_some_and(|by| y < by))
                    .count(),
            )
        })
        .filter(|&(_, k)| k > 0)
        .collect()
}

/// Each Wald line of a curve under half or over twice the exact line somewhere (not counting
/// points below the bound, said apart), with the count and the line's points; a chance (the
/// chance to close) compared by its complement too. The page's analysis charts say
/// the same (`www/src/analysis.js`, `farFromExact`).
fn far_from_exact(c: &Curve) -> Vec<(&'static str, usize, usize)> {
    let Some(exact) = c.series.iter().find(|l| l.kind == Kind::Exact) else {
        return Vec::new();
    };
    let at = |line: &Line, x: f64| {
        line.x
            .iter()
            .position(|&lx| lx == x)
            .map_or(f64::NAN, |i| line.y[i])
    };
    let bound = c.series.iter().find(|l| l.kind == Kind::Bound);
    let chance = c.id == "trials_oc";
    c.series
        .iter()
        .filter(|l| l.kind == Kind::Approximation && l.label.starts_with("Wald"))
        .map(|l| {
            let k =
                l.x.iter()
                    .zip(&l.y)
                    .filter(|&(&x, &a)| {
                        // (A point below the bound is said apart.)
                        a.is_finite()
                            && !bound.is_some_and(|b| a < at(b, x))
                            && analysis::cli::wald_far(at(exact, x), a, chance).is_some()
                    })
                    .count();
            (l.label, k, l.x.len())
        })
        .filter(|&(_, k, _)| k > 0)
        .collect()
}

fn below_bound_note(label: &str, k: usize, n: usize) -> String {
    let why = if label.starts_with("Wald") {
        "it leaves out how far the last failure carries the score past the line, which is large \
         where one failure's step is a large part of the line"
    } else {
        "it is off there"
    };
    format!("{label} lies below the bound at {k} of {n} points: {why}.")
}

fn kind(k: Kind) -> &'static str {
    match k {
        Kind::Exact => "exact",
        Kind::Bound => "bound",
        Kind::Approximation => "approx.",
        Kind::Simulated => "simulated",
    }
}

/// A curve's points as a table: its x, then a column per line (a simulated one with its 95%
/// interval), each named by a letter in a legend above with its label and kind.
fn table(out: &mut String, c: &Curve) {
    let xs = c.series.first().map_or(&[][..], |l| &l.x[..]);
    let _ = writeln!(out, "   x: {}", c.x_label);
    if let Some(m) = &c.mark {
        if let Some(&x) = m.x.first() {
            let _ = writeln!(
                out,
                "      {} at x = {} ({})",
                m.label,
                short(x),
                kind(m.kind)
            );
        }
    }
    let _ = writeln!(out, "   y: {}", c.y_label);
    let mut cols: Vec<Vec<String>> = vec![std::iter::once("x".to_string())
        .chain(xs.iter().map(|&x| short(x)))
        .collect()];
    for (i, l) in c.series.iter().enumerate() {
        let name = format!("y{}", i + 1);
        // The sample size as the note writes it (200,000).
        let n =
            l.n.map(|n| format!(", {} {} each", fmt_calls(n as f64), per(c)))
                .unwrap_or_default();
        let band = if l.ci95_lo.is_empty() {
            ""
        } else {
            " [95% interval]"
        };
        // Its kind once: after it, unless its label says it ("exact").
        let k = kind(l.kind);
        let said = l.label.to_lowercase().contains(k.trim_end_matches('.'));
        let k = if said {
            String::new()
        } else {
            format!(", {k}")
        };
        let _ = writeln!(out, "      {name}: {}{k}{n}{band}", l.label);
        cols.push(
            std::iter::once(name)
                .chain((0..xs.len()).map(|i| cell(l, i)))
                .collect(),
        );
    }
    let widths: Vec<usize> = cols
        .iter()
        .map(|c| c.iter().map(|s| s.chars().count()).max().unwrap_or(0))
        .collect();
    for row in 0..=xs.len() {
        let mut line = String::from(" ");
        for (c, w) in cols.iter().zip(&widths) {
            let _ = write!(line, "  {:>w$}", c[row], w = *w);
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
}

/// What a simulated line's size counts: calls for the window's trips, runs otherwise.
fn per(c: &Curve) -> &'static str {
    if c.id == "window_trips" {
        "calls"
    } else {
        "runs"
    }
}

/// Line `l`'s value at point `i`: `n/a` where absent, a simulated one with its interval.
fn cell(l: &Line, i: usize) -> String {
    let y = l.y.get(i).copied().unwrap_or(f64::NAN);
    if y.is_nan() {
        return "n/a".into();
    }
    match (l.ci95_lo.get(i), l.ci95_hi.get(i)) {
        (Some(&lo), Some(&hi)) if lo.is_finite() && hi.is_finite() => {
            format!("{} [{}, {}]", short(y), short(lo), short(hi))
        }
        _ => short(y),
    }
}

/// `text` in lines of at most `width` characters, broken at spaces.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    lines
}
