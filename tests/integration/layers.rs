//! The layers of the source, as docs/internals.md draws them ("Layers"): the crates of the
//! workspace, each depending on the floors below it only, and inside the core its modules, each
//! using its own layer and the layers below it, never one above. This test reads both drawings,
//! every crate's manifest and every source file of the core, so that a new upward reference (a
//! crate depending on a host, the evaluator calling into `builtins`) fails here, and the
//! drawings cannot drift from the code. The compiler already refuses a crate that is not
//! declared, and Cargo a cycle; this keeps the declared dependencies in the drawing's order.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The `n`-th ```text drawing of the `## Layers` section, bottom first: (layer name, members).
fn drawing(n: usize) -> Vec<(String, Vec<String>)> {
    let doc = fs::read_to_string(root().join("docs/internals.md")).expect("docs/internals.md");
    let section = doc.split("\n## Layers").nth(1).expect("docs/internals.md has a `## Layers` section");
    let section = section.split("\n## ").next().unwrap_or_default();
    let block = section.split("```text\n").nth(n + 1).and_then(|b| b.split("```").next()).expect("a ```text drawing");
    let mut layers: Vec<(String, Vec<String>)> = block
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let mut words = l.split_whitespace().map(str::to_string);
            let name = words.next().unwrap_or_default();
            (name, words.collect())
        })
        .collect();
    layers.reverse();
    layers
}

/// Which layer of `layers` holds `member`.
fn layer_of(layers: &[(String, Vec<String>)], member: &str) -> Option<usize> {
    layers.iter().position(|(_, ms)| ms.iter().any(|x| x == member))
}

/// Every member stands in exactly one layer, and every drawn member exists.
fn check_drawing(layers: &[(String, Vec<String>)], members: &[String], what: &str) {
    for m in members {
        let count = layers.iter().filter(|(_, ms)| ms.contains(m)).count();
        assert_eq!(count, 1, "{what} `{m}` must stand in exactly one layer of the drawing in docs/internals.md");
    }
    for (_, ms) in layers {
        for m in ms {
            assert!(members.contains(m), "the drawing names `{m}`, which is no {what}");
        }
    }
}

/// The workspace's crates (name, manifest), from the members of the top-level Cargo.toml,
/// without the build tool (xtask).
fn crates() -> Vec<(String, PathBuf)> {
    let top = fs::read_to_string(root().join("Cargo.toml")).expect("Cargo.toml");
    let members = top.split("\nmembers = [").nth(1).and_then(|m| m.split(']').next()).expect("workspace members");
    members
        .split(',')
        .map(|m| m.trim().trim_matches('"'))
        .filter(|m| !m.is_empty() && *m != "xtask")
        .map(|m| {
            let manifest = root().join(m).join("Cargo.toml");
            let text = fs::read_to_string(&manifest).expect("a member's Cargo.toml");
            (package_name(&text), manifest)
        })
        .collect()
}

fn package_name(manifest: &str) -> String {
    let line = manifest.lines().find(|l| l.starts_with("name = ")).expect("a package name");
    line.trim_start_matches("name = ").trim_matches('"').to_string()
}

/// The workspace crates a manifest depends on (`ds-x.workspace = true` or `ds-x = { ... }`)
/// in its `[dependencies]`.
fn dependencies(manifest: &str, names: &[String]) -> Vec<String> {
    let Some(deps) = manifest.split("\n[dependencies]\n").nth(1) else { return Vec::new() };
    let deps = deps.split("\n[").next().unwrap_or_default();
    deps.lines()
        .filter_map(|l| l.split(['.', ' ', '=']).next())
        .filter(|name| names.iter().any(|n| n == name))
        .map(str::to_string)
        .collect()
}

#[test]
fn no_crate_depends_on_a_floor_above_its_own() {
    let layers = drawing(0);
    let crates = crates();
    let names: Vec<String> = crates.iter().map(|(n, _)| n.clone()).collect();
    assert!(names.len() >= 8, "too few crates found: {names:?}");
    check_drawing(&layers, &names, "crate of the workspace");
    let mut upward = Vec::new();
    for (name, manifest) in &crates {
        let own = layer_of(&layers, name).unwrap_or(0);
        let text = fs::read_to_string(manifest).expect("manifest");
        for dep in dependencies(&text, &names) {
            let theirs = layer_of(&layers, &dep).unwrap_or(0);
            if theirs >= own {
                upward.push(format!("{name} (floor {}) depends on {dep} (floor {})", layers[own].0, layers[theirs].0));
            }
        }
    }
    assert!(upward.is_empty(), "dependencies on a floor above or the same:\n{}", upward.join("\n"));
}

/// The core's source folder.
fn core_src() -> PathBuf {
    root().join("crates/core/src")
}

/// The core's top-level modules, as its `lib.rs` declares them (`mod x;`).
fn modules() -> Vec<String> {
    let lib = fs::read_to_string(core_src().join("lib.rs")).expect("crates/core/src/lib.rs");
    let mut out: Vec<String> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod ")))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

/// The source files of a module (its file, or every `.rs` file in its folder), without test
/// code: files named `tests.rs`.
fn files(module: &str) -> Vec<PathBuf> {
    let file = core_src().join(format!("{module}.rs"));
    if file.exists() {
        return vec![file];
    }
    let mut out = Vec::new();
    let mut dirs = vec![core_src().join(module)];
    while let Some(dir) = dirs.pop() {
        for p in fs::read_dir(&dir).expect("module folder").flatten().map(|e| e.path()) {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs") && !p.ends_with("tests.rs") {
                out.push(p);
            }
        }
    }
    out
}

/// The modules a file names as `crate::module` (also inside `use crate::{a, b}`), with the line,
/// outside comments and before the file's `#[cfg(test)]` part.
fn references(path: &Path, modules: &[String]) -> Vec<(String, usize)> {
    let text = fs::read_to_string(path).expect("source file");
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(group) => group.split('}').next().unwrap_or_default().split(',').collect(),
                None => vec![rest],
            };
            for n in names {
                let n = n.trim();
                let word: String = n.chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect();
                if modules.contains(&word) {
                    out.push((word, i + 1));
                }
            }
        }
    }
    out
}

#[test]
fn no_module_of_the_core_uses_a_layer_above_its_own() {
    let layers = drawing(1);
    let modules = modules();
    check_drawing(&layers, &modules, "module of crates/core/src");
    let mut upward = Vec::new();
    for m in &modules {
        let own = layer_of(&layers, m).unwrap_or(0);
        for file in files(m) {
            for (used, line) in references(&file, &modules) {
                let theirs = layer_of(&layers, &used).unwrap_or(0);
                if theirs > own {
                    let rel = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
                    upward.push(format!(
                        "{rel}:{line}: `{m}` (layer {}) uses `{used}` (layer {})",
                        layers[own].0, layers[theirs].0
                    ));
                }
            }
        }
    }
    assert!(upward.is_empty(), "references to a layer above:\n{}", upward.join("\n"));
}

#[test]
fn the_checks_see_a_reference_and_a_dependency() {
    let modules = modules();
    let dir = std::env::temp_dir().join(format!("ds-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("probe.rs");
    fs::write(&file, "use crate::{value::Value, builtins};\n// crate::session\nfn f() { crate::eval::x(); }\n")
        .expect("write probe");
    let found: Vec<String> = references(&file, &modules).into_iter().map(|(m, _)| m).collect();
    assert_eq!(found, ["value", "builtins", "eval"]);
    let names = ["ds-core".to_string(), "ds-native".to_string()];
    let manifest = "[package]\nname = \"x\"\n\n[dependencies]\nds-core.workspace = true\nds-native = { path = \"n\" }\nlibc = \"0.2\"\n\n[dev-dependencies]\nds-x.workspace = true\n";
    assert_eq!(dependencies(manifest, &names), ["ds-core", "ds-native"]);
}
