//! The REPL backend without a terminal: one entry in, its output and errors out as strings.

use ds::repl::complete::Names;
use ds::repl::highlight::{highlight, matching_bracket, missing_closers};
use ds::repl::{needs_more, Backend, EntryBuffer};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

/// Runs entries that must succeed; returns the output of the last.
fn run_all(b: &mut Backend, entries: &[&str]) -> String {
    let mut last = String::new();
    for e in entries {
        let reply = b.eval(e);
        assert!(!reply.failed(), "entry {e:?} failed:\n{}", reply.errors);
        last = reply.output;
    }
    last
}

fn out(b: &mut Backend, entry: &str) -> String {
    run_all(b, &[entry])
}

/// A graph `G` (the current one) with nodes a, b and the edge `a on b`.
fn with_graph() -> Backend {
    let mut b = Backend::capturing();
    run_all(&mut b, &["edges on", "var G = GRAPH(\"G\")", "GRAPH = G", "nodes a, b", "a on b"]);
    b
}

#[test]
fn an_expression_alone_prints_its_value() {
    let mut b = Backend::capturing();
    assert_eq!(out(&mut b, "1+2"), "3\n");
    assert_eq!(out(&mut b, "\"a\" + 1"), "a1\n");
    assert_eq!(out(&mut b, "[1, 2.5]"), "[1,2.5]\n");
    assert_eq!(out(&mut b, "Undef"), "Undef\n");
}

#[test]
fn assignments_and_declarations_print_nothing() {
    let mut b = Backend::capturing();
    assert_eq!(out(&mut b, "var x = 5"), "");
    assert_eq!(out(&mut b, "x = 7"), "");
    assert_eq!(out(&mut b, "x += 1"), "");
    assert_eq!(out(&mut b, "x++"), "");
    assert_eq!(out(&mut b, "x"), "9\n");
}

#[test]
fn only_the_last_statement_of_an_entry_echoes() {
    let mut b = Backend::capturing();
    assert_eq!(out(&mut b, "var y = 2; y * 10"), "20\n");
    assert_eq!(out(&mut b, "y * 10; var z = 1"), "");
}

#[test]
fn an_edge_statement_sets_the_edge_and_prints_nothing() {
    let mut b = with_graph();
    assert_eq!(out(&mut b, "b on a"), "");
    assert_eq!(out(&mut b, "out b on a, a on a"), "True Undef\n");
}

#[test]
fn a_graph_prints_as_out_prints_it() {
    let mut b = with_graph();
    let echoed = out(&mut b, "G");
    // `out` adds a newline after the dump's own last one; the echo does not double it.
    assert_eq!(format!("{echoed}\n"), out(&mut b, "out G"));
    assert!(echoed.starts_with("G {") && echoed.contains("on: [b]"), "{echoed}");
    assert_eq!(out(&mut b, "GRAPH"), echoed);
}

#[test]
fn a_call_prints_its_value_unless_undef_or_none() {
    let mut b = Backend::capturing();
    run_all(&mut b, &["def one() : return 1", "def quiet(x) { var y = x }", "var A = []"]);
    assert_eq!(out(&mut b, "one()"), "1\n");
    assert_eq!(out(&mut b, "quiet(3)"), "");
    assert_eq!(out(&mut b, "A.push(4)"), "");
    assert_eq!(out(&mut b, "A.size()"), "1\n");
    assert_eq!(out(&mut b, "A"), "[4]\n");
}

#[test]
fn state_persists_across_entries() {
    let mut b = with_graph();
    run_all(&mut b, &["edges hold", "var H = G.copy()", "GRAPH = H", "nodes c", "c hold a"]);
    assert_eq!(out(&mut b, "out c hold a, a on b"), "True True\n");
    // G shares the node list but not H's new edge.
    assert_eq!(out(&mut b, "GRAPH = G; out c hold a"), "Undef\n");
}

#[test]
fn a_demon_redefined_later_is_used_by_earlier_callers() {
    let mut b = Backend::capturing();
    run_all(&mut b, &["def f() : return 1", "def g() : return f() + 10"]);
    assert_eq!(out(&mut b, "g()"), "11\n");
    run_all(&mut b, &["def f() : return 2"]);
    assert_eq!(out(&mut b, "g()"), "12\n");
}

#[test]
fn a_failed_redefinition_keeps_the_old_demon() {
    let mut b = Backend::capturing();
    run_all(&mut b, &["def f() : return 1"]);
    let reply = b.eval("def f() : return nosuch");
    assert!(reply.errors.contains("unknown name `nosuch`"), "{}", reply.errors);
    assert_eq!(out(&mut b, "f()"), "1\n");
    let reply = b.eval("var v = nosuch");
    assert!(reply.failed());
    assert!(b.eval("v").errors.contains("unknown name `v`"));
}

#[test]
fn errors_are_diagnostics_and_the_session_goes_on() {
    let mut b = Backend::capturing();
    run_all(&mut b, &["var x = 1"]);
    let syntax = b.eval("x = = 2");
    assert!(syntax.errors.contains("<repl:"), "{}", syntax.errors);
    let unknown = b.eval("nosuch + 1");
    assert!(unknown.errors.contains("unknown name `nosuch`"), "{}", unknown.errors);
    run_all(&mut b, &["def bad(A) : return A[5] + 1"]);
    let runtime = b.eval("bad([1])");
    assert!(runtime.errors.contains("in demon `bad`"), "{}", runtime.errors);
    assert_eq!(out(&mut b, "x + 1"), "2\n");
}

#[test]
fn output_written_before_an_error_is_kept() {
    let mut b = Backend::capturing();
    let reply = b.eval("out \"before\"\nnosuch_demon_call(1)");
    // An unknown demon is found before anything runs, so nothing is printed.
    assert_eq!(reply.output, "");
    assert!(reply.failed());
    let reply = b.eval("out \"before\"\nvar A = [1]\nout A[0] + Undef.x");
    assert!(reply.failed());
    assert!(reply.output.starts_with("before\n"), "{:?}", reply.output);
}

#[test]
fn an_interrupt_stops_an_endless_loop() {
    let mut b = Backend::capturing();
    let flag = b.interrupt_flag();
    let done = Arc::new(AtomicBool::new(false));
    // Keep raising the flag until the evaluation has stopped: no timing involved.
    let pinger = {
        let done = done.clone();
        std::thread::spawn(move || {
            while !done.load(Ordering::SeqCst) {
                flag.store(true, Ordering::SeqCst);
                std::thread::yield_now();
            }
        })
    };
    let reply = b.eval("var n = 0\nwhile True { n += 1 }");
    done.store(true, Ordering::SeqCst);
    pinger.join().unwrap();
    assert!(reply.errors.contains("interrupted"), "{}", reply.errors);
    // A flag left raised after the stop does not stop the next entry.
    b.interrupt_flag().store(true, Ordering::SeqCst);
    assert_eq!(out(&mut b, "var k = 0; for I in range(5000) { k += 1 }; k"), "5000\n");
}

#[test]
fn the_parser_decides_when_an_entry_needs_more() {
    let open = [
        "1 +",
        "foo(",
        "[1,",
        "def f(x)",
        "def f(x) {",
        "if x",
        "if x :",
        "x.",
        "var x =",
        "for X in",
        "a on",
        "{",
        "\"abc",
        "/* note",
    ];
    for text in open {
        assert!(needs_more(&format!("{text}\n")), "{text:?} should continue");
    }
    let done = ["1 + 2", "f(x)", "out 1,", "def f(x) { return x }", ":help", "", "x = = 2", ")"];
    for text in done {
        assert!(!needs_more(&format!("{text}\n")), "{text:?} should be complete");
    }
}

#[test]
fn lines_gather_into_one_entry() {
    let mut buf = EntryBuffer::default();
    let mut b = Backend::capturing();
    assert_eq!(buf.push_line("def twice(x)"), None);
    assert_eq!(buf.push_line("{"), None);
    assert_eq!(buf.push_line("   return x * 2"), None);
    let entry = buf.push_line("}").expect("complete after the brace");
    assert!(buf.is_empty());
    run_all(&mut b, &[&entry]);
    assert_eq!(buf.push_line("twice(1 +"), None);
    let entry = buf.push_line("  20)").expect("complete after the paren");
    assert_eq!(out(&mut b, &entry), "42\n");
}

#[test]
fn commands_graph_and_dot() {
    let mut b = with_graph();
    let dump = out(&mut b, "G");
    assert_eq!(out(&mut b, ":graph"), dump);
    assert_eq!(out(&mut b, ":graph G"), dump);
    let dot = out(&mut b, ":dot G");
    assert!(dot.starts_with("digraph {") && dot.contains("0 -> 1 [ label = \"on\"]"), "{dot}");
    assert_eq!(out(&mut b, ":dot"), dot);
    let dir = std::env::temp_dir().join(format!("ds-repl-dot-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("g.dot");
    let said = out(&mut b, &format!(":dot {}", file.display()));
    assert_eq!(said, format!("wrote graph G to {} (5 lines of Graphviz DOT)\n", file.display()));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), dot);
    let _ = std::fs::remove_dir_all(&dir);
    let reply = b.eval(":graph 5");
    assert!(reply.errors.contains("is a number, not a graph"), "{}", reply.errors);
}

#[test]
fn commands_vars_load_reset_quit() {
    let mut b = Backend::capturing();
    run_all(&mut b, &["var x = 5", "var S = \"hello\"", "def add(a, b) : return a + b"]);
    run_all(&mut b, &["edges on", "var G = GRAPH(\"G\")", "GRAPH = G", "nodes a", "a on a"]);
    let vars = out(&mut b, ":vars");
    assert!(vars.contains("x = 5\n") && vars.contains("S = hello\n"), "{vars}");
    assert!(vars.contains("G = graph G (1 edge)\n"), "{vars}");
    assert!(vars.contains("demons: add(a, b)"), "{vars}");
    let dir = std::env::temp_dir().join(format!("ds-repl-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("lib.ds");
    // An `#include` in a loaded file is read relative to that file.
    std::fs::write(dir.join("part.ds"), "var part = 2\n").unwrap();
    std::fs::write(&file, "#include \"part.ds\"\nvar loaded = add(x, part - 1)\nout \"loaded\"\n").unwrap();
    assert_eq!(out(&mut b, &format!(":load {}", file.display())), "loaded\n");
    assert_eq!(out(&mut b, "loaded"), "6\n");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(b.eval(":load /no/such/file.ds").errors.contains("cannot read"));
    assert_eq!(out(&mut b, ":reset"), "");
    assert!(b.eval("x").errors.contains("unknown name `x`"));
    assert!(b.eval(":quit").quit);
    assert!(b.eval(":q").quit);
    assert!(b.eval(":nonsense").errors.contains("unknown command"));
    assert!(out(&mut b, ":help").contains(":load FILE"));
    // `:help NAME` shows the registry's text, as hover in an editor does.
    let push = out(&mut b, ":help push");
    for (entry, _) in ds::builtins::lookup_method("push").unwrap().entries() {
        assert!(push.contains(entry.usage) && push.contains(entry.doc), "{push}");
    }
    assert!(out(&mut b, ":help Math.sqrt").starts_with("Math.sqrt(x)\n"));
    assert!(out(&mut b, ":help exists").starts_with("exists(X, Cond [, N [, M]])\n"));
    assert!(b.eval(":help nothing_like_it").errors.contains("no builtin is named `nothing_like_it`"));
    // issue 41: a module's function by its last name, and a misspelt name
    assert!(b.eval(":help bfs").errors.contains("no builtin is named `bfs`; did you mean `Search.bfs`?"));
    assert!(b.eval(":help pussh").errors.contains("no builtin is named `pussh`; did you mean `push`?"));
}

#[test]
fn completion_offers_what_the_session_knows() {
    let mut b = with_graph();
    run_all(&mut b, &["def solver(S) : return S", "var Start = G"]);
    let names = Names::from_session(b.session());
    let words = |line: &str| names.complete(line, line.len()).1;
    assert_eq!(words("so"), ["solver"]);
    assert!(words("Sta").contains(&"Start".to_string()));
    assert!(words("wh").contains(&"while".to_string()));
    assert!(words("G.co").contains(&"copy".to_string()));
    assert!(words("G.o").contains(&"on".to_string()), "edge types are methods too");
    assert_eq!(words("Math.sqr"), ["sqrt"]);
    assert_eq!(words("$"), ["$a", "$b"]);
    assert!(words("@o").contains(&"@on".to_string()));
    assert!(words("@").iter().all(|w| w.starts_with('@')));
    assert_eq!(words(":lo"), [":load"]);
    assert_eq!(names.complete("x = Sta", 7).0, 4);
}

#[test]
fn completion_after_a_dot_offers_the_methods_of_what_the_variable_holds() {
    let mut b = with_graph();
    run_all(&mut b, &["var W = G", "var Pic = SVG.create()", "var A = [1]", "var Q = Heap()", "var n = 1"]);
    let names = Names::from_session(b.session());
    let words = |line: &str| names.complete(line, line.len()).1;
    // `W` holds a graph: `copy`, not the picture's `color_line` or `circle`.
    assert_eq!(words("W.co"), ["copy", "copy_deep", "count", "count_in", "count_out"]);
    assert!(words("Pic.co").contains(&"color_line".to_string()));
    assert!(!words("Pic.co").contains(&"count_in".to_string()));
    assert_eq!(words("A.sh"), ["shift"]);
    assert_eq!(words("Q.pe"), ["peek"]);
    assert!(!words("A.pe").contains(&"peek".to_string()));
    assert!(words("W.").contains(&"a".to_string()), "a graph's nodes: `W.a`");
    assert!(words("W.o").contains(&"on".to_string()), "edge types are methods of graphs and nodes");
    assert!(words("GRAPH.co").contains(&"copy".to_string()));
    // A number has no methods of its own; an unknown receiver gets every method.
    assert!(words("n.s").contains(&"string".to_string()));
    assert!(words("nosuch.co").contains(&"color_line".to_string()));
    // The quantifiers complete like functions.
    assert_eq!(words("exi"), ["exists"]);
    assert_eq!(words("fora"), ["forall"]);
}

/// docs/repl.md shows what a lone `else` gets; this is that text, from the backend itself.
#[test]
fn the_repl_docs_show_the_real_message_of_a_lone_else() {
    let mut b = Backend::capturing();
    run_all(&mut b, &["var x = False", "if x { out 1 }"]);
    let reply = b.eval("else { out 2 }");
    assert!(reply.errors.starts_with("error: `else` without an `if` before it"), "{}", reply.errors);
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/repl.md")).expect("docs/repl.md");
    assert!(
        docs.contains(&format!("ds> else {{ out 2 }}\n{}\nds>", reply.errors.trim_end())),
        "docs/repl.md shows:\n{}",
        reply.errors
    );
    assert_eq!(out(&mut b, "if x { out 1 } else { out 2 }"), "2\n");
}

#[test]
fn highlighting_keeps_the_text_and_finds_brackets() {
    let line = "if x == \"s(\" : out f(a[1]) // c";
    let colored = highlight(line, Some(0));
    assert!(colored.contains("\x1b[1;35mif\x1b[0m"), "{colored:?}");
    let method = highlight("F.out(1)", None);
    assert!(!method.contains("\x1b[1;35m"), "a method named like a keyword is not one: {method:?}");
    let plain: String = strip_ansi(&colored);
    assert_eq!(plain, line);
    let open = line.find("f(").unwrap() + 1;
    assert_eq!(matching_bracket(line, open), Some(line.len() - 6));
    assert_eq!(matching_bracket(line, line.len() - 5), Some(open), "just after the bracket");
    let on_open = highlight("f(x)", Some(1));
    assert!(on_open.contains("\x1b[1;4m)\x1b[0m"), "the partner is underlined: {on_open:?}");
    assert!(!highlight("f(x)", None).contains("\x1b[1;4m"), "no cursor, no underline");
    assert_eq!(missing_closers("foo([1, \"]\""), "])");
    assert_eq!(missing_closers("def f(x) {\n out (1"), ")}");
    assert_eq!(missing_closers("f(1)"), "");
}

fn strip_ansi(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[test]
fn an_axiom_statement_is_stored_and_prints_nothing() {
    // `X on Y -> Y on X` is an axiom of G (X and Y are quantified), not an expression to echo.
    let mut b = with_graph();
    assert_eq!(out(&mut b, "X on Y -> Y on X"), "");
    assert_eq!(out(&mut b, "Mind.set_graph(G)"), "1\n");
    assert_eq!(out(&mut b, "out b on a"), "True\n");
}

#[test]
fn reset_and_a_second_session_start_the_random_numbers_afresh() {
    let mut a = Backend::capturing();
    let first = out(&mut a, "out Math.random(), Math.random()");
    assert_ne!(out(&mut a, "out Math.random(), Math.random()"), first, "the sequence goes on");
    // A second session on the same thread has its own sequence, from the start.
    let mut b = Backend::capturing();
    assert_eq!(out(&mut b, "out Math.random(), Math.random()"), first);
    run_all(&mut a, &["Math.randomSeed(3)", ":reset"]);
    assert_eq!(out(&mut a, "out Math.random(), Math.random()"), first, "`:reset` forgets the seed");
}
