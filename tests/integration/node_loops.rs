//! Node loops and quantifiers whose condition ds tests without the evaluator, visiting only the
//! candidates of the first conjunct (`eval::node_test`): the same nodes, in the same order,
//! and the loop variable left where the evaluator leaves it, also when the body changes what
//! the condition reads. The expected lines were worked out by hand (and agree with a build
//! that evaluates the condition at every node).

use crate::common::ds_file;

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
