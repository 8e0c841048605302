//! The disk as the files of a script (`ds_core::files::Files`), and which of them it may touch.
//! Every file a script reads or writes goes through here: `data_file` for the files of `File.open`, `fopen`, `G.dot(file)`, `S.save(file)` and any other
//! built-in that writes a file, `script_file` for `#include` and the REPL's `:load`. The policy
//! is the interpreter's (`Interp::sandbox`), set once by the command line (`--sandbox`) or a
//! fuzz target, and handed to the workers of a search.

use ds_core::files::{FileWriter, Files};
use std::path::{Path, PathBuf};

/// What the scripts of one interpreter may do with files.
#[derive(Debug, Clone, Default)]
pub enum Access {
    /// Any file the user can reach (the default).
    #[default]
    Open,
    /// `--sandbox` (docs/language.md, decision 19): scripts read and write no file; `#include` and
    /// `:load` read scripts inside `root` (the script's folder), symbolic links resolved first.
    Sandbox { root: PathBuf },
    /// For fuzzing: files only by plain names in the current directory (no `/`, `\`, `..`),
    /// and at most `budget` bytes written to them in all.
    Scratch { budget: u64 },
}

impl Access {
    /// The policy ready for use: for a sandbox the root is made absolute with symbolic links
    /// resolved, so that `script_file` compares real paths.
    pub fn resolved(self) -> std::io::Result<Access> {
        Ok(match self {
            Access::Sandbox { root } => {
                let root = if root.as_os_str().is_empty() { PathBuf::from(".") } else { root };
                Access::Sandbox { root: std::fs::canonicalize(root)? }
            }
            other => other,
        })
    }

    /// Whether `--sandbox` is on (the REPL then keeps no history file either).
    pub fn is_sandbox(&self) -> bool {
        matches!(self, Access::Sandbox { .. })
    }

    /// The path of a file a script asked to read or write, if the policy allows it.
    pub fn data_file(&self, name: &str) -> Result<PathBuf, String> {
        match self {
            Access::Open => Ok(PathBuf::from(name)),
            Access::Sandbox { .. } => Err(format!("`{name}`: scripts read and write no files under --sandbox")),
            Access::Scratch { .. } if plain(name) => Ok(PathBuf::from(name)),
            Access::Scratch { .. } => {
                Err(format!("file `{name}` is outside the sandbox: only plain names in the current directory"))
            }
        }
    }

    /// The path to read a script from (`#include`, `:load`), if the policy allows it: under
    /// `--sandbox` the real path (links resolved) must lie inside the script's folder.
    pub fn script_file(&self, path: &Path) -> Result<PathBuf, String> {
        match self {
            Access::Open => Ok(path.to_path_buf()),
            Access::Sandbox { root } => match std::fs::canonicalize(path) {
                Ok(real) if real.starts_with(root) => Ok(real),
                Ok(_) => Err(format!("`{}` is outside the script's folder (--sandbox)", path.display())),
                Err(e) => Err(format!("cannot read `{}`: {e}", path.display())),
            },
            Access::Scratch { .. } if path.to_str().is_some_and(plain) => Ok(path.to_path_buf()),
            Access::Scratch { .. } => Err(format!(
                "file `{}` is outside the sandbox: only plain names in the current directory",
                path.display()
            )),
        }
    }

    /// Takes `len` bytes from the allowance of a scratch policy before a write.
    pub fn charge_write(&mut self, len: usize) -> Result<(), String> {
        match self {
            Access::Scratch { budget } => match budget.checked_sub(len as u64) {
                Some(rest) => {
                    *budget = rest;
                    Ok(())
                }
                None => Err("the sandbox's limit on bytes written to files is reached".to_string()),
            },
            _ => Ok(()),
        }
    }
}

fn plain(name: &str) -> bool {
    !name.is_empty() && name != "." && name != ".." && !name.contains(['/', '\\', '\0', ':'])
}

/// The whole text of a file, refused past `max` bytes (`value::MAX_TEXT`: a script may name a
/// device that never ends, such as `/dev/zero`).
pub fn read_text(path: &std::path::Path, max: usize) -> std::io::Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(max as u64 + 1).read_to_end(&mut bytes)?;
    ds_core::files::checked_text(bytes, max)
}

impl Files for Access {
    fn script_path(&self, path: &Path) -> Result<PathBuf, String> {
        self.script_file(path)
    }
    fn data_path(&self, name: &str) -> Result<PathBuf, String> {
        self.data_file(name)
    }
    fn charge_write(&mut self, len: usize) -> Result<(), String> {
        Access::charge_write(self, len)
    }
    fn is_sandbox(&self) -> bool {
        Access::is_sandbox(self)
    }
    fn real_path(&self, path: &Path) -> std::io::Result<PathBuf> {
        std::fs::canonicalize(path)
    }
    fn is_plain_file(&self, path: &Path) -> bool {
        std::fs::metadata(path).is_ok_and(|m| m.is_file())
    }
    fn read_text(&self, path: &Path, max: usize) -> std::io::Result<String> {
        read_text(path, max)
    }
    fn write(&mut self, path: &Path, text: &str) -> std::io::Result<()> {
        std::fs::write(path, text)
    }
    fn open_write(&mut self, path: &Path, append: bool) -> std::io::Result<Box<dyn FileWriter>> {
        let file = match append {
            true => std::fs::OpenOptions::new().append(true).create(true).open(path)?,
            false => std::fs::File::create(path)?,
        };
        Ok(Box::new(DiskFile(file)))
    }
    fn open_read(&self, path: &Path) -> std::io::Result<Box<dyn std::io::Read + Send>> {
        Ok(Box::new(std::fs::File::open(path)?))
    }
    fn replace(&mut self, from: &Path, to: &Path) -> std::io::Result<()> {
        std::fs::File::open(from)?.sync_all()?;
        std::fs::rename(from, to)
    }
    fn boxed_clone(&self) -> Box<dyn Files> {
        Box::new(self.clone())
    }
}

/// A file of the disk open for writing.
#[derive(Debug)]
struct DiskFile(std::fs::File);

impl std::io::Write for DiskFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write(buf)
    }
    fn write_all(&mut self, buf: &[u8]) -> std::io::Result<()> {
        self.0.write_all(buf)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.0.flush()
    }
}

impl FileWriter for DiskFile {
    fn len(&self) -> u64 {
        self.0.metadata().map_or(0, |m| m.len())
    }
}
