//! Tab completion: the words the session knows, matched against the word at the cursor. After
//! `X.` it offers the methods for the kind of value X holds now, when X is a variable.

use super::commands::COMMANDS;
use ds_core::builtins::{self, Receivers};
use ds_core::session::Session;
use rustc_hash::FxHashMap;

/// Everything a completion can offer, gathered from the session after each entry.
#[derive(Debug, Default, Clone)]
pub struct Names {
    /// Keywords, functions, modules, variables, demons, nodes and edge types.
    words: Vec<String>,
    /// Methods and edge types (an edge type is also a method: `X.isa(C)`).
    methods: Vec<String>,
    /// Each method with the kinds of value it works on.
    typed_methods: Vec<(String, Receivers)>,
    /// The kind of value each top-level variable (and `GRAPH`) holds now.
    kinds: FxHashMap<String, Receivers>,
    /// `Math.sqrt` and friends, whole.
    members: Vec<String>,
    nodes: Vec<String>,
    edges: Vec<String>,
}

impl Names {
    pub fn from_session(session: &Session) -> Names {
        let nodes: Vec<String> = session.interp.compiler.node_names().map(|n| n.to_string()).collect();
        let edges: Vec<String> =
            session.interp.world.relations.iter().filter(|r| !r.is_empty()).map(|r| r.to_string()).collect();
        let (members, functions): (Vec<&str>, Vec<&str>) = builtins::function_names().partition(|f| f.contains('.'));
        let mut words: Vec<String> = ds_syntax::words::completions().chain(functions).map(str::to_string).collect();
        words.extend(members.iter().filter_map(|m| m.split_once('.')).map(|(module, _)| module.to_string()));
        words.extend(session.interp.compiler.top_level_names().map(|n| n.to_string()));
        words.extend(session.interp.compiler.demons.keys().map(|n| n.to_string()));
        words.extend(nodes.iter().chain(&edges).cloned());
        let mut methods: Vec<String> = builtins::method_names().map(str::to_string).collect();
        methods.extend(edges.iter().cloned());
        let typed_methods = builtins::methods().map(|(b, on)| (b.name.to_string(), on)).collect();
        Names {
            words: sorted(words),
            methods: sorted(methods),
            typed_methods,
            kinds: kinds(session),
            members: sorted(members.into_iter().map(str::to_string).collect()),
            nodes: sorted(nodes),
            edges: sorted(edges),
        }
    }

    /// The start of the word at `pos` and the words that can replace it.
    pub fn complete(&self, line: &str, pos: usize) -> (usize, Vec<String>) {
        let start = word_start(line, pos);
        let prefix = &line[start..pos];
        let before = &line[..start];
        let candidates = if line.trim_start().starts_with(':') && !before.trim_start().contains(' ') {
            let colon = before.rfind(':').unwrap_or(0);
            return (colon, matching(COMMANDS.iter().map(|c| format!(":{}", c.0)), &line[colon..pos]));
        } else if let Some(object) = before.strip_suffix('.') {
            self.after_dot(object, prefix)
        } else if let Some(name) = prefix.strip_prefix('@') {
            matching(self.edges.iter().map(|e| format!("@{e}")), &format!("@{name}"))
        } else if prefix.starts_with('$') {
            let dollar = self.nodes.iter().map(|n| if n.starts_with('$') { n.clone() } else { format!("${n}") });
            matching(dollar, prefix)
        } else if prefix.is_empty() {
            Vec::new()
        } else {
            matching(self.words.iter().cloned(), prefix)
        };
        (start, candidates)
    }

    /// After `Math.` a module's members; after a variable the methods for what it holds (and
    /// for a graph its nodes, for a node or graph the edge types); else every method and edge.
    fn after_dot(&self, object: &str, prefix: &str) -> Vec<String> {
        let word = &object[word_start(object, object.len())..];
        let members: Vec<String> =
            self.members.iter().filter_map(|m| m.strip_prefix(word)?.strip_prefix('.')).map(str::to_string).collect();
        if !word.is_empty() && !members.is_empty() {
            return matching(members.into_iter(), prefix);
        }
        let Some(&kind) = self.kinds.get(word) else {
            return matching(self.methods.iter().cloned(), prefix);
        };
        let mut offered: Vec<String> =
            self.typed_methods.iter().filter(|(_, on)| on.includes(kind)).map(|(m, _)| m.clone()).collect();
        if kind.includes(Receivers::GRAPH.or(Receivers::NODE)) {
            offered.extend(self.edges.iter().cloned());
        }
        if kind == Receivers::GRAPH {
            offered.extend(self.nodes.iter().cloned());
        }
        matching(offered.into_iter(), prefix)
    }
}

/// What each top-level variable holds now, by kind; `GRAPH` too.
fn kinds(session: &Session) -> FxHashMap<String, Receivers> {
    let interp = &session.interp;
    let mut kinds = FxHashMap::default();
    for name in interp.compiler.top_level_names() {
        let slot = interp.compiler.top_level_slot(name);
        let value = slot.and_then(|s| interp.globals.get(s as usize));
        if let Some(kind) = value.and_then(Receivers::of) {
            kinds.insert(name.to_string(), kind);
        }
    }
    if let Some(kind) = Receivers::of(&interp.graph) {
        kinds.insert("GRAPH".to_string(), kind);
    }
    kinds
}

/// Where the name that ends at `pos` begins.
fn word_start(line: &str, pos: usize) -> usize {
    line[..pos]
        .char_indices()
        .rev()
        .take_while(|(_, c)| c.is_alphanumeric() || matches!(c, '_' | '#' | '$' | '@'))
        .last()
        .map_or(pos, |(i, _)| i)
}

fn matching(candidates: impl Iterator<Item = String>, prefix: &str) -> Vec<String> {
    sorted(candidates.filter(|c| c.starts_with(prefix)).collect())
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v.dedup();
    v
}
