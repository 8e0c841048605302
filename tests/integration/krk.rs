//! The many-positions run of `scripts/krk.ds` (king and rook against king): 300 seeded random
//! legal positions, each played against the stubborn and the random defender, every game
//! checked by the independent `tests/oracle/krk_check.py` and compared with `krk_oracle.py`.
//! Slow (a few minutes) and needs `python3`, so it is ignored by default:
//!     cargo test --release --test krk -- --ignored
//! The golden cases (`tests/expected/krk*.out`) run with the ordinary tests.

use std::path::PathBuf;
use std::process::Command;

#[test]
#[ignore]
fn krk_mates_from_random_positions() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("tests/oracle/krk_bench.py"))
        .args(["--n", "300", "--seed", "2026", "--oracle", "--ds", env!("CARGO_BIN_EXE_ds")])
        .output()
        .expect("python3 is needed for this test");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "krk_bench.py failed:\n{text}\n{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("failed: 0"), "{text}");
}
