//! What the engine's tests share: the repository's folder of scripts as the page gives it.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every file under `dir`, by its path from `base` (what examples.json gives the page).
pub fn folder(dir: &Path, base: &Path, into: &mut BTreeMap<String, String>) {
    for entry in fs::read_dir(dir).expect("list scripts/").flatten() {
        let path = entry.path();
        if path.is_dir() {
            folder(&path, base, into);
        } else if let Ok(text) = fs::read_to_string(&path) {
            let rel = path.strip_prefix(base).expect("under the root").to_string_lossy().replace('\\', "/");
            into.insert(rel, text);
        }
    }
}

/// Every file of scripts/, as `scripts/...`.
pub fn scripts() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    folder(&root().join("scripts"), &root(), &mut files);
    files
}

/// The text of a graph the page draws (`Stream::Shown`): what `out` would have printed.
pub fn shown_text(json: &str) -> String {
    let v: serde_json::Value = serde_json::from_str(json).expect("a shown graph is JSON");
    v["text"].as_str().expect("a shown graph has its text").to_string()
}
