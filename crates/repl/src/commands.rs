//! The REPL's `:` commands. A command may be shortened to any unique prefix (`:q`, `:g`).

use super::backend::{Backend, Reply};
use ds_core::session::Session;
use ds_core::value::Value;
use std::io;
use std::path::Path;

/// Name, arguments and what it does, for `:help` and completion.
pub const COMMANDS: [(&str, &str, &str); 7] = [
    ("help", "[NAME]", "show this help, or how to call the builtin NAME and what it does"),
    ("load", "FILE", "run FILE in this session"),
    ("graph", "[G]", "print graph G (default: the current GRAPH)"),
    ("dot", "[G] [FILE]", "Graphviz text of G, to FILE (ending in .dot or .gv) if given"),
    ("vars", "", "list the variables and demons"),
    ("reset", "", "forget everything and start afresh"),
    ("quit", "", "leave the REPL (Ctrl-D does the same)"),
];

const HELP_FOOTER: &str = "\
Enter code as in a script; an entry that is not finished (an open bracket, a `def`
without body, a trailing operator) continues on the next line. An expression entered
alone prints its value; a call prints its value unless it is Undef or None.
Ctrl-C stops a running evaluation or drops the entry being typed; Ctrl-D leaves.
";

impl Backend {
    /// Runs `:command args` (without the colon).
    pub(super) fn command(&mut self, line: &str, reply: &mut Reply) {
        let line = line.trim();
        let (word, args) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let args = args.trim();
        let Some(name) = resolve(word, reply) else { return };
        match name {
            "help" if !args.is_empty() => self.help_on(args, reply),
            "help" => self.help(),
            "load" => self.load(args, reply),
            "graph" => self.graph(args, reply),
            "dot" => self.dot(args, reply),
            "vars" => self.vars(),
            "reset" => self.reset(),
            "quit" => reply.quit = true,
            other => unreachable!("`:{other}` is in COMMANDS but not handled"),
        }
    }

    fn help(&mut self) {
        let mut text = String::from("Commands:\n");
        for (name, args, what) in COMMANDS {
            let usage = format!(":{name} {args}");
            text.push_str(&format!("  {usage:<18} {what}\n"));
        }
        text.push_str(HELP_FOOTER);
        self.write(&text);
    }

    /// `:help NAME`: the usage and description of a builtin (each body of a method), the text
    /// the language server shows on hover.
    fn help_on(&mut self, name: &str, reply: &mut Reply) {
        let registry = ds_core::builtins::registry();
        let mut found: Vec<&ds_core::builtins::Builtin> = registry.function(name).into_iter().collect();
        // `push` or `A.push`: a method (`Math.sqrt` is a function).
        if let Some(set) = registry.method(name.rsplit('.').next().unwrap_or(name)).filter(|_| found.is_empty()) {
            found.extend(set.entries().map(|(b, _)| b));
        }
        let mut text: String = found.iter().map(|b| format!("{}\n    {}\n", b.usage, b.doc)).collect();
        if let Some((_, doc)) = registry.constants().find(|c| c.0 == name) {
            text.push_str(&format!("{name}\n    {doc}\n"));
        }
        if text.is_empty() {
            let hint = help_suggestion(name).map_or(String::new(), |s| format!("; did you mean {s}?"));
            return reply.error(format!("no builtin is named `{name}`{hint}"));
        }
        self.write(&text);
    }

    fn load(&mut self, path: &str, reply: &mut Reply) {
        if path.is_empty() {
            return reply.error("`:load` needs a file name");
        }
        let files = self.session.interp.files();
        let real = match files.script_path(Path::new(path)) {
            Ok(real) => real,
            Err(e) => return reply.error(e),
        };
        let src = match files.read_text(&real, ds_core::value::MAX_TEXT) {
            Ok(src) => src,
            Err(e) => return reply.error(format!("cannot read {path}: {e}")),
        };
        // Like `ds FILE`: `#include`s are read relative to the file.
        let file = self.session.add_source(path, &src);
        let base = Path::new(path).parent().map(Path::to_path_buf);
        match self.session.parse_with_includes(file, &src, base.as_deref(), 0) {
            Ok(stmts) => {
                self.run_guarded(&stmts, reply);
            }
            Err(diags) => self.report(&diags, reply),
        }
    }

    /// The graph an argument names (any expression), or the current GRAPH.
    fn graph_arg(&mut self, arg: &str, reply: &mut Reply) -> Option<Value> {
        let value = if arg.is_empty() { self.session.interp.graph.clone() } else { self.evaluate(arg, reply)? };
        if matches!(value, Value::Graph(_)) {
            return Some(value);
        }
        let what = if arg.is_empty() { "GRAPH" } else { arg };
        reply.error(format!("{what} is {}, not a graph", value.described()));
        None
    }

    fn graph(&mut self, arg: &str, reply: &mut Reply) {
        if let Some(g) = self.graph_arg(arg, reply) {
            self.print_value(&g);
        }
    }

    fn dot(&mut self, args: &str, reply: &mut Reply) {
        let words: Vec<&str> = args.split_whitespace().collect();
        let is_file = |w: &str| w.ends_with(".dot") || w.ends_with(".gv");
        let (graph, file) = match words.as_slice() {
            [] => ("", None),
            [one] if is_file(one) => ("", Some(*one)),
            [one] => (*one, None),
            [g, f] => (*g, Some(*f)),
            _ => return reply.error("usage: :dot [G] [FILE]"),
        };
        let Some(Value::Graph(g)) = self.graph_arg(graph, reply) else { return };
        let text = self.session.interp.world.graph_dot(&g.borrow(), &Default::default());
        match file {
            None => self.write(&text),
            Some(path) => {
                let files = self.session.interp.files_mut();
                let written = files.data_path(path).and_then(|p| files.write(&p, &text).map_err(|e| e.to_string()));
                match written {
                    Ok(()) => {
                        let name = g.borrow().name.clone();
                        let lines = text.lines().count();
                        self.write(&format!("wrote graph {name} to {path} ({lines} lines of Graphviz DOT)\n"));
                    }
                    Err(e) => reply.error(format!("cannot write {path}: {e}")),
                }
            }
        }
    }

    /// One line per top-level variable (long values cut short), then the demons.
    fn vars(&mut self) {
        let mut names: Vec<_> = self.session.interp.compiler.top_level_names().cloned().collect();
        names.sort();
        let mut text = String::new();
        for name in names {
            let Some(slot) = self.session.interp.compiler.top_level_slot(&name) else { continue };
            let value = self.session.interp.globals.get(slot as usize).cloned().unwrap_or(Value::None);
            text.push_str(&format!("{name} = {}\n", self.preview(&value)));
        }
        let demons = self.demon_signatures();
        if !demons.is_empty() {
            text.push_str(&format!("demons: {}\n", demons.join(", ")));
        }
        self.write(&text);
    }

    fn preview(&self, value: &Value) -> String {
        const WIDTH: usize = 70;
        if let Value::Graph(g) = value {
            let g = g.borrow();
            let edges = g.facts.len();
            let plural = if edges == 1 { "" } else { "s" };
            return format!("graph {} ({edges} edge{plural})", cut(&g.name.to_str(), WIDTH / 2));
        }
        let text = self.session.interp.text(value);
        let first = text.lines().next().unwrap_or("");
        if first.len() < text.trim_end().len() {
            return format!("{} ...", cut(first, WIDTH));
        }
        cut(first, WIDTH)
    }

    /// `name(params)` of every demon with a body, sorted by name.
    pub(super) fn demon_signatures(&self) -> Vec<String> {
        let compiler = &self.session.interp.compiler;
        let mut sigs: Vec<String> = compiler
            .demons
            .iter()
            .filter_map(|(name, sig)| {
                let code = compiler.demon_code.get(sig.id as usize)?.as_ref()?;
                Some(format!("{name}({})", code.param_names.join(", ")))
            })
            .collect();
        sigs.sort();
        sigs
    }

    /// A new session; the output, the script arguments, the limits, the files (and `--sandbox`),
    /// the Ctrl-C flag and how values are shown (a notebook's drawings) stay.
    fn reset(&mut self) {
        let old = &mut self.session.interp;
        let out = std::mem::replace(&mut old.out, Box::new(io::sink()));
        let mut fresh = Session::new(out);
        #[cfg(feature = "terminal")]
        ds_native::lend(&mut fresh.interp);
        fresh.interp.args = std::mem::take(&mut old.args);
        *fresh.interp.limits_mut() = old.limits().clone();
        fresh.interp.interrupt = old.interrupt.clone();
        fresh.interp.script_dir = old.script_dir.take();
        fresh.interp.set_files(old.files().boxed_clone());
        fresh.interp.status_line = old.status_line;
        fresh.interp.show = old.show.take();
        fresh.interp.warnings = std::mem::take(&mut old.warnings).for_new_session();
        self.session = fresh;
    }
}

/// The command `word` names: itself or the only command it is a prefix of.
fn resolve(word: &str, reply: &mut Reply) -> Option<&'static str> {
    let names = COMMANDS.map(|c| c.0);
    if let Some(exact) = names.iter().find(|n| **n == word) {
        return Some(exact);
    }
    let matches: Vec<&str> = names.into_iter().filter(|n| !word.is_empty() && n.starts_with(word)).collect();
    match matches.as_slice() {
        [only] => Some(only),
        [] => {
            reply.error(format!("unknown command `:{word}`; `:help` lists the commands"));
            None
        }
        _ => {
            reply.error(format!("`:{word}` is short for more than one command: :{}", matches.join(", :")));
            None
        }
    }
}

/// `text` up to `width` characters, with `...` when cut.
fn cut(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width).collect();
    format!("{kept}...")
}

/// What `:help NAME` probably meant: the functions of a module whose last part is NAME
/// (`bfs`: `Search.bfs`), or else the closest name of a builtin (issue 41).
fn help_suggestion(name: &str) -> Option<String> {
    let in_modules: Vec<String> = ds_core::builtins::function_names()
        .filter(|f| f.rsplit_once('.').is_some_and(|(_, last)| last == name))
        .map(|f| format!("`{f}`"))
        .collect();
    if !in_modules.is_empty() {
        return Some(in_modules.join(" or "));
    }
    let names = ds_core::builtins::function_names()
        .chain(ds_core::builtins::method_names())
        .chain(ds_core::builtins::constants().map(|c| c.0));
    ds_base::names::suggest(name, names).map(|s| format!("`{s}`"))
}
