//! Helpers shared by the command line's tests.

use std::process::Command;

/// `breaker <args>`'s stdout; the run must succeed (its stderr is shown if not).
pub fn stdout(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}
