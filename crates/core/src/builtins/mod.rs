//! Built-in functions, methods and module members, registered module by module in one table.
//! A method `X.m(a)` is the builtin `m` called with object X; each checks its object's type.

mod args;
mod array;
mod convert;
pub mod file;
mod graph;
mod heap;
mod json;
mod math;
pub mod mind;
mod mind_models;
mod node;
mod pad;
mod pddl;
mod pddl_known;
mod pddl_world;
mod regexp;
mod regexp_worker;
mod search;
mod search_check;
mod search_checkpoint;
mod search_compare;
mod search_local;
mod search_problem;
mod search_record;
mod search_space;
mod search_store;
mod string;
pub mod svg;
mod system;

/// State views, drawn for `Search.explore` and for `ds explore --view`.
pub use search_space::{draw as draw_view, view_json, view_of, view_text};

pub use crate::compile::registry::{function, method, Arity, Builtin, BuiltinFn, Kind, MethodSet, Receivers, Registry};
pub(crate) use args::{arg, object, this, wrong_object};

/// Every module's table, with the kind of value its methods work on.
fn tables() -> [(Receivers, &'static [Builtin]); 17] {
    [
        (Receivers::ANY, convert::BUILTINS),
        (Receivers::ARRAY, array::BUILTINS),
        (Receivers::ARRAY, json::BUILTINS),
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
        (Receivers::NONE, search::ALGORITHM_BUILTINS),
        (Receivers::NONE, pddl::BUILTINS),
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

/// The methods of a name, one body per kind of object: `A.push(x)`, `Q.push(x, p)`.
pub fn lookup_method(name: &str) -> Option<&'static MethodSet> {
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
