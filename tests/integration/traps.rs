//! What new users trip over (issue 15): code that ran but silently did something else.

use crate::common::prints;

/// `else` belongs to the innermost `if` that can take it, whatever the order of the `false:` and
/// `undef:` clauses before it: here the `if b` in the clause written last.
#[test]
fn an_else_belongs_to_the_innermost_if_whatever_the_clause_order() {
    let logic = ["True", "False", "Undef"];
    for order in [["undef", "false"], ["false", "undef"]] {
        for a in logic {
            for b in logic {
                let src = format!(
                    "var a = {a}\nvar b = {b}\nif a : out 1\n{} : out 2\n{} : if b : out 3\nelse : out 4\n",
                    order[0], order[1]
                );
                // By hand: the outer `if` runs its `then`, or the clause named after a's value;
                // the inner `if b` (in the clause written last) owns the `else`.
                let clause = match a {
                    "True" => None,
                    "False" => Some("false"),
                    _ => Some("undef"),
                };
                let want = match clause {
                    None => "1\n",
                    Some(c) if c == order[0] => "2\n",
                    Some(_) if b == "True" => "3\n",
                    Some(_) => "4\n",
                };
                prints(&src, want);
            }
        }
    }
}

#[test]
fn an_else_after_clauses_in_braces_belongs_to_the_outer_if() {
    // A braced block is closed: nothing after it can reach inside.
    let src = "var a = False\nvar b = False\nif a : out 1\nundef : out 2\nfalse { if b : out 3 }\nelse : out 4\n";
    prints(src, "");
    let src = "var a = True\nvar b = False\nif a { if b : out 3 }\nfalse : out 2\nelse : out 4\n";
    prints(src, "");
}

/// The original's CHANGELOG 1.1.4 idiom: a node made by `add_node()` is bound to its graph, so
/// its value goes there whatever the current graph is.
#[test]
fn an_unnamed_added_node_is_bound_to_its_graph() {
    prints("var Evs = GRAPH(\"Evs\")\nout Evs.add_node().value(\"S0\")\nvar N = Evs.add_node()\nN.value(5)\nout N.value(), N.graph() == Evs\n", "S0\n5 True\n");
    // A named one is returned unbound, and prints as its name (as the original prints it).
    prints("var G = GRAPH(\"G\")\nGRAPH = G\nvar n = G.add_node(\"d\")\nout n, G.nodes()\n", "d [d]\n");
}

/// `edges` declares its relations when the program is compiled, wherever it stands.
#[test]
fn edges_in_a_block_that_never_runs_still_declare_the_relation() {
    prints(
        "if False { edges near }\ndef never() { edges far }\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b\na near b\na far b\nout (a near b), (a far b)\n",
        "True True\n",
    );
}
