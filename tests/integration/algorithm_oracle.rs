//! Every algorithm of the table on small problems, checked line by line (found, reason, path,
//! cost and every count) against the independent model of the Search module,
//! tests/oracle/search_oracle.py (`--run`), which writes the same problems in Python.

use crate::common::ds_file;
use ds::search::TABLE;
use std::path::PathBuf;
use std::process::Command;

/// The problems of search_oracle.py's PROBLEMS, in ds: `Start`, `next`, `Goal` and `h`.
pub(crate) const PROBLEMS: [(&str, &str); 4] = [
    ("numbers", "var Start = 1, Goal = 10\ndef next(n) : return [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]]\ndef h(n) : return Math.abs(10 - n)\n"),
    ("bounded", "var Start = 1, Goal = 37\ndef next(n) : return n < 20 ? [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]] : []\ndef h(n) : return n\n"),
    ("roads", r#"var Roads = {"A": [["B", 4], ["C", 2]], "B": [["D", 5]], "C": [["B", 1], ["D", 8], ["E", 10]],
             "D": [["E", 2], ["F", 6]], "E": [["F", 2]], "F": []}
var ToF = {"A": 9, "B": 7, "C": 8, "D": 4, "E": 2, "F": 0}
global Roads, ToF
var Start = "A", Goal = "F"
def next(T) {
   var R = []
   for P in Roads[T] : R.push([T + "-" + P[0], P[0], P[1]])
   return R
}
def h(T) : return ToF[T]
"#),
    ("eight", r#"var Start = "283164705", Goal = "123804765"
global Goal
def swap(S, I, J) : return S.substr(0, I) + S[J] + S.substr(I + 1, J - I - 1) + S[I] + S.substr(J + 1)
def next(S) {
   var B = S.indexOf("0")
   var Row = B \ 3, Col = B % 3
   var R = []
   if Row > 0 : R.push(["up", swap(S, B - 3, B)])
   if Row < 2 : R.push(["down", swap(S, B, B + 3)])
   if Col > 0 : R.push(["left", swap(S, B - 1, B)])
   if Col < 2 : R.push(["right", swap(S, B, B + 1)])
   return R
}
def h(S) {
   var D = 0
   for I in range(0, 9) {
      if S[I] == "0" : continue
      var J = Goal.indexOf(S[I])
      D = D + Math.abs(I \ 3 - J \ 3) + Math.abs(I % 3 - J % 3)
   }
   return D
}
"#),
];

/// The oracle's line for `problem` searched by `algorithm` with `options` (`name=N`).
fn oracle(problem: &str, algorithm: &str, options: &[(&str, u32)]) -> String {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/oracle/search_oracle.py");
    let mut cmd = Command::new("python3");
    cmd.arg(script).args(["--run", problem, algorithm]);
    cmd.args(options.iter().map(|(k, v)| format!("{k}={v}")));
    let out = cmd.output().expect("python3 runs the search oracle");
    assert!(out.status.success(), "search_oracle.py: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// ds's line for the same search.
fn ds_line(problem: &str, algorithm: &str, options: &[(&str, u32)]) -> String {
    let prelude = PROBLEMS.iter().find(|p| p.0 == problem).expect("a problem of PROBLEMS").1;
    let informed = TABLE.iter().find(|r| r.name() == algorithm).expect("an algorithm").informed;
    let h = if informed { ", h" } else { "" };
    let opts: Vec<String> = options.iter().map(|(k, v)| format!("\"{k}\": {v}")).collect();
    let code = format!(
        "{prelude}Search.{algorithm}(Start, next, Goal{h}, {{{}}})\nvar S = Search.stats()\n\
         out S[\"found\"], S[\"reason\"], S[\"path\"], S[\"cost\"], S[\"expanded\"], S[\"generated\"], \
         S[\"duplicates\"], S[\"max_frontier\"], S[\"depth\"], S[\"states\"]",
        opts.join(", ")
    );
    let r = ds_file("oracle_case.ds", &code, &[]);
    assert_eq!(r.stderr, "", "{problem} {algorithm}:\n{code}");
    r.stdout
}

fn agree(problem: &str, algorithm: &str, options: &[(&str, u32)]) {
    let want = oracle(problem, algorithm, options);
    assert_eq!(ds_line(problem, algorithm, options), want, "{problem} by {algorithm} {options:?}");
}

#[test]
fn every_algorithm_agrees_with_the_oracle() {
    for row in TABLE {
        for (problem, _) in PROBLEMS {
            agree(problem, row.name(), &[]);
        }
    }
}

#[test]
fn beam_agrees_with_the_oracle_at_every_width() {
    for (problem, _) in PROBLEMS {
        for width in [1, 2, 5, 50] {
            agree(problem, "beam", &[("width", width)]);
        }
    }
    agree("numbers", "beam", &[("width", 1), ("max_states", 4)]);
}

#[test]
fn beam_records_its_events_and_says_when_it_gave_up() {
    // Worked by hand: 1 gives 2 (and 2 again); 2 gives 3 and 4, of which width 1 keeps 3
    // (least h) and drops 4; 3 gives 4 again and 6, which has no successors: the beam is
    // empty after dropping 4, so the search cannot tell whether 5 is reachable.
    let code = "def next(n) : return n < 4 ? [[\"inc\", n + 1], [\"dbl\", n * 2]] : []\n\
                out Search.beam(1, next, 5, (n) => n, {\"width\": 1, \"record\": True})\n\
                var S = Search.stats()\nout S[\"found\"], S[\"reason\"]\n\
                var E = []\nfor T in Search.trace() : E.push(T[\"event\"] + \" \" + T[\"state\"])\nout E";
    let r = ds_file("beam_record.ds", code, &[]);
    assert_eq!(
        r.stdout,
        "Undef\nUndef incomplete\n[push 0,expand 0,push 1,duplicate 1,expand 1,push 2,push 3,prune 3,expand 2,duplicate 3,push 4,expand 4]\n",
        "{}",
        r.stderr
    );
}

/// `problem`'s ds prelude with `Start` set to `start`.
fn with_start(problem: &str, start: &str) -> String {
    let prelude = PROBLEMS.iter().find(|p| p.0 == problem).expect("a problem").1;
    format!("{prelude}Start = {start}\n")
}

#[test]
fn rbfs_finds_the_cost_astar_finds() {
    // the 8-puzzle (optimal costs from the oracle's bfs: unit costs), and weighted graphs: the
    // docs' roads and the numbers' +1 (cost 1) and *2 (cost 3), with admissible h
    let cases = [
        ("eight", "\"283164705\"", "", "5"),
        ("eight", "\"273104856\"", "", "14"),
        ("eight", "\"326784150\"", "", "20"),
        ("roads", "\"A\"", "", "12"),
        ("numbers", "1", "def h0(n) : return 0\n", "7"),
    ];
    for (problem, start, more, cost) in cases {
        let h = if more.is_empty() { "h" } else { "h0" };
        let code = format!(
            "{}{more}Search.rbfs(Start, next, Goal, {h})\nvar R = Search.stats()[\"cost\"]\n\
             Search.astar(Start, next, Goal, {h})\nout R, Search.stats()[\"cost\"]",
            with_start(problem, start)
        );
        let r = ds_file("rbfs_cost.ds", &code, &[]);
        assert_eq!(r.stdout, format!("{cost} {cost}\n"), "{problem} from {start}: {}", r.stderr);
    }
}

#[test]
fn the_new_algorithms_stop_cleanly_at_the_limits() {
    // an endless space with no goal: only a limit ends the search, with found Undef
    let next = "def next(n) : return [[\"inc\", n + 1, 1], [\"dbl\", n * 2, 3]]\n";
    for alg in ["beam", "rbfs"] {
        let code = format!(
            "{next}Search.{alg}(1, next, -1, (n) => 0, {{\"max_states\": 100}})\nvar S = Search.stats()\n\
             out S[\"found\"], S[\"reason\"], S[\"states\"]\n\
             Search.{alg}(1, next, -1, (n) => 0)\nout Search.stats()[\"found\"], Search.stats()[\"reason\"]"
        );
        let r = crate::common::ds_file_within("limits.ds", &code, &["--max-steps", "200000"], 60);
        assert_eq!(r.stdout, "Undef max_states 100\nUndef max_steps\n", "{alg}: {}", r.stderr);
    }
}
