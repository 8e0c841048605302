//! `ds explore FILE [ARGS] --start NAME --next NAME --goal NAME [--h NAME] [--view NAME]
//! [--symmetry NAME] [--port N] [--max-states N]` (docs/language.md, decisions 18 and 22): runs FILE, then serves
//! the state space reachable from the global (or expression) `--start` under the demon `--next`
//! to a browser on 127.0.0.1, until Ctrl-C. docs/explorer.md is the user's view.
//!
//! `problem` finds the named parts in the script, `explorer` answers the JSON API from a
//! `search::on_demand::OnDemand` explored breadth-first as far as the page asks (so ids are those of
//! a whole exploration). The server that answers a browser's HTTP requests with it, and the page,
//! are a native host's: crates/explore (the playground answers the same API in its worker).

mod api;
mod check;
mod explorer;
mod problem;
mod replay;

pub use api::reply;
pub use explorer::{Answer, ApiError, Explorer, REPLAY_STATES};
pub use problem::{Names, Parts};

pub const USAGE: &str =
    "usage: ds explore FILE [ARGS...] --start NAME|EXPR --next NAME --goal NAME [--h NAME] [--view NAME] [--symmetry NAME] [--port N] [--max-states N]";

/// The explorer's own options; the rest of the command line is ds's and the script's.
#[derive(Debug, Clone)]
pub struct Options {
    pub names: Names,
    pub port: u16,
    pub max_states: usize,
    /// `--help`: print the usage and stop.
    pub help: bool,
    /// Arguments that look like a misspelt option of the explorer (`--hh`), each with the
    /// option meant (`--h`): the command line says where they went.
    pub misspelt: Vec<(String, String)>,
}

/// The explorer's options, each followed by its value.
const FLAGS: [&str; 8] = ["--start", "--next", "--goal", "--h", "--view", "--symmetry", "--port", "--max-states"];

/// The most states the explorer stores unless `--max-states` says otherwise.
pub const MAX_STATES: usize = 1_000_000;

/// Takes the explorer's options out of the arguments after `explore`, wherever they are (up to
/// a `--`, after which everything is the script's); returns them and the other arguments.
pub fn take_options(args: Vec<String>) -> Result<(Options, Vec<String>), String> {
    let mut o = Options { names: Names::default(), port: 0, max_states: MAX_STATES, help: false, misspelt: Vec::new() };
    let (mut start, mut next, mut goal) = (None, None, None);
    let mut rest = Vec::new();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        if arg == "--" {
            rest.extend(args.by_ref());
            break;
        }
        if arg == "--help" {
            o.help = true;
            continue;
        }
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f.to_string(), Some(v.to_string())),
            _ => (arg.clone(), None),
        };
        if !FLAGS.contains(&flag.as_str()) {
            if let Some(near) = flag.strip_prefix("--").and_then(|_| ds_base::names::suggest(&flag, FLAGS)) {
                o.misspelt.push((flag.clone(), near));
            }
            rest.push(arg);
            continue;
        }
        let Some(value) = inline.or_else(|| args.next()) else {
            return Err(format!("{flag} needs a value"));
        };
        match flag.as_str() {
            "--start" => start = Some(value),
            "--next" => next = Some(value),
            "--goal" => goal = Some(value),
            "--h" => o.names.h = Some(value),
            "--view" => o.names.view = Some(value),
            "--symmetry" => o.names.symmetry = Some(value),
            "--port" => {
                o.port = value.parse().map_err(|_| format!("--port takes a port number 0-65535, not `{value}`"))?
            }
            _ => {
                o.max_states = value
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or_else(|| format!("--max-states takes a whole number > 0, not `{value}`"))?
            }
        }
    }
    if o.help {
        return Ok((o, rest));
    }
    match (start, next, goal) {
        (Some(s), Some(n), Some(g)) => (o.names.start, o.names.next, o.names.goal) = (s, n, g),
        _ => return Err("ds explore needs --start NAME, --next NAME and --goal NAME".to_string()),
    }
    Ok((o, rest))
}

/// The explorer of the script `session` has run (the playground's worker holds one too): the
/// names looked up, a `--start` expression evaluated, the start stored. The error's text
/// starts with `error`. The caller sets the deadline of the set-up (`Limits::deadline`).
pub fn open<'a>(
    session: &'a mut crate::session::Session,
    file: &str,
    names: &Names,
    max_states: usize,
) -> Result<Explorer<'a>, String> {
    // Errors of the explorer's own calls of the demons (and of a `--start` expression) point
    // at this line.
    let mut line = format!("ds explore {file} --start {} --next {} --goal {}", names.start, names.next, names.goal);
    for (flag, name) in [("--h", &names.h), ("--view", &names.view), ("--symmetry", &names.symmetry)] {
        if let Some(name) = name {
            line.push_str(&format!(" {flag} {name}"));
        }
    }
    let source = session.add_source("<command line>", &line);
    let span = ds_syntax::Span::new(source, 0, line.len());
    // The script's run had its limits; the explorer's requests have no step limit.
    session.interp.limits_mut().max_steps = None;
    let parts = Parts::find(&mut session.interp, names, span).map_err(|m| format!("error: {m}"))?;
    Explorer::new(&mut session.interp, parts, names.clone(), file, max_states, span).map_err(|message| {
        // A rendered script error says `error:` itself.
        let prefix = if message.starts_with("error") { "" } else { "error: " };
        format!("{prefix}{message}")
    })
}
