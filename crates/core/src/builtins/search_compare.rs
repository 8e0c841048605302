//! `Search.compare(Start, Next, Goal, H, Algorithms [, Opts])`: runs each algorithm on the same
//! problem, prints one aligned row per algorithm and returns the rows as maps.

use super::search::{callable, run, spec, Opts, COMPARE_OPTIONS};
use crate::compile::ir::FnCode;
use crate::eval::{fail, Interp, R};
use crate::search::{self, Algorithm};
use crate::value::number::format_number;
use crate::value::{Map, Value};
use ds_syntax::Span;
use std::cell::RefCell;
use std::rc::Rc;

const FNAME: &str = "Search.compare";

/// The columns of the table: title, and the entry of the row map it shows.
const COLUMNS: [(&str, &str); 8] = [
    ("algorithm", "algorithm"),
    ("length", "length"),
    ("cost", "cost"),
    ("expanded", "expanded"),
    ("generated", "generated"),
    ("duplicates", "duplicates"),
    ("max frontier", "max_frontier"),
    ("ms", "ms"),
];

pub fn compare(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let args = &super::search_problem::compare_positional(it, args, span)?;
    let shared_h = match &args[3] {
        Value::Lambda(_) => Some(callable(&args[3], FNAME, 4, "H", span)?),
        _ => None,
    };
    // the options of every algorithm, as any of them may be compared
    let mut own: Vec<&str> = COMPARE_OPTIONS.to_vec();
    own.extend(search::TABLE.iter().flat_map(|r| r.options));
    let opts = Opts::read(it, args.get(5), FNAME, &own, span)?;
    if opts.threads.is_some_and(|n| n > 1) {
        return fail(span, format!("`{FNAME}` runs each search on one thread: `threads` must be 1"));
    }
    let entries = algorithms(&args[4], shared_h, span)?;
    let mut rows = Vec::new();
    for (label, algorithm, h) in entries {
        let spec = spec(it, algorithm, &args[..3], h, &opts, FNAME, span)?;
        let (_, stats) = run(it, spec, &opts.config, crate::search::workers::On::One, false, None, span)?;
        let row = row(&label, &stats);
        let interrupted = get(&stats, "reason").is_some_and(|r| matches!(r, Value::Str(s) if s == "interrupted"));
        rows.push(row);
        if interrupted {
            break; // Ctrl-C stops the comparison, not just one search
        }
    }
    let text = table(it, &rows, opts.time);
    let rows = Value::array(rows);
    // A host that shows values itself (the notebook) shows the rows as its own table, instead
    // of the text one.
    if let Some(show) = it.show.as_mut() {
        if show(&it.world, &rows) {
            return Ok(rows);
        }
    }
    it.write_out(&text, span)?;
    Ok(rows)
}

/// A row to run: its label, the algorithm and its heuristic.
type Entry = (String, Algorithm, Option<Rc<FnCode>>);

/// The entries of the algorithm list: a name, or `[name, H]`.
fn algorithms(v: &Value, shared_h: Option<Rc<FnCode>>, span: Span) -> R<Vec<Entry>> {
    let Value::Array(items) = v else {
        return fail(
            span,
            format!("argument 5 of `{FNAME}` must be an array of algorithm names, not {}", v.described()),
        );
    };
    let mut out = Vec::new();
    for item in items.borrow().iter() {
        let (name, h) = match item {
            Value::Str(s) => (s.to_string(), None),
            // `["dfs"]`: an entry [name, H] without its H (issue 41)
            Value::Array(one) if one.borrow().len() == 1 => {
                let Value::Str(s) = &one.borrow()[0] else {
                    return fail(span, format!("`{FNAME}`: an entry [Algorithm] must be the algorithm's name"));
                };
                (s.to_string(), None)
            }
            Value::Array(pair) if pair.borrow().len() == 2 => {
                let pair = pair.borrow();
                let Value::Str(s) = &pair[0] else {
                    return fail(
                        span,
                        format!("`{FNAME}`: an entry [Algorithm, H] must start with the algorithm's name"),
                    );
                };
                (s.to_string(), Some(callable(&pair[1], FNAME, 5, "H of an entry", span)?))
            }
            other => {
                let what = match other {
                    Value::Array(a) => format!("an array of {} items", a.borrow().len()),
                    _ => other.described().to_string(),
                };
                return fail(span, format!("`{FNAME}`: an algorithm is a name, [name] or [name, H], not {what}"));
            }
        };
        let Some(algorithm) = Algorithm::parse(&name) else {
            let names = Algorithm::names();
            return fail(
                span,
                format!("`{FNAME}`: unknown algorithm `{name}`; the algorithms are {}", names.join(", ")),
            );
        };
        let label = match &h {
            Some(code) => format!("{name} {}", code.name),
            None => name.clone(),
        };
        let h = if algorithm.informed() { h.or_else(|| shared_h.clone()) } else { None };
        if algorithm.informed() && h.is_none() {
            return fail(span, format!("`{FNAME}`: `{name}` needs a heuristic: give H, or the entry [\"{name}\", H]"));
        }
        out.push((label, algorithm, h));
    }
    Ok(out)
}

fn get(m: &Value, k: &str) -> Option<Value> {
    match m {
        Value::Map(m) => m.borrow().get(&Value::str(k)).cloned(),
        _ => None,
    }
}

/// A row of the comparison, from a search's statistics.
fn row(label: &str, stats: &Value) -> Value {
    let mut m = Map::default();
    m.insert(Value::str("algorithm"), Value::str(label));
    let length = match get(stats, "actions") {
        Some(Value::Array(a)) if get(stats, "found").is_some_and(|f| f.condition().is_true()) => {
            Value::Num(a.borrow().len() as f64)
        }
        _ => Value::None,
    };
    m.insert(Value::str("length"), length);
    for k in ["found", "reason", "cost", "expanded", "generated", "duplicates", "max_frontier", "depth", "states", "ms"]
    {
        m.insert(Value::str(k), get(stats, k).unwrap_or_default());
    }
    Value::Map(Rc::new(RefCell::new(m)))
}

/// The rows as an aligned text table (the ms column only with `time`).
fn table(it: &Interp, rows: &[Value], time: bool) -> String {
    let columns: Vec<(&str, &str)> = COLUMNS.iter().copied().filter(|c| time || c.1 != "ms").collect();
    let cell = |row: &Value, key: &str| -> String {
        let v = get(row, key).unwrap_or_default();
        match (key, &v) {
            ("length", Value::None) => match get(row, "reason") {
                Some(Value::Str(r)) if r == "exhausted" || r == "limit" => "none".to_string(),
                Some(r) => it.text(&r),
                None => "-".to_string(),
            },
            ("ms", Value::Num(ms)) => format!("{ms:.1}"),
            (_, Value::Num(n)) => format_number(*n),
            (_, Value::Logic(l)) if l.is_undef() => "-".to_string(),
            _ => it.text(&v),
        }
    };
    let mut grid: Vec<Vec<String>> = vec![columns.iter().map(|c| c.0.to_string()).collect()];
    grid.extend(rows.iter().map(|r| columns.iter().map(|c| cell(r, c.1)).collect()));
    let widths: Vec<usize> =
        (0..columns.len()).map(|i| grid.iter().map(|r| r[i].chars().count()).max().unwrap_or(0)).collect();
    let mut out = String::new();
    for line in &grid {
        let mut text = String::new();
        for (i, c) in line.iter().enumerate() {
            let pad = widths[i] - c.chars().count();
            if i == 0 {
                text.push_str(c);
                text.push_str(&" ".repeat(pad));
            } else {
                text.push_str("  ");
                text.push_str(&" ".repeat(pad));
                text.push_str(c);
            }
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    out
}
