//! The JSON of the requests and answers the worker exchanges with the engine, read and
//! written by hand: a field of the wrong type or one the engine does not know is an error that
//! names it (a page and an engine of different builds would otherwise disagree silently).

use crate::explore::Exploring;
use crate::runner::{Place, Request, Response, RunLimits, WrittenFile};
use ds_core::explore::Names;
use serde_json::{json, Map, Value};
use std::collections::BTreeMap;

/// A request from its JSON text.
pub fn request(text: &str) -> Result<Request, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let fields = value.as_object().ok_or("a request is a JSON object")?;
    known(fields, &["source", "name", "args", "files", "limits", "explore"], "request")?;
    Ok(Request {
        source: string(fields.get("source"), "source")?.ok_or("the request has no `source`")?,
        name: string(fields.get("name"), "name")?.unwrap_or_else(|| "playground.ds".into()),
        args: strings(fields.get("args"))?,
        files: files(fields.get("files"))?,
        limits: limits(fields.get("limits"))?,
        explore: explore(fields.get("explore"))?,
    })
}

/// The Explore panel's fields: `start`, `next` and `goal` (needed), `h`, `view`, `symmetry`,
/// `max_states`.
fn explore(value: Option<&Value>) -> Result<Option<Exploring>, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(None) };
    let fields = value.as_object().ok_or("`explore` must be an object")?;
    known(fields, &["start", "next", "goal", "h", "view", "symmetry", "max_states"], "explore")?;
    let name = |key: &str| -> Result<Option<String>, String> {
        Ok(string(fields.get(key), key)?.map(|s| s.trim().to_string()).filter(|s| !s.is_empty()))
    };
    let needed = |key: &str| name(key)?.ok_or_else(|| format!("explore needs `{key}` (ds explore's --{key})"));
    let max_states = match fields.get("max_states") {
        None | Some(Value::Null) => ds_core::explore::MAX_STATES,
        Some(v) => v.as_u64().filter(|&n| n > 0).ok_or("`max_states` must be a whole number > 0")? as usize,
    };
    let names = Names {
        start: needed("start")?,
        next: needed("next")?,
        goal: needed("goal")?,
        h: name("h")?,
        view: name("view")?,
        symmetry: name("symmetry")?,
    };
    Ok(Some(Exploring { names, max_states }))
}

fn known(fields: &Map<String, Value>, names: &[&str], what: &str) -> Result<(), String> {
    match fields.keys().find(|k| !names.contains(&k.as_str())) {
        Some(k) => Err(format!("unknown field `{k}` in the {what}")),
        None => Ok(()),
    }
}

fn string(value: Option<&Value>, what: &str) -> Result<Option<String>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(_) => Err(format!("`{what}` must be a string")),
    }
}

fn strings(value: Option<&Value>) -> Result<Vec<String>, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(Vec::new()) };
    let items = value.as_array().ok_or("`args` must be an array of strings")?;
    items
        .iter()
        .map(|a| a.as_str().map(str::to_string).ok_or_else(|| "`args` must be an array of strings".into()))
        .collect()
}

fn files(value: Option<&Value>) -> Result<BTreeMap<String, String>, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(BTreeMap::new()) };
    let map = value.as_object().ok_or("`files` must map paths to texts")?;
    let text = |(k, v): (&String, &Value)| Some((k.clone(), v.as_str()?.to_string()));
    map.iter().map(|e| text(e).ok_or_else(|| format!("the file `{}` must be a text", e.0))).collect()
}

fn limits(value: Option<&Value>) -> Result<RunLimits, String> {
    let Some(value) = value.filter(|v| !v.is_null()) else { return Ok(RunLimits::default()) };
    let fields = value.as_object().ok_or("`limits` must be an object")?;
    known(fields, &["max_steps", "timeout_ms", "max_memory_bytes", "max_depth", "stack_bytes"], "limits")?;
    let number = |name: &str| -> Result<Option<u64>, String> {
        match fields.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_u64().map(Some).ok_or_else(|| format!("the limit `{name}` must be a whole number")),
        }
    };
    Ok(RunLimits {
        max_steps: number("max_steps")?,
        timeout_ms: number("timeout_ms")?,
        max_memory_bytes: number("max_memory_bytes")?.map(memory_limit).transpose()?,
        max_depth: number("max_depth")?.map(|d| usize::try_from(d).unwrap_or(usize::MAX)),
        stack_bytes: number("stack_bytes")?,
    })
}

/// The largest memory limit, 4095 MB: the engine is 32-bit WebAssembly, whose heap and byte
/// counts stop below 4 GB (a limit of 4096 MB would wrap to 0 bytes, issue 56).
pub const MAX_MEMORY_BYTES: u64 = 4095 << 20;

fn memory_limit(bytes: u64) -> Result<u64, String> {
    if bytes > MAX_MEMORY_BYTES {
        return Err(format!(
            "the memory limit can be at most {} MB: the engine is 32-bit WebAssembly, which addresses 4 GB",
            MAX_MEMORY_BYTES >> 20
        ));
    }
    Ok(bytes)
}

/// The JSON text of an answer.
pub fn response(r: &Response) -> String {
    let place = |p: &Place| {
        json!({"file": p.file, "line": p.line, "col": p.col, "end_line": p.end_line, "end_col": p.end_col,
               "severity": p.severity, "message": p.message, "rendered": p.rendered})
    };
    let file = |f: &WrittenFile| json!({"path": f.path, "text": f.text});
    json!({
        "status": r.status,
        "exit_code": r.exit_code,
        "diagnostics": r.diagnostics.iter().map(place).collect::<Vec<_>>(),
        "files_written": r.files_written.iter().map(file).collect::<Vec<_>>(),
        "ms": r.ms,
        "world": r.world,
        "explorer": r.explorer,
    })
    .to_string()
}
