//! `breaker run`.

use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::{BufReader, Read as _};

use breaker::State;
use sim::{BreakerKind, RunResult, Scenario, TraceSpan};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Text,
    Json,
    Csv,
}

#[derive(Debug, Default)]
struct Opts {
    preset: Option<String>,
    scenario: Option<String>,
    trace: Option<String>,
    /// `--set` edits in order; `--seed N` is one (`seed=N`) at its place, so the last wins.
    sets: Vec<String>,
    format: Option<Format>,
    buckets: Option<usize>,
}

fn parse(args: Vec<OsString>) -> Result<Opts, String> {
    use lexopt::prelude::*;
    let mut p = lexopt::Parser::from_args(args);
    let mut o = Opts::default();
    let text = |v: OsString, flag: &str| {
        v.into_string()
            .map_err(|v| format!("{flag} {v:?}: not valid UTF-8"))
    };
    while let Some(arg) = p.next().map_err(|e| e.to_string())? {
        match arg {
            Long("preset") => once(
                &mut o.preset,
                text(p.value().map_err(|e| e.to_string())?, "--preset")?,
                "--preset",
            )?,
            Long("scenario") => once(
                &mut o.scenario,
                text(p.value().map_err(|e| e.to_string())?, "--scenario")?,
                "--scenario",
            )?,
            Long("trace") => once(
                &mut o.trace,
                text(p.value().map_err(|e| e.to_string())?, "--trace")?,
                "--trace",
            )?,
            Long("seed") => {
                let v = text(p.value().map_err(|e| e.to_string())?, "--seed")?;
                let seed: u64 = v.trim().parse().map_err(|_| {
                    let why = analysis::cli::seed_spelling(&v);
                    let why = why.unwrap_or_else(|| {
                        format!("expected a whole number 0 <= x <= {}", u64::MAX)
                    });
                    format!("--seed {v:?}: {why}")
                })?;
                o.sets.push(format!("seed={seed}"));
            }
            Long("set") => o
                .sets
                .push(text(p.value().map_err(|e| e.to_string())?, "--set")?),
            Long("format") => {
                let v = text(p.value().map_err(|e| e.to_string())?, "--format")?;
                let format = match v.as_str() {
                    "text" => Format::Text,
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    _ => return Err(format!("--format {v:?}: allowed text, json, csv")),
                };
                once(&mut o.format, format, "--format")?;
            }
            Long("buckets") => {
                let v = text(p.value().map_err(|e| e.to_string())?, "--buckets")?;
                // A whole number however written, as `analyze` reads its counts: `1e2` is 100.
                let n = v.trim().parse::<f64>().ok().filter(|x| x.fract() == 0.0);
                let n = match n {
                    Some(x) if (1.0..=100_000.0).contains(&x) => x as usize,
                    // As written: 1e300 printed as a double is 301 digits.
                    Some(_) => {
                        return Err(format!("--buckets {}: allowed 1 <= x <= 100000", v.trim()))
                    }
                    None => {
                        return Err(format!(
                            "--buckets {v:?}: expected a whole number 1 <= x <= 100000"
                        ))
                    }
                };
                once(&mut o.buckets, n, "--buckets")?;
            }
            // Answered before parsing ([`wants_help`]).
            Long("help") | Short('h') => {}
            Value(v) => {
                return Err(format!(
                    "unexpected argument {:?}: run takes options only (breaker --help)",
                    v
                ))
            }
            _ => return Err(format!("{} (breaker --help)", arg.unexpected())),
        }
    }
    Ok(o)
}

/// `--help` or `-h` anywhere: print the usage and run nothing, whatever else is wrong with the
/// line (as `breaker analyze` does); a flag given twice used to be refused before help was seen.
pub(crate) fn wants_help(args: &[OsString]) -> bool {
    args.iter().any(|a| a == "--help" || a == "-h")
}

/// Set an option that may be given once: a second `--preset` or `--format` is refused, as
/// `--preset` with `--scenario` is, rather than the last one silently winning.
pub(crate) fn once<T>(slot: &mut Option<T>, value: T, flag: &str) -> Result<(), String> {
    if slot.is_some() {
        return Err(format!("{flag}: given twice"));
    }
    *slot = Some(value);
    Ok(())
}

/// `-` for a file: standard input, as most command lines read it.
const STDIN: &str = "-";

/// The most a scenario file may hold: far past any settings, and a trace inside one of some ten
/// million calls (a longer trace streams from `--trace FILE`). `--scenario /dev/zero` read on
/// until the machine's memory was gone (15 GB in 12 s).
const SCENARIO_MAX: u64 = 256 << 20;

/// The longest line of a trace file, about (a line ended within the read buffer just past it
/// is read whole): a row is some 30 bytes, and its refusal quotes 60 of them. A file with no
/// line end (`/dev/zero`, a 2 GB binary) was read whole into one line.
const LINE_MAX: usize = 1 << 20;

fn read_file(path: &str, what: &str) -> Result<String, String> {
    let named = |e: &dyn std::fmt::Display| {
        if path == STDIN {
            format!("{what} - (standard input): {e}")
        } else {
            format!("{what} {path}: {e}")
        }
    };
    let source: Box<dyn std::io::Read> = if path == STDIN {
        Box::new(std::io::stdin())
    } else {
        Box::new(std::fs::File::open(path).map_err(|e| named(&e))?)
    };
    let mut text = String::new();
    source
        .take(SCENARIO_MAX + 1)
        .read_to_string(&mut text)
        .map_err(|e| named(&e))?;
    if text.len() as u64 > SCENARIO_MAX {
        return Err(named(&format_args!(
            "longer than {} MiB, more than any scenario holds (give a long trace with --trace \
             FILE.csv, which is read as it goes)",
            SCENARIO_MAX >> 20
        )));
    }
    Ok(text)
}

fn open(path: &str) -> Result<LineCapped<BufReader<std::fs::File>>, String> {
    std::fs::File::open(path)
        .map(|f| LineCapped::new(BufReader::new(f)))
        .map_err(|e| format!("--trace {path}: {e}"))
}

/// A reader that fails once a line passes [`LINE_MAX`] bytes with no line end, read as a
/// stream (`BufRead`, as a trace file is scanned) or whole (`read_to_end`, as a pipe is): a
/// trace's line is held whole while it is read.
struct LineCapped<R> {
    inner: R,
    lines: LineCount,
}

/// [`LineCapped`]'s count of the bytes read, apart from its reader (so that a buffer the reader
/// holds is counted where it lies, not copied).
#[derive(Default, Clone, Copy)]
struct LineCount {
    /// Bytes since the last line end.
    run: usize,
    /// The bytes so far end in a `\r`, not counted yet.
    cr: bool,
    /// A line passed the limit.
    over: bool,
}

impl<R> LineCapped<R> {
    fn new(inner: R) -> Self {
        LineCapped {
            inner,
            lines: LineCount::default(),
        }
    }

    fn too_long() -> std::io::Error {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!(
                "a line longer than {} MiB, where a trace's lines are rows of \
                 time_s,outcome,latency_s",
                LINE_MAX >> 20
            ),
        )
    }
}

impl LineCount {
    /// Count `bytes` read: `false` once a line in them, or the one they leave open, is past
    /// [`LINE_MAX`] (its end, `\n` or `\r\n`, not counted: a `\r` at the bytes' end waits for
    /// the next bytes to say whether a `\n` follows it).
    fn count(&mut self, bytes: &[u8]) -> bool {
        for (i, line) in bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            let ended = line.last() == Some(&b'\n');
            let content = if ended { &line[..line.len() - 1] } else { line };
            let held = content.last() == Some(&b'\r');
            let mut n = content.len() - usize::from(held);
            // A `\r` held from the bytes before, not followed by the line end: a byte of it.
            if i == 0 && self.cr && !(ended && content.is_empty()) {
                n += 1;
            }
            self.cr = held && !ended;
            let len = self.run.saturating_add(n);
            self.over |= len > LINE_MAX;
            self.run = if ended { 0 } else { len };
        }
        !self.over
    }
}

impl<R: std::io::Read> std::io::Read for LineCapped<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        if !self.lines.count(&buf[..n]) {
            return Err(Self::too_long());
        }
        Ok(n)
    }
}

impl<R: std::io::BufRead> std::io::BufRead for LineCapped<R> {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        if self.lines.over {
            return Err(Self::too_long());
        }
        let buf = self.inner.fill_buf()?;
        // The line being read, if it passes the limit in these bytes, is refused now, while it
        // is the line read: counted only as consumed, a line that also ended here was read
        // whole, and the next line named as the long one (a comment line of 2^20 + 1 bytes
        // made "trace line 3" of the row after it). Only the line in progress can pass the
        // limit here: a line that starts in these bytes has at most a buffer's (8 KiB).
        let line = buf
            .split_inclusive(|&b| b == b'\n')
            .next()
            .unwrap_or_default();
        let mut ahead = self.lines;
        if !ahead.count(line) {
            self.lines.over = true;
            return Err(Self::too_long());
        }
        Ok(buf)
    }

    fn consume(&mut self, amt: usize) {
        // What is consumed is the front of the buffer last filled (this reads nothing new); a
        // line past the limit fails the next fill.
        if let Ok(buf) = self.inner.fill_buf() {
            self.lines.count(&buf[..amt.min(buf.len())]);
        }
        self.inner.consume(amt);
    }
}

/// Where a scenario's own trace came from, for its messages: a `--set trace=...` (the last edit
/// of it wins), else the scenario file (`-`: standard input). `(flag, for the notes)`.
pub(crate) fn trace_source(scenario: Option<&str>, sets: &[String]) -> (String, String) {
    let set = sets
        .iter()
        .any(|e| e.split('=').next().map(str::trim) == Some("trace"));
    match scenario.filter(|_| !set) {
        Some(STDIN) => (
            "--scenario -".into(),
            "the trace in the scenario from standard input".into(),
        ),
        Some(p) => (format!("--scenario {p}"), format!("the trace in {p}")),
        None => ("--set trace".into(), "the trace given by --set".into()),
    }
}

/// Replay a trace held in memory (read from a file that can be read once, or the scenario's own
/// `trace`), named `name` in a refusal, with what its scan found.
fn replay_bytes(
    scenario: &Scenario,
    name: &str,
    bytes: &[u8],
    buckets: usize,
) -> Result<(RunResult, TraceSpan), String> {
    let named = |e: &dyn std::fmt::Display| format!("{name}: {e}");
    let timeout = scenario.callers.call_timeout;
    let span = sim::scan_trace_against(bytes, timeout).map_err(|e| named(&hinted(e)))?;
    let r = sim::replay(scenario, bytes, &span, buckets).map_err(|e| named(&e))?;
    Ok((r, span))
}

/// Replay the trace at `path`, with what its scan found ([`sim::scan_trace_against`] at the
/// scenario's call timeout). A regular file is read twice, streaming (once for its span, once
/// to replay), so memory stays bounded whatever its length. Anything else (`-`, a pipe,
/// `/dev/stdin`, `<(...)`) can be read only once: it is read into memory first, since a second
/// open would find it drained and replay no calls.
fn replay(
    scenario: &Scenario,
    path: &str,
    buckets: usize,
) -> Result<(RunResult, TraceSpan), String> {
    let named = |e: &dyn std::fmt::Display| format!("{path}: {e}");
    let timeout = scenario.callers.call_timeout;
    let from_memory = |bytes: &[u8]| replay_bytes(scenario, path, bytes, buckets);
    if path == STDIN {
        let mut bytes = Vec::new();
        LineCapped::new(std::io::stdin())
            .read_to_end(&mut bytes)
            .map_err(|e| format!("--trace - (standard input): {e}"))?;
        return from_memory(&bytes);
    }
    let regular = std::fs::metadata(path)
        .map_err(|e| format!("--trace {path}: {e}"))?
        .is_file();
    if regular {
        let span = sim::scan_trace_against(open(path)?, timeout).map_err(|e| named(&hinted(e)))?;
        let r = sim::replay(scenario, open(path)?, &span, buckets).map_err(|e| named(&e))?;
        Ok((r, span))
    } else {
        let mut bytes = Vec::new();
        open(path)?
            .read_to_end(&mut bytes)
            .map_err(|e| format!("--trace {path}: {e}"))?;
        from_memory(&bytes)
    }
}

/// Whether a message quotes a carriage return: a `\r` escape whose backslash is not itself
/// escaped (`"C:\\run"` quotes a backslash and an `r`).
fn quotes_cr(m: &str) -> bool {
    let mut backslashes = 0;
    for b in m.bytes() {
        if b == b'r' && backslashes % 2 == 1 {
            return true;
        }
        backslashes = if b == b'\\' { backslashes + 1 } else { 0 };
    }
    false
}

/// A trace's refusal with how to mend a file exported from logs, where one is known (on the
/// command line only: the page's trace box has its own help, and the wasm no bytes to spare).
pub(crate) fn hinted(e: sim::TraceError) -> String {
    let m = &e.message;
    // The refused value as the reader quoted it ("..." with \" inside) or wrote it.
    let value = m.split(" is ").next().unwrap_or("");
    let hint = match e.field {
        // A carriage return inside a line (the reader ends lines at \n, and takes \r\n): lines
        // ended by \r alone read as one.
        _ if quotes_cr(m) => {
            "a carriage return (\\r) inside a line: a file whose lines end in \\r alone (a classic \
             Mac export) reads as one line; convert its line ends first, e.g. tr '\\r' '\\n' < in.csv \
             > out.csv"
        }
        // No message of the reader's own has a semicolon: the line's (quoted) does, as a
        // spreadsheet's CSV does in a locale whose decimals take the comma (0,05;503;0,2).
        _ if m.contains(';') => {
            "fields are separated by commas and decimals written with a point (0.05), where a \
             spreadsheet in a locale with decimal commas writes semicolons: export with commas, \
             or convert, e.g. sed 's/,/./g; s/;/,/g' in.csv > out.csv"
        }
        Some("time_s") if m.contains(" is not a number of seconds") => {
            let date = |w: &str| {
                let b = w.trim_start_matches('"').as_bytes();
                b.len() >= 10 && b[..4].iter().all(u8::is_ascii_digit) && b[4] == b'-'
            };
            if value.starts_with("\"\\\"") {
                "fields are not quoted: remove the quotes"
            } else if value.contains(':') || date(value) {
                // Before a word's test: a syslog time ("May 1 12:00:00") starts with one.
                "times are seconds from the run's start (0.20), not dates or clock times: \
                 convert each to seconds after the earliest call"
            } else if value
                .strip_prefix('"')
                .is_some_and(|w| w.starts_with(|c: char| c.is_ascii_alphabetic()))
            {
                // A word where the first time goes: a header with other names.
                "a header, if any, must be time_s,outcome,latency_s; times are seconds from the \
                 run's start (0.20), and latencies seconds unless they carry a unit (120ms)"
            } else {
                return e.to_string();
            }
        }
        // Past the longest run, and finite: a Unix time in seconds, milliseconds, microseconds
        // or nanoseconds (now about 1.8e9, 1.8e12, 1.8e15 and 1.8e18; not -1, inf or nan).
        Some("time_s") if m.contains("allowed 0 <= x <= 1e9") => match value.parse::<f64>() {
            // Rebased on the first row, not the earliest call: a log stamped as each request
            // ends lists a longer call started earlier further down.
            Ok(x) if x < 0.0 => {
                "times are seconds from the run's start, none before it: subtract the earliest \
                     call's time from each, not the first row's (a log stamped as each request \
                     ends has earlier starts further down)"
            }
            Ok(x) if (1e17..1e20).contains(&x) => {
                "times are seconds from the run's start: for Unix times in nanoseconds, \
                     subtract the earliest call's time from each and divide by 1e9"
            }
            Ok(x) if (1e14..1e17).contains(&x) => {
                "times are seconds from the run's start: for Unix times in microseconds, \
                     subtract the earliest call's time from each and divide by 1e6"
            }
            Ok(x) if (1e11..1e14).contains(&x) => {
                "times are seconds from the run's start: for Unix times in milliseconds, \
                     subtract the earliest call's time from each and divide by 1000"
            }
            Ok(x) if x > 1e9 && x < 1e11 => {
                "times are seconds from the run's start: for Unix times, subtract the earliest \
                     call's time from each"
            }
            _ => return e.to_string(),
        },
        Some("time_s") if m.contains("times must not decrease") => {
            "sort the rows by time, keeping equal times in order: LC_ALL=C sort -s -t, -k1,1g \
             (a header stays first; with no header, remove a byte order mark at the file's start \
             first, or its line stays first: sed '1s/^\\xEF\\xBB\\xBF//')"
        }
        // A UTF-16 or Latin-1 export (the reader takes UTF-8, with or without its mark).
        _ if m.contains("valid UTF-8") => {
            "the file is not UTF-8 (a UTF-16 or Latin-1 export?): convert it first, e.g. iconv \
             -f UTF-16 -t UTF-8 in.csv > out.csv (-f LATIN1 for Latin-1)"
        }
        None if m.starts_with("a header must be") => {
            "times and latencies in seconds, or latencies with a unit (120ms)"
        }
        _ => return e.to_string(),
    };
    format!("{e}; {hint}")
}

/// What a replay's output says of its trace beside the run.
struct Replayed {
    /// The trace as the output names it: its file, or where the scenario's came from ("the
    /// trace in FILE", "the trace given by --set").
    path: String,
    /// The trace is the scenario's own `trace` (a file the page's "Download scenario" saved),
    /// not a `--trace` file.
    in_scenario: bool,
    span: TraceSpan,
    call_timeout: f64,
    /// Some phase of the scenario is not `fine` while the trace lasts: openings can be judged
    /// false or not.
    judged: bool,
    /// What the replay is judged against: the phases that are not fine or have a capacity, while
    /// the trace lasts (`judged_by`), if any.
    judged_by: Option<String>,
    /// Admitted calls with no result by the run's end, and admitted calls, per breaker.
    in_flight: [(u64, u64); 2],
}

impl Replayed {
    /// Lines on the trace: its calls and span, how many latencies reach the call timeout (with
    /// a hint when most do: milliseconds written bare are read as seconds), and, when no phase
    /// marks an outage, that the outage metrics cannot tell.
    fn lines(&self) -> Vec<String> {
        let sp = &self.span;
        let mut v = vec![format!(
            "replayed {}: {} {} from {} s to {} s (the seed draws nothing in a replay)",
            self.path,
            sp.records,
            if sp.records == 1 { "call" } else { "calls" },
            seconds(sp.first_s),
            seconds(sp.last_s)
        )];
        v.extend(self.timeout_line());
        v.extend(self.unjudged_line());
        v.extend(self.judged_by.clone());
        v.extend(self.in_flight_line());
        v
    }

    /// When a tenth or more of a breaker's admitted calls have no result by the run's end (it
    /// ends at the trace's last call): their results are in no metric (10,000 calls at one
    /// instant moved nothing, unsaid).
    fn in_flight_line(&self) -> Option<String> {
        let [(s, sa), (w, wa)] = self.in_flight;
        // (At least one call: a tenth of at least 1.)
        (s * 10 >= sa.max(1) || w * 10 >= wa.max(1)).then(|| {
            format!(
                "the run ends at the trace's last call: {s} of the statistical breaker's {sa} \
                 admitted calls and {w} of the window breaker's {wa} had no result by then: no \
                 breaker heard them (in_flight_at_end counts them; metrics that count a call as \
                 it is admitted, such as calls_waited_on_failure, do too)"
            )
        })
    }

    /// When no phase marks an outage while the trace lasts, that the outage metrics cannot tell.
    fn unjudged_line(&self) -> Option<String> {
        (!self.judged).then(|| {
            format!(
                "no phase marks an outage while the trace lasts (the dependency is fine \
                 throughout): every opening counts as false, and time_to_open_s and \
                 time_to_close_s have nothing to measure; give the trace's outages as phases in \
                 {} (\"dependency\": [{{\"start\": ..., \"condition\": \"outage\"}}, ...])",
                if self.in_scenario {
                    "the scenario"
                } else {
                    "a --scenario file"
                }
            )
        })
    }

    /// How many latencies reach the call timeout, if any, with a hint when most do.
    fn timeout_line(&self) -> Option<String> {
        let sp = &self.span;
        if sp.reach_timeout == 0 {
            return None;
        }
        let mut l = format!(
            "{} of {} calls not recorded as timeouts took the call timeout ({} s) or longer and \
             are replayed as timeouts",
            sp.reach_timeout,
            sp.records,
            seconds(self.call_timeout)
        );
        if self.most_reach_timeout() {
            l.push_str(
                "; bare latencies are seconds: if these are milliseconds, give them a unit (120ms)",
            );
        }
        Some(l)
    }

    /// At least half the calls took the call timeout or longer without being recorded as
    /// timeouts.
    fn most_reach_timeout(&self) -> bool {
        self.span.reach_timeout * 2 >= self.span.records
    }
}

pub(crate) fn run(args: Vec<OsString>) -> Result<String, String> {
    if wants_help(&args) {
        return Ok(crate::USAGE.to_string());
    }
    let o = parse(args)?;
    if o.scenario.as_deref() == Some(STDIN) && o.trace.as_deref() == Some(STDIN) {
        return Err("--scenario - and --trace - cannot both read standard input".into());
    }
    let scenario = settings(
        o.preset.as_deref(),
        o.scenario.as_deref(),
        &o.sets,
        o.trace.is_some(),
        "run needs --preset NAME, --scenario FILE.json or --trace FILE.csv",
        o.trace.is_some(),
    )?;
    let buckets = o.buckets.unwrap_or(100);
    // A trace in the scenario (as the page's "Download scenario" saves one) is replayed as
    // `--trace` would be, with the same notes and hints; `--trace` replaces it.
    let traced = match (&o.trace, &scenario.trace) {
        (Some(path), _) => {
            let (r, span) = replay(&scenario, path, buckets)?;
            Some((r, span, path.clone()))
        }
        (None, Some(text)) => {
            let (name, path) = trace_source(o.scenario.as_deref(), &o.sets);
            let (r, span) = replay_bytes(&scenario, &name, text.as_bytes(), buckets)?;
            Some((r, span, path))
        }
        (None, None) => None,
    };
    let (result, replayed) = match traced {
        None => (play(&scenario, buckets)?, None),
        Some((r, span, path)) => {
            // A phase that is not fine while the trace lasts (a preset's outage on day 3 of a
            // trace of minutes judges nothing).
            let judged = scenario
                .dependency
                .iter()
                .any(|p| p.condition != sim::Condition::Fine && p.start <= span.last_s);
            let call_timeout = scenario.callers.call_timeout;
            let judged_by = judged_by(&scenario.dependency, span.last_s);
            let in_flight = [&r.breakers.statistical, &r.breakers.window]
                .map(|b| (b.totals.in_flight_at_end, b.totals.admitted));
            (
                r,
                Some(Replayed {
                    path,
                    in_scenario: o.trace.is_none(),
                    span,
                    call_timeout,
                    judged,
                    judged_by,
                    in_flight,
                }),
            )
        }
    };
    let format = o.format.unwrap_or(Format::Text);
    if format != Format::Text {
        // Said in the text output itself; the JSON has `cut_at_s`, the CSV nothing; the replay's
        // notes are in neither. Not `eprintln!`, which panics when stderr cannot be written.
        use std::io::Write as _;
        let warn = |line: &str| {
            let _ = writeln!(std::io::stderr(), "breaker: warning: {line}");
        };
        if let Some(t) = result.cut_at_s {
            warn(&cut_short(t));
        }
        if let Some(line) = replayed
            .as_ref()
            .filter(|r| r.most_reach_timeout())
            .and_then(Replayed::timeout_line)
        {
            warn(&line);
        }
        // The JSON's metrics would read as judged: false openings of a real outage. (What
        // judges it, and the results still out, are the text's: a JSON run with its outages
        // marked warns of nothing, and its totals hold in_flight_at_end.)
        if let Some(line) = replayed.as_ref().and_then(Replayed::unjudged_line) {
            warn(&line);
        }
    }
    Ok(match format {
        Format::Text => text(
            &result,
            replayed.as_ref(),
            scenario.callers.count > 1 && !scenario.callers.shared_state,
        ),
        Format::Json => {
            let mut s = serde_json::to_string_pretty(&result)
                .map_err(|e| format!("cannot write JSON: {e}"))?;
            s.push('\n');
            s
        }
        Format::Csv => csv(&result),
    })
}

/// The scenario of `--preset NAME` or `--scenario FILE` (the default scenario when neither is
/// given and `default_ok`, else the error `needed`), with the `--set` edits applied in order;
/// `traced` for a `--trace` replay, whose span-dependent checks wait for the trace.
pub(crate) fn settings(
    preset: Option<&str>,
    scenario: Option<&str>,
    sets: &[String],
    default_ok: bool,
    needed: &str,
    traced: bool,
) -> Result<Scenario, String> {
    let mut base: Scenario = match (preset, scenario) {
        (Some(_), Some(_)) => return Err("use --preset or --scenario, not both".into()),
        (Some(name), None) => sim::preset_or_err(name)?,
        (None, Some(path)) => {
            let text = read_file(path, "--scenario")?;
            // A byte order mark (Notepad, PowerShell) is skipped, as the trace reader does.
            let text = text.strip_prefix('\u{feff}').unwrap_or(&text);
            Scenario::read_json(text).map_err(|e| format!("--scenario {path}: {e}"))?
        }
        (None, None) if default_ok => Scenario::default(),
        (None, None) => return Err(needed.into()),
    };
    // A `--trace` replay is checked over the trace's span once it is read, as a trace in the
    // scenario is: checked here over the duration it ignores, a half-open maximum that fits a
    // trace of a second was refused for the default hour. Checked as a traced scenario, with a
    // stand-in trace taken out again (`--trace` replaces the scenario's own).
    let own = if traced {
        base.trace.replace(String::new())
    } else {
        None
    };
    let mut s = base
        .with_sets(sets.iter().map(String::as_str))
        .map_err(|e| {
            // A range error the file has on its own (no `--set` mended or caused it) names the file.
            match (scenario, base.validate()) {
                (Some(path), Err(own)) if own.to_string() == e => format!("--scenario {path}: {e}"),
                _ => e,
            }
        })?;
    if traced {
        s.trace = own;
    }
    Ok(s)
}

/// `BREAKER_PROGRESS_AFTER`: seconds before a run shows its progress, 1 when unset; a value that
/// is not a number of seconds >= 0 is refused, naming it (it was ignored, silently, for 1 s).
fn progress_after(v: Option<std::ffi::OsString>) -> Result<f64, String> {
    let Some(v) = v else { return Ok(1.0) };
    let text = v.to_string_lossy();
    match breaker::float_parse::parse_f64(text.trim()) {
        Some(s) if s.is_finite() && s >= 0.0 => Ok(s),
        _ => Err(format!(
            "BREAKER_PROGRESS_AFTER = {:?} is invalid: allowed a number of seconds 0 <= x (unset: 1)",
            text
        )),
    }
}

/// Run `scenario` to the end. When stderr is a terminal and the run takes more than a second,
/// a progress line there says how far it is (it is cleared at the end; stdout is untouched), so
/// a long run (a year of heavy traffic is billions of calls) is not silent.
fn play(scenario: &Scenario, buckets: usize) -> Result<RunResult, String> {
    use std::io::{IsTerminal as _, Write as _};
    let sim = sim::Sim::new(scenario).map_err(|e| e.to_string())?;
    // After how many seconds a run shows progress (an environment knob, so a test can see the
    // line without depending on how fast the machine is). Read, and refused when it does not
    // read, whether or not there is a terminal to show it on.
    let after = progress_after(std::env::var_os("BREAKER_PROGRESS_AFTER"))?;
    if !std::io::stderr().is_terminal() {
        return Ok(sim.run_to_end(buckets));
    }
    let start = std::time::Instant::now();
    let mut shown = false;
    let result = sim.run_to_end_reporting(buckets, 1 << 22, |s| {
        let secs = start.elapsed().as_secs_f64();
        if secs >= after {
            shown = true;
            let done = s.progress();
            let left = if done > 0.0 {
                format!(", about {:.0} s left", secs * (1.0 - done) / done)
            } else {
                String::new()
            };
            let mut e = std::io::stderr().lock();
            let _ = write!(
                e,
                "\r\x1b[Kbreaker run: {:.1}% of the run's time, {:.1}M calls, {secs:.0} s{left}",
                100.0 * done,
                s.calls() as f64 / 1e6
            );
            let _ = e.flush();
        }
    });
    if shown {
        let _ = write!(std::io::stderr(), "\r\x1b[K");
    }
    Ok(result)
}

/// What a replay is judged against, as the page says it beside its metrics (www/src/tracenote.js
/// `phasesNote`): the phases within the trace's run `[0, end]` that are not fine (the outage
/// metrics are measured from them) or have a capacity (calls over it are shed as overloads,
/// recorded successes too). None when no phase is either.
fn judged_by(phases: &[sim::Phase], end: f64) -> Option<String> {
    let span = |i: usize| {
        let from = phases[i].start;
        match phases.get(i + 1).map(|p| p.start) {
            Some(to) if to < end => format!("from {} s to {} s", seconds(from), seconds(to)),
            _ => format!("from {} s on", seconds(from)),
        }
    };
    let within = |i: &usize| phases[*i].start <= end;
    let marked: Vec<String> = (0..phases.len())
        .filter(within)
        .filter(|&i| phases[i].condition != sim::Condition::Fine)
        .map(|i| {
            let c = match phases[i].condition {
                sim::Condition::Outage => "outage",
                _ => "degraded",
            };
            format!("{c} {}", span(i))
        })
        .collect();
    let capped: Vec<String> = (0..phases.len())
        .filter(within)
        .filter(|&i| phases[i].capacity > 0.0)
        .map(|i| {
            format!(
                "a capacity of {} calls/s {}",
                seconds(phases[i].capacity),
                span(i)
            )
        })
        .collect();
    if marked.is_empty() && capped.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if !marked.is_empty() {
        parts.push(format!(
            "the dependency counts as {}, not fine (no opening there is a false alarm; the \
             times to open and close are measured from its outages)",
            marked.join(", ")
        ));
    }
    if !capped.is_empty() {
        parts.push(format!(
            "{} {} the calls over it as overloads, recorded successes too",
            capped.join(", "),
            if capped.len() > 1 { "shed" } else { "sheds" }
        ));
    }
    Some(format!(
        "this replay is judged by the scenario's phases (a trace records no health of its own): \
         {}; where they are not the trace's own outages, set them so, with capacity 0",
        parts.join("; ")
    ))
}

/// Seconds as Rust's shortest form (`60`, `0.25`), with an exponent outside 1e-3..1e15: `{}`
/// alone never uses one, so a valid duration of 1e-300 s printed 300 zeros.
fn seconds(x: f64) -> String {
    if x == 0.0 || (1e-3..1e15).contains(&x.abs()) {
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

fn opt(v: Option<f64>) -> String {
    v.map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into())
}

/// What a run cut short at `t` says (see `sim::MAX_EVENTS`).
fn cut_short(t: f64) -> String {
    format!(
        "cut short at {} s: a breaker changed state {} times, the most a run keeps; longer \
         waits let a run go further",
        seconds(t),
        sim::MAX_EVENTS
    )
}

/// `s` with its control characters and bidirectional overrides escaped as Rust writes them
/// (`\u{1b}`, `\r`): a scenario's name is printed to a terminal, where an escape sequence in it
/// could move the cursor, rewrite lines or set the clipboard (`--format json` escapes them).
fn printable(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if c.is_control() || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    out
}

/// The run as text; `copies`: each caller has a breaker of its own (the state and time rows are
/// caller 0's).
fn text(r: &RunResult, replayed: Option<&Replayed>, copies: bool) -> String {
    let mut out = String::new();
    let name = if r.name.is_empty() {
        "scenario".to_string()
    } else {
        printable(&r.name)
    };
    let _ = writeln!(
        out,
        "{name}: seed {}, {} {} over {} s, trace {}",
        r.seed,
        r.calls,
        if r.calls == 1 { "call" } else { "calls" },
        seconds(r.end_s),
        &sim::trace_hash(r)[..16]
    );
    for line in replayed.map(Replayed::lines).unwrap_or_default() {
        let _ = writeln!(out, "{line}");
    }
    if let Some(t) = r.cut_at_s {
        let _ = writeln!(out, "{}", cut_short(t));
    }
    // The project's rule: every number says what it is. Here all are one run's.
    let _ = writeln!(
        out,
        "simulated below: every count, time, rate, score and the closed line (it follows the \
         run's traffic), measured on this one run (the same scenario and {} give the same \
         run); exact: the window's thresholds and Wald's upper and lower lines, from the \
         settings; scores and lines in nats",
        if replayed.is_some() { "trace" } else { "seed" }
    );
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "{:<26} {:>14} {:>14}",
        "metric", "statistical", "window"
    );
    let (s, w) = (&r.breakers.statistical.metrics, &r.breakers.window.metrics);
    let rows: [(&str, String, String); 11] = [
        ("openings", s.openings.to_string(), w.openings.to_string()),
        (
            "false_openings",
            s.false_openings.to_string(),
            w.false_openings.to_string(),
        ),
        (
            "calls_waited_on_failure",
            s.calls_waited_on_failure.to_string(),
            w.calls_waited_on_failure.to_string(),
        ),
        (
            "good_calls_to_fallback",
            s.good_calls_to_fallback.to_string(),
            w.good_calls_to_fallback.to_string(),
        ),
        (
            "failed_while_unhealthy",
            s.failed_while_unhealthy.to_string(),
            w.failed_while_unhealthy.to_string(),
        ),
        (
            "calls_rejected",
            s.calls_rejected.to_string(),
            w.calls_rejected.to_string(),
        ),
        (
            "late_results_ignored",
            s.late_results_ignored.to_string(),
            w.late_results_ignored.to_string(),
        ),
        (
            "late_results_in_half_open",
            s.late_results_in_half_open.to_string(),
            w.late_results_in_half_open.to_string(),
        ),
        (
            "dropped_updates",
            s.dropped_updates.to_string(),
            w.dropped_updates.to_string(),
        ),
        (
            "time_to_open_s",
            opt(s.time_to_open_s),
            opt(w.time_to_open_s),
        ),
        (
            "time_to_close_s",
            opt(s.time_to_close_s),
            opt(w.time_to_close_s),
        ),
    ];
    for (k, a, b) in rows {
        let _ = writeln!(out, "{k:<26} {a:>14} {b:>14}");
    }
    // Where the run leaves each breaker, and how long it kept calls out: caller 0's copy (the
    // only one with shared state or one caller; the others' are in the events).
    let [(s_state, s_out), (w_state, w_out)] =
        BreakerKind::ALL.map(|k| copy_zero(&r.breakers.get(k).events, r.end_s));
    let (s_state, w_state) = (s_state.as_str(), w_state.as_str());
    let _ = writeln!(out, "{:<26} {s_state:>14} {w_state:>14}", "state_at_end");
    let _ = writeln!(
        out,
        "{:<26} {s_out:>14.2} {w_out:>14.2}",
        "time_not_closed_s"
    );
    if copies {
        let _ = writeln!(
            out,
            "(state_at_end and time_not_closed_s: caller 0's breaker; each caller has its own)"
        );
    }
    for kind in BreakerKind::ALL {
        let events = &r.breakers.get(kind).events;
        let _ = writeln!(out, "\n{} events: {}", kind.as_str(), events.len());
        const SHOW: usize = 40;
        for e in events.iter().take(SHOW) {
            let _ = writeln!(
                out,
                "  {:>12.3} s  {:>9} -> {:<9} gen {:<4} {}",
                e.t_s,
                e.from.as_str(),
                e.to.as_str(),
                e.generation,
                e.reason
            );
        }
        if events.len() > SHOW {
            let _ = writeln!(
                out,
                "  ... {} more (use --format json)",
                events.len() - SHOW
            );
        }
    }
    out
}

/// Caller 0's copy of a breaker: its state at `end` and the seconds before it that it was open
/// or half-open, from its changes (in time order).
fn copy_zero(events: &[sim::Event], end: f64) -> (State, f64) {
    let (mut state, mut since, mut out) = (State::Closed, 0.0, 0.0);
    for e in events.iter().filter(|e| e.caller == 0 && e.t_s <= end) {
        if state != State::Closed {
            out += e.t_s - since;
        }
        (state, since) = (e.to, e.t_s);
    }
    if state != State::Closed {
        out += end - since;
    }
    (state, out)
}

fn num(x: f64) -> String {
    if x.is_nan() {
        String::new()
    } else {
        format!("{x}")
    }
}

/// The series: one row per bucket, `t0_s,t1_s`, then each breaker's columns prefixed with its
/// name (`statistical_level_min`, ..., `window_late_ignored`). Empty cells where a value does not
/// apply.
fn csv(r: &RunResult) -> String {
    let mut out = String::from("t0_s,t1_s");
    for kind in BreakerKind::ALL {
        for c in sim::Series::COLUMNS {
            let _ = write!(out, ",{}_{c}", kind.as_str());
        }
    }
    out.push('\n');
    let s = &r.breakers.statistical.series;
    let w = &r.breakers.window.series;
    let (sc, wc) = (s.columns(), w.columns());
    // Each bound computed once, from the series' start: a row's t1_s is the next row's t0_s to
    // the bit, and the last row's is the series' own t1_s (t0 + bucket_s, rounded apart, missed
    // both by an ulp in a quarter of the rows).
    let bound = |i: usize| {
        if i == s.len() {
            s.t1_s
        } else {
            s.t0_s + i as f64 * s.bucket_s
        }
    };
    for i in 0..s.len() {
        let _ = write!(out, "{},{}", bound(i), bound(i + 1));
        for col in sc.iter().chain(wc.iter()) {
            let _ = write!(out, ",{}", num(col[i]));
        }
        out.push('\n');
    }
    out
}
