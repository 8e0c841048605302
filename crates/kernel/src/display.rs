//! How a cell's last value is shown: always as text (what the REPL prints), and besides, a
//! graph state drawn (`draw`), a state space of `Search.explore` drawn (`space`), an SVG
//! picture the script drew as itself, the rows that `Search.compare` returns as an HTML
//! table, and a search's record (`Search.trace()`) as a page that steps through it (`replay`).

use super::draw::{escape, graph_svg};
use super::replay::replay_html;
use super::space::{space_svg, MAX_STATES};
use super::views::{space_views_svg, Shown};
use ds_core::builtins::{view_of, view_text};
use ds_core::search::space::Space;
use ds_core::value::host::downcast;
use ds_core::value::Value;
use ds_core::world::World;
use ds_repl::Backend;
use ds_syntax::Span;
use serde_json::{json, Map, Value as Json};

/// The text shown of a value, at most (a world of a million nodes prints for ever).
const MAX_TEXT: usize = 1 << 20;

/// The columns of compare's rows shown in the table, in its text table's order (`ms` shown
/// when the rows have it).
const COMPARE_COLUMNS: [&str; 9] =
    ["algorithm", "found", "length", "cost", "expanded", "generated", "duplicates", "max_frontier", "ms"];

/// The MIME bundle of a value `out` prints alone (or of `Search.compare`'s rows), when it can be
/// drawn: the picture or the table, and its text.
pub fn drawn(world: &World, value: &Value) -> Option<Json> {
    let text = |v: &Value| ds_core::value::display::to_text(v, world);
    let draw = || {
        if let Some(html) = compare_table(&text, value) {
            return Some(json!({ "text/html": html, "text/plain": bounded(text(value)) }));
        }
        svg_of(world, value).map(|svg| json!({ "image/svg+xml": svg, "text/plain": bounded(text(value)) }))
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(draw)).ok().flatten()
}

/// The bytes a MIME bundle holds (its texts), as counted against a cell's output cap.
pub fn size(bundle: &Json) -> usize {
    bundle.as_object().map_or(0, |m| m.values().map(|v| v.as_str().map_or(0, str::len)).sum())
}

/// The MIME bundle of a value; only its text if drawing it failed (a bug there must not end
/// the session).
pub fn shown(backend: &mut Backend, value: &Value) -> Json {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| bundle(backend, value)))
        .unwrap_or_else(|_| json!({ "text/plain": bounded(backend.value_text(value)) }))
}

/// The MIME bundle of a value.
fn bundle(backend: &mut Backend, value: &Value) -> Json {
    let mut data = Map::new();
    data.insert("text/plain".into(), json!(bounded(backend.value_text(value))));
    if let Some(svg) = space_with_views(backend, value).or_else(|| svg(backend, value)) {
        data.insert("image/svg+xml".into(), json!(svg));
    }
    let replay = || replay_html(value, |v| backend.value_text(v), |v| svg(backend, v));
    if let Some(html) = compare_table(&|v| backend.value_text(v), value).or_else(replay) {
        data.insert("text/html".into(), json!(html));
    }
    Json::Object(data)
}

fn bounded(mut text: String) -> String {
    if text.len() > MAX_TEXT {
        let mut cut = MAX_TEXT;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        let rest = text.len() - cut;
        text.truncate(cut);
        text.push_str(&format!("\n[ds kernel: {rest} more bytes not shown]\n"));
    }
    text
}

fn svg(backend: &Backend, value: &Value) -> Option<String> {
    svg_of(&backend.session().interp.world, value)
}

/// A state space with a view (`Opts["view"]`) drawn with each state's view; None for any other
/// value, or when a view fails (the space is then drawn without them).
fn space_with_views(backend: &mut Backend, value: &Value) -> Option<String> {
    let Value::Host(h) = value else { return None };
    let space = downcast::<Space>(h)?;
    space.view.as_ref()?;
    let it = &mut backend.session_mut().interp;
    let mut views = Vec::new();
    for id in 0..space.len().min(MAX_STATES) as u32 {
        let drawn = view_of(it, &space, id, Span::default()).ok()?;
        views.push(match svg_of(&it.world, &drawn) {
            Some(svg) => Shown::picture(svg),
            _ => Shown::Text(view_text(it, &drawn)?),
        });
    }
    Some(space_views_svg(&space, &views))
}

/// A graph state, a picture or a state space drawn as SVG (None for other values).
pub fn svg_of(world: &World, value: &Value) -> Option<String> {
    match value {
        Value::Graph(g) => graph_svg(world, &g.borrow()),
        Value::Host(h) if h.type_name() == "svg" => {
            let mut text = String::new();
            h.write(&mut text);
            Some(text)
        }
        Value::Host(h) => downcast::<Space>(h).map(|space| space_svg(&space)),
        _ => None,
    }
}

/// The rows of an array of maps that all have an `algorithm` and an `expanded` entry: compare's.
fn compare_rows(value: &Value) -> Option<Vec<Value>> {
    let Value::Array(rows) = value else { return None };
    let rows = rows.to_vec();
    let key = |k: &str| Value::str(k);
    let is_row = |r: &Value| matches!(r, Value::Map(m) if m.borrow().get(&key("algorithm")).is_some() && m.borrow().get(&key("expanded")).is_some());
    (!rows.is_empty() && rows.iter().all(is_row)).then_some(rows)
}

/// Compare's rows as an HTML table: every column of its text table, and whether each search
/// found a goal.
fn compare_table(text: &dyn Fn(&Value) -> String, value: &Value) -> Option<String> {
    let rows = compare_rows(value)?;
    let entry = |row: &Value, k: &str| match row {
        Value::Map(m) => m.borrow().get(&Value::str(k)).cloned().unwrap_or_default(),
        _ => Value::None,
    };
    let has_ms = rows.iter().any(|r| matches!(entry(r, "ms"), Value::Num(_)));
    let columns: Vec<&str> = COMPARE_COLUMNS.iter().copied().filter(|c| has_ms || *c != "ms").collect();
    let mut html = String::from("<table>\n<thead><tr>");
    for c in &columns {
        html.push_str(&format!("<th>{}</th>", c.replace('_', " ")));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in &rows {
        html.push_str("<tr>");
        for c in &columns {
            let cell = match (*c, entry(row, c)) {
                // No path: why not, as the text table says it.
                ("length", Value::None) => match entry(row, "reason") {
                    Value::None => String::new(),
                    reason => match text(&reason) {
                        r if r == "exhausted" || r == "limit" => "none".to_string(),
                        r => r,
                    },
                },
                ("ms", Value::Num(ms)) => format!("{ms:.1}"),
                (_, Value::None) => String::new(),
                (_, v) => text(&v),
            };
            html.push_str(&format!("<td>{}</td>", escape(&cell)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");
    Some(html)
}
