//! Builtin method calls in demon bodies that run as closures (`eval/closure/method.rs`):
//! `G.name(G.name() + ...)`, the rename of every state a search makes. The expected names are
//! worked out by hand; the errors and the work counted are those of the tree walker.

use crate::common::ds_file;

const WORLD: &str = r#"var G = GRAPH("Start")
GRAPH = G
nodes f, s
"#;

#[test]
fn a_state_renamed_in_a_demon_has_its_old_name_and_the_pieces() {
    let demon = r#"def rename(G, H, S)
{
   G.name(G.name() + ";" + H.string() + S)
   G.name(G.name() + ".x")
   return G.name()
}
out rename(G, f, ".p")
out rename(G, s, "")
var L = G.copy()
L.name("a name long enough to be kept by reference")
out rename(L, s, ".t"), G.name()
out rename(L, f, 7)
"#;
    let run = ds_file("rename.ds", &format!("{WORLD}{demon}"), &[]);
    // Each call appends ";" H's name and S, then ".x"; the copy L is renamed apart from G. S = 7
    // is no string: the tree walker appends its printed form.
    let expected = "Start;f.p.x\nStart;f.p.x;s.x\n\
                    a name long enough to be kept by reference;s.t.x Start;f.p.x;s.x\n\
                    a name long enough to be kept by reference;s.t.x;f7.x\n";
    assert_eq!(run.stdout, expected, "{}", run.stderr);
}

#[test]
fn renaming_what_is_no_graph_fails_as_outside_a_demon() {
    let demon = r#"def bad(G, H)
{
   G.name(G.name() + H.string())
}
bad(5, f)
"#;
    let run = ds_file("bad.ds", &format!("{WORLD}{demon}"), &[]);
    assert!(run.stderr.contains("`name` works on graphs, not on a number"), "{}", run.stderr);
    assert!(run.stderr.contains("bad.ds:6:4"), "the whole call is pointed at: {}", run.stderr);
    assert!(run.stderr.contains("in demon `bad`"), "{}", run.stderr);
}

#[test]
fn copying_a_long_name_counts_as_work_in_a_demon() {
    // A name of 10,000 characters: each `+` copies it, a step per 256 bytes (about 39), so 100
    // renames cost about 4,000 steps beside the loop's 300 or so.
    let demon = r#"def grow(G)
{
   for I in range(100) : G.name(G.name() + "y")
   return G.name().size()
}
G.name("x".repeat(10000))
out grow(G)
"#;
    let src = format!("{WORLD}{demon}");
    let run = ds_file("grow.ds", &src, &[]);
    assert_eq!(run.stdout, "10100\n", "{}", run.stderr);
    let stopped = ds_file("grow.ds", &src, &["--max-steps", "2000"]);
    assert!(stopped.stderr.contains("step limit of 2000 reached"), "{}", stopped.stderr);
    assert_eq!(stopped.stdout, "");
}

#[test]
fn builtin_calls_in_a_demon_give_what_they_give_outside() {
    let demon = r#"def calls(A, X)
{
   A.push(1)
   A.push(X.size())
   A.unshift(A.pop() + 10)
   out A, A.is(1), A.empty(), range(2)
   X.push(3)
}
calls([], "abc")
"#;
    let run = ds_file("calls.ds", demon, &[]);
    // [1, 3] (the string's size), then the 3 popped and 13 put in front.
    assert_eq!(run.stdout, "[13,1] True False [0,1]\n", "{}", run.stderr);
    // A method of several bodies (arrays, heaps) refuses a string as the tree walker does.
    assert!(run.stderr.contains("`push` works on arrays and heaps, not on a string"), "{}", run.stderr);
    assert!(run.stderr.contains("calls.ds:7:4"), "{}", run.stderr);
}
