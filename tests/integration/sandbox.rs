//! What a script can touch: `--sandbox` (docs/language.md, decision 19) keeps it from reading or
//! writing any file but its own `.ds` includes inside its folder, and no error shows a line of
//! a file that is not a script.

use crate::common::{run_within, Run};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fresh folder `dir/name` for one test, with the given files in it.
fn folder(name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ds-sandbox-test-{}", std::process::id())).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("folder");
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write file");
    }
    dir
}

fn ds_in(dir: &Path, args: &[&str], input: Option<&str>) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ds"));
    cmd.args(args).current_dir(dir);
    match input {
        None => run_within(cmd, 60),
        Some(text) => {
            let path = dir.join("stdin.txt");
            std::fs::write(&path, text).expect("input");
            cmd.stdin(std::fs::File::open(&path).expect("open input"));
            crate::common::run_within_keeping_stdin(cmd, 60)
        }
    }
}

#[test]
fn a_sandboxed_script_touches_no_file() {
    let secret = folder("outside", &[("secret.txt", "password\n"), ("lib.ds", "out \"outside\"\n")]);
    let s = secret.to_string_lossy();
    let dir = folder("files", &[("data.txt", "line\n")]);
    for (what, src) in [
        ("read", "var F = File.open(\"data.txt\")\nout F.getline()\n".to_string()),
        ("read outside", format!("var F = File.open(\"{s}/secret.txt\")\nout F.getline()\n")),
        ("write", "var F = File.open(\"new.txt\", \"w\")\nF.out(1)\n".into()),
        ("append", "File.open(\"data.txt\", \"a\").out(1)\n".into()),
        ("fopen", "fopen(\"new.txt\")\nfout 1\n".into()),
        ("dot", "var G = GRAPH(\"G\")\nG.dot(\"new.dot\")\n".into()),
        ("svg", "SVG.create().save(\"new.svg\", 10, 10)\n".into()),
    ] {
        std::fs::write(dir.join("t.ds"), format!("out \"before\"\n{src}")).expect("script");
        let r = ds_in(&dir, &["--sandbox", "t.ds"], None);
        assert_eq!((r.code, r.stdout.as_str()), (Some(1), "before\n"), "{what}: {}", r.stderr);
        assert!(r.stderr.contains("scripts read and write no files under --sandbox"), "{what}: {}", r.stderr);
        assert!(!r.stderr.contains("password"), "{what}: {}", r.stderr);
    }
    assert_eq!(std::fs::read_to_string(dir.join("data.txt")).expect("data"), "line\n");
    for f in ["new.txt", "new.dot", "new.svg"] {
        assert!(!dir.join(f).exists(), "{f} was written");
    }
    // Without --sandbox the same script reads its data.
    std::fs::write(dir.join("t.ds"), "out File.open(\"data.txt\").getline()\n").expect("script");
    assert_eq!(ds_in(&dir, &["t.ds"], None).stdout, "line\n");
}

#[test]
fn sandboxed_includes_stay_in_the_scripts_folder() {
    let outside = folder("inc-outside", &[("lib.ds", "out \"outside\"\n")]);
    let o = outside.to_string_lossy();
    let dir = folder("inc", &[("ok.ds", "out \"inside\"\n")]);
    std::fs::create_dir_all(dir.join("sub")).expect("sub");
    std::fs::write(dir.join("sub/deep.ds"), "#include \"../ok.ds\"\n").expect("deep");
    #[cfg(unix)]
    std::os::unix::fs::symlink(outside.join("lib.ds"), dir.join("link.ds")).expect("symlink");
    let run = |src: &str| {
        std::fs::write(dir.join("t.ds"), src).expect("script");
        ds_in(&dir, &["--sandbox", "t.ds"], None)
    };
    let r = run("#include \"ok.ds\"\n#include \"sub/deep.ds\"\n");
    assert_eq!((r.stdout.as_str(), r.code), ("inside\ninside\n", Some(0)), "{}", r.stderr);
    for src in [
        format!("#include \"{o}/lib.ds\"\n"),
        "#include \"../inc-outside/lib.ds\"\n".into(),
        "#include \"link.ds\"\n".into(),
    ] {
        let r = run(&src);
        assert_eq!((r.code, r.stdout.as_str()), (Some(1), ""), "{src}: {}", r.stderr);
        assert!(r.stderr.contains("is outside the script's folder (--sandbox)"), "{src}: {}", r.stderr);
    }
    // The same holds for --check and -e (whose folder is the current one).
    std::fs::write(dir.join("t.ds"), "#include \"link.ds\"\n").expect("script");
    assert_eq!(ds_in(&dir, &["--sandbox", "--check", "t.ds"], None).code, Some(1));
    let r = ds_in(&dir, &["--sandbox", "-e", "#include \"link.ds\""], None);
    assert!(r.stderr.contains("outside the script's folder"), "{}", r.stderr);
}

#[test]
fn sandboxed_repl_commands_obey_the_same_rule() {
    let outside = folder("repl-outside", &[("lib.ds", "out \"outside\"\n")]);
    let dir = folder("repl", &[("ok.ds", "out \"inside\"\n")]);
    let input = format!(":load ok.ds\n:load {}/lib.ds\n:dot new.dot\nout \"end\"\n", outside.to_string_lossy());
    let r = ds_in(&dir, &["--sandbox"], Some(&input));
    assert_eq!(r.stdout, "inside\nend\n", "{}", r.stderr);
    assert!(r.stderr.contains("outside the script's folder"), "{}", r.stderr);
    assert!(r.stderr.contains("scripts read and write no files under --sandbox"), "{}", r.stderr);
    assert!(!dir.join("new.dot").exists());
}

#[test]
fn the_sandbox_outlives_a_repl_reset() {
    // `:reset` made a fresh session that forgot `--sandbox`, so a script could write again.
    let dir = folder("repl-reset", &[]);
    let input = ":reset\nFile.open(\"after-reset.txt\", \"w\")\nout \"end\"\n";
    let r = ds_in(&dir, &["--sandbox"], Some(input));
    assert!(r.stderr.contains("scripts read and write no files under --sandbox"), "{}", r.stderr);
    assert!(!dir.join("after-reset.txt").exists());
}

#[test]
fn an_include_of_a_pipe_or_a_folder_is_refused_without_waiting() {
    // A FIFO named like a script made `ds`, `ds --check` and `ds lsp` wait for ever for a writer.
    let dir = folder("fifo", &[("a.ds", "#include \"pipe.ds\"\n"), ("b.ds", "#include \"sub.ds\"\n")]);
    let made = Command::new("mkfifo").arg(dir.join("pipe.ds")).status().expect("mkfifo");
    assert!(made.success());
    std::fs::create_dir(dir.join("sub.ds")).expect("folder named like a script");
    for args in [&["a.ds"][..], &["--check", "a.ds"], &["b.ds"]] {
        let r = ds_in(&dir, args, None);
        assert_eq!(r.code, Some(1), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("is not a plain file: `#include` reads script files only"), "{}", r.stderr);
    }
}

#[test]
fn an_include_of_a_file_that_is_no_script_shows_none_of_it() {
    // `#include "/etc/passwd"` printed a line of it in the syntax error, even under --check.
    let dir = folder("noscript", &[("secret.txt", "root:x:0:0:password\n")]);
    #[cfg(unix)]
    std::os::unix::fs::symlink(dir.join("secret.txt"), dir.join("disguised.ds")).expect("symlink");
    for (inc, args) in [("secret.txt", &["--check"][..]), ("disguised.ds", &[][..]), ("secret.txt", &[][..])] {
        std::fs::write(dir.join("t.ds"), format!("#include \"{inc}\"\n")).expect("script");
        let mut a = args.to_vec();
        a.push("t.ds");
        let r = ds_in(&dir, &a, None);
        assert_eq!(r.code, Some(1), "{inc}: {}", r.stderr);
        assert!(r.stderr.contains("is not a ds script"), "{inc}: {}", r.stderr);
        assert!(!r.stderr.contains("root") && !r.stderr.contains("password"), "{inc}: {}", r.stderr);
    }
}

#[test]
fn an_unreadable_include_is_exit_2_like_an_unreadable_script() {
    let dir = folder("unreadable", &[("t.ds", "#include \"missing.ds\"\n")]);
    let r = ds_in(&dir, &["t.ds"], None);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("cannot read included file"), "{}", r.stderr);
    assert_eq!(ds_in(&dir, &["missing.ds"], None).code, Some(2));
    assert_eq!(ds_in(&dir, &["--check", "t.ds"], None).code, Some(2));
}

#[test]
fn includes_cannot_multiply() {
    // Each file including the next twice: 2^30 inclusions (46 s before the limit on their
    // number; exponential before any limit).
    let mut files: Vec<(String, String)> =
        (0..30).map(|i| (format!("f{i}.ds"), format!("#include \"f{0}.ds\"\n#include \"f{0}.ds\"\n", i + 1))).collect();
    files.push(("f30.ds".into(), "var x = 1\n".into()));
    let refs: Vec<(&str, &str)> = files.iter().map(|(a, b)| (a.as_str(), b.as_str())).collect();
    let dir = folder("dag", &refs);
    let r = ds_in(&dir, &["f0.ds"], None);
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("more than 1000 `#include`s"), "{}", r.stderr);
}
