//! The results of a grading: the lines `ds grade` prints, and Gradescope's results.json.

use serde_json::{json, Value as Json};

/// How a test went.
#[derive(Debug, Clone, PartialEq)]
pub enum Verdict {
    /// Not run (the program does not compile, or its names clash with the exercise's).
    NotRun,
    Passed,
    /// With what the test said, and the state it failed on (drawn as text).
    Failed {
        message: Option<String>,
        state: Option<String>,
    },
}

#[derive(Debug, Clone)]
pub struct TestResult {
    pub name: String,
    pub hidden: bool,
    pub verdict: Verdict,
    /// What the program printed during the test (and how many bytes were cut).
    pub printed: (String, usize),
}

/// The grading of one submission.
#[derive(Debug, Clone)]
pub struct Report {
    pub tests: Vec<TestResult>,
    /// Why no test ran (the program does not compile, a clash of names).
    pub refused: Option<String>,
    /// An error of the program's own top level (the tests still run).
    pub program_error: Option<String>,
    /// What the program's top level printed (and how many bytes were cut).
    pub program_output: (String, usize),
}

impl Report {
    pub fn new(tests: Vec<(String, bool)>) -> Report {
        let tests = tests
            .into_iter()
            .map(|(name, hidden)| TestResult { name, hidden, verdict: Verdict::NotRun, printed: Default::default() })
            .collect();
        Report { tests, refused: None, program_error: None, program_output: Default::default() }
    }

    /// No test runs, for `why`: a score of 0.
    pub fn refuse(&mut self, why: String) {
        self.refused = Some(why);
    }

    pub fn passed(&self) -> usize {
        self.tests.iter().filter(|t| t.verdict == Verdict::Passed).count()
    }

    pub fn all_passed(&self) -> bool {
        self.passed() == self.tests.len()
    }

    /// The report as `ds grade` prints it; the messages and states of hidden tests only when
    /// `reveal`.
    pub fn text(&self, reveal: bool) -> String {
        let mut s = String::new();
        if let Some(why) = &self.refused {
            s.push_str(why.trim_end());
            s.push('\n');
        }
        push_output(&mut s, "your program printed", &self.program_output);
        if let Some(e) = &self.program_error {
            s.push_str("your program stopped with an error (the tests ran all the same):\n");
            s.push_str(&indent(e));
        }
        for t in &self.tests {
            s.push_str(&t.line(reveal));
        }
        s.push_str(&format!("score: {}/{}\n", self.passed(), self.tests.len()));
        s
    }

    /// Gradescope's results.json: the score, and each test with its name, score, maximum,
    /// output and visibility (hidden tests are `hidden`: only the staff sees them).
    pub fn gradescope(&self, reveal: bool) -> Json {
        let tests: Vec<Json> = self
            .tests
            .iter()
            .map(|t| {
                let score = u8::from(t.verdict == Verdict::Passed);
                let visibility = if t.hidden { "hidden" } else { "visible" };
                json!({"name": t.name, "score": score, "max_score": 1, "output": t.details(reveal), "visibility": visibility})
            })
            .collect();
        let mut out = String::new();
        if let Some(why) = &self.refused {
            out.push_str(why);
        }
        push_output(&mut out, "your program printed", &self.program_output);
        if let Some(e) = &self.program_error {
            out.push_str("your program stopped with an error:\n");
            out.push_str(e);
        }
        json!({"score": self.passed(), "output": out, "tests": tests})
    }
}

impl TestResult {
    /// `PASS name`, `FAIL name` or `NOT RUN name`, then its details, indented.
    fn line(&self, reveal: bool) -> String {
        let word = match self.verdict {
            Verdict::Passed => "PASS",
            Verdict::Failed { .. } => "FAIL",
            Verdict::NotRun => "NOT RUN",
        };
        let hidden = if self.hidden { " (hidden)" } else { "" };
        format!("{word} {}{hidden}\n{}", self.name, indent(&self.details(reveal)))
    }

    /// What a failed test said: its message, its state, what the program printed; for a
    /// hidden test, nothing unless `reveal`.
    fn details(&self, reveal: bool) -> String {
        let mut s = String::new();
        if self.hidden && !reveal {
            return s;
        }
        if let Verdict::Failed { message, state } = &self.verdict {
            if let Some(m) = message {
                s.push_str(m.trim_end());
                s.push('\n');
            }
            if let Some(state) = state {
                s.push_str("state:\n");
                s.push_str(&indent(state));
            }
            push_output(&mut s, "printed", &self.printed);
        }
        s
    }
}

fn push_output(s: &mut String, what: &str, (text, cut): &(String, usize)) {
    if text.is_empty() {
        return;
    }
    s.push_str(&format!("{what}:\n"));
    s.push_str(&indent(text));
    if *cut > 0 {
        s.push_str(&format!("  ... ({cut} more bytes not shown)\n"));
    }
}

/// Each line of `text` indented by two spaces.
fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}
