//! Project automation for the breaker playground: `cargo xtask <command>`.
//!
//! See `cargo xtask help` and README.md. Std plus `flate2` (gzip sizes) and
//! `serde_json` (cargo metadata, www/vendor.json).

mod bench;
mod dist;
mod serve;
mod setup;
mod test;
mod util;

use std::process::ExitCode;
use util::{fail, Res};

const HELP: &str = "\
cargo xtask <command> [options]

commands:
  setup [--native|--build]  install what is missing (default: everything the tests need;
                            --build: only what dist/serve need; --native: rustfmt, clippy)
  dist                      build the page into www/dist/ (release wasm, wasm-bindgen,
                            page sources, vendored npm files) and print its sizes
  serve [--port N] [--no-build]
                            setup + dist, then serve www/dist on http://127.0.0.1:N
                            (default 8000, or the next free port)
  test [--native] [--clean-clone]
                            setup, then every suite: fmt, clippy, cargo test, breaker
                            features, doc, wasm-pack tests in headless Chromium and
                            Firefox, end-to-end tests;
                            --native: only fmt, clippy, cargo test, breaker features, doc;
                            --clean-clone: the same in a fresh clone (fresh target dir)
  bench [--runs N] [--quick] [--steps a,b]
                            measure every figure of issue 8 (native simulator beside the
                            bare loop, memory, instructions per call under callgrind,
                            analysis, sizes, the bench page in headless Chromium and
                            Firefox) and print them beside their targets; JSON in
                            target/bench/bench.json and target/bench/history/
                            (docs/benchmarks.md)
  bench --compare OLD.json [NEW.json]
                            two bench runs' figures side by side (NEW: the latest)
  help                      this text";

fn main() -> ExitCode {
    util::prepare_env();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match dispatch(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn dispatch(args: &[String]) -> Res<()> {
    let (cmd, rest) = match args.split_first() {
        Some((c, r)) => (c.as_str(), r),
        None => ("help", &[][..]),
    };
    let flags: Vec<&str> = rest.iter().map(String::as_str).collect();
    match cmd {
        "setup" => {
            let scope = match flags.as_slice() {
                [] => setup::Scope::Full,
                ["--build"] => setup::Scope::Build,
                ["--native"] => setup::Scope::Native,
                _ => return usage(cmd, rest),
            };
            setup::setup(scope)
        }
        "dist" => {
            if !flags.is_empty() {
                return usage(cmd, rest);
            }
            setup::setup(setup::Scope::Build)?;
            dist::dist()
        }
        "serve" => {
            let mut port = 8000u16;
            let mut build = true;
            let mut it = flags.iter();
            while let Some(f) = it.next() {
                match *f {
                    "--port" => {
                        port = it
                            .next()
                            .and_then(|p| p.parse().ok())
                            .ok_or("--port needs a number from 0 to 65535")?;
                    }
                    "--no-build" => build = false,
                    _ => return usage(cmd, rest),
                }
            }
            if build {
                setup::setup(setup::Scope::Build)?;
                dist::dist()?;
            } else if !dist::dist_dir().join("index.html").is_file() {
                // Nothing to serve: said before "serving", not as 404s after it.
                return Err(
                    "www/dist/index.html does not exist: run `cargo xtask dist`, or serve \
                     without --no-build"
                        .into(),
                );
            }
            let listener = serve::bind(port)?;
            let addr = listener.local_addr()?;
            println!(
                "serving {} at http://{addr}/  (Ctrl-C to stop)",
                dist::dist_dir().display()
            );
            serve::serve_forever(listener, dist::dist_dir())
        }
        "test" => {
            let mut opts = test::Opts::default();
            for f in &flags {
                match *f {
                    "--native" => opts.native = true,
                    "--clean-clone" => opts.clean_clone = true,
                    _ => return usage(cmd, rest),
                }
            }
            test::test(&opts)
        }
        "bench" => bench::bench(&flags),
        "help" | "--help" | "-h" => {
            println!("{HELP}");
            Ok(())
        }
        _ => fail(format!("unknown command `{cmd}`\n\n{HELP}")),
    }
}

fn usage(cmd: &str, rest: &[String]) -> Res<()> {
    fail(format!(
        "unexpected options for `{cmd}`: {}\n\n{HELP}",
        rest.join(" ")
    ))
}
