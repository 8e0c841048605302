//! The ds playground's engine: the core interpreter (the `ds` library without its native
//! hosts) as a WebAssembly module. The page's worker (web/page/src/worker.js) calls `run` with
//! a request in JSON and a callback that receives the output as it is written; docs/playground.md
//! describes the page. The notebook's kernel in the browser (web/lite/, `cargo xtask lite`)
//! calls `cell`, `cell_complete`, `cell_inspect` and `cell_is_complete` on a session that lasts
//! (`notebook`).

pub mod explore;
pub mod notebook;
pub mod runner;
mod status;
mod wire;

use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

/// The module's stack in bytes (web/build.rs links it): the interpreter keeps to it, so that
/// deep recursion is a script error rather than a trap.
pub const STACK_BYTES: usize = 8 << 20;

/// Every heap allocation is counted, so that the memory limit stops a script with an error
/// before the browser refuses the tab more memory.
#[cfg(target_arch = "wasm32")]
#[global_allocator]
static HEAP: ds_base::guard::memory::Counting = ds_base::guard::memory::Counting;

/// What the last panic said: a panic ends the module's run with a trap, and the worker then
/// asks for this to show it (and starts a fresh module, whose state is whole).
static PANIC: std::sync::Mutex<String> = std::sync::Mutex::new(String::new());

#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = PANIC.lock() {
            *last = info.to_string();
        }
    }));
    // The stack begins at its top here, before any script: the floor the interpreter keeps
    // above is measured from this frame.
    ds_base::guard::stack::mark(STACK_BYTES);
    TOP.store(ds_base::guard::stack::here(), std::sync::atomic::Ordering::Relaxed);
}

/// Where the stack began (the frame of `start`).
static TOP: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// How much of the module's stack is in use. Asked after a trap, when the frames the trap cut
/// short never gave their stack back: how deep the run was when the browser's own stack ran
/// out (the page then gives later runs a stack budget below it, `limits.stack_bytes`).
#[wasm_bindgen]
pub fn stack_used() -> usize {
    TOP.load(std::sync::atomic::Ordering::Relaxed).saturating_sub(ds_base::guard::stack::here())
}

/// Runs one script (and, when the request says `explore`, opens its explorer). `request` is
/// the JSON of `runner::Request`; `on_output(stream, text)` gets the output as it comes ("out",
/// "err", or "shown": a graph to draw); the answer is the JSON of `runner::Response`.
#[wasm_bindgen]
pub fn run(request: &str, on_output: js_sys::Function) -> String {
    let sink: runner::Sink = Rc::new(RefCell::new(move |stream: runner::Stream, text: &str| {
        let name = match stream {
            runner::Stream::Out => "out",
            runner::Stream::Err => "err",
            runner::Stream::Shown => "shown",
            runner::Stream::Status => "status",
        };
        // A callback that throws must not stop the script: the output is only lost.
        let _ = on_output.call2(&JsValue::NULL, &JsValue::from_str(name), &JsValue::from_str(text));
    }));
    runner::run_json(request, sink)
}

/// Answers a request of the explorer's page (the path after `/api/`, with its query) from
/// the explorer the last explore request opened: `{"status", "body"}` in JSON.
#[wasm_bindgen]
pub fn explorer_api(path: &str) -> String {
    explore::api(path).to_string()
}

thread_local! {
    /// The notebook's session: made by the first cell, kept until the worker ends (a restart
    /// of the kernel is a new worker).
    static NOTEBOOK: RefCell<notebook::Notebook> = RefCell::new(notebook::Notebook::new());
}

/// Runs a notebook cell: `request` is `{"code", "count", "silent", "max_memory_bytes",
/// "stack_bytes"}` in JSON; `on_output(stream,
/// text)` gets what the cell prints as it prints it ("out", "err", "shown": the JSON content
/// of a `display_data`, or "status": a search's line, `{"msg_type", "content"}`). The answer,
/// in JSON: `{"reply": the execute_reply's content, "result": the MIME bundle of the value
/// shown, or null, "cells": the text of the cells run so far without error (for completion)}`.
#[wasm_bindgen]
pub fn cell(request: &str, on_output: js_sys::Function) -> String {
    let request: serde_json::Value = serde_json::from_str(request).unwrap_or_default();
    let code = request["code"].as_str().unwrap_or("");
    let count = request["count"].as_u64().unwrap_or(0) as u32;
    let silent = request["silent"].as_bool().unwrap_or(false);
    let limit = request["max_memory_bytes"].as_u64().map(|b| b as usize);
    ds_base::guard::memory::set_limit(limit, ds_base::guard::memory::Source::Host);
    // Once the browser's own stack ran out, cells get a stack budget below that depth (the
    // page's measure, as the playground's): deep recursion is then the interpreter's error.
    let _budget = runner::StackBudget::narrow(request["stack_bytes"].as_u64());
    let sink = move |stream: runner::Stream, text: &str| {
        let name = match stream {
            runner::Stream::Out => "out",
            runner::Stream::Err => "err",
            runner::Stream::Shown => "shown",
            runner::Stream::Status => "status",
        };
        let _ = on_output.call2(&JsValue::NULL, &JsValue::from_str(name), &JsValue::from_str(text));
    };
    let executed = NOTEBOOK.with(|nb| nb.borrow_mut().execute(code, count, silent, Box::new(sink)));
    let cells = NOTEBOOK.with(|nb| nb.borrow().cells().to_string());
    serde_json::json!({ "reply": executed.reply, "result": executed.result, "cells": cells }).to_string()
}

/// Completion in a notebook cell: the content of a `complete_reply` for `code` with the cursor
/// at `cursor` (in characters), after the cells `before` (a cell's answer gives them). Asked of
/// a worker that runs no cell (`notebook::complete`).
#[wasm_bindgen]
pub fn cell_complete(before: &str, code: &str, cursor: usize) -> String {
    notebook::complete(before, code, cursor).to_string()
}

/// Inspection (Shift-Tab) in a notebook cell: the content of an `inspect_reply`, as
/// `cell_complete`.
#[wasm_bindgen]
pub fn cell_inspect(before: &str, code: &str, cursor: usize) -> String {
    notebook::inspect(before, code, cursor).to_string()
}

/// Whether a notebook cell is complete: the content of an `is_complete_reply` (`ds kernel`'s).
#[wasm_bindgen]
pub fn cell_is_complete(code: &str) -> String {
    ds_kernel::replies::is_complete(code).to_string()
}

/// Runs the warm-up script once (`runner::warm_up`), when a worker starts: its status
/// ("finished" when it ran to its end).
#[wasm_bindgen]
pub fn warm_up() -> String {
    runner::warm_up().status.to_string()
}

/// The message of the panic that ended the last run, if one did.
#[wasm_bindgen]
pub fn last_panic() -> String {
    PANIC.lock().map(|p| p.clone()).unwrap_or_default()
}

/// The version of ds the module was built from.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}
