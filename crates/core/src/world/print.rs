//! Text forms of a graph: the reference's dump (`out G`) and Graphviz DOT.

use super::{Fact, Graph, World};
use crate::value::display::{logic_pair, Cut};
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;
use std::fmt::Write;

/// What `G.json(...)` shows besides the edges: node values, and incoming edges (`i_rel`).
#[derive(Debug, Clone, Copy)]
pub struct DumpOptions {
    pub values: bool,
    pub inverse: bool,
}

impl DumpOptions {
    /// The dump of `out G`: values shown, incoming edges not.
    pub const OUT: DumpOptions = DumpOptions { values: true, inverse: false };
}

/// What `G.dot(file, rels, loops, mode)` draws: only the given relations, and loops or not.
#[derive(Debug, Clone, Default)]
pub struct DotOptions {
    pub relations: Option<Vec<u32>>,
    pub hide_loops: bool,
}

impl World {
    /// Runs `f` as part of printing a graph (see `World::printing`).
    fn printing<T>(&self, f: impl FnOnce() -> T) -> T {
        self.printing.set(self.printing.get() + 1);
        let out = f();
        self.printing.set(self.printing.get() - 1);
        out
    }

    /// The printed form of the value stored on a node (None if there is none).
    fn node_value_text(&self, g: &Graph, id: u32) -> Option<String> {
        g.data.values.get(&id).map(|v| crate::value::display::to_text(v, self))
    }

    /// How an edge target prints inside `[...]`: `t`, `!t`, `t(p0,p1)`, `Graph.t`; with values
    /// shown, a target holding a value is followed by it: `t(5)`.
    fn target_text(&self, g: &Graph, f: &Fact, values: bool) -> String {
        let mut name = if f.key.tgraph() == 0 {
            self.class(g.class).name(f.key.tgt()).to_string()
        } else {
            self.external_name(f.key.tgraph(), f.key.tgt())
        };
        if values {
            let value = match f.key.tgraph() {
                0 => self.node_value_text(g, f.key.tgt()),
                uid => self.linked_graph(uid).and_then(|t| self.node_value_text(&t.borrow(), f.key.tgt())),
            };
            if let Some(v) = value {
                let _ = write!(name, "({v})");
            }
        }
        marked(name, f.value)
    }

    /// `G.brief(rels...)`: the facts on one line, `a on b, c !on d, e on(0.2,0.8) f`, in the
    /// order nodes were declared, without the relations in `leave_out`.
    pub fn graph_brief(&self, g: &Graph, leave_out: &[u32]) -> String {
        let class = self.class(g.class);
        let sentences: Vec<String> = g
            .facts
            .iter()
            .filter(|f| !leave_out.contains(&f.key.rel()))
            .map(|f| {
                let to = match f.key.tgraph() {
                    0 => class.name(f.key.tgt()).to_string(),
                    uid => self.external_name(uid, f.key.tgt()),
                };
                let rel = self.relation_name(f.key.rel());
                let rel = match f.value {
                    v if v.is_true() => rel.to_string(),
                    v if v.is_false() => format!("!{rel}"),
                    v => format!("{rel}{}", logic_pair(v)),
                };
                format!("{} {rel} {to}", class.name(f.key.src()))
            })
            .collect();
        sentences.join(", ")
    }

    /// The dump of section 6.10 of the reference: nodes by name, relations in declaration order.
    pub fn graph_text(&self, g: &Graph) -> String {
        self.graph_dump(g, DumpOptions::OUT)
    }

    /// The dump, with or without node values and incoming edges (`G.json(values, inverse)`).
    pub fn graph_dump(&self, g: &Graph, opts: DumpOptions) -> String {
        self.graph_dump_within(g, opts, usize::MAX, &mut |_| false).unwrap_or_else(|_| format!("{} {{ ... }}", g.name))
    }

    /// `graph_dump`, refused once the text would pass `room` bytes, and given up when `stop`
    /// says so (asked every 4096 nodes): a world of ten million nodes must not print 100 MB
    /// past `--timeout`.
    pub fn graph_dump_within(
        &self,
        g: &Graph,
        opts: DumpOptions,
        room: usize,
        stop: &mut dyn FnMut(u64) -> bool,
    ) -> Result<String, Cut> {
        if self.printing.get() > 0 {
            return Ok(g.name.to_string());
        }
        let class = self.class(g.class);
        let mut ids: Vec<_> = class.ids().collect();
        ids.sort_by(|a, b| class.name(*a).as_bytes().cmp(class.name(*b).as_bytes()));
        // Incoming edges by target, gathered once (looking them up per node was quadratic).
        let mut incoming: FxHashMap<u32, Vec<Fact>> = FxHashMap::default();
        if opts.inverse {
            for f in g.facts.iter().filter(|f| f.key.tgraph() == 0) {
                incoming.entry(f.key.tgt()).or_default().push(f);
            }
        }
        let mut text = format!("{} {{\n", g.name);
        let mut told = 0;
        self.printing(|| {
            for (i, id) in ids.into_iter().enumerate() {
                if i > 0 {
                    text.push_str(", \n");
                }
                let into = incoming.get(&id).map_or(&[][..], |v| v.as_slice());
                text.push_str(&self.node_text(g, id, opts, into));
                if text.len() > room {
                    return Err(Cut::TooLong);
                }
                // The work since the last time: a unit per node and one per 256 bytes.
                if i % 4096 == 4095 {
                    if stop((text.len() - told) as u64 / 256 + 4096) {
                        return Err(Cut::Stopped);
                    }
                    told = text.len();
                }
            }
            Ok(())
        })?;
        text.push_str("\n}\n");
        if text.len() > room {
            return Err(Cut::TooLong);
        }
        Ok(text)
    }

    /// One node: `   n {}`, `   n {  rel: [..]   }` for a single relation, else one line per
    /// relation, after a `__value__` line when the node holds a value, and with `i_rel` lines
    /// for incoming edges when asked.
    fn node_text(&self, g: &Graph, id: u32, opts: DumpOptions, incoming: &[Fact]) -> String {
        let name = self.class(g.class).name(id);
        let mut groups = self.groups(g.facts.outgoing(id), |f| self.target_text(g, f, opts.values), "");
        let value = if opts.values { self.node_value_text(g, id) } else { None };
        if opts.inverse {
            let source = |f: &Fact| marked(self.class(g.class).name(f.key.src()).to_string(), f.value);
            groups.extend(self.groups(incoming.iter().copied(), source, "i_"));
        } else if value.is_none() {
            match groups.len() {
                0 => return format!("   {name} {{}}"),
                1 => return format!("   {name} {{  {}   }}", groups[0]),
                _ => {}
            }
        }
        let mut s = format!("   {name}{{\n");
        if let Some(v) = value {
            let _ = writeln!(s, "      __value__: {v},");
        }
        for grp in groups {
            let _ = writeln!(s, "      {grp},");
        }
        s.push_str("   }");
        s
    }

    /// `rel: [t1,t2]` for each run of facts of one relation (facts come sorted by relation),
    /// the items sorted by name.
    fn groups(&self, facts: impl Iterator<Item = Fact>, item: impl Fn(&Fact) -> String, prefix: &str) -> Vec<String> {
        let mut groups: Vec<(u32, Vec<String>)> = Vec::new();
        for f in facts {
            let text = item(&f);
            match groups.iter_mut().find(|(rel, _)| *rel == f.key.rel()) {
                Some((_, items)) => items.push(text),
                None => groups.push((f.key.rel(), vec![text])),
            }
        }
        groups.sort_by_key(|(rel, _)| *rel);
        groups
            .into_iter()
            .map(|(rel, mut items)| {
                items.sort_by(|a, b| a.trim_start_matches('!').cmp(b.trim_start_matches('!')));
                format!("{prefix}{}: [{}]", self.relation_name(rel), items.join(","))
            })
            .collect()
    }

    /// Graphviz text, laid out by petgraph's DOT writer: nodes labelled by their value or their
    /// name (without `$`), nodes of another world's graph as boxes, False edges red, fuzzy edges
    /// dashed, and a pair of edges both ways (same relation and value) as one line without
    /// arrows.
    pub fn graph_dot(&self, g: &Graph, opts: &DotOptions) -> String {
        let class = self.class(g.class);
        let mut pg: DiGraph<DotNode, DotEdge> = DiGraph::new();
        let local: Vec<NodeIndex> = class
            .ids()
            .map(|id| {
                let label = self.printing(|| self.node_value_text(g, id));
                let label = label.unwrap_or_else(|| class.name(id).trim_start_matches(['$', '@']).to_string());
                pg.add_node(DotNode { label, external: false })
            })
            .collect();
        let mut external: FxHashMap<(u32, u32), NodeIndex> = FxHashMap::default();
        let first = class.first();
        for f in g.facts.iter() {
            if !class.contains(f.key.src()) || (f.key.tgraph() == 0 && !class.contains(f.key.tgt())) {
                continue; // cannot happen: deleting nodes deletes their edges
            }
            if opts.relations.as_ref().is_some_and(|r| !r.contains(&f.key.rel()))
                || (opts.hide_loops && f.key.tgraph() == 0 && f.key.src() == f.key.tgt())
            {
                continue;
            }
            let both_ways = f.key.tgraph() == 0 && f.key.src() != f.key.tgt() && {
                let back = super::FactKey::new(f.key.tgt(), f.key.rel(), 0, f.key.src());
                g.facts.contains(back) && g.facts.get(back) == f.value
            };
            if both_ways && f.key.src() > f.key.tgt() {
                continue; // drawn with its reverse
            }
            let to = match f.key.tgraph() {
                0 => local[(f.key.tgt() - first) as usize],
                uid => *external.entry((uid, f.key.tgt())).or_insert_with(|| {
                    pg.add_node(DotNode { label: self.external_name(uid, f.key.tgt()), external: true })
                }),
            };
            let rel = self.relation_name(f.key.rel());
            let mut edge = if f.value.is_true() {
                DotEdge { label: rel.to_string(), style: String::new() }
            } else if f.value.is_false() {
                DotEdge { label: format!("!{rel}"), style: ", color = red".into() }
            } else {
                DotEdge { label: format!("{rel}{}", logic_pair(f.value)), style: ", style = dashed".into() }
            };
            if both_ways {
                edge.style.push_str(", dir = none");
            }
            pg.add_edge(local[(f.key.src() - first) as usize], to, edge);
        }
        let edge_attrs = |_: &DiGraph<DotNode, DotEdge>, e: petgraph::graph::EdgeReference<DotEdge>| {
            let w = e.weight();
            format!("label = \"{}\"{}", escape_dot(&w.label), w.style)
        };
        let node_attrs = |_: &DiGraph<DotNode, DotEdge>, (_, n): (NodeIndex, &DotNode)| {
            let shape = if n.external { ", shape = box" } else { "" };
            format!("label = \"{}\"{shape}", escape_dot(&n.label))
        };
        let config = [Config::NodeNoLabel, Config::EdgeNoLabel];
        format!("{:?}", Dot::with_attr_getters(&pg, &config, &edge_attrs, &node_attrs))
    }
}

/// A name with the mark of an edge's truth: `t` True, `!t` False, `t(p0,p1)` anything else.
fn marked(name: String, v: crate::value::Logic) -> String {
    if v.is_true() {
        name
    } else if v.is_false() {
        format!("!{name}")
    } else {
        format!("{name}{}", logic_pair(v))
    }
}

#[derive(Debug)]
struct DotNode {
    label: String,
    external: bool,
}

#[derive(Debug)]
struct DotEdge {
    label: String,
    style: String,
}

fn escape_dot(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
