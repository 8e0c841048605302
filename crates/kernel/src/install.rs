//! `ds kernel --install [--user | --prefix DIR]`: writes the kernelspec (`kernel.json` and the
//! logos) where Jupyter looks for kernels, as `jupyter kernelspec install` would put it:
//! system-wide by default, in the user's Jupyter data folder with `--user`, or under
//! `DIR/share/jupyter/kernels` with `--prefix` (a virtual environment's prefix, say).

use serde_json::json;
use std::path::{Path, PathBuf};

/// Where the kernelspec goes.
#[derive(Debug, Clone, PartialEq)]
pub enum Target {
    System,
    User,
    Prefix(PathBuf),
}

const LOGO_32: &[u8] = include_bytes!("logo-32x32.png");
const LOGO_64: &[u8] = include_bytes!("logo-64x64.png");

/// Writes the kernelspec for the running `ds`; the folder written.
pub fn install(target: &Target) -> Result<PathBuf, String> {
    let exe = std::env::current_exe()
        .and_then(std::fs::canonicalize)
        .map_err(|e| format!("cannot tell where this ds is: {e}"))?;
    let dir = kernels_dir(target)?.join("ds");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create `{}`: {e}", dir.display()))?;
    let spec = json!({
        "argv": [exe.to_string_lossy(), "kernel", "-f", "{connection_file}"],
        "display_name": "ds (DemonScript)",
        "language": "ds",
        // Interrupts come as messages, so the kernel needs no signal to stop a cell.
        "interrupt_mode": "message",
        "metadata": {},
    });
    let text = serde_json::to_string_pretty(&spec).map_err(|e| e.to_string())?;
    write(&dir.join("kernel.json"), text.as_bytes())?;
    write(&dir.join("logo-32x32.png"), LOGO_32)?;
    write(&dir.join("logo-64x64.png"), LOGO_64)?;
    Ok(dir)
}

fn write(path: &Path, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("cannot write `{}`: {e}", path.display()))
}

/// The `kernels` folder of a target, where jupyter_core looks.
fn kernels_dir(target: &Target) -> Result<PathBuf, String> {
    let data = match target {
        Target::Prefix(dir) => dir.join("share").join("jupyter"),
        Target::User => user_data_dir()?,
        Target::System if cfg!(windows) => {
            PathBuf::from(std::env::var_os("PROGRAMDATA").ok_or("PROGRAMDATA is not set")?).join("jupyter")
        }
        Target::System => PathBuf::from("/usr/local/share/jupyter"),
    };
    Ok(data.join("kernels"))
}

/// The user's Jupyter data folder: `JUPYTER_DATA_DIR`, else `~/Library/Jupyter` on macOS, else
/// the platform's data folder (`$XDG_DATA_HOME` or `~/.local/share`, `%APPDATA%`) + `jupyter`.
fn user_data_dir() -> Result<PathBuf, String> {
    if let Some(dir) = std::env::var_os("JUPYTER_DATA_DIR") {
        return Ok(PathBuf::from(dir));
    }
    if cfg!(target_os = "macos") {
        return Ok(dirs::home_dir().ok_or("no home folder")?.join("Library").join("Jupyter"));
    }
    Ok(dirs::data_dir().ok_or("no data folder for this user")?.join("jupyter"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_install_writes_the_spec_and_the_logos() {
        let prefix = std::env::temp_dir().join(format!("ds-kernel-install-{}", std::process::id()));
        let dir = install(&Target::Prefix(prefix.clone())).expect("install");
        assert_eq!(dir, prefix.join("share/jupyter/kernels/ds"));
        let spec: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("kernel.json")).unwrap()).unwrap();
        assert_eq!(spec["display_name"], "ds (DemonScript)");
        assert_eq!(spec["argv"][1], "kernel");
        assert_eq!(spec["argv"][3], "{connection_file}");
        assert!(Path::new(spec["argv"][0].as_str().unwrap()).is_absolute());
        let logo = std::fs::read(dir.join("logo-64x64.png")).unwrap();
        assert_eq!(&logo[..8], b"\x89PNG\r\n\x1a\n");
        let _ = std::fs::remove_dir_all(prefix);
    }
}
