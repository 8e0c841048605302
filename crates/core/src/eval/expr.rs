//! Expressions.

use super::closure::ValueFn;
use super::node_test::TestSite;
use super::{fail, Flow, Interp, R};
use crate::compile::ir::{Ex, NodeRef, Slot};
use crate::value::{Logic, Map, NodeVal, Value};
use ds_base::diagnostics::Diagnostic;
use ds_syntax::ast::UnOp;
use ds_syntax::Span;
use smallvec::SmallVec;

pub type Args = SmallVec<[Value; 4]>;

/// A condition of `exists` or `forall` over a node variable: its node (what a `NodeTest` is
/// made from) and its closure (what tests a node the general way).
pub(crate) type Cond<'a> = (&'a Ex, &'a super::closure::ValueFn);

impl Interp {
    /// A key and value of a map literal, added to `m`: a key given twice is an error.
    pub(super) fn map_entry(&self, m: &mut Map, key: Value, val: Value, key_span: Span) -> R<()> {
        if !m.insert(key.clone(), val) {
            return fail(key_span, format!("duplicate key `{}` in map literal", self.text(&key)));
        }
        Ok(())
    }

    /// `eval(Str)` once its argument is evaluated.
    pub(super) fn eval_string(
        &mut self,
        v: Value,
        arg_span: Span,
        scope: &crate::compile::ir::EvalScope,
        span: Span,
    ) -> R<Value> {
        let src = match v {
            Value::Str(s) => s,
            other => return fail(arg_span, format!("`eval` takes a string of code, not {}", other.described())),
        };
        self.eval_code(&src, scope, span)
    }
}

/// An item of a logic pair or fuzzy number (`(a, b)`): it must be a number.
pub(super) fn tuple_item(v: Value, span: Span) -> R<f64> {
    match v {
        Value::Num(n) => Ok(n),
        other => fail(span, format!("a logic pair or fuzzy number needs numbers, not {}", other.described())),
    }
}

/// The logic pair (2 items) or fuzzy number (3 or 4) of these numbers.
pub(super) fn tuple_value(nums: [f64; 4], len: usize) -> Value {
    {
        match len {
            2 => Value::Logic(Logic::new(nums[0], nums[1])),
            3 => Value::fuzzy([nums[0], nums[1], nums[1], nums[2]]),
            _ => Value::fuzzy(nums),
        }
    }
}

impl Interp {
    /// A node constant in the current graph's class.
    pub fn node_const(&mut self, n: &NodeRef, span: Span) -> R<NodeVal> {
        let class = match &self.graph {
            Value::Graph(g) => g.borrow().class,
            other => {
                return fail(span, format!("node `{}` needs GRAPH to be a graph, not {}", n.name, other.described()))
            }
        };
        if let Some((c, id)) = n.cache.get() {
            if c == class {
                return Ok(NodeVal { class, id, graph: None });
            }
        }
        match self.world.find_node(class, n.sym, n.alt) {
            Some(id) => {
                n.cache.set(Some((class, id)));
                Ok(NodeVal { class, id, graph: None })
            }
            None => {
                // The current graph's senses graph (`G.senses_graph(S)`), if it has the node.
                let senses = match &self.graph {
                    Value::Graph(g) => g.borrow().data.senses.clone(),
                    _ => None,
                };
                if let Some(s) = senses {
                    let sclass = s.borrow().class;
                    if let Some(id) = self.world.find_node(sclass, n.sym, n.alt) {
                        return Ok(NodeVal { class: sclass, id, graph: Some(s) });
                    }
                }
                let gname = self.text_graph_name();
                fail(span, format!("node `{}` is not in the current graph `{gname}`", n.name))
            }
        }
    }

    fn text_graph_name(&self) -> String {
        match &self.graph {
            Value::Graph(g) => g.borrow().name.to_string(),
            _ => "?".into(),
        }
    }

    /// A runtime error about `X.name` read as a node, noting that `name` is a method when it is one
    /// (`A.size` for `A.size()`).
    fn with_method_hint(&self, span: Span, message: String, name: &str) -> Flow {
        let mut d = match self.compiler.registry.method(name) {
            Some(_) => Diagnostic::error(span, format!("`{name}` is a method: call it with parentheses, `.{name}()`"))
                .with_note(format!("without them, `.{name}` reads a node: {message}")),
            None => Diagnostic::error(span, message),
        };
        d.runtime = true;
        Flow::Error(Box::new(d))
    }

    /// `G=>$n`: the node of G's class, bound to G, once G is evaluated.
    pub(super) fn node_of_value(&mut self, g: Value, n: &NodeRef, span: Span) -> R<Value> {
        let g = match g {
            Value::Graph(g) => g,
            other => {
                let message = format!("`=>` and `.$node` need a graph on the left, not {}", other.described());
                return Err(self.with_method_hint(span, message, &n.name));
            }
        };
        let class = g.borrow().class;
        if let Some((c, id)) = n.cache.get() {
            if c == class {
                return Ok(Value::Node(NodeVal { class, id, graph: Some(g) }));
            }
        }
        match self.world.find_node(class, n.sym, n.alt) {
            Some(id) => {
                n.cache.set(Some((class, id)));
                Ok(Value::Node(NodeVal { class, id, graph: Some(g) }))
            }
            None => {
                let gname = g.borrow().name.clone();
                Err(self.with_method_hint(span, format!("graph `{gname}` has no node `{}`", n.name), &n.name))
            }
        }
    }

    /// `exists(V, Cond [, N [, M]])`, as decision 1 of docs/language.md defines it; `cond` is
    /// the condition with its closure, the bounds' closures come with their places.
    pub(super) fn exists(
        &mut self,
        var: Slot,
        cond: Cond,
        min: Option<&(ValueFn, Span)>,
        max: Option<&(ValueFn, Span)>,
        span: Span,
    ) -> R<Value> {
        let bounds = match (min, max) {
            (None, _) => None,
            (Some(a), b) => {
                let lo = self.count_arg(a)?;
                let hi = match b {
                    Some(b) => self.count_arg(b)?,
                    None => lo,
                };
                Some((lo, hi))
            }
        };
        self.exists_within(var, cond, bounds, span, None)
    }

    /// `exists` once its bounds are known; `site`: the test of a compiled body's `exists`
    /// (None: the one kept by the condition's address).
    pub(super) fn exists_within(
        &mut self,
        var: Slot,
        (cond, test): Cond,
        bounds: Option<(f64, f64)>,
        span: Span,
        site: Option<&TestSite>,
    ) -> R<Value> {
        let g = self.current_graph(span)?;
        let class = g.borrow().class;
        if let Some((node_test, bound)) = self.bound_test(var, cond, site) {
            return Ok(Value::bool(self.exists_by_test(var, (&node_test, bound), bounds, span)?));
        }
        let mut count = 0.0;
        let mut first = None;
        let mut id = self.world.class(class).first();
        while self.world.class(class).contains(id) {
            // Each node tried is a step: `exists` over a large graph is one expression, but
            // the limits must still stop it.
            self.tick(span)?;
            let node = Value::Node(NodeVal { class, id, graph: None });
            self.set(var, node);
            if test(self)?.is_exactly_true() {
                if bounds.is_none() {
                    return Ok(Value::bool(true));
                }
                count += 1.0;
                first.get_or_insert(id);
            }
            id += 1;
        }
        let ok = match bounds {
            Some((lo, hi)) => count >= lo && count <= hi,
            None => false,
        };
        if let (true, Some(id)) = (ok, first) {
            self.set_node(var, class, id);
        }
        Ok(Value::bool(ok))
    }

    fn count_arg(&mut self, (bound, at): &(ValueFn, Span)) -> R<f64> {
        match bound(self)? {
            Value::Num(n) => Ok(n),
            other => fail(*at, format!("a count must be a number, not {}", other.described())),
        }
    }

    pub(super) fn forall(&mut self, var: Slot, (cond, test): Cond, span: Span) -> R<Value> {
        let g = self.current_graph(span)?;
        let class = g.borrow().class;
        if let Some((node_test, bound)) = self.bound_test(var, cond, None) {
            return Ok(Value::bool(self.forall_by_test(var, (&node_test, bound), span)?));
        }
        let mut id = self.world.class(class).first();
        while self.world.class(class).contains(id) {
            self.tick(span)?;
            self.set_node(var, class, id);
            if !test(self)?.is_exactly_true() {
                return Ok(Value::bool(false));
            }
            id += 1;
        }
        Ok(Value::bool(true))
    }

    pub(super) fn unary(&mut self, op: UnOp, v: Value, span: Span) -> R<Value> {
        match (op, &v) {
            (UnOp::Neg, Value::Num(n)) => Ok(Value::Num(-n)),
            // Reference 4.1: prefix minus is `0 - X.float()`, and a logic value's float is p1.
            (UnOp::Neg, Value::Logic(l)) => Ok(Value::Num(-l.p1)),
            (UnOp::Neg, _) => fail(span, format!("unary `-` needs a number, not {}", v.described())),
            (UnOp::Not, Value::Logic(l)) => Ok(Value::Logic(l.negate())),
            (UnOp::Not, _) => Ok(Value::Logic(Logic::UNDEF)),
            (UnOp::IsUndef, Value::Logic(l)) => Ok(Value::bool(l.is_undef())),
            (UnOp::IsUndef, _) => Ok(Value::bool(false)),
        }
    }

    pub fn index(&mut self, o: Value, i: Value, span: Span) -> R<Value> {
        if let Value::Map(_) = o {
            self.key_work(&i, span)?;
        }
        if let Some(v) = item(&o, &i) {
            return Ok(v);
        }
        match (&o, &i) {
            (Value::Str(s), Value::Num(n)) => Ok(match position(*n, s.len()) {
                Some(p) => Value::substr(s.get(p..p + 1).unwrap_or("")),
                None => Value::str(""),
            }),
            (Value::Node(n), Value::Node(_)) => super::get_attr(self, n, &i, span),
            (Value::Logic(l), Value::Num(n)) => match *n as i64 {
                0 => Ok(Value::Num(l.p0)),
                1 => Ok(Value::Num(l.p1)),
                _ => fail(span, "a logic value has items 0 and 1 only"),
            },
            (Value::Fuzzy(f), Value::Num(n)) => match f.get(*n as usize) {
                Some(x) if *n >= 0.0 => Ok(Value::Num(*x)),
                _ => fail(span, "a fuzzy number has items 0 to 3"),
            },
            (Value::Graph(g), Value::Num(n)) => {
                let class = g.borrow().class;
                let c = self.world.class(class);
                let len = c.len();
                if let Some(id) = c.nth(*n as usize).filter(|_| *n >= 1.0) {
                    Ok(Value::Node(NodeVal { class, id, graph: Some(g.clone()) }))
                } else {
                    fail(
                        span,
                        format!("node index {} is out of range 1..{len}", crate::value::number::format_number(*n)),
                    )
                }
            }
            _ => fail(span, format!("{} cannot be indexed by {}", o.described(), i.described())),
        }
    }

    pub(super) fn set_index(&mut self, o: Value, i: Value, v: Value, span: Span) -> R<()> {
        match (&o, &i) {
            (Value::Array(a), Value::Num(n)) => {
                // The copy first: `v` may be the array itself (`a[0] = a`).
                let v = self.stored_copy(v, span)?;
                let mut a = a.borrow_mut();
                let len = a.len();
                match position(*n, len) {
                    Some(p) => {
                        a[p] = v;
                        Ok(())
                    }
                    None => fail(
                        span,
                        format!(
                            "index {} is out of range for an array of {len}",
                            crate::value::number::format_number(*n)
                        ),
                    ),
                }
            }
            (Value::Map(m), _) => {
                self.key_work(&i, span)?;
                store_in_map(m, i, v, span)
            }
            (Value::Node(n), Value::Node(_)) => super::set_attr(self, n, &i, v, span),
            _ => fail(span, format!("cannot assign to an item of {} indexed by {}", o.described(), i.described())),
        }
    }

    /// Hashing a long string key as a whole is work for the limits.
    pub(super) fn key_work(&mut self, key: &Value, span: Span) -> R<()> {
        match key {
            Value::Str(s) => self.text_work(s.len(), span),
            _ => Ok(()),
        }
    }

    /// `A[i] = v` stores a copy: containers shallowly, a graph as a new graph.
    fn stored_copy(&mut self, v: Value, span: Span) -> R<Value> {
        match &v {
            Value::Graph(g) => {
                let copy = self.world.copy_graph(&g.borrow(), None);
                Ok(Value::Graph(copy))
            }
            _ => {
                self.bulk(v.items(), std::mem::size_of::<Value>(), span)?;
                Ok(v.shallow_copy())
            }
        }
    }
}

/// Whether `key_work` has nothing to count for `key`.
#[inline(always)]
pub(super) fn key_is_no_work(key: &Value) -> bool {
    match key {
        Value::Str(s) => super::meter::uncounted_text(s.len()),
        _ => true,
    }
}

/// `M[k] = v` of a map, the key's work counted (`Interp::key_work`): the entry stored, unless
/// a new one would pass the memory limit.
#[inline]
pub(super) fn store_in_map(m: &std::cell::RefCell<Map>, key: Value, v: Value, span: Span) -> R<()> {
    if !m.borrow().room_for_one() {
        return super::limit_error(span, super::Limit::Memory, None);
    }
    Map::insert_shared(m, key, v);
    Ok(())
}

/// `o[i]` of an array by position or of a map (None for any other container or index): read
/// in place, the work of hashing a map's key counted by the caller (`Interp::key_work`).
pub(super) fn item(o: &Value, i: &Value) -> Option<Value> {
    match (o, i) {
        (Value::Array(a), Value::Num(n)) => {
            let a = a.borrow();
            Some(position(*n, a.len()).map_or(Value::None, |p| a[p].dup()))
        }
        (Value::Map(m), _) => Some(m.borrow().get(i).map_or(Value::None, Value::dup)),
        _ => None,
    }
}

/// A position in a sequence of `len`; negative counts from the end.
pub fn position(n: f64, len: usize) -> Option<usize> {
    if n.is_nan() {
        return None;
    }
    let i = n as i64; // `as` truncates toward zero, without a libm call
    let i = if i < 0 { i + len as i64 } else { i };
    (0..len as i64).contains(&i).then_some(i as usize)
}

/// `L[0] = x` / `L[1] = x`: the logic value with p0 / p1 replaced. The original meant to allow
/// it (its changelog 1.0.1) but silently ignored it (reference 9.28); ds does what was meant.
pub(super) fn replace_component(l: Logic, i: &Value, v: &Value, span: Span) -> R<Logic> {
    let (Value::Num(n), Value::Num(x)) = (i, v) else {
        return fail(span, format!("a logic value's item is set by index 0 or 1 to a number, not {}", v.described()));
    };
    match *n as i64 {
        0 if *n >= 0.0 => Ok(Logic::new(*x, l.p1)),
        1 => Ok(Logic::new(l.p0, *x)),
        _ => fail(span, "a logic value has items 0 and 1 only"),
    }
}

/// `F[i] = x`: the fuzzy number with component i (0 to 3) replaced.
pub(super) fn replace_fuzzy(f: &[f64; 4], i: &Value, v: &Value, span: Span) -> R<Value> {
    let (Value::Num(n), Value::Num(x)) = (i, v) else {
        return fail(span, format!("a fuzzy number's item is set by index 0 to 3 to a number, not {}", v.described()));
    };
    if !(0.0..4.0).contains(n) {
        return fail(span, "a fuzzy number has items 0 to 3");
    }
    let mut parts = *f;
    parts[*n as usize] = *x;
    Ok(Value::Fuzzy(std::rc::Rc::new(parts)))
}

/// `S[i] = "c"`: S with the byte at position i (negative from the end) replaced by the first
/// character of the new value.
pub(super) fn replace_char(s: &str, i: &Value, v: &Value, span: Span) -> R<Value> {
    let (Value::Num(n), Value::Str(new)) = (i, v) else {
        return fail(span, format!("a string item is set by a number index to a string, not {}", v.described()));
    };
    let index = crate::value::number::format_number(*n);
    let Some(p) = position(*n, s.len()) else {
        return fail(span, format!("index {index} is out of range for a string of {} bytes", s.len()));
    };
    if !s.is_char_boundary(p) {
        let start = (0..p).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
        let c = s[start..].chars().next().unwrap_or(' ');
        return fail(
            span,
            format!("index {index} is inside the character `{c}`, whose {} bytes start at index {start}", c.len_utf8()),
        );
    }
    let end = s[p..].chars().next().map_or(p, |c| p + c.len_utf8());
    let first: String = new.chars().take(1).collect();
    Ok(Value::Str(format!("{}{}{}", &s[..p], first, &s[end..]).into()))
}

/// Whether `and` (`all`) or `or` stops at this argument's value: `and` at the first that is not
/// exactly True, `or` at the first that is.
pub(super) fn and_or_stops(v: Value, all: bool) -> bool {
    v.is_exactly_true() != all
}

/// Which of a ternary's `n` branches (2 to 4) its condition picks: True the first, False the
/// second, Undef the third (or the last of two), any other value the fourth (or the last).
pub(super) fn ternary_branch(c: Logic, n: usize) -> usize {
    if c.is_true() {
        0
    } else if c.is_false() || n == 2 {
        1
    } else if c.is_undef() || n == 3 {
        2
    } else {
        3
    }
}
