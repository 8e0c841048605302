//! Text forms of a graph: the reference's dump (`out G`) and Graphviz DOT.

use super::{Fact, Graph, World};
use crate::value::display::logic_pair;
use petgraph::dot::{Config, Dot};
use petgraph::graph::{DiGraph, NodeIndex};
use rustc_hash::FxHashMap;
use std::fmt::Write;

impl World {
    /// How an edge target prints inside `[...]`: `t`, `!t`, `t(p0,p1)`, `Graph.t`.
    fn target_text(&self, g: &Graph, f: &Fact) -> String {
        let name = if f.key.tgraph() == 0 {
            self.class(g.class).name(f.key.tgt()).to_string()
        } else {
            self.external_name(f.key.tgraph(), f.key.tgt())
        };
        if f.value.is_true() {
            name
        } else if f.value.is_false() {
            format!("!{name}")
        } else {
            format!("{name}{}", logic_pair(f.value))
        }
    }

    /// The dump of section 6.10 of the reference: nodes by name, relations in declaration order.
    pub fn graph_text(&self, g: &Graph) -> String {
        let class = self.class(g.class);
        let mut ids: Vec<_> = class.ids().collect();
        ids.sort_by(|a, b| class.name(*a).as_bytes().cmp(class.name(*b).as_bytes()));
        let mut parts = Vec::with_capacity(ids.len());
        for id in ids {
            parts.push(self.node_text(g, id));
        }
        format!("{} {{\n{}\n}}\n", g.name, parts.join(", \n"))
    }

    fn node_text(&self, g: &Graph, id: u32) -> String {
        let name = self.class(g.class).name(id);
        let out = g.facts.outgoing(id);
        let mut groups: Vec<(u32, Vec<String>)> = Vec::new();
        for f in out {
            let text = self.target_text(g, f);
            match groups.last_mut() {
                Some((rel, items)) if *rel == f.key.rel() => items.push(text),
                _ => groups.push((f.key.rel(), vec![text])),
            }
        }
        let group_text = |(rel, mut items): (u32, Vec<String>)| {
            items.sort_by(|a, b| a.trim_start_matches('!').cmp(b.trim_start_matches('!')));
            format!("{}: [{}]", self.relation_name(rel), items.join(","))
        };
        match groups.len() {
            0 => format!("   {name} {{}}"),
            1 => format!("   {name} {{  {}   }}", group_text(groups.pop().unwrap_or_default())),
            _ => {
                let mut s = format!("   {name}{{\n");
                for grp in groups {
                    let _ = writeln!(s, "      {},", group_text(grp));
                }
                s.push_str("   }");
                s
            }
        }
    }

    /// Graphviz text, laid out by petgraph's DOT writer: nodes of another world's graph are
    /// boxes, False edges red, fuzzy edges dashed.
    pub fn graph_dot(&self, g: &Graph) -> String {
        let class = self.class(g.class);
        let mut pg: DiGraph<DotNode, DotEdge> = DiGraph::new();
        let local: Vec<NodeIndex> = class
            .ids()
            .map(|id| {
                pg.add_node(DotNode {
                    label: class.name(id).trim_start_matches(['$', '@']).to_string(),
                    external: false,
                })
            })
            .collect();
        let mut external: FxHashMap<(u32, u32), NodeIndex> = FxHashMap::default();
        let first = class.first();
        for f in g.facts.iter() {
            if !class.contains(f.key.src()) || (f.key.tgraph() == 0 && !class.contains(f.key.tgt())) {
                continue; // cannot happen: deleting nodes deletes their edges
            }
            let to = match f.key.tgraph() {
                0 => local[(f.key.tgt() - first) as usize],
                uid => *external.entry((uid, f.key.tgt())).or_insert_with(|| {
                    pg.add_node(DotNode { label: self.external_name(uid, f.key.tgt()), external: true })
                }),
            };
            let rel = self.relation_name(f.key.rel());
            let edge = if f.value.is_true() {
                DotEdge { label: rel.to_string(), style: "" }
            } else if f.value.is_false() {
                DotEdge { label: format!("!{rel}"), style: ", color = red" }
            } else {
                DotEdge { label: format!("{rel}{}", logic_pair(f.value)), style: ", style = dashed" }
            };
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

#[derive(Debug)]
struct DotNode {
    label: String,
    external: bool,
}

#[derive(Debug)]
struct DotEdge {
    label: String,
    style: &'static str,
}

fn escape_dot(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
