//! A recorded search (`Search.trace()`, decision 23) shown step by step: a cell whose value is
//! the record becomes a self-contained HTML page (inline script, no network) with a slider and
//! step buttons over its events, one frame each: the event, the state's number, its parent,
//! g, h, f, depth, the frontier's size after it, and how many states were expanded so far.
//! Under it the open list after the event, in the order the algorithm will take its states
//! out (each event's `rank`, from `search::open_order`, the rule the explorer's replay uses
//! too; in the order put in for a record without ranks), and the closed list in the order
//! taken out, worked out by the page from the events before it.
//! When the events carry their states' views (`Search.trace(View)`), each frame also shows the
//! state and its parent as drawn, and the lists their states so: each view is written into the
//! page once, by state number.

use super::draw::escape;
use ds_core::search::open_order::tests_when_generated;
use ds_core::search::Algorithm;
use ds_core::value::Value;
use serde_json::{json, Value as Json};
use std::sync::atomic::{AtomicU64, Ordering};

/// The keys of an event map, in the order the frame shows them.
const KEYS: [&str; 8] = ["event", "state", "parent", "g", "h", "f", "depth", "frontier"];

/// Each replay's elements get their own ids, so that two in one notebook do not mix.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// An array of maps that all have `event` and `frontier`: a search's record. `text` writes a
/// value as `out` does; `picture` draws a view as SVG when it can (a picture or a graph).
pub fn replay_html(
    value: &Value,
    text: impl Fn(&Value) -> String,
    picture: impl Fn(&Value) -> Option<String>,
) -> Option<String> {
    let Value::Array(events) = value else { return None };
    let events = events.to_vec();
    let key = |m: &Value, k: &str| match m {
        Value::Map(m) => m.borrow().get(&Value::str(k)).cloned(),
        _ => None,
    };
    if events.is_empty() || !events.iter().all(|e| key(e, "event").is_some() && key(e, "frontier").is_some()) {
        return None;
    }
    let algorithm = match key(&events[0], "algorithm") {
        Some(Value::Str(name)) => Some(name.to_string()),
        _ => None,
    };
    let mut expanded = 0;
    let mut views = serde_json::Map::new();
    let frames: Vec<Json> = events
        .iter()
        .map(|e| {
            let fields: Vec<Json> =
                KEYS.iter().map(|k| json!(key(e, k).map(|v| text(&v)).unwrap_or_default())).collect();
            if fields[0] == "expand" {
                expanded += 1;
            }
            if let (Some(view), Some(state)) = (key(e, "view"), fields[1].as_str()) {
                if !views.contains_key(state) {
                    views.insert(state.to_string(), json!(view_html(&view, &text, &picture)));
                }
            }
            let rank = match key(e, "rank") {
                Some(Value::Num(r)) => json!(r),
                _ => Json::Null,
            };
            json!({ "fields": fields, "expanded": expanded, "rank": rank })
        })
        .collect();
    Some(page(&frames, &Json::Object(views), &order_json(algorithm.as_deref())))
}

/// What the page needs to know of the algorithm: what to call the open list's order, and
/// whether its goal event takes the goal out of the frontier (it does unless the algorithm
/// tests states when it generates them).
fn order_json(algorithm: Option<&str>) -> Json {
    match algorithm {
        Some(name) => json!({
            "open": format!("open, in the order {name} takes them out"),
            "goal_leaves": !tests_when_generated(Algorithm::parse(name)),
        }),
        None => json!({ "open": "open, in the order put in", "goal_leaves": false }),
    }
}

/// A view as HTML: a picture inline, a text in a fixed-width font with its lines kept.
fn view_html(view: &Value, text: impl Fn(&Value) -> String, picture: impl Fn(&Value) -> Option<String>) -> String {
    match picture(view) {
        Some(svg) => svg,
        None => format!("<pre style=\"margin: 0\">{}</pre>", escape(&text(view))),
    }
}

/// JSON to put in an inline script: every `<` (found only in strings) written `\u003c`, so
/// that neither `</script>` nor `<!--` (which, followed by `<script`, leaves the element open
/// to the end of the page) can appear in it.
fn in_script(v: &Json) -> String {
    v.to_string().replace('<', "\\u003c")
}

/// The page: controls, the frame's table and views, and the script that steps through the
/// frames.
fn page(frames: &[Json], views: &Json, order: &Json) -> String {
    let id = format!("ds-replay-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    let data = in_script(&Json::Array(frames.to_vec()));
    let views = in_script(views);
    let keys = json!(KEYS).to_string();
    let order = in_script(order);
    let last = frames.len() - 1;
    format!(
        r##"<div id="{id}" class="ds-replay" style="font-family: sans-serif">
<button data-step="-1">&#9664; back</button> <button data-step="1">step &#9654;</button>
<input type="range" min="0" max="{last}" value="0" style="width: 50%; vertical-align: middle">
<span class="ds-replay-at"></span>
<div style="display: flex; gap: 24px; align-items: flex-start">
<table class="ds-replay-frame" style="font-family: monospace"></table>
<figure class="ds-replay-state" style="margin: 0"><figcaption></figcaption><div></div></figure>
<figure class="ds-replay-parent" style="margin: 0"><figcaption></figcaption><div></div></figure>
</div>
<div class="ds-replay-open"><b></b><div></div></div>
<div class="ds-replay-closed"><b></b><div></div></div>
<style>
#{id} .ds-replay-open > div, #{id} .ds-replay-closed > div {{ display: flex; flex-wrap: wrap; gap: 6px; margin: 4px 0 10px; }}
#{id} .ds-mini {{ font: 12px monospace; text-align: center; }}
#{id} .ds-mini svg {{ display: block; width: 64px; height: auto; }}
#{id} .ds-mini pre {{ margin: 0; font-size: 11px; }}
</style>
</div>
<script>
(function () {{
  var frames = {data}, keys = {keys}, views = {views}, order = {order};
  var root = document.getElementById("{id}");
  var slider = root.querySelector("input"), at = root.querySelector(".ds-replay-at");
  var table = root.querySelector(".ds-replay-frame");
  function draw(place, title, state) {{
    var figure = root.querySelector(place), view = views[state];
    figure.style.display = view === undefined ? "none" : "";
    figure.querySelector("figcaption").textContent = title + " " + state;
    figure.querySelector("div").innerHTML = view === undefined ? "" : view;
  }}
  // The open list (each state's latest entry, by rank: the order the algorithm takes them
  // out; by arrival without ranks) and the closed list (in the order taken out) after event
  // i, worked out from the events up to it.
  function lists(i) {{
    var open = [], closed = [];
    function drop(list, s) {{ var k = list.findIndex(function (e) {{ return e.s === s; }}); if (k >= 0) list.splice(k, 1); }}
    function close(s) {{ drop(open, s); drop(closed, s); closed.push({{ s: s }}); }}
    for (var j = 0; j <= i; j++) {{
      var kind = frames[j].fields[0], s = frames[j].fields[1];
      if (kind === "push" || kind === "reopen") {{ drop(open, s); drop(closed, s); open.push({{ s: s, rank: frames[j].rank === null ? j : frames[j].rank }}); }}
      else if (kind === "expand" || (kind === "goal" && order.goal_leaves)) close(s);
      else if (kind === "prune") drop(open, s);
    }}
    open.sort(function (a, b) {{ return a.rank - b.rank; }});
    var states = function (list) {{ return list.map(function (e) {{ return e.s; }}); }};
    return [states(open), states(closed)];
  }}
  // A list of states, each its number over its view (the first MAX).
  var MAX = 40;
  function list(place, title, states) {{
    var box = root.querySelector(place);
    box.querySelector("b").textContent = title + " (" + states.length + ")" + (states.length > MAX ? ", the first " + MAX : "");
    var row = box.querySelector("div");
    row.innerHTML = "";
    states.slice(0, MAX).forEach(function (s) {{
      var item = document.createElement("div");
      item.className = "ds-mini";
      item.dataset.state = s;
      item.innerHTML = views[s] === undefined ? "" : views[s];
      item.insertBefore(document.createTextNode("#" + s), item.firstChild);
      row.appendChild(item);
    }});
  }}
  function show(i) {{
    i = Math.max(0, Math.min(frames.length - 1, i));
    slider.value = i;
    var f = frames[i];
    at.textContent = "event " + (i + 1) + " of " + frames.length + ", " + f.expanded + " expanded";
    table.innerHTML = "";
    keys.forEach(function (k, j) {{
      var row = table.insertRow(), name = row.insertCell(), value = row.insertCell();
      name.textContent = k === "frontier" ? "open (frontier)" : k;
      value.textContent = f.fields[j];
    }});
    draw(".ds-replay-state", "state", f.fields[1]);
    draw(".ds-replay-parent", "from state", f.fields[2]);
    var both = lists(i);
    list(".ds-replay-open", order.open, both[0]);
    list(".ds-replay-closed", "closed, in the order taken out", both[1]);
  }}
  slider.addEventListener("input", function () {{ show(+slider.value); }});
  root.querySelectorAll("button").forEach(function (b) {{
    b.addEventListener("click", function () {{ show(+slider.value + +b.dataset.step); }});
  }});
  show(0);
}})();
</script>
"##
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use ds_core::value::Map;
    use std::cell::RefCell;
    use std::rc::Rc;

    fn event(kind: &str, frontier: f64) -> Value {
        event_of(kind, frontier, None)
    }

    fn event_of(kind: &str, frontier: f64, state_and_view: Option<(f64, &str)>) -> Value {
        let mut m = Map::default();
        m.insert(Value::str("event"), Value::str(kind));
        m.insert(Value::str("frontier"), Value::Num(frontier));
        if let Some((state, view)) = state_and_view {
            m.insert(Value::str("state"), Value::Num(state));
            m.insert(Value::str("view"), Value::str(view));
        }
        Value::Map(Rc::new(RefCell::new(m)))
    }

    fn text(v: &Value) -> String {
        match v {
            Value::Str(s) => s.to_string(),
            Value::Num(n) => n.to_string(),
            _ => String::new(),
        }
    }

    #[test]
    fn a_record_becomes_frames_counting_expansions() {
        let record = Value::array(vec![event("push", 1.0), event("expand", 0.0), event("goal", 1.0)]);
        let html = replay_html(&record, text, |_| None).unwrap();
        assert!(html.contains(r#""fields":["expand","","","","","","","0"]"#), "{html}");
        assert!(html.contains(r#"max="2""#) && html.contains(r#"{"expanded":1,"fields":["goal""#), "{html}");
        assert!(html.contains("views = {}, order"), "no views without them: {html}");
        assert!(replay_html(&Value::array(vec![Value::Num(1.0)]), |_| String::new(), |_| None).is_none());
    }

    #[test]
    fn each_state_s_view_is_written_once_a_picture_inline_a_text_kept() {
        let record = Value::array(vec![
            event_of("push", 1.0, Some((0.0, "1 2\n<3"))),
            event_of("expand", 0.0, Some((0.0, "1 2\n<3"))),
            event_of("push", 1.0, Some((1.0, "picture"))),
        ]);
        let picture = |v: &Value| (text(v) == "picture").then(|| "<svg></svg>".to_string());
        let html = replay_html(&record, text, picture).unwrap();
        let views = html.split("views = ").nth(1).and_then(|r| r.split(", order = ").next()).unwrap();
        // (`<` is written `\u003c` so that it cannot end the script element)
        let u = "\\u003c";
        assert_eq!(views, format!(r#"{{"0":"{u}pre style=\"margin: 0\">1 2\n&lt;3{u}/pre>","1":"{u}svg>{u}/svg>"}}"#));
    }

    #[test]
    fn no_comment_or_script_tag_can_open_in_the_inline_script() {
        let record = Value::array(vec![event_of("push", 1.0, Some((0.0, "<!--<script>x</script>")))]);
        let html = replay_html(&record, text, |v| Some(text(v))).unwrap();
        let script = html.split("<script>\n").nth(1).expect("the page's script");
        let script = &script[..script.find("</script>").expect("its end")];
        assert!(!script.contains("<!--") && !script.contains("<script") && !script.contains("</"), "{script}");
        assert!(script.contains("\\u003c!--\\u003cscript>x\\u003c/script>"), "{script}");
    }

    #[test]
    fn the_page_knows_the_algorithm_s_order_and_whether_its_goal_leaves_the_frontier() {
        let named = |algorithm: &str| {
            let Value::Map(m) = event_of("push", 1.0, None) else { unreachable!() };
            m.borrow_mut().insert(Value::str("algorithm"), Value::str(algorithm));
            m.borrow_mut().insert(Value::str("rank"), Value::Num(0.0));
            replay_html(&Value::array(vec![Value::Map(m)]), text, |_| None).unwrap()
        };
        let astar = named("astar");
        assert!(astar.contains(r#""open":"open, in the order astar takes them out""#), "{astar}");
        assert!(astar.contains(r#""goal_leaves":true"#) && astar.contains(r#""rank":0.0"#), "{astar}");
        assert!(named("bfs").contains(r#""goal_leaves":false"#), "bfs tests a state when it makes it");
        let unnamed = replay_html(&Value::array(vec![event("push", 1.0)]), text, |_| None).unwrap();
        assert!(unnamed.contains(r#""open":"open, in the order put in""#) && unnamed.contains(r#""rank":null"#));
    }
}
