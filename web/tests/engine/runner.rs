//! The playground's runner on the native host: the same code the WebAssembly module runs,
//! given requests as the page sends them.

use ds_web::runner::{run, run_json, Request, RunLimits, Sink, Stream};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

/// What the sink got: the output, the warnings, how many chunks came, and the graphs shown
/// (each with the length of the output before it).
type Got = Rc<RefCell<(String, String, usize, Vec<(usize, String)>)>>;

/// A sink that keeps what each stream got, and how many chunks came.
fn capture() -> (Sink, Got) {
    let got = Rc::new(RefCell::new((String::new(), String::new(), 0, Vec::new())));
    let keep = got.clone();
    let sink: Sink = Rc::new(RefCell::new(move |stream: Stream, text: &str| {
        let mut g = keep.borrow_mut();
        match stream {
            Stream::Out => g.0.push_str(text),
            Stream::Err => g.1.push_str(text),
            Stream::Shown => {
                let at = g.0.len();
                g.3.push((at, text.to_string()))
            }
            // (the search line: `a_long_search_posts_its_line_and_clears_it`)
            Stream::Status => {}
        }
        g.2 += 1;
    }));
    (sink, got)
}

fn request(source: &str) -> Request {
    Request {
        source: source.into(),
        name: "playground.ds".into(),
        args: Vec::new(),
        files: BTreeMap::new(),
        limits: RunLimits::default(),
        explore: None,
    }
}

#[test]
fn output_streams_and_the_run_finishes() {
    let (sink, got) = capture();
    let r = run(request("out 1 + 1\nout System.args()"), sink);
    assert_eq!(r.status, "finished");
    assert_eq!(got.borrow().0, "2\n[]\n");
    assert!(r.diagnostics.is_empty());
}

#[test]
fn arguments_reach_the_script() {
    let (sink, got) = capture();
    let mut req = request("out System.args().size(), System.args()[1]");
    req.args = vec!["a b".into(), "--two".into()];
    let r = run(req, sink);
    assert_eq!(r.status, "finished");
    assert_eq!(got.borrow().0, "2 --two\n");
}

#[test]
fn a_compile_error_is_placed_on_its_line() {
    let (sink, _) = capture();
    let r = run(request("out 1\n\nout nosuchname + 1\n"), sink);
    assert_eq!(r.status, "compile_error");
    let d = &r.diagnostics[0];
    assert_eq!((d.file.as_str(), d.line, d.col, d.severity), ("playground.ds", 3, 5, "error"));
    assert_eq!(d.end_line, 3);
    assert!(d.rendered.contains("playground.ds:3:5"), "{}", d.rendered);
}

#[test]
fn searches_run_on_one_thread_and_more_threads_are_refused_clearly() {
    let search = |threads: u32| {
        let (sink, got) = capture();
        let source = format!("def next(n) : return n < 50 ? [n + 1, n * 2] : []\nout Search.bfs(1, next, 40, {{\"threads\": {threads}}})\n");
        let r = run(request(&source), sink);
        let out = got.borrow().0.clone();
        (r, out)
    };
    let (r, out) = search(1);
    assert_eq!((r.status, out.as_str()), ("finished", "40\n"));
    // The core alone starts no threads (the playground has none).
    let (r, _) = search(2);
    assert_eq!(r.status, "runtime_error");
    let said = &r.diagnostics[0].message;
    assert!(said.contains("runs on one thread in this build of ds (the playground has no threads)"), "{said}");
}

#[test]
fn a_runtime_error_keeps_the_output_before_it() {
    let (sink, got) = capture();
    let r = run(request("out \"before\"\nvar A = 0\nout 1 / A\n"), sink);
    assert_eq!(r.status, "runtime_error");
    assert_eq!(got.borrow().0, "before\n");
    assert_eq!(r.diagnostics[0].line, 3);
}

#[test]
fn includes_and_data_files_come_from_the_folder_and_written_files_come_back() {
    let (sink, got) = capture();
    let mut req = request("#include \"lib/two.ds\"\nout two()\nvar F = File.open(\"out/x.txt\", \"w\")\nF.out(\"hi\")\nF.close()\nout File.open(\"data/d.txt\").getline()\n");
    req.files.insert("lib/two.ds".into(), "def two() : return 2\n".into());
    req.files.insert("data/d.txt".into(), "first\nsecond\n".into());
    let r = run(req, sink);
    assert_eq!(r.status, "finished", "{:?}", r.diagnostics);
    assert_eq!(got.borrow().0, "2\nfirst\n");
    assert_eq!(r.files_written.len(), 1);
    assert_eq!((r.files_written[0].path.as_str(), r.files_written[0].text.as_str()), ("out/x.txt", "hi\n"));
}

#[test]
fn a_missing_include_is_an_error_not_a_panic() {
    let (sink, _) = capture();
    let r = run(request("#include \"nowhere.ds\"\n"), sink);
    assert_eq!(r.status, "compile_error");
    assert!(r.diagnostics[0].message.contains("nowhere.ds"), "{}", r.diagnostics[0].message);
}

#[test]
fn the_step_limit_stops_a_loop() {
    let (sink, _) = capture();
    let mut req = request("while True {}\n");
    req.limits.max_steps = Some(10_000);
    let r = run(req, sink);
    assert_eq!(r.status, "runtime_error");
    assert!(r.diagnostics[0].message.contains("step"), "{}", r.diagnostics[0].message);
}

#[test]
fn the_time_limit_stops_a_loop() {
    let (sink, _) = capture();
    let mut req = request("while True {}\n");
    req.limits.timeout_ms = Some(100);
    let r = run(req, sink);
    assert_eq!(r.status, "runtime_error");
    assert!(r.ms < 5000.0);
}

#[test]
fn exit_gives_its_status() {
    let (sink, _) = capture();
    let r = run(request("out 1\nSystem.exit(3)\nout 2\n"), sink);
    assert_eq!((r.status, r.exit_code), ("exited", 3));
}

#[test]
fn many_lines_come_in_fewer_chunks_than_lines() {
    let (sink, got) = capture();
    let r = run(request("for I in range(20000) : out I\n"), sink);
    assert_eq!(r.status, "finished");
    let g = got.borrow();
    assert_eq!(g.0.lines().count(), 20000);
    assert!(g.2 < 2000, "{} chunks for 20000 lines", g.2);
}

#[test]
fn bad_json_is_an_answer() {
    let (sink, _) = capture();
    let answer = run_json("{\"source\": 5}", sink.clone());
    assert!(answer.contains("\"status\":\"bad_request\""), "{answer}");
    let answer = run_json("{\"source\": \"out 1\", \"surprise\": 1}", sink);
    assert!(answer.contains("bad_request") && answer.contains("surprise"), "{answer}");
}

#[test]
fn a_json_request_runs_and_answers_in_json() {
    let (sink, got) = capture();
    let request = r#"{"source": "out System.args()[0]\nout 1 / 0\n", "name": "scripts/x.ds", "args": ["é"],
        "files": {"scripts/data.txt": "x"}, "limits": {"timeout_ms": 5000, "max_steps": null}}"#;
    let answer: serde_json::Value = serde_json::from_str(&run_json(request, sink)).expect("JSON");
    assert_eq!(got.borrow().0, "é\n");
    assert_eq!(answer["status"], "runtime_error");
    assert_eq!(answer["exit_code"], 1);
    let d = &answer["diagnostics"][0];
    assert_eq!((d["file"].as_str(), d["line"].as_u64(), d["col"].as_u64()), (Some("scripts/x.ds"), Some(2), Some(5)));
    assert!(d["rendered"].as_str().is_some_and(|r| r.contains("scripts/x.ds:2:5")), "{d}");
    assert_eq!(answer["files_written"], serde_json::json!([]));
}

#[test]
fn the_world_at_the_end_comes_back_for_drawing() {
    let (sink, _) = capture();
    let r = run(request("edges on, want\nnodes a, b\na on b = True\na want b = False\n"), sink);
    let world = r.world.expect("GRAPH has facts");
    assert_eq!(world["name"], "GRAPH");
    assert_eq!(world["facts"], serde_json::json!([["a", "on", "b", "True"], ["a", "want", "b", "False"]]));
    let (sink, _) = capture();
    assert!(run(request("out 1\n"), sink).world.is_none(), "an empty GRAPH is not drawn");
}

/// `out G` of a graph alone is shown as a drawing: the graph's facts and the text `out`
/// prints, in order with the text around it; the core without the hook prints that text.
#[test]
fn out_of_a_graph_alone_is_drawn_with_its_text() {
    let code =
        "nodes a, b\nedges on\na on b = True\na on a = False\nout \"before\"\nout GRAPH\nout GRAPH, 1\nout \"after\"\n";
    let (sink, got) = capture();
    let r = run(request(code), sink);
    assert_eq!(r.status, "finished");
    let got = got.borrow();
    assert_eq!(got.3.len(), 1, "only `out GRAPH` alone is drawn: {:?}", got.3);
    assert_eq!(got.3[0].0, "before\n".len(), "drawn after what was printed before it");
    let shown: serde_json::Value = serde_json::from_str(&got.3[0].1).unwrap();
    let facts = shown["graph"]["facts"].as_array().unwrap();
    assert!(facts.contains(&serde_json::json!(["a", "on", "b", "True"])), "{facts:?}");
    assert!(facts.contains(&serde_json::json!(["a", "on", "a", "False"])), "{facts:?}");
    assert_eq!(shown["graph"]["name"], "GRAPH");
    // The same script on the core alone (no host hook): `out GRAPH` prints the text the
    // drawing carries.
    let mut plain = ds_core::Session::new(Box::new(Vec::new()));
    let printed = Rc::new(RefCell::new(Vec::new()));
    struct Keep(Rc<RefCell<Vec<u8>>>);
    impl std::io::Write for Keep {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.borrow_mut().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    plain.interp.out = Box::new(Keep(printed.clone()));
    plain.run_source("plain.ds", code);
    let _ = std::io::Write::flush(&mut plain.interp.out);
    let printed = String::from_utf8(printed.borrow().clone()).unwrap();
    let text = shown["text"].as_str().unwrap();
    assert!(text.starts_with("GRAPH {"), "{text}");
    assert!(printed.starts_with(&format!("before\n{text}")), "{printed}");
    assert_eq!(got.0, printed.replacen(text, "", 1), "the rest is printed as it comes, in order");
}

#[test]
fn a_memory_limit_past_what_wasm32_addresses_is_refused_not_wrapped() {
    // Issue 56: 4096 MB is 2^32 bytes, which wrapped to a limit of 0 bytes in wasm32.
    let (sink, got) = capture();
    let asking = |mb: u64| format!(r#"{{"source": "out 6 * 7", "limits": {{"max_memory_bytes": {}}}}}"#, mb << 20);
    let answer: serde_json::Value = serde_json::from_str(&run_json(&asking(4096), sink.clone())).expect("JSON");
    assert_eq!(answer["status"], "bad_request");
    let message = answer["diagnostics"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("at most 4095 MB"), "{message}");
    assert_eq!(got.borrow().0, "", "nothing ran");
    let answer: serde_json::Value = serde_json::from_str(&run_json(&asking(4095), sink)).expect("JSON");
    assert_eq!(answer["status"], "finished", "{answer}");
    assert_eq!(got.borrow().0, "42\n");
}

#[test]
fn a_stack_budget_stops_deep_recursion_with_the_interpreters_error() {
    // Issue 55: the page gives a run a stack budget once the browser's own stack ran out; the
    // interpreter must stop within it, with its error, and the next run gets the whole stack.
    let (sink, _) = capture();
    assert_eq!(ds_base::guard::stack::floor(), 0, "a test thread has no floor of its own");
    let deep = "def f(n) : return f(n + 1)\nout f(0)\n";
    let mut req = request(deep);
    req.limits.max_depth = Some(1_000_000);
    req.limits.stack_bytes = Some(256 << 10);
    let r = run(req, sink);
    assert_eq!(r.status, "runtime_error");
    assert!(
        r.diagnostics[0].message.contains("recursion too deep: the native stack is used up"),
        "{:?}",
        r.diagnostics
    );
    assert_eq!(ds_base::guard::stack::floor(), 0, "the budget ends with its run");
    let (sink, got) = capture();
    assert_eq!(run(request("def f(n) : return n == 0 ? 0 : 1 + f(n - 1)\nout f(50)\n"), sink).status, "finished");
    assert_eq!(got.borrow().0, "50\n");
}

#[test]
fn a_long_search_posts_its_line_and_clears_it() {
    // Triples mod 80 by a + 1, b + 7, c + a: 512,000 states, over a second; the line shows
    // once a search has run a second, at most twice a second, and "" at its end.
    let source =
        "def next(s) : return [[\"a\", [(s[0] + 1) % 80, s[1], s[2]]], [\"b\", [s[0], (s[1] + 7) % 80, s[2]]], \
                  [\"c\", [s[0], s[1], (s[2] + s[0]) % 80]]]\n\
                  Search.bfs([0, 0, 0], next, [-1])\nout Search.stats()[\"states\"]\n";
    let lines: Rc<RefCell<Vec<String>>> = Rc::default();
    let keep = lines.clone();
    let sink: Sink = Rc::new(RefCell::new(move |stream: Stream, text: &str| {
        if stream == Stream::Status {
            keep.borrow_mut().push(text.to_string());
        }
    }));
    let request = Request {
        source: source.into(),
        name: "search.ds".into(),
        args: Vec::new(),
        files: Default::default(),
        limits: RunLimits::default(),
        explore: None,
    };
    let response = ds_web::runner::run(request, sink);
    assert_eq!(response.status, "finished", "{:?}", response.diagnostics);
    let lines = lines.borrow();
    assert!(lines.len() >= 2, "{lines:?}");
    assert!(lines[0].starts_with("search: ") && lines[0].contains(" states/s, "), "{lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some(""), "cleared at the end");
    assert!(lines[..lines.len() - 1].iter().all(|l| !l.is_empty()));
}

#[test]
fn output_written_before_a_long_computation_reaches_the_page_while_it_runs() {
    // The engine has one thread: nothing but the script can send what waits. A check of the
    // limits sends it once it has waited 75 ms.
    let source = "out \"first\"\nvar I = 0\nwhile I < 60000000 { I = I + 1 }\nout \"second\"\n";
    let started = web_time::Instant::now();
    let chunks: Rc<RefCell<Vec<(String, std::time::Duration)>>> = Rc::default();
    let keep = chunks.clone();
    let sink: Sink = Rc::new(RefCell::new(move |stream: Stream, text: &str| {
        if stream == Stream::Out {
            keep.borrow_mut().push((text.to_string(), started.elapsed()));
        }
    }));
    let request = Request {
        source: source.into(),
        name: "wait.ds".into(),
        args: Vec::new(),
        files: Default::default(),
        limits: RunLimits::default(),
        explore: None,
    };
    let response = run(request, sink);
    let ended = started.elapsed();
    assert_eq!(response.status, "finished", "{:?}", response.diagnostics);
    let chunks = chunks.borrow();
    assert_eq!(chunks.first().map(|c| c.0.as_str()), Some("first\n"), "{chunks:?}");
    assert!(chunks[0].1 * 2 < ended, "the first line came after {:?}, the run ended after {ended:?}", chunks[0].1);
}

/// The warm-up script a worker runs when it starts ends with the answers worked out by hand:
/// where the cat and the box are in the copy and in the world; 1 to 100 by +1 or *2 in 8
/// actions at least (100 is 1100100 in binary: six doublings and two additions, and five
/// doublings need three), the cheapest path costs 18 (1+1+3+3+3+1+3+3, checked by a Dijkstra
/// search in Python); the squares of 1 to 300 sum to 300*301*601/6, and 43 of those numbers
/// are 3 mod 7.
#[test]
fn the_warm_up_script_runs_to_its_answers() {
    let (sink, got) = capture();
    let request = Request { source: ds_web::runner::WARM_UP.into(), ..request("") };
    let response = run(request, sink);
    assert_eq!(response.status, "finished", "{}", got.borrow().1);
    let out = got.borrow().0.clone();
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "box nowhere, $home $home False");
    assert_eq!(lines[1].split(' ').next(), Some("100"));
    assert_eq!(lines[1].split(' ').nth(1).map(|a| a.trim_matches(['[', ']']).split(',').count()), Some(8));
    assert_eq!(lines[2], "100 18");
    assert_eq!(lines[3], format!("{} 43", 300 * 301 * 601 / 6));
    assert_eq!(ds_web::runner::warm_up().status, "finished");
}
