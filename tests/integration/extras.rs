//! The built-ins of reference sections 6 and 7 added late: graph flags, `delete_nodes`,
//! `isomorphic`, `common`, attributes, regular expressions, `eval`, `fout` and `SVG`. Every
//! expectation is worked out by hand from the reference (or from docs/language.md where ds
//! decides), with the reason next to it.

use crate::common::{ds_file, fails_with, prints};

/// Three nodes a, b, c joined in a cycle a -> b -> c -> a along `next`.
const CYCLE: &str = "edges next, on\nvar G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c\na next b; b next c; c next a\n";

#[test]
fn isomorphic_is_equality_up_to_renaming() {
    // H is the same 3-cycle with other names and another creation order: x -> z -> y -> x maps
    // onto a -> b -> c -> a by a=x, b=z, c=y. P is a path p -> q -> r: it has one edge fewer.
    // Q is a cycle too, but one of its edges is False: values must agree, so not isomorphic.
    let code = format!(
        "{CYCLE}var H = GRAPH(\"H\")\nH.nodes y, x, z\nGRAPH = H\nx next z; z next y; y next x\n\
         var P = GRAPH(\"P\")\nP.nodes p, q, r\nGRAPH = P\np next q; q next r\n\
         var Q = GRAPH(\"Q\")\nQ.nodes u, v, w\nGRAPH = Q\nu next v; v next w; w !next u\n\
         out G.isomorphic(H), H.isomorphic(G), G.isomorphic(P), G.isomorphic(Q), G.isomorphic(G)\n"
    );
    prints(&code, "True True False False True\n");
}

#[test]
fn isomorphic_ignores_builtin_relations_and_counts_nodes() {
    // `isa` is a built-in relation: an isa edge in one graph only does not matter. A fourth,
    // isolated node does: no one-to-one renaming exists between 3 and 4 nodes.
    let code = format!(
        "{CYCLE}var H = G.copy()\nGRAPH = H\na isa b\nout G.isomorphic(H)\n\
         var K = G.copy()\nK.add_node(\"d\")\nout G.isomorphic(G.copy()), G.isomorphic(K)\n"
    );
    // K shares G's class, so adding d to K adds it to G too: both have 4 nodes and the same
    // edges, and stay isomorphic.
    prints(&code, "True\nTrue True\n");
    let code = format!(
        "{CYCLE}var H = GRAPH(\"H\")\nH.nodes x, y, z, w\nGRAPH = H\nx next y; y next z; z next x\n\
         out G.isomorphic(H)\n"
    );
    prints(&code, "False\n");
}

#[test]
fn common_asks_whether_two_walks_meet() {
    // tweety and polly are birds, birds are animals; rex is a dog, dogs are animals; a stone is
    // nothing. Walks along isa from tweety and rex both reach animal; from stone nothing but
    // itself. Each walk starts at its own node: tweety's walk reaches bird, where polly's starts.
    let code = "var G = GRAPH(\"G\")\nGRAPH = G\nnodes tweety, polly, rex, stone, bird, dog, animal\n\
                [tweety, polly] isa bird; rex isa dog; [bird, dog] isa animal\n\
                out tweety.common(isa, polly), tweety.common(isa, rex), tweety.common(isa, stone)\n\
                out tweety.common(isa, bird), stone.common(isa, stone), tweety.common([isa], rex)\n";
    prints(code, "True True False\nTrue True True\n");
    // A False edge is no step of a walk.
    prints("var G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, c\na isa c; b !isa c\nout a.common(isa, b)\n", "False\n");
}

#[test]
fn change_counts_and_flags() {
    // The cycle has three True `next` edges; change turns them False and says 3. a on b is
    // another relation and stays. edges_changes counts the 3 edge statements, a on b, and the
    // 3 changes: 7; changed() is True once, then False until the next change.
    let code = format!(
        "{CYCLE}a on b\nout G.change(next, True, False), (a next b), (a on b), G.change(next, True, False)\n\
         out G.edges_changes(), G.changed(), G.changed()\nb on c\nout G.changed(), G.edges_changes(0), G.changed()\n"
    );
    prints(&code, "3 False True 0\n7 True False\nTrue 0 False\n");
}

#[test]
fn blocked_edges_keep_their_values_but_new_ones_are_added() {
    // With edges_blocked(1), a next b = False leaves True, deleting it does nothing, but the new
    // edge a on c is added. A copy inherits the flag; unblocking makes changes work again.
    let code = format!(
        "{CYCLE}out G.edges_blocked(), G.edges_blocked(1)\na next b = False\na next b = Undef\na on c\n\
         out (a next b), (a on c), G.copy().edges_blocked()\nG.edges_blocked(0)\na next b = False\nout (a next b)\n"
    );
    prints(&code, "0 1\nTrue True 1\nFalse\n");
}

#[test]
fn closed_world_is_a_flag_of_the_class() {
    // The flag is shared by every graph of the class (a copy made before or after sees it), not
    // by another world's graph. It does not change exists: a failed exists is False anyway.
    let code = format!(
        "{CYCLE}var Before = G.copy()\nvar Other = GRAPH(\"O\")\n\
         out G.closed_world(), G.closed_world(True), Before.close(), G.copy().closed_world(), Other.closed_world()\n\
         out exists(X, a on X), G.close(False), Before.closed_world()\n"
    );
    prints(&code, "False True True True False\nFalse False False\n");
}

#[test]
fn delete_nodes_empties_every_state_of_the_world() {
    // After delete_nodes, G and its copy K have no nodes and no edges; W, another world, keeps
    // its node but loses its edge into G's world. New nodes get new identities: the old `a`
    // held in X is not the new `a`.
    let code = format!(
        "{CYCLE}var K = G.copy()\nvar W = GRAPH(\"W\")\nW.nodes w\nGRAPH = W\nw on G=>a\nGRAPH = G\nvar X = a\n\
         delete_nodes()\nout G.size(), K.size(), G.facts(), K.facts(), W.size(), W.facts()\n\
         nodes a, d\nout G.nodes(), G[1], a == X, K.size()\na next d\nout K.facts(), G.facts()\n"
    );
    prints(&code, "0 0 0 0 1 0\n[a,d] G.a False 2\n0 1\n");
}

#[test]
fn delete_nodes_gives_the_world_a_new_class() {
    // The states move to a new class together (G and its copy E still compare as states of one
    // world); a map holding G as a key, and an array's index of states, still find it.
    let code = format!(
        "{CYCLE}var c = G.class_id()\nvar E = G.copy()\nvar M = {{}}\nM[G] = 1\nvar A = [E, G]\nout A.is(G), A.is(G)\n\
         delete_nodes()\nout G.class_id() == c, E.class_id() == G.class_id(), M.is(G), M[G], A.find(G), E == G\n"
    );
    prints(&code, "True True\nFalse True True 1 0 True\n");
}

#[test]
fn a_deleted_node_is_an_error_to_use() {
    let code = format!("{CYCLE}var X = a\nG.delete_nodes()\nnodes a\nout X next a\n");
    fails_with(&code, "this node was deleted (by `delete_nodes`)");
    let code = format!("{CYCLE}var X = a\nG.delete_nodes()\nout X.value()\n");
    fails_with(&code, "this node was deleted");
    // The same place in a demon finds the new node of that name after the old one is gone.
    let code = format!(
        "{CYCLE}def first() : return a\nvar X = first()\ndelete_nodes()\nnodes z, a\nout first(), first() == X\n"
    );
    prints(&code, "a False\n");
}

#[test]
fn add_merges_missing_edges_in_place() {
    // H has a next b False (G has it True: kept), b on c (new: added) and c on a (skipped with
    // `on` excluded in the second call). add returns G itself.
    let code = format!(
        "{CYCLE}var H = G.copy()\nGRAPH = H\na next b = False\nb on c\nGRAPH = G\n\
         var R = add(G, H, [on])\nout R == G, (a next b), (b on c)\nadd(G, H)\nout (a next b), (b on c)\n"
    );
    prints(&code, "True True Undef\nTrue True\n");
    fails_with("var A = GRAPH()\nvar B = GRAPH()\nadd(A, B)\n", "`add` needs two states of one world");
}

#[test]
fn attributes_inherit_along_isa() {
    // Kinds: bird isa animal; animal's colour is brown, bird's legs 2. tweety isa bird: it
    // inherits colour from animal and legs from bird until it has its own colour. A copy's
    // attributes are its own; None removes an attribute.
    let code = "var S = GRAPH(\"S\")\nS.nodes $color, $legs\n\
                var K = GRAPH(\"K\")\nK.nodes animal, bird\nGRAPH = K\nbird isa animal\n\
                animal[S=>$color] = \"brown\"\nbird[S=>$legs] = 2\n\
                var W = GRAPH(\"W\")\nW.nodes tweety\nGRAPH = W\ntweety isa K=>bird\n\
                out tweety[S=>$color], tweety[S=>$legs], tweety.attr(S=>$color), tweety.attr()\n\
                var C = W.copy()\ntweety[S=>$color] = \"yellow\"\n\
                out tweety[S=>$color], C=>tweety[S=>$color], W.attr()\n\
                tweety[S=>$color] = None\nout tweety[S=>$color], K=>bird[S=>$color]\n";
    prints(code, "brown 2 brown [S.$color,S.$legs]\nyellow brown {tweety:{S.$color:yellow}}\nbrown brown\n");
    fails_with("var G = GRAPH()\nGRAPH = G\nnodes a\nout a[1]\n", "a node cannot be indexed by a number");
}

#[test]
fn senses_graph_supplies_missing_node_constants() {
    // $color is not a node of W's class; with S as W's senses graph it is found there, bound to S.
    let code = "var S = GRAPH(\"S\")\nS.nodes $color\nvar W = GRAPH(\"W\")\nW.nodes ball\n\
                out W.senses_graph()\nW.senses_graph(S)\nGRAPH = W\nball[$color] = \"red\"\n\
                out $color, ball[$color], W.copy().senses_graph().name()\n";
    prints(code, "None\nS.$color red S\n");
}

#[test]
fn get_without_arguments_maps_the_builtin_relations() {
    // As the original printed for a node with no such edges: has, obj, sub, unit, each empty;
    // a has-edge inherited through isa shows up under `has`.
    let code = "var G = GRAPH(\"G\")\nGRAPH = G\nnodes a, b, wing\nout a.get()\n\
                a isa b; b has wing\nout a.get()\n";
    prints(code, "{has:[],obj:[],sub:[],unit:[]}\n{has:[G.wing],obj:[],sub:[],unit:[]}\n");
}

#[test]
fn bind_delete_edges_and_small_graph_methods() {
    // delete_edges(next, False) removes a's one next edge; recursive (the default) from b also
    // removes c's (b -> c -> a -> nothing left). edgesNum: 6 built-in relations + next, on.
    let code = format!(
        "{CYCLE}out a.bind(), a.bind().unbind(), a.delete_edges(next, False), (b next c)\n\
         out b.delete_edges(next), G.facts()\nout G.edgesNum(), class_id() == G.class_id(), G.sorted(1), G.sort() == G\n"
    );
    prints(&code, "G.a a 1 True\n2 0\n8 True 1 True\n");
}

#[test]
fn regular_expressions() {
    // split at runs of digits (a trailing match leaves an empty last piece, as in JavaScript);
    // split with max keeps the rest in the last piece; search gives the byte position.
    prints(
        "out \"a1b22c333\".split(\"[0-9]+\"), \"a, b;c\".split(\"[,;] ?\", 2), \"abc\".split(\"\")\n\
         out \"hello world\".search(\"o w\"), \"abc\".search(\"z\")\n\
         out \"John Smith\".replaceRegexp(\"(\\\\w+) (\\\\w+)\", \"$2, $1 [$&] $$1\")\n",
        "[a,b,c,] [a,b;c] [a,b,c]\n4 -1\nSmith, John [John Smith] $1\n",
    );
    fails_with("out \"x\".split(\"(\")\n", "`split`: `(` is not a valid regular expression");
}

#[test]
fn array_helpers() {
    // mix keeps the elements (sorted again they are the same); create pads with None or cuts.
    prints(
        "Math.randomSeed(7)\nvar A = [5, 1, 4, 2, 3]\nA.mix()\nout A.size(), A.sort()\n\
         out [1, 2].create(4), [1, 2, 3].create(1), [1, 2].count(), (2).fuzzy(), [1, 2, 3].fuzzy()\n",
        "5 [1,2,3,4,5]\n[1,2,None,None] [1] 2 (2,2,2,2) (1,2,2,3)\n",
    );
}

#[test]
fn eval_sees_the_variables_of_its_place() {
    // At the top level x is visible; in a demon its parameter a and local b are; a lambda made
    // by eval is an ordinary value.
    prints(
        "var x = 5\nout eval(\"x * 2 + 1\")\ndef f(a) { var b = a + 1; return eval(\"a * 100 + b\") }\n\
         out f(3), eval(\"f(1)\")\nvar g = eval(\"(y) => y * y\")\nout g(4)\nfor i in [7, 8] : out eval(\"i\"),\nout \"\"\n",
        "11\n304 102\n16\n7 8 \n",
    );
}

#[test]
fn eval_errors_are_runtime_errors_at_the_call() {
    // (issue 55: a dangling operator is named, at its column)
    fails_with(
        "out eval(\"1 +\")\n",
        "`eval` cannot parse `1 +`: the line ends with `+`, which needs an operand after it (at column 3)",
    );
    fails_with("out eval(\"nope\")\n", "`eval` cannot compile `nope`: unknown name `nope`");
    fails_with("out eval(3)\n", "`eval` takes a string of code, not a number");
    let r = fails_with("out eval(\"1 / 0\")\n", "division by zero");
    assert!(r.stderr.contains("in the code given to `eval`: `1 / 0`"), "{}", r.stderr);
    fails_with("def f() { return eval(\"exists(Q, True)\") }\nout f()\n", "cannot declare new variables");
    // Code that evaluates itself stops at the recursion limit instead of crashing.
    fails_with("var s = \"eval(s)\"\nout eval(s)\n", "recursion too deep");
}

#[test]
fn fout_writes_to_the_fopen_file() {
    // Before fopen and after fclose, fout prints like out. "w" empties the file, "a" appends;
    // the separators are those of out. The file is written even though the script then fails.
    let dir = std::env::temp_dir().join(format!("ds-fout-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("out.txt");
    std::fs::write(&file, "old\n").expect("write");
    let f = file.to_string_lossy().replace('\\', "/");
    let code = format!(
        "fout \"console\", 1\nout fopen(\"{f}\")\nfout \"a\", 2,\nfout \"b\",, \"c\"\nout fclose(), fclose()\n\
         fout \"back\"\nfopen(\"{f}\", \"a\")\nfout \"more\"\nout 1 / 0\n"
    );
    let r = ds_file("fout.ds", &code, &[]);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert_eq!(r.stdout, "console 1\nTrue\nTrue False\nback\n");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), "a 2 bc\nmore\n");
    // F.in() reads the rest of a file as one string: after the first line, the second.
    let code = format!("var F = File.open(\"{f}\")\nout F.getline(), F.in(), F.in() == \"\", F.eof()\n");
    prints(&code, "a 2 bc more\n True True\n");
    fails_with("fopen(\"x\", \"r\")\n", "`fopen` opens the file of `fout` for writing");
}

#[test]
fn svg_pictures_are_written_as_text() {
    let dir = std::env::temp_dir().join(format!("ds-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("pic.svg");
    let f = file.to_string_lossy().replace('\\', "/");
    // An arc from 0 to 90 degrees around (50, 50) with radius 20 runs clockwise on the screen
    // from (70, 50) to (50, 70), the small way round.
    let code = format!(
        "var S = SVG.create()\nout S.type(), S.color_line(), S.width_line(), S.size_font()\n\
         S.color_line(\"red\").width_line(2).line(0, 0, 100, 50)\nS.rect(10, 10, 30, 20).circle(50, 50, 10)\n\
         S.color_fill([0, 128, 255]).circle_fill(70, 70, 5).point(5, 5).arc(50, 50, 20, 0, 90)\n\
         S.size_font(14).color_text(\"blue\").text(5, 95, \"a < b\")\n\
         S.transf_beg(10, 20, 45).polygon([[0, 0], [10, 0], [5, 8]], True).transf_end()\n\
         out S.save(\"{f}\", 200, 100)\n"
    );
    prints(&code, "svg black 1 12\nTrue\n");
    let want = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"200\" height=\"100\" viewBox=\"0 0 200 100\">\n\
<line x1=\"0\" y1=\"0\" x2=\"100\" y2=\"50\" stroke=\"red\" stroke-width=\"2\"/>\n\
<rect x=\"10\" y=\"10\" width=\"30\" height=\"20\" stroke=\"red\" stroke-width=\"2\" fill=\"none\"/>\n\
<circle cx=\"50\" cy=\"50\" r=\"10\" stroke=\"red\" stroke-width=\"2\" fill=\"none\"/>\n\
<circle cx=\"70\" cy=\"70\" r=\"5\" stroke=\"red\" stroke-width=\"2\" fill=\"rgb(0,128,255)\"/>\n\
<circle cx=\"5\" cy=\"5\" r=\"1\" fill=\"red\"/>\n\
<path d=\"M 70 50 A 20 20 0 0 1 50 70\" stroke=\"red\" stroke-width=\"2\" fill=\"none\"/>\n\
<text x=\"5\" y=\"95\" font-size=\"14\" fill=\"blue\">a &lt; b</text>\n\
<g transform=\"translate(10,20) rotate(45)\">\n\
<polygon points=\"0,0 10,0 5,8\" stroke=\"red\" stroke-width=\"2\" fill=\"rgb(0,128,255)\"/>\n\
</g>\n\
</svg>\n";
    assert_eq!(std::fs::read_to_string(&file).expect("read the picture"), want);
    fails_with("SVG.create().transf_end()\n", "`transf_end` without a `transf_beg`");
    fails_with("SVG.create().line(0, 0, 1)\n", "function `line` takes 4 arguments, but 3 given");
    fails_with("SVG.create().circle(0, 0, \"r\")\n", "argument 3 of `circle` must be a number");
    fails_with("[1].line(0, 0, 1, 1)\n", "`line` works on SVG pictures");
}
