//! The repository stands on its own (issue 42): no file in it names the folder `shared` beside
//! the checkout, which a fresh clone does not have. The language's decisions are in
//! docs/language.md and the original's outputs in tests/original/.

use std::path::{Path, PathBuf};

/// What no file may name, written in two pieces so that this file does not name it.
const OUTSIDE: &[&str] = &[concat!("..", "/shared")];

/// Folders that are built or installed, not written: a build, npm packages, the fuzzer's corpus.
const SKIPPED: &[&str] = &[".git", "target", "node_modules", "fuzz/corpus", "fuzz/artifacts"];

/// The line numbers (from 1) of the lines of `text` that name a path in `OUTSIDE`.
fn lines_naming_outside(text: &[u8]) -> Vec<usize> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| OUTSIDE.iter().any(|o| line.windows(o.len()).any(|w| w == o.as_bytes())))
        .map(|(i, _)| i + 1)
        .collect()
}

/// Every file under `dir`, outside the skipped folders; symbolic links are not followed.
fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        let path = entry.path();
        let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let kind = entry.file_type().unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        if kind.is_dir() {
            let name = entry.file_name();
            if !SKIPPED.iter().any(|s| *s == relative || *s == name.to_string_lossy()) {
                walk(root, &path, files);
            }
        } else if kind.is_file() {
            files.push(path);
        }
    }
}

#[test]
fn no_file_names_the_folder_beside_the_checkout() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    walk(&root, &root, &mut files);
    for known in ["README.md", "docs/language.md", "tests/integration/probes.rs", "tests/original/README.md"] {
        assert!(files.contains(&root.join(known)), "the walk missed {known}");
    }
    let mut found = Vec::new();
    for file in &files {
        let text = std::fs::read(file).unwrap_or_else(|e| panic!("cannot read {}: {e}", file.display()));
        let name = file.strip_prefix(&root).unwrap_or(file).display().to_string();
        found.extend(lines_naming_outside(&text).into_iter().map(|line| format!("{name}:{line}")));
    }
    assert!(
        found.is_empty(),
        "these lines name {} beside the checkout, which a clone does not have:\n{}",
        OUTSIDE.join(", "),
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_mention_and_its_line() {
    let text = format!("first\nsee {}/LANGUAGE.md\nthird, and {}\n", OUTSIDE[0], OUTSIDE[0]);
    assert_eq!(lines_naming_outside(text.as_bytes()), vec![2, 3]);
    assert_eq!(lines_naming_outside(b"shared/x and ./shared and ../share\n"), Vec::<usize>::new());
}
