//! A program with every statement and expression kind of the IR that the surface syntax can
//! write (all but `StKind::Block`) runs: every kind has a compiled form (a statement kind
//! without one does not compile, as `closure::other_stmt` has an arm for each; an expression
//! kind without one would be an internal error, `closure::no_closure_value`).

use crate::session::{Outcome, Session};
use std::cell::RefCell;
use std::io::Write;
use std::rc::Rc;

#[derive(Clone, Default)]
struct Buf(Rc<RefCell<Vec<u8>>>);

impl Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// SetEdge, Axiom, Nodes (both forms), Static, ReturnIfdef, Return with and without a value,
/// Var, For over a range, values and nodes, While, If, Break, Continue, Out; Assign and
/// Compound to an index and an edge, IncDec, Array, Map, Index, Lambda, DemonValue, CallValue,
/// Demon, Builtin of 0 to 3 arguments, Unary, Binary, Sum, AndOr, Ternary, Exists with and
/// without bounds, Forall, NodeOf, Node, Edge, Eval, Tuple, Axioms, ValueInModels, Const, Var,
/// CurrentGraph.
const EVERY_KIND: &str = r#"edges on, near
var G = GRAPH("G")
GRAPH = G
nodes a, b, p
G.nodes c
a on p; b on p
X near Y -> Y near X
a near b
def counter() { static n = 0; n = n + 1; return n }
def first_known(u, w) { return ifdef u
   return w }
def nothing() { return }
def loops() {
  var s = 0
  for i in range(5) { if i == 3 : continue
     if i == 4 : break
     s += i }
  var k = 0
  while k < 3 { k++ }
  for v in [10, 20] { s = s + v }
  for X in X on p { s = s + 100 }
  return s + k
}
var A = [1, 2, 3]
A[0] += 5
A[1]++
var M = {"x": 1, "y": 2}
var f = (x) => x * 2
var d = counter
out A[0], A[1], A.size(), M["y"], f(4), d(), counter(), first_known(Undef, 2), first_known(1, 2)
out loops(), nothing(), -A[0], !True, and(True, False), or(False, True), 1 > 2 ? "yes" : "no"
out exists(X, X on p, 2), forall(X, X == X), G=>$a == a, exists(Z, b on Z), eval("1 + 2")
(a on p) = False
out (a on p), Mind.set_graph(G), (b near a), Mind.value(G, b on p), (1, 0) == False
Mind.add(X on Y -> Y !on X)
out "ok".size(), Math.max(1, 2, 3), "x" + 1 + 2
def renamed(H, k) { H.name(H.name() + k) }
renamed(G, ";1"); renamed(G, 2)
out G.name()
out exists(X, X.string() + "-" + "x" == "b-x"), forall(X, (1, 0) == False)
for X in X.string() + "" + "" == "a" { out X }
"#;

#[test]
fn every_kind_runs_as_closures() {
    let out = Buf::default();
    let mut session = Session::new(Box::new(out.clone()));
    let outcome = session.run_source("every_kind.ds", EVERY_KIND);
    assert!(matches!(outcome, Outcome::Finished(_)), "{outcome:?}");
    // loops(): 0 + 1 + 2 (3 skipped, 4 stops), + 10 + 20, + 100 for each of a and b, + k = 3.
    let expected = "6 3 3 2 8 1 2 2 1\n236 Undef -6 False False True no\nTrue True True True 3\n\
                    False 1 True True True\n2 3 x12\nG;12\nTrue True\na\n";
    assert_eq!(String::from_utf8_lossy(&out.0.borrow()), expected);
}
