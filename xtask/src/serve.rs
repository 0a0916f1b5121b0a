//! `cargo xtask serve`: a small static file server for `www/dist/`.
//!
//! One thread per connection, GET and HEAD only, `Connection: close`. Paths
//! are percent-decoded, `..` and absolute segments are refused, and the file
//! found must lie inside the root after resolving symlinks.

use crate::util::{fail, Res};
use std::fs;
use std::io::{BufRead, BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Component, Path, PathBuf};
use std::thread;
use std::time::Duration;

/// Binds 127.0.0.1 at `port`, or the next free port above it (up to +100).
/// Port 0 asks the OS for any free port.
pub fn bind(port: u16) -> Res<TcpListener> {
    if port == 0 {
        return Ok(TcpListener::bind(("127.0.0.1", 0))?);
    }
    for p in port..=port.saturating_add(100) {
        if let Ok(l) = TcpListener::bind(("127.0.0.1", p)) {
            if p != port {
                println!("note: port {port} is taken; using {p}");
            }
            return Ok(l);
        }
    }
    fail(format!(
        "no free port in {port}..={}",
        port.saturating_add(100)
    ))
}

/// Serves `root` on `listener` in a background thread; returns its address.
pub fn spawn(listener: TcpListener, root: PathBuf) -> Res<SocketAddr> {
    let addr = listener.local_addr()?;
    let root = root
        .canonicalize()
        .map_err(|e| format!("cannot serve {}: {e}", root.display()))?;
    thread::spawn(move || accept_loop(listener, root));
    Ok(addr)
}

/// Serves `root` forever on the calling thread.
pub fn serve_forever(listener: TcpListener, root: PathBuf) -> Res<()> {
    let root = root
        .canonicalize()
        .map_err(|e| format!("cannot serve {}: {e}", root.display()))?;
    accept_loop(listener, root);
    Ok(())
}

fn accept_loop(listener: TcpListener, root: PathBuf) {
    for stream in listener.incoming().flatten() {
        let root = root.clone();
        thread::spawn(move || {
            let _ = handle(stream, &root);
        });
    }
}

pub fn mime(path: &Path) -> &'static str {
    match path.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" | "htm" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "json" | "map" => "application/json",
        "wasm" => "application/wasm",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "webmanifest" => "application/manifest+json",
        "txt" | "md" | "csv" => "text/plain; charset=utf-8",
        "ts" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn percent_decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// Maps a request target to a file under `root`, or None if it would escape
/// the root or does not exist. A folder gives its `index.html`.
pub fn resolve(root: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next().unwrap_or("");
    let path = percent_decode(path)?;
    if path.contains('\0') || path.contains('\\') {
        return None;
    }
    let rel = path.trim_start_matches('/');
    let mut p = root.to_path_buf();
    for c in Path::new(rel).components() {
        match c {
            Component::Normal(s) => p.push(s),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if p.is_dir() {
        p.push("index.html");
    }
    let real = p.canonicalize().ok()?;
    (real.starts_with(root) && real.is_file()).then_some(real)
}

/// Every response allows any origin to read it (CORS): the built files are public, and a page of
/// another origin (a docs site with the playground's files on a CDN, the e2e test of that) must be
/// able to import the element's module, its worker and the wasm.
fn respond(s: &mut TcpStream, code: &str, ctype: &str, body: &[u8], head: bool) -> Res<()> {
    let header = format!(
        "HTTP/1.1 {code}\r\nContent-Type: {ctype}\r\nContent-Length: {}\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(header.as_bytes())?;
    if !head {
        s.write_all(body)?;
    }
    s.flush()?;
    Ok(())
}

/// The most a request's line and headers may take together: links of up to 2 MB, as Chromium
/// opens them (the e2e tests open one of a million characters). Past it the reading stops, so
/// a client sending bytes without a line end cannot grow the server's memory for good.
const MAX_REQUEST: u64 = 4 << 20;

fn handle(mut stream: TcpStream, root: &Path) -> Res<()> {
    use std::io::Read;
    stream.set_read_timeout(Some(Duration::from_secs(10)))?;
    let mut reader = BufReader::new(stream.try_clone()?.take(MAX_REQUEST));
    let mut line = String::new();
    reader.read_line(&mut line)?;
    // Drain the headers.
    loop {
        let mut h = String::new();
        if reader.read_line(&mut h)? == 0 || h == "\r\n" || h == "\n" {
            break;
        }
    }
    let mut parts = line.split_whitespace();
    let (method, target) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
    let head = method == "HEAD";
    if method != "GET" && !head {
        return respond(
            &mut stream,
            "405 Method Not Allowed",
            "text/plain",
            b"GET or HEAD only\n",
            false,
        );
    }
    if !target.starts_with('/') {
        return respond(
            &mut stream,
            "400 Bad Request",
            "text/plain",
            b"bad request\n",
            head,
        );
    }
    match resolve(root, target) {
        Some(file) => match fs::read(&file) {
            Ok(body) => respond(&mut stream, "200 OK", mime(&file), &body, head),
            Err(_) => respond(
                &mut stream,
                "500 Internal Server Error",
                "text/plain",
                b"read error\n",
                head,
            ),
        },
        None => respond(
            &mut stream,
            "404 Not Found",
            "text/plain",
            b"not found\n",
            head,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn get(addr: SocketAddr, raw_target: &str) -> String {
        let mut s = TcpStream::connect(addr).unwrap();
        write!(s, "GET {raw_target} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let mut out = String::new();
        s.read_to_string(&mut out).unwrap();
        out
    }

    #[test]
    fn serves_files_with_types_and_refuses_escapes() {
        let base = std::env::temp_dir().join(format!("xtask-serve-{}", std::process::id()));
        let root = base.join("root");
        fs::create_dir_all(root.join("pkg")).unwrap();
        fs::write(root.join("index.html"), "<h1>hi</h1>").unwrap();
        fs::write(root.join("pkg/a b.wasm"), b"\0asm").unwrap();
        fs::write(base.join("secret.txt"), "secret").unwrap();
        let addr = spawn(bind(0).unwrap(), root.clone()).unwrap();

        let r = get(addr, "/");
        assert!(r.starts_with("HTTP/1.1 200"), "{r}");
        assert!(r.contains("text/html"));
        // Readable from another origin (the element's files on a CDN; embed.test.mjs).
        assert!(r.contains("\r\nAccess-Control-Allow-Origin: *\r\n"), "{r}");
        let r = get(addr, "/pkg/a%20b.wasm?v=1");
        assert!(r.contains("application/wasm"), "{r}");
        for bad in [
            "/../secret.txt",
            "/%2e%2e/secret.txt",
            "/pkg/../../secret.txt",
            "/nope.js",
        ] {
            let r = get(addr, bad);
            assert!(r.starts_with("HTTP/1.1 404"), "{bad}: {r}");
            assert!(!r.contains("secret"), "{bad}: {r}");
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(base.join("secret.txt"), root.join("link.txt")).unwrap();
            assert!(get(addr, "/link.txt").starts_with("HTTP/1.1 404"));
        }
        let _ = fs::remove_dir_all(&base);
    }
}
