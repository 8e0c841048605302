//! The files of a program being graded: none. Every read and write is refused, so that a
//! submission cannot read the exercise (its hidden tests) or anything beside it, nor leave
//! files behind.

use ds_core::files::{FileWriter, Files};
use std::io;
use std::path::{Path, PathBuf};

const REFUSED: &str = "a program being graded reads and writes no files";

#[derive(Debug, Clone, Copy)]
pub struct Sealed;

fn refused() -> io::Error {
    io::Error::new(io::ErrorKind::PermissionDenied, REFUSED)
}

impl Files for Sealed {
    fn script_path(&self, _: &Path) -> Result<PathBuf, String> {
        Err(REFUSED.to_string())
    }

    fn data_path(&self, _: &str) -> Result<PathBuf, String> {
        Err(REFUSED.to_string())
    }

    fn is_sandbox(&self) -> bool {
        true
    }

    fn real_path(&self, _: &Path) -> io::Result<PathBuf> {
        Err(refused())
    }

    fn read_text(&self, _: &Path, _: usize) -> io::Result<String> {
        Err(refused())
    }

    fn write(&mut self, _: &Path, _: &str) -> io::Result<()> {
        Err(refused())
    }

    fn open_write(&mut self, _: &Path, _: bool) -> io::Result<Box<dyn FileWriter>> {
        Err(refused())
    }

    fn open_read(&self, _: &Path) -> io::Result<Box<dyn io::Read + Send>> {
        Err(refused())
    }

    fn replace(&mut self, _: &Path, _: &Path) -> io::Result<()> {
        Err(refused())
    }

    fn boxed_clone(&self) -> Box<dyn Files> {
        Box::new(*self)
    }
}
