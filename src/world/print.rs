//! Text forms of a graph: the reference's dump (`out G`) and Graphviz DOT.

use super::{Fact, Graph, World};
use crate::value::display::logic_pair;
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

    /// Graphviz text: nodes numbered from 0, False edges red, fuzzy edges dashed.
    pub fn graph_dot(&self, g: &Graph) -> String {
        let class = self.class(g.class);
        let mut s = String::from("digraph G{\n");
        for id in class.ids() {
            let label = class.name(id).trim_start_matches(['$', '@']);
            let _ = writeln!(s, "   {} [label=\"{}\"];", id - 1, escape_dot(label));
        }
        let mut externals = Vec::new();
        for f in g.facts.iter() {
            let rel = self.relation_name(f.key.rel());
            let to = if f.key.tgraph() == 0 {
                (f.key.tgt() - 1).to_string()
            } else {
                let ext = format!("\"{}\"", escape_dot(&self.external_name(f.key.tgraph(), f.key.tgt())));
                externals.push(ext.clone());
                ext
            };
            let (label, extra) = if f.value.is_true() {
                (rel.to_string(), String::new())
            } else if f.value.is_false() {
                (format!("!{rel}"), ", color=red".to_string())
            } else {
                (format!("{rel}{}", logic_pair(f.value)), ", style=dashed".to_string())
            };
            let _ = writeln!(s, "   {}->{} [label=\"{}\"{}];", f.key.src() - 1, to, escape_dot(&label), extra);
        }
        externals.sort();
        externals.dedup();
        for e in externals {
            let _ = writeln!(s, "   {e} [shape=box];");
        }
        s.push_str("}\n");
        s
    }
}

fn escape_dot(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
