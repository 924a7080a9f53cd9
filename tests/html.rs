//! The HTML reports, in a real browser: headless Chromium (Debian's `chromium`,
//! installed by this test when the machine lacks it) loads the lifecycle
//! matrix and a diff, runs their scripts without a console error, and shows the
//! rows and cells the registry and the diff hold; a screenshot of each is made
//! under `target/html/` and must not be blank. The picture in docs/registry-and-diff.md is that
//! screenshot (`cp target/html/registry.png tests/fixtures/reports/lifecycle-matrix.png`).
//!
//! Why the system's browser and not one pinned under `target/`: a browser is
//! a hundred shared libraries, Debian's archive is the one source of them this
//! machine's network reaches, and it keeps only its current build, so pinning a
//! version would break the test at the next security update. What the test
//! relies on (DOM after scripts, `--dump-dom`, `--screenshot`) has been stable
//! in Chromium for years.

use std::path::{Path, PathBuf};
use std::process::Command;

use mcp_spec_codegen::report::Format;
use mcp_spec_tests as support;

/// The Chromium binary, installed with apt when missing (once, under a lock).
fn chromium() -> PathBuf {
    let found = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].iter().map(PathBuf::from).find(|p| p.is_file());
    if let Some(p) = found {
        return p;
    }
    let dir = support::workspace_root().join("target");
    std::fs::create_dir_all(&dir).unwrap();
    let lock = std::fs::File::create(dir.join(".chromium.lock")).unwrap();
    lock.lock().unwrap();
    if Path::new("/usr/bin/chromium").is_file() {
        return "/usr/bin/chromium".into();
    }
    eprintln!("installing Debian's chromium package for the HTML tests (once)");
    let apt = |args: &[&str]| {
        Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .output()
            .unwrap_or_else(|e| panic!("cannot run apt-get to install Debian's `chromium` package: {e}"))
    };
    let mut out = apt(&["install", "-y", "-q", "chromium"]);
    if !out.status.success() {
        // Package lists too old for the archive: refresh them once and retry.
        apt(&["update", "-q"]);
        out = apt(&["install", "-y", "-q", "chromium"]);
    }
    assert!(
        out.status.success() && Path::new("/usr/bin/chromium").is_file(),
        "cannot install Debian's `chromium` package (from Debian's archive):\n{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    "/usr/bin/chromium".into()
}

/// Chromium headless on a local file, with the flags this machine's closed
/// network needs; returns (stdout, stderr).
fn headless(extra: &[&str], url: &str) -> (String, String) {
    // One profile per call: two tests running at once must not share one.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let profile = std::env::temp_dir().join(format!("mcp-spec-chromium-{}-{call}", std::process::id()));
    // A hung browser must not hang the suite: `timeout` (coreutils) ends it.
    let out = Command::new("timeout")
        .args(["--kill-after=10", "120"])
        .arg(chromium())
        .args([
            "--headless",
            "--disable-dev-shm-usage",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--enable-logging=stderr",
            "--v=0",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(extra)
        .arg(url)
        .output()
        .expect("chromium runs");
    let _ = std::fs::remove_dir_all(&profile);
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

/// What the page's scripts said to the console that is an error.
fn console_errors(stderr: &str) -> Vec<&str> {
    stderr.lines().filter(|l| l.contains("CONSOLE") && (l.contains("Uncaught") || l.contains("Error"))).collect()
}

/// A PNG that shows something: decoded with Python's standard library (zlib,
/// then each row's filter undone), it must have many colours and a fair share of
/// pixels that are not white.
fn assert_not_blank(png: &Path) {
    let script = r#"
import sys, zlib, struct
data = open(sys.argv[1], 'rb').read()
assert data[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, ihdr = 8, b'', None
while pos < len(data):
    n, kind = struct.unpack('>I4s', data[pos:pos + 8])
    body = data[pos + 8:pos + 8 + n]
    if kind == b'IHDR':
        ihdr = struct.unpack('>IIBBBBB', body)
    elif kind == b'IDAT':
        idat += body
    pos += 12 + n
width, height, depth, colour = ihdr[0], ihdr[1], ihdr[2], ihdr[3]
assert depth == 8 and colour in (2, 6), f'unexpected PNG kind: depth {depth}, colour type {colour}'
bpp = 3 if colour == 2 else 4
raw, stride = zlib.decompress(idat), width * bpp
prev, rows, at = bytearray(stride), [], 0
for _ in range(height):
    f, line = raw[at], bytearray(raw[at + 1:at + 1 + stride])
    at += 1 + stride
    for i in range(stride):
        a = line[i - bpp] if i >= bpp else 0
        b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
        if f == 1: line[i] = (line[i] + a) & 255
        elif f == 2: line[i] = (line[i] + b) & 255
        elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
        elif f == 4:
            p = a + b - c
            pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(line)
    prev = line
pixels = [bytes(r[i:i + 3]) for r in rows for i in range(0, stride, bpp)]
colours = len(set(pixels))
ink = sum(1 for p in pixels if min(p) < 200) / len(pixels)
print(colours, round(ink, 4))
"#;
    let out = Command::new("python3").arg("-c").arg(script).arg(png).output().expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut it = text.split_whitespace();
    let colours: usize = it
        .next()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("{}: {}", png.display(), String::from_utf8_lossy(&out.stderr)));
    let ink: f64 = it.next().and_then(|v| v.parse().ok()).unwrap_or(0.0);
    assert!(colours > 20 && ink > 0.01, "{} looks blank: {colours} colours, {ink} of the pixels dark", png.display());
}

fn write(name: &str, html: &str) -> (PathBuf, String) {
    let dir = support::workspace_root().join("target/html");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, html).unwrap();
    let url = format!("file://{}", path.display());
    (path, url)
}

#[test]
fn the_lifecycle_matrix_loads_filters_and_shows_every_state() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let reg = mcp_spec_codegen::registry::build(&spec);
    let (path, url) = write("registry.html", &mcp_spec_codegen::registry::report::render(&reg, None, Format::Html));
    let page = std::fs::read_to_string(&path).unwrap();
    assert!(
        !page.contains("http://") && !page.contains("https://") && !page.contains("src="),
        "the page loads nothing from outside"
    );

    // Preset to the items deprecated somewhere: the script filters the rows.
    let (dom, stderr) = headless(&["--dump-dom"], &format!("{url}#state=deprecated"));
    assert!(console_errors(&stderr).is_empty(), "console errors: {:?}", console_errors(&stderr));
    assert!(dom.contains(r#"data-ready="yes""#), "the script ran to the end");
    let deprecated = reg
        .entries
        .iter()
        .filter(|e| e.states.iter().any(|s| matches!(s, mcp_spec_codegen::registry::State::Deprecated(_))))
        .count();
    assert!(
        dom.contains(&format!(r#"<span id="count">{deprecated} of {} items</span>"#, reg.entries.len())),
        "the filter shows the deprecated items"
    );
    assert_eq!(dom.matches("<tr data-kind=").count(), reg.entries.len(), "a row per entry");
    let sampling =
        dom.split("data-path=\"ClientCapabilities.sampling\"").nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(sampling.contains(r#"class="s-deprecated" title="Deprecated since 2026-07-28 (SEP-2577)"#), "{sampling}");
    let properties =
        dom.split("data-path=\"Tool.inputSchema.properties\"").nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(properties.contains(r#"class="s-unnamed""#), "{properties}");
    assert!(
        dom.split("data-path=\"PingRequest\"").nth(1).unwrap().split("</tr>").next().unwrap().contains("s-removed")
    );

    let png = path.with_extension("png");
    let _ = std::fs::remove_file(&png);
    let (_, stderr) = headless(
        &["--window-size=1200,720", &format!("--screenshot={}", png.display())],
        &format!("{url}#state=deprecated"),
    );
    assert!(png.is_file(), "no screenshot: {stderr}");
    assert_not_blank(&png);
}

#[test]
fn a_diff_page_loads_with_breaking_changes_first() {
    let (spec, _) =
        mcp_spec_codegen::spec::load_spec(&support::spec_dir()).unwrap_or_else(|d| panic!("{}", d.render()));
    let d = mcp_spec_codegen::diff::diff(spec.revision("2025-11-25").unwrap(), spec.revision("2026-07-28").unwrap());
    let (path, url) = write("diff.html", &mcp_spec_codegen::diff::report::render(&d, Format::Html, false));
    let (dom, stderr) = headless(&["--dump-dom"], &format!("{url}#verdict=wire"));
    assert!(console_errors(&stderr).is_empty(), "console errors: {:?}", console_errors(&stderr));
    assert!(dom.contains(r#"data-ready="yes""#));
    let listed: Vec<_> = d.changes.iter().filter(|c| !c.is_docs()).collect();
    let wire = listed.iter().filter(|c| c.wire != mcp_spec_codegen::diff::Wire::None).count();
    assert!(dom.contains(&format!(r#"<span id="count">{wire} of {} changes</span>"#, listed.len())), "the wire filter");
    let breaking_at = dom.find("<h2>Breaking").unwrap();
    let compatible_at = dom.find("<h2>Compatible").unwrap();
    assert!(breaking_at < compatible_at, "breaking first");
    let ttl = dom.split(r#"data-path="ListToolsResult.ttlMs""#).nth(1).unwrap().split("</tr>").next().unwrap();
    assert!(
        ttl.contains("through CacheableResult")
            && dom[breaking_at..compatible_at].contains(r#"data-path="ListToolsResult.ttlMs""#)
    );
    let png = path.with_extension("png");
    let _ = std::fs::remove_file(&png);
    let (_, stderr) = headless(&["--window-size=1200,720", &format!("--screenshot={}", png.display())], &url);
    assert!(png.is_file(), "no screenshot: {stderr}");
    assert_not_blank(&png);
}
