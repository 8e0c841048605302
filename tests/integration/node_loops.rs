//! Node loops and quantifiers whose condition ds tests without the evaluator, visiting only the
//! candidates of the first conjunct (`eval::node_test`): the same nodes, in the same order,
//! and the loop variable left where the evaluator leaves it, also when the body changes what
//! the condition reads. The expected lines were worked out by hand (and agree with a build
//! that evaluates the condition at every node).

use crate::common::{ds_file, prints};

const SCRIPT: &str = r#"edges on, want
var Sen = GRAPH("Sen")
Sen.nodes $human, $animal
var G = GRAPH("G")
GRAPH = G
nodes a, b, c, d, e
[a, c, e] isa Sen=>$human;
[b, d] isa Sen=>$animal;
a want b
a want d
c want d
// the body changes the facts the condition reads: e starts wanting b
for X in X.isa(Sen=>$human) & (X want b) != True {
   out "h", X
   if X == c : e want b
}
out "after"
// the body changes a variable of the condition
var H = a
for Y in (H want Y) & Y.isa(Sen=>$animal) {
   out "w", Y
   H = c
}
out "after"
// the body changes GRAPH to a copy where the next candidates differ
var G2 = G.copy()
GRAPH = G2
a want e
GRAPH = G
for Z in (a want Z) {
   out "z", Z
   GRAPH = G2
}
GRAPH = G
out exists(F, F.isa(Sen=>$human) & F != a), F
out exists(F, F.isa(Sen=>$animal), 2), F
out exists(F, F.isa(Sen=>$animal), 3), F
out exists(F, F.isa(Sen=>$animal) & F == e), F
out forall(F, F.isa(Sen=>$human) | F.isa(Sen=>$animal)), F
d isa Sen=>$human;
out forall(F, F.isa(Sen=>$human) | !F.isa(Sen=>$animal)), F
out exists(F, F.isa(Sen=>$human) & F.isa(Sen=>$animal)), F
"#;

// Line by line: (a want b) is True, so only c prints before e starts wanting b; H moves from
// a to c after the first animal; the body's GRAPH = G2 makes e a target; then c is the first
// human that is not a; b and d are the two animals (the count 3 fails and leaves F on the
// last node, e); every node is a human or an animal; b is the first animal that is not a
// human once d is both; d is both.
const EXPECTED: &str =
    "h c\nafter\nw b\nw d\nafter\nz b\nz d\nz e\nTrue c\nTrue b\nFalse e\nFalse e\nTrue e\nFalse b\nTrue d\n";

#[test]
fn node_loops_see_what_their_bodies_change() {
    let r = ds_file("node_loops.ds", SCRIPT, &[]);
    assert_eq!(r.stderr, "");
    assert_eq!(r.stdout, EXPECTED);
}

/// The nodes a..e (ids 1 to 5); a on b, a on d, c on e.
const FIVE: &str = "edges on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c, d, e\na on b\na on d\nc on e\n";

#[test]
fn a_condition_that_is_no_node_test_runs_at_each_node_tried() {
    // `exists` compiles to no `NodeTest`: the condition runs at every node. a has b (then d
    // on a makes d pass), b none (Z left on the last node, e), c has e, d has a now, e none.
    let body_changes =
        format!("{FIVE}var Z\nfor X in exists(Z, X on Z) {{\n out X, Z\n if X == a : d on a\n}}\nout Z\n");
    prints(&body_changes, "a b\nc e\nd a\ne\n");
    // A condition that fails at the third node that reaches its second part (d: n holds a
    // string by then) reports where an `if` with that condition reports it.
    let failing = |header: &str, close: &str| {
        format!(
            "{FIVE}d on a\ndef f() {{\n var n = 0\n {header} {{\n  out X\n  n = n + 1\n  if X == c : n = \"x\"\n }}{close}\n}}\nf()\n"
        )
    };
    let in_loop = ds_file("cond.ds", &failing("for X in exists(Z, X on Z) & (n - 1 < 2)", ""), &[]);
    let in_if = ds_file("cond.ds", &failing("for X { if exists(Z, X on Z) & (n - 1 < 2)", "}"), &[]);
    assert_eq!(in_loop.stdout, "a\nc\n");
    assert_eq!(in_if.stdout, in_loop.stdout);
    assert!(in_loop.stderr.contains("`-` needs two numbers, not a string and a number"), "{}", in_loop.stderr);
    assert!(in_loop.stderr.contains("cond.ds:11:32"), "{}", in_loop.stderr);
    assert!(in_if.stderr.contains("cond.ds:11:34"), "{}", in_if.stderr);
}

#[test]
fn exists_of_a_node_constants_targets_binds_the_first_or_the_last_node() {
    // `exists(Z, a on Z)` with a node constant: a's first target in creation order (b), or,
    // with none, Z left on the last node (e), as the loop over every node leaves it; in a
    // demon too, where the condition's closure reads the facts of a copy of the state.
    let top = format!("{FIVE}var Z\nout exists(Z, a on Z), Z\nout exists(Z, b on Z), Z\nout exists(Z, c on Z), Z\n");
    prints(&top, "True b\nFalse e\nTrue e\n");
    let demon = format!(
        "{FIVE}def f(H) {{\n GRAPH = H\n c !on e\n return exists(Z, c on Z)\n}}\nout f(G.copy()), exists(Z, c on Z)\n"
    );
    prints(&demon, "False True\n");
}

/// `for Z in X on Z` in a demon whose body changes, at Z = b, what the loop reads; `cond`
/// replaces the condition.
fn walk(cond: &str) -> String {
    let walk = "global G, G2, H\n\
        def walk(X, change) {\n a on b\n a on d\n G2 = G.copy()\n GRAPH = G2\n a on c\n a !on d\n GRAPH = G\n\
         for Z in COND {\n  out Z\n\
          if Z == b & change == \"undef\" : X on d = Undef\n\
          if Z == b & change == \"copy\" : GRAPH = G2\n\
          if Z == b & change == \"bound\" : X = G2=>a\n\
          if Z == b & change == \"number\" : X = 5\n\
          if Z == b & change == \"grow\" {\n   nodes f\n   X on f\n  }\n\
          if Z == b & change == \"class\" : GRAPH = H\n }\n out \"|\"\n\
         GRAPH = G\n a !on b\n a !on c\n a !on d\n}\n";
    format!("{FIVE}var H = GRAPH(\"H\")\nH.nodes p, q\nvar G2\n{}", walk.replace("COND", cond))
}

#[test]
fn a_loop_over_targets_goes_on_as_the_general_loop_when_its_source_changes() {
    // X = a: b then d. undef (a on d = Undef at b): b. copy (GRAPH = G2 at b, where a on c and
    // a !on d): b c. bound (X = G2=>a, read in G2): b c. grow (a new node f, a on f): b d f.
    // number (X = 5): b, then the edge fails at the condition; class (GRAPH = H, another class
    // of nodes): b, then a is no node of H.
    let cases = "for change in [\"none\", \"undef\", \"copy\", \"bound\", \"grow\"] : walk(a, change)\n";
    let expected = "b\nd\n|\nb\n|\nb\nc\n|\nb\nc\n|\nb\nd\nf\n|\n";
    for cond in ["X on Z", "True & (X on Z)", "(X on Z) == True"] {
        let r = ds_file("walk.ds", &(walk(cond) + cases), &[]);
        assert_eq!((r.stdout.as_str(), r.stderr.as_str()), (expected, ""), "{cond}");
    }
    for (change, message) in [
        ("number", "an edge needs a node or an array of nodes, not a number"),
        ("class", "node `a` is not a node of the current graph `H`"),
    ] {
        for cond in ["X on Z", "True & (X on Z)", "(X on Z) == True"] {
            let r = ds_file("walk.ds", &(walk(cond) + &format!("walk(a, \"{change}\")\n")), &[]);
            assert_eq!(r.stdout, "b\n", "{change} {cond}");
            assert!(r.stderr.contains(message), "{change} {cond}: {}", r.stderr);
            assert!(r.stderr.contains("walk.ds:20:"), "{change} {cond}: {}", r.stderr);
        }
    }
}

/// The least `--max-steps` under which `src` runs to its end: the steps it counts.
fn steps(src: &str) -> u64 {
    let path = crate::common::scratch_file("steps.ds", src);
    let runs = |limit: u64| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_ds"))
            .args(["--max-steps", &limit.to_string()])
            .arg(&path)
            .output()
            .expect("run ds");
        out.status.success()
    };
    assert!(runs(100_000), "{src}");
    let (mut lo, mut hi) = (0, 100_000);
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if runs(mid) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    hi
}

#[test]
fn node_loops_count_a_step_per_node_tried_whichever_way_they_run() {
    // Over a..e (a on b, a on d, c on e): `for X { if C : n = n + 1 }` counts, besides the
    // `for`, two steps per node (the node, the `if`) and one per pass (a, c): 1 + 10 + 2;
    // `for X in C` one per node: 1 + 5 + 2. Nested, `for X { for Z in X on Z : ... }`: 1 + 5
    // for the outer loop, 5 inner `for`s, 5 nodes tried by each, 3 passes: 39 in all.
    for (open, close) in [("def f() {\n", "}\nf()\n"), ("", "")] {
        let program = |lp: &str| format!("{FIVE}{open}var n = 0\n{lp}\nout n\n{close}");
        let by_if = steps(&program("for X { if exists(Z, X on Z) : n = n + 1 }"));
        assert_eq!(steps(&program("for X in exists(Z, X on Z) : n = n + 1")) + 5, by_if);
        let nested = steps(&program("for X { for Z in X on Z : n = n + 1 }"));
        assert_eq!(nested, by_if - 13 + 39);
        assert_eq!(steps(&program("for X { for Z in True & (X on Z) : n = n + 1 }")), nested);
        assert_eq!(steps(&program("for X { for Z in (X on Z) == True : n = n + 1 }")), nested);
        // Stopped anywhere in the loops, each way stops at the same place with the same output.
        for limit in nested - 40..nested {
            let limit = limit.to_string();
            let outcome = |cond: &str| {
                let src = program(&format!("for X {{ for Z in {cond} : n = n + 1 }}"));
                let r = ds_file("limit.ds", &src, &["--max-steps", &limit]);
                let place = r.stderr.lines().nth(1).and_then(|l| l.split("limit.ds:").nth(1)).map(str::to_string);
                (
                    r.stdout,
                    r.stderr.lines().next().map(str::to_string),
                    place.map(|p| p[..p.find(':').unwrap_or(0)].to_string()),
                    r.code,
                )
            };
            let general = outcome("(X on Z) == True");
            assert_eq!(outcome("X on Z"), general, "limit {limit}");
            assert_eq!(outcome("True & (X on Z)"), general, "limit {limit}");
        }
    }
}
