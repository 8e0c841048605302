//! Robustness: hundreds of randomly mutated scripts each end with output or a clear error —
//! exit status 0 or 1, never a panic, a signal or any other status. The mutations are seeded, so
//! a failure is reproducible; it prints the mutated script.

use crate::common::ds_file;

/// A small deterministic generator (xorshift64*), so that no crate is needed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Fragments that are likely to reach interesting parts of the grammar and the evaluator; every
/// word of the language (`words::WORDS`) is one too (`fragments`).
const FRAGMENTS: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ",", ",,", ";", ":", "\n", "=", "==", "!", "?", "->", "<->", "&", "|", "+", "-", "*",
    "/", "\\", "%", "++", "--", "+=", ".", "=>", "$1", "@on", "on", "isa", "0", "-1", "1e308", "\"s\"", "'", "\"",
    "/*", "*/", "//", "GRAPH", "exists(", "forall(", "range(", ".copy()", ".size()", ".pop()", "[0]", "(x)=>x",
];

/// The fragments and the words of the language.
fn fragments() -> Vec<&'static str> {
    FRAGMENTS.iter().copied().chain(ds::syntax::words::WORDS.iter().map(|e| e.text)).collect()
}

/// Fragments of the features added late: Mind and axioms, eval, files, SVG, regexes, graph
/// flags, attributes, deleting.
const FEATURE_FRAGMENTS: &[&str] = &[
    "Mind.add(",
    "Mind.add_usual(",
    "Mind.set_graph(GRAPH)",
    "Mind.get_models(GRAPH, ",
    "Mind.count_models(GRAPH, ",
    "Mind.split_graph(",
    "Mind.merge(",
    "Mind.value(",
    "Mind.validator(",
    "Mind.differnt_vals(1)",
    "Mind.clear()",
    "set(",
    "X r Y",
    "X !r Y",
    "X == Y",
    " -> ",
    " | ",
    "eval(\"",
    "eval(",
    "\\\"",
    "fopen(\"f\")",
    "fclose()",
    "fout ",
    "File.open(\"f\", \"w\")",
    "SVG.create()",
    ".transf_beg(1, 2)",
    ".transf_end()",
    ".split(\"",
    ".search(\"",
    ".replaceRegexp(\"",
    "[ab]*a[ab]{20}",
    "(a|b)+",
    "\\w+",
    "$1",
    ".repeat(1000)",
    "delete_nodes()",
    ".isomorphic(",
    ".common(isa, ",
    ".attr(",
    "[$c]",
    ".senses_graph(",
    ".edges_blocked(1)",
    ".change(",
    ".delete_edges(",
    ".add_nodes(20)",
    ".copy()",
    "+ \"s\" +",
    "for N in True {",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
    mutate_with(src, rng, &fragments())
}

fn mutate_with(src: &str, rng: &mut Rng, fragments: &[&str]) -> String {
    let mut chars: Vec<char> = src.chars().collect();
    for _ in 0..1 + rng.below(4) {
        let at = rng.below(chars.len() + 1);
        match rng.below(5) {
            0 if !chars.is_empty() => {
                let len = 1 + rng.below(8);
                let end = (at + len).min(chars.len());
                chars.drain(at.min(end)..end);
            }
            1 => {
                let frag = fragments[rng.below(fragments.len())];
                chars.splice(at..at, frag.chars());
            }
            2 if !chars.is_empty() => {
                let from = rng.below(chars.len());
                let len = (1 + rng.below(40)).min(chars.len() - from);
                let piece: Vec<char> = chars[from..from + len].to_vec();
                chars.splice(at..at, piece);
            }
            3 if at < chars.len() => chars[at] = fragments[rng.below(fragments.len())].chars().next().unwrap_or(' '),
            _ => {
                let lines: Vec<&str> = src.lines().collect();
                if !lines.is_empty() {
                    let line = lines[rng.below(lines.len())];
                    chars.splice(at..at, format!("\n{line}\n").chars());
                }
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_scripts_never_crash() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("scripts/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "ds"))
        .map(|p| {
            (
                p.file_name().unwrap_or_default().to_string_lossy().to_string(),
                std::fs::read_to_string(&p).unwrap_or_default(),
            )
        })
        .collect();
    sources.sort();
    let mut rng = Rng(0x5EED_0FD5);
    let mut failures = Vec::new();
    let runs = 400;
    for i in 0..runs {
        let (name, src) = &sources[i % sources.len()];
        let mutated = mutate(src, &mut rng);
        let r = ds_file(&format!("mut{i}-{name}"), &mutated, &["--max-steps", "300000", "--timeout", "10"]);
        // The copy in a scratch folder has no krk/ beside it: an unreadable include is exit 2.
        let unreadable = r.code == Some(2) && r.stderr.contains("cannot read included file");
        let clean = (matches!(r.code, Some(0) | Some(1)) || unreadable) && !r.stderr.contains("panicked");
        let explained = r.code == Some(0) || r.stderr.contains("error");
        if !clean || !explained {
            failures.push(format!("run {i} ({name}): exit {:?}\n{}\n--- script\n{mutated}", r.code, r.stderr));
        }
    }
    assert!(failures.is_empty(), "{} of {runs} mutated scripts crashed:\n{}", failures.len(), failures.join("\n\n"));
}

#[test]
fn mutated_feature_scripts_never_crash() {
    // The fuzz seeds of the features added late (41_* onwards: Mind, axiom statements, eval,
    // files, SVG, regexes, delete_nodes, attributes, isomorphic, string chains), mutated with
    // their own fragments as well. They write files: each runs in a scratch directory with the
    // file sandbox on (plain names only, 1 MB at most), so that no mutation writes elsewhere.
    // MUT_SEED and MUT_RUNS explore further: `MUT_SEED=7 MUT_RUNS=6000 cargo test --release
    // --test mutations mutated_feature`.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fuzz/seeds");
    let mut sources: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("fuzz/seeds/")
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.ends_with(".ds") && n >= "41"))
        .filter(|p| p.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.as_bytes()[0].is_ascii_digit()))
        .map(|p| {
            (
                p.file_name().unwrap_or_default().to_string_lossy().to_string(),
                std::fs::read_to_string(&p).unwrap_or_default(),
            )
        })
        .collect();
    sources.sort();
    assert!(sources.len() >= 12, "the feature seeds are missing: {}", sources.len());
    let scratch = std::env::temp_dir().join(format!("ds-mutations-{}", std::process::id()));
    std::fs::create_dir_all(&scratch).expect("scratch directory");
    let fragments: Vec<&str> = fragments().into_iter().chain(FEATURE_FRAGMENTS.iter().copied()).collect();
    let mut rng = Rng(std::env::var("MUT_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(0xFEA7_0DE5));
    let mut failures = Vec::new();
    let runs = std::env::var("MUT_RUNS").ok().and_then(|s| s.parse().ok()).unwrap_or(360);
    for i in 0..runs {
        let (name, src) = &sources[i % sources.len()];
        let mutated = mutate_with(src, &mut rng, &fragments);
        let script = scratch.join(format!("mut{i}-{name}"));
        std::fs::write(&script, &mutated).expect("write the script");
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ds"))
            .args(["--sandbox", "--max-steps", "300000", "--timeout", "10"])
            .arg(&script)
            .current_dir(&scratch)
            .stdin(std::process::Stdio::null())
            .output()
            .expect("run ds");
        let _ = std::fs::remove_file(&script);
        let stderr = String::from_utf8_lossy(&out.stderr);
        let code = out.status.code();
        // A mutated `#include "..."` of a file that is not there is exit 2.
        let unreadable = code == Some(2) && stderr.contains("cannot read included file");
        let clean = (matches!(code, Some(0) | Some(1)) || unreadable) && !stderr.contains("panicked");
        let explained = code == Some(0) || stderr.contains("error");
        if !clean || !explained {
            failures.push(format!("run {i} ({name}): exit {code:?}\n{stderr}\n--- script\n{mutated}"));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    assert!(failures.is_empty(), "{} of {runs} mutated scripts crashed:\n{}", failures.len(), failures.join("\n\n"));
}
