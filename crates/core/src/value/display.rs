//! The printed form of every value (`out`, `X.string()`, string concatenation).

use super::number::format_number;
use super::Value;
use crate::world::World;

/// Why printing a value stopped before its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// The text would pass `MAX_TEXT` (100 MB).
    TooLong,
    /// The run must stop (`stop` said so: Ctrl-C, `--timeout`, `--max-memory`).
    Stopped,
}

/// Appends the printed form of `v` to `out`; past `MAX_TEXT` bytes it ends in `...` (for
/// messages, which may show any value; `write_bounded` is for output).
pub fn write_value(out: &mut String, v: &Value, world: &World) {
    let mut never = |_| false;
    if Printer::new(out, world, &mut never).value(v, 0).is_err() {
        out.push_str("...");
    }
}

/// Appends the printed form of `v` to `out`, refusing to let `out` pass `MAX_TEXT` bytes and
/// asking `stop` now and then whether to give up (see `CHECK_EVERY`).
pub fn write_bounded(out: &mut String, v: &Value, world: &World, stop: &mut dyn FnMut(u64) -> bool) -> Result<(), Cut> {
    Printer::new(out, world, stop).value(v, 0)
}

/// How often printing asks whether to stop: after 64 KB, or after 256 pieces. It tells `stop`
/// the work done since: a unit per piece (a number costs far more than its bytes) and one per
/// 256 bytes.
const CHECK_EVERY: usize = 1 << 16;
const CHECK_PIECES: u32 = 256;

struct Printer<'a> {
    out: &'a mut String,
    world: &'a World,
    stop: &'a mut dyn FnMut(u64) -> bool,
    /// `out.len()` when `stop` was last asked.
    checked: usize,
    /// Pieces written since `stop` was last asked.
    pieces: u32,
}

impl<'a> Printer<'a> {
    fn new(out: &'a mut String, world: &'a World, stop: &'a mut dyn FnMut(u64) -> bool) -> Printer<'a> {
        let checked = out.len();
        Printer { out, world, stop, checked, pieces: 0 }
    }

    /// After each piece: is the text too long, or must the run stop?
    fn check(&mut self) -> Result<(), Cut> {
        if self.out.len() > super::MAX_TEXT {
            return Err(Cut::TooLong);
        }
        self.pieces += 1;
        if self.out.len() - self.checked >= CHECK_EVERY || self.pieces >= CHECK_PIECES {
            let work = (self.out.len() - self.checked) as u64 / 256 + self.pieces as u64;
            self.checked = self.out.len();
            self.pieces = 0;
            if (self.stop)(work) {
                return Err(Cut::Stopped);
            }
        }
        Ok(())
    }

    fn push(&mut self, s: &str) -> Result<(), Cut> {
        if self.out.len() + s.len() > super::MAX_TEXT {
            return Err(Cut::TooLong);
        }
        self.out.push_str(s);
        self.check()
    }

    /// A container nested deeper than `MAX_NESTING` (one that holds itself) prints as `...`.
    fn value(&mut self, v: &Value, depth: usize) -> Result<(), Cut> {
        if depth > super::MAX_NESTING && matches!(v, Value::Array(_) | Value::Map(_) | Value::Heap(_)) {
            return self.push("...");
        }
        let depth = depth + 1;
        let world = self.world;
        match v {
            Value::None => self.push("None"),
            Value::Num(n) => self.push(&format_number(*n)),
            Value::Logic(l) => self.push(&l.to_string()),
            Value::Str(s) => self.push(s),
            Value::Array(a) => {
                self.push("[")?;
                for (i, item) in a.borrow().iter().enumerate() {
                    if i > 0 {
                        self.push(",")?;
                    }
                    self.value(item, depth)?;
                }
                self.push("]")
            }
            Value::Map(m) => {
                self.push("{")?;
                for (i, (k, v)) in m.borrow().iter().enumerate() {
                    if i > 0 {
                        self.push(",")?;
                    }
                    self.value(k, depth)?;
                    self.push(":")?;
                    self.value(v, depth)?;
                }
                self.push("}")
            }
            Value::Graph(g) => {
                let room = super::MAX_TEXT.saturating_sub(self.out.len());
                let text =
                    world.graph_dump_within(&g.borrow(), crate::world::print::DumpOptions::OUT, room, self.stop)?;
                self.push(&text)
            }
            Value::Node(n) => {
                if let Some(g) = &n.graph {
                    self.push(&g.borrow().name.to_str())?;
                    self.push(".")?;
                }
                self.push(node_name(world, n.class, n.id))
            }
            Value::Edge(r) => self.push(world.relation_name(*r)),
            // A demon used as a value prints as its name; a lambda as its source.
            Value::Lambda(f) => match f.source() {
                None => self.push(&format!("{}({})", f.name(), f.params().join(","))),
                Some(body) => self.push(&format!("lambda({}) => {body}", f.params().join(","))),
            },
            Value::Fuzzy(f) => {
                let parts: Vec<String> = f.iter().map(|x| format_number(*x)).collect();
                self.push(&format!("({})", parts.join(",")))
            }
            Value::Host(h) => {
                let mut text = String::new();
                h.write(&mut text);
                self.push(&text)
            }
            // In the order `pop` takes them: `Heap[item:priority,...]`.
            Value::Heap(h) => {
                self.push("Heap[")?;
                for (i, (item, priority)) in h.borrow().in_order().into_iter().enumerate() {
                    if i > 0 {
                        self.push(",")?;
                    }
                    self.value(item, depth)?;
                    self.push(":")?;
                    self.value(priority, depth)?;
                }
                self.push("]")
            }
        }
    }
}

/// The name of a node; a node id the class does not have prints as its number.
pub fn node_name(world: &World, class: u32, id: u32) -> &str {
    match world.classes.get(class as usize) {
        Some(c) if c.contains(id) => c.name(id),
        _ => "?",
    }
}

pub fn to_text(v: &Value, world: &World) -> String {
    let mut s = String::new();
    write_value(&mut s, v, world);
    s
}

/// A logic value as its pair, `(0.2,0.8)`, whatever it is (edge dumps print even crisp values so).
pub fn logic_pair(v: crate::value::Logic) -> String {
    format!("({},{})", format_number(v.p0), format_number(v.p1))
}
