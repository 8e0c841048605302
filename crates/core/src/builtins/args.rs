//! Typed unpacking of a builtin's object and arguments (as koto's `instance_and_args`): a
//! builtin asks for the Rust type it works on, `this::<ArrayRef>("push", obj, span)?` or
//! `arg::<f64>(args, 0, "create", span)?`, and a value of another kind is refused with the one
//! wording every builtin shares ("`push` works on arrays, not on a number"; "argument 1 of
//! `create` must be a number, not a string").

use crate::compile::registry::Receivers;
use crate::eval::{fail, R};
use crate::search::space::Space;
use crate::value::heap::HeapRef;
use crate::value::{ArrayRef, MapRef, NodeVal, Str, Value};
use crate::world::GraphRef;
use ds_syntax::Span;
use std::rc::Rc;

/// A kind of value a method works on.
pub(crate) trait Object: Sized {
    /// The kind, which names it in errors.
    const KIND: Receivers;
    /// The value as this type, or the value back when it is of another kind.
    fn from_value(v: Value) -> Result<Self, Value>;
}

/// A kind of value a builtin takes as an argument (borrowed from the arguments when it can).
pub(crate) trait Arg<'a>: Sized {
    /// How an error names a value of this kind: "a number".
    const WHAT: &'static str;
    fn from_arg(v: &'a Value) -> Option<Self>;
}

/// The object of a method call (the compiler guarantees there is one).
pub(crate) fn object(obj: Option<Value>, span: Span) -> R<Value> {
    match obj {
        Some(v) => Ok(v),
        None => fail(span, "this method needs an object: write `X.method(...)`"),
    }
}

/// The object of method `name` as a `T`.
pub(crate) fn this<T: Object>(name: &str, obj: Option<Value>, span: Span) -> R<T> {
    T::from_value(object(obj, span)?).or_else(|v| wrong_object(name, &v, &T::KIND.describe(), span))
}

pub(crate) fn wrong_object<T>(name: &str, v: &Value, expected: &str, span: Span) -> R<T> {
    fail(span, format!("`{name}` works on {expected}, not on {}", v.described()))
}

/// Argument `i` (from 0) of `fname` as a `T`.
pub(crate) fn arg<'a, T: Arg<'a>>(args: &'a [Value], i: usize, fname: &str, span: Span) -> R<T> {
    match args.get(i) {
        Some(v) => match T::from_arg(v) {
            Some(x) => Ok(x),
            None => fail(span, format!("argument {} of `{fname}` must be {}, not {}", i + 1, T::WHAT, v.described())),
        },
        None => fail(span, format!("`{fname}` is missing argument {}", i + 1)),
    }
}

macro_rules! object {
    ($t:ty, $kind:ident, $variant:ident) => {
        impl Object for $t {
            const KIND: Receivers = Receivers::$kind;
            fn from_value(v: Value) -> Result<Self, Value> {
                match v {
                    Value::$variant(x) => Ok(x),
                    other => Err(other),
                }
            }
        }
    };
}

object!(ArrayRef, ARRAY, Array);
object!(MapRef, MAP, Map);
object!(Str, STRING, Str);
object!(GraphRef, GRAPH, Graph);
object!(NodeVal, NODE, Node);
object!(HeapRef, HEAP, Heap);

/// Host objects (`value::host::Host`): files, SVG pictures, state spaces.
macro_rules! host_object {
    ($t:ty, $kind:ident) => {
        impl Object for Rc<$t> {
            const KIND: Receivers = Receivers::$kind;
            fn from_value(v: Value) -> Result<Self, Value> {
                v.as_host::<$t>().ok_or(v)
            }
        }
    };
}

host_object!(std::cell::RefCell<super::file::FileHandle>, FILE);
host_object!(std::cell::RefCell<super::svg::Svg>, PICTURE);
host_object!(Space, SPACE);

impl Arg<'_> for f64 {
    const WHAT: &'static str = "a number";
    fn from_arg(v: &Value) -> Option<f64> {
        match v {
            Value::Num(n) => Some(*n),
            _ => None,
        }
    }
}

impl<'a> Arg<'a> for &'a str {
    const WHAT: &'static str = "a string";
    fn from_arg(v: &'a Value) -> Option<&'a str> {
        match v {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

impl Arg<'_> for GraphRef {
    const WHAT: &'static str = "a graph";
    fn from_arg(v: &Value) -> Option<GraphRef> {
        match v {
            Value::Graph(g) => Some(g.clone()),
            _ => None,
        }
    }
}
