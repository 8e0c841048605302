//! A world state drawn as SVG for the notebook. Nodes are laid out in rows by the longest
//! chain of edges leading to them, so that what points at something sits above it (the wolf
//! puzzle's farmer, wolf, goat and cabbage above the two banks they are `on`); a cycle is cut
//! where a depth-first walk comes back, and a pair of edges both ways (`$1 link $2`,
//! `$2 link $1`) is one line without arrows that does not order its nodes. True edges are
//! black arrows, False ones red and dashed, Undef and fuzzy ones grey and dashed, as in the
//! DOT export (`World::graph_dot`). Edges to other graphs' nodes (`isa Sen=>$human`, the
//! classes) are left to the text beside the picture: they would hang every node on a few.

use ds_core::value::display::logic_pair;
use ds_core::world::{FactKey, Graph, World};
use std::fmt::Write;

/// Larger graphs are not drawn: their text stays beside.
const MAX_NODES: usize = 150;
const MAX_EDGES: usize = 600;

const COLUMN: f64 = 110.0;
const ROW: f64 = 110.0;
const MARGIN: f64 = 30.0;
const NODE_H: f64 = 26.0;

pub(super) struct Edge {
    pub from: usize,
    pub to: usize,
    pub label: String,
    pub style: &'static str,
    /// Drawn for itself and its reverse.
    pub both: bool,
}

/// The SVG of a graph state, or `None` when it is too large to draw legibly.
pub fn graph_svg(world: &World, g: &Graph) -> Option<String> {
    let class = world.class(g.class);
    let ids: Vec<u32> = class.ids().collect();
    if ids.len() > MAX_NODES {
        return None;
    }
    let first = class.first();
    let labels: Vec<String> = ids.iter().map(|&id| class.name(id).trim_start_matches(['$', '@']).to_string()).collect();
    let mut edges = Vec::new();
    for f in g.facts.iter() {
        if edges.len() >= MAX_EDGES {
            return None;
        }
        let (src, tgt) = (f.key.src(), f.key.tgt());
        if f.key.tgraph() != 0 || !class.contains(src) || !class.contains(tgt) {
            continue;
        }
        let back = FactKey::new(tgt, f.key.rel(), 0, src);
        let both = src != tgt && g.facts.contains(back) && g.facts.get(back) == f.value;
        if both && src > tgt {
            continue; // drawn with its reverse
        }
        let rel = world.relation_name(f.key.rel());
        let (label, style) = if f.value.is_true() {
            (rel.to_string(), "stroke=\"#222\"")
        } else if f.value.is_false() {
            (format!("!{rel}"), "stroke=\"#c0392b\" stroke-dasharray=\"5,3\"")
        } else {
            (format!("{rel}{}", logic_pair(f.value)), "stroke=\"#888\" stroke-dasharray=\"2,3\"")
        };
        edges.push(Edge { from: (src - first) as usize, to: (tgt - first) as usize, label, style, both });
    }
    let row = rows(labels.len(), &edges);
    Some(render(&g.name.to_string(), &labels, &edges, &row))
}

/// Each node's row: the longest chain of edges into it, over the edges that order nodes (not
/// loops, not pairs both ways, not the edges that close a cycle); the ends of a pair both ways
/// share the lower row.
fn rows(n: usize, edges: &[Edge]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    for e in edges.iter().filter(|e| e.from != e.to && !e.both) {
        out[e.from].push(e.to);
    }
    let order = acyclic(&mut out);
    let mut row = vec![0; n];
    for &v in order.iter().rev() {
        for &t in &out[v] {
            row[t] = row[t].max(row[v] + 1);
        }
    }
    // The two ends of a pair both ways side by side (the wolf puzzle's banks).
    for e in edges.iter().filter(|e| e.both) {
        let r = row[e.from].max(row[e.to]);
        row[e.from] = r;
        row[e.to] = r;
    }
    row
}

/// Drops the edges a depth-first walk finds going back to a node it is inside of; the nodes
/// in the order the walk finished them (a reversed topological order of what is left).
fn acyclic(out: &mut [Vec<usize>]) -> Vec<usize> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        New,
        Open,
        Done,
    }
    let n = out.len();
    let mut mark = vec![Mark::New; n];
    let mut finished = Vec::with_capacity(n);
    for root in 0..n {
        if mark[root] != Mark::New {
            continue;
        }
        // (node, next edge to look at): an explicit stack, as a chain may be long.
        let mut stack = vec![(root, 0)];
        mark[root] = Mark::Open;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if *next < out[v].len() {
                let t = out[v][*next];
                match mark[t] {
                    Mark::Open => {
                        out[v].remove(*next);
                    }
                    Mark::New => {
                        *next += 1;
                        mark[t] = Mark::Open;
                        stack.push((t, 0));
                    }
                    Mark::Done => *next += 1,
                }
            } else {
                mark[v] = Mark::Done;
                finished.push(v);
                stack.pop();
            }
        }
    }
    finished
}

/// The picture of nodes (by label) in their rows and the edges between them, under a title.
pub(super) fn render(name: &str, labels: &[String], edges: &[Edge], row: &[usize]) -> String {
    let mut at = vec![(0.0, 0.0); labels.len()];
    let mut per_row: Vec<usize> = Vec::new();
    for (i, &r) in row.iter().enumerate() {
        if per_row.len() <= r {
            per_row.resize(r + 1, 0);
        }
        at[i] = (MARGIN + COLUMN / 2.0 + per_row[r] as f64 * COLUMN, MARGIN + 20.0 + r as f64 * ROW);
        per_row[r] += 1;
    }
    // Centre each row under the widest.
    let widest = per_row.iter().copied().max().unwrap_or(1).max(1);
    for (i, &r) in row.iter().enumerate() {
        at[i].0 += (widest - per_row[r]) as f64 * COLUMN / 2.0;
    }
    let width = 2.0 * MARGIN + widest as f64 * COLUMN;
    let height = 2.0 * MARGIN + 20.0 + per_row.len().max(1) as f64 * ROW - ROW / 2.0;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#444\"/></marker></defs>\n\
         <text x=\"{MARGIN}\" y=\"18\" font-weight=\"bold\">{}</text>\n",
        escape(name)
    );
    for (k, e) in edges.iter().enumerate() {
        edge(&mut s, e, at[e.from], at[e.to], k);
    }
    for (label, &(x, y)) in labels.iter().zip(&at) {
        let w = 16.0 + 7.0 * label.chars().count() as f64;
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"{NODE_H}\" rx=\"12\" fill=\"#fdf6e3\" stroke=\"#2b3a55\"/>\
             <text x=\"{x}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            x - w / 2.0,
            y - NODE_H / 2.0,
            y + 4.0,
            escape(label)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// One edge: an arrow between the nodes' borders, or a loop above a node; the label at the
/// middle, shifted by the edge's number so that edges between the same nodes stay readable.
fn edge(s: &mut String, e: &Edge, (x1, y1): (f64, f64), (x2, y2): (f64, f64), k: usize) {
    let shift = (k % 3) as f64 * 10.0 - 10.0;
    if e.from == e.to {
        let _ = writeln!(
            s,
            "<path d=\"M{} {} C{} {} {} {} {} {}\" fill=\"none\" {} marker-end=\"url(#arrow)\"/>\
             <text x=\"{x1}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
            x1 - 8.0,
            y1 - NODE_H / 2.0,
            x1 - 25.0,
            y1 - 50.0,
            x1 + 25.0,
            y1 - 50.0,
            x1 + 8.0,
            y1 - NODE_H / 2.0,
            e.style,
            y1 - 42.0,
            escape(&e.label)
        );
        return;
    }
    let (dx, dy) = (x2 - x1, y2 - y1);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    // Stop at the node's border, roughly: its half height vertically, more sideways.
    let cut = |ux: f64, uy: f64| (NODE_H / 2.0 + 2.0) / (uy.abs() + 0.3 * ux.abs()).max(0.3);
    let (ux, uy) = (dx / len, dy / len);
    let c = cut(ux, uy).min(len / 3.0);
    let (ax, ay, bx, by) = (x1 + ux * c, y1 + uy * c, x2 - ux * c, y2 - uy * c);
    let arrow = if e.both { "" } else { " marker-end=\"url(#arrow)\"" };
    let _ = writeln!(
        s,
        "<line x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" {}{arrow}/>\
         <text x=\"{:.1}\" y=\"{:.1}\" text-anchor=\"middle\" fill=\"#555\">{}</text>",
        e.style,
        (ax + bx) / 2.0 + shift,
        (ay + by) / 2.0 + shift / 2.0,
        escape(&e.label)
    );
}

pub fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_points_at_a_node_sits_above_it() {
        let e = |from, to| Edge { from, to, label: "on".into(), style: "", both: false };
        // 0 and 1 point at 2, which points at 3; 0 also points at 3 directly.
        let r = rows(4, &[e(0, 2), e(1, 2), e(2, 3), e(0, 3)]);
        assert_eq!(r, vec![0, 0, 1, 2]);
        // A cycle is cut where the walk from 0 comes back to it.
        assert_eq!(rows(3, &[e(0, 1), e(1, 2), e(2, 0)]), vec![0, 1, 2]);
        // A pair both ways orders nothing.
        let pair = Edge { both: true, ..e(0, 1) };
        assert_eq!(rows(3, &[pair, e(2, 1)]), vec![1, 1, 0]);
    }

    #[test]
    fn labels_are_escaped() {
        let svg = render("G<1>", &["a&b".into()], &[], &[0]);
        assert!(svg.contains("G&lt;1&gt;") && svg.contains("a&amp;b"));
    }
}
