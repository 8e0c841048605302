//! Built-in functions, methods and module members, registered module by module in one table.
//! A method `X.m(a)` is the builtin `m` called with object X; each checks its object's type.

mod array;
mod convert;
pub mod file;
mod graph;
mod heap;
mod math;
pub mod mind;
mod mind_models;
mod node;
mod pad;
mod regexp;
mod search;
mod search_compare;
mod search_space;
mod string;
pub mod svg;
mod system;

use crate::eval::{fail, Interp, R};
use crate::syntax::Span;
use crate::value::Value;

pub(crate) use convert::range_bounds;
pub(crate) use node::{get_attr, set_attr};

pub type BuiltinFn = fn(&mut Interp, Option<Value>, &[Value], Span) -> R<Value>;

/// How many arguments a builtin takes (besides its object).
#[derive(Debug, Clone, Copy)]
pub struct Arity {
    pub min: u8,
    /// `u8::MAX`: any number.
    pub max: u8,
}

impl Arity {
    pub const fn exactly(n: u8) -> Arity {
        Arity { min: n, max: n }
    }
    pub const fn range(min: u8, max: u8) -> Arity {
        Arity { min, max }
    }
    pub const fn at_least(min: u8) -> Arity {
        Arity { min, max: u8::MAX }
    }
    pub fn accepts(self, n: usize) -> bool {
        n >= self.min as usize && (self.max == u8::MAX || n <= self.max as usize)
    }
    pub fn describe(self) -> String {
        let s = |n: u8| if n == 1 { "" } else { "s" };
        match (self.min, self.max) {
            (a, b) if a == b => format!("{a} argument{}", s(a)),
            (a, u8::MAX) => format!("at least {a} argument{}", s(a)),
            (a, b) => format!("{a} to {b} arguments"),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Called as `f(args)` (module members are written `Module.f`).
    Function,
    /// Called as `X.f(args)`.
    Method,
}

pub struct Builtin {
    pub name: &'static str,
    pub kind: Kind,
    pub arity: Arity,
    pub f: BuiltinFn,
    /// How a call is written (`A.push(v, ...)`), and what it does in one line: the one text
    /// that the docs, the REPL and the language server show.
    pub usage: &'static str,
    pub doc: &'static str,
    /// Methods: the kinds of value they work on, when not just those of their table (`tables`).
    pub on: Receivers,
}

pub const fn function(name: &'static str, arity: Arity, f: BuiltinFn) -> Builtin {
    Builtin { name, kind: Kind::Function, arity, f, usage: "", doc: "", on: Receivers::NONE }
}

pub const fn method(name: &'static str, arity: Arity, f: BuiltinFn) -> Builtin {
    Builtin { name, kind: Kind::Method, arity, f, usage: "", doc: "", on: Receivers::NONE }
}

impl Builtin {
    /// Sets how a call is written and its one-line description.
    pub const fn doc(mut self, usage: &'static str, doc: &'static str) -> Builtin {
        self.usage = usage;
        self.doc = doc;
        self
    }

    /// A method that works on these kinds of value, not (only) on its table's.
    pub const fn on(mut self, on: Receivers) -> Builtin {
        self.on = on;
        self
    }
}

/// Kinds of value a method works on (a set), for tools that complete `X.` when the kind of X
/// is known. The evaluator does not use it: each method checks its object itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Receivers(u16);

impl Receivers {
    pub const NONE: Receivers = Receivers(0);
    pub const ANY: Receivers = Receivers(u16::MAX);
    pub const ARRAY: Receivers = Receivers(1);
    pub const MAP: Receivers = Receivers(2);
    pub const STRING: Receivers = Receivers(4);
    pub const GRAPH: Receivers = Receivers(8);
    pub const NODE: Receivers = Receivers(16);
    pub const FILE: Receivers = Receivers(32);
    pub const PICTURE: Receivers = Receivers(64);
    pub const HEAP: Receivers = Receivers(128);
    pub const SPACE: Receivers = Receivers(256);

    /// The kind of a value, for the methods that work on it (None: a kind no method is for).
    pub fn of(v: &Value) -> Option<Receivers> {
        Some(match v {
            Value::Array(_) => Receivers::ARRAY,
            Value::Map(_) => Receivers::MAP,
            Value::Str(_) => Receivers::STRING,
            Value::Graph(_) => Receivers::GRAPH,
            Value::Node(_) => Receivers::NODE,
            Value::File(_) => Receivers::FILE,
            Value::Svg(_) => Receivers::PICTURE,
            Value::Heap(_) => Receivers::HEAP,
            Value::Space(_) => Receivers::SPACE,
            _ => return None,
        })
    }

    pub const fn or(self, other: Receivers) -> Receivers {
        Receivers(self.0 | other.0)
    }

    pub fn includes(self, other: Receivers) -> bool {
        self.0 & other.0 != 0
    }
}

/// Every module's table, with the kind of value its methods work on.
fn tables() -> [(Receivers, &'static [Builtin]); 14] {
    [
        (Receivers::ANY, convert::BUILTINS),
        (Receivers::ARRAY, array::BUILTINS),
        (Receivers::HEAP, heap::BUILTINS),
        (Receivers::STRING, string::BUILTINS),
        (Receivers::ANY, pad::BUILTINS),
        (Receivers::GRAPH, graph::BUILTINS),
        (Receivers::NODE, node::BUILTINS),
        (Receivers::NONE, math::BUILTINS),
        (Receivers::NONE, system::BUILTINS),
        (Receivers::FILE, file::BUILTINS),
        (Receivers::PICTURE, svg::BUILTINS),
        (Receivers::NONE, mind::BUILTINS),
        (Receivers::NONE, search::BUILTINS),
        (Receivers::SPACE, search_space::BUILTINS),
    ]
}

/// Every builtin, functions and methods.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    tables().into_iter().flat_map(|(_, t)| t)
}

/// Every method with the kinds of value it works on.
pub fn methods() -> impl Iterator<Item = (&'static Builtin, Receivers)> {
    tables().into_iter().flat_map(|(on, t)| {
        t.iter().filter(|b| b.kind == Kind::Method).map(move |b| (b, if b.on == Receivers::NONE { on } else { b.on }))
    })
}

fn find(name: &str, kind: Kind) -> Option<&'static Builtin> {
    all().find(|b| b.kind == kind && b.name == name)
}

/// A function called without an object: `range(5)`, `Math.sqrt(2)`.
pub fn lookup_function(name: &str) -> Option<&'static Builtin> {
    find(name, Kind::Function)
}

/// A method: `A.push(x)`.
pub fn lookup_method(name: &str) -> Option<&'static Builtin> {
    find(name, Kind::Method)
}

pub fn function_names() -> impl Iterator<Item = &'static str> {
    all().filter(|b| b.kind == Kind::Function).map(|b| b.name)
}

pub fn method_names() -> impl Iterator<Item = &'static str> {
    all().filter(|b| b.kind == Kind::Method).map(|b| b.name)
}

/// `Math.PI` and friends.
pub fn constant(name: &str) -> Option<Value> {
    math::constant(name)
}

/// The module constants: (name, one-line description).
pub fn constants() -> impl Iterator<Item = (&'static str, &'static str)> {
    math::CONSTANTS.iter().map(|c| (c.0, c.2))
}

// ---------------------------------------------------------------- helpers for the modules

/// The object of a method call (the compiler guarantees there is one).
pub(crate) fn object(obj: Option<Value>, span: Span) -> R<Value> {
    match obj {
        Some(v) => Ok(v),
        None => fail(span, "this method needs an object: write `X.method(...)`"),
    }
}

pub(crate) fn wrong_object<T>(name: &str, v: &Value, expected: &str, span: Span) -> R<T> {
    fail(span, format!("`{name}` works on {expected}, not on {}", v.described()))
}

pub(crate) fn num_arg(args: &[Value], i: usize, fname: &str, span: Span) -> R<f64> {
    match args.get(i) {
        Some(Value::Num(n)) => Ok(*n),
        Some(other) => {
            fail(span, format!("argument {} of `{fname}` must be a number, not {}", i + 1, other.described()))
        }
        None => fail(span, format!("`{fname}` is missing argument {}", i + 1)),
    }
}

pub(crate) fn str_arg<'a>(args: &'a [Value], i: usize, fname: &str, span: Span) -> R<&'a str> {
    match args.get(i) {
        Some(Value::Str(s)) => Ok(s),
        Some(other) => {
            fail(span, format!("argument {} of `{fname}` must be a string, not {}", i + 1, other.described()))
        }
        None => fail(span, format!("`{fname}` is missing argument {}", i + 1)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every builtin has its usage and one-line description (`Builtin::doc`): the docs, the
    /// REPL and the language server show them. A builtin added without one fails here.
    #[test]
    fn every_builtin_is_described() {
        for b in all() {
            assert!(!b.doc.is_empty() && !b.usage.is_empty(), "builtin `{}` has no `.doc(usage, description)`", b.name);
            let short = b.name.rsplit('.').next().unwrap_or(b.name);
            assert!(b.usage.contains(short), "the usage of `{}` does not name it: {}", b.name, b.usage);
            assert!(
                !b.doc.contains('\n') && b.doc.len() <= 140,
                "the description of `{}` is not one short line",
                b.name
            );
        }
        for (name, doc) in constants() {
            assert!(!doc.is_empty(), "constant `{name}` has no description");
        }
    }
}
