//! `breaker`: list the presets, run the simulator, analyze settings.
//!
//! ```text
//! breaker presets
//! breaker run [--preset NAME | --scenario FILE.json] [--trace FILE.csv] [--seed N]
//!             [--set key=value ...] [--format text|json|csv] [--buckets N]
//! breaker analyze ...            (see `breaker analyze --help`)
//! breaker analyze curves [--preset NAME | --scenario FILE.json] [--set key=value ...]
//!                        [--format text|json]
//! ```
//!
//! Bad input prints one line on stderr and exits with status 2, as does a result that cannot be
//! written to stdout (a full disk); a closed pipe (`| head`) is not an error.
#![forbid(unsafe_code)]

mod curves;
mod run;

use std::io::Write;
use std::process::ExitCode;

const USAGE: &str = "\
usage: breaker presets
       breaker --version
       breaker run [--preset NAME | --scenario FILE.json] [--trace FILE.csv] [--seed N]
                   [--set key=value ...] [--format text|json|csv] [--buckets N]
       breaker analyze ...            (see breaker analyze --help)

run needs a preset, a scenario or a trace; a trace alone replays on the default settings.

run options:
  --preset NAME         start from a named scenario (`breaker presets` lists them)
  --scenario FILE.json  start from a scenario file (the page's settings JSON; unknown keys
                        are an error; - reads standard input)
  --trace FILE.csv      replay a recorded trace (time_s,outcome,latency_s) instead of the
                        generated traffic, with the preset's or scenario's settings if given
                        (- reads standard input; a pipe such as <(...) works too); it
                        replaces a trace the scenario file holds, which is replayed alike
  --seed N              the run's seed (the same as --set seed=N: the last given wins)
  --set key=value       edit a dotted path of the scenario JSON, e.g.
                        --set window.permitted_number_of_calls_in_half_open_state=4
                        --set statistical.fine_rate=2% --set dependency.1.latency=200ms;
                        an object edits the keys it gives ('traffic={\"daily_swing\":0.5}'),
                        a list replaces the whole list
  --format FMT          text (default), json, or csv (the downsampled series)
  --buckets N           buckets of the series (default 100)

A generated run (not a trace replay) longer than a second shows its progress on stderr
when that is a terminal (BREAKER_PROGRESS_AFTER=S: after S seconds instead of 1).";

fn main() -> ExitCode {
    // Safety net: whatever happens, one line and status 2, never a backtrace.
    std::panic::set_hook(Box::new(|info| {
        let msg = info
            .payload()
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| info.payload().downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        say(&format!("internal error: {msg}"));
    }));
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    let outcome = std::panic::catch_unwind(|| dispatch(args));
    match outcome {
        Ok(Ok(out)) => match print(&out) {
            Ok(()) => ExitCode::SUCCESS,
            // A closed pipe (`| head`) is not an error worth a message.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            // Anything else (a full disk) is: a script must not take an empty file for a result.
            Err(e) => {
                say(&format!("cannot write the result to stdout: {e}"));
                ExitCode::from(2)
            }
        },
        Ok(Err(e)) => {
            say(&e);
            ExitCode::from(2)
        }
        Err(_) => ExitCode::from(2),
    }
}

/// The result on stdout, ending in a newline.
fn print(out: &str) -> std::io::Result<()> {
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    if !out.is_empty() && !out.ends_with('\n') {
        stdout.write_all(b"\n")?;
    }
    stdout.flush()
}

/// One line `breaker: ...` on stderr, its control characters escaped: a newline a user typed
/// into a flag reads as `\n` rather than cutting the message there. Not `eprintln!`, which
/// panics when stderr cannot be written (a full disk), and in the panic hook that aborts the
/// process.
fn say(line: &str) {
    let mut escaped = String::with_capacity(line.len());
    for c in line.chars() {
        if c.is_control() {
            escaped.extend(c.escape_default());
        } else {
            escaped.push(c);
        }
    }
    let _ = writeln!(std::io::stderr(), "breaker: {escaped}");
}

fn dispatch(args: Vec<std::ffi::OsString>) -> Result<String, String> {
    let mut it = args.into_iter();
    let cmd = match it.next() {
        Some(c) => c
            .into_string()
            .map_err(|c| format!("command {c:?} is not valid UTF-8"))?,
        None => return Err("no command: use presets, run or analyze (breaker --help)".into()),
    };
    let rest: Vec<std::ffi::OsString> = it.collect();
    match cmd.as_str() {
        "presets" => {
            if matches!(rest.first().and_then(|a| a.to_str()), Some("--help" | "-h")) {
                return Ok(USAGE.to_string());
            }
            if let Some(a) = rest.first() {
                return Err(format!("presets takes no arguments, got {a:?}"));
            }
            Ok(presets_text())
        }
        "run" => run::run(rest),
        "analyze" if rest.first().and_then(|a| a.to_str()) == Some("curves") => {
            curves::run(rest.into_iter().skip(1).collect())
        }
        "analyze" => {
            let args = rest
                .into_iter()
                .map(|a| {
                    a.into_string()
                        .map_err(|a| format!("argument {a:?} is not valid UTF-8"))
                })
                .collect::<Result<Vec<String>, String>>()?;
            analyze(&args)
        }
        "-h" | "--help" | "help" => Ok(USAGE.to_string()),
        "-V" | "--version" => match rest.first() {
            // As `presets` refuses one: a script's `breaker --version --json` printed the
            // version and exited 0.
            Some(a) => Err(format!("{cmd} takes no arguments, got {a:?}")),
            None => Ok(format!("breaker {}", env!("CARGO_PKG_VERSION"))),
        },
        other => Err(format!(
            "unknown command {other:?}: use presets, run or analyze (breaker --help)"
        )),
    }
}

/// `breaker analyze ...`: the analysis crate's command line, and `curves` (which reads a
/// scenario, which that crate does not know: the wasm's copy of its command line never lists it).
fn analyze(args: &[String]) -> Result<String, String> {
    const CURVES: &str = "curves (the page's five analysis charts for a scenario: breaker \
                          analyze curves --help)";
    match analysis::cli::run(args) {
        Ok(usage) if analysis::cli::is_help(args) => Ok(match args.first() {
            Some(cmd) if analysis::cli::reads(cmd, "format").is_some() => command_help(cmd),
            _ => format!("{usage}\n\nand from a scenario's settings:\n  {CURVES}"),
        }),
        // Only the command's own refusals (a value quoted in a flag's message may say anything).
        Err(e)
            if e.starts_with("analyze: missing command")
                || e.starts_with("analyze: unknown command") =>
        {
            Err(format!("{e}; or {CURVES}"))
        }
        r => r,
    }
}

/// `breaker analyze <command> --help`: the command's line of the usage and only the flags it
/// reads (each command printed the whole usage, every flag, and a refused flag's message points
/// here).
fn command_help(cmd: &str) -> String {
    let mut out = format!("usage: breaker analyze {cmd} [flags]\n\n");
    let (mut in_flags, mut keep) = (false, false);
    for line in analysis::cli::USAGE.lines() {
        if !in_flags {
            if line.starts_with(&format!("  {cmd} ")) {
                out.push_str(line);
                out.push_str("\n\n");
            } else if line.starts_with("flags (") {
                in_flags = true;
                out.push_str(
                    "flags it reads (rates as 0.05 or 5%, durations as 30d, 1h, 5s; each given \
                     once; another is\nrefused; breaker analyze --help lists every command's):\n",
                );
            }
            continue;
        }
        if let Some(flag) = line.strip_prefix("  --") {
            let name = flag.split_whitespace().next().unwrap_or_default();
            keep = analysis::cli::reads(cmd, name) == Some(true);
        }
        if keep {
            out.push_str(line);
            out.push('\n');
        }
    }
    // Without the last newline, as the whole usage (printing adds one).
    out.truncate(out.trim_end().len());
    out
}

fn presets_text() -> String {
    let width = sim::presets()
        .iter()
        .map(|p| p.name.len())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for p in sim::presets() {
        out.push_str(&format!("{:width$}  {}\n", p.name, p.story));
    }
    out
}
