//! `cargo xtask dist`: the static page in `www/dist/`.
//!
//! Layout of `www/dist/` (a folder any static server can serve, no network):
//! - `pkg/breaker_wasm.js`, `pkg/breaker_wasm_bg.wasm` — `wasm-bindgen --target web`
//!   output for `crates/wasm` (import `./pkg/breaker_wasm.js` from the page), with a
//!   `package.json` (from `crates/wasm/package.template.json`, workspace version) and the crate's
//!   README, so `npm publish www/dist/pkg` publishes it;
//! - the page sources: `www/*.{html,js,mjs,css,json,svg,png,ico,webmanifest}`
//!   (except the npm files `package.json`, `package-lock.json` and `vendor.json`) and the
//!   folders `www/src/`, `www/embed/`, `www/assets/`, copied as they are, except that the
//!   scripts lose their comments (terser keeps names and layout; see `strip_comments`);
//! - vendored npm files listed in `www/vendor.json`, an object mapping a path under
//!   `www/node_modules/` to a path under `www/dist/`, or to `{"to": path, "module_of": name}`
//!   for a package's minified classic script whose top level is `var name=...`: it is copied
//!   with `export default name;` appended, an ES module (uPlot ships its minified build only as
//!   a script; its ES module is unminified, 41.7 kB gzip against 22.0 kB).

use crate::setup::{self, WASM_TARGET};
use crate::util::{self, cargo, fail, human, run, Res};
use flate2::write::GzEncoder;
use flate2::Compression;
use std::fs;
use std::io::Write;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The cargo profile of the page's wasm (in the workspace's Cargo.toml: the release profile at
/// opt-level 2, measured smaller than 3 with the simulator as fast).
const WASM_PROFILE: &str = "wasm-release";

/// Top-level file extensions copied from `www/`.
const PAGE_EXTS: &[&str] = &[
    "html",
    "js",
    "mjs",
    "css",
    "json",
    "svg",
    "png",
    "ico",
    "webmanifest",
];
/// Top-level files in `www/` that are not part of the page.
const NOT_PAGE: &[&str] = &["package.json", "package-lock.json", "vendor.json"];
/// Folders of `www/` copied whole.
const PAGE_DIRS: &[&str] = &["src", "embed", "assets"];

pub fn dist_dir() -> PathBuf {
    util::root().join("www/dist")
}

pub fn dist() -> Res<()> {
    let root = util::root();
    let www = root.join("www");
    let out = dist_dir();
    println!("== dist -> {}", out.display());

    // 1. Release wasm (the `wasm-release` profile).
    if setup::pinned_wasm_bindgen()?.is_none() {
        return fail(
            "Cargo.lock has no wasm-bindgen: crates/wasm must depend on wasm-bindgen before \
             the page can be built",
        );
    }
    let wasm = build_wasm("breaker-wasm")?;

    // 2. A fresh folder beside www/dist, put in its place only when whole: a server (or a
    // test run) reading www/dist meanwhile keeps the last page (but for the moment between
    // two renames), and a failed build leaves it. Named by this process, so two builds at
    // once do not fill one folder; those of builds whose process is gone are removed.
    util::sweep_dead(&www, &[".dist-new-", ".dist-old-"]);
    let new = www.join(format!(".dist-new-{}", std::process::id()));
    if new.exists() {
        fs::remove_dir_all(&new).map_err(|e| format!("removing {}: {e}", new.display()))?;
    }
    fs::create_dir_all(&new)?;
    if let Err(e) = fill(&root, &www, &new, &wasm) {
        let _ = fs::remove_dir_all(&new);
        return Err(e);
    }
    let old = www.join(format!(".dist-old-{}", std::process::id()));
    if out.exists() {
        if let Err(e) = fs::rename(&out, &old) {
            let _ = fs::remove_dir_all(&new);
            return fail(format!("moving {} aside: {e}", out.display()));
        }
    }
    if let Err(e) = fs::rename(&new, &out) {
        // The last page back in its place, if it was there.
        if old.exists() && !out.exists() {
            let _ = fs::rename(&old, &out);
        }
        let _ = fs::remove_dir_all(&new);
        return fail(format!("moving the new page to {}: {e}", out.display()));
    }
    if old.exists() {
        fs::remove_dir_all(&old).map_err(|e| format!("removing {}: {e}", old.display()))?;
    }

    // 7. Sizes.
    report_sizes(&out.join("pkg/breaker_wasm_bg.wasm"), &out)?;
    Ok(())
}

/// Steps 3 to 6 of [`dist`]: the page, from the built `wasm`, in the empty folder `out`.
fn fill(root: &Path, www: &Path, out: &Path, wasm: &Path) -> Res<()> {
    // 3. JS bindings.
    let pkg = out.join("pkg");
    run(Command::new("wasm-bindgen")
        .args(["--target", "web", "--out-dir"])
        .arg(&pkg)
        .arg(wasm))?;
    let bg = pkg.join("breaker_wasm_bg.wasm");
    wasm_opt(&bg);
    npm_package(root, &pkg)?;

    // 4. Page sources.
    let mut copied = 0usize;
    if www.is_dir() {
        for entry in fs::read_dir(www)? {
            let p = entry?.path();
            let name = p.file_name().and_then(|n| n.to_str()).unwrap_or_default();
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or_default();
            if p.is_file() && PAGE_EXTS.contains(&ext) && !NOT_PAGE.contains(&name) {
                fs::copy(&p, out.join(name))?;
                copied += 1;
            }
        }
        for d in PAGE_DIRS {
            let src = www.join(d);
            if src.is_dir() {
                copied += copy_tree(&src, &out.join(d))?;
            }
        }
    }
    if !www.join("index.html").is_file() {
        println!("warning: www/index.html does not exist yet; dist has no page to open");
    }
    println!("copied {copied} page files");

    // 5. Vendored npm files.
    vendor(www, out)?;

    // 6. The page's own scripts without their comments (www/src keeps them).
    strip_comments(www, out)
}

/// `node www/tools/strip-comments.mjs` over the page's own scripts in `out`: `src/`, `embed/` and
/// the top-level `.js`/`.mjs`. Not `pkg/` (wasm-bindgen's output, published to npm as it is) nor
/// `vendor/` (minified already). terser prints each file back with its names and layout: the
/// comments were a third of the scripts' gzip bytes (a ninth of the page's). terser comes from
/// `www/node_modules`, which setup's `npm ci` fills.
fn strip_comments(www: &Path, out: &Path) -> Res<()> {
    if !www.join("node_modules/terser/package.json").is_file() {
        return fail(
            "terser is not in www/node_modules: run `cargo xtask setup --build` (npm ci in www)",
        );
    }
    let mut files = Vec::new();
    for d in ["src", "embed"] {
        if out.join(d).is_dir() {
            walk(&out.join(d), &mut files)?;
        }
    }
    for entry in fs::read_dir(out)? {
        files.push(entry?.path());
    }
    let mut rel: Vec<PathBuf> = files
        .iter()
        .filter(|p| p.is_file())
        .filter(|p| matches!(p.extension().and_then(|e| e.to_str()), Some("js" | "mjs")))
        .filter_map(|p| p.strip_prefix(out).ok().map(Path::to_path_buf))
        .collect();
    rel.sort();
    if rel.is_empty() {
        return Ok(());
    }
    run(Command::new("node")
        .arg(www.join("tools/strip-comments.mjs"))
        .args(&rel)
        .current_dir(out))?;
    println!("ok: comments stripped from {} scripts (terser)", rel.len());
    Ok(())
}

/// Builds `package` for the wasm target with the page's profile; the `.wasm` it gives.
fn build_wasm(package: &str) -> Res<PathBuf> {
    run(cargo()
        .args([
            "build",
            "--profile",
            WASM_PROFILE,
            "--target",
            WASM_TARGET,
            "-p",
            package,
        ])
        .current_dir(util::root()))?;
    let wasm = util::target_dir()?
        .join(WASM_TARGET)
        .join(WASM_PROFILE)
        .join(format!("{}.wasm", package.replace('-', "_")));
    if !wasm.is_file() {
        return fail(format!("expected {} after the build", wasm.display()));
    }
    Ok(wasm)
}

/// The bench's site: a copy of `www/dist` with `figures/` beside it, the analysis figures'
/// list (`crates/figures`) compiled to wasm with the page's profile and `wasm-opt` pass, for the
/// bench page to time in the browsers. Never part of the page (`www/dist` is left as it is).
/// Requires a fresh `www/dist`.
pub fn bench_site() -> Res<PathBuf> {
    let wasm = build_wasm("figures")?;
    let site = util::target_dir()?.join("bench/site");
    if site.exists() {
        fs::remove_dir_all(&site).map_err(|e| format!("removing {}: {e}", site.display()))?;
    }
    copy_tree(&dist_dir(), &site)?;
    let out = site.join("figures");
    run(Command::new("wasm-bindgen")
        .args(["--target", "web", "--no-typescript", "--out-dir"])
        .arg(&out)
        .arg(&wasm))?;
    wasm_opt(&out.join("figures_bg.wasm"));
    Ok(site)
}

/// Makes `pkg/` publishable to npm: `package.json` from `crates/wasm/package.template.json`
/// with the workspace version, plus the crate's README and the workspace's license texts.
/// `npm publish www/dist/pkg` publishes exactly the files listed there.
fn npm_package(root: &Path, pkg: &Path) -> Res<()> {
    let template = root.join("crates/wasm/package.template.json");
    if !template.is_file() {
        println!("skip: pkg/package.json (no crates/wasm/package.template.json)");
        return Ok(());
    }
    let mut json: serde_json::Value = serde_json::from_str(&fs::read_to_string(&template)?)
        .map_err(|e| format!("{}: not valid JSON: {e}", template.display()))?;
    let cargo = fs::read_to_string(root.join("Cargo.toml"))?;
    let field = |key: &str| {
        cargo
            .lines()
            .skip_while(|l| l.trim() != "[workspace.package]")
            .skip(1)
            .take_while(|l| !l.trim_start().starts_with('['))
            .find_map(|l| {
                let (k, v) = l.split_once('=')?;
                (k.trim() == key).then(|| v.trim().trim_matches('"').to_string())
            })
    };
    let Some(version) = field("version") else {
        return fail("Cargo.toml: no version in [workspace.package] for pkg/package.json");
    };
    // Text substitution keeps the template's key order ("types" first in `exports` matters).
    let text = fs::read_to_string(&template)?;
    let placeholder = "\"version\": \"0.0.0\"";
    if json.get("license").is_none() || !text.contains(placeholder) {
        return fail(format!(
            "{}: needs a license and {placeholder} (replaced by the workspace version)",
            template.display()
        ));
    }
    json["version"] = serde_json::Value::String(version.clone());
    fs::write(
        pkg.join("package.json"),
        text.replacen(placeholder, &format!("\"version\": \"{version}\""), 1),
    )?;
    let readme = root.join("crates/wasm/README.md");
    if readme.is_file() {
        fs::copy(&readme, pkg.join("README.md"))?;
    }
    // The license texts the `license` field names ship with the package.
    for license in ["LICENSE-MIT", "LICENSE-APACHE"] {
        fs::copy(root.join(license), pkg.join(license))?;
    }
    println!(
        "npm: pkg/package.json {} {version}",
        json["name"].as_str().unwrap_or("?")
    );
    Ok(())
}

/// Runs `wasm-opt -O` in place when binaryen is installed; keeps the
/// unoptimized file if it is absent or fails (old binaryen, unknown feature).
/// The `producers` and `target_features` sections go too: nothing reads them after
/// wasm-bindgen (-O3, -Os and -Oz were measured: none smaller than -O by more than 0.2%).
fn wasm_opt(wasm: &Path) {
    let bin = match crate::setup::wasm_opt() {
        Ok(p) => p,
        Err(why) => {
            println!("skip: wasm-opt ({why})");
            return;
        }
    };
    let tmp = wasm.with_extension("opt.wasm");
    let ok = run(Command::new(bin)
        .args(["-O", "--strip-producers", "--strip-target-features"])
        // Addresses below 1024 are never accessed: rustc links the wasm stack first (1 MiB
        // growing down from 1048576, the data above it), so those bytes are reached only at the
        // very end of the stack. With that assumed, wasm-opt folds a small constant added to a
        // pointer into the load's or store's offset, which is the same access unless the
        // addition wraps past 4 GiB: 799 B (gzip) smaller.
        .arg("--low-memory-unused")
        .args([
            "--enable-bulk-memory",
            "--enable-nontrapping-float-to-int",
            "--enable-sign-ext",
            "--enable-mutable-globals",
            "--enable-multivalue",
            "--enable-reference-types",
        ])
        .arg(wasm)
        .arg("-o")
        .arg(&tmp))
    .is_ok();
    if ok && fs::rename(&tmp, wasm).is_ok() {
        println!("ok: wasm-opt -O");
    } else {
        let _ = fs::remove_file(&tmp);
        println!("warning: wasm-opt failed; keeping the unoptimized wasm");
    }
}

/// Copies a folder recursively; the number of files copied.
fn copy_tree(src: &Path, dst: &Path) -> Res<usize> {
    fs::create_dir_all(dst)?;
    let mut n = 0;
    for entry in fs::read_dir(src)? {
        let entry = entry?;
        let p = entry.path();
        let to = dst.join(entry.file_name());
        if p.is_dir() {
            n += copy_tree(&p, &to)?;
        } else if p.is_file() {
            fs::copy(&p, &to)?;
            n += 1;
        }
    }
    Ok(n)
}

/// A relative path with no `..`, root or prefix: it cannot leave its base.
fn is_contained(p: &str) -> bool {
    !p.is_empty()
        && Path::new(p)
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
}

/// Copies the files named in `www/vendor.json` from `www/node_modules/`.
fn vendor(www: &Path, out: &Path) -> Res<()> {
    let manifest = www.join("vendor.json");
    if !manifest.is_file() {
        println!("skip: vendored npm files (no www/vendor.json)");
        return Ok(());
    }
    let text = fs::read_to_string(&manifest)?;
    let json: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| format!("www/vendor.json is not valid JSON: {e}"))?;
    let Some(map) = json.as_object() else {
        return fail(
            "www/vendor.json must be an object {\"<path in node_modules>\": \"<path in dist>\"}",
        );
    };
    let modules = www.join("node_modules");
    if !modules.is_dir() && !www.join("package.json").is_file() {
        println!(
            "warning: www/vendor.json lists {} files but www/package.json does not exist yet; \
             vendored files not copied",
            map.len()
        );
        return Ok(());
    }
    for (from, entry) in map {
        let shape = match entry {
            serde_json::Value::String(to) => Some((to.as_str(), None)),
            serde_json::Value::Object(o) => match (o.get("to"), o.get("module_of"), o.len()) {
                (Some(serde_json::Value::String(to)), Some(serde_json::Value::String(m)), 2)
                    if is_identifier(m) =>
                {
                    Some((to.as_str(), Some(m.as_str())))
                }
                _ => None,
            },
            _ => None,
        };
        let Some((to, module_of)) = shape else {
            return fail(format!(
                "www/vendor.json: the value for \"{from}\" must be a string path or \
                 {{\"to\": \"<path in dist>\", \"module_of\": \"<the script's top-level var>\"}}"
            ));
        };
        if !is_contained(from) || !is_contained(to) {
            return fail(format!(
                "www/vendor.json: \"{from}\": \"{to}\": both paths must be relative, without `..`"
            ));
        }
        let src = modules.join(from);
        if !src.is_file() {
            return fail(format!(
                "www/vendor.json: \"{from}\" not found at {} (is the package in www/package.json \
                 and installed? `cargo xtask setup` runs npm ci)",
                src.display()
            ));
        }
        let dst = out.join(to);
        if let Some(parent) = dst.parent() {
            fs::create_dir_all(parent)?;
        }
        match module_of {
            None => {
                fs::copy(&src, &dst)?;
                println!("vendored: node_modules/{from} -> dist/{to}");
            }
            Some(name) => {
                let text = fs::read_to_string(&src)?;
                fs::write(
                    &dst,
                    script_as_module(&text, name)
                        .map_err(|e| format!("www/vendor.json: \"{from}\": {e}"))?,
                )?;
                println!(
                    "vendored: node_modules/{from} -> dist/{to} (as a module exporting {name})"
                );
            }
        }
    }
    Ok(())
}

/// A classic script whose top level declares `var name=...` (after its leading comments), as an
/// ES module whose default export is that value. In a module the `var` is the module's own, so
/// no global is made. Refused when the script does not start that way (a package update that
/// changed its build's shape must not give a module exporting nothing).
fn script_as_module(text: &str, name: &str) -> Result<String, String> {
    let mut rest = text.trim_start();
    while let Some(after) = rest.strip_prefix("/*") {
        let end = after
            .find("*/")
            .ok_or("a comment at the top is not closed")?;
        rest = after[end + 2..].trim_start();
    }
    let declares = rest
        .strip_prefix("var ")
        .and_then(|r| r.trim_start().strip_prefix(name))
        .is_some_and(|r| r.trim_start().starts_with('='));
    if !declares {
        return Err(format!(
            "\"module_of\": \"{name}\" needs the script to start with `var {name}=` after its comments"
        ));
    }
    Ok(format!("{}\nexport default {name};\n", text.trim_end()))
}

/// An ASCII JavaScript identifier (what `module_of` may name).
fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// Size of `bytes` after gzip at the best level.
pub fn gzip_len(bytes: &[u8]) -> Res<u64> {
    let mut enc = GzEncoder::new(Vec::new(), Compression::best());
    enc.write_all(bytes)?;
    Ok(enc.finish()?.len() as u64)
}

/// Every file below `dir`, recursively.
pub fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> Res<()> {
    for entry in fs::read_dir(dir)? {
        let p = entry?.path();
        if p.is_dir() {
            walk(&p, out)?;
        } else if p.is_file() {
            out.push(p);
        }
    }
    Ok(())
}

/// Prints the wasm's and the whole folder's size, raw and gzip.
pub fn report_sizes(wasm: &Path, dir: &Path) -> Res<()> {
    let wasm_bytes = fs::read(wasm)?;
    let (raw, gz) = (wasm_bytes.len() as u64, gzip_len(&wasm_bytes)?);
    // Exact bytes too: a size target in KB may be read as 1,000 or 1,024 bytes.
    println!(
        "size: wasm {} raw, {} gzip ({raw} / {gz} bytes) ({})",
        human(raw),
        human(gz),
        wasm.strip_prefix(dir).unwrap_or(wasm).display()
    );
    let mut files = Vec::new();
    walk(dir, &mut files)?;
    let (mut raw, mut gz) = (0u64, 0u64);
    for f in &files {
        let b = fs::read(f)?;
        raw += b.len() as u64;
        gz += gzip_len(&b)?;
    }
    println!(
        "size: dist {} raw, {} gzip ({} files in {})",
        human(raw),
        human(gz),
        files.len(),
        dir.display()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn contained_paths() {
        assert!(is_contained("uplot/dist/uPlot.esm.js"));
        assert!(!is_contained("../x"));
        assert!(!is_contained("/etc/passwd"));
        assert!(!is_contained("a/../../b"));
        assert!(!is_contained(""));
    }

    #[test]
    fn vendor_manifest() {
        let base = std::env::temp_dir().join(format!("xtask-vendor-{}", std::process::id()));
        let (www, out) = (base.join("www"), base.join("dist"));
        fs::create_dir_all(www.join("node_modules/uplot/dist")).unwrap();
        fs::write(www.join("node_modules/uplot/dist/u.js"), "x").unwrap();
        // No manifest: nothing to do.
        vendor(&www, &out).unwrap();
        // A good entry is copied.
        fs::write(
            www.join("vendor.json"),
            r#"{"uplot/dist/u.js": "vendor/u.js"}"#,
        )
        .unwrap();
        vendor(&www, &out).unwrap();
        assert!(out.join("vendor/u.js").is_file());
        // A minified script made a module: its text, then the default export of its `var`.
        let script = "/*! u v1 */\nvar uPlot=function(){return 7}();\n";
        fs::write(www.join("node_modules/uplot/dist/u.min.js"), script).unwrap();
        fs::write(
            www.join("vendor.json"),
            r#"{"uplot/dist/u.min.js": {"to": "vendor/u.min.js", "module_of": "uPlot"}}"#,
        )
        .unwrap();
        vendor(&www, &out).unwrap();
        assert_eq!(
            fs::read_to_string(out.join("vendor/u.min.js")).unwrap(),
            "/*! u v1 */\nvar uPlot=function(){return 7}();\nexport default uPlot;\n"
        );
        // A missing file, an escaping path, a non-string and bad JSON fail, naming the entry.
        for (bad, needle) in [
            (
                r#"{"uplot/dist/nope.js": "vendor/n.js"}"#,
                "uplot/dist/nope.js",
            ),
            (r#"{"uplot/dist/u.js": "../u.js"}"#, "without `..`"),
            (r#"{"uplot/dist/u.js": 3}"#, "must be a string"),
            (r#"{"uplot/dist/u.js": {"to": "v/u.js"}}"#, "\"module_of\""),
            (
                r#"{"uplot/dist/u.js": {"to": "v/u.js", "module_of": "a-b"}}"#,
                "must be a string path or",
            ),
            (
                r#"{"uplot/dist/u.js": {"to": "v/u.js", "module_of": "u", "x": 1}}"#,
                "must be a string path or",
            ),
            // `u.js` holds "x", not `var uPlot=`: a module exporting nothing is refused.
            (
                r#"{"uplot/dist/u.js": {"to": "v/u.js", "module_of": "uPlot"}}"#,
                "start with `var uPlot=`",
            ),
            (r#"["uplot"]"#, "must be an object"),
            ("{", "not valid JSON"),
        ] {
            fs::write(www.join("vendor.json"), bad).unwrap();
            let e = vendor(&www, &out).unwrap_err().to_string();
            assert!(e.contains(needle), "{bad}: {e}");
        }
        let _ = fs::remove_dir_all(&base);
    }

    #[test]
    fn a_script_becomes_a_module_only_when_it_declares_the_name() {
        let ok = |t: &str| script_as_module(t, "uPlot");
        assert!(ok("/*a*/ /* b */\n var  uPlot = 1;").is_ok());
        assert!(ok("var uPlotX=1;").is_err());
        assert!(ok("let uPlot=1;").is_err());
        assert!(ok("/* open").is_err());
        assert!(ok("x; var uPlot=1;").is_err());
        assert!(is_identifier("$u_1") && !is_identifier("1u") && !is_identifier(""));
    }

    #[test]
    fn gzip_shrinks_repetition() {
        let data = vec![b'a'; 10_000];
        assert!(gzip_len(&data).unwrap() < 200);
    }
}
