//! The grading: the exercise checked alone, the submission run first in a session of its own
//! (with no files at all, `Sealed`, so that it cannot read the exercise or anything beside it),
//! then the exercise in the same session, then each test called with the submission's names,
//! each within the limits.

use crate::capture::Captured;
use crate::report::{Report, Verdict};
use ds_core::compile::ir::FnCode;
use ds_core::eval::{Flow, Interp};
use ds_core::session::{Outcome, Session};
use ds_core::value::{Map, Value};
use ds_syntax::Span;
use std::cell::RefCell;
use std::collections::BTreeSet;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// A file's name (as errors show it) and text.
pub struct Source {
    pub name: String,
    pub text: String,
}

/// What each test may take, and the program's own start too.
pub struct TestLimits {
    pub time: Duration,
    pub steps: u64,
}

/// What is wrong with an exercise: a message for its teacher (`ds grade` exits with 2).
#[derive(Debug)]
pub struct ExerciseError(pub String);

/// The demons that are tests: public ones, and hidden ones whose messages only `--reveal` shows.
const PUBLIC: &str = "test_";
const HIDDEN: &str = "hidden_";
/// The exercise's demon that draws the state of a failing test, if it has one.
const VIEW: &str = "ex_view";

/// A test of the exercise.
pub struct Test {
    pub name: String,
    pub hidden: bool,
}

/// What the exercise defines, found by compiling it alone.
struct Plan {
    tests: Vec<Test>,
    /// Every demon and top-level variable of the exercise: a submission may not define one.
    names: BTreeSet<String>,
}

impl Plan {
    fn of(exercise: &Source) -> Result<Plan, ExerciseError> {
        let mut alone = Session::new(Box::new(std::io::sink()));
        alone.interp.warnings.sink = Box::new(std::io::sink());
        if let Err(d) = alone.check_source(&exercise.name, &exercise.text) {
            return Err(ExerciseError(alone.render(&d, false)));
        }
        let compiler = &alone.interp.compiler;
        let mut demons: Vec<(&str, Span, usize)> =
            compiler.demons.iter().map(|(name, sig)| (&**name, sig.span, sig.arity)).collect();
        demons.sort_by_key(|(_, span, _)| span.lo);
        let mut tests = Vec::new();
        for (name, _, arity) in &demons {
            let hidden = name.starts_with(HIDDEN);
            if !hidden && !name.starts_with(PUBLIC) {
                continue;
            }
            if *arity != 1 {
                return Err(ExerciseError(format!(
                    "the test `{name}` takes {arity} arguments: a test takes one, the map of the submission's names"
                )));
            }
            tests.push(Test { name: name.to_string(), hidden });
        }
        if tests.is_empty() {
            return Err(ExerciseError(format!(
                "it has no test: a test is a demon whose name starts with `{PUBLIC}` or `{HIDDEN}`"
            )));
        }
        let names =
            demons.iter().map(|(n, _, _)| n.to_string()).chain(compiler.top_level_names().map(|n| n.to_string()));
        Ok(Plan { tests, names: names.collect() })
    }
}

/// Grades `submission` by the tests of `exercise`.
pub fn grade(exercise: &Source, submission: &Source, limits: &TestLimits) -> Result<Report, ExerciseError> {
    let plan = Plan::of(exercise)?;
    let mut report = Report::new(plan.tests.iter().map(|t| (t.name.clone(), t.hidden)).collect());
    let out = Captured::default();
    let mut session = Session::new(Box::new(out.clone()));
    session.interp.warnings.sink = Box::new(out.clone());
    session.interp.set_files(Box::new(crate::sealed::Sealed));
    within(&mut session.interp, limits);
    match session.run_source(&submission.name, &submission.text) {
        Outcome::CompileErrors(d) => {
            report.refuse(format!("your program does not compile:\n{}", session.render(&d, false)));
            return Ok(report);
        }
        Outcome::RuntimeError(d) => report.program_error = Some(session.render(&[*d], false)),
        Outcome::Finished(_) | Outcome::Exited(_) => {}
    }
    let _ = session.interp.out.flush();
    report.program_output = out.take();
    let names = submitted_names(&session);
    if let Some(clash) = names.iter().find(|n| plan.names.contains(*n)) {
        report.refuse(format!("your program defines `{clash}`, a name the exercise uses for its own: rename yours"));
        return Ok(report);
    }
    let given = names_map(&session, &names);
    within(&mut session.interp, limits);
    match session.run_source(&exercise.name, &exercise.text) {
        Outcome::Finished(_) => {}
        Outcome::CompileErrors(d) => return Err(ExerciseError(session.render(&d, false))),
        Outcome::RuntimeError(d) => {
            let error = session.render(&[*d], false);
            return Err(ExerciseError(format!("it failed before its tests ran:\n{error}")));
        }
        Outcome::Exited(code) => return Err(ExerciseError(format!("its top level called System.exit({code})"))),
    }
    let _ = session.interp.out.flush();
    let _ = out.take(); // the exercise's own output is not the student's
    let view = plan.names.contains(VIEW).then(|| demon(&session, VIEW)).flatten();
    for (k, test) in plan.tests.iter().enumerate() {
        within(&mut session.interp, limits);
        let Some((code, span)) = demon(&session, &test.name) else {
            return Err(ExerciseError(format!("the test `{}` has no body", test.name)));
        };
        let arg = Value::Map(Rc::new(RefCell::new(given.clone())));
        let result = session.interp.call_fn(&code, vec![arg], span, None);
        let _ = session.interp.out.flush();
        let printed = out.take();
        // A search that a limit stopped returns cleanly (Undef), and the test might pass on
        // what it counted so far: a test during which the time or the steps ran out fails.
        let stopped = session.interp.limits().search_stopped;
        report.tests[k].verdict = match stopped {
            Some(limit) => Verdict::Failed { message: Some(limit_text(limit, limits)), state: None },
            None => judge(&mut session, result, view.as_ref(), limits),
        };
        report.tests[k].printed = printed;
    }
    Ok(report)
}

/// Sets the limits afresh for the next part of the grading.
fn within(it: &mut Interp, limits: &TestLimits) {
    it.set_steps(0);
    let l = it.limits_mut();
    l.max_steps = Some(limits.steps);
    l.deadline = Instant::now().checked_add(limits.time);
    l.grace_used = false;
    l.step_grace = 0;
    l.search_stopped = None;
}

/// The demons and top-level variables the submission defined, by name.
fn submitted_names(session: &Session) -> BTreeSet<String> {
    let c = &session.interp.compiler;
    c.demons.keys().map(|n| n.to_string()).chain(c.top_level_names().map(|n| n.to_string())).collect()
}

/// The map a test gets: each demon as a lambda, each top-level variable with its value.
fn names_map(session: &Session, names: &BTreeSet<String>) -> Map {
    let mut m = Map::default();
    for name in names {
        let value = match demon(session, name) {
            Some((code, _)) => Value::Lambda(code),
            None => {
                let slot = session.interp.compiler.top_level_slot(name);
                slot.and_then(|s| session.interp.globals.get(s as usize).cloned()).unwrap_or(Value::None)
            }
        };
        m.insert(Value::str(name), value);
    }
    m
}

/// The demon `name`, with where it is defined.
fn demon(session: &Session, name: &str) -> Option<(Rc<FnCode>, Span)> {
    let sig = session.interp.compiler.demons.get(name)?;
    let code = session.interp.demon(sig.id, sig.span).ok()?;
    Some((code, sig.span))
}

/// What a test's result says: True passes, False fails, a map says with `pass`, `message`
/// and `state`; an error or a limit fails the test (and grading goes on).
fn judge(
    session: &mut Session,
    result: Result<Value, Flow>,
    view: Option<&(Rc<FnCode>, Span)>,
    limits: &TestLimits,
) -> Verdict {
    let value = match result {
        Ok(v) => v,
        Err(Flow::Error(d)) => {
            let limit = d.limit.map(|l| limit_text(l, limits));
            let error = session.render(&[*d], false);
            return Verdict::Failed { message: Some(limit.unwrap_or(error)), state: None };
        }
        Err(Flow::Exit(code)) => {
            return Verdict::Failed { message: Some(format!("the program called System.exit({code})")), state: None }
        }
        Err(_) => {
            return Verdict::Failed { message: Some("the test ended with a stray break or return".into()), state: None }
        }
    };
    match &value {
        Value::Logic(l) if l.is_true() => Verdict::Passed,
        Value::Logic(l) if l.is_false() => Verdict::Failed { message: None, state: None },
        Value::Map(m) => {
            let m = m.borrow();
            let get = |k: &str| m.get(&Value::str(k)).cloned();
            if get("pass").is_some_and(|p| p.condition().is_true()) {
                return Verdict::Passed;
            }
            let message = get("message").map(|v| session.interp.text(&v));
            let state = get("state").map(|s| drawn(session, s, view, limits));
            Verdict::Failed { message, state }
        }
        other => Verdict::Failed {
            message: Some(format!(
                "the test gave {}, not True, False or a map with `pass` (a fault of the exercise)",
                session.interp.text(other)
            )),
            state: None,
        },
    }
}

/// A failing test's state as text: drawn by the exercise's `ex_view` when it has one (a string or
/// a graph; a picture cannot be shown as text), else as `out` prints it.
fn drawn(session: &mut Session, state: Value, view: Option<&(Rc<FnCode>, Span)>, limits: &TestLimits) -> String {
    if let Some((code, span)) = view {
        within(&mut session.interp, limits);
        if let Ok(v @ (Value::Str(_) | Value::Graph(_))) =
            session.interp.call_fn(code, vec![state.clone()], *span, None)
        {
            return session.interp.text(&v);
        }
    }
    session.interp.text(&state)
}

fn limit_text(limit: ds_base::diagnostics::Limit, limits: &TestLimits) -> String {
    use ds_base::diagnostics::Limit;
    match limit {
        Limit::Timeout => format!("stopped: the time limit of {} s was reached", limits.time.as_secs_f64()),
        Limit::Steps => format!("stopped: the step limit of {} statements was reached", limits.steps),
        Limit::Memory => "stopped: the memory limit was reached".to_string(),
        Limit::Interrupt => "stopped: interrupted".to_string(),
    }
}
