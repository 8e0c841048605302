//! The programs `cargo xtask web` runs, and the checks that say how to install them when they
//! are missing. None of them is downloaded as a prebuilt binary: wasm-bindgen-cli comes from
//! crates.io, esbuild from npm (its platform package is an optional npm dependency).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The cargo that runs this task (so that a rustup toolchain override is kept).
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Runs a command to its end, failing with its name when it fails.
pub fn run(command: &mut Command) -> Result<(), String> {
    let shown = format!("{command:?}");
    let status = command.status().map_err(|e| format!("cannot start {shown}: {e}"))?;
    match status.success() {
        true => Ok(()),
        false => Err(format!("{shown} failed ({status})")),
    }
}

/// The version of the wasm-bindgen crate in Cargo.lock.
fn locked_wasm_bindgen(root: &Path) -> Result<String, String> {
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).map_err(|e| format!("cannot read Cargo.lock: {e}"))?;
    let mut lines = lock.lines();
    while let Some(line) = lines.next() {
        if line == "name = \"wasm-bindgen\"" {
            if let Some(v) = lines.next().and_then(|l| l.strip_prefix("version = \"")) {
                return Ok(v.trim_end_matches('"').to_string());
            }
        }
    }
    Err("Cargo.lock has no wasm-bindgen: is web/ a member of the workspace?".into())
}

/// The wasm-bindgen CLI must be exactly the crate's version: it refuses a module made by
/// another one.
pub fn check_wasm_bindgen(root: &Path) -> Result<(), String> {
    let wanted = locked_wasm_bindgen(root)?;
    let install = format!("install it with: cargo install wasm-bindgen-cli --version {wanted} --locked");
    let found = Command::new("wasm-bindgen")
        .arg("--version")
        .output()
        .map_err(|_| format!("wasm-bindgen is not installed (the playground needs version {wanted}); {install}"))?;
    let said = String::from_utf8_lossy(&found.stdout);
    let version = said.split_whitespace().nth(1).unwrap_or("").to_string();
    match version == wanted {
        true => Ok(()),
        false => Err(format!("wasm-bindgen is version {version:?}, the wasm-bindgen crate {wanted}; {install}")),
    }
}

/// `wasm-opt -O3` in place, when Binaryen is installed (it is optional: the module works
/// without it, somewhat larger and slower). Binaryen from npm is not used: its `-Oz` made the
/// gzipped module larger, in minutes (docs/performance.md, "A smaller, faster start").
pub fn wasm_opt(wasm: &Path) -> Result<(), String> {
    if Command::new("wasm-opt").arg("--version").stdout(Stdio::null()).stderr(Stdio::null()).status().is_err() {
        println!("(wasm-opt not found: the module is not optimised further; Debian's `binaryen` has it)");
        return Ok(());
    }
    // The features rustc's wasm32 target uses by default, so that wasm-opt accepts the module.
    let features = [
        "--enable-bulk-memory",
        "--enable-nontrapping-float-to-int",
        "--enable-sign-ext",
        "--enable-mutable-globals",
        "--enable-multivalue",
        "--enable-reference-types",
    ];
    run(Command::new("wasm-opt").arg("-O3").args(features).arg(wasm).arg("-o").arg(wasm))
}

/// `npm ci` in the page's folder, unless node_modules matches package-lock.json already.
pub fn npm_ci(page: &Path) -> Result<(), String> {
    let lock =
        std::fs::read(page.join("package-lock.json")).map_err(|e| format!("cannot read the page's lock: {e}"))?;
    let installed = page.join("node_modules").join(".ds-lock");
    if std::fs::read(&installed).is_ok_and(|l| l == lock) {
        return Ok(());
    }
    run(Command::new("npm").args(["ci", "--no-audit", "--no-fund", "--loglevel=error"]).current_dir(page))
        .map_err(|e| format!("{e}; the page needs node and npm (Debian: apt-get install nodejs npm)"))?;
    std::fs::write(&installed, lock).map_err(|e| format!("cannot write {}: {e}", installed.display()))
}

/// Bundles the page's script and the worker's, minified, into `out`. The worker loads the
/// engine's glue (ds_web.js, made by wasm-bindgen) from `out` at run time.
pub fn esbuild(page: &Path, out: &Path) -> Result<(), String> {
    let esbuild: PathBuf = page.join("node_modules").join(".bin").join("esbuild");
    run(Command::new(esbuild)
        .args(["src/main.js", "src/worker.js", "--bundle", "--format=esm", "--minify", "--target=es2022"])
        .args(["--external:./ds_web.js", "--log-level=warning"])
        .arg(format!("--outdir={}", out.display()))
        .current_dir(page))
}

/// Prints each asset's size and its size after gzip (issue 54's goal: each at most 1.5 MB).
pub fn report_sizes(out: &Path) -> Result<(), String> {
    let mut entries: Vec<PathBuf> = Vec::new();
    collect(out, &mut entries)?;
    entries.sort();
    let (mut total, mut total_gz) = (0u64, 0u64);
    for path in entries {
        let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let gz = gzip_size(&path);
        total += size;
        total_gz += gz.unwrap_or(0);
        let name = path.strip_prefix(out).unwrap_or(&path).display().to_string();
        let gz = gz.map_or("?".to_string(), |g| g.to_string());
        println!("{size:>10} bytes {gz:>10} gzipped  {name}");
    }
    println!("{total:>10} bytes {total_gz:>10} gzipped  in all");
    Ok(())
}

fn collect(dir: &Path, into: &mut Vec<PathBuf>) -> Result<(), String> {
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in read.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, into)?;
        } else {
            into.push(path);
        }
    }
    Ok(())
}

/// The size of the file after `gzip -9` (None without gzip).
fn gzip_size(path: &Path) -> Option<u64> {
    let out = Command::new("gzip").args(["-9", "-c"]).arg(path).stderr(Stdio::null()).output().ok()?;
    out.status.success().then_some(out.stdout.len() as u64)
}
