//! Loops, `var`, `break`/`continue`, `GRAPH =` and edges in demon bodies, which run as
//! closures (`eval/closure/loops.rs`, `graph.rs`), with edges between two local variables read
//! and set in place. The expected lines are worked out by hand; the errors are compared with
//! the same statements at the top level, which the tree walker runs.

use crate::common::ds_file;

const WORLD: &str = r#"edges on, want
global Sen
Sen = GRAPH("Sen")
Sen.nodes $human, $animal
var G = GRAPH("G")
GRAPH = G
nodes a, b, c, d, e
[a, c, e] isa Sen=>$human;
[b, d] isa Sen=>$animal;
a want b
a want d
c want d
"#;

#[test]
fn loops_in_a_demon_visit_what_the_tree_walker_visits() {
    // The node loops of node_loops.rs, inside a demon; then an array and a range with
    // `continue` and `break`.
    let demon = r#"def loops(G)
{
   GRAPH = G
   for X in X.isa(Sen=>$human) & (X want b) != True {
      out "h", X
      if X == c : e want b
   }
   out "after"
   var H = a
   for Y in (H want Y) & Y.isa(Sen=>$animal) {
      out "w", Y
      H = c
   }
   var S = 0
   for I in [1, 2, 3, 4, 5] {
      if I == 2 : continue
      if I == 4 : break
      S = S + I
   }
   for J in range(10) {
      if J > 2 : break
      S = S + 10
   }
   out S
}
loops(G)
"#;
    let run = ds_file("loops.ds", &format!("{WORLD}{demon}"), &[]);
    // (a want b) is True, so only c prints before e starts wanting b; H moves from a to c after
    // the first animal; S = 1 + 3 (2 skipped, stopped at 4), then 10 for each of 0, 1, 2.
    assert_eq!(run.stdout, "h c\nafter\nw b\nw d\n34\n", "{}", run.stderr);
}

#[test]
fn edges_between_locals_are_set_and_read_in_place() {
    let demon = r#"def edges_of(X, Y)
{
   X want Y;
   var A = X want Y
   X !want Y;
   var B = X want Y
   X want Y = Undef
   var C = (X want Y) != True
   X ?want Y;
   X want Y = False
   X !want Y = False
   out A, B, C, X want Y, (Y want X) == Undef
}
edges_of(b, c)
edges_of(e, e)
"#;
    let run = ds_file("edges.ds", &format!("{WORLD}{demon}"), &[]);
    // Set True, then False (`!want`), then Undef; `!want = False` stores True at the end. c
    // does not want b; e wants e once it is set.
    assert_eq!(run.stdout, "True False True True True\nTrue False True True False\n", "{}", run.stderr);
}

#[test]
fn an_edge_of_other_values_fails_as_at_the_top_level() {
    let statements = ["X want Y;", "X want Y = True", "var Z = (X want Y) != True"];
    for (x, y) in [("1", "c"), ("c", "\"x\""), ("Sen=>$human", "a")] {
        for st in statements {
            let in_demon = format!("{WORLD}def f(X, Y) {{\n   {st}\n}}\nf({x}, {y})\n");
            let at_top = format!("{WORLD}var X = {x}\nvar Y = {y}\n{st}\n");
            let (d, t) = (ds_file("edge_demon.ds", &in_demon, &[]), ds_file("edge_top.ds", &at_top, &[]));
            assert_eq!(d.code, Some(1), "{x} {y} {st}: {}", d.stderr);
            let first = |s: &str| s.lines().next().unwrap_or("").to_string();
            assert_eq!(first(&d.stderr), first(&t.stderr), "{x} {y} {st}");
        }
    }
}

#[test]
fn exists_of_a_target_in_a_demon_binds_what_the_tree_walker_binds() {
    let body = r#"   GRAPH = G
   var X = a
   out exists(Z, X want Z), Z
   X = c
   out exists(Z, X want Z), Z
   X = b
   out exists(Z, X want Z), Z
   X = 5
   out exists(Z, X want Z)
"#;
    let demon = format!("def targets(G)\n{{\n{body}}}\ntargets(G)\n");
    let run = ds_file("targets.ds", &format!("{WORLD}{demon}"), &[]);
    // a wants b and d (b comes first), c wants d; b wants nothing, and Z is left on the last
    // node, as the tree walker leaves it; a number has no targets.
    let top = ds_file("targets_top.ds", &format!("{WORLD}{body}"), &[]);
    assert_eq!(run.stdout, top.stdout, "{}", run.stderr);
    assert!(run.stdout.starts_with("True b\nTrue d\nFalse "), "{}", run.stdout);
    let error = "an edge needs a node or an array of nodes, not a number";
    assert!(run.stderr.contains(error) && top.stderr.contains(error), "{}", run.stderr);
    assert!(run.stderr.contains("targets.ds:23:18"), "{}", run.stderr);
}

#[test]
fn a_loop_keeps_its_test_only_while_the_state_it_reads_has_the_same_structure() {
    // The loop and the `exists` keep their tests between calls (one per site); a state with
    // another `isa` structure, or the same state after an `isa` fact changed, needs a new one.
    let demon = r#"def humans(G)
{
   GRAPH = G
   var N = ""
   for X in X.isa(Sen=>$human) : N = N + X.string()
   if exists(Y, Y.isa(Sen=>$human) & (Y want d)) : N = N + "+" + Y.string()
   return N
}
out humans(G)
var H = G.copy()
GRAPH = H
b isa Sen=>$human;
out humans(H)
out humans(G)
GRAPH = G
a isa Sen=>$human = Undef
out humans(G)
"#;
    let run = ds_file("humans.ds", &format!("{WORLD}{demon}"), &[]);
    // a, c and e are human in G, a first of those who want d; b joins them in the copy only;
    // once a is no longer human, c is the first.
    assert_eq!(run.stdout, "ace+a\nabce+a\nace+a\nce+c\n", "{}", run.stderr);
}
