//! The `SVG` module (reference 7.10): `SVG.create()` makes an empty picture; methods draw on it
//! and `S.save(file, w, h)` writes it as an SVG file. `out S` prints the same text.
//!
//! The text is one element per line inside `<svg xmlns=... width=W height=H viewBox="0 0 W H">`
//! (width, height and viewBox only once `save` has given them):
//! - `line` -> `<line x1 y1 x2 y2 stroke stroke-width/>`;
//! - `rect`, `circle`, `arc`, `polygon` -> `<rect>`, `<circle>`, `<path>`, `<polygon>` outlined
//!   in the line colour and width, `fill="none"`; `circle_fill` and a polygon with `fill` True
//!   are filled with the fill colour; `point(x, y [, r=1])` is a dot in the line colour;
//! - `text(x, y, txt)` -> `<text x y font-size fill>` with the text escaped;
//! - `transf_beg(dx, dy [, phi [, sx [, sy]]])` opens `<g transform="translate(dx,dy)
//!   rotate(phi) scale(sx,sy)">` (rotate and scale only when given), `transf_end()` closes it;
//!   `transf_all(...)` puts the whole picture in such a group (the last call counts).
//!
//! Angles are in degrees, clockwise on the screen (SVG's y axis points down), from the x axis.
//! Numbers print in ds's shortest form. Drawing methods return the picture, so calls chain;
//! the style methods return the current value without an argument and the picture with one.

use super::{arg, function, method, this, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::value::number::format_number as num;
use crate::value::Value;
use ds_syntax::Span;
use std::cell::RefCell;
use std::fmt::Write;
use std::rc::Rc;

pub const BUILTINS: &[Builtin] = &[
    function("SVG.create", Arity::exactly(0), create)
        .doc("SVG.create()", "a new empty picture; its methods draw and return it"),
    method("color_line", Arity::range(0, 1), color_line)
        .doc("P.color_line([c])", "reads or sets the line colour: a name, #rrggbb or [r, g, b]"),
    method("color_fill", Arity::range(0, 1), color_fill).doc("P.color_fill([c])", "reads or sets the fill colour"),
    method("color_text", Arity::range(0, 1), color_text).doc("P.color_text([c])", "reads or sets the text colour"),
    method("width_line", Arity::range(0, 1), width_line).doc("P.width_line([w])", "reads or sets the line width (1)"),
    method("size_font", Arity::range(0, 1), size_font).doc("P.size_font([s])", "reads or sets the font size (12)"),
    method("line", Arity::exactly(4), line).doc("P.line(x1, y1, x2, y2)", "draws a line"),
    method("rect", Arity::exactly(4), rect).doc("P.rect(x, y, w, h)", "draws the outline of a rectangle"),
    method("circle", Arity::exactly(3), circle).doc("P.circle(x, y, r)", "draws the outline of a circle"),
    method("circle_fill", Arity::exactly(3), circle_fill)
        .doc("P.circle_fill(x, y, r)", "draws a disc in the fill colour"),
    method("point", Arity::range(2, 3), point)
        .doc("P.point(x, y [, r])", "draws a dot of radius r (1) in the line colour"),
    method("arc", Arity::exactly(5), arc)
        .doc("P.arc(x, y, r, a1, a2)", "draws an arc from angle a1 to a2 (degrees, clockwise from the x axis)"),
    method("text", Arity::exactly(3), text).doc("P.text(x, y, text)", "writes text in the text colour and font size"),
    method("polygon", Arity::range(1, 3), polygon).doc(
        "P.polygon(points [, fill [, closed]])",
        "draws a polygon through [[x, y], ...] or [x1, y1, ...]; filled when fill is True, open when closed is False",
    ),
    method("transf_beg", Arity::range(2, 5), transf_beg)
        .doc("P.transf_beg(dx, dy [, phi [, sx [, sy]]])", "starts a group moved, turned and scaled"),
    method("transf_end", Arity::exactly(0), transf_end).doc("P.transf_end()", "ends the group `transf_beg` started"),
    method("transf_all", Arity::range(2, 5), transf_all)
        .doc("P.transf_all(dx, dy [, phi [, sx [, sy]]])", "moves, turns and scales the whole picture"),
    method("save", Arity::exactly(3), save).doc("P.save(file, w, h)", "writes the picture, w by h, to the file"),
    method("canvas", Arity::exactly(2), canvas)
        .doc("P.canvas(w, h)", "gives the picture its width and height, as `save` does, without writing a file"),
];

/// A picture being drawn.
#[derive(Debug)]
pub struct Svg {
    line: String,
    fill: String,
    text: String,
    width: f64,
    font: f64,
    /// The elements, one line each (`<g ...>` and `</g>` included).
    items: Vec<String>,
    /// `transf_beg` groups not closed yet (closed at the end of the text).
    open: usize,
    /// The `transform` of `transf_all`.
    all: Option<String>,
    /// Width and height of the last `save`.
    size: Option<(f64, f64)>,
}

pub type SvgRef = Rc<RefCell<Svg>>;

/// The picture a value holds, if it holds one.
pub fn as_picture(v: &Value) -> Option<SvgRef> {
    v.as_host::<RefCell<Svg>>()
}

impl crate::value::host::Host for RefCell<Svg> {
    fn type_name(&self) -> &'static str {
        "svg"
    }
    fn described(&self) -> &'static str {
        "an SVG picture"
    }
    fn write(&self, out: &mut String) {
        out.push_str(&self.borrow().text());
    }
    fn rank(&self) -> u8 {
        11
    }
}

/// At most this many elements in a picture.
const MAX_ITEMS: usize = 10_000_000;

impl Svg {
    fn new() -> Svg {
        Svg {
            line: "black".into(),
            fill: "black".into(),
            text: "black".into(),
            width: 1.0,
            font: 12.0,
            items: Vec::new(),
            open: 0,
            all: None,
            size: None,
        }
    }

    fn stroke(&self) -> String {
        format!("stroke=\"{}\" stroke-width=\"{}\"", escape(&self.line), num(self.width))
    }

    /// The SVG text of the picture.
    pub fn text(&self) -> String {
        let mut s = String::from("<svg xmlns=\"http://www.w3.org/2000/svg\"");
        if let Some((w, h)) = self.size {
            let (w, h) = (num(w), num(h));
            let _ = write!(s, " width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\"");
        }
        s.push_str(">\n");
        if let Some(t) = &self.all {
            let _ = writeln!(s, "<g transform=\"{t}\">");
        }
        for item in &self.items {
            s.push_str(item);
            s.push('\n');
        }
        for _ in 0..self.open {
            s.push_str("</g>\n");
        }
        if self.all.is_some() {
            s.push_str("</g>\n");
        }
        s.push_str("</svg>\n");
        s
    }
}

/// Text and attribute values with `& < > "` escaped.
fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// Adds an element; returns the picture.
fn draw(name: &str, obj: Option<Value>, span: Span, element: impl FnOnce(&Svg) -> String) -> R<Value> {
    let s = this::<SvgRef>(name, obj, span)?;
    {
        let mut pic = s.borrow_mut();
        if pic.items.len() >= MAX_ITEMS {
            return fail(span, format!("`{name}`: a picture holds at most {MAX_ITEMS} elements"));
        }
        let e = element(&pic);
        pic.items.push(e);
    }
    Ok(Value::Host(s))
}

/// The arguments before `to` (those given), each a finite number.
fn nums(args: &[Value], to: usize, name: &str, span: Span) -> R<Vec<f64>> {
    nums_from(args, 0, to, name, span)
}

/// The arguments `from..to` (those given), each a finite number.
fn nums_from(args: &[Value], from: usize, to: usize, name: &str, span: Span) -> R<Vec<f64>> {
    (from..to.min(args.len()))
        .map(|i| {
            let x = arg::<f64>(args, i, name, span)?;
            if x.is_finite() {
                Ok(x)
            } else {
                fail(span, format!("argument {} of `{name}` must be a finite number", i + 1))
            }
        })
        .collect()
}

fn create(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::Host(Rc::new(RefCell::new(Svg::new()))))
}

/// A colour: a string (`"red"`, `"#ff0000"`) or an array `[r, g, b]` of 0..255.
fn color_arg(v: &Value, name: &str, span: Span) -> R<String> {
    match v {
        Value::Str(s) => Ok(s.to_string()),
        Value::Array(a) => match *a.slice() {
            // NaN has no place in 0..255: clamping keeps it, and `rgb(NaN,0,0)` is no colour.
            [Value::Num(r), Value::Num(g), Value::Num(b)] if !(r.is_nan() || g.is_nan() || b.is_nan()) => {
                let c = |x: f64| x.clamp(0.0, 255.0).round();
                Ok(format!("rgb({},{},{})", c(r), c(g), c(b)))
            }
            _ => fail(span, format!("`{name}` takes a colour name or an array [r, g, b]")),
        },
        other => fail(span, format!("`{name}` takes a colour name or an array [r, g, b], not {}", other.described())),
    }
}

/// A style getter/setter.
fn style(name: &str, obj: Option<Value>, args: &[Value], span: Span, field: fn(&mut Svg) -> &mut String) -> R<Value> {
    let s = this::<SvgRef>(name, obj, span)?;
    match args.first() {
        None => Ok(Value::str(field(&mut s.borrow_mut()))),
        Some(v) => {
            let c = color_arg(v, name, span)?;
            *field(&mut s.borrow_mut()) = c;
            Ok(Value::Host(s))
        }
    }
}

fn color_line(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    style("color_line", obj, args, span, |s| &mut s.line)
}

fn color_fill(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    style("color_fill", obj, args, span, |s| &mut s.fill)
}

fn color_text(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    style("color_text", obj, args, span, |s| &mut s.text)
}

fn size(name: &str, obj: Option<Value>, args: &[Value], span: Span, field: fn(&mut Svg) -> &mut f64) -> R<Value> {
    let s = this::<SvgRef>(name, obj, span)?;
    if args.is_empty() {
        return Ok(Value::Num(*field(&mut s.borrow_mut())));
    }
    let x = nums(args, 1, name, span)?[0];
    if x < 0.0 {
        return fail(span, format!("`{name}` takes a size >= 0"));
    }
    *field(&mut s.borrow_mut()) = x;
    Ok(Value::Host(s))
}

fn width_line(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    size("width_line", obj, args, span, |s| &mut s.width)
}

fn size_font(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    size("size_font", obj, args, span, |s| &mut s.font)
}

fn line(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, 4, "line", span)?;
    draw("line", obj, span, |s| {
        format!(
            "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" {}/>",
            num(n[0]),
            num(n[1]),
            num(n[2]),
            num(n[3]),
            s.stroke()
        )
    })
}

fn rect(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, 4, "rect", span)?;
    if n[2] < 0.0 || n[3] < 0.0 {
        return fail(span, "`rect` takes a width and a height >= 0");
    }
    draw("rect", obj, span, |s| {
        format!(
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" {} fill=\"none\"/>",
            num(n[0]),
            num(n[1]),
            num(n[2]),
            num(n[3]),
            s.stroke()
        )
    })
}

fn radius(n: &[f64], name: &str, span: Span) -> R<()> {
    if n[2] < 0.0 {
        return fail(span, format!("`{name}` takes a radius >= 0"));
    }
    Ok(())
}

fn circle(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, 3, "circle", span)?;
    radius(&n, "circle", span)?;
    draw("circle", obj, span, |s| circle_element(s, &n, "none"))
}

fn circle_element(s: &Svg, n: &[f64], fill: &str) -> String {
    format!("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" {} fill=\"{fill}\"/>", num(n[0]), num(n[1]), num(n[2]), s.stroke())
}

fn circle_fill(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, 3, "circle_fill", span)?;
    radius(&n, "circle_fill", span)?;
    draw("circle_fill", obj, span, |s| circle_element(s, &n, &escape(&s.fill)))
}

fn point(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let mut n = nums(args, 3, "point", span)?;
    if n.len() < 3 {
        n.push(1.0);
    }
    radius(&n, "point", span)?;
    draw("point", obj, span, |s| {
        let color = escape(&s.line);
        format!("<circle cx=\"{}\" cy=\"{}\" r=\"{}\" fill=\"{color}\"/>", num(n[0]), num(n[1]), num(n[2]))
    })
}

/// `arc(x, y, r, a1, a2)`: the arc of the circle around (x, y) from angle a1 to a2 (degrees,
/// clockwise on the screen); a sweep of 360 degrees or more is the whole circle.
fn arc(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, 5, "arc", span)?;
    radius(&n, "arc", span)?;
    let (x, y, r, a1, a2) = (n[0], n[1], n[2], n[3], n[4]);
    let (from, to) = if a2 >= a1 { (a1, a2) } else { (a2, a1) };
    if to - from >= 360.0 {
        return draw("arc", obj, span, |s| circle_element(s, &n, "none"));
    }
    let at = |a: f64| {
        let t = a.to_radians();
        // Rounded to micro-units, so that cos(90°) prints as 0, not 6e-17.
        let round = |v: f64| (v * 1e6).round() / 1e6 + 0.0;
        (round(x + r * t.cos()), round(y + r * t.sin()))
    };
    let (sx, sy) = at(from);
    let (ex, ey) = at(to);
    let large = if to - from > 180.0 { 1 } else { 0 };
    draw("arc", obj, span, |s| {
        format!(
            "<path d=\"M {} {} A {} {} 0 {large} 1 {} {}\" {} fill=\"none\"/>",
            num(sx),
            num(sy),
            num(r),
            num(r),
            num(ex),
            num(ey),
            s.stroke()
        )
    })
}

fn text(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, 2, "text", span)?;
    let words = match &args[2] {
        Value::Str(s) => s.to_string(),
        other => it.text(other),
    };
    draw("text", obj, span, |s| {
        format!(
            "<text x=\"{}\" y=\"{}\" font-size=\"{}\" fill=\"{}\">{}</text>",
            num(n[0]),
            num(n[1]),
            num(s.font),
            escape(&s.text),
            escape(&words)
        )
    })
}

/// `polygon(points [, fill [, closed]])`: points as `[[x, y], ...]` or `[x1, y1, x2, y2, ...]`;
/// with `fill` True the inside is filled with the fill colour; with `closed` False (the
/// original's third argument is undocumented; ds reads it so) an open polyline is drawn.
fn polygon(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let Value::Array(a) = &args[0] else {
        return fail(span, format!("`polygon` takes an array of points, not {}", args[0].described()));
    };
    let bad = || fail(span, "`polygon` takes points as [[x, y], ...] or [x1, y1, x2, y2, ...]");
    let mut coords: Vec<f64> = Vec::new();
    for p in a.borrow().iter() {
        match p {
            Value::Num(x) => coords.push(*x),
            Value::Array(xy) => match *xy.slice() {
                [Value::Num(x), Value::Num(y)] => coords.extend([x, y]),
                _ => return bad(),
            },
            _ => return bad(),
        }
    }
    if !coords.len().is_multiple_of(2) || coords.iter().any(|x| !x.is_finite()) {
        return bad();
    }
    let flag = |i: usize| match args.get(i) {
        None => Ok(None),
        Some(Value::Logic(l)) => Ok(Some(l.is_true())),
        Some(Value::Num(x)) => Ok(Some(*x != 0.0)),
        Some(other) => {
            fail(span, format!("argument {} of `polygon` must be True or False, not {}", i + 1, other.described()))
        }
    };
    let filled = flag(1)?.unwrap_or(false);
    let closed = flag(2)?.unwrap_or(true);
    let points: Vec<String> = coords.chunks(2).map(|p| format!("{},{}", num(p[0]), num(p[1]))).collect();
    let points = points.join(" ");
    draw("polygon", obj, span, |s| {
        let tag = if closed { "polygon" } else { "polyline" };
        let fill = if filled { escape(&s.fill) } else { "none".to_string() };
        format!("<{tag} points=\"{points}\" {} fill=\"{fill}\"/>", s.stroke())
    })
}

/// The `transform` attribute of `transf_beg` / `transf_all`.
fn transform(args: &[Value], name: &str, span: Span) -> R<String> {
    let n = nums(args, 5, name, span)?;
    let mut t = format!("translate({},{})", num(n[0]), num(n[1]));
    if let Some(phi) = n.get(2) {
        let _ = write!(t, " rotate({})", num(*phi));
    }
    match (n.get(3), n.get(4)) {
        (Some(sx), Some(sy)) => {
            let _ = write!(t, " scale({},{})", num(*sx), num(*sy));
        }
        (Some(sx), None) => {
            let _ = write!(t, " scale({})", num(*sx));
        }
        _ => {}
    }
    Ok(t)
}

fn transf_beg(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let t = transform(args, "transf_beg", span)?;
    let v = draw("transf_beg", obj, span, |_| format!("<g transform=\"{t}\">"))?;
    if let Some(s) = v.as_host::<RefCell<Svg>>() {
        s.borrow_mut().open += 1;
    }
    Ok(v)
}

fn transf_end(_: &mut Interp, obj: Option<Value>, _: &[Value], span: Span) -> R<Value> {
    let s = this::<SvgRef>("transf_end", obj, span)?;
    if s.borrow().open == 0 {
        return fail(span, "`transf_end` without a `transf_beg` before it");
    }
    s.borrow_mut().open -= 1;
    draw("transf_end", Some(Value::Host(s)), span, |_| "</g>".to_string())
}

fn transf_all(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SvgRef>("transf_all", obj, span)?;
    let t = transform(args, "transf_all", span)?;
    s.borrow_mut().all = Some(t);
    Ok(Value::Host(s))
}

/// `save(file, w, h)`: writes the picture, `w` by `h`, to the file (relative to the current
/// directory). Returns True.
fn save(it: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SvgRef>("save", obj, span)?;
    let file = arg::<&str>(args, 0, "save", span)?;
    set_size(&s, args, 1, "save", span)?;
    let text = s.borrow().text();
    super::file::write_file(it, file, &text, span)?;
    Ok(Value::bool(true))
}

/// `P.canvas(w, h)`: the size `save` gives, for a picture shown rather than saved (a state's
/// view in the explorer, a notebook, the playground). Returns the picture.
fn canvas(_: &mut Interp, obj: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let s = this::<SvgRef>("canvas", obj, span)?;
    set_size(&s, args, 0, "canvas", span)?;
    Ok(Value::Host(s))
}

/// Sets the width and height from `args[from..from + 2]`.
fn set_size(s: &SvgRef, args: &[Value], from: usize, fname: &str, span: Span) -> R<()> {
    let n = nums_from(args, from, from + 2, fname, span)?;
    if n[0] < 0.0 || n[1] < 0.0 {
        return fail(span, format!("`{fname}` takes a width and a height >= 0"));
    }
    s.borrow_mut().size = Some((n[0], n[1]));
    Ok(())
}
