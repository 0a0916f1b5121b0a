//! Recorded traces: a CSV of calls, parsed one line at a time.
//!
//! ```text
//! # comment lines and blank lines are skipped
//! time_s,outcome,latency_s
//! 0.20,success,0.050
//! 0.40,503,0.120
//! 0.60,timeout,30
//! ```
//!
//! * `time_s`: when the call was made, seconds from the start of the run; from 0 to 1e9 (the
//!   longest run, [`crate::MAX_DURATION_S`]) and non-decreasing from line to line.
//! * `outcome`: an outcome class (`success`, `timeout`, `refused`, `server_error`, `overload`,
//!   `service_rate_limited`, `auth_rejected`, `input_rejected`, `user_rate_limited`, or the
//!   shorthands `ok`, `fail`) or an HTTP status (`200`, `404`, `503`; see
//!   `breaker::Outcome::from_http_status`).
//! * `latency_s`: how long the call took, seconds (or with a unit: `120ms`); >= 0. A latency at or
//!   over the scenario's call timeout becomes a timeout at the call timeout.
//!
//! Lines end in `\n` or `\r\n`; a file whose lines end in `\r` alone (a classic Mac export)
//! reads as one line, mostly refused there (the command line then says how to convert it, when
//! the refusal quotes a `\r`; a file that starts with a comment is one comment line, with no
//! calls); a trace pasted into the page is converted by the browser's text box. A UTF-8 byte
//! order mark before the first line is skipped. The header line is optional (recognized by its
//! first field being `time_s`; it must then be `time_s,outcome,latency_s`, so that a column named
//! `duration_ms` is not read as seconds). Fields are
//! separated by commas, with surrounding spaces ignored; there is no quoting (no field needs it).
//! An error names the line (1-based) and the field.

use std::io::BufRead;
use std::sync::Arc;

use breaker::float_parse::parse_f64;
use breaker::quote::{Clipped, Quoted};
use breaker::Outcome;

use crate::scenario::MAX_DURATION_S;

/// One call of a trace.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TraceRecord {
    /// When the call was made (s).
    pub time_s: f64,
    /// Its outcome.
    pub outcome: Outcome,
    /// Its latency (s).
    pub latency_s: f64,
}

/// A malformed trace: the line, the field (if one is to blame) and what is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TraceError {
    /// 1-based line number.
    pub line: u64,
    /// `time_s`, `outcome` or `latency_s`, or `None` for the line as a whole.
    pub field: Option<&'static str>,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for TraceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.field {
            Some(field) => write!(
                f,
                "trace line {}, field {field}: {}",
                self.line, self.message
            ),
            None => write!(f, "trace line {}: {}", self.line, self.message),
        }
    }
}

impl std::error::Error for TraceError {}

/// What a scan of a whole trace found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TraceSpan {
    /// Calls (records).
    pub records: u64,
    /// Time of the first call (s).
    pub first_s: f64,
    /// Time of the last call (s).
    pub last_s: f64,
    /// Calls not recorded as timeouts whose latency reaches the call timeout given to
    /// [`scan_trace_against`] (each is replayed as a timeout at the call timeout); 0 from
    /// [`scan_trace`].
    pub reach_timeout: u64,
}

/// Parse one line. `Ok(None)` for blank, comment and header lines.
pub(crate) fn parse_line(
    text: &str,
    line: u64,
    prev_t: f64,
) -> Result<Option<TraceRecord>, TraceError> {
    // A byte order mark before the first line (spreadsheet programs save CSV with one) is not
    // part of the first field.
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) if line == 1 => rest,
        _ => text,
    };
    let t = text.trim();
    if t.is_empty() || t.starts_with('#') {
        return Ok(None);
    }
    let err = |field: Option<&'static str>, message: String| TraceError {
        line,
        field,
        message,
    };
    let mut it = t.split(',');
    let f_time = it.next().unwrap_or("").trim();
    // A header: `time_s` first. Its other names are checked too, so a column of milliseconds
    // (`time_s,status,duration_ms`) is not read as seconds unsaid.
    if f_time.eq_ignore_ascii_case("time_s") {
        let rest = (
            it.next().map(str::trim),
            it.next().map(str::trim),
            it.next(),
        );
        if let (Some(o), Some(l), None) = rest {
            if o.eq_ignore_ascii_case("outcome") && l.eq_ignore_ascii_case("latency_s") {
                return Ok(None);
            }
        }
        return Err(err(
            None,
            format!(
                "a header must be time_s,outcome,latency_s, got {}",
                Quoted(t)
            ),
        ));
    }
    let f_outcome = it.next().map(str::trim);
    let f_latency = it.next().map(str::trim);
    let (Some(f_outcome), Some(f_latency)) = (f_outcome, f_latency) else {
        return Err(err(
            None,
            format!(
                "expected 3 fields time_s,outcome,latency_s, got {}",
                Quoted(t)
            ),
        ));
    };
    if it.next().is_some() {
        return Err(err(
            None,
            format!(
                "expected 3 fields time_s,outcome,latency_s, got more in {}",
                Quoted(t)
            ),
        ));
    }
    let time_s = parse_f64(f_time).ok_or_else(|| {
        err(
            Some("time_s"),
            format!("{} is not a number of seconds", Quoted(f_time)),
        )
    })?;
    if !(time_s.is_finite() && (0.0..=MAX_DURATION_S).contains(&time_s)) {
        return Err(err(
            Some("time_s"),
            format!(
                "{} is invalid: allowed 0 <= x <= 1e9 seconds (the longest run)",
                Clipped(f_time)
            ),
        ));
    }
    // `-0` is the start of the run, as `0`: kept negative, the run's length read "-0 s".
    let time_s = time_s + 0.0;
    if time_s < prev_t {
        return Err(err(
            Some("time_s"),
            format!(
                "{} is earlier than the line before ({prev_t}): times must not decrease",
                Clipped(f_time)
            ),
        ));
    }
    let outcome: Outcome = f_outcome
        .parse()
        .map_err(|e: breaker::ParseOutcomeError| err(Some("outcome"), e.to_string()))?;
    let latency_s = breaker::units::parse_duration(f_latency)
        .map_err(|e| err(Some("latency_s"), e.to_string()))?;
    if latency_s < 0.0 {
        return Err(err(
            Some("latency_s"),
            format!("{} is invalid: allowed x >= 0", Clipped(f_latency)),
        ));
    }
    Ok(Some(TraceRecord {
        time_s,
        outcome,
        latency_s,
    }))
}

/// Records from any buffered reader, one line at a time, reusing one line buffer: memory does
/// not grow with the length of the trace.
///
/// Lines are read as bytes (`read_until`) and checked as UTF-8 here, with the message
/// `read_line` gives: reading a byte slice (how the simulator scans a trace held as text) then
/// cannot fail at all, and the page's wasm needs no `io::Error` text.
#[derive(Debug)]
pub struct TraceReader<R> {
    reader: R,
    buf: Vec<u8>,
    line: u64,
    prev_t: f64,
}

impl<R: BufRead> TraceReader<R> {
    /// A reader at the start of `reader`.
    pub fn new(reader: R) -> Self {
        TraceReader {
            reader,
            buf: Vec::with_capacity(128),
            line: 0,
            prev_t: 0.0,
        }
    }

    /// The next record, `Ok(None)` at the end.
    pub fn next_record(&mut self) -> Result<Option<TraceRecord>, TraceError> {
        loop {
            self.buf.clear();
            let read = self.reader.read_until(b'\n', &mut self.buf);
            let n = read.map_err(|e| self.cannot_read(e.to_string()))?;
            if n == 0 {
                return Ok(None);
            }
            let Ok(text) = std::str::from_utf8(&self.buf) else {
                // `read_line`'s message for the same bytes.
                return Err(self.cannot_read("stream did not contain valid UTF-8".into()));
            };
            self.line += 1;
            if let Some(r) = parse_line(text, self.line, self.prev_t)? {
                self.prev_t = r.time_s;
                return Ok(Some(r));
            }
        }
    }
}

impl<R> TraceReader<R> {
    /// The error for a line that could not be read (the next line's number).
    fn cannot_read(&self, why: String) -> TraceError {
        TraceError {
            line: self.line + 1,
            field: None,
            message: format!("cannot read: {why}"),
        }
    }
}

/// Read a whole trace once to check it and find its span (bounded memory). A trace with no
/// calls (empty, or only a header, blank lines and comments) is an error at the line after its
/// last.
pub fn scan_trace<R: BufRead>(reader: R) -> Result<TraceSpan, TraceError> {
    scan_trace_against(reader, f64::INFINITY)
}

/// [`scan_trace`], also counting the calls not recorded as timeouts whose latency reaches
/// `call_timeout` ([`TraceSpan::reach_timeout`]): a trace whose latencies are milliseconds
/// written as bare numbers (read as seconds) shows as nearly every call reaching it.
pub fn scan_trace_against<R: BufRead>(
    reader: R,
    call_timeout: f64,
) -> Result<TraceSpan, TraceError> {
    let mut r = TraceReader::new(reader);
    let mut span = TraceSpan {
        records: 0,
        first_s: 0.0,
        last_s: 0.0,
        reach_timeout: 0,
    };
    while let Some(rec) = r.next_record()? {
        if span.records == 0 {
            span.first_s = rec.time_s;
        }
        span.records += 1;
        span.last_s = rec.time_s;
        if rec.latency_s >= call_timeout && rec.outcome != Outcome::Timeout {
            span.reach_timeout += 1;
        }
    }
    if span.records == 0 {
        // Replaying nothing would give a run of 0 s that looks like a result.
        return Err(TraceError {
            line: r.line + 1,
            field: None,
            message: "no calls: a trace needs at least one row of time_s,outcome,latency_s".into(),
        });
    }
    Ok(span)
}

/// Records from trace text held in memory; cloning is cheap (the text is shared), which is what
/// the stepping simulator's checkpoints need.
#[derive(Debug, Clone)]
pub(crate) struct TextCursor {
    text: Arc<str>,
    pos: usize,
    line: u64,
    prev_t: f64,
}

impl TextCursor {
    pub(crate) fn new(text: Arc<str>) -> Self {
        TextCursor {
            text,
            pos: 0,
            line: 0,
            prev_t: 0.0,
        }
    }

    pub(crate) fn next_record(&mut self) -> Result<Option<TraceRecord>, TraceError> {
        // `get` and `split_once` rather than slicing: no panic path (whose message would bring
        // Rust's Unicode tables into the wasm, see `breaker::quote`).
        while let Some(rest) = self.text.get(self.pos..).filter(|r| !r.is_empty()) {
            let (line, adv) = match rest.split_once('\n') {
                Some((line, _)) => (line, line.len() + 1),
                None => (rest, rest.len()),
            };
            self.pos += adv;
            self.line += 1;
            if let Some(r) = parse_line(line, self.line, self.prev_t)? {
                self.prev_t = r.time_s;
                return Ok(Some(r));
            }
        }
        Ok(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_utf8_reads_as_read_line_says() {
        let bytes: &[u8] = b"0.5,ok,1ms\n1.0,o\xffk,1ms\n";
        let mut r = TraceReader::new(bytes);
        assert!(r.next_record().unwrap().is_some());
        let e = r.next_record().unwrap_err();
        let io = std::io::BufRead::read_line(&mut &b"\xff"[..], &mut String::new()).unwrap_err();
        assert_eq!((e.line, e.field), (2, None));
        assert_eq!(e.message, format!("cannot read: {io}"));
        assert_eq!(e.message, "cannot read: stream did not contain valid UTF-8");
    }

    #[test]
    fn parses_and_names_errors() {
        let ok = parse_line("0.5, 503 ,120ms", 3, 0.0).unwrap().unwrap();
        assert_eq!(ok.outcome, Outcome::Overload);
        assert_eq!(ok.latency_s, 0.12);
        assert!(parse_line("time_s,outcome,latency_s", 1, 0.0)
            .unwrap()
            .is_none());
        assert!(parse_line("  # note", 1, 0.0).unwrap().is_none());
        let e = parse_line("x,success,1", 7, 0.0).unwrap_err();
        assert_eq!((e.line, e.field), (7, Some("time_s")));
        let e = parse_line("1,maybe,1", 8, 0.0).unwrap_err();
        assert_eq!(e.field, Some("outcome"));
        let e = parse_line("1,ok,-1", 9, 0.0).unwrap_err();
        assert_eq!(e.field, Some("latency_s"));
        let e = parse_line("1,ok", 10, 0.0).unwrap_err();
        assert_eq!(e.field, None);
        let e = parse_line("1,ok,1", 11, 2.0).unwrap_err();
        assert!(
            e.to_string().starts_with("trace line 11, field time_s:"),
            "{e}"
        );
    }

    /// A call's time is bounded as a run's duration is: `1e308` made a run of 1.16e303 days.
    #[test]
    fn times_stop_at_the_longest_run() {
        assert_eq!(parse_line("1e9,ok,1", 1, 0.0).unwrap().unwrap().time_s, 1e9);
        for t in ["1e308", "1000000000.5", "-1", "inf", "NaN"] {
            let e = parse_line(&format!("{t},ok,1"), 4, 0.0).unwrap_err();
            assert_eq!(
                e.to_string(),
                format!(
                    "trace line 4, field time_s: {t} is invalid: allowed 0 <= x <= 1e9 seconds \
                     (the longest run)"
                )
            );
        }
    }
}
