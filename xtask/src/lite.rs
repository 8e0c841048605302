//! `cargo xtask lite`: notebooks in the browser (docs/kernel.md "In the browser"). A JupyterLite
//! site in target/lite/ holding the notebooks of docs/notebooks/ and the `ds` kernel:
//!
//! 1. the playground (`cargo xtask web`): the engine's module and its worker;
//! 2. the kernel extension (web/lite/src/, bundled by the page's esbuild): a prebuilt federated
//!    extension, its entry and the engine's files in `static/`, its package.json saying what
//!    to load; staged in target/lite-src/labextensions/ (as an environment's
//!    share/jupyter/labextensions/ holds them);
//! 3. `jupyter lite build` (jupyterlite-core and jupyter_server from PyPI, pinned by
//!    web/lite/requirements.txt, in the virtual environment target/lite-venv/) over that stage
//!    and docs/notebooks/.
//!
//! The site needs no network: any static server serves it.

use crate::tools;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The extension's name: its folder under extensions/ and its key in `_JUPYTERLAB`
/// (web/lite/src/remote.js says the same).
pub const NAME: &str = "ds-jupyterlite-kernel";

/// The JupyterLite apps the site holds: JupyterLab, Jupyter Notebook and its file list.
const APPS: [&str; 3] = ["lab", "notebooks", "tree"];

pub fn lite(root: &Path, target: &Path) -> Result<(), String> {
    let web = target.join("web");
    let stage = target.join("lite-src");
    let out = target.join("lite");
    crate::step("the kernel extension (web/lite/src/, esbuild)");
    crate::remake(&stage)?;
    let ext = stage.join("labextensions").join(NAME);
    let statics = ext.join("static");
    std::fs::create_dir_all(&statics).map_err(|e| format!("cannot make {}: {e}", statics.display()))?;
    for file in ["worker.js", "ds_web.js", "ds_web_bg.wasm"] {
        crate::copy(&web.join(file), &statics.join(file))?;
    }
    crate::copy(&root.join("crates/kernel/src/logo-64x64.png"), &statics.join("logo-64x64.png"))?;
    let mut engine = Vec::new();
    for file in ["worker.js", "ds_web.js", "ds_web_bg.wasm"] {
        engine.extend(std::fs::read(statics.join(file)).map_err(|e| format!("cannot read {file}: {e}"))?);
    }
    let build = format!("{:016x}", fnv(&engine));
    let entry = format!("remoteEntry.{}.js", &build[..12]);
    let page = root.join("web").join("page");
    tools::run(
        Command::new(page.join("node_modules").join(".bin").join("esbuild"))
            .arg(root.join("web/lite/src/remote.js"))
            .args(["--bundle", "--format=iife", "--minify", "--target=es2022", "--log-level=warning"])
            .arg(format!("--define:DS_BUILD=\"{build}\""))
            .arg(format!("--outfile={}", statics.join(&entry).display())),
    )?;
    crate::write(&ext.join("package.json"), &package_json(env!("CARGO_PKG_VERSION"), &entry))?;
    crate::write(&stage.join("jupyter-lite.json"), SITE_CONFIG)?;
    crate::write(&stage.join("jupyter_lite_config.json"), &build_config(&stage.join("labextensions")))?;

    crate::step("jupyter lite build (jupyterlite-core, web/lite/requirements.txt)");
    let python = venv(root, target)?;
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| format!("cannot empty {}: {e}", out.display()))?;
    }
    let mut build = Command::new(&python);
    build.args(["-m", "jupyterlite_core", "build", "--no-sourcemaps"]);
    for app in APPS {
        build.args(["--apps", app]);
    }
    build.arg("--lite-dir").arg(&stage).arg("--output-dir").arg(&out);
    build.arg("--contents").arg(root.join("docs").join("notebooks"));
    // The build's own cache: with the stage made afresh, every step runs again.
    build.env("PYTHONWARNINGS", "ignore::UserWarning");
    tools::run(build.current_dir(&stage))?;
    // Browsers ask the site's root for its icon (a page of the step-through opened alone does).
    let icon = out.join("static").join("favicons").join("favicon.ico");
    if icon.exists() {
        crate::copy(&icon, &out.join("favicon.ico"))?;
    }
    if !out.join("extensions").join(NAME).join("package.json").exists() {
        return Err(format!("jupyter lite build left out the kernel extension ({NAME})"));
    }
    tools::report_sizes(&out.join("extensions").join(NAME))?;
    let (files, bytes) = count(&out)?;
    println!("the site: {files} files, {bytes} bytes");
    println!(
        "built {}; serve it with: python3 -m http.server -d {} (then open /lab/index.html?path=wolf.ipynb)",
        out.display(),
        out.display()
    );
    Ok(())
}

/// The site's settings (the stage's jupyter-lite.json, which the build merges into the site's):
/// its name; the application as `window.jupyterapp` (for scripts in the page such as the
/// browser test, tests/browser/lite.test.mjs, which reads the cells' outputs there); and
/// JupyterLab's extensions a ds notebook has no use for left out, so that the page starts with
/// less to load: renderers of JavaScript, Vega, Mermaid, audio and video outputs, the log
/// console, cell tags and the notebook app's console. (JupyterLab's other plugins need the rest:
/// tests/browser/lite.test.mjs fails on a plugin that cannot start.)
const SITE_CONFIG: &str = r#"{
  "jupyter-lite-schema-version": 0,
  "jupyter-config-data": {
    "appName": "ds notebooks",
    "exposeAppInBrowser": "true",
    "disabledExtensions": [
      "@jupyterlab/javascript-extension",
      "@jupyterlab/vega5-extension",
      "@jupyterlab/mermaid-extension",
      "@jupyterlab/audio-extension",
      "@jupyterlab/video-extension",
      "@jupyterlab/theme-dark-high-contrast-extension",
      "@jupyterlab/logconsole-extension",
      "@jupyterlab/celltags-extension",
      "@jupyter-notebook/console-extension"
    ]
  }
}
"#;

/// The build's settings (the stage's jupyter_lite_config.json): the extension is taken from
/// the stage's labextensions/ folder (JupyterLite 0.8.6 leaves out the extensions of the lite
/// folder's own extensions/), and none from the virtual environment's (jupyter_server brings
/// jupyterlab_pygments's, which the site does not need); the environment's favicons are kept.
fn build_config(labextensions: &Path) -> String {
    let path = labextensions.display().to_string().replace('\\', "\\\\").replace('"', "\\\"");
    format!(
        "{{\n  \"LiteBuildConfig\": {{\n    \"ignore_sys_prefix\": [\"federated_extensions\"]\n  }},\n  \"FederatedExtensionAddon\": {{\n    \"extra_labextensions_path\": [\"{path}\"]\n  }}\n}}\n"
    )
}

/// The package.json of a prebuilt extension: JupyterLite loads `_build.load` and asks its
/// container for `_build.extension`.
pub fn package_json(version: &str, entry: &str) -> String {
    format!(
        r#"{{
  "name": "{NAME}",
  "version": "{version}",
  "description": "The ds (DemonScript) kernel for JupyterLite: the WebAssembly engine in a Web Worker",
  "license": "MIT",
  "jupyterlab": {{
    "_build": {{
      "load": "static/{entry}",
      "extension": "./extension"
    }}
  }}
}}
"#
    )
}

/// The virtual environment with the pinned packages (made, or brought up to date, when its
/// record of the requirements differs from web/lite/requirements.txt); its Python.
fn venv(root: &Path, target: &Path) -> Result<PathBuf, String> {
    let dir = target.join("lite-venv");
    let python = dir.join("bin").join("python");
    let wanted = std::fs::read(root.join("web/lite/requirements.txt"))
        .map_err(|e| format!("cannot read web/lite/requirements.txt: {e}"))?;
    let record = dir.join(".ds-requirements");
    if python.exists() && std::fs::read(&record).is_ok_and(|r| r == wanted) {
        return Ok(python);
    }
    if !python.exists() {
        tools::run(Command::new("python3").args(["-m", "venv"]).arg(&dir))
            .map_err(|e| format!("{e}; the site needs python3 with venv (Debian: apt-get install python3-venv)"))?;
    }
    tools::run(
        Command::new(&python)
            .args(["-m", "pip", "install", "-q", "--disable-pip-version-check", "-r"])
            .arg(root.join("web/lite/requirements.txt")),
    )?;
    std::fs::write(&record, wanted).map_err(|e| format!("cannot write {}: {e}", record.display()))?;
    Ok(python)
}

/// The files under a folder and their bytes.
fn count(dir: &Path) -> Result<(usize, u64), String> {
    let mut files = 0;
    let mut bytes = 0;
    let read = std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in read.flatten() {
        let path = entry.path();
        if path.is_dir() {
            let (f, b) = count(&path)?;
            files += f;
            bytes += b;
        } else {
            files += 1;
            bytes += std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        }
    }
    Ok((files, bytes))
}

/// FNV-1a over the engine's files: the build's name, so that a browser that kept an older
/// engine in its cache fetches the new one.
fn fnv(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_package_json_names_the_entry_jupyterlite_loads() {
        let text = package_json("1.2.3", "remoteEntry.abc.js");
        assert!(text.contains(r#""load": "static/remoteEntry.abc.js""#), "{text}");
        assert!(text.contains(r#""extension": "./extension""#), "{text}");
        assert!(text.contains(&format!(r#""name": "{NAME}""#)), "{text}");
    }

    #[test]
    fn the_build_name_changes_with_the_engine() {
        assert_eq!(fnv(b""), 0xcbf2_9ce4_8422_2325);
        assert_ne!(fnv(b"engine 1"), fnv(b"engine 2"));
    }

    #[test]
    fn the_entry_and_the_extension_agree_on_the_name() {
        let remote = std::fs::read_to_string(crate::root().join("web/lite/src/remote.js")).expect("remote.js");
        assert!(remote.contains(&format!("const NAME = '{NAME}';")), "web/lite/src/remote.js names another extension");
    }
}
