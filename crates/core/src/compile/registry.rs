//! The builtins as the compiler sees them: each one's name, kind (function or method),
//! argument count, description and body, in a `Registry` that `builtins` fills and the
//! compiler resolves names against, once, before anything runs. Functions are found by name;
//! methods by name and then by the kind of their object (`MethodSet`); the special forms
//! (`special::FORMS`) are rows like the others, whose body the compiler compiles itself.

use super::special::{Form, FORMS};
use crate::eval::{fail, Interp, R};
use crate::value::Value;
use ds_syntax::Span;
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

/// What a call runs.
#[derive(Debug, Clone, Copy)]
pub enum Body {
    Native(BuiltinFn),
    /// Compiled into its own kind of expression (its arguments are not plain values).
    Special(Form),
}

pub struct Builtin {
    pub name: &'static str,
    pub kind: Kind,
    pub arity: Arity,
    pub body: Body,
    /// How a call is written (`A.push(v, ...)`), and what it does in one line: the one text
    /// that the docs, the REPL and the language server show.
    pub usage: &'static str,
    pub doc: &'static str,
    /// Methods: the kinds of value they work on, when not just those of their table (`tables`).
    pub on: Receivers,
}

pub const fn function(name: &'static str, arity: Arity, f: BuiltinFn) -> Builtin {
    Builtin { name, kind: Kind::Function, arity, body: Body::Native(f), usage: "", doc: "", on: Receivers::NONE }
}

pub const fn method(name: &'static str, arity: Arity, f: BuiltinFn) -> Builtin {
    Builtin { name, kind: Kind::Method, arity, body: Body::Native(f), usage: "", doc: "", on: Receivers::NONE }
}

/// A special form: called like a function, compiled by the compiler (`special.rs`).
pub const fn special(name: &'static str, arity: Arity, form: Form) -> Builtin {
    Builtin { name, kind: Kind::Function, arity, body: Body::Special(form), usage: "", doc: "", on: Receivers::NONE }
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

/// Kinds of value a method works on (a set): the registry picks a method's body by the kind
/// of its object, and tools complete `X.` with the methods for X's kind when it is known.
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
    /// Values of the kinds no method is only for (numbers, logic values, ...).
    pub const OTHER: Receivers = Receivers(512);

    /// Each kind with how an error names its values.
    const NAMES: [(Receivers, &'static str); 9] = [
        (Receivers::ARRAY, "arrays"),
        (Receivers::MAP, "maps"),
        (Receivers::STRING, "strings"),
        (Receivers::HEAP, "heaps"),
        (Receivers::FILE, "files"),
        (Receivers::GRAPH, "graphs"),
        (Receivers::NODE, "nodes"),
        (Receivers::PICTURE, "SVG pictures (`SVG.create()`)"),
        (Receivers::SPACE, "state spaces (`Search.explore`)"),
    ];

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

    /// The kinds as an error names them: "arrays, maps and graphs".
    pub fn describe(self) -> String {
        let names: Vec<&str> = Self::NAMES.iter().filter(|(k, _)| self.includes(*k)).map(|(_, n)| *n).collect();
        match names.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
            None => "values".to_string(),
        }
    }
}

/// The methods of one name, one body per kind of object (`A.push(v)`, `Q.push(item, p)`).
pub struct MethodSet {
    pub name: &'static str,
    /// Most specific first: a body for every kind (`.on(Receivers::ANY)`) comes last.
    entries: Vec<(Receivers, &'static Builtin, BuiltinFn)>,
    /// The arguments any of them takes, checked when the call is compiled.
    pub arity: Arity,
    on: Receivers,
}

impl MethodSet {
    /// Each body with the kinds of object it is for.
    pub fn entries(&self) -> impl Iterator<Item = (&'static Builtin, Receivers)> + '_ {
        self.entries.iter().map(|(on, b, _)| (*b, *on))
    }

    /// The body for this object; an error naming the kinds there are bodies for otherwise.
    #[inline]
    pub fn pick(&self, obj: &Value, span: Span) -> R<BuiltinFn> {
        let kind = Receivers::of(obj).unwrap_or(Receivers::OTHER);
        match self.entries.iter().find(|(on, _, _)| on.includes(kind)) {
            Some((_, _, f)) => Ok(*f),
            None => fail(span, format!("`{}` works on {}, not on {}", self.name, self.on.describe(), obj.described())),
        }
    }
}

/// What a compiled builtin call runs: a function, or the body its object's kind picks.
#[derive(Clone, Copy)]
pub enum Callee {
    Fn(BuiltinFn),
    Method(&'static MethodSet),
}

impl std::fmt::Debug for Callee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Callee::Fn(_) => write!(f, "Fn"),
            Callee::Method(set) => write!(f, "Method({})", set.name),
        }
    }
}

impl Callee {
    /// A method of one body is called directly: its own check of the object's kind names
    /// what it works on.
    pub fn of(set: &'static MethodSet) -> Callee {
        match &set.entries[..] {
            [(_, _, f)] => Callee::Fn(*f),
            _ => Callee::Method(set),
        }
    }

    #[inline]
    pub fn pick(self, obj: Option<&Value>, span: Span) -> R<BuiltinFn> {
        match (self, obj) {
            (Callee::Fn(f), _) => Ok(f),
            (Callee::Method(set), Some(obj)) => set.pick(obj, span),
            (Callee::Method(set), None) => Ok(set.entries[0].2),
        }
    }
}

/// Every builtin and special form, functions by name and methods by name and kind of object,
/// and the module constants: built once from the modules' tables (`builtins::registry()`),
/// then only read.
pub struct Registry {
    all: Vec<(&'static Builtin, Receivers)>,
    functions: FxHashMap<&'static str, &'static Builtin>,
    methods: FxHashMap<&'static str, MethodSet>,
    /// The method names in the order of the tables.
    method_names: Vec<&'static str>,
    modules: Vec<&'static str>,
    constants: &'static [(&'static str, f64, &'static str)],
}

impl Registry {
    /// `tables`: each module's builtins with the kind of value its methods work on. The special
    /// forms come first.
    pub fn new(
        tables: &[(Receivers, &'static [Builtin])],
        constants: &'static [(&'static str, f64, &'static str)],
    ) -> Registry {
        let mut r = Registry {
            all: Vec::new(),
            functions: FxHashMap::default(),
            methods: FxHashMap::default(),
            method_names: Vec::new(),
            modules: Vec::new(),
            constants,
        };
        let forms: &'static [Builtin] = FORMS;
        for (on, table) in std::iter::once(&(Receivers::NONE, forms)).chain(tables) {
            for b in table.iter() {
                let on = if b.on == Receivers::NONE { *on } else { b.on };
                r.all.push((b, on));
                match b.kind {
                    Kind::Function => {
                        r.functions.entry(b.name).or_insert(b);
                    }
                    Kind::Method => r.add_method(b, on),
                }
                r.add_module(b.name);
            }
        }
        for (name, _, _) in constants {
            r.add_module(name);
        }
        for set in r.methods.values_mut() {
            set.entries.sort_by_key(|(on, _, _)| *on == Receivers::ANY); // stable: the rest keep their order
        }
        r
    }

    fn add_method(&mut self, b: &'static Builtin, on: Receivers) {
        let Body::Native(f) = b.body else { return }; // `special` makes functions only
        let set = self.methods.entry(b.name).or_insert_with(|| {
            self.method_names.push(b.name);
            MethodSet { name: b.name, entries: Vec::new(), arity: b.arity, on: Receivers::NONE }
        });
        set.entries.push((on, b, f));
        set.on = set.on.or(on);
        set.arity = Arity { min: set.arity.min.min(b.arity.min), max: set.arity.max.max(b.arity.max) };
    }

    fn add_module(&mut self, name: &'static str) {
        if let Some((module, _)) = name.split_once('.') {
            if !self.modules.contains(&module) {
                self.modules.push(module);
            }
        }
    }

    /// Every builtin, functions and methods, in the order of the tables.
    pub fn all(&self) -> impl Iterator<Item = &'static Builtin> + '_ {
        self.all.iter().map(|(b, _)| *b)
    }

    /// Every method with the kinds of value it works on.
    pub fn methods(&self) -> impl Iterator<Item = (&'static Builtin, Receivers)> + '_ {
        self.all.iter().filter(|(b, _)| b.kind == Kind::Method).copied()
    }

    /// A function called without an object: `range(5)`, `Math.sqrt(2)`, `exists(X, ...)`.
    pub fn function(&self, name: &str) -> Option<&'static Builtin> {
        self.functions.get(name).copied()
    }

    /// The methods of a name: `A.push(x)`.
    pub fn method(&self, name: &str) -> Option<&MethodSet> {
        self.methods.get(name)
    }

    pub fn function_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.all().filter(|b| b.kind == Kind::Function).map(|b| b.name)
    }

    /// Each method name once.
    pub fn method_names(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.method_names.iter().copied()
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
