//! Runtime values. Numbers, logic values, nodes and edge types are inline; strings are shared
//! immutable text; arrays, maps, graphs and lambdas are shared references, as the language
//! gives them reference semantics.

pub mod array;
pub mod code;
mod deep;
mod dense_keys;
pub mod display;
mod hash_index;
pub mod heap;
pub mod host;
pub mod logic;
pub mod map;
pub mod number;
pub mod text;

pub use array::Array;
pub use logic::Logic;
pub use map::Map;

use crate::world::{ClassId, GraphRef, NodeId, RelId};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::rc::Rc;

/// How deep containers are followed when comparing, printing or deep-copying them; deeper
/// nesting only arises from a container that holds itself.
pub const MAX_NESTING: usize = 200;

/// The longest string a script can make (by `+`, `repeat`, `replace`, `replaceRegexp`): 100 MB.
/// Longer text is an error, not an allocation that may abort the process.
pub const MAX_TEXT: usize = 100_000_000;

pub type ArrayRef = Rc<Array>;

/// A string value: up to 15 bytes inline (a search state such as `"123456780"` allocates
/// nothing and compares in place), longer text shared behind a reference count. 16 bytes.
pub type Str = ecow::EcoString;
pub type MapRef = Rc<RefCell<Map>>;

/// A node: its class and id, and the graph it is bound to (`G=>$n`), if any. A node without a
/// binding means "this node in the current graph".
#[derive(Debug, Clone)]
pub struct NodeVal {
    pub class: ClassId,
    pub id: NodeId,
    pub graph: Option<GraphRef>,
}

/// The tag takes a whole word (`repr(u64)`), so that every payload starts at offset 8 and a
/// `Value` is copied in aligned words: with a 4-byte tag the compiler copies results in pieces
/// that straddle the callee's stores, and every `eval` stalls on store forwarding.
#[derive(Debug, Clone, Default)]
#[repr(u64)]
pub enum Value {
    #[default]
    None,
    Num(f64),
    Logic(Logic),
    Str(Str),
    Array(ArrayRef),
    Map(MapRef),
    Graph(GraphRef),
    Node(NodeVal),
    Edge(RelId),
    /// A demon or lambda used as a value (see `code`).
    Lambda(code::CodeRef),
    /// A fuzzy number (v0, c0, c1, v1); behind an `Rc` so that a `Value` stays 24 bytes.
    Fuzzy(Rc<[f64; 4]>),
    /// A priority queue made with `Heap()`.
    Heap(heap::HeapRef),
    /// A file, an SVG picture, a state space: an object of a layer above (see `host`).
    Host(host::HostRef),
}

// Values are copied everywhere: a larger `Value` slows every step of the interpreter.
const _: () = assert!(std::mem::size_of::<Value>() == 24);

impl Value {
    pub fn str(s: &str) -> Value {
        Value::Str(s.into())
    }

    /// A string cut from another (short ones are stored inline).
    pub fn substr(s: &str) -> Value {
        Value::Str(s.into())
    }

    pub fn array(items: Vec<Value>) -> Value {
        Value::Array(Rc::new(Array::new(items)))
    }

    pub fn fuzzy(parts: [f64; 4]) -> Value {
        Value::Fuzzy(Rc::new(parts))
    }

    pub fn bool(b: bool) -> Value {
        Value::Logic(Logic::from_bool(b))
    }

    pub fn host(object: impl host::Host) -> Value {
        Value::Host(Rc::new(object))
    }

    /// The host object of this value, when it is a `T`.
    pub fn as_host<T: host::Host>(&self) -> Option<Rc<T>> {
        match self {
            Value::Host(h) => host::downcast(h),
            _ => None,
        }
    }

    /// A clone that copies numbers, logic values and nodes inline: the derived `clone` is an
    /// out-of-line call, and these are most of what loops and searches read.
    #[inline]
    pub fn dup(&self) -> Value {
        match self {
            Value::Num(n) => Value::Num(*n),
            Value::Logic(l) => Value::Logic(*l),
            Value::Node(n) => Value::Node(n.clone()),
            other => other.clone(),
        }
    }

    /// Drops a value; values that own nothing (numbers, logic values, nodes of the current
    /// graph: most temporaries) skip the out-of-line drop glue.
    #[inline]
    pub fn discard(self) {
        if self.owns_nothing() {
            std::mem::forget(self);
        }
    }

    /// Numbers, logic values, edge types, None and nodes of the current graph: values with
    /// nothing to drop.
    #[inline(always)]
    pub fn owns_nothing(&self) -> bool {
        match self {
            Value::Num(_) | Value::Logic(_) | Value::None | Value::Edge(_) => true,
            Value::Node(n) => n.graph.is_none(),
            _ => false,
        }
    }

    /// The name `X.type()` returns.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::None => "None",
            Value::Num(_) => "float",
            Value::Logic(_) => "logic",
            Value::Str(_) => "string",
            Value::Array(_) => "array",
            Value::Map(_) => "map",
            Value::Graph(_) => "graph",
            Value::Node(_) => "node",
            Value::Edge(_) => "edge",
            Value::Lambda(_) => "lambda",
            Value::Fuzzy(_) => "fuzzy",
            Value::Heap(_) => "heap",
            Value::Host(h) => h.type_name(),
        }
    }

    /// The type with an article, for messages: "an array", "a float", "None".
    pub fn described(&self) -> &'static str {
        match self {
            Value::None => "None",
            Value::Num(_) => "a number",
            Value::Logic(_) => "a logic value",
            Value::Str(_) => "a string",
            Value::Array(_) => "an array",
            Value::Map(_) => "a map",
            Value::Graph(_) => "a graph",
            Value::Node(_) => "a node",
            Value::Edge(_) => "an edge type",
            Value::Lambda(_) => "a lambda",
            Value::Fuzzy(_) => "a fuzzy number",
            Value::Heap(_) => "a heap",
            Value::Host(h) => h.described(),
        }
    }

    /// Rank of the type in the order of map keys and default sorting.
    fn kind_rank(&self) -> u8 {
        match self {
            Value::Num(_) => 0,
            Value::Str(_) => 1,
            Value::Logic(_) => 2,
            Value::Node(_) => 3,
            Value::Edge(_) => 4,
            Value::Array(_) => 5,
            Value::Graph(_) => 6,
            Value::Fuzzy(_) => 8,
            Value::Map(_) => 9,
            Value::Lambda(_) => 10,
            Value::Heap(_) => 12,
            Value::Host(h) => h.rank(),
            Value::None => 13,
        }
    }

    /// How `if` and `?:` read a value: a number > 0 is True, other numbers False, a logic value
    /// itself, anything else Undef.
    pub fn condition(&self) -> Logic {
        match self {
            Value::Logic(l) => *l,
            Value::Num(n) => Logic::from_bool(*n > 0.0),
            _ => Logic::UNDEF,
        }
    }

    /// `while`, graph-condition `for`, `exists` and `forall` need exactly True.
    pub fn is_exactly_true(&self) -> bool {
        matches!(self, Value::Logic(l) if l.is_true())
    }

    /// `==` by content; values of different types are never equal (docs/language.md, decision 13).
    #[inline]
    pub fn equals(&self, other: &Value) -> bool {
        // Numbers and strings (map keys, search states) are compared here, without the general
        // call.
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => return a == b,
            (Value::Str(a), Value::Str(b)) => return a == b,
            _ => {}
        }
        self.equals_at(other, 0, &mut Seen::default())
    }

    /// Containers nested deeper than `MAX_NESTING` (or holding themselves) are compared there
    /// without recursion (`deep.rs`); pairs of containers already found equal are remembered
    /// (`Seen`), so that shared parts are compared once.
    fn equals_at(&self, other: &Value, depth: usize, seen: &mut Seen) -> bool {
        let depth = depth + 1;
        match (self, other) {
            (Value::None, Value::None) => true,
            (Value::Num(a), Value::Num(b)) => a == b,
            (Value::Logic(a), Value::Logic(b)) => a == b,
            (Value::Str(a), Value::Str(b)) => a == b,
            _ if depth >= MAX_NESTING => deep::equals(self, other),
            (Value::Array(a), Value::Array(b)) => {
                Rc::ptr_eq(a, b)
                    || seen.pair(Rc::as_ptr(a).cast(), Rc::as_ptr(b).cast(), a.borrow().len(), |seen| {
                        let (a, b) = (a.borrow(), b.borrow());
                        a.len() == b.len() && a.iter().zip(b.iter()).all(|(x, y)| x.equals_at(y, depth, seen))
                    })
            }
            (Value::Map(a), Value::Map(b)) => {
                Rc::ptr_eq(a, b)
                    || seen.pair(Rc::as_ptr(a).cast(), Rc::as_ptr(b).cast(), a.borrow().len(), |seen| {
                        let (a, b) = (a.borrow(), b.borrow());
                        a.len() == b.len()
                            && a.iter().zip(b.iter()).all(|((k1, v1), (k2, v2))| {
                                k1.equals_at(k2, depth, seen) && v1.equals_at(v2, depth, seen)
                            })
                    })
            }
            (Value::Graph(a), Value::Graph(b)) => Rc::ptr_eq(a, b) || *a.borrow() == *b.borrow(),
            (Value::Node(a), Value::Node(b)) => a.class == b.class && a.id == b.id,
            (Value::Edge(a), Value::Edge(b)) => a == b,
            (Value::Lambda(a), Value::Lambda(b)) => Rc::ptr_eq(a, b),
            (Value::Fuzzy(a), Value::Fuzzy(b)) => a == b,
            (Value::Heap(a), Value::Heap(b)) => Rc::ptr_eq(a, b),
            (Value::Host(a), Value::Host(b)) => Rc::ptr_eq(a, b),
            _ => false,
        }
    }

    /// `<` and friends: Some(order) for comparable values of one type, None otherwise (Undef).
    pub fn compare(&self, other: &Value) -> Option<Ordering> {
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => a.partial_cmp(b),
            (Value::Str(a), Value::Str(b)) => Some(a.as_bytes().cmp(b.as_bytes())),
            (Value::Logic(a), Value::Logic(b)) => Some(a.cmp_truth(*b)),
            (Value::Node(a), Value::Node(b)) => Some((a.class, a.id).cmp(&(b.class, b.id))),
            (Value::Edge(a), Value::Edge(b)) => Some(a.cmp(b)),
            _ => None,
        }
    }

    /// A total order for map keys and default `sort()`: by type, then by value.
    pub fn total_cmp(&self, other: &Value) -> Ordering {
        self.total_cmp_at(other, 0, &mut Seen::default())
    }

    fn total_cmp_at(&self, other: &Value, depth: usize, seen: &mut Seen) -> Ordering {
        let depth = depth + 1;
        let by_kind = self.kind_rank().cmp(&other.kind_rank());
        if by_kind != Ordering::Equal {
            return by_kind;
        }
        match (self, other) {
            (Value::Num(a), Value::Num(b)) => a.total_cmp(b),
            (Value::Logic(a), Value::Logic(b)) => {
                a.cmp_truth(*b).then(a.p0.total_cmp(&b.p0)).then(a.p1.total_cmp(&b.p1))
            }
            (Value::Array(a), Value::Array(b)) if depth >= MAX_NESTING => deep::total_cmp(a, b),
            (Value::Array(a), Value::Array(b)) => {
                let mut order = Ordering::Equal;
                seen.pair(Rc::as_ptr(a).cast(), Rc::as_ptr(b).cast(), a.borrow().len(), |seen| {
                    let (a, b) = (a.borrow(), b.borrow());
                    order = a
                        .iter()
                        .zip(b.iter())
                        .map(|(x, y)| x.total_cmp_at(y, depth, seen))
                        .find(|o| o.is_ne())
                        .unwrap_or_else(|| a.len().cmp(&b.len()));
                    order.is_eq()
                });
                order
            }
            (Value::Graph(a), Value::Graph(b)) => {
                let (a, b) = (a.borrow(), b.borrow());
                (a.class, a.facts.hash()).cmp(&(b.class, b.facts.hash()))
            }
            (Value::Fuzzy(a), Value::Fuzzy(b)) => {
                a.iter().zip(b.iter()).map(|(x, y)| x.total_cmp(y)).find(|o| o.is_ne()).unwrap_or(Ordering::Equal)
            }
            (Value::Lambda(a), Value::Lambda(b)) => Rc::as_ptr(a).cast::<()>().cmp(&Rc::as_ptr(b).cast::<()>()),
            (Value::Map(a), Value::Map(b)) => Rc::as_ptr(a).cmp(&Rc::as_ptr(b)),
            (Value::Heap(a), Value::Heap(b)) => Rc::as_ptr(a).cmp(&Rc::as_ptr(b)),
            (Value::Host(a), Value::Host(b)) => Rc::as_ptr(a).cast::<()>().cmp(&Rc::as_ptr(b).cast::<()>()),
            _ => self.compare(other).unwrap_or(Ordering::Equal),
        }
    }

    /// How many items a container holds (what a shallow copy copies); 0 for other values.
    pub fn items(&self) -> usize {
        match self {
            Value::Array(a) => a.borrow().len(),
            Value::Map(m) => m.borrow().len(),
            Value::Heap(h) => h.borrow().len(),
            _ => 0,
        }
    }

    /// A copy for `A[i] = v` and `copy()`: containers shallowly, scalars as they are.
    pub fn shallow_copy(&self) -> Value {
        match self {
            Value::Array(a) => Value::array(a.to_vec()),
            Value::Map(m) => Value::Map(Rc::new(RefCell::new(m.borrow().clone()))),
            Value::Heap(h) => Value::Heap(Rc::new(RefCell::new(h.borrow().clone()))),
            other => other.clone(),
        }
    }
}

/// Pairs of containers found equal while comparing two values. Values that share parts (an
/// array of the same array twice, nested 60 deep) would otherwise be compared exponentially
/// often; the set is made only once a comparison has looked at 4096 items.
#[derive(Default)]
struct Seen {
    work: usize,
    equal: Option<rustc_hash::FxHashSet<(*const (), *const ())>>,
}

impl Seen {
    /// Whether the containers at `a` and `b` (with `len` items) are equal, by `compare` unless
    /// they were found so before.
    fn pair(&mut self, a: *const (), b: *const (), len: usize, compare: impl FnOnce(&mut Seen) -> bool) -> bool {
        if self.equal.as_ref().is_some_and(|set| set.contains(&(a, b))) {
            return true;
        }
        self.work += len;
        if self.work > 4096 && self.equal.is_none() {
            self.equal = Some(Default::default());
        }
        let equal = compare(self);
        if equal {
            if let Some(set) = &mut self.equal {
                set.insert((a, b));
            }
        }
        equal
    }
}

thread_local! {
    /// Set while `drop_nested` empties `PENDING`: containers dropped meanwhile hand their items
    /// over instead of dropping them in place.
    static DROPPING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
    static PENDING: RefCell<Vec<Value>> = const { RefCell::new(Vec::new()) };
}

/// Drops the items of a container that is being dropped without recursing into the
/// containers among them: an array nested a million deep (a loop of `a = [a]` makes one)
/// would otherwise need a frame of native stack per level.
pub(crate) fn drop_nested(items: impl IntoIterator<Item = Value>) {
    let mut items =
        items.into_iter().filter(|v| matches!(v, Value::Array(_) | Value::Map(_) | Value::Heap(_))).peekable();
    if items.peek().is_none() {
        return;
    }
    if DROPPING.with(|d| d.get()) {
        PENDING.with(|p| p.borrow_mut().extend(items));
        return;
    }
    DROPPING.with(|d| d.set(true));
    PENDING.with(|p| p.borrow_mut().extend(items));
    while let Some(v) = PENDING.with(|p| p.borrow_mut().pop()) {
        drop(v);
    }
    DROPPING.with(|d| d.set(false));
}
