//! The build of three packages: the grammars of `ds-syntax` (crates/syntax) and `ds-pddl`
//! (crates/pddl), whose manifests point here, and the link of the `ds` binary.

use std::env;

fn main() {
    match env::var("CARGO_PKG_NAME").as_deref() {
        Ok("ds-syntax" | "ds-pddl") => build_the_grammar(),
        _ => link_for_a_small_start(),
    }
}

/// The package's LALRPOP grammar (crates/syntax/src/grammar.lalrpop, crates/pddl/src/grammar.lalrpop) to Rust, into the package's OUT_DIR.
fn build_the_grammar() {
    lalrpop::Configuration::new()
        .emit_rerun_directives(true)
        .process_current_dir()
        .expect("the LALRPOP grammar failed to build");
}

/// How the `ds` binary is linked so that a run maps less of it (docs/performance.md,
/// "Start-up memory"): only with the default linker on x86-64 Linux (rust-lld), whose options
/// these are, and never for a cross build (the host's C library decides the second).
fn link_for_a_small_start() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER");
    // DS_PLAIN_LINK=1 links as before, to measure what this saves.
    println!("cargo:rerun-if-env-changed=DS_PLAIN_LINK");
    let var = |k: &str| env::var(k).unwrap_or_default();
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    let default_linker = !flags.contains("linker")
        && !flags.contains("fuse-ld")
        && var("CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_LINKER").is_empty();
    let plain = !var("DS_PLAIN_LINK").is_empty();
    if var("TARGET") != "x86_64-unknown-linux-gnu" || var("HOST") != var("TARGET") || !default_linker || plain {
        return;
    }
    // The functions start-up and small runs execute, placed together first: they were spread
    // over most of the text, of which the kernel then mapped nearly all (64 KB around each
    // page touched). Made by build/link_order.py; a pattern that no longer matches is ignored.
    println!("cargo:rerun-if-changed=build/start.ld");
    let script = env::current_dir().expect("the package folder").join("build/start.ld");
    if script.exists() {
        println!("cargo:rustc-link-arg-bins=-Wl,-T,{}", script.display());
    }
    // Relative relocations packed (DT_RELR, glibc 2.36 and later): the loader reads a few KB
    // instead of a 460 KB table at every start.
    if glibc_at_least(2, 36) {
        println!("cargo:rustc-link-arg-bins=-Wl,-z,pack-relative-relocs");
    }
}

/// Whether the C library here is glibc of at least this version (`getconf GNU_LIBC_VERSION`
/// prints "glibc 2.36").
fn glibc_at_least(major: u32, minor: u32) -> bool {
    let Ok(out) = std::process::Command::new("getconf").arg("GNU_LIBC_VERSION").output() else { return false };
    let text = String::from_utf8_lossy(&out.stdout);
    let mut parts = text.trim().trim_start_matches("glibc ").split('.').map(|p| p.parse::<u32>().ok());
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(a), Some(b)) => (a, b) >= (major, minor),
        _ => false,
    }
}
