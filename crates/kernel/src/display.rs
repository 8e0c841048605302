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

/// The columns of compare's rows shown in the table, in its text table's order.
const COMPARE_COLUMNS: [&str; 8] =
    ["algorithm", "found", "length", "cost", "expanded", "generated", "duplicates", "max_frontier"];

/// The MIME bundle of a value `out` prints alone, when it can be drawn: the picture and its text.
pub fn drawn(world: &World, value: &Value) -> Option<Json> {
    let draw = || svg_of(world, value).map(|svg| (svg, bounded(ds_core::value::display::to_text(value, world))));
    let (svg, text) = std::panic::catch_unwind(std::panic::AssertUnwindSafe(draw)).ok().flatten()?;
    Some(json!({ "image/svg+xml": svg, "text/plain": text }))
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
    if let Some(html) = compare_table(backend, value).or_else(replay) {
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

/// An array of maps that all have an `algorithm` and an `expanded` entry: compare's rows.
fn compare_table(backend: &Backend, value: &Value) -> Option<String> {
    let Value::Array(rows) = value else { return None };
    let rows = rows.to_vec();
    let key = |k: &str| Value::str(k);
    let is_row = |r: &Value| matches!(r, Value::Map(m) if m.borrow().get(&key("algorithm")).is_some() && m.borrow().get(&key("expanded")).is_some());
    if rows.is_empty() || !rows.iter().all(is_row) {
        return None;
    }
    let mut html = String::from("<table>\n<thead><tr>");
    for c in COMPARE_COLUMNS {
        html.push_str(&format!("<th>{c}</th>"));
    }
    html.push_str("</tr></thead>\n<tbody>\n");
    for row in &rows {
        let Value::Map(m) = row else { continue };
        html.push_str("<tr>");
        for c in COMPARE_COLUMNS {
            let cell = match m.borrow().get(&key(c)) {
                None | Some(Value::None) => String::new(),
                Some(v) => backend.value_text(v),
            };
            html.push_str(&format!("<td>{}</td>", escape(&cell)));
        }
        html.push_str("</tr>\n");
    }
    html.push_str("</tbody>\n</table>\n");
    Some(html)
}
