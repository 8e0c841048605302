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
mod regexp;
mod search;
mod search_compare;
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
}

pub const fn function(name: &'static str, arity: Arity, f: BuiltinFn) -> Builtin {
    Builtin { name, kind: Kind::Function, arity, f }
}

pub const fn method(name: &'static str, arity: Arity, f: BuiltinFn) -> Builtin {
    Builtin { name, kind: Kind::Method, arity, f }
}

/// Every module's table.
fn tables() -> [&'static [Builtin]; 12] {
    [
        convert::BUILTINS,
        array::BUILTINS,
        heap::BUILTINS,
        string::BUILTINS,
        graph::BUILTINS,
        node::BUILTINS,
        math::BUILTINS,
        system::BUILTINS,
        file::BUILTINS,
        svg::BUILTINS,
        mind::BUILTINS,
        search::BUILTINS,
    ]
}

fn find(name: &str, kind: Kind) -> Option<&'static Builtin> {
    tables().into_iter().flatten().find(|b| b.kind == kind && b.name == name)
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
    tables().into_iter().flatten().filter(|b| b.kind == Kind::Function).map(|b| b.name)
}

pub fn method_names() -> impl Iterator<Item = &'static str> {
    tables().into_iter().flatten().filter(|b| b.kind == Kind::Method).map(|b| b.name)
}

/// `Math.PI` and friends.
pub fn constant(name: &str) -> Option<Value> {
    math::constant(name)
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
