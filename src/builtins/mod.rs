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

pub use crate::compile::registry::{function, method, Arity, Builtin, BuiltinFn, Kind, Receivers, Registry};
use crate::eval::{fail, R};
use crate::syntax::Span;
use crate::value::Value;

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

/// The registry of every builtin, made from the tables the first time it is asked for.
pub fn registry() -> &'static Registry {
    static REGISTRY: std::sync::LazyLock<Registry> =
        std::sync::LazyLock::new(|| Registry::new(&tables(), math::CONSTANTS));
    &REGISTRY
}

/// Every builtin, functions and methods.
pub fn all() -> impl Iterator<Item = &'static Builtin> {
    registry().all()
}

/// Every method with the kinds of value it works on.
pub fn methods() -> impl Iterator<Item = (&'static Builtin, Receivers)> {
    registry().methods()
}

/// A function called without an object: `range(5)`, `Math.sqrt(2)`.
pub fn lookup_function(name: &str) -> Option<&'static Builtin> {
    registry().function(name)
}

/// A method: `A.push(x)`.
pub fn lookup_method(name: &str) -> Option<&'static Builtin> {
    registry().method(name)
}

pub fn function_names() -> impl Iterator<Item = &'static str> {
    registry().function_names()
}

pub fn method_names() -> impl Iterator<Item = &'static str> {
    registry().method_names()
}

/// The module constants: (name, one-line description).
pub fn constants() -> impl Iterator<Item = (&'static str, &'static str)> {
    registry().constants()
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
