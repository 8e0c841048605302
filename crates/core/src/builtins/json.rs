//! `A.json()` and `M.json()`: arrays and maps of data as JSON text, for another program to
//! read (a search's record from `Search.trace()`, a table of results). Graphs have their own
//! `G.json()`, the dump of `out G`.

use super::{method, Arity, Builtin, Receivers};
use crate::eval::{fail, Interp, R};
use crate::search::export::{key_text, state_fields};
use crate::value::{display, Logic, Value};
use crate::world::World;
use ds_syntax::Span;
use serde_json::{json, Value as Json};

pub const BUILTINS: &[Builtin] = &[method("json", Arity::exactly(0), json)
    .doc("A.json()", "array or map A as JSON text: True/False/Undef as true/false/null, a graph as its name and facts")
    .on(Receivers::ARRAY.or(Receivers::MAP))];

/// How deep arrays and maps may nest (deeper: one holding itself).
const MAX_DEPTH: usize = 64;

fn json(it: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let Some(v) = obj else { return fail(span, "`json` needs an array or a map") };
    let mut items = 0u64;
    let data = match data_json(&it.world, &v, 0, &mut items) {
        Ok(data) => data,
        Err(why) => return fail(span, format!("`json` cannot write {}: {why}", v.described())),
    };
    it.work(items / 16, span)?;
    let text = data.to_string();
    if text.len() > crate::value::MAX_TEXT {
        return fail(span, format!("the JSON would be longer than {} MB", crate::value::MAX_TEXT / 1_000_000));
    }
    Ok(Value::str(&text))
}

/// `v` as JSON, counting the values written in `items`.
fn data_json(world: &World, v: &Value, depth: usize, items: &mut u64) -> Result<Json, String> {
    *items += 1;
    if depth > MAX_DEPTH {
        return Err(format!("it nests deeper than {MAX_DEPTH} levels (an array or map holding itself?)"));
    }
    let nested = |x: &Value, items: &mut u64| data_json(world, x, depth + 1, items);
    Ok(match v {
        Value::None => Json::Null,
        // whole numbers as integers (3, not 3.0); JSON has no infinity: "inf", as ds prints it
        Value::Num(n) if n.fract() == 0.0 && n.abs() < 9e15 => json!(*n as i64),
        Value::Num(n) if n.is_finite() => json!(n),
        Value::Num(_) => json!(display::to_text(v, world)),
        Value::Logic(l) if *l == Logic::TRUE => Json::Bool(true),
        Value::Logic(l) if *l == Logic::FALSE => Json::Bool(false),
        Value::Logic(l) if *l == Logic::UNDEF => Json::Null,
        Value::Str(s) => json!(s.as_str()),
        Value::Array(a) => {
            let a = a.borrow();
            Json::Array(a.iter().map(|x| nested(x, items)).collect::<Result<_, _>>()?)
        }
        Value::Map(m) => {
            let m = m.borrow();
            let entries = m.iter().map(|(k, x)| Ok((key_text(world, k), nested(x, items)?)));
            Json::Object(entries.collect::<Result<_, String>>()?)
        }
        Value::Graph(_) => Json::Object(state_fields(world, v)),
        Value::Lambda(_) | Value::Host(_) | Value::Heap(_) => {
            return Err(format!("{} has no JSON form", v.described()));
        }
        // nodes, relations, fuzzy values: as ds prints them
        other => json!(display::to_text(other, world)),
    })
}
