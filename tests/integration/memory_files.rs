//! The core's files in memory (`ds::files::MemoryFiles`), as the playground uses them: a
//! script includes a file of the folder, writes files with `File.open`, `fopen`/`fout` and
//! `G.dot(file)`, and reads them back; the host sees what was written. Nothing touches the disk.

use ds::files::MemoryFiles;
use ds::{Outcome, Session};
use std::sync::{Arc, Mutex};

/// Output written into a buffer the test can read.
#[derive(Clone, Default)]
struct Buf(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Buf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `src` as `name` over `files`: the outcome and what it printed.
fn run(files: &MemoryFiles, name: &str, src: &str) -> (Outcome, String) {
    let out = Buf::default();
    let mut session = Session::new(Box::new(out.clone()));
    session.interp.set_files(Box::new(files.clone()));
    let outcome = session.run_source(name, src);
    let printed = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
    (outcome, printed)
}

#[test]
fn includes_are_read_from_the_folder_relative_to_the_includer() {
    let files = MemoryFiles::default();
    files.insert("puzzles/lib/twice.ds", "def twice(x) { return 2 * x }\n");
    let (outcome, printed) = run(&files, "puzzles/main.ds", "#include \"lib/twice.ds\"\nout twice(21)\n");
    assert!(matches!(outcome, Outcome::Finished(_)), "{outcome:?}");
    assert_eq!(printed, "42\n");
}

#[test]
fn a_missing_include_is_a_clear_error_at_its_line() {
    let files = MemoryFiles::default();
    let (outcome, _) = run(&files, "main.ds", "out 1\n#include \"nowhere.ds\"\n");
    let Outcome::CompileErrors(diags) = outcome else { panic!("{outcome:?}") };
    assert!(diags[0].message.contains("cannot read included file `nowhere.ds`"), "{}", diags[0].message);
    assert!(diags[0].message.contains("no file"), "{}", diags[0].message);
}

#[test]
fn files_written_are_kept_in_memory_and_read_back() {
    let files = MemoryFiles::default();
    let src = "var F = File.open(\"notes.txt\", \"w\")\nF.out(\"a\", 1)\nF.write(\"b\")\nF.close()\n\
               fopen(\"log.txt\")\nfout \"to the log\"\nfclose()\n\
               var R = File.open(\"notes.txt\", \"r\")\nout R.getline()\nout R.getline()\n";
    let (outcome, printed) = run(&files, "main.ds", src);
    assert!(matches!(outcome, Outcome::Finished(_)), "{outcome:?}");
    assert_eq!(files.get("notes.txt").as_deref(), Some("a 1\nb"));
    assert_eq!(files.get("log.txt").as_deref(), Some("to the log\n"));
    assert_eq!(files.written(), ["notes.txt", "log.txt"]);
    assert_eq!(printed, "a 1\nb\n");
}

#[test]
fn a_path_out_of_the_folder_is_refused() {
    let files = MemoryFiles::default();
    let (outcome, _) = run(&files, "main.ds", "File.open(\"../secret\", \"w\")\n");
    let Outcome::RuntimeError(d) = outcome else { panic!("{outcome:?}") };
    assert!(d.message.contains("outside the folder"), "{}", d.message);
    assert!(files.written().is_empty());
}
