//! `ds grade EXERCISE SUBMISSION` (decision 28; docs/teaching.md, "Graded exercises"): the
//! verdicts, hidden tests kept hidden, the limits, bad submissions and bad exercises. The
//! expected verdicts follow from the exercises' own arithmetic, worked out in the comments.

use crate::common::{ds, scratch_file, Run};

/// An exercise on `double(n)`: three tests, one hidden, and a view that draws a state as
/// `[n]`.
const EXERCISE: &str = r#"
def test_small(S) : return S["double"](2) == 4
def test_three(S)
{
   var D = S["double"]
   if D(3) == 6 : return True
   return {"pass": False, "message": "double(3) gave " + D(3), "state": 3}
}
def hidden_large(S)
{
   var D = S["double"]
   if D(1000) == 2000 : return True
   return {"pass": False, "message": "the secret input 1000 gave " + D(1000), "state": 1000}
}
def ex_view(N) : return "[" + N + "]"
"#;

/// Grades `submission` by `exercise`, with the extra options.
fn grade(exercise: &str, submission: &str, extra: &[&str]) -> Run {
    let e = scratch_file("exercise.ds", exercise);
    let s = scratch_file("answer.ds", submission);
    let (e, s) = (e.to_string_lossy().into_owned(), s.to_string_lossy().into_owned());
    let mut args = vec!["grade", e.as_str(), s.as_str()];
    args.extend_from_slice(extra);
    ds(&args)
}

#[test]
fn a_right_program_passes_every_test() {
    let r = grade(EXERCISE, "def double(n) : return 2 * n\nout \"ready\"", &[]);
    assert_eq!(r.code, Some(0), "{}{}", r.stdout, r.stderr);
    assert_eq!(
        r.stdout,
        "your program printed:\n  ready\nPASS test_small\nPASS test_three\nPASS hidden_large (hidden)\nscore: 3/3\n"
    );
}

#[test]
fn a_failing_test_shows_its_message_and_its_state_drawn_by_the_view() {
    // n + 2: right for 2 (4), wrong for 3 (5) and for 1000 (1002)
    let r = grade(EXERCISE, "def double(n) : return n + 2", &[]);
    assert_eq!(r.code, Some(1));
    assert_eq!(
        r.stdout,
        "PASS test_small\nFAIL test_three\n  double(3) gave 5\n  state:\n    [3]\nFAIL hidden_large (hidden)\nscore: 1/3\n"
    );
    assert!(!r.stdout.contains("secret") && !r.stdout.contains("1002"), "a hidden test's message stays hidden");
    let shown = grade(EXERCISE, "def double(n) : return n + 2", &["--reveal"]);
    assert!(shown
        .stdout
        .contains("FAIL hidden_large (hidden)\n  the secret input 1000 gave 1002\n  state:\n    [1000]\n"));
}

#[test]
fn results_json_is_gradescopes_format() {
    let out = scratch_file("results.json", "");
    let path = out.to_string_lossy().into_owned();
    let r = grade(EXERCISE, "def double(n) : return n + 2", &["--json", &path]);
    assert_eq!(r.code, Some(1));
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("results.json")).expect("JSON");
    assert_eq!(json["score"], 1);
    let tests = json["tests"].as_array().expect("tests");
    let field = |i: usize, k: &str| tests[i][k].clone();
    assert_eq!(tests.len(), 3);
    assert_eq!((field(0, "name"), field(0, "score"), field(0, "max_score")), ("test_small".into(), 1.into(), 1.into()));
    assert_eq!((field(1, "score"), field(1, "visibility")), (0.into(), "visible".into()));
    assert!(field(1, "output").as_str().is_some_and(|o| o.contains("double(3) gave 5")));
    assert_eq!(
        (field(2, "name"), field(2, "visibility"), field(2, "output")),
        ("hidden_large".into(), "hidden".into(), "".into())
    );
}

#[test]
fn a_program_that_does_not_compile_scores_zero_with_its_error() {
    let r = grade(EXERCISE, "def double(n) : return n +\n", &[]);
    assert_eq!(r.code, Some(1));
    assert!(r.stdout.starts_with("your program does not compile:\nerror:"), "{}", r.stdout);
    assert!(r.stdout.contains("answer.ds:1:"), "the error's place: {}", r.stdout);
    assert!(r.stdout.ends_with("NOT RUN test_small\nNOT RUN test_three\nNOT RUN hidden_large (hidden)\nscore: 0/3\n"));
}

#[test]
fn each_limit_fails_its_test_and_grading_goes_on() {
    let cases: [(&str, &[&str], &str); 4] = [
        ("def double(n) { while True {} }", &["--timeout", "0.5"], "stopped: the time limit of 0.5 s was reached"),
        (
            "def double(n) { while True {} }",
            &["--max-steps", "1000"],
            "stopped: the step limit of 1000 statements was reached",
        ),
        ("def double(n) : return double(n)", &[], "recursion too deep"),
        (
            "def double(n) { var A = []\n while True { A.push([1, 2, 3]) } }",
            &["--max-memory", "200M"],
            "stopped: the memory limit was reached",
        ),
    ];
    for (program, options, message) in cases {
        let r = grade(EXERCISE, program, options);
        assert_eq!(r.code, Some(1), "{program}: {}{}", r.stdout, r.stderr);
        // every test ran and failed; the public ones say why
        assert_eq!(r.stdout.matches("FAIL ").count(), 3, "{program}: {}", r.stdout);
        assert_eq!(r.stdout.matches(message).count(), 2, "{program}: {}", r.stdout);
        assert!(r.stdout.ends_with("score: 0/3\n"), "{program}: {}", r.stdout);
    }
}

#[test]
fn a_program_reads_no_file_not_even_the_exercise() {
    let reads = [
        "var F = File.open(\"exercise.ds\")\nout F.getlines()",
        "var F = File.open(File.scriptDir() + \"/exercise.ds\")\nout F.getlines()",
        "#include \"exercise.ds\"",
    ];
    for read in reads {
        let r = grade(EXERCISE, &format!("{read}\ndef double(n) : return 2 * n\n"), &[]);
        assert!(r.stdout.contains("a program being graded reads and writes no files"), "{read}: {}", r.stdout);
        assert!(!r.stdout.contains("secret") && !r.stderr.contains("secret"), "{read}: the exercise leaked");
    }
}

#[test]
fn a_program_cannot_replace_a_test_or_a_name_of_the_exercise() {
    let r = grade(
        EXERCISE,
        "def double(n) : return 0\ndef test_three(S) : return True\ndef hidden_large(S) : return True",
        &[],
    );
    assert_eq!(r.code, Some(1));
    assert!(r.stdout.contains("a name the exercise uses for its own"), "{}", r.stdout);
    assert!(r.stdout.ends_with("score: 0/3\n"));
}

#[test]
fn a_wrong_exercise_is_a_message_for_the_teacher_with_status_2() {
    let cases = [
        ("def test_x(S) : return S[\"f\"](1) +\n", "exercise.ds:1:"),
        ("def check(S) : return True\n", "it has no test"),
        ("def test_x(S, T) : return True\n", "takes 2 arguments"),
        ("def test_x(S) : return True\nvar X = 1 / [1]\n", "failed before its tests ran"),
    ];
    for (exercise, message) in cases {
        let r = grade(exercise, "def f(n) : return n", &[]);
        assert_eq!(r.code, Some(2), "{exercise}: {}{}", r.stdout, r.stderr);
        assert!(
            r.stderr.contains("(a message for the teacher)") && r.stderr.contains(message),
            "{exercise}: {}",
            r.stderr
        );
        assert_eq!(r.stdout, "", "nothing for the student");
    }
}

#[test]
fn bad_use_is_status_2() {
    assert_eq!(ds(&["grade"]).code, Some(2));
    assert_eq!(ds(&["grade", "no-such-exercise.ds", "no-such-answer.ds"]).code, Some(2));
    let r = grade(EXERCISE, "def double(n) : return 2 * n", &["--timeout", "-1"]);
    assert_eq!(r.code, Some(2));
    let r = grade(EXERCISE, "def double(n) : return 2 * n", &["--max-memory", "lots"]);
    assert_eq!(r.code, Some(2));
}

/// The worked exercise of docs/teaching.md: its output there is what `ds grade` prints.
#[test]
fn the_worked_exercise_of_the_teaching_guide_grades_as_shown() {
    let root = env!("CARGO_MANIFEST_DIR");
    let guide = std::fs::read_to_string(format!("{root}/docs/teaching.md")).expect("docs/teaching.md");
    let mut checked = 0;
    for block in guide.split("```console\n").skip(1) {
        let block = block.split("```").next().unwrap_or_default();
        let (command, expected) = block.split_once('\n').unwrap_or_default();
        let Some(args) = command.strip_prefix("$ ds ") else { continue };
        let args: Vec<String> = args.split_whitespace().map(|a| a.replace("docs/", &format!("{root}/docs/"))).collect();
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let r = ds(&args);
        assert_eq!(r.stdout, expected, "docs/teaching.md: `{command}`");
        checked += 1;
    }
    assert!(checked >= 2, "docs/teaching.md shows ds grade at work");
}
