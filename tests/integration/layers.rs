//! The layers of the source, as docs/internals.md draws them ("Layers"): a module may use the
//! modules of its own layer and of the layers below it, never one above. This test reads the
//! drawing and every source file, so that a new upward reference (a value naming a builtin,
//! the evaluator calling into `builtins`) fails here, and the drawing cannot drift from the code.

use std::fs;
use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The layers from the drawing, bottom first: (layer name, its modules).
fn layers() -> Vec<(String, Vec<String>)> {
    let doc = fs::read_to_string(root().join("docs/internals.md")).expect("docs/internals.md");
    let section = doc.split("\n## Layers").nth(1).expect("docs/internals.md has a `## Layers` section");
    let block = section.split("```text\n").nth(1).and_then(|b| b.split("```").next()).expect("a ```text drawing");
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

/// The library's top-level modules, as `src/lib.rs` declares them (`mod x;`). The binary's
/// own modules (`main.rs`, `cli.rs`) stand above them all and are not drawn.
fn modules() -> Vec<String> {
    let lib = fs::read_to_string(root().join("src/lib.rs")).expect("src/lib.rs");
    let mut out: Vec<String> = lib
        .lines()
        .filter_map(|l| l.trim().strip_prefix("pub mod ").or_else(|| l.trim().strip_prefix("mod ")))
        .filter_map(|rest| rest.strip_suffix(';'))
        .map(str::to_string)
        .collect();
    out.sort();
    out
}

/// The source files of a module (its file, or every `.rs` and `.lalrpop` file in its folder),
/// without test code: files named `tests.rs`.
fn files(module: &str) -> Vec<PathBuf> {
    let file = root().join("src").join(format!("{module}.rs"));
    if file.exists() {
        return vec![file];
    }
    let mut out = Vec::new();
    let mut dirs = vec![root().join("src").join(module)];
    while let Some(dir) = dirs.pop() {
        for p in fs::read_dir(&dir).expect("module folder").flatten().map(|e| e.path()) {
            if p.is_dir() {
                dirs.push(p);
            } else if p.extension().is_some_and(|e| e == "rs" || e == "lalrpop") && !p.ends_with("tests.rs") {
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

/// Known upward references, to be removed (docs/internals.md, "Layers"): (file, module it
/// uses). Each must still occur, so that a fixed one leaves this list.
const KNOWN_DEBTS: &[(&str, &str)] = &[
    // The interpreter keeps its part in searches on several threads (`Interp::threads`).
    ("src/eval/mod.rs", "search"),
    // A worker thread (native only) runs the script again in a session of its own.
    ("src/search/spawn.rs", "session"),
];

#[test]
fn no_module_uses_a_layer_above_its_own() {
    let layers = layers();
    let modules = modules();
    let layer_of = |m: &str| layers.iter().position(|(_, ms)| ms.iter().any(|x| x == m));
    for m in &modules {
        let count = layers.iter().filter(|(_, ms)| ms.contains(m)).count();
        assert_eq!(count, 1, "module `{m}` must stand in exactly one layer of the drawing in docs/internals.md");
    }
    for (_, ms) in &layers {
        for m in ms {
            assert!(modules.contains(m), "the drawing names `{m}`, which is no module of src/");
        }
    }
    let mut upward = Vec::new();
    let mut debts_seen = Vec::new();
    for m in &modules {
        let own = layer_of(m).unwrap_or(0);
        for file in files(m) {
            for (used, line) in references(&file, &modules) {
                let theirs = layer_of(&used).unwrap_or(0);
                let rel = file.strip_prefix(root()).unwrap_or(&file).display().to_string();
                if theirs > own && KNOWN_DEBTS.contains(&(rel.as_str(), used.as_str())) {
                    debts_seen.push((rel, used));
                } else if theirs > own {
                    upward.push(format!(
                        "{rel}:{line}: `{m}` (layer {}) uses `{used}` (layer {})",
                        layers[own].0, layers[theirs].0
                    ));
                }
            }
        }
    }
    assert!(upward.is_empty(), "references to a layer above:\n{}", upward.join("\n"));
    for (file, used) in KNOWN_DEBTS {
        let seen = debts_seen.iter().any(|(f, u)| f == file && u == used);
        assert!(seen, "{file} no longer uses `{used}`: remove it from KNOWN_DEBTS");
    }
}

#[test]
fn the_check_sees_a_reference() {
    let modules = modules();
    let dir = std::env::temp_dir().join(format!("ds-layers-{}", std::process::id()));
    fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("probe.rs");
    fs::write(&file, "use crate::{value::Value, builtins};\n// crate::repl\nfn f() { crate::eval::x(); }\n")
        .expect("write probe");
    let found: Vec<String> = references(&file, &modules).into_iter().map(|(m, _)| m).collect();
    assert_eq!(found, ["value", "builtins", "eval"]);
}
