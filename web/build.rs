//! The WebAssembly module's stack: deep recursion in scripts (demon calls, nested expressions)
//! needs more than wasm-ld's default 1 MB. `ds_web::STACK_BYTES` is the same number: the
//! interpreter stops a recursion before it reaches the end of this stack.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        println!("cargo:rustc-link-arg-cdylib=-zstack-size=8388608");
    }
}
