//! Bytes an editor sends to `ds lsp`: read as `Content-Length` frames, each message handled by
//! the language server (documents opened and changed, completion, hover, navigation). Any input
//! must be answered or refused, never panic. Run with `cargo +nightly fuzz run lsp_message`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // `ds lsp` runs on a thread with a large stack; so does the target.
    let data = data.to_vec();
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || ds::lsp::fuzz_messages(&data));
    if let Ok(worker) = worker {
        if let Err(panic) = worker.join() {
            std::panic::resume_unwind(panic);
        }
    }
});
