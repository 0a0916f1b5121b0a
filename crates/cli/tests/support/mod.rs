//! Helpers shared by the command line's tests. (Each test file uses some of them.)
#![allow(dead_code)]

use std::process::{Command, Output};

/// `breaker <args>`'s output; the run must succeed (its stderr is shown if not).
pub fn success(args: &[&str]) -> Output {
    let out = Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// `breaker <args>`'s stdout; the run must succeed (its stderr is shown if not).
pub fn stdout(args: &[&str]) -> String {
    String::from_utf8(success(args).stdout).unwrap()
}

/// A refusal's stderr: status 2, nothing on stdout.
pub fn refusal(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(args)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}");
    assert!(out.stdout.is_empty(), "{args:?}");
    String::from_utf8(out.stderr).unwrap()
}
