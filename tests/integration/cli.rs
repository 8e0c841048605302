//! The command line's shape: what follows FILE is the script's, exit statuses.

use crate::common::{ds, ds_file, scratch_file};

#[test]
fn options_after_the_file_belong_to_the_script() {
    // `ds s.ds --help` printed ds's help; `--timeout 1` after the file was taken by ds.
    let r = ds_file("args.ds", "out System.args()\n", &[]);
    assert_eq!(r.stdout, "[]\n");
    let script = scratch_file("args.ds", "out System.args()\n");
    let script = script.to_string_lossy();
    let r = ds(&[&script, "--help", "--timeout", "x", "-e", "code", "--", "-"]);
    assert_eq!((r.stdout.as_str(), r.code), ("[--help,--timeout,x,-e,code,--,-]\n", Some(0)), "{}", r.stderr);
    // Options before the file are ds's, with values in either form; `--` ends them.
    let r = ds(&["--max-steps", "100", "--timeout=30", &script, "a"]);
    assert_eq!(r.stdout, "[a]\n", "{}", r.stderr);
    let r = ds(&["--", &script, "--max-steps"]);
    assert_eq!(r.stdout, "[--max-steps]\n", "{}", r.stderr);
    // With -e, the first argument after the options is the script's first.
    let r = ds(&["-e", "out System.args()", "one", "--two"]);
    assert_eq!(r.stdout, "[one,--two]\n", "{}", r.stderr);
    // ds's own help and version are still there, before the file.
    let r = ds(&["--help"]);
    assert_eq!(r.code, Some(0));
    assert!(r.stdout.contains("Options go before FILE"), "{}", r.stdout);
    assert!(r.stdout.contains("--max-memory") && r.stdout.contains("--sandbox"), "{}", r.stdout);
}

#[test]
fn bad_option_values_are_exit_2() {
    for args in [&["--max-steps", "-1", "-e", "out 1"][..], &["--max-depth", "x", "-e", "out 1"], &["--frobnicate"]] {
        let r = ds(args);
        assert_eq!((r.code, r.stdout.as_str()), (Some(2), ""), "{args:?}: {}", r.stderr);
    }
}
