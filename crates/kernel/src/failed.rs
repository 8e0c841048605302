//! Cells that failed to compile, remembered by the names they would have defined: a cell that
//! does not compile runs none of its code, so every later cell that uses one of its demons
//! fails with "unknown name". The error of the failed cell says once that it defined nothing,
//! and a later "unknown name `X`" names the cell that would have defined `X` (issue 55).

use ds_syntax::ast::StmtKind;
use rustc_hash::FxHashMap;
use serde_json::{json, Value as Json};

/// The top-level names of failed cells, each with the execution count of the latest cell that
/// would have defined it.
#[derive(Default)]
pub struct FailedCells {
    names: FxHashMap<String, u32>,
}

impl FailedCells {
    /// A cell that did not compile: its names are remembered; the note for its error, when it
    /// would have defined any.
    pub fn failed(&mut self, count: u32, code: &str) -> Option<String> {
        let names = top_level_names(code);
        for name in &names {
            self.names.insert(name.clone(), count);
        }
        let what = match names.len() {
            0 => return None,
            1 => format!("`{}` is not defined", names[0]),
            _ => format!("{} are not defined", listed(&names)),
        };
        Some(format!("note: this cell did not compile, so none of it ran and it defined nothing: {what}"))
    }

    /// A cell that compiled: the names it defines are no longer the failed cells'.
    pub fn compiled(&mut self, code: &str) {
        for name in top_level_names(code) {
            self.names.remove(&name);
        }
    }

    /// Notes for the unknown names of an error that a failed cell would have defined.
    pub fn explain(&self, errors: &str) -> Vec<String> {
        let mut notes: Vec<String> = Vec::new();
        for name in unknown_names(errors) {
            if let Some(cell) = self.names.get(name) {
                let note = format!(
                    "note: `{name}` is defined in cell [{cell}], which did not compile: fix it and run it again"
                );
                if !notes.contains(&note) {
                    notes.push(note);
                }
            }
        }
        notes
    }

    /// The error text of cell `count` (`code`) that failed with `errors`, with its notes; the
    /// cell is remembered as failed (it did not compile) or as having defined its demons (it
    /// compiled, then stopped at run time).
    pub fn error_text(&mut self, errors: &str, compile_failed: bool, count: u32, code: &str) -> String {
        let mut text = errors.to_string();
        for note in self.explain(errors) {
            text.push_str(&note);
            text.push('\n');
        }
        if compile_failed {
            if let Some(note) = self.failed(count, code) {
                text.push_str(&note);
                text.push('\n');
            }
        } else {
            self.compiled(code);
        }
        text
    }

    pub fn clear(&mut self) {
        self.names.clear();
    }
}

/// The names an error says are unknown (`unknown name `X``, `unknown demon or function `f``).
fn unknown_names(errors: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for phrase in ["unknown name `", "unknown demon or function `"] {
        names.extend(errors.split(phrase).skip(1).filter_map(|rest| rest.split_once('`').map(|(name, _)| name)));
    }
    names
}

/// `a`, `b` and `c`.
fn listed(names: &[String]) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => quoted.join(""),
    }
}

/// The demons and variables a cell defines at its top level. A cell that does not parse is
/// read line by line: `def NAME` and `var NAME` at the start of a line.
fn top_level_names(code: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut add = |name: &str| {
        if !names.iter().any(|n| n == name) {
            names.push(name.to_string());
        }
    };
    match ds_syntax::parse(code, 0) {
        Ok(stmts) => {
            for s in &stmts {
                match &s.kind {
                    StmtKind::Def(d) => add(&d.name.text),
                    StmtKind::Var(items) | StmtKind::Static(items) => items.iter().for_each(|i| add(&i.name.text)),
                    _ => {}
                }
            }
        }
        Err(_) => {
            for line in code.lines() {
                let mut words = line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
                if let (Some("def" | "var"), Some(name)) = (words.next(), words.next()) {
                    add(name);
                }
            }
        }
    }
    names
}

/// The content of an error: the first line of the diagnostics as the value, all of them (with
/// the source line and its caret) as the traceback.
pub fn error_content(errors: &str) -> Json {
    let first = errors.lines().next().unwrap_or("error");
    let evalue = first.strip_prefix("error: ").unwrap_or(first);
    let ename = if evalue.contains("interrupted") { "Interrupted" } else { "Error" };
    json!({ "ename": ename, "evalue": evalue, "traceback": errors.lines().collect::<Vec<_>>() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_cell_says_what_it_did_not_define_and_later_errors_name_it() {
        let mut failed = FailedCells::default();
        let note = failed.failed(3, "var Start = 1\ndef moves(S) { return nosuch }\ndef goal(S) { return False }");
        assert_eq!(
            note.as_deref().unwrap_or_default(),
            "note: this cell did not compile, so none of it ran and it defined nothing: \
             `Start`, `moves` and `goal` are not defined"
        );
        let errors = "error: unknown name `moves`: not a variable, edge or node\nerror: unknown name `Other`: x\n\
                      error: unknown demon or function `goal`";
        assert_eq!(
            failed.explain(errors),
            [
                "note: `moves` is defined in cell [3], which did not compile: fix it and run it again",
                "note: `goal` is defined in cell [3], which did not compile: fix it and run it again"
            ]
        );
        failed.compiled("def moves(S) { return [] }\ndef goal(S) { return False }");
        assert!(failed.explain(errors).is_empty(), "defined since");
    }

    #[test]
    fn a_cell_that_does_not_parse_is_read_line_by_line() {
        assert_eq!(top_level_names("def f(x) {\n  return (x +\n}\nvar Y = 2"), ["f", "Y"]);
        let mut failed = FailedCells::default();
        assert_eq!(failed.failed(1, "out ("), None, "a cell that would define nothing says nothing of it");
    }
}
