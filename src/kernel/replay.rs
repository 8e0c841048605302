//! A recorded search (`Search.trace()`, decision 23) shown step by step: a cell whose value is
//! the record becomes a self-contained HTML page (inline script, no network) with a slider and
//! step buttons over its events, one frame each: the event, the state's number, its parent,
//! g, h, f, depth, the frontier's size after it, and how many states were expanded so far.

use crate::value::Value;
use serde_json::{json, Value as Json};
use std::sync::atomic::{AtomicU64, Ordering};

/// The keys of an event map, in the order the frame shows them.
const KEYS: [&str; 8] = ["event", "state", "parent", "g", "h", "f", "depth", "frontier"];

/// Each replay's elements get their own ids, so that two in one notebook do not mix.
static NEXT: AtomicU64 = AtomicU64::new(0);

/// An array of maps that all have `event` and `frontier`: a search's record.
pub fn replay_html(value: &Value, text: impl Fn(&Value) -> String) -> Option<String> {
    let Value::Array(events) = value else { return None };
    let events = events.to_vec();
    let key = |m: &Value, k: &str| match m {
        Value::Map(m) => m.borrow().get(&Value::str(k)).cloned(),
        _ => None,
    };
    if events.is_empty() || !events.iter().all(|e| key(e, "event").is_some() && key(e, "frontier").is_some()) {
        return None;
    }
    let mut expanded = 0;
    let frames: Vec<Json> = events
        .iter()
        .map(|e| {
            let fields: Vec<Json> =
                KEYS.iter().map(|k| json!(key(e, k).map(|v| text(&v)).unwrap_or_default())).collect();
            if fields[0] == "expand" {
                expanded += 1;
            }
            json!({ "fields": fields, "expanded": expanded })
        })
        .collect();
    Some(page(&frames))
}

/// The page: controls, the frame's table, and the script that steps through the frames.
fn page(frames: &[Json]) -> String {
    let id = format!("ds-replay-{}", NEXT.fetch_add(1, Ordering::Relaxed));
    // `</` would end the script element early.
    let data = Json::Array(frames.to_vec()).to_string().replace("</", "<\\/");
    let keys = json!(KEYS).to_string();
    let last = frames.len() - 1;
    format!(
        r#"<div id="{id}" class="ds-replay" style="font-family: sans-serif">
<button data-step="-1">&#9664; back</button> <button data-step="1">step &#9654;</button>
<input type="range" min="0" max="{last}" value="0" style="width: 50%; vertical-align: middle">
<span class="ds-replay-at"></span>
<table class="ds-replay-frame" style="font-family: monospace"></table>
</div>
<script>
(function () {{
  var frames = {data}, keys = {keys};
  var root = document.getElementById("{id}");
  var slider = root.querySelector("input"), at = root.querySelector(".ds-replay-at");
  var table = root.querySelector(".ds-replay-frame");
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
  }}
  slider.addEventListener("input", function () {{ show(+slider.value); }});
  root.querySelectorAll("button").forEach(function (b) {{
    b.addEventListener("click", function () {{ show(+slider.value + +b.dataset.step); }});
  }});
  show(0);
}})();
</script>
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;
    use std::cell::RefCell;
    use std::rc::Rc;

    fn event(kind: &str, frontier: f64) -> Value {
        let mut m = Map::default();
        m.insert(Value::str("event"), Value::str(kind));
        m.insert(Value::str("frontier"), Value::Num(frontier));
        Value::Map(Rc::new(RefCell::new(m)))
    }

    #[test]
    fn a_record_becomes_frames_counting_expansions() {
        let record = Value::array(vec![event("push", 1.0), event("expand", 0.0), event("goal", 1.0)]);
        let html = replay_html(&record, |v| match v {
            Value::Str(s) => s.to_string(),
            Value::Num(n) => n.to_string(),
            _ => String::new(),
        })
        .unwrap();
        assert!(html.contains(r#""fields":["expand","","","","","","","0"]"#), "{html}");
        assert!(html.contains(r#"max="2""#) && html.contains(r#"{"expanded":1,"fields":["goal""#), "{html}");
        assert!(replay_html(&Value::array(vec![Value::Num(1.0)]), |_| String::new()).is_none());
    }
}
