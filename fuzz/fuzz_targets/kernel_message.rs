//! Bytes from the network as the Jupyter kernel gets them: read as a ZMTP stream by the frame
//! guard, and split at 0 bytes into the frames of a message that is decoded and, if well
//! formed, answered (completion, inspection, is_complete, kernel info). Any input must be
//! refused or answered, never panic. Run with `cargo +nightly fuzz run kernel_message`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // The kernel answers on a thread with a large stack; so does the target.
    let data = data.to_vec();
    let worker = std::thread::Builder::new().stack_size(256 << 20).spawn(move || ds::kernel::fuzz_message(&data));
    if let Ok(worker) = worker {
        if let Err(panic) = worker.join() {
            std::panic::resume_unwind(panic);
        }
    }
});
