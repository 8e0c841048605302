//! Successors without wrappers (`compile::sink`, `eval/sink.rs`): which `Next` demons the
//! compiler proves only collect successors, and that the search's call of one hands over
//! the parts of each `[A, S]` without the pair.

use crate::compile::ir::FnCode;
use crate::compile::sink::successor_local;
use crate::eval::sink::Successor;
use crate::session::{Outcome, Session};
use crate::value::Value;
use ds_syntax::Span;
use std::rc::Rc;

/// The session that ran `src`, and its demon `name`.
fn demon(src: &str, name: &str) -> (Session, Rc<FnCode>) {
    let mut session = Session::new(Box::new(std::io::sink()));
    let outcome = session.run_source("sink.ds", src);
    assert!(matches!(outcome, Outcome::Finished(_)), "{outcome:?}");
    let code = session.interp.demons.iter().flatten().find(|c| &*c.name == name).cloned();
    (session, code.expect("the demon"))
}

const MOVES: &str = "def moves(S) {\n   var R = []\n   for J in [1, 2] : R.push([J, S + J])\n   \
                     if S > 5 : R.push([0, S - 1, 2])\n   return R\n}\n";

#[test]
fn a_local_only_pushed_and_returned_collects_successors() {
    let (_, code) = demon(MOVES, "moves");
    assert_eq!(successor_local(&code), Some(1));
    // also with a bare state pushed, an early `return R`, and a lambda of its own named R
    let other = "def m(S) {\n   var X = S\n   var R = []\n   if S > 3 : return R\n   R.push(S + 1)\n   \
                 var f = (R) => R.size()\n   R.push([\"a\", f([S])])\n   return R\n}\n";
    let (_, code) = demon(other, "m");
    assert_eq!(successor_local(&code), Some(2));
}

#[test]
fn any_other_use_keeps_the_array() {
    let uses = [
        "out R.size()",
        "var T = R",
        "R.push(R)",
        "R.push(1, 2)",
        "R[0] = 1",
        "R = []",
        "var K = R[0]",
        "for X in R : out X",
        "return [R]",
        "out eval(\"1\")",
        "Keep = R",
        "R.push(R.size())",
    ];
    for u in uses {
        let src = format!(
            "var Keep = 0\nglobal Keep\ndef m(S) {{\n   var R = []\n   R.push([1, S])\n   {u}\n   return R\n}}\n"
        );
        let (_, code) = demon(&src, "m");
        assert_eq!(successor_local(&code), None, "{u}");
    }
    // declared in a block or a loop, or pushed to before it is declared: not proved
    for src in [
        "def m(S) {\n   if True {\n      var R = []\n      R.push(S)\n      return R\n   }\n}\n",
        "def m(S) {\n   for I in [1] {\n      var R = []\n      R.push(S)\n      return R\n   }\n}\n",
        "def m(S) {\n   var R = [S]\n   R.push(S)\n   return R\n}\n",
    ] {
        let (_, code) = demon(src, "m");
        assert_eq!(successor_local(&code), None, "{src}");
    }
}

/// Calls `code` as the search does, on `arg`.
fn sunk(session: &mut Session, code: &Rc<FnCode>, arg: f64) -> (Option<Value>, Vec<Successor>) {
    let mut items = Vec::new();
    let slot = successor_local(code).expect("a collecting local");
    let r = session.interp.call_sinking(code, Value::Num(arg), slot, &mut items, Span::default());
    (r.map_err(|_| "the call failed").unwrap(), items)
}

#[test]
fn the_search_call_takes_the_parts_without_the_pairs() {
    let (mut session, code) = demon(MOVES, "moves");
    let (result, items) = sunk(&mut session, &code, 7.0);
    assert!(result.is_none());
    let text = |v: &Value| session.interp.text(v);
    let parts: Vec<String> = items
        .iter()
        .map(|s| match s {
            Successor::Parts(a, s, c) => format!("{} {} {}", text(a), text(s), c.as_ref().map_or("-".into(), text)),
            Successor::Whole(v) => format!("whole {}", text(v)),
        })
        .collect();
    assert_eq!(parts, ["1 8 -", "2 9 -", "0 6 2"]);
    // called by the script, the same demon builds its array as before
    let called = session.interp.call_fn(&code, vec![Value::Num(7.0)], Span::default(), None);
    assert_eq!(session.interp.text(&called.map_err(|_| "failed").unwrap()), "[[1,8],[2,9],[0,6,2]]");
}

#[test]
fn a_call_that_returns_something_else_gives_that() {
    let src = "def m(S) {\n   var R = []\n   R.push([1, S])\n   if S > 1 : return [[\"x\", 0]]\n   return R\n}\n";
    let (mut session, code) = demon(src, "m");
    let (result, items) = sunk(&mut session, &code, 2.0);
    assert_eq!(session.interp.text(&result.expect("the returned array")), "[[x,0]]");
    assert!(items.is_empty());
    let (result, items) = sunk(&mut session, &code, 1.0);
    assert!(result.is_none() && items.len() == 1);
}
