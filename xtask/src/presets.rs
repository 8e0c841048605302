//! The Explore panel's fields for the examples that docs say how to explore: every
//! `ds explore scripts/NAME.ds ...` command of docs/problems.md and docs/explorer.md (the first
//! one for each script), read into `{"NAME": {"start", "next", "goal", "h", "view", "symmetry", "args"}}`,
//! so that the page's fields say what the docs say, from one place.

use std::collections::BTreeMap;

/// One script's fields: the explorer's options by name (`start`, ...) and the other
/// arguments, which are the script's.
#[derive(Debug, Default, PartialEq)]
pub struct Preset {
    pub options: BTreeMap<String, String>,
    pub args: Vec<String>,
}

const OPTIONS: [&str; 6] = ["start", "next", "goal", "h", "view", "symmetry"];

/// The presets of the commands in `docs`' texts, by script name.
pub fn presets(docs: &[&str]) -> BTreeMap<String, Preset> {
    let mut out = BTreeMap::new();
    for text in docs {
        for command in commands(text) {
            if let Some((name, preset)) = parse(&command) {
                out.entry(name).or_insert(preset);
            }
        }
    }
    out
}

/// The commands of a Markdown text: in inline code (which may wrap lines) up to its closing
/// backtick, elsewhere (a code block) up to the end of its line.
fn commands(text: &str) -> Vec<String> {
    const START: &str = "ds explore scripts/";
    let mut out = Vec::new();
    for (at, _) in text.match_indices(START) {
        let rest = &text[at..];
        let inline = text[..at].ends_with('`');
        let end = if inline { rest.find('`') } else { rest.find('\n') }.unwrap_or(rest.len());
        out.push(rest[..end].split_whitespace().collect::<Vec<_>>().join(" "));
    }
    out
}

/// `ds explore scripts/NAME.ds [ARGS] --start S --next N --goal G [--h H] [--view V] [--symmetry C]`.
fn parse(command: &str) -> Option<(String, Preset)> {
    let words = words(command);
    let name = words.get(2)?.strip_prefix("scripts/")?.strip_suffix(".ds")?.to_string();
    let mut preset = Preset::default();
    let mut rest = words[3..].iter();
    while let Some(word) = rest.next() {
        match word.strip_prefix("--").filter(|o| OPTIONS.contains(o)) {
            Some(option) => {
                preset.options.insert(option.to_string(), rest.next()?.clone());
            }
            None => preset.args.push(word.clone()),
        }
    }
    ["start", "next", "goal"].iter().all(|o| preset.options.contains_key(*o)).then_some((name, preset))
}

/// Words split at spaces, a "quoted" part kept whole (without its quotes).
fn words(command: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word: Option<String> = None;
    let mut quoted = false;
    for c in command.chars() {
        match c {
            '"' => {
                quoted = !quoted;
                word.get_or_insert_with(String::new);
            }
            ' ' if !quoted => out.extend(word.take()),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    out.extend(word);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_in_inline_code_and_code_blocks() {
        let docs = "includes it: `ds explore scripts/wolf_search.ds --start Start --next all_actions --goal\n\
                    target_state --view view`.\n\nds explore scripts/wolf.ds --start Start --next all_actions --goal G\nlater\n\
                    `ds explore scripts/hanoi.ds --start\n  \"make_world(4)\" --next s --goal goal`\n\
                    `ds explore scripts/fifteen.ds astar --start Start --next moves --goal Goal --h h`\n\
                    `ds explore scripts/wolf.ds --start Other --next x --goal y`";
        let p = presets(&[docs]);
        assert_eq!(p.len(), 4);
        let search = &p["wolf_search"].options;
        assert_eq!((search["goal"].as_str(), search["view"].as_str()), ("target_state", "view"));
        assert_eq!(p["wolf"].options["goal"], "G", "the first command of a script wins");
        assert_eq!(p["hanoi"].options["start"], "make_world(4)");
        assert_eq!((p["fifteen"].args.clone(), p["fifteen"].options["h"].as_str()), (vec!["astar".to_string()], "h"));
    }

    #[test]
    fn a_command_without_the_three_options_is_no_preset() {
        assert!(presets(&["`ds explore scripts/x.ds --start S --next N`"]).is_empty());
    }
}
