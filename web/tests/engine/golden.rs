//! The golden scripts through the playground's runner, as the page runs them: every file of
//! scripts/ in the in-memory folder (as `scripts/...`, so that the arguments name files as on
//! the command line), the arguments of each `NAME@CASE.args`, and the output
//! compared with `tests/expected/NAME@CASE.out` (lines starting with `time:` left out, as in
//! the interpreter's own golden tests).

use crate::common::{folder, root, shown_text};
use ds_web::runner::{run, Request, RunLimits, Sink, Stream};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fs;
use std::rc::Rc;

fn without_times(s: &str) -> String {
    s.lines().filter(|l| !l.starts_with("time:")).map(|l| format!("{l}\n")).collect()
}

fn cases() -> Vec<String> {
    let mut cases = Vec::new();
    for entry in fs::read_dir(root().join("tests/expected")).expect("list tests/expected").flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(case) = name.strip_suffix(".out") {
            cases.push(case.to_string());
        }
    }
    cases.sort();
    cases
}

fn args(case: &str) -> Vec<String> {
    if !case.contains('@') {
        return Vec::new();
    }
    let text = fs::read_to_string(root().join("tests/expected").join(format!("{case}.args"))).expect("read .args");
    text.lines().filter(|l| !l.starts_with('#')).map(str::to_string).collect()
}

#[test]
fn every_golden_case_gives_its_expected_output() {
    let mut files = BTreeMap::new();
    let scripts = root().join("scripts");
    folder(&scripts, &root(), &mut files);
    let mut failures = Vec::new();
    let cases = cases();
    for case in &cases {
        let name = format!("scripts/{}.ds", case.split('@').next().unwrap_or_default());
        let Some(source) = files.get(&name).cloned() else { continue };
        let got = Rc::new(RefCell::new(String::new()));
        let keep = got.clone();
        let sink: Sink = Rc::new(RefCell::new(move |stream: Stream, text: &str| match stream {
            Stream::Out => keep.borrow_mut().push_str(text),
            Stream::Shown => keep.borrow_mut().push_str(&shown_text(text)),
            Stream::Err | Stream::Status => {}
        }));
        let request = Request {
            source,
            name,
            args: args(case),
            files: files.clone(),
            limits: RunLimits::default(),
            explore: None,
        };
        let response = run(request, sink);
        let want = fs::read_to_string(root().join("tests/expected").join(format!("{case}.out"))).expect("read .out");
        let (got, want) = (without_times(&got.borrow()), without_times(&want));
        if got != want || response.status != "finished" {
            failures.push(format!(
                "{case} ({}): {:?}\n--- expected\n{want}--- got\n{got}",
                response.status, response.diagnostics
            ));
        }
    }
    assert!(cases.len() > 100, "only {} cases found", cases.len());
    assert!(failures.is_empty(), "{} of {} cases differ:\n{}", failures.len(), cases.len(), failures.join("\n"));
}
