//! docs/internals.md "Where state lives" names every file of crates/ and src/ that has a
//! `thread_local!` (state outside the `Interp` must be accounted for), by its path from the
//! top of the repository.

use std::path::Path;

fn files_with_thread_locals(dir: &Path, root: &Path, found: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("the source folder is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            files_with_thread_locals(&path, root, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            if text.contains(concat!("thread_local", "!")) {
                found.push(path.strip_prefix(root).unwrap().to_string_lossy().replace('\\', "/"));
            }
        }
    }
}

#[test]
fn every_thread_local_is_named_in_where_state_lives() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let docs = std::fs::read_to_string(root.join("docs/internals.md")).unwrap();
    let start = docs.find("## Where state lives").expect("the section exists");
    let section = &docs[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let mut found = Vec::new();
    for folder in ["crates", "src"] {
        files_with_thread_locals(&root.join(folder), root, &mut found);
    }
    assert!(found.len() >= 8, "the walk found too few files: {found:?}");
    let missing: Vec<_> = found.iter().filter(|f| !section.contains(&format!("`{f}`"))).collect();
    assert!(missing.is_empty(), "not named in docs/internals.md \"Where state lives\": {missing:?}");
}
