//! The builtins as the compiler sees them: each one's name, kind (function or method),
//! argument count, description and function pointer, in a `Registry` that `builtins` fills and
//! the compiler resolves names against, once, before anything runs.

use crate::eval::{Interp, R};
use crate::syntax::Span;
use crate::value::Value;
use rustc_hash::FxHashMap;

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
            Value::Heap(_) => Receivers::HEAP,
            Value::Host(h) => match h.type_name() {
                "file" => Receivers::FILE,
                "svg" => Receivers::PICTURE,
                "space" => Receivers::SPACE,
                _ => return None,
            },
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

/// Every builtin by name, and the module constants: built once from the modules' tables
/// (`builtins::registry()`), then only read.
pub struct Registry {
    all: Vec<(&'static Builtin, Receivers)>,
    functions: FxHashMap<&'static str, &'static Builtin>,
    methods: FxHashMap<&'static str, &'static Builtin>,
    modules: Vec<&'static str>,
    constants: &'static [(&'static str, f64, &'static str)],
}

impl Registry {
    /// `tables`: each module's builtins with the kind of value its methods work on.
    pub fn new(
        tables: &[(Receivers, &'static [Builtin])],
        constants: &'static [(&'static str, f64, &'static str)],
    ) -> Registry {
        let mut r = Registry {
            all: Vec::new(),
            functions: FxHashMap::default(),
            methods: FxHashMap::default(),
            modules: Vec::new(),
            constants,
        };
        for (on, table) in tables {
            for b in table.iter() {
                let on = if b.on == Receivers::NONE { *on } else { b.on };
                r.all.push((b, on));
                let names = if b.kind == Kind::Function { &mut r.functions } else { &mut r.methods };
                names.entry(b.name).or_insert(b);
                if let Some((module, _)) = b.name.split_once('.') {
                    if !r.modules.contains(&module) {
                        r.modules.push(module);
                    }
                }
            }
        }
        for (name, _, _) in constants {
            if let Some((module, _)) = name.split_once('.') {
                if !r.modules.contains(&module) {
                    r.modules.push(module);
                }
            }
        }
        r
    }

    /// Every builtin, functions and methods, in the order of the tables.
    pub fn all(&self) -> impl Iterator<Item = &'static Builtin> + '_ {
        self.all.iter().map(|(b, _)| *b)
    }

    /// Every method with the kinds of value it works on.
    pub fn methods(&self) -> impl Iterator<Item = (&'static Builtin, Receivers)> + '_ {
        self.all.iter().filter(|(b, _)| b.kind == Kind::Method).copied()
    }

    /// A function called without an object: `range(5)`, `Math.sqrt(2)`.
    pub fn function(&self, name: &str) -> Option<&'static Builtin> {
        self.functions.get(name).copied()
    }

    /// A method: `A.push(x)`.
    pub fn method(&self, name: &str) -> Option<&'static Builtin> {
        self.methods.get(name).copied()
    }

    pub fn function_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.all().filter(|b| b.kind == Kind::Function).map(|b| b.name)
    }

    pub fn method_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.all().filter(|b| b.kind == Kind::Method).map(|b| b.name)
    }

    /// Whether `name` is a module (`Math`): the prefix of some `Module.f` or constant.
    pub fn is_module(&self, name: &str) -> bool {
        self.module(name).is_some()
    }

    /// The module of that name (`Math`), if there is one.
    pub fn module(&self, name: &str) -> Option<&'static str> {
        self.modules.iter().copied().find(|m| *m == name)
    }

    /// `Math.PI` and friends.
    pub fn constant(&self, name: &str) -> Option<Value> {
        self.constants.iter().find(|c| c.0 == name).map(|c| Value::Num(c.1))
    }

    /// The module constants: (name, one-line description).
    pub fn constants(&self) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
        self.constants.iter().map(|c| (c.0, c.2))
    }
}
