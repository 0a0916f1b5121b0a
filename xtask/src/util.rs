//! Small process and file helpers shared by the commands.

use std::env;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;

pub type Res<T> = Result<T, Box<dyn std::error::Error>>;

/// An error with a message for the user.
pub fn fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(msg.into().into())
}

/// The workspace root (the parent of `xtask/`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("xtask lives inside the workspace")
        .to_path_buf()
}

/// Where `cargo install` puts binaries: `$CARGO_INSTALL_ROOT/bin`, `$CARGO_HOME/bin`, or
/// `~/.cargo/bin`.
pub fn cargo_bin_dir() -> PathBuf {
    let set = |v: &str| env::var_os(v).filter(|h| !h.is_empty()).map(PathBuf::from);
    match set("CARGO_INSTALL_ROOT").or_else(|| set("CARGO_HOME")) {
        Some(h) => h.join("bin"),
        None => PathBuf::from(env::var_os("HOME").unwrap_or_default()).join(".cargo/bin"),
    }
}

/// Puts `~/.cargo/bin` first on PATH for every child we start (moving it there when it is
/// further down), so the tools `setup` installs (wasm-bindgen, wasm-pack, geckodriver) are the
/// ones found by us, by wasm-pack and by npm scripts, even when another copy (an older
/// wasm-bindgen in /usr/local/bin) comes earlier on the caller's PATH. Called once at
/// start-up, before any thread exists.
pub fn prepare_env() {
    let old = env::var_os("PATH").unwrap_or_default();
    if let Some(new) = path_with_first(&old, &cargo_bin_dir()) {
        env::set_var("PATH", new);
    }
}

/// `path` with `first` as its first entry and nowhere else; None when it already is first.
fn path_with_first(path: &OsStr, first: &Path) -> Option<std::ffi::OsString> {
    let mut paths: Vec<PathBuf> = env::split_paths(path).collect();
    if paths.first().map(PathBuf::as_path) == Some(first) {
        return None;
    }
    paths.retain(|p| p != first);
    paths.insert(0, first.to_path_buf());
    env::join_paths(paths).ok()
}

/// The cargo that runs us (the `CARGO` variable cargo sets), else `cargo`.
pub fn cargo() -> Command {
    Command::new(env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// First executable called `name` on PATH.
pub fn which(name: &str) -> Option<PathBuf> {
    let path = env::var_os("PATH")?;
    env::split_paths(&path)
        .map(|d| d.join(name))
        .find(|p| is_executable(p))
}

fn is_executable(p: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    p.metadata()
        .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        .unwrap_or(false)
}

/// The command line as text, for logs, with the variables set for it (`RUSTDOCFLAGS=..`).
pub fn show(cmd: &Command) -> String {
    let mut s = String::new();
    for (k, v) in cmd.get_envs() {
        if let Some(v) = v {
            s.push_str(&format!("{}={} ", k.to_string_lossy(), quote(v)));
        }
    }
    s.push_str(&cmd.get_program().to_string_lossy());
    for a in cmd.get_args() {
        s.push(' ');
        s.push_str(&quote(a));
    }
    if let Some(dir) = cmd.get_current_dir() {
        s = format!("(cd {} && {s})", dir.display());
    }
    s
}

fn quote(a: &OsStr) -> String {
    let a = a.to_string_lossy();
    if !a.is_empty()
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_=./:@+,".contains(c))
    {
        a.into_owned()
    } else {
        format!("'{}'", a.replace('\'', "'\\''"))
    }
}

/// Runs `prog args` quietly; its trimmed stdout if it ran and succeeded.
pub fn output<I, S>(prog: &str, args: I) -> Option<String>
where
    I: IntoIterator<Item = S>,
    S: AsRef<OsStr>,
{
    let out = Command::new(prog)
        .args(args)
        .stdin(Stdio::null())
        .stderr(Stdio::null())
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// Runs a command with inherited output; an error if it fails.
pub fn run(cmd: &mut Command) -> Res<()> {
    println!("$ {}", show(cmd));
    let _ = std::io::stdout().flush();
    let status = cmd
        .stdin(Stdio::null())
        .status()
        .map_err(|e| format!("could not start `{}`: {e}", show(cmd)))?;
    if status.success() {
        Ok(())
    } else {
        fail(format!("`{}` failed ({status})", show(cmd)))
    }
}

/// Runs a command, echoing its stdout and stderr as they come, and returns its
/// status with everything it printed (both streams, line by line).
pub fn run_tee(cmd: &mut Command) -> Res<(ExitStatus, String)> {
    println!("$ {}", show(cmd));
    let _ = std::io::stdout().flush();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("could not start `{}`: {e}", show(cmd)))?;
    let log = Arc::new(Mutex::new(String::new()));
    let out = child.stdout.take().expect("piped");
    let err = child.stderr.take().expect("piped");
    let t1 = tee(out, log.clone(), false);
    let t2 = tee(err, log.clone(), true);
    let status = child.wait()?;
    let _ = t1.join();
    let _ = t2.join();
    let text = log.lock().map(|s| s.clone()).unwrap_or_default();
    Ok((status, text))
}

fn tee<R: Read + Send + 'static>(
    r: R,
    log: Arc<Mutex<String>>,
    to_stderr: bool,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut r = BufReader::new(r);
        let mut buf = Vec::new();
        loop {
            buf.clear();
            match r.read_until(b'\n', &mut buf) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    if to_stderr {
                        let _ = std::io::stderr().write_all(&buf);
                    } else {
                        let _ = std::io::stdout().write_all(&buf);
                    }
                    if let Ok(mut l) = log.lock() {
                        l.push_str(&String::from_utf8_lossy(&buf));
                    }
                }
            }
        }
    })
}

/// Removes ANSI colour/cursor escapes, so output can be parsed.
pub fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            if chars.peek() == Some(&'[') {
                chars.next();
                // CSI: parameters, then one final byte in '@'..='~'.
                for c in chars.by_ref() {
                    if ('@'..='~').contains(&c) {
                        break;
                    }
                }
            } else {
                chars.next();
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// Human-readable byte count.
pub fn human(bytes: u64) -> String {
    if bytes >= 1024 * 1024 {
        format!("{:.2} MiB", bytes as f64 / (1024.0 * 1024.0))
    } else if bytes >= 1024 {
        format!("{:.1} KiB", bytes as f64 / 1024.0)
    } else {
        format!("{bytes} B")
    }
}

/// The versions of a package recorded in Cargo.lock (usually one).
pub fn lock_versions(lock: &str, package: &str) -> Vec<String> {
    let want = format!("name = \"{package}\"");
    let mut out = Vec::new();
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line.trim() == want {
            if let Some(v) = lines.next().and_then(|l| {
                l.trim()
                    .strip_prefix("version = \"")
                    .and_then(|r| r.strip_suffix('"'))
            }) {
                out.push(v.to_string());
            }
        }
    }
    out
}

/// A temporary folder of the command's own for a child that starts browsers: `TMPDIR` points
/// there ([`PrivateTmp::give`]), and it is removed, with whatever the child left, when dropped.
///
/// chromedriver makes a 23 MB profile (`org.chromium.Chromium.scoped_dir.*`) in `TMPDIR` for
/// each session and Chromium a folder for its singleton socket; quit the way
/// wasm-bindgen-test-runner quits them, both stay: each `cargo xtask test` left 8 profiles and 6
/// folders (about 180 MB) in /tmp. Made in the system's temporary folder (or /tmp when that is
/// long), not under `target/`: Chromium's socket path, about 46 bytes below it, has to fit in
/// 107. A folder left by a run that was killed (its process gone) is removed by the next.
pub struct PrivateTmp(PathBuf);

const PRIVATE_TMP: &str = "breaker-tmp-";

impl PrivateTmp {
    /// A fresh, empty `<temp>/breaker-tmp-<pid>-<name>`, readable by this user only.
    pub fn new(name: &str) -> Res<PrivateTmp> {
        let mut base = env::temp_dir();
        if base.as_os_str().len() > 24 && Path::new("/tmp").is_dir() {
            base = PathBuf::from("/tmp");
        }
        sweep_dead(&base, &[PRIVATE_TMP]);
        let dir = base.join(format!("{PRIVATE_TMP}{}-{name}", std::process::id()));
        if dir.exists() {
            std::fs::remove_dir_all(&dir)?;
        }
        let mut b = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut b, 0o700);
        b.create(&dir)?; // not create_all: a folder someone made in between is an error
        Ok(PrivateTmp(dir))
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Point `cmd`'s temporary folder (`TMPDIR`, and `TMP`/`TEMP` as Windows reads them) here.
    pub fn give(&self, cmd: &mut Command) {
        for var in ["TMPDIR", "TMP", "TEMP"] {
            cmd.env(var, &self.0);
        }
    }
}

impl Drop for PrivateTmp {
    fn drop(&mut self) {
        // A browser the child started can outlive it by a moment (a driver killed, its browser
        // still closing): a few tries.
        for i in 0..5 {
            match std::fs::remove_dir_all(&self.0) {
                Ok(()) => return,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return,
                Err(e) if i == 4 => {
                    eprintln!("warning: could not remove {}: {e}", self.0.display());
                }
                Err(_) => std::thread::sleep(std::time::Duration::from_millis(300)),
            }
        }
    }
}

/// Remove the folders in `base` named `PREFIX` + a process id (+ `-...`) for one of `prefixes`
/// whose process is gone: the private temporary folders of a run killed before its drop, a
/// killed `dist`'s half-built page. Only where a process can be looked up (/proc); elsewhere
/// they stay.
pub fn sweep_dead(base: &Path, prefixes: &[&str]) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = std::fs::read_dir(base) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| prefixes.iter().find_map(|p| n.strip_prefix(p)))
            .and_then(|r| r.split('-').next())
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(e.path());
        }
    }
}

/// The cargo target directory of the workspace (honours CARGO_TARGET_DIR and
/// config), from `cargo metadata`.
pub fn target_dir() -> Res<PathBuf> {
    let out = cargo()
        .args(["metadata", "--format-version", "1", "--no-deps"])
        .current_dir(root())
        .stderr(Stdio::inherit())
        .output()?;
    if !out.status.success() {
        return fail("`cargo metadata` failed");
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout)?;
    match v["target_directory"].as_str() {
        Some(s) => Ok(PathBuf::from(s)),
        None => fail("`cargo metadata` gave no target_directory"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_tmp_is_given_fresh_and_removed_with_its_contents() {
        let t = PrivateTmp::new("unit-test").unwrap();
        let dir = t.0.clone();
        std::fs::create_dir_all(dir.join("left/behind")).unwrap();
        std::fs::write(dir.join("left/behind/f"), "x").unwrap();
        // A second one of the same name starts empty.
        std::mem::forget(t); // left, as by a run that was killed
                             // One of a process that is gone is swept away by the next.
        let gone = dir.with_file_name(format!("{PRIVATE_TMP}4294967-unit-test"));
        std::fs::create_dir_all(gone.join("x")).unwrap();
        let t = PrivateTmp::new("unit-test").unwrap();
        assert_eq!(std::fs::read_dir(&t.0).unwrap().count(), 0);
        let mut c = Command::new("sh");
        t.give(&mut c);
        let out = c.args(["-c", "echo $TMPDIR"]).output().unwrap();
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            dir.to_str().unwrap()
        );
        assert!(!gone.exists(), "swept");
        drop(t);
        assert!(!dir.exists());
    }

    #[test]
    fn lock_versions_finds_exact_name() {
        let lock = "[[package]]\nname = \"wasm-bindgen\"\nversion = \"0.2.130\"\n\n\
                    [[package]]\nname = \"wasm-bindgen-shared\"\nversion = \"0.2.130\"\n";
        assert_eq!(lock_versions(lock, "wasm-bindgen"), vec!["0.2.130"]);
        assert!(lock_versions(lock, "serde").is_empty());
    }

    #[test]
    fn cargo_bin_goes_first_on_path() {
        let bin = Path::new("/h/.cargo/bin");
        let first = |p: &str| path_with_first(OsStr::new(p), bin).map(|s| s.into_string());
        assert_eq!(
            first("/usr/bin:/bin"),
            Some(Ok("/h/.cargo/bin:/usr/bin:/bin".into()))
        );
        // Further down (a stray wasm-bindgen in /usr/local/bin would win): moved up.
        assert_eq!(
            first("/usr/local/bin:/h/.cargo/bin:/bin:/h/.cargo/bin"),
            Some(Ok("/h/.cargo/bin:/usr/local/bin:/bin".into()))
        );
        assert_eq!(first("/h/.cargo/bin:/usr/bin"), None);
    }

    #[test]
    fn strips_colours() {
        assert_eq!(strip_ansi("\u{1b}[32m5 passed\u{1b}[39m"), "5 passed");
    }
}
