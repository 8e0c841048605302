//! The builtins' reference, docs/builtins.md, is made from the registry (each builtin's
//! `.doc(usage, description)`): every registered builtin is documented there and nothing else
//! is. After adding or changing a builtin, `DS_REGENERATE_DOCS=1 cargo test --profile
//! release-dev --test integration builtin_docs` rewrites it. The hand-written tables of
//! docs/language.md are checked too: every call they show is of a registered builtin.

use ds::builtins::{self, Builtin, Kind, Receivers};

const REFERENCE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/docs/builtins.md");

/// A table row; a `|` inside a cell would end it.
fn row(call: &str, text: &str) -> String {
    format!("| `{}` | {} |\n", call.replace('|', "\\|"), text.replace('|', "\\|"))
}

fn table(title: &str, rows: &[String]) -> String {
    format!("## {title}\n\n| call | what it does |\n|---|---|\n{}\n", rows.concat())
}

/// docs/builtins.md as the registry makes it: functions, each module's members, and the
/// methods grouped by the kinds of value they work on, each in registry order.
fn reference() -> String {
    let mut out = String::from(
        "# Builtins\n\nEvery builtin function, module member and method, with how a call is written and what it \
         does. This page is made from the builtins' own descriptions (`Builtin::doc` in `crates/core/src/builtins/`); \
         `tests/integration/builtin_docs.rs` fails when it differs from them, and rewrites it when run with \
         `DS_REGENERATE_DOCS=1`. [language.md](language.md) explains them with examples.\n\n",
    );
    let functions: Vec<&Builtin> = builtins::all().filter(|b| b.kind == Kind::Function).collect();
    let plain: Vec<String> = functions.iter().filter(|b| !b.name.contains('.')).map(|b| row(b.usage, b.doc)).collect();
    out += &table("Functions", &plain);
    let mut modules: Vec<&str> = Vec::new();
    for b in &functions {
        if let Some((module, _)) = b.name.split_once('.') {
            if !modules.contains(&module) {
                modules.push(module);
            }
        }
    }
    for module in modules {
        let prefix = format!("{module}.");
        let mut rows: Vec<String> =
            functions.iter().filter(|b| b.name.starts_with(&prefix)).map(|b| row(b.usage, b.doc)).collect();
        rows.extend(builtins::constants().filter(|(n, _)| n.starts_with(&prefix)).map(|(n, text)| row(n, text)));
        out += &table(&format!("`{module}`"), &rows);
    }
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for (b, on) in builtins::methods() {
        let kinds = if on == Receivers::ANY { "any value".to_string() } else { on.describe() };
        match groups.iter_mut().find(|(k, _)| *k == kinds) {
            Some((_, rows)) => rows.push(row(b.usage, b.doc)),
            None => groups.push((kinds, vec![row(b.usage, b.doc)])),
        }
    }
    for (kinds, rows) in groups {
        out += &table(&format!("Methods of {kinds}"), &rows);
    }
    out.trim_end().to_string() + "\n"
}

#[test]
fn the_builtin_reference_is_the_registry() {
    let made = reference();
    if std::env::var_os("DS_REGENERATE_DOCS").is_some() {
        std::fs::write(REFERENCE, &made).expect("write docs/builtins.md");
    }
    let written = std::fs::read_to_string(REFERENCE).unwrap_or_default();
    let missing: Vec<&str> = made.lines().filter(|l| l.starts_with("| `") && !written.contains(*l)).collect();
    let stale: Vec<&str> = written.lines().filter(|l| l.starts_with("| `") && !made.contains(*l)).collect();
    assert!(
        made == written,
        "docs/builtins.md differs from the registry (rewrite it with DS_REGENERATE_DOCS=1):\n\
         registered but not documented so:\n{}\ndocumented but not registered so:\n{}",
        missing.join("\n"),
        stale.join("\n")
    );
}

/// Every call in a table row of docs/language.md (`A.push(v)`, `Math.sqrt(x)`, `range(n)`) is
/// of a registered method, module member or function.
#[test]
fn the_language_tables_show_only_registered_builtins() {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/language.md")).expect("docs");
    let registry = builtins::registry();
    let mut unknown = Vec::new();
    for line in text.lines().filter(|l| l.starts_with('|')) {
        for code in line.split('`').skip(1).step_by(2) {
            for (object, name) in calls(code) {
                let known = match object {
                    Some(m) if registry.is_module(m) => registry.function(&format!("{m}.{name}")).is_some(),
                    Some(_) => registry.method(name).is_some(),
                    None => registry.function(name).is_some() || registry.method(name).is_some(),
                };
                if !known {
                    unknown.push(format!("{}{name}(", object.map(|o| format!("{o}.")).unwrap_or_default()));
                }
            }
        }
    }
    assert!(unknown.is_empty(), "docs/language.md shows calls of builtins that are not registered: {unknown:?}");
}

/// The calls in a piece of code: (object or module, name) for each `X.name(` or `name(`.
fn calls(code: &str) -> Vec<(Option<&str>, &str)> {
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let mut out = Vec::new();
    for (at, _) in code.match_indices('(') {
        let before = &code[..at];
        let name_start = before.trim_end_matches(word).len();
        let name = &before[name_start..];
        if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
            continue;
        }
        let ahead = &before[..name_start];
        let object = ahead.strip_suffix('.').map(|o| &o[o.trim_end_matches(word).len()..]);
        if ahead.ends_with(['$', '@', '#']) || object.is_some_and(str::is_empty) {
            continue;
        }
        out.push((object, name));
    }
    out
}
