//! The problem `ds explore` serves, found by name among the script's globals and demons once
//! the script has run: `--start` a global or an expression, `--next`, `--h`, `--view` and
//! `--symmetry` demons (or globals holding a lambda) of one argument, `--goal` a demon or a value
//! to compare states with.

use crate::compile::ir::{EvalScope, FnCode};
use crate::eval::{Flow, Interp};
use crate::search::pack::{Codec, PackError};
use crate::search::script::{GoalTest, Spec, Trace};
use crate::search::Algorithm;
use crate::value::Value;
use ds_syntax::Span;
use std::rc::Rc;

/// What the command line named, after the options were read.
#[derive(Debug, Clone, Default)]
pub struct Names {
    pub start: String,
    pub next: String,
    pub goal: String,
    pub h: Option<String>,
    pub view: Option<String>,
    /// A canonicaliser: states with the same representative count once.
    pub symmetry: Option<String>,
}

/// The goal: a demon or lambda, or a value states are compared with.
#[derive(Clone)]
pub enum Goal {
    Demon(Rc<FnCode>),
    Value(Value),
}

/// The problem's parts, as values of the script.
#[derive(Clone)]
pub struct Parts {
    pub start: Value,
    pub next: Rc<FnCode>,
    pub goal: Goal,
    pub h: Option<Rc<FnCode>>,
    /// Draws a state (decision 22): a picture, a text or a graph.
    pub view: Option<Rc<FnCode>>,
    /// Gives each state's representative (`Opts["symmetry"]` of `Search.explore` as a demon).
    pub canonical: Option<Rc<FnCode>>,
}

impl Parts {
    /// Looks the names up (evaluating a `--start` that is not a name); an error says which
    /// option names what, and what is wrong with it. `span` is where errors of the evaluation
    /// point.
    pub fn find(it: &mut Interp, names: &Names, span: Span) -> Result<Parts, String> {
        let start = match global(it, &names.start) {
            Some(v) => v,
            None if demon(it, &names.start).is_some() => {
                return Err(format!(
                    "--start `{}` is a demon; --start names a global variable holding the start state, or is an expression such as `{}(3)`",
                    names.start, names.start
                ))
            }
            None if is_name(&names.start) => return Err(unknown(it, "--start", &names.start, "global variable")),
            None => evaluate(it, &names.start, span)?,
        };
        if let Err(e) = Codec::new(&start).pack(&start, &mut Vec::new()) {
            let what = match e {
                PackError::Kind(kind) => kind.to_string(),
                PackError::TooDeep => "an array or map nested too deeply".to_string(),
            };
            return Err(format!("--start `{}` is {what}, which cannot be a state", names.start));
        }
        let next = one_argument(it, "--next", &names.next)?;
        let goal = match callable(it, &names.goal) {
            Some(code) => Goal::Demon(check_arity("--goal", &names.goal, code)?),
            None => match global(it, &names.goal) {
                Some(v) => Goal::Value(v),
                None => return Err(unknown(it, "--goal", &names.goal, "demon or global variable")),
            },
        };
        let h = match &names.h {
            Some(name) => Some(one_argument(it, "--h", name)?),
            None => None,
        };
        let view = match &names.view {
            Some(name) => Some(one_argument(it, "--view", name)?),
            None => None,
        };
        let canonical = match &names.symmetry {
            Some(name) => Some(one_argument(it, "--symmetry", name)?),
            None => None,
        };
        Ok(Parts { start, next, goal, h, view, canonical })
    }

    /// The spec of a search of this problem by `algorithm`.
    pub fn spec(&self, algorithm: Algorithm) -> Spec {
        let goal = match &self.goal {
            Goal::Demon(code) => GoalTest::Demon(code.clone()),
            Goal::Value(v) => GoalTest::Value(v.clone()),
        };
        Spec {
            algorithm,
            start: self.start.clone(),
            next: self.next.clone(),
            goal,
            h: self.h.clone(),
            symmetry: None,
            canonical: self.canonical.clone(),
            trace: Trace::Off,
            first_paths_kept: algorithm.row().keeps_first_path,
        }
    }
}

/// Whether `text` is a plain name (then `--start` must be a global's), not an expression.
fn is_name(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_alphabetic() || c == '_') && chars.all(|c| c.is_alphanumeric() || c == '_')
}

/// The value of a `--start` expression, run at the top level as `eval` would run it there.
fn evaluate(it: &mut Interp, code: &str, span: Span) -> Result<Value, String> {
    let scope = EvalScope { vars: Default::default(), top_level: true };
    it.eval_code(code, &scope, span).map_err(|flow| match flow {
        Flow::Error(d) => format!("--start `{code}`: {}", d.message),
        _ => format!("--start `{code}` did not give a value"),
    })
}

/// The value of top-level variable `name`, if the script has one.
fn global(it: &Interp, name: &str) -> Option<Value> {
    let slot = it.compiler.top_level_slot(name)?;
    Some(it.globals.get(slot as usize).cloned().unwrap_or(Value::None))
}

fn demon(it: &Interp, name: &str) -> Option<Rc<FnCode>> {
    let sig = it.compiler.demons.get(name)?;
    it.demons.get(sig.id as usize).cloned().flatten()
}

/// A demon by that name, or a global holding a lambda.
fn callable(it: &Interp, name: &str) -> Option<Rc<FnCode>> {
    demon(it, name).or_else(|| match global(it, name) {
        Some(Value::Lambda(code)) => FnCode::of(code),
        _ => None,
    })
}

fn one_argument(it: &Interp, option: &str, name: &str) -> Result<Rc<FnCode>, String> {
    match callable(it, name) {
        Some(code) => check_arity(option, name, code),
        None if global(it, name).is_some() => {
            Err(format!("{option} `{name}` is a global variable, not a demon: {option} names a demon of one argument"))
        }
        None => Err(unknown(it, option, name, "demon")),
    }
}

fn check_arity(option: &str, name: &str, code: Rc<FnCode>) -> Result<Rc<FnCode>, String> {
    match code.param_names.len() {
        1 => Ok(code),
        n => Err(format!("{option} `{name}` must be a demon of one argument (a state); it takes {n}")),
    }
}

/// "the script has no demon `X`", with the nearest name it has.
fn unknown(it: &Interp, option: &str, name: &str, what: &str) -> String {
    let demons = it.compiler.demons.keys().map(|k| k.as_ref());
    let globals = it.compiler.top_level_names().map(|k| k.as_ref());
    let hint = match ds_base::names::suggest(name, demons.chain(globals)) {
        Some(s) => format!(" (did you mean `{s}`?)"),
        None => String::new(),
    };
    format!("{option} `{name}`: the script has no {what} of that name{hint}")
}
