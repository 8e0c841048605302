//! A state space drawn with each state's view (decision 22; docs/kernel.md): the states in
//! rows by their distance from the start, as `space` lays them out, each a box with its number
//! and its view: a picture (SVG) scaled into the box, a text (or a graph's facts) in a
//! fixed-width font, its lines kept. Arrows join the boxes' borders.

use super::draw::{escape, Edge};
use super::space::{depths, edges, title, MAX_STATES};
use ds_core::search::space::Space;
use rustc_hash::FxHashSet;
use std::fmt::Write;

/// A state's view, ready to draw.
pub enum Shown {
    /// SVG text and its width and height.
    Picture(String, f64, f64),
    Text(String),
}

impl Shown {
    /// A picture's text with the size its root element gives; one without a size (no
    /// `P.canvas`) is given 100 x 100, as it would otherwise fill the whole drawing.
    pub fn picture(svg: String) -> Shown {
        let head = svg.split('>').next().unwrap_or_default().to_string();
        let size = |name: &str| -> Option<f64> {
            let at = format!(" {name}=\"");
            head.split(&at).nth(1).and_then(|r| r.split('"').next()).and_then(|n| n.parse().ok())
        };
        match (size("width"), size("height")) {
            (Some(w), Some(h)) => Shown::Picture(svg, w, h),
            _ => Shown::Picture(svg.replacen("<svg ", "<svg width=\"100\" height=\"100\" ", 1), 100.0, 100.0),
        }
    }
}

const CELL_W: f64 = 150.0;
const CELL_H: f64 = 150.0;
const BOX_W: f64 = 124.0;
const BOX_H: f64 = 118.0;
/// The room for the view inside a box, under the state's number.
const VIEW_W: f64 = 112.0;
const VIEW_H: f64 = 92.0;
const MARGIN: f64 = 20.0;
const LINE: f64 = 14.0;

/// The picture of the first states of `space`, `views[i]` drawn in state i's box.
pub fn space_views_svg(space: &Space, views: &[Shown]) -> String {
    let shown = views.len().min(space.len()).min(MAX_STATES);
    let goals: FxHashSet<u32> = space.goals.iter().flatten().copied().collect();
    let edges = edges(space, shown);
    let at = places(&depths(shown, &edges));
    let width = at.iter().map(|p| p.0).fold(0.0, f64::max) + BOX_W / 2.0 + MARGIN;
    let height = at.iter().map(|p| p.1).fold(0.0, f64::max) + BOX_H / 2.0 + MARGIN;
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" font-family=\"sans-serif\" font-size=\"12\">\n\
         <defs><marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"#444\"/></marker></defs>\n\
         <text x=\"{MARGIN}\" y=\"18\" font-weight=\"bold\">{}</text>\n",
        escape(&title(space, shown))
    );
    for e in &edges {
        arrow(&mut s, e, at[e.from], at[e.to]);
    }
    for (id, view) in views.iter().take(shown).enumerate() {
        let (x, y) = at[id];
        let (left, top) = (x - BOX_W / 2.0, y - BOX_H / 2.0);
        let border =
            if goals.contains(&(id as u32)) { "stroke=\"#1e7b34\" stroke-width=\"3\"" } else { "stroke=\"#2b3a55\"" };
        let caption = if goals.contains(&(id as u32)) { format!("{id} (goal)") } else { id.to_string() };
        let _ = writeln!(
            s,
            "<rect x=\"{left}\" y=\"{top}\" width=\"{BOX_W}\" height=\"{BOX_H}\" rx=\"6\" fill=\"#fdf6e3\" {border}/>\
             <text x=\"{}\" y=\"{}\" font-weight=\"bold\">{caption}</text>",
            left + 5.0,
            top + 14.0
        );
        draw_view(&mut s, view, left + (BOX_W - VIEW_W) / 2.0, top + 20.0);
    }
    s.push_str("</svg>\n");
    s
}

/// Each state's box centre: rows by depth, each row centred under the widest.
fn places(row: &[usize]) -> Vec<(f64, f64)> {
    let rows = row.iter().copied().max().map_or(0, |r| r + 1);
    let mut per_row = vec![0usize; rows];
    for &r in row {
        per_row[r] += 1;
    }
    let widest = per_row.iter().copied().max().unwrap_or(1) as f64;
    let mut next = vec![0usize; rows];
    row.iter()
        .map(|&r| {
            let shift = (widest - per_row[r] as f64) * CELL_W / 2.0;
            let x = MARGIN + BOX_W / 2.0 + shift + next[r] as f64 * CELL_W;
            next[r] += 1;
            (x, 30.0 + BOX_H / 2.0 + r as f64 * CELL_H)
        })
        .collect()
}

/// A view in the area whose top left corner is (x, y), scaled down to fit.
fn draw_view(s: &mut String, view: &Shown, x: f64, y: f64) {
    match view {
        Shown::Picture(svg, w, h) => {
            let scale = (VIEW_W / w.max(1.0)).min(VIEW_H / h.max(1.0));
            let _ = writeln!(s, "<g transform=\"translate({x} {y}) scale({scale:.4})\">{}</g>", svg.trim_end());
        }
        Shown::Text(text) => {
            let lines: Vec<&str> = text.lines().collect();
            let widest = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as f64;
            let scale = (VIEW_W / (widest * 7.3).max(1.0)).min(VIEW_H / (lines.len() as f64 * LINE).max(1.0)).min(1.0);
            let _ = write!(
                s,
                "<g transform=\"translate({x} {y}) scale({scale:.4})\"><text font-family=\"monospace\" font-size=\"12\" xml:space=\"preserve\">"
            );
            for line in lines {
                let _ = write!(s, "<tspan x=\"0\" dy=\"{LINE}\">{}</tspan>", escape(line));
            }
            s.push_str("</text></g>\n");
        }
    }
}

/// An edge between two boxes, from border to border; with an arrow head unless it goes both
/// ways.
fn arrow(s: &mut String, e: &Edge, (x1, y1): (f64, f64), (x2, y2): (f64, f64)) {
    let (dx, dy) = (x2 - x1, y2 - y1);
    if e.from == e.to || (dx == 0.0 && dy == 0.0) {
        return; // a loop: the box says it all
    }
    // How far along the line the box's border is, from its centre.
    let out = |dx: f64, dy: f64| (BOX_W / 2.0 / dx.abs().max(1e-9)).min(BOX_H / 2.0 / dy.abs().max(1e-9)).min(0.5);
    let t = out(dx, dy);
    let (ax, ay, bx, by) = (x1 + dx * t, y1 + dy * t, x2 - dx * t, y2 - dy * t);
    let head = if e.both { "" } else { " marker-end=\"url(#arrow)\"" };
    let _ = writeln!(s, "<line x1=\"{ax:.1}\" y1=\"{ay:.1}\" x2=\"{bx:.1}\" y2=\"{by:.1}\" {}{head}/>", e.style);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_picture_keeps_its_size() {
        let Shown::Picture(_, w, h) = Shown::picture("<svg xmlns=\"x\" width=\"30\" height=\"12.5\">\n</svg>".into())
        else {
            panic!("not a picture")
        };
        assert_eq!((w, h), (30.0, 12.5));
        let Shown::Picture(svg, w, _) = Shown::picture("<svg xmlns=\"x\">\n</svg>".into()) else { panic!() };
        assert_eq!((svg.as_str(), w), ("<svg width=\"100\" height=\"100\" xmlns=\"x\">\n</svg>", 100.0));
    }

    #[test]
    fn a_text_view_keeps_its_lines_in_order_escaped() {
        let mut s = String::new();
        draw_view(&mut s, &Shown::Text("2 8 3\n1 <6 4".into()), 0.0, 0.0);
        let first = s.find(">2 8 3</tspan>").unwrap();
        let second = s.find(">1 &lt;6 4</tspan>").unwrap();
        assert!(first < second && s.contains("font-family=\"monospace\""));
    }
}
