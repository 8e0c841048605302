//! Values written into their slots in place rather than made aside and moved in (issue 43,
//! "The seed's program on the wolf worlds" in docs/performance.md): a demon's local arguments
//! pushed slot to slot, `exists` binding a variable that held something else, `GRAPH = G` and
//! the graph a demon restores, `A rel B = <constant>`. Each is checked against what the
//! general path gives (the same statement written another way), with the expected lines
//! worked out by hand.

use crate::common::{ds_file, without_scratch_dirs};

const WORLD: &str = r#"edges on
var Sen = GRAPH("Sen")
Sen.nodes $human
global Sen
var G = GRAPH("G")
global G
GRAPH = G
nodes a, b, c
"#;

#[test]
fn local_arguments_of_every_kind_reach_the_demon_and_stay_the_callers() {
    // A graph, a node, an array, a string and an array again, pushed from locals 1,000 times:
    // the array is shared (1,000 pushes seen by the caller), the graph too (the edge set in the
    // callee is in S, not in G), and every count stays right (S is read after all the calls).
    let demon = r#"def f(S, N, A, T, X)
{
   A.push(1)
   GRAPH = S
   N on b;
   return T + X.size()
}
def g()
{
   var S = G.copy()
   var N = a
   var A = [0]
   var T = "t"
   var X = [5, 6]
   var R = ""
   for I in range(1000) : R = f(S, N, A, T, X)
   out R, A.size(), T, X.size()
   GRAPH = S
   out (a on b), (b on b)
   GRAPH = G
   out (a on b)
}
g()
"#;
    let run = ds_file("args.ds", &format!("{WORLD}{demon}"), &[]);
    assert_eq!(run.stdout, "t2 1001 t 2\nTrue Undef\nUndef\n", "{}", run.stderr);
}

#[test]
fn exists_binds_a_variable_that_held_another_kind_of_value() {
    // Z held a graph and W a string: `exists` writes the node over them (the first True
    // target c; on failure the class's last node, c, as the loop over nodes leaves it), in a
    // demon and at the top level.
    let code = r#"a on c;
def h(G)
{
   GRAPH = G
   var Z = G
   if exists(Z, a on Z) : out Z
   var W = "text"
   out exists(W, b on W), W
}
h(G)
var Z = G
var W = [1]
out exists(Z, a on Z), Z, exists(W, b on W), W
"#;
    let run = ds_file("bind.ds", &format!("{WORLD}{code}"), &[]);
    assert_eq!(run.stdout, "c\nFalse c\nTrue c False c\n", "{}", run.stderr);
}

#[test]
fn graph_set_from_a_local_and_restored_after_a_demon() {
    // GRAPH = N with N a number gives the error `GRAPH = N + 0` gives (the general path);
    // the caller's GRAPH is back after a demon that set its own, graph or not.
    let code = r#"def set(N)
{
   GRAPH = N
   return 1
}
GRAPH = 7
set(G)
out GRAPH
GRAPH = G
set(7)
out GRAPH.name()
def edge(N)
{
   GRAPH = N
   a on b;
}
edge(5)
"#;
    let run = ds_file("graph.ds", &format!("{WORLD}{code}"), &[]);
    assert_eq!(run.stdout, "7\nG\n", "{}", run.stderr);
    let general =
        ds_file("graph.ds", &format!("{WORLD}{}", code.replace("GRAPH = N\n   a on", "GRAPH = N + 0\n   a on")), &[]);
    assert_eq!(general.stdout, run.stdout);
    assert!(run.stderr.contains("node `a` needs GRAPH to be a graph, not a number"), "{}", run.stderr);
    assert_eq!(without_scratch_dirs(&run.stderr), without_scratch_dirs(&general.stderr));
}

#[test]
fn an_edge_set_to_a_constant_applies_its_mode_as_to_a_value() {
    // `!on = True` stores False, `?on = True` Undef; the same with the value in a variable
    // (the general path) gives the same lines; nodes of another graph (Sen=>$human) and a
    // number in place of a node take the general path, and fail as it does.
    let demon = r#"def m(A, B)
{
   GRAPH = G
   A !on B = True
   out (A on B)
   A ?on B = True
   out (A on B)
   A on B = True
   A !on B = False
   out (A on B)
   A on B = Undef
   out (A on B)
}
m(a, b)
m(a, Sen=>$human)
m(5, b)
"#;
    let expected = "False\nUndef\nTrue\nUndef\nFalse\nUndef\nTrue\nUndef\n";
    let run = ds_file("modes.ds", &format!("{WORLD}{demon}"), &[]);
    assert_eq!(run.stdout, expected, "{}", run.stderr);
    let values = demon
        .replace("   A !on B = True", "   var T = True\n   var F = False\n   var U = Undef\n   A !on B = T")
        .replace("?on B = True", "?on B = T")
        .replace("A on B = True", "A on B = T")
        .replace("!on B = False", "!on B = F")
        .replace("A on B = Undef", "A on B = U");
    assert_ne!(values, demon);
    let general = ds_file("modes.ds", &format!("{WORLD}{values}"), &[]);
    assert_eq!(general.stdout, expected, "{}", general.stderr);
    assert!(run.stderr.contains("an edge needs a node or an array of nodes, not a number"), "{}", run.stderr);
    // The same message at the same place (the first statement of `m`, 3 lines further down
    // in the general program).
    assert!(run.stderr.contains("modes.ds:12:4"), "{}", run.stderr);
    assert!(general.stderr.contains("an edge needs a node or an array of nodes, not a number"));
    assert!(general.stderr.contains("modes.ds:15:4"), "{}", general.stderr);
}

#[test]
fn an_edge_to_a_node_constant_is_read_and_set_in_the_current_graphs_class() {
    // `a on c` with node constants, in place once `c` is known in the current graph's class;
    // in a graph of another class (H, where c and a have other numbers) the general path
    // finds them again. Each state gets its own edge: True in the one set, Undef the other way.
    let code = r#"def r(K)
{
   GRAPH = K
   a on c;
   out (a on c), (c on a), (a on b)
}
def clear(K)
{
   GRAPH = K
   a on c = Undef
   out (a on c)
}
r(G)
var H = GRAPH("H")
GRAPH = H
nodes c, b, a
r(H)
clear(G)
r(G)
GRAPH = H
out (a on c), (c on a)
clear(H)
"#;
    let run = ds_file("consts.ds", &format!("{WORLD}{code}"), &[]);
    assert_eq!(
        run.stdout, "True Undef Undef\nTrue Undef Undef\nUndef\nTrue Undef Undef\nTrue Undef\nUndef\n",
        "{}",
        run.stderr
    );
}

#[test]
fn two_locals_compared_in_place_give_what_values_give() {
    // `A == B` and `A != B` of two locals, as a test and as values: nodes (the same, another,
    // one of another graph) are compared where they are; numbers, strings, logic values and a
    // node against a number take the other paths (`==` of logic values is True exactly when
    // they are the same value, Undef too). The top level (globals) gives the same.
    let code = r#"def cmp(A, B)
{
   if A == B : return "same"
   return "differ"
}
def both(A, B)
{
   return (A == B) + "/" + (A != B)
}
out cmp(a, a), cmp(a, b), cmp(a, Sen=>$human), cmp(a, 1), cmp(1, 1), cmp("x", "x"), cmp(True, True), cmp(True, Undef)
out both(a, a), both(a, b), both(a, 1), both(Undef, Undef)
var A = a
var B = b
out (A == B) + "/" + (A != B), (A == A) + "/" + (A != A)
"#;
    let run = ds_file("compare.ds", &format!("{WORLD}{code}"), &[]);
    let expected = "same differ differ differ same same same differ\n\
                    True/False False/True False/True True/False\n\
                    False/True True/False\n";
    assert_eq!(run.stdout, expected, "{}", run.stderr);
}

#[test]
fn arithmetic_arguments_are_pushed_as_numbers_or_as_values_when_they_are_not() {
    // `f(g * 3)` and `f(g + 1)` with g a global: pushed as numbers while g holds one (6, 3);
    // when g holds a string, `g + 1` is the string "ab1" and `g * 3` the error of `*`, at
    // the argument's place, the call never made.
    let code = r#"def f(x) { return x }
var g = 2
out f(g * 3), f(g + 1)
g = "ab"
out f(g + 1)
out f(g * 3)
"#;
    let run = ds_file("push_args.ds", code, &[]);
    assert_eq!(run.stdout, "6 3\nab1\n", "{}", run.stderr);
    assert!(run.stderr.contains("push_args.ds:6:7"), "{}", run.stderr);
}
