//! Robustness: hundreds of randomly mutated scripts each end with output or a clear error —
//! exit status 0 or 1, never a panic, a signal or any other status. The mutations are seeded, so
//! a failure is reproducible; it prints the mutated script.

mod common;
use common::ds_file;

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

/// Fragments that are likely to reach interesting parts of the grammar and the evaluator.
const FRAGMENTS: &[&str] = &[
    "(", ")", "[", "]", "{", "}", ",", ",,", ";", ":", "\n", "=", "==", "!", "?", "->", "<->", "&", "|", "+", "-", "*",
    "/", "\\", "%", "++", "--", "+=", ".", "=>", "$1", "@on", "on", "isa", "True", "Undef", "None", "0", "-1", "1e308",
    "\"s\"", "'", "\"", "/*", "*/", "//", "if", "else", "false", "undef", "while", "for", "in", "def", "return",
    "break", "continue", "var", "global", "static", "out", "nodes", "edges", "GRAPH", "exists(", "forall(", "range(",
    ".copy()", ".size()", ".pop()", "[0]", "(x)=>x", "get:", "set:",
];

fn mutate(src: &str, rng: &mut Rng) -> String {
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
                let frag = FRAGMENTS[rng.below(FRAGMENTS.len())];
                chars.splice(at..at, frag.chars());
            }
            2 if !chars.is_empty() => {
                let from = rng.below(chars.len());
                let len = (1 + rng.below(40)).min(chars.len() - from);
                let piece: Vec<char> = chars[from..from + len].to_vec();
                chars.splice(at..at, piece);
            }
            3 if at < chars.len() => chars[at] = FRAGMENTS[rng.below(FRAGMENTS.len())].chars().next().unwrap_or(' '),
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
        let clean = matches!(r.code, Some(0) | Some(1)) && !r.stderr.contains("panicked");
        let explained = r.code == Some(0) || r.stderr.contains("error");
        if !clean || !explained {
            failures.push(format!("run {i} ({name}): exit {:?}\n{}\n--- script\n{mutated}", r.code, r.stderr));
        }
    }
    assert!(failures.is_empty(), "{} of {runs} mutated scripts crashed:\n{}", failures.len(), failures.join("\n\n"));
}
