//! Where the results go: a failed write of the result is an error a script can see (not status
//! 0 with nothing written), a closed pipe (`| head -1`) is not, and an unwritable stderr never
//! aborts the process.

use std::process::{Command, Stdio};

#[cfg(unix)]
fn full() -> Option<std::fs::File> {
    std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .ok()
}

/// `breaker run ... > out.json` on a full disk wrote nothing and exited 0: a CI step saw success
/// and an empty file. Now one line on stderr and a non-zero status.
#[cfg(unix)]
#[test]
fn a_result_that_cannot_be_written_fails() {
    for args in [
        &["presets"][..],
        &["run", "--preset", "recovery-warmup", "--format", "json"],
        &["analyze", "drift"],
    ] {
        let Some(dev_full) = full() else { return };
        let out = Command::new(env!("CARGO_BIN_EXE_breaker"))
            .args(args)
            .stdout(dev_full)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(
            err.starts_with("breaker: cannot write the result to stdout: "),
            "{args:?}: {err}"
        );
    }
}

/// A reader that stops early (`| head -1`) is not an error: status 0, nothing on stderr.
#[cfg(unix)]
#[test]
fn a_closed_pipe_is_not_an_error() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(["run", "--preset", "normal-week", "--format", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Close the read end before the run is done.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// An error message that cannot be written (stderr on a full disk) aborted the process
/// (status 134, a core dump): `eprintln!` panicked inside the panic hook.
#[cfg(unix)]
#[test]
fn an_unwritable_stderr_does_not_abort() {
    let Some(dev_full) = full() else { return };
    let out = Command::new(env!("CARGO_BIN_EXE_breaker"))
        .args(["run", "--preset", "nope"])
        .stderr(dev_full)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
