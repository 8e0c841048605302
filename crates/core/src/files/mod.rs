//! The files a script reads and writes: `#include`d scripts, `File.open`, `fopen`/`fout`,
//! `G.dot(file)`, `S.save(file)`. The core reaches them only through `Files`, which is both the
//! storage and the policy of what may be touched: the command line gives the disk under the
//! `--sandbox` rules (`ds_native::sandbox::Access`), the playground an
//! in-memory folder (`MemoryFiles`, which an interpreter starts with).

mod memory;

pub use memory::MemoryFiles;

use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

/// A file opened for writing: every write goes straight to it, so nothing is lost on any exit
/// path.
pub trait FileWriter: Write + std::fmt::Debug {
    /// The bytes written to the file so far (its size).
    fn len(&self) -> u64;

    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Where the files of one interpreter are, and which of them its scripts may touch.
pub trait Files: Send + Sync + std::fmt::Debug {
    /// The path to read a script from (`#include`, the REPL's `:load`), if the policy allows
    /// it.
    fn script_path(&self, path: &Path) -> Result<PathBuf, String>;
    /// The path of a data file a script asked to read or write, if the policy allows it.
    fn data_path(&self, name: &str) -> Result<PathBuf, String>;
    /// Takes `len` bytes from what the policy lets scripts write, before a write.
    fn charge_write(&mut self, _len: usize) -> Result<(), String> {
        Ok(())
    }
    /// Whether scripts may write no file at all (the REPL then keeps no history either).
    fn is_sandbox(&self) -> bool {
        false
    }
    /// The real path of a file, links resolved (an error when there is no such file).
    fn real_path(&self, path: &Path) -> io::Result<PathBuf>;
    /// Whether `path` is a plain file (not a pipe, a device or a folder, which an `#include`
    /// could wait on for ever).
    fn is_plain_file(&self, _path: &Path) -> bool {
        true
    }
    /// The whole text of a file, refused past `max` bytes (a script may name a device that
    /// never ends, such as `/dev/zero`) or when it is not UTF-8.
    fn read_text(&self, path: &Path, max: usize) -> io::Result<String>;
    /// Writes a whole file afresh.
    fn write(&mut self, path: &Path, text: &str) -> io::Result<()>;
    /// Opens a file for writing: emptied first, or appended to.
    fn open_write(&mut self, path: &Path, append: bool) -> io::Result<Box<dyn FileWriter>>;
    /// Opens a file to read its bytes as they come (a search's checkpoint, which may be large
    /// and is not text).
    fn open_read(&self, path: &Path) -> io::Result<Box<dyn Read + Send>>;
    /// Puts file `from` in the place of `to` in one step, once its bytes are on the disk: a
    /// checkpoint is replaced whole or not at all, whenever the machine stops.
    fn replace(&mut self, from: &Path, to: &Path) -> io::Result<()>;
    /// The same files and policy for another interpreter (a worker of a search).
    fn boxed_clone(&self) -> Box<dyn Files>;
}

/// A writer that keeps nothing: what a worker of a search writes is dropped.
#[derive(Debug, Default)]
pub struct Discard;

impl Write for Discard {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl FileWriter for Discard {
    fn len(&self) -> u64 {
        0
    }
}

/// The error of a text that is too long or not UTF-8, the same for every kind of files.
pub fn checked_text(bytes: Vec<u8>, max: usize) -> io::Result<String> {
    if bytes.len() > max {
        return Err(io::Error::other(format!("it is longer than {} MB", max / 1_000_000)));
    }
    String::from_utf8(bytes).map_err(|_| io::Error::other("it is not UTF-8 text"))
}
