//! Examples in docs/*.md run as tests: a fenced block marked `ds` followed by a block marked
//! `output` must print exactly that output; a `ds` block alone must run without error; a
//! `ds-error` block must fail with a script error (exit status 1) and a message. A `ds` block
//! must draw no warning; a `ds-warning` block must draw one and still run (exit status 0).

use crate::common::ds_file;

struct Example {
    doc: String,
    line: usize,
    kind: String,
    code: String,
    output: Option<String>,
}

/// The fenced blocks of a markdown text: (info string, first line number, body).
fn fenced_blocks(text: &str) -> Vec<(String, usize, String)> {
    let mut blocks = Vec::new();
    let mut current: Option<(String, usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim().to_string(), i + 1, String::new())),
            (Some(_), Some(_)) => blocks.extend(current.take()),
            (Some((_, _, body)), None) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    blocks
}

fn examples() -> Vec<Example> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let mut docs: Vec<_> = std::fs::read_dir(dir).expect("docs/").flatten().map(|e| e.path()).collect();
    docs.sort();
    let mut out = Vec::new();
    for path in docs.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(path).expect("read doc");
        let blocks = fenced_blocks(&text);
        let doc = path.file_name().unwrap_or_default().to_string_lossy().to_string();
        for (i, (kind, line, code)) in blocks.iter().enumerate() {
            if !matches!(kind.as_str(), "ds" | "ds-error" | "ds-warning") {
                continue;
            }
            let output = blocks.get(i + 1).filter(|b| b.0 == "output").map(|b| b.2.clone());
            out.push(Example { doc: doc.clone(), line: *line, kind: kind.clone(), code: code.clone(), output });
        }
    }
    out
}

fn failure(e: &Example) -> Option<String> {
    let name = format!("doc-{}-{}.ds", e.doc.trim_end_matches(".md"), e.line);
    let r = ds_file(&name, &e.code, &[]);
    let place = format!("{}:{} ({})", e.doc, e.line, e.kind);
    if e.kind == "ds-error" {
        return (r.code != Some(1) || r.stderr.is_empty())
            .then(|| format!("{place}: expected a script error, got {:?}", r.code));
    }
    if r.code != Some(0) {
        return Some(format!("{place}: exit {:?}\n{}", r.code, r.stderr));
    }
    let warned = r.stderr.contains("warning:");
    if warned != (e.kind == "ds-warning") {
        return Some(format!("{place}: a `ds-warning` block warns and a `ds` block does not:\n{}", r.stderr));
    }
    match &e.output {
        Some(want) if *want != r.stdout => Some(format!("{place}:\n--- expected\n{want}--- got\n{}", r.stdout)),
        _ => None,
    }
}

#[test]
fn documentation_examples_run() {
    let examples = examples();
    assert!(examples.len() >= 15, "docs/language.md should hold the examples ({} found)", examples.len());
    let failures: Vec<String> = examples.iter().filter_map(failure).collect();
    assert!(
        failures.is_empty(),
        "{} of {} examples failed:\n\n{}",
        failures.len(),
        examples.len(),
        failures.join("\n")
    );
}

/// Planning examples (docs/planning.md): a block marked `pddl NAME` is written to the file NAME
/// (in a folder of the document's own), and a block marked `ds-plan` holds a command line
/// (`ds plan domain.pddl problem.pddl ...`), run in that folder; the `output` block after it
/// is its exact standard output.
#[test]
fn planning_examples_run() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/docs");
    let mut docs: Vec<_> = std::fs::read_dir(dir).expect("docs/").flatten().map(|e| e.path()).collect();
    docs.sort();
    let mut ran = 0;
    for path in docs.iter().filter(|p| p.extension().is_some_and(|e| e == "md")) {
        let text = std::fs::read_to_string(path).expect("read doc");
        let blocks = fenced_blocks(&text);
        let folder = crate::common::scratch_file("x", "").with_file_name("pddl");
        std::fs::create_dir_all(&folder).expect("a folder for the files");
        for (i, (kind, line, body)) in blocks.iter().enumerate() {
            if let Some(name) = kind.strip_prefix("pddl ") {
                std::fs::write(folder.join(name.trim()), body).expect("write a PDDL file");
            }
            if kind != "ds-plan" {
                continue;
            }
            let place = format!("{}:{line}", path.display());
            let args: Vec<&str> = body.split_whitespace().collect();
            assert_eq!(args.first(), Some(&"ds"), "{place}: a ds-plan block is a `ds plan` command line");
            let out = std::process::Command::new(env!("CARGO_BIN_EXE_ds"))
                .args(&args[1..])
                .current_dir(&folder)
                .output()
                .expect("run ds plan");
            let want = blocks.get(i + 1).filter(|b| b.0 == "output").map(|b| b.2.clone());
            let want = want.unwrap_or_else(|| panic!("{place}: an `output` block after the command"));
            assert_eq!(String::from_utf8_lossy(&out.stdout), want, "{place}: {}", String::from_utf8_lossy(&out.stderr));
            ran += 1;
        }
    }
    assert!(ran >= 2, "docs/planning.md runs `ds plan` in its examples ({ran} found)");
}
