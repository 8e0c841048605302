//! What the language server answers, request by request, in-process: diagnostics (with
//! `#include`d files), completion, hover, definitions and references, symbols and folding.

use ds::lsp::{path_to_uri, Server};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};

struct Doc {
    server: Server,
    uri: String,
    text: String,
    diagnostics: Vec<Value>,
}

fn open_at(path: &Path, text: &str) -> Doc {
    let mut server = Server::new();
    let uri = path_to_uri(path).unwrap().as_str().to_string();
    let params = json!({"textDocument": {"uri": uri, "languageId": "ds", "version": 1, "text": text}});
    let published = server.notify("textDocument/didOpen", params).unwrap();
    let diagnostics = published[0].params["diagnostics"].as_array().unwrap().clone();
    Doc { server, uri, text: text.to_string(), diagnostics }
}

fn open(text: &str) -> Doc {
    open_at(Path::new("/nonexistent/test.ds"), text)
}

fn script(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts").join(name)
}

impl Doc {
    /// The position of the `nth` occurrence of `needle`, `shift` characters into it.
    fn pos(&self, needle: &str, nth: usize, shift: usize) -> Value {
        let offset =
            self.text.match_indices(needle).nth(nth).unwrap_or_else(|| panic!("no {needle:?} #{nth}")).0 + shift;
        let before = &self.text[..offset];
        let column: usize = before.rsplit('\n').next().unwrap().chars().map(char::len_utf16).sum();
        json!({"line": before.matches('\n').count(), "character": column})
    }

    fn ask(&mut self, method: &str, pos: Value) -> Value {
        let mut params = json!({"textDocument": {"uri": self.uri}, "position": pos});
        if method == "textDocument/references" {
            params["context"] = json!({"includeDeclaration": true});
        }
        self.server.request(method, params).unwrap()
    }

    fn labels(&mut self, pos: Value) -> Vec<String> {
        let items = self.ask("textDocument/completion", pos);
        items.as_array().unwrap().iter().map(|i| i["label"].as_str().unwrap().to_string()).collect()
    }

    fn hover(&mut self, pos: Value) -> String {
        self.ask("textDocument/hover", pos)["contents"]["value"].as_str().unwrap_or("").to_string()
    }

    /// The lines (0-based) that the locations of a definition or references answer start on.
    fn lines(&mut self, method: &str, pos: Value) -> Vec<u64> {
        let answer = self.ask(method, pos);
        let list = if answer.is_array() { answer.as_array().unwrap().clone() } else { vec![answer] };
        list.iter().map(|l| l["range"]["start"]["line"].as_u64().unwrap()).collect()
    }
}

#[test]
fn wolf_has_no_false_errors_and_the_features_of_the_issue() {
    let path = script("wolf.ds");
    let mut doc = open_at(&path, &std::fs::read_to_string(&path).unwrap());
    assert_eq!(doc.diagnostics, Vec::<Value>::new());
    let call = doc.pos("all_actions(", 1, 3);
    assert!(doc.labels(call.clone()).contains(&"all_actions".to_string()));
    let hover = doc.hover(doc.pos("place(G, H)", 0, 2));
    assert!(hover.contains("place(G, X)"), "{hover}");
    let def_line = doc.text[..doc.text.find("def place").unwrap()].matches('\n').count() as u64;
    assert_eq!(doc.lines("textDocument/definition", doc.pos("place(G, H)", 0, 2)), vec![def_line]);
}

#[test]
fn a_typo_is_an_error_with_its_range_and_suggestion() {
    let doc = open("edges on, want\nvar G = GRAPH()\nGRAPH = G\nnodes a, b\na wnat b\n");
    assert_eq!(doc.diagnostics.len(), 1, "{:?}", doc.diagnostics);
    let d = &doc.diagnostics[0];
    assert_eq!(d["range"], json!({"start": {"line": 4, "character": 2}, "end": {"line": 4, "character": 6}}));
    assert!(d["message"].as_str().unwrap().contains("did you mean `want`?"), "{d}");
}

#[test]
fn syntax_errors_are_shown_and_names_still_complete() {
    let mut doc = open("def solve(G) { return G }\nvar x = solve(\nout sol");
    assert_eq!(doc.diagnostics.len(), 1, "{:?}", doc.diagnostics);
    assert_eq!(doc.diagnostics[0]["severity"], 1);
    let labels = doc.labels(doc.pos("sol", 2, 3));
    assert!(labels.contains(&"solve".to_string()), "{labels:?}");
}

#[test]
fn errors_of_included_files_show_on_the_include() {
    let dir = std::env::temp_dir().join(format!("ds-lsp-include-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("lib.ds"), "// helpers\ndef twice(x) { return x * 2 }\ndef bad() { return nope }\n")
        .unwrap();
    let mut doc = open_at(&dir.join("main.ds"), "#include \"lib.ds\"\nout twice(21)\n");
    assert_eq!(doc.diagnostics.len(), 1, "{:?}", doc.diagnostics);
    let d = &doc.diagnostics[0];
    assert_eq!(d["range"]["start"]["line"], 0);
    assert!(d["message"].as_str().unwrap().contains("lib.ds:3:20"), "{d}");
    assert!(d["message"].as_str().unwrap().contains("unknown name `nope`"), "{d}");
    let related = &d["relatedInformation"][0]["location"];
    assert!(related["uri"].as_str().unwrap().ends_with("/lib.ds"), "{d}");
    assert_eq!(related["range"]["start"], json!({"line": 2, "character": 19}));
    // Definitions reach into the included file, and hover reads the comment there.
    let def = doc.ask("textDocument/definition", doc.pos("twice", 0, 1));
    assert!(def[0]["uri"].as_str().unwrap().ends_with("/lib.ds"), "{def}");
    assert_eq!(def[0]["range"]["start"], json!({"line": 1, "character": 4}));
    assert!(doc.hover(doc.pos("twice", 0, 1)).contains("helpers"));
    // And `#include "lib.ds"` itself leads to the file.
    let file = doc.ask("textDocument/definition", doc.pos("lib.ds", 0, 1));
    assert!(file["uri"].as_str().unwrap().ends_with("/lib.ds"), "{file}");
}

#[test]
fn krk_with_its_includes_has_no_false_errors() {
    let path = script("krk.ds");
    let doc = open_at(&path, &std::fs::read_to_string(&path).unwrap());
    assert_eq!(doc.diagnostics, Vec::<Value>::new());
}

const SCOPES: &str = "\
edges on
var G = GRAPH(\"G\")
GRAPH = G
nodes a, b
var X = 1
def f(X) { return X }
def g(Y) { var X = Y; return X + Y }
a on b
out X, f(a), g(2), (a on b), @on
";

#[test]
fn definitions_and_references_follow_scopes() {
    let mut doc = open(SCOPES);
    assert_eq!(doc.diagnostics, Vec::<Value>::new());
    // X in f is f's parameter; X in g is g's local; X at the top is the global.
    assert_eq!(doc.lines("textDocument/definition", doc.pos("return X", 0, 7)), vec![5]);
    assert_eq!(doc.lines("textDocument/references", doc.pos("f(X)", 0, 2)), vec![5, 5]);
    assert_eq!(doc.lines("textDocument/references", doc.pos("var X = Y", 0, 4)), vec![6, 6]);
    assert_eq!(doc.lines("textDocument/references", doc.pos("out X", 0, 4)), vec![4, 8]);
    // Nodes and relations, declared and used.
    assert_eq!(doc.lines("textDocument/definition", doc.pos("a on b", 0, 0)), vec![3]);
    assert_eq!(doc.lines("textDocument/references", doc.pos("nodes a", 0, 6)), vec![3, 7, 8, 8]);
    assert_eq!(doc.lines("textDocument/references", doc.pos("edges on", 0, 6)), vec![0, 7, 8, 8]);
    assert!(doc.hover(doc.pos("a on b", 0, 0)).contains("nodes a, b"));
    assert!(doc.hover(doc.pos("@on", 0, 1)).contains("edges on"));
}

#[test]
fn completion_knows_scopes_modules_and_receivers() {
    let text = "\
var G = GRAPH(\"G\")
var S = \"text\"
def f(P) {
   var L = 1
   out P
}
out G.n, S.u, Math.s, $a, \"x\".t // G.
";
    let mut doc = open(text);
    let inside = doc.labels(doc.pos("out P", 0, 5));
    assert!(inside.contains(&"P".to_string()) && inside.contains(&"L".to_string()), "{inside:?}");
    assert!(!inside.contains(&"G".to_string()), "a demon does not see top-level G without `global`: {inside:?}");
    let top = doc.labels(doc.pos("G.n", 0, 0));
    assert!(top.contains(&"G".to_string()) && !top.contains(&"P".to_string()), "{top:?}");
    let graph = doc.labels(doc.pos("G.n", 0, 3));
    assert!(graph.contains(&"nodes".to_string()) && graph.contains(&"copy".to_string()), "{graph:?}");
    assert!(!graph.contains(&"push".to_string()) && !graph.contains(&"upper".to_string()), "{graph:?}");
    let string = doc.labels(doc.pos("S.u", 0, 3));
    assert!(string.contains(&"upper".to_string()) && !string.contains(&"add_node".to_string()), "{string:?}");
    assert!(doc.labels(doc.pos("\"x\".t", 0, 5)).contains(&"trim".to_string()));
    let math = doc.labels(doc.pos("Math.s", 0, 6));
    assert!(math.contains(&"sqrt".to_string()) && math.contains(&"PI".to_string()), "{math:?}");
    assert!(!math.contains(&"push".to_string()));
    assert!(doc.ask("textDocument/completion", doc.pos("// G.", 0, 5)).is_null(), "no completion in comments");
}

#[test]
fn hover_shows_the_builtin_tables_text() {
    let mut doc = open("var A = [1]\nA.push(Math.sqrt(4))\nout range(3)\n");
    let text = doc.hover(doc.pos("push", 0, 1));
    for (push, _) in ds::builtins::lookup_method("push").unwrap().entries() {
        assert!(text.contains(push.usage) && text.contains(push.doc), "{text}");
    }
    let text = doc.hover(doc.pos("sqrt", 0, 1));
    assert!(text.contains("Math.sqrt(x)") && text.contains("square root"), "{text}");
    assert!(doc.hover(doc.pos("range", 0, 1)).contains("range(stop)"));
}

#[test]
fn symbols_and_folding() {
    let text = "\
// one
// two
var G = GRAPH(\"G\")
def f(X)
{
   if X {
      out X
   }
}
";
    let mut doc = open(text);
    let params = json!({"textDocument": {"uri": doc.uri}});
    let symbols = doc.server.request("textDocument/documentSymbol", params.clone()).unwrap();
    let names: Vec<(&str, &str)> = symbols
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["detail"].as_str().unwrap_or("")))
        .collect();
    assert_eq!(names, vec![("G", "graph"), ("f", "f(X)")]);
    let folds = doc.server.request("textDocument/foldingRange", params).unwrap();
    let ranges: Vec<(u64, u64)> = folds
        .as_array()
        .unwrap()
        .iter()
        .map(|f| (f["startLine"].as_u64().unwrap(), f["endLine"].as_u64().unwrap()))
        .collect();
    assert_eq!(ranges, vec![(0, 1), (3, 7), (5, 6)]);
}

#[test]
fn warnings_reach_the_editor_as_warnings() {
    let doc = open("var x = 1\nx == 2\nvar x = 3\n");
    let severities: Vec<u64> = doc.diagnostics.iter().map(|d| d["severity"].as_u64().unwrap()).collect();
    assert_eq!(severities, vec![2, 2], "{:?}", doc.diagnostics);
    let compare = &doc.diagnostics[0];
    assert_eq!(compare["range"]["start"], json!({"line": 1, "character": 0}));
    assert!(compare["message"].as_str().unwrap().contains("write `x = ...`"), "{compare}");
    let twice = &doc.diagnostics[1];
    assert!(twice["message"].as_str().unwrap().contains("declared twice"), "{twice}");
    let first = &twice["relatedInformation"][0];
    assert_eq!(first["location"]["range"]["start"], json!({"line": 0, "character": 4}), "{twice}");
    assert_eq!(first["message"], "first declared here");
}

#[test]
fn a_demon_passed_as_a_value_is_a_reference() {
    let mut doc = open("def next(n) : return [n + 1]\nout Search.bfs(1, next, 3)\n");
    assert_eq!(doc.diagnostics, Vec::<Value>::new());
    assert_eq!(doc.lines("textDocument/definition", doc.pos("next,", 0, 1)), vec![0]);
    let text = doc.hover(doc.pos("bfs", 0, 1));
    assert!(text.contains("Search.bfs(Start, Next, Goal [, Opts])"), "{text}");
}
