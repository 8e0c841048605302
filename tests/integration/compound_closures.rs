//! `X op= v` and `X++`/`X--` of a variable run as closures (`eval/closure/assign.rs`), at the
//! top level (which runs as closures too) and in demons, with the rules of `eval/compound.rs`.
//! The values, positions and step counts are worked out by hand.

use crate::common::{ds_file, prints};

const STEPS: &str = "s += 5\ns -= 3\ns *= 2\ns /= 8\ns %= 2\nt += \"b\"\nt += 1\nn++\nn--\nn--\n";

#[test]
fn compound_assignment_gives_the_operators_values_at_the_top_level_and_in_a_demon() {
    // 10 + 5 - 3 = 12, * 2 = 24, / 8 = 3, % 2 = 1; "a" + "b" + 1 = "ab1"; 5 + 1 - 1 - 1 = 4.
    let vars = "var s = 10\nvar t = \"a\"\nvar n = 5\n";
    prints(&format!("{vars}{STEPS}out s, t, n\n"), "1 ab1 4\n");
    prints(&format!("def f() {{\n{vars}{STEPS}return [s, t, n]\n}}\nout f()\n"), "[1,ab1,4]\n");
    // A variable the value changes: `s` is read before the value is worked out.
    let g = "var s = 1\nglobal s\ndef bump() { s = 100\nreturn 2 }\n";
    prints(&format!("{g}s += bump()\nout s\ndef h() {{ s *= bump()\nreturn s }}\nout h()\n"), "3\n6\n");
    // A string grows in place, a number stays a number, a variable holding None fails below.
    prints("var r = \"\"\nvar i = 0\nwhile i < 4 { r += \"ab\" + i\ni += 1 }\nout r, i\n", "ab0ab1ab2ab3 4\n");
}

#[test]
fn an_error_in_compound_assignment_points_at_it_at_the_top_level_and_in_a_demon() {
    for (stmt, message) in [
        ("x -= 1", "`-` needs two numbers, not a string and a number"),
        ("x++", "`++`/`--` need a number, not a string"),
        ("x--", "`++`/`--` need a number, not a string"),
    ] {
        // Column 3: the statement is indented by two spaces (line 2; line 4 in the demon).
        let top = ds_file("compound_top.ds", &format!("var x = \"s\"\n  {stmt}\n"), &[]);
        assert_eq!(top.code, Some(1), "{stmt}");
        assert!(top.stderr.contains(message), "{stmt}: {}", top.stderr);
        assert!(top.stderr.contains("compound_top.ds:2:3"), "{stmt}: {}", top.stderr);
        let demon =
            ds_file("compound_demon.ds", &format!("var x = \"s\"\nglobal x\ndef f() {{\n  {stmt}\n}}\nf()\n"), &[]);
        assert_eq!(demon.code, Some(1), "{stmt}");
        assert!(demon.stderr.contains(message), "{stmt}: {}", demon.stderr);
        assert!(demon.stderr.contains("compound_demon.ds:4:3"), "{stmt}: {}", demon.stderr);
    }
}

#[test]
fn compound_assignment_and_increments_count_one_step_each() {
    // `var` 1; `while` 1 at the start and 1 per pass; the body 1 a pass (5 passes); then `out`:
    // a limit of 13 is reached at `out` (line 3), 14 lets it finish. In a demon the limit of 13
    // is reached at `return` (line 4) and 14 at `out f()` (line 6): 15 lets it finish. These
    // are the counts of the tree walker before top-level code and `+=` / `++` were closures
    // (main's binary gives them for all three bodies), and each body is one statement.
    for body in ["s += 1", "s++", "s = s + 1"] {
        let top = format!("var s = 0\nwhile s < 5 {{ {body} }}\nout s\n");
        let demon = format!("def f() {{\nvar s = 0\nwhile s < 5 {{ {body} }}\nreturn s\n}}\nout f()\n");
        let cases = [("steps_top.ds", &top, 14, vec![(13, 3)]), ("steps_demon.ds", &demon, 15, vec![(13, 4), (14, 6)])];
        for (name, src, enough, short) in cases {
            let done = ds_file(name, src, &["--max-steps", &enough.to_string()]);
            assert_eq!(done.stdout, "5\n", "{body}: {}", done.stderr);
            for (limit, line) in short {
                let r = ds_file(name, src, &["--max-steps", &limit.to_string()]);
                assert!(r.stderr.contains(&format!("step limit of {limit} reached")), "{body}: {}", r.stderr);
                assert!(r.stderr.contains(&format!("{name}:{line}:1")), "{body} at {limit}: {}", r.stderr);
            }
        }
    }
}
