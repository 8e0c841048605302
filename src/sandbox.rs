//! Which files a script may touch. Every file a script reads or writes goes through here:
//! `data_file` for the files of `File.open`, `fopen`, `G.dot(file)`, `S.save(file)` and any other
//! built-in that writes a file, `script_file` for `#include` and the REPL's `:load`. The policy
//! is the interpreter's (`Interp::sandbox`), set once by the command line (`--sandbox`) or a
//! fuzz target, and handed to the workers of a search.

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
    let max = max as u64;
    let mut bytes = Vec::new();
    std::fs::File::open(path)?.take(max + 1).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > max {
        return Err(std::io::Error::other(format!("it is longer than {} MB", max / 1_000_000)));
    }
    String::from_utf8(bytes).map_err(|_| std::io::Error::other("it is not UTF-8 text"))
}
