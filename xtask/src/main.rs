//! Build tasks: `cargo xtask web` builds the playground (docs/playground.md) into target/web/:
//!
//! 1. the engine (web/, the `ds` core without its native hosts) for wasm32-unknown-unknown;
//! 2. `wasm-bindgen --target web` on it (the CLI must be the version of the crate), then
//!    `wasm-opt` when it is installed;
//! 3. the page's JavaScript (web/page/, CodeMirror and lz-string pinned by package-lock.json)
//!    bundled by esbuild;
//! 4. examples.json: the examples menu, the folder scripts see (every file of scripts/) and the
//!    Explore panel's fields of the examples docs/problems.md and docs/explorer.md explore;
//! 5. the explorer's page and graph library the playground shares (crates/explore/src/web/), copied at
//!    build time.
//!
//! Everything the page loads ends up in target/web/: it needs no network.
//!
//! `cargo xtask lite` builds the playground, then the notebooks' JupyterLite site into
//! target/lite/ (`lite`).

mod json;
mod lite;
mod presets;
mod tools;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: cargo xtask web [--profile PROFILE]
       cargo xtask lite [--profile PROFILE]

`web` builds the playground into target/web/ (or $CARGO_TARGET_DIR/web/); serve that folder with
any static server, e.g. `python3 -m http.server -d target/web`. `lite` builds the playground,
then the notebooks in the browser, a JupyterLite site with the ds kernel, into target/lite/
(python3 and pip fetch its pinned packages into target/lite-venv/ once). PROFILE is the Cargo
profile of the WebAssembly module: `web` (the default: release, fat LTO) or `release-dev` (faster
to build).";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (task, profile) = match args.as_slice() {
        [task] if task == "web" || task == "lite" => (task.clone(), "web".to_string()),
        [task, flag, p] if (task == "web" || task == "lite") && flag == "--profile" => (task.clone(), p.clone()),
        _ => {
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let built = web(&profile).and_then(|()| match task.as_str() {
        "lite" => lite::lite(&root(), &target_dir(&root())),
        _ => Ok(()),
    });
    match built {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// The repository's root (xtask/ is one of its folders).
pub(crate) fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("xtask/ has a parent").to_path_buf()
}

/// Cargo's target folder: $CARGO_TARGET_DIR (relative to the root) or target/.
fn target_dir(root: &Path) -> PathBuf {
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => root.join(dir),
        None => root.join("target"),
    }
}

fn web(profile: &str) -> Result<(), String> {
    let root = root();
    let target = target_dir(&root);
    let out = target.join("web");
    let pkg = target.join("web-pkg");
    tools::check_wasm_bindgen(&root)?;
    step("the engine for wasm32-unknown-unknown");
    tools::run(
        tools::cargo()
            .args(["build", "--package", "ds-web", "--lib", "--target", "wasm32-unknown-unknown", "--locked"])
            .args(["--profile", profile])
            .current_dir(&root),
    )?;
    let wasm = target.join("wasm32-unknown-unknown").join(profile).join("ds_web.wasm");
    step("wasm-bindgen --target web");
    remake(&pkg)?;
    tools::run(
        std::process::Command::new("wasm-bindgen")
            // Function names are for debuggers: without them the module is 0.42 MB smaller,
            // 0.12 MB gzipped (docs/performance.md, "A smaller, faster start").
            .args(["--target", "web", "--no-typescript", "--remove-name-section", "--remove-producers-section"])
            .arg("--out-dir")
            .arg(&pkg)
            .arg(&wasm),
    )?;
    tools::wasm_opt(&pkg.join("ds_web_bg.wasm"))?;
    remake(&out)?;
    copy(&pkg.join("ds_web_bg.wasm"), &out.join("ds_web_bg.wasm"))?;
    copy(&pkg.join("ds_web.js"), &out.join("ds_web.js"))?;
    step("the page (esbuild)");
    let page = root.join("web").join("page");
    tools::npm_ci(&page)?;
    tools::esbuild(&page, &out)?;
    for file in ["index.html", "style.css"] {
        copy(&page.join(file), &out.join(file))?;
    }
    step("examples.json from scripts/ and the docs' ds explore commands");
    let docs =
        ["problems.md", "explorer.md"].map(|d| std::fs::read_to_string(root.join("docs").join(d)).unwrap_or_default());
    let explore = presets::presets(&docs.each_ref().map(String::as_str));
    let examples = json::examples(&root.join("scripts"), &explore)?;
    write(&out.join("examples.json"), &examples)?;
    step("the explorer's page and graph library (crates/explore/src/web/)");
    copy_explorer(&root.join("crates/explore/src/web"), &out.join("explorer"))?;
    tools::report_sizes(&out)?;
    println!("built {}; serve it with: python3 -m http.server -d {}", out.display(), out.display());
    Ok(())
}

/// The explorer's page (index.html, app.js, style.css) and its graph library (cytoscape.js and
/// its dagre layout): the playground shows the page in a frame and answers its API from the
/// worker (web/page/src/explore.js), and draws graphs with the library (web/page/src/dot.js).
fn copy_explorer(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::create_dir_all(to.join("vendor")).map_err(|e| format!("cannot make {}: {e}", to.display()))?;
    for file in ["index.html", "app.js", "style.css"] {
        copy(&from.join(file), &to.join(file))?;
    }
    for file in ["cytoscape.min.js", "cytoscape-dagre.min.js", "cytoscape.LICENSE", "cytoscape-dagre.LICENSE"] {
        copy(&from.join("vendor").join(file), &to.join("vendor").join(file))?;
    }
    Ok(())
}

pub(crate) fn step(what: &str) {
    println!("== {what}");
}

/// Empties a folder (made when missing): nothing of an older build stays behind.
pub(crate) fn remake(dir: &Path) -> Result<(), String> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| format!("cannot empty {}: {e}", dir.display()))?;
    }
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot make {}: {e}", dir.display()))
}

pub(crate) fn copy(from: &Path, to: &Path) -> Result<(), String> {
    std::fs::copy(from, to).map(|_| ()).map_err(|e| format!("cannot copy {} to {}: {e}", from.display(), to.display()))
}

pub(crate) fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
