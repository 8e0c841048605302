//! Keywords are refused as names with an error that says so, and methods named like keywords
//! (`F.out`, `F.in`) still work after a dot.

use crate::common::fails_with;
use ds::files::MemoryFiles;
use ds::{Outcome, Session};

/// Every keyword but `#include` (no name can look like it) and `GRAPH` (the current graph, a
/// variable a script may declare).
fn keywords() -> impl Iterator<Item = &'static str> {
    ds::syntax::token::KEYWORDS.into_iter().filter(|k| !matches!(*k, "#include" | "GRAPH"))
}

#[test]
fn a_keyword_cannot_name_a_variable_a_demon_or_a_parameter() {
    for k in keywords() {
        let message = format!("`{k}` is a keyword: it cannot name a variable, a demon or a parameter");
        fails_with(&format!("var {k} = 1\n"), &message);
        fails_with(&format!("def f({k}) : return 1\n"), &message);
    }
    fails_with("def out(X) : return X\n", "`out` is a keyword");
}

#[test]
fn methods_named_like_keywords_still_work() {
    let files = MemoryFiles::default();
    let mut session = Session::new(Box::new(std::io::sink()));
    session.interp.set_files(Box::new(files.clone()));
    let src = "var F = File.open(\"a.txt\", \"w\")\nF.out(\"x\", 1)\nF.close()\n\
               var R = File.open(\"a.txt\")\nfopen(\"b.txt\")\nfout R.in()\nfclose()\n";
    let outcome = session.run_source("main.ds", src);
    assert!(matches!(outcome, Outcome::Finished(_)), "{outcome:?}");
    assert_eq!(files.get("b.txt").as_deref(), Some("x 1\n\n"));
}
