//! `ds grade EXERCISE SUBMISSION [--json FILE] [--reveal]` (decision 28 of LANGUAGE.md): runs
//! the student's SUBMISSION with no files and within limits, then each demon of EXERCISE whose
//! name starts with `test_` or `hidden_`, passing it the submission's demons and globals as a
//! map by name; prints a line per test and `score: N/M`, and with `--json` writes Gradescope's
//! `results.json`. docs/teaching.md, "Graded exercises", is the user's guide.

mod capture;
mod report;
mod run;
mod sealed;

pub use report::{Report, TestResult};
pub use run::{grade, ExerciseError, Source, TestLimits};

use clap::Parser;
use std::path::PathBuf;
use std::time::Duration;

#[derive(Parser, Debug)]
#[command(name = "ds grade", about = "Grade a ds program against an exercise's tests")]
struct Args {
    /// The exercise: a ds file whose `test_` and `hidden_` demons are the tests.
    exercise: PathBuf,
    /// The student's program (a ds file).
    submission: PathBuf,
    /// Also write the results as Gradescope's results.json to FILE.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Show the messages and states of the hidden tests too.
    #[arg(long)]
    reveal: bool,
    /// Time each test (and the program's own start) may take, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    timeout: f64,
    /// Statements each test (and the program's own start) may run.
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    max_steps: u64,
    /// The heap all of the grading may take (a number, or with a suffix K, M or G) [default:
    /// half of the machine's memory]; the `ds` binary reads it before grading starts.
    #[arg(long, value_name = "BYTES")]
    max_memory: Option<String>,
}

/// Runs `ds grade` with the arguments after `grade`; the exit status: 0 every test passed, 1
/// one failed (or the program does not compile), 2 bad use or an exercise that is wrong.
pub fn main(args: Vec<String>) -> u8 {
    let args = match Args::try_parse_from(std::iter::once("ds grade".to_string()).chain(args)) {
        Ok(a) => a,
        Err(e) => {
            let _ = e.print();
            return if e.use_stderr() { 2 } else { 0 };
        }
    };
    if !(args.timeout.is_finite() && args.timeout > 0.0 && args.timeout <= 1e6) {
        eprintln!("error: --timeout must be a number of seconds above 0 (at most 1000000)");
        return 2;
    }
    let read = |path: &PathBuf| -> Result<Source, u8> {
        match ds_native::sandbox::read_text(path, ds_core::value::MAX_TEXT) {
            Ok(text) => Ok(Source { name: path.display().to_string(), text }),
            Err(e) => {
                eprintln!("error: cannot read {}: {e}", path.display());
                Err(2)
            }
        }
    };
    let (exercise, submission) = match (read(&args.exercise), read(&args.submission)) {
        (Ok(e), Ok(s)) => (e, s),
        (Err(status), _) | (_, Err(status)) => return status,
    };
    let limits = TestLimits { time: Duration::from_secs_f64(args.timeout), steps: args.max_steps };
    let report = match grade(&exercise, &submission, &limits) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error in the exercise {} (a message for the teacher):\n{}", exercise.name, e.0);
            return 2;
        }
    };
    print!("{}", report.text(args.reveal));
    if let Some(path) = &args.json {
        let json = report.gradescope(args.reveal);
        if let Err(e) = std::fs::write(path, format!("{json:#}\n")) {
            eprintln!("error: cannot write {}: {e}", path.display());
            return 2;
        }
    }
    u8::from(!report.all_passed())
}
