//! The repository stands on its own (issues 42 and 55): no file in it names the folder
//! `shared` beside the checkout, which a fresh clone does not have, nor an absolute path of the
//! machine it was written on (under a home or a scratch folder, `MACHINE_ROOTS`), which other
//! machines do not have either. The language's decisions are in docs/language.md and the
//! original's outputs in tests/original/. Paths every system has (`/dev/null`, `/usr/bin/...`)
//! name nothing of one machine and stay allowed.

use std::path::{Path, PathBuf};

/// What no file may name, written in pieces so that this file does not name them.
const OUTSIDE: &[&str] = &[concat!("..", "/shared")];

/// The folders of one machine, homes and scratch space: an absolute path that starts with one
/// of them is outside the repository wherever the repository is.
const MACHINE_ROOTS: &[&str] = &["work", "root", "home", "Users", "tmp", "mnt", "scratch"];

/// Folders that are built or installed, not written: a build, npm packages, the fuzzer's corpus.
const SKIPPED: &[&str] = &[".git", "target", "node_modules", "fuzz/corpus", "fuzz/artifacts"];

/// The line numbers (from 1) of the lines of `text` that name a path in `OUTSIDE` or an
/// absolute path under one of `MACHINE_ROOTS`.
fn lines_naming_outside(text: &[u8]) -> Vec<usize> {
    text.split(|&b| b == b'\n')
        .enumerate()
        .filter(|(_, line)| {
            OUTSIDE.iter().any(|o| line.windows(o.len()).any(|w| w == o.as_bytes())) || names_a_machine_path(line)
        })
        .map(|(i, _)| i + 1)
        .collect()
}

/// Whether `line` holds `/ROOT/` for a root of `MACHINE_ROOTS` where a path starts: at the
/// line's start, after a space, a quote, a bracket, `=`, `:` or `,`, or in a `file://` URI
/// (a relative `a/ROOT/b` or a URL's `host/ROOT/` is no such path).
fn names_a_machine_path(line: &[u8]) -> bool {
    MACHINE_ROOTS.iter().any(|root| {
        let needle = format!("/{root}/");
        line.windows(needle.len()).enumerate().any(|(at, w)| {
            w == needle.as_bytes()
                && (at == 0 || b" \t\"'`([{=:,>".contains(&line[at - 1]) || line[..at].ends_with(b"file://"))
        })
    })
}

/// Every file under `dir`, outside the skipped folders; symbolic links are not followed.
fn walk(root: &Path, dir: &Path, files: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries {
        let entry = entry.unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
        let path = entry.path();
        let relative = path.strip_prefix(root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let kind = entry.file_type().unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        // A worktree's `.git` is a file naming where the repository is on this machine.
        let name = entry.file_name();
        if SKIPPED.iter().any(|s| *s == relative || *s == name.to_string_lossy()) {
            continue;
        }
        if kind.is_dir() {
            walk(root, &path, files);
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
        "these lines name {} beside the checkout, or an absolute path under /{}/, which a clone does not have:\n{}",
        OUTSIDE.join(", "),
        MACHINE_ROOTS.join("/, /"),
        found.join("\n")
    );
}

#[test]
fn the_check_finds_a_mention_and_its_line() {
    let text = format!("first\nsee {}/LANGUAGE.md\nthird, and {}\n", OUTSIDE[0], OUTSIDE[0]);
    assert_eq!(lines_naming_outside(text.as_bytes()), vec![2, 3]);
    assert_eq!(lines_naming_outside(b"shared/x and ./shared and ../share\n"), Vec::<usize>::new());
}

#[test]
fn the_check_finds_an_absolute_path_of_a_machine() {
    // Issue 55: web/tests/explore.rs and docs/performance.md named such paths, which the check
    // (which then looked only for the folder beside the checkout) let through.
    let path = |root: &str| format!("/{root}/x/ds");
    let text = format!(
        "run {}\nbuilt at `{}`\nCARGO_TARGET_DIR={} cargo\n\"{}\"\n",
        path("work"),
        path("tmp"),
        path("root"),
        path("home")
    );
    assert_eq!(lines_naming_outside(text.as_bytes()), vec![1, 2, 3, 4]);
    let allowed = b"/dev/null /usr/bin/chromium a/tmp/b https://example.org/home/x W/wolf.ds\n";
    assert_eq!(lines_naming_outside(allowed), Vec::<usize>::new());
}
