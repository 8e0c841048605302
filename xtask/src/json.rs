//! examples.json: the playground's examples menu (every script of scripts/, with the first line
//! of its opening comment as a title) and the folder its scripts see: every text file under
//! scripts/ by its path from the repository's root (`scripts/wolf/actions.ds`), so that a
//! program and its arguments name files as they do on the command line, run from the root
//! (`ds scripts/roads.ds scripts/data/tunnel.roads`).

use crate::presets::Preset;
use std::collections::BTreeMap;
use std::fmt::Write;
use std::path::Path;

/// The JSON text of examples.json; `explore` holds the Explore panel's fields for the examples
/// the docs say how to explore.
pub fn examples(scripts: &Path, explore: &BTreeMap<String, Preset>) -> Result<String, String> {
    let mut files = Vec::new();
    let root = scripts.parent().ok_or("scripts/ has no parent folder")?;
    gather(root, scripts, &mut files)?;
    files.sort();
    let mut out = String::from("{\"examples\":[");
    let top = files.iter().filter_map(|(path, text)| Some((path.strip_prefix("scripts/")?, text)));
    let top = top.filter(|(path, _)| !path.contains('/') && path.ends_with(".ds"));
    for (i, (path, text)) in top.enumerate() {
        let name = path.trim_end_matches(".ds");
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}{{\"name\":{},\"title\":{}}}", string(name), string(title(text)));
    }
    out.push_str("],\"files\":{");
    for (i, (path, text)) in files.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}{}:{}", string(path), string(text));
    }
    out.push_str("},\"explore\":{");
    for (i, (name, preset)) in explore.iter().enumerate() {
        let comma = if i > 0 { "," } else { "" };
        let _ = write!(out, "{comma}{}:{{", string(name));
        for (option, value) in &preset.options {
            let _ = write!(out, "{}:{},", string(option), string(value));
        }
        let args: Vec<String> = preset.args.iter().map(|a| string(a)).collect();
        let _ = write!(out, "\"args\":[{}]}}", args.join(","));
    }
    out.push_str("}}\n");
    Ok(out)
}

/// Every UTF-8 file under `dir`, by its path from `base` with `/` between folders.
fn gather(base: &Path, dir: &Path, into: &mut Vec<(String, String)>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            gather(base, &path, into)?;
            continue;
        }
        // A file that is not text (none today) is no use to a script: it is left out.
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let relative = path.strip_prefix(base).map_err(|e| e.to_string())?;
        let parts: Vec<String> = relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
        into.push((parts.join("/"), text));
    }
    Ok(())
}

/// The first line of a script's opening `//` comment, without the slashes.
fn title(text: &str) -> &str {
    let first = text.lines().next().unwrap_or("");
    first.strip_prefix("//").map_or("", str::trim)
}

/// A JSON string literal.
fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // `<` so that the text is safe even inside a <script> element.
            c if (c as u32) < 0x20 || c == '<' => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strings_are_escaped() {
        assert_eq!(string("a\"b\\c\nd\u{1}<"), "\"a\\\"b\\\\c\\nd\\u0001\\u003c\"");
    }

    #[test]
    fn the_title_is_the_first_comment_line() {
        assert_eq!(title("// The 8-puzzle.\n// more"), "The 8-puzzle.");
        assert_eq!(title("var X = 1"), "");
    }
}
