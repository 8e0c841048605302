//! The Mind module (reference 7.11) and axiom statements (reference 3.13), as docs/language.md
//! describes them. Every expectation is worked out by hand in the comment next to it;
//! scripts/mind.ds with its brute-force oracle covers the larger worlds.

use crate::common::{ds_eval, fails_with, prints};

/// A world with nodes a, b, c, d and the relations part and on.
const ABCD: &str = "edges part, on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c, d\n";

#[test]
fn transitivity_over_a_chain_derives_the_three_missing_edges() {
    // a-b, b-c, c-d given; a-c and b-d follow in the first pass, a-d in the second: 3 in all.
    // No False edge: the clause concludes a negative literal only from a False fact, and there
    // is none. A second run finds nothing new.
    prints(
        &format!(
            "{ABCD}a part b; b part c; c part d\nMind.add(X part Y & Y part Z -> X part Z)\n\
             out Mind.set_graph(G), G.facts(), (a part d), (d part a)\nout Mind.set_graph(G)\n"
        ),
        "3 6 True Undef\n0\n",
    );
}

#[test]
fn a_contradiction_returns_minus_one_and_leaves_the_graph_alone() {
    // a part b and b part a with transitivity give a part a, which `X !part X` forbids.
    let code = format!(
        "{ABCD}a part b; b part a\nMind.add(X !part X, X part Y & Y part Z -> X part Z)\n\
         out Mind.set_graph(G), Mind.was_conflict(), G.facts(), (c part c)\n\
         b part a = Undef\nout Mind.set_graph(G), Mind.was_conflict()\n"
    );
    // Without b part a: 4 reflexive False edges, and b part a False (else b part b): 5.
    prints(&code, "-1 True 2 Undef\n5 False\n");
}

#[test]
fn set_applies_its_axioms_once_and_keeps_none() {
    // One pass on the chain: a-c and b-d (paths of length 2 seen at the start); then a-d.
    // `set` does not keep the axiom: Mind.set_graph afterwards has nothing to apply.
    let code = format!(
        "{ABCD}a part b; b part c; c part d\nout set(X part Y & Y part Z -> X part Z)\n\
         out set(X part Y & Y part Z -> X part Z), Mind.set_graph(G)\nMind.out()\n"
    );
    prints(&code, "2\n1 0\nno axioms\n");
}

#[test]
fn a_statement_made_of_edge_literals_is_an_axiom_of_the_current_graph() {
    // Not evaluated (X and Y are not declared: they are quantified), stored in G; a copy made
    // afterwards carries it, a graph of another world does not get it.
    let code = format!(
        "{ABCD}X on Y -> Y on X\na on b\nvar H = G.copy()\nout Mind.set_graph(H), H.facts(), G.facts()\n\
         out Mind.set_graph(GRAPH(\"Other\"))\nMind.out()\n"
    );
    // H gains b on a; G keeps its one fact until inference runs on G itself.
    prints(&code, "1 2 1\n0\ngraph G: X !on Y | Y on X  (used 1)\n");
}

#[test]
fn a_disjunction_of_calls_is_still_evaluated() {
    // `f() | g()` is not made of edge literals: it runs both calls (the original called
    // nothing; ds keeps evaluating it, as before the Mind module existed).
    prints("def f(x) { out x; return False }\nf(1) | f(2)\n", "1\n2\n");
}

#[test]
fn an_axiom_statement_inside_a_demon_goes_to_the_graph_current_then() {
    let code =
        format!("{ABCD}def rules() {{ X part Y -> Y part X }}\nrules()\na part c\nout Mind.set_graph(G), (c part a)\n");
    prints(&code, "1 True\n");
}

#[test]
fn formulas_are_turned_into_clauses() {
    // `A -> B & C` is two clauses; `<->` two more; `!(X on Y)` a negative literal.
    let code = format!("{ABCD}Mind.add(X part Y -> X on Y & Y !on X, X on a <-> !(a on X))\nMind.out()\n");
    prints(
        &code,
        "always: X !part Y | X on Y  (used 0)\nalways: X !part Y | Y !on X  (used 0)\n\
         always: X !on a | a !on X  (used 0)\nalways: X on a | a on X  (used 0)\n",
    );
}

#[test]
fn declared_variables_and_relation_variables_are_fixed_when_the_axiom_is_added() {
    // who = a and R = on when Mind.add runs; changing them afterwards changes nothing.
    let code = format!(
        "{ABCD}var who = a, R = on\nMind.add(who R Y -> Y R who)\nwho = b\nR = part\nb on a\nc on a\n\
         out Mind.set_graph(G), G.str()\n"
    );
    prints(&code, "0 b on a . c on a . \n");
    let code2 =
        format!("{ABCD}var who = a, R = on\nMind.add(who R Y -> Y R who)\na on c\nout Mind.set_graph(G), (c on a)\n");
    prints(&code2, "1 True\n");
}

#[test]
fn identity_literals_and_distinct_variables() {
    // `X on Y -> X == Y` makes every non-loop on-edge False: 4 * 3 = 12 edges.
    prints(&format!("{ABCD}Mind.add(X on Y -> X == Y)\nout Mind.set_graph(G)\n"), "12\n");
    // With a part b and b part a, transitivity gives a part a and b part b; with
    // Mind.differnt_vals(1), X, Y, Z must be three different nodes, and no instance fires.
    let code = format!(
        "{ABCD}a part b; b part a\nMind.add(X part Y & Y part Z -> X part Z)\nvar H = G.copy()\n\
         out Mind.set_graph(H)\nout Mind.differnt_vals(1), Mind.set_graph(G)\n"
    );
    prints(&code, "2\n1 0\n");
}

#[test]
fn groups_select_the_axioms_set_graph_applies() {
    let code = format!(
        "{ABCD}Mind.group(1)\nMind.add(X part Y -> Y part X)\nMind.group(2)\nMind.add(X part Y -> X on Y)\n\
         Mind.group(0)\na part b\nout Mind.set_graph(G, 2), G.str()\nout Mind.set_graph(G, 1), G.str()\n\
         out Mind.set_graph(G)\n"
    );
    // Group 2 only: a on b. Group 1: b part a. All: b on a follows from b part a.
    prints(&code, "1 a part b . a on b . \n1 a part b . a on b . b part a . \n1\n");
}

#[test]
fn axioms_about_nodes_of_another_world_do_not_apply() {
    let code = "edges on\nvar A = GRAPH(\"A\")\nGRAPH = A\nnodes a, b\nMind.add(a on X -> X on a)\n\
                var B = GRAPH(\"B\")\nGRAPH = B\nnodes x, y\nx on y\nout Mind.set_graph(B)\n\
                GRAPH = A\na on b\nout Mind.set_graph(A), (b on a)\n";
    prints(code, "0\n1 True\n");
    // `set` too: with B current, an axiom about A's node a sets nothing in B.
    let code2 = "edges on\nvar A = GRAPH(\"A\")\nGRAPH = A\nnodes a, b\nvar who = a\n\
                 var B = GRAPH(\"B\")\nGRAPH = B\nnodes x, y\nx on y\nout set(who on X -> X on who), B.facts()\n";
    prints(code2, "0 1\n");
}

#[test]
fn fuzzy_edges_are_left_alone() {
    // The clause would set a on b, but it holds (0.3,0.6): inference neither changes it nor
    // counts it as a contradiction.
    let code = format!(
        "{ABCD}a part b\na on b = (0.3, 0.6)\nMind.add(X part Y -> X !on Y)\nout Mind.set_graph(G), (a on b)\n"
    );
    prints(&code, "0 (0.3,0.6)\n");
}

#[test]
fn models_are_found_in_search_order_and_named_after_the_graph() {
    // a and b, `on` symmetric with a on b given: a-a and b-b are free: 4 models. True is tried
    // before False, a's edges before b's: (T,T), (T,F), (F,T), (F,F).
    let code = "edges on\nvar A = GRAPH(\"A\")\nGRAPH = A\nnodes a, b\nMind.add(X on Y -> Y on X)\na on b\n\
                var M = Mind.get_models(A, on)\nfor m in M { GRAPH = m; out m.name(), (a on a), (b on b) }\n\
                out Mind.count_models(A, on), Mind.count_models(A, on, 3), Mind.get_models(A, [on], 2).size()\n\
                out Mind.value(M, a on b), Mind.value(M, a on a), Mind.value(M[0], a on a), Mind.value([], a on a)\n";
    prints(code, "A_1 True True\nA_2 True False\nA_3 False True\nA_4 False False\n4 3 2\nTrue Undef True Undef\n");
}

#[test]
fn a_validator_drops_models() {
    // The lambda refuses models with a on a: 2 of the 4 above remain.
    let code = "edges on\nvar A = GRAPH(\"A\")\nGRAPH = A\nnodes a, b\nMind.add(X on Y -> Y on X)\na on b\n\
                Mind.validator((M) => !(M=>$a on M=>$a))\nout Mind.count_models(A, on)\n\
                Mind.validator(None)\nout Mind.count_models(A, on)\n";
    prints(code, "2\n4\n");
}

#[test]
fn split_and_merge() {
    // One person p, chairs c1, c2: the typing axiom makes the 7 edges other than p sits c1 and
    // p sits c2 False. The first open edge is p sits c1: True forces p !sits c2, False forces
    // p sits c2. Merged, the two share the 7 False edges and nothing about p's chair. H itself
    // is not changed; a split of a complete graph is empty.
    let code = "edges sits\nvar H = GRAPH(\"H\")\nGRAPH = H\nnodes p, c1, c2\n\
                Mind.add(X sits Y -> X == p & (Y == c1 | Y == c2), p sits c1 | p sits c2, p sits c1 -> p !sits c2)\n\
                var S = Mind.split_graph(H, sits)\nout S.size(), S[0].name()\n\
                GRAPH = S[0]\nout (p sits c1), (p sits c2)\nGRAPH = S[1]\nout (p sits c1), (p sits c2)\n\
                var M = Mind.merge(S[0], S[1])\nGRAPH = M\nout M.facts(), (p sits c1), H.facts()\n\
                out Mind.merge(S).facts(), Mind.split_graph(S[0], sits).size()\n";
    prints(code, "2 H\nTrue False\nFalse True\n7 Undef 0\n7 0\n");
}

#[test]
fn usual_axioms_are_defaults() {
    // tweety is a bird; birds usually fly; only tweety can fly at all (`tweety can fly` is the
    // one open `can` edge). The split puts the default first. Of the 2 models over `can`, the
    // one where tweety flies breaks no default and comes first; the other breaks tweety's.
    // (bird's own instance is never broken: `bird kind bird` stays Undef.)
    let code = "edges kind, can\nvar B = GRAPH(\"B\")\nGRAPH = B\nnodes tweety, bird, fly\ntweety kind bird\n\
                Mind.add(X can Y -> X == tweety & Y == fly)\nMind.add_usual(X kind bird -> X can fly)\n\
                var S = Mind.split_graph_usual(B)\nGRAPH = S[0]\nout S.size(), (tweety can fly)\n\
                GRAPH = S[1]\nout (tweety can fly)\nvar U = Mind.get_usual_models(B, can)\n\
                GRAPH = U[0]\nout U.size(), (tweety can fly)\nGRAPH = U[1]\nout (tweety can fly)\n\
                Mind.clear()\nout Mind.split_graph_usual(B).size()\n";
    prints(code, "2 True\nFalse\n2 True\nFalse\n0\n");
}

#[test]
fn settings_read_and_set() {
    prints(
        "out Mind.mode(), Mind.mode(2), Mind.verbose(), Mind.group(3), Mind.group(), Mind.out_undef(1), \
         Mind.different_vals(), Mind.differnt_vals(1), Mind.was_conflict()\nMind.clear_used()\n",
        "0 2 0 3 3 1 0 1 False\n",
    );
}

#[test]
fn verbose_notes_go_to_standard_error() {
    let r =
        ds_eval(&format!("{ABCD}Mind.verbose(1)\nMind.add(X part Y -> Y part X)\na part b\nout Mind.set_graph(G)\n"));
    assert_eq!(r.stdout, "1\n");
    assert_eq!(r.stderr, "note: Mind sets b part a = True in graph G (axiom: X !part Y | Y part X)\n");
}

#[test]
fn bad_arguments_are_runtime_errors() {
    fails_with(&format!("{ABCD}out Mind.get_models(G, 5)"), "must be an edge type or an array of them");
    fails_with(&format!("{ABCD}out Mind.set_graph(5)"), "must be a graph");
    fails_with(&format!("{ABCD}out Mind.value([1], a on b)"), "needs an array of graphs");
    fails_with(&format!("{ABCD}out Mind.value([G], 1)"), "needs a logic value");
    fails_with(&format!("{ABCD}var X = 5\nMind.add(X part Y)"), "this variable holds a number");
    fails_with(&format!("{ABCD}Mind.validator(5)"), "takes a lambda with one parameter");
    fails_with(
        "edges on\nvar A = GRAPH(\"A\")\nvar B = GRAPH(\"B\")\nout Mind.merge(A, B)",
        "needs graphs of one world",
    );
}

#[test]
fn bad_axioms_are_found_before_running() {
    fails_with(&format!("{ABCD}out 1\nMind.add(X part Y -> f(X))"), "`Mind.add` takes axioms, and this is not one");
    fails_with(&format!("{ABCD}Mind.add_usual(X ?part Y)"), "cannot use `?rel`");
    fails_with(&format!("{ABCD}set()"), "takes at least 1 argument");
    fails_with(&format!("{ABCD}Mind.add(X prt Y)"), "unknown edge type `prt`");
    fails_with(&format!("{ABCD}Mind.add(X part part)"), "`part` cannot be a node of an axiom");
    fails_with(
        &format!("{ABCD}Mind.add(A1 part A2 | A3 part A4 | A5 part A6 | A7 part A8 | A9 part B1 | B2 part B3 | B4 part B5 | B6 part B7 | B8 part B9)"),
        "at most 16 are allowed",
    );
}

#[test]
fn a_huge_grounding_stops_at_the_time_limit() {
    // Three unrelated literals over 120 False facts, and a fourth over 60 * 60 open pairs: about
    // 120^3 * 3600 instances. --timeout stops it inside the pass, with the usual error.
    let code = "edges r, s\nvar G = GRAPH(\"G\")\nGRAPH = G\nG.add_nodes(60)\nvar Ns = G.nodes()\n\
                for i in range(60) { Ns[i] !r Ns[(i + 1) % 60]; Ns[i] !r Ns[(i + 7) % 60] }\n\
                Mind.add(A r B | C r D | E r F | X s Y)\nout Mind.set_graph(G)\n";
    let r = crate::common::ds(&["--timeout", "1", "-e", code]);
    assert_eq!(r.code, Some(1));
    assert!(r.stderr.contains("time limit reached"), "{}", r.stderr);
}

#[test]
fn edges_set_by_inference_count_as_changes_of_the_graph() {
    // Three edges given (3 changes), transitivity derives a-c, b-d and a-d: 6 changes in all;
    // `changed()` is True once, then False until the next change.
    prints(
        &format!(
            "{ABCD}a part b; b part c; c part d\nMind.add(X part Y & Y part Z -> X part Z)\n\
             out Mind.set_graph(G), G.edges_changes(), G.changed(), G.changed()\n"
        ),
        "3 6 True False\n",
    );
}
