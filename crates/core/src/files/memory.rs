//! Files in memory: a folder of texts by path, for a host with no file system (the playground
//! in a browser) and for tests. Clones share the folder, so the host that made it can put the
//! example scripts in before a run and read what the script wrote after it.

use super::{checked_text, FileWriter, Files};
use std::collections::BTreeMap;
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard};

/// The files, and which of them scripts wrote.
#[derive(Debug, Default)]
struct Folder {
    texts: BTreeMap<PathBuf, Vec<u8>>,
    written: Vec<PathBuf>,
}

/// A folder of files in memory (shared by its clones). Paths are taken lexically: `a/./b` and
/// `a/c/../b` are `a/b`, and a path that climbs above the folder names no file.
#[derive(Debug, Clone, Default)]
pub struct MemoryFiles {
    folder: Arc<Mutex<Folder>>,
}

impl MemoryFiles {
    /// Puts a file in the folder (replacing one of the same path).
    pub fn insert(&self, path: &str, text: &str) {
        if let Some(path) = normal(Path::new(path)) {
            self.lock().texts.insert(path, text.as_bytes().to_vec());
        }
    }

    /// The text of a file, if there is one (bytes that are not UTF-8 replaced).
    pub fn get(&self, path: &str) -> Option<String> {
        let path = normal(Path::new(path))?;
        self.lock().texts.get(&path).map(|b| String::from_utf8_lossy(b).into_owned())
    }

    /// The files scripts wrote or appended to, in the order they were first written.
    pub fn written(&self) -> Vec<String> {
        self.lock().written.iter().map(|p| p.to_string_lossy().into_owned()).collect()
    }

    fn lock(&self) -> MutexGuard<'_, Folder> {
        // A panic while the lock was held left the map whole: every change is one call.
        self.folder.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// The file's bytes are `text` from now on (or `text` appended), and it counts as written.
    fn store(&self, path: PathBuf, bytes: &[u8], append: bool) -> u64 {
        let mut folder = self.lock();
        if !folder.written.contains(&path) {
            folder.written.push(path.clone());
        }
        let file = folder.texts.entry(path).or_default();
        if !append {
            file.clear();
        }
        file.extend_from_slice(bytes);
        file.len() as u64
    }
}

/// `path` without `.` and with `..` taken back; None when it climbs out of the folder.
fn normal(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            Component::Normal(p) => out.push(p),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => {}
            Component::ParentDir => {
                if !out.pop() {
                    return None;
                }
            }
        }
    }
    Some(out)
}

fn not_found(path: &Path) -> io::Error {
    io::Error::new(io::ErrorKind::NotFound, format!("no file `{}` in the playground's folder", path.display()))
}

impl Files for MemoryFiles {
    fn script_path(&self, path: &Path) -> Result<PathBuf, String> {
        normal(path).ok_or_else(|| format!("`{}` is outside the folder", path.display()))
    }

    fn data_path(&self, name: &str) -> Result<PathBuf, String> {
        self.script_path(Path::new(name))
    }

    fn real_path(&self, path: &Path) -> io::Result<PathBuf> {
        let real = normal(path).ok_or_else(|| not_found(path))?;
        match self.lock().texts.contains_key(&real) {
            true => Ok(real),
            false => Err(not_found(path)),
        }
    }

    fn read_text(&self, path: &Path, max: usize) -> io::Result<String> {
        let real = self.real_path(path)?;
        let bytes = self.lock().texts.get(&real).cloned().unwrap_or_default();
        checked_text(bytes, max)
    }

    fn write(&mut self, path: &Path, text: &str) -> io::Result<()> {
        let real = normal(path).ok_or_else(|| not_found(path))?;
        self.store(real, text.as_bytes(), false);
        Ok(())
    }

    fn open_write(&mut self, path: &Path, append: bool) -> io::Result<Box<dyn FileWriter>> {
        let real = normal(path).ok_or_else(|| not_found(path))?;
        let len = self.store(real.clone(), b"", append);
        Ok(Box::new(MemoryWriter { files: self.clone(), path: real, len }))
    }

    fn open_read(&self, path: &Path) -> io::Result<Box<dyn Read + Send>> {
        let real = self.real_path(path)?;
        let bytes = self.lock().texts.get(&real).cloned().unwrap_or_default();
        Ok(Box::new(io::Cursor::new(bytes)))
    }

    fn replace(&mut self, from: &Path, to: &Path) -> io::Result<()> {
        let (from, to) = (self.real_path(from)?, normal(to).ok_or_else(|| not_found(to))?);
        let mut folder = self.lock();
        let bytes = folder.texts.remove(&from).unwrap_or_default();
        folder.written.retain(|p| *p != from);
        if !folder.written.contains(&to) {
            folder.written.push(to.clone());
        }
        folder.texts.insert(to, bytes);
        Ok(())
    }

    fn boxed_clone(&self) -> Box<dyn Files> {
        Box::new(self.clone())
    }
}

/// A file of a `MemoryFiles` opened for writing.
#[derive(Debug)]
struct MemoryWriter {
    files: MemoryFiles,
    path: PathBuf,
    len: u64,
}

impl Write for MemoryWriter {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.len = self.files.store(self.path.clone(), buf, true);
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl FileWriter for MemoryWriter {
    fn len(&self) -> u64 {
        self.len
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_taken_lexically_and_stay_inside() {
        let files = MemoryFiles::default();
        files.insert("scripts/wolf.ds", "out 1");
        assert_eq!(files.real_path(Path::new("scripts/./x/../wolf.ds")).unwrap(), PathBuf::from("scripts/wolf.ds"));
        assert!(files.real_path(Path::new("../scripts/wolf.ds")).is_err());
        assert!(files.script_path(Path::new("a/../../b")).is_err());
        assert_eq!(files.read_text(Path::new("scripts/wolf.ds"), 100).unwrap(), "out 1");
        assert!(files.read_text(Path::new("scripts/wolf.ds"), 3).is_err());
    }

    #[test]
    fn writes_are_kept_and_listed_once_in_order() {
        let mut files = MemoryFiles::default();
        let mut w = files.open_write(Path::new("out.txt"), false).unwrap();
        w.write_all(b"ab").unwrap();
        files.write(Path::new("g.dot"), "digraph {}").unwrap();
        w.write_all(b"c").unwrap();
        assert_eq!(w.len(), 3);
        let mut again = files.open_write(Path::new("out.txt"), true).unwrap();
        again.write_all(b"d").unwrap();
        assert_eq!(files.get("out.txt").as_deref(), Some("abcd"));
        assert_eq!(files.written(), ["out.txt", "g.dot"]);
        files.open_write(Path::new("out.txt"), false).unwrap();
        assert_eq!(files.get("out.txt").as_deref(), Some(""));
    }
}
