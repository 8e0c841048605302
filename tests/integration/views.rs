//! State views (`Opts["view"]` of `Search.explore`, `S.view(I)`, the `view` of `S.json()`;
//! docs/search.md, "State spaces").

use crate::common::{fails_with, prints};

const LINE: &str = "def next(n) : return n < 1 ? [[\"inc\", n + 1]] : []\n";

#[test]
fn json_gives_each_state_its_view_by_kind() {
    let code = format!(
        "{LINE}out Search.explore(0, next, {{\"view\": (n) => n == 0 ? \"zero\" : SVG.create().canvas(1, 2)}}).json()\n"
    );
    prints(
        &code,
        "{\"format\": \"ds-state-space\", \"version\": 1, \"complete\": true, \"states\": [\n\
         {\"action\":null,\"depth\":0,\"goal\":false,\"id\":0,\"parent\":null,\"value\":0,\"view\":{\"text\":\"zero\"}},\n\
         {\"action\":\"inc\",\"depth\":1,\"goal\":false,\"id\":1,\"parent\":0,\"value\":1,\"view\":{\"svg\":\"<svg xmlns=\\\"http://www.w3.org/2000/svg\\\" width=\\\"1\\\" height=\\\"2\\\" viewBox=\\\"0 0 1 2\\\">\\n</svg>\\n\"}}\n\
         ], \"transitions\": [\n\
         {\"action\":\"inc\",\"from\":0,\"to\":1}\n\
         ], \"goals\": null}\n\n",
    );
}

#[test]
fn a_view_must_draw_and_only_explore_takes_one() {
    fails_with(
        &format!("{LINE}Search.explore(0, next, {{\"view\": (n) => n}}).view(1)\n"),
        "the view must return a picture (SVG), a string or a graph, not a number (state 1)",
    );
    fails_with(&format!("{LINE}Search.explore(0, next).view(0)\n"), "this space has no view");
    fails_with(
        &format!("{LINE}Search.bfs(0, next, 1, {{\"view\": (n) => \"x\"}})\n"),
        "`view` is an option of `Search.explore`",
    );
    fails_with(&format!("{LINE}SVG.create().canvas(-1, 2)\n"), "`canvas` takes a width and a height >= 0");
}

/// DOT labels a state with its text view, line by line left-justified (`\l`), with `"` and `\`
/// escaped; a graph view as its name and facts; a picture leaves the usual label (the number
/// and the value). Expected labels worked out by hand from the DOT grammar.
#[test]
fn dot_labels_states_with_their_text_views() {
    let view = r#"(n) => n == 0 ? "a \"q\"\n b\\c" : SVG.create().canvas(1, 1)"#;
    prints(
        &format!("{LINE}Search.explore(0, next, {{\"goal\": 1, \"view\": {view}}}).dot()\n"),
        "digraph state_space {\n  node [shape=box, fontname=\"Courier\"];\n  \
         s0 [label=\"0\\la \\\"q\\\"\\l b\\\\c\\l\", style=bold];\n  \
         s1 [label=\"1\\n1\", peripheries=2];\n  \
         s0 -> s1 [label=\"inc\", style=bold];\n}\n",
    );
    let graph = "edges on\nnodes $x, $y\n$x on $y\ndef g(n) : return GRAPH.copy(\"V\")\n";
    prints(
        &format!("{graph}{LINE}Search.explore(0, next, {{\"view\": g}}).dot()\n"),
        "digraph state_space {\n  node [shape=box, fontname=\"Courier\"];\n  \
         s0 [label=\"0\\lV\\l$x on $y\\l\", style=bold];\n  \
         s1 [label=\"1\\lV\\l$x on $y\\l\"];\n  \
         s0 -> s1 [label=\"inc\"];\n}\n",
    );
}
