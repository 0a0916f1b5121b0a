//! `--scenario FILE.json` as files come from editors.

use std::process::Command;

/// A UTF-8 byte order mark (Notepad, PowerShell's `Set-Content -Encoding UTF8`) is skipped, as
/// for a trace; it was refused as "expected value at line 1 column 1", pointing at nothing
/// visible.
#[test]
fn a_byte_order_mark_is_skipped() {
    // In cargo's folder for integration tests' files, not the system's (left there run after run).
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("breaker-cli-bom");
    std::fs::create_dir_all(&dir).unwrap();
    let json = r#"{"seed": 7, "duration": "10m"}"#;
    let plain = dir.join("plain.json");
    let bom = dir.join("bom.json");
    std::fs::write(&plain, json).unwrap();
    std::fs::write(&bom, format!("\u{feff}{json}")).unwrap();
    let run = |p: &std::path::Path| {
        Command::new(env!("CARGO_BIN_EXE_breaker"))
            .args(["run", "--scenario", p.to_str().unwrap(), "--format", "json"])
            .output()
            .unwrap()
    };
    let (a, b) = (run(&plain), run(&bom));
    assert!(a.status.success());
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    assert_eq!(a.stdout, b.stdout);
}
