//! `cargo xtask setup`: install what the build and the tests need, once.
//!
//! Every step checks first and prints one line (`ok: ...`, `installing: ...`,
//! `skip: ...`), so a second run does nothing and takes about a second.
//! Nothing is downloaded from outside crates.io, npm and Debian: browsers and
//! drivers come from apt (chromium, chromium-driver, firefox-esr) and from
//! `cargo install geckodriver`; `cargo xtask test` hands wasm-pack their paths
//! (`--chromedriver`, `--geckodriver`).

use crate::util::{self, cargo, fail, output, run, which, Res};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::SystemTime;

/// How much a command needs.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Scope {
    /// rustfmt and clippy (the native test suites).
    Native,
    /// + the wasm target, the wasm-bindgen CLI, the page's npm packages (dist, serve).
    Build,
    /// + wasm-pack, browsers and their drivers, the e2e npm packages (test).
    Full,
}

pub const WASM_TARGET: &str = "wasm32-unknown-unknown";

/// The wasm-pack the tests run with, installed when none is (a CI machine gets this one, not
/// whatever is newest that day). One already installed is used, with a note if it differs:
/// setup does not replace a developer's own.
const WASM_PACK: &str = "0.15.1";
/// The geckodriver the Firefox tests run with (as [`WASM_PACK`]).
const GECKODRIVER: &str = "0.37.1";

pub fn setup(scope: Scope) -> Res<()> {
    println!("== setup ({scope:?})");
    components()?;
    if scope >= Scope::Build {
        wasm_target()?;
        wasm_bindgen()?;
    }
    if scope >= Scope::Full {
        cargo_tool("wasm-pack", "wasm-pack", WASM_PACK)?;
        cargo_tool("geckodriver", "geckodriver", GECKODRIVER)?;
        browsers()?;
    }
    if scope >= Scope::Build {
        npm_ci(&util::root().join("www"))?;
        wasm_opt_note();
    }
    if scope >= Scope::Full {
        node()?;
        npm_ci(&util::root().join("tests/e2e"))?;
    }
    Ok(())
}

/// The oldest Node.js that runs the end-to-end tests: `npm test` in tests/e2e passes
/// `--test-timeout` (20.11) and `--test-concurrency` (20.10) to `node --test`; Debian bookworm's
/// nodejs 18 stops at "bad option". (selenium-webdriver declares node >= 22 but runs on 20.)
pub const MIN_NODE: (u32, u32) = (20, 11);

/// `node --version` ("v20.20.2") -> (20, 20).
fn node_version(v: &str) -> Option<(u32, u32)> {
    let mut parts = v.trim().trim_start_matches('v').split('.');
    Some((parts.next()?.parse().ok()?, parts.next()?.parse().ok()?))
}

const NODE_FIX: &str =
    "install Node.js 20.11 or newer (`npm install -g node@22` takes it from npm; \
     Debian bookworm's nodejs package is 18)";

fn node() -> Res<()> {
    let Some(v) = output("node", ["--version"]) else {
        return fail(format!("node not found: {NODE_FIX}"));
    };
    match node_version(&v) {
        Some(have) if have >= MIN_NODE => {
            println!("ok: node {v}");
            Ok(())
        }
        _ => fail(format!(
            "node {v} is older than {}.{}, which the end-to-end tests need: {NODE_FIX}",
            MIN_NODE.0, MIN_NODE.1
        )),
    }
}

fn components() -> Res<()> {
    let mut missing = Vec::new();
    for (comp, sub) in [("rustfmt", "fmt"), ("clippy", "clippy")] {
        let ran = cargo().args([sub, "--version"]).output();
        if ran.is_ok_and(|o| o.status.success()) {
            println!("ok: {comp}");
        } else {
            missing.push(comp);
        }
    }
    if !missing.is_empty() {
        println!("installing: rustup component {}", missing.join(" "));
        run(Command::new("rustup")
            .args(["component", "add"])
            .args(&missing))?;
    }
    Ok(())
}

fn wasm_target() -> Res<()> {
    let installed = output("rustup", ["target", "list", "--installed"]);
    match installed {
        Some(list) if list.lines().any(|l| l.trim() == WASM_TARGET) => {
            println!("ok: rust target {WASM_TARGET}");
            Ok(())
        }
        Some(_) => {
            println!("installing: rust target {WASM_TARGET}");
            run(Command::new("rustup").args(["target", "add", WASM_TARGET]))
        }
        None => fail(format!(
            "rustup not found: install the {WASM_TARGET} target for your toolchain by hand"
        )),
    }
}

/// The wasm-bindgen version pinned in Cargo.lock (None while no crate uses it).
pub fn pinned_wasm_bindgen() -> Res<Option<String>> {
    let lock = fs::read_to_string(util::root().join("Cargo.lock"))
        .map_err(|e| format!("reading Cargo.lock: {e}"))?;
    let versions = util::lock_versions(&lock, "wasm-bindgen");
    if versions.len() > 1 {
        println!(
            "warning: Cargo.lock holds several wasm-bindgen versions ({}); using {}",
            versions.join(", "),
            versions[0]
        );
    }
    Ok(versions.into_iter().next())
}

/// `wasm-bindgen --version` ("wasm-bindgen 0.2.130") -> "0.2.130".
pub fn installed_wasm_bindgen() -> Option<String> {
    let v = output("wasm-bindgen", ["--version"])?;
    v.split_whitespace().nth(1).map(str::to_string)
}

/// The wasm-bindgen CLI must match the `wasm-bindgen` crate exactly: the two
/// share a schema, and wasm-pack would otherwise download its own copy.
fn wasm_bindgen() -> Res<()> {
    let Some(want) = pinned_wasm_bindgen()? else {
        println!("skip: wasm-bindgen CLI (no crate depends on wasm-bindgen in Cargo.lock yet)");
        return Ok(());
    };
    match installed_wasm_bindgen() {
        Some(have) if have == want => {
            println!("ok: wasm-bindgen {want}");
            return Ok(());
        }
        Some(have) => println!("installing: wasm-bindgen-cli {want} (found {have})"),
        None => println!("installing: wasm-bindgen-cli {want}"),
    }
    cargo_install("wasm-bindgen-cli", Some(&want))?;
    match installed_wasm_bindgen() {
        Some(have) if have == want => {
            println!("ok: wasm-bindgen {want}");
            Ok(())
        }
        other => fail(format!(
            "installed wasm-bindgen-cli {want}, but the wasm-bindgen on PATH ({}) is {}: \
             remove it, or set `install.root` so that `cargo install` puts binaries in {}",
            which("wasm-bindgen").map_or("none".into(), |p| p.display().to_string()),
            other.unwrap_or_else(|| "not runnable".into()),
            util::cargo_bin_dir().display()
        )),
    }
}

/// A tool installed with `cargo install` at the `pinned` version when it is not on PATH.
fn cargo_tool(bin: &str, krate: &str, pinned: &str) -> Res<()> {
    // `wasm-pack 0.15.1`, `geckodriver 0.37.1 (...)`: the second word.
    let version = || {
        output(bin, ["--version"]).map(|v| {
            let first = v.lines().next().unwrap_or(bin).to_string();
            let n = first.split_whitespace().nth(1).unwrap_or("").to_string();
            (first, n)
        })
    };
    if let Some((line, v)) = version() {
        if v == pinned {
            println!("ok: {line}");
        } else {
            println!(
                "ok: {line} (note: the tests are pinned to {krate} {pinned}, which setup \
                 installs where none is; `cargo install {krate} --version ={pinned} --locked` \
                 for the same runs as CI)"
            );
        }
        return Ok(());
    }
    println!("installing: {krate} {pinned} (cargo install)");
    cargo_install(krate, Some(pinned))?;
    match version() {
        Some((line, v)) if v == pinned => {
            println!("ok: {line}");
            Ok(())
        }
        Some((line, _)) => fail(format!(
            "`cargo install {krate} --version ={pinned}` ran but `{bin} --version` says {line}"
        )),
        None => fail(format!(
            "`cargo install {krate}` ran but `{bin}` still does not run"
        )),
    }
}

/// `cargo install --locked`, and if that cannot resolve (a locked dependency
/// missing from the registry index, as happened with wasm-bindgen-cli 0.2.130
/// and webpki-roots 1.0.11), once more without `--locked`.
fn cargo_install(krate: &str, version: Option<&str>) -> Res<()> {
    let base = |locked: bool| {
        let mut c = cargo();
        c.args(["install", krate, "--force"]);
        if let Some(v) = version {
            c.arg("--version").arg(format!("={v}"));
        }
        if locked {
            c.arg("--locked");
        }
        c
    };
    if run(&mut base(true)).is_ok() {
        return Ok(());
    }
    println!("note: `cargo install {krate} --locked` failed; retrying without --locked");
    run(&mut base(false))
}

struct Need {
    what: &'static str,
    package: &'static str,
    candidates: &'static [&'static str],
}

const BROWSERS: &[Need] = &[
    Need {
        what: "chromium",
        package: "chromium",
        candidates: &["/usr/bin/chromium", "chromium"],
    },
    Need {
        what: "chromedriver",
        package: "chromium-driver",
        candidates: &["/usr/bin/chromedriver", "chromedriver"],
    },
    Need {
        what: "firefox",
        package: "firefox-esr",
        // The ESR first, as tests/e2e/browsers.mjs looks for it (Debian's /usr/bin/firefox
        // is a script that runs it; another Firefox there would be tested instead).
        candidates: &[
            "/usr/bin/firefox-esr",
            "firefox-esr",
            "/usr/bin/firefox",
            "firefox",
        ],
    },
];

fn find(candidates: &[&str]) -> Option<PathBuf> {
    candidates.iter().find_map(|c| {
        if c.starts_with('/') {
            Path::new(c).is_file().then(|| PathBuf::from(c))
        } else {
            which(c)
        }
    })
}

/// Path of the chromedriver binary (after setup).
pub fn chromedriver() -> Option<PathBuf> {
    find(BROWSERS[1].candidates)
}

/// Path of the geckodriver binary (after setup).
pub fn geckodriver() -> Option<PathBuf> {
    which("geckodriver")
}

/// Path of the chromium binary (after setup).
pub fn chromium() -> Option<PathBuf> {
    find(BROWSERS[0].candidates)
}

/// Path of the firefox binary (after setup).
pub fn firefox() -> Option<PathBuf> {
    find(BROWSERS[2].candidates)
}

fn browsers() -> Res<()> {
    let mut missing = Vec::new();
    // The `--version` lines of chromium and chromedriver, in BROWSERS' order.
    let mut versions = Vec::new();
    for need in BROWSERS {
        match find(need.candidates) {
            Some(p) => {
                let version = version_line(&p);
                println!("ok: {} {} ({version})", need.what, p.display());
                versions.push(version);
            }
            None => missing.push(need.package),
        }
    }
    if !missing.is_empty() {
        apt_install("browsers", &missing)?;
        versions.clear();
        for need in BROWSERS {
            let Some(p) = find(need.candidates) else {
                return fail(format!(
                    "apt-get installed {}, but {} is still missing",
                    missing.join(" "),
                    need.what
                ));
            };
            versions.push(version_line(&p));
        }
        println!("ok: browsers installed");
    }
    chromedriver_matches(&versions[0], &versions[1])
}

/// The last line of `p --version` (chromium prints warnings before it), or "".
fn version_line(p: &Path) -> String {
    output(p.to_str().unwrap_or_default(), ["--version"])
        .and_then(|v| v.lines().last().map(str::to_string))
        .unwrap_or_default()
}

/// The major version in `chromium --version` / `chromedriver --version` output
/// ("Chromium 156.0.8078.114 built on ..." / "ChromeDriver 156.0.8078.114 (...)") -> 156.
fn chrome_major(v: &str) -> Option<u32> {
    v.split_whitespace()
        .find(|w| w.contains('.') && w.starts_with(|c: char| c.is_ascii_digit()))?
        .split('.')
        .next()?
        .parse()
        .ok()
}

/// chromedriver only drives the Chromium of its own major version ("session not created: This
/// version of ChromeDriver only supports Chrome version N", seen only when the browser tests
/// start): Debian's chromium-driver always matches Debian's chromium, another copy may not.
fn chromedriver_matches(browser: &str, driver: &str) -> Res<()> {
    let (b, d) = (BROWSERS[0].candidates, BROWSERS[1].candidates);
    let (b, d) = (
        find(b).unwrap_or_default().display().to_string(),
        find(d).unwrap_or_default().display().to_string(),
    );
    match (chrome_major(browser), chrome_major(driver)) {
        (Some(bm), Some(dm)) if bm != dm => fail(format!(
            "{d} is chromedriver {dm}, but {b} is Chromium {bm}: they must be the same major \
             version; `apt-get install -y chromium chromium-driver` (as root) brings both to Debian's"
        )),
        (Some(_), Some(_)) => Ok(()),
        _ => {
            println!(
                "warning: cannot compare the versions of {b} ({browser:?}) and {d} ({driver:?})"
            );
            Ok(())
        }
    }
}

/// Install Debian `packages` with apt-get when running as root; otherwise an error that says
/// the command to run. `what` names them in messages.
fn apt_install(what: &str, packages: &[&str]) -> Res<()> {
    let list = packages.join(" ");
    if output("id", ["-u"]).as_deref() != Some("0") {
        return fail(format!(
            "missing {what}: run `sudo apt-get update && sudo apt-get install -y {list}` \
             (Debian packages), then the command again"
        ));
    }
    println!("installing: {list} (apt-get)");
    // A fresh machine's unattended upgrades (or another setup) may hold apt's locks at boot:
    // waited for, up to 10 minutes, rather than failing at once with "Could not get lock".
    // `install` waits on dpkg's lock itself (DPkg::Lock::Timeout); `update` takes the lists'
    // lock without waiting (apt 2.6), so it is tried again while that is what it says.
    for attempt in 1..=60 {
        let mut c = Command::new("apt-get");
        c.arg("update").env("DEBIAN_FRONTEND", "noninteractive");
        let (status, text) = util::run_tee(&mut c)?;
        if status.success() {
            break;
        }
        if !text.contains("Could not get lock") || attempt == 60 {
            return fail(format!("`apt-get update` failed ({status})"));
        }
        println!("apt's lists are locked by another apt: trying again in 10 s ({attempt} of 60)");
        std::thread::sleep(std::time::Duration::from_secs(10));
    }
    run(Command::new("apt-get")
        .args(["-o", "DPkg::Lock::Timeout=600"])
        .args(["install", "-y", "--no-install-recommends"])
        .args(packages)
        .env("DEBIAN_FRONTEND", "noninteractive"))
}

/// valgrind (for `cargo xtask bench`'s instruction counts), installed from Debian if missing.
pub fn valgrind() -> Res<PathBuf> {
    if let Some(p) = which("valgrind") {
        return Ok(p);
    }
    apt_install("valgrind", &["valgrind"])?;
    which("valgrind").ok_or_else(|| "apt-get installed valgrind, but it is not on PATH".into())
}

fn mtime(p: &Path) -> Option<SystemTime> {
    fs::metadata(p).and_then(|m| m.modified()).ok()
}

/// Whether `node_modules` holds what `package-lock.json` asks for, from npm's record of its
/// install (node_modules/.package-lock.json): every package of the lock that is not optional
/// is there at the same version, and nothing else; and each of those packages' folders holds
/// its package.json (the record stays when a folder is deleted: a removed binaryen passed as
/// "ok", and `dist` shipped the wasm without wasm-opt, 177 kB gzip). None when there is no
/// record or a file does not parse.
fn modules_match_lock(dir: &Path) -> Option<bool> {
    let read = |p: &Path| -> Option<serde_json::Value> {
        serde_json::from_str(&fs::read_to_string(p).ok()?).ok()
    };
    let lock = read(&dir.join("package-lock.json"))?;
    let have = read(&dir.join("node_modules/.package-lock.json"))?;
    let (lock, have) = (lock["packages"].as_object()?, have["packages"].as_object()?);
    let same = |a: &serde_json::Value, b: &serde_json::Value| a["version"] == b["version"];
    let wanted = lock.iter().filter(|(k, _)| !k.is_empty()).all(|(k, v)| {
        v["optional"] == true
            || (have.get(k).is_some_and(|h| same(h, v))
                && (v["link"] == true || dir.join(k).join("package.json").is_file()))
    });
    let known = have
        .iter()
        .all(|(k, v)| lock.get(k).is_some_and(|l| same(l, v)));
    Some(wanted && known)
}

/// Why `npm ci` must run in `dir` (which has a package-lock.json): `Some(" (reason)")`, or
/// `Some("")` when there is no node_modules; `None` when node_modules holds what the lock asks
/// for. npm records each install in node_modules/.package-lock.json; without that record, a
/// lock that lists packages is not installed, whatever the folder's date (an emptied or
/// half-deleted node_modules, newer than the lock, passed, and `dist` then shipped the wasm
/// without wasm-opt).
fn npm_state(dir: &Path) -> Option<&'static str> {
    let modules = dir.join("node_modules");
    let record = mtime(&modules.join(".package-lock.json"));
    let stamp = match record {
        Some(r) => Some(r),
        None if lock_lists_packages(dir) => {
            return Some(if modules.exists() {
                " (node_modules has no record of an install)"
            } else {
                ""
            });
        }
        None => mtime(&modules),
    };
    match (
        stamp,
        mtime(&dir.join("package-lock.json")),
        modules_match_lock(dir),
    ) {
        (Some(_), _, Some(false)) => Some(" (node_modules differs from the lock)"),
        (Some(s), Some(l), _) if s >= l => None,
        (Some(_), _, _) => Some(" (node_modules older than the lock)"),
        (None, _, _) => Some(""),
    }
}

/// Whether `dir`'s package-lock.json lists any package (beyond the project's own entry).
fn lock_lists_packages(dir: &Path) -> bool {
    fs::read_to_string(dir.join("package-lock.json"))
        .ok()
        .and_then(|t| serde_json::from_str::<serde_json::Value>(&t).ok())
        .and_then(|v| {
            v["packages"]
                .as_object()
                .map(|p| p.keys().any(|k| !k.is_empty()))
        })
        .unwrap_or(false)
}

/// `npm ci` in `dir` when it has a package-lock.json and its node_modules is missing, older
/// than the lock, or holds other packages or versions than the lock (npm records each install
/// in node_modules/.package-lock.json).
pub fn npm_ci(dir: &Path) -> Res<()> {
    let name = dir
        .strip_prefix(util::root())
        .unwrap_or(dir)
        .display()
        .to_string();
    let lock = dir.join("package-lock.json");
    if !lock.is_file() {
        if dir.join("package.json").is_file() {
            println!("skip: npm packages in {name} (package.json without package-lock.json: run `npm install` there and commit the lock)");
        } else {
            println!("skip: npm packages in {name} (no package-lock.json)");
        }
        return Ok(());
    }
    match npm_state(dir) {
        None => {
            println!("ok: npm packages in {name}");
            return Ok(());
        }
        Some(why) => println!("installing: npm ci in {name}{why}"),
    }
    if which("npm").is_none() {
        return fail(format!("npm not found: {NODE_FIX}"));
    }
    // Every package here is a tool of the build or the tests (devDependencies): included
    // whatever NODE_ENV=production or npm's `omit=dev` say (which left tests/e2e with no
    // node_modules, and each setup installed the same nothing again). selenium-webdriver
    // declares node >= 22 and runs on the 20.11 MIN_NODE allows: a user's `engine-strict`
    // would refuse it.
    run(Command::new("npm")
        .args([
            "ci",
            "--include=dev",
            "--engine-strict=false",
            "--no-audit",
            "--no-fund",
        ])
        .current_dir(dir)
        // Browsers come from apt; no npm package may download one.
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .env("PUPPETEER_SKIP_DOWNLOAD", "1"))?;
    if modules_match_lock(dir) == Some(false) {
        return fail(format!(
            "`npm ci` in {name} left node_modules unlike its package-lock.json (an npm \
             setting that omits packages?): see `npm config list` there"
        ));
    }
    Ok(())
}

/// The oldest binaryen whose `wasm-opt` dist runs: the version wasm-pack 0.15 itself downloads.
/// Older ones can break wasm-bindgen's output: Debian bookworm's binaryen 108, even on a plain
/// read/write round trip, turns the externref table into one the page cannot fill
/// ("WebAssembly.Table.set(): Argument 1 is invalid for table"), so the simulator never starts.
pub const MIN_BINARYEN: u32 = 130;

/// The `wasm-opt` dist runs: npm's `binaryen` package from `www/node_modules` (pinned by
/// www's lock file, so every machine gets the same one), else one on PATH, if it is binaryen
/// [`MIN_BINARYEN`] or newer. Older ones (Debian's 108) break wasm-bindgen's externref table.
pub fn wasm_opt() -> Result<PathBuf, String> {
    let npm = util::root().join("www/node_modules/.bin/wasm-opt");
    let candidates: Vec<PathBuf> = [Some(npm).filter(|p| p.is_file()), which("wasm-opt")]
        .into_iter()
        .flatten()
        .collect();
    if candidates.is_empty() {
        return Err("wasm-opt not found (npm ci in www installs binaryen)".into());
    }
    let mut why = Vec::new();
    for p in candidates {
        // "wasm-opt version 108" or "wasm-opt version 132 (version_132)".
        let v = output(p.to_str().unwrap_or("wasm-opt"), ["--version"]).unwrap_or_default();
        let n: Option<u32> = v
            .split_whitespace()
            .skip_while(|w| *w != "version")
            .nth(1)
            .and_then(|w| w.parse().ok());
        match n {
            Some(n) if n >= MIN_BINARYEN => return Ok(p),
            Some(n) => why.push(format!(
                "{} is binaryen {n}, older than {MIN_BINARYEN}: it breaks wasm-bindgen's tables",
                p.display()
            )),
            None => why.push(format!("{}: unreadable version {v:?}", p.display())),
        }
    }
    Err(why.join("; "))
}

/// binaryen's `wasm-opt` shrinks the page's wasm by about 30% raw, 15% gzip (measured 2026-12-01:
/// 484,983 -> 342,637 bytes raw); dist runs it when it is recent enough (see [`wasm_opt`]).
fn wasm_opt_note() {
    match wasm_opt() {
        Ok(p) => println!("ok: wasm-opt {} (dist runs it)", p.display()),
        Err(why) => println!("skip: {why} (optional; dist ships the unoptimized wasm)"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chrome_majors() {
        let b = "Chromium 156.0.8078.114 built on Debian GNU/Linux 12 (bookworm)";
        let d = "ChromeDriver 156.0.8078.114 (ea19f9737303a76e07b53c6a1eec43355aca3b1d-refs/branch-heads/8078_108@{#5})";
        assert_eq!(chrome_major(b), Some(156));
        assert_eq!(chrome_major(d), Some(156));
        assert_eq!(chrome_major("ChromeDriver 120.0.6099.71 (abc)"), Some(120));
        assert_eq!(chrome_major("chromium"), None);
    }

    #[test]
    fn node_modules_against_the_lock() {
        let dir = std::env::temp_dir().join(format!("xtask-npm-{}", std::process::id()));
        fs::create_dir_all(dir.join("node_modules")).unwrap();
        let lock = r#"{"packages": {"": {"name": "x"},
            "node_modules/a": {"version": "1.2.0"},
            "node_modules/fsevents": {"version": "2.3.3", "optional": true}}}"#;
        fs::write(dir.join("package-lock.json"), lock).unwrap();
        let installed = |a: &str| {
            let text = format!(r#"{{"packages": {{"node_modules/a": {{"version": "{a}"}}}}}}"#);
            fs::write(dir.join("node_modules/.package-lock.json"), text).unwrap();
            modules_match_lock(&dir)
        };
        // Recorded, but its folder gone (deleted by hand): not installed.
        assert_eq!(installed("1.2.0"), Some(false));
        fs::create_dir_all(dir.join("node_modules/a")).unwrap();
        fs::write(dir.join("node_modules/a/package.json"), "{}").unwrap();
        assert_eq!(installed("1.2.0"), Some(true));
        // Installed from an older lock, though newer on disk (a cache restored after checkout).
        assert_eq!(installed("1.1.0"), Some(false));
        fs::write(
            dir.join("node_modules/.package-lock.json"),
            r#"{"packages": {"node_modules/a": {"version": "1.2.0"}, "node_modules/b": {"version": "1.0.0"}}}"#,
        )
        .unwrap();
        assert_eq!(modules_match_lock(&dir), Some(false));
        fs::remove_file(dir.join("node_modules/.package-lock.json")).unwrap();
        assert_eq!(modules_match_lock(&dir), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn an_emptied_node_modules_is_installed_again() {
        let dir = std::env::temp_dir().join(format!("xtask-npm-empty-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let lock = r#"{"packages": {"": {"name": "x"}, "node_modules/a": {"version": "1.2.0"}}}"#;
        fs::write(dir.join("package-lock.json"), lock).unwrap();
        assert_eq!(npm_state(&dir), Some(""), "no node_modules");
        // Emptied (a half-finished `npm ci`, a clean that kept the folder): newer than the lock.
        fs::create_dir_all(dir.join("node_modules")).unwrap();
        assert_eq!(
            npm_state(&dir),
            Some(" (node_modules has no record of an install)")
        );
        let record = r#"{"packages": {"node_modules/a": {"version": "1.2.0"}}}"#;
        fs::write(dir.join("node_modules/.package-lock.json"), record).unwrap();
        assert_eq!(
            npm_state(&dir),
            Some(" (node_modules differs from the lock)"),
            "recorded, its folder missing"
        );
        fs::create_dir_all(dir.join("node_modules/a")).unwrap();
        fs::write(dir.join("node_modules/a/package.json"), "{}").unwrap();
        assert_eq!(npm_state(&dir), None, "installed");
        // A lock with no packages needs no record (the folder newer than the lock is enough).
        fs::remove_dir_all(dir.join("node_modules")).unwrap();
        fs::write(dir.join("package-lock.json"), r#"{"packages": {"": {}}}"#).unwrap();
        fs::create_dir_all(dir.join("node_modules")).unwrap();
        assert_eq!(npm_state(&dir), None);
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn node_versions() {
        assert_eq!(node_version("v20.20.2"), Some((20, 20)));
        assert_eq!(node_version("v18.20.4\n"), Some((18, 20)));
        assert!(node_version("v18.20.4").unwrap() < MIN_NODE);
        assert!(node_version("v20.11.0").unwrap() >= MIN_NODE);
        assert!(node_version("v22.1.0").unwrap() >= MIN_NODE);
        assert_eq!(node_version("node"), None);
    }
}
