//! Expressions as closures: variables, constants, operators, demon calls, and the tests of `if`
//! and `while`. Every kind of expression has a closure (here, or in the files beside this).

use super::num::NumFn;
use super::{data, no_closure_value, Line, Node, StFn, MAX_NESTING};
use crate::compile::ir::{DemonId, Ex, ExKind, FnCode, Leaf, NumCode, Slot, Target};
use crate::eval::ops::number;
use crate::eval::{Flow, Interp, R};
use crate::value::{Logic, Value};
use ds_syntax::ast::BinOp;
use ds_syntax::Span;
use std::cell::Cell;
use std::rc::{Rc, Weak};

/// An expression, evaluated.
pub(crate) type ValueFn = Box<dyn Fn(&mut Interp) -> R<Value>>;

/// The code a callee gives at a call: from its value at the callee's place (the first span),
/// or the error of a value that cannot be called (`Interp::callable`; the call's place second).
type CodeFn = Box<dyn Fn(&mut Interp, Span, Span) -> R<Rc<FnCode>>>;

/// An expression as a closure.
pub(super) fn value(e: &Ex, depth: u32) -> ValueFn {
    if depth > MAX_NESTING {
        return super::deep_value(e);
    }
    if let Some(f) = super::graph::expression(e, depth + 1) {
        return f;
    }
    match &e.kind {
        ExKind::Const(Value::Num(n)) => {
            let n = *n;
            Box::new(move |_| Ok(Value::Num(n)))
        }
        ExKind::Const(v) => {
            let v = Node::new(v);
            Box::new(move |_| Ok(v.get().dup()))
        }
        ExKind::Var(Slot::Local(i)) => {
            let i = *i as usize;
            Box::new(move |it| Ok(it.local(i).dup()))
        }
        ExKind::Var(Slot::Global(i)) => {
            let i = *i as usize;
            Box::new(move |it| Ok(it.globals[i].dup()))
        }
        ExKind::Binary { op, left, right, num } => binary(e, *op, left, right, num.as_ref(), depth + 1),
        ExKind::Demon { id, args } => call(Callee::Demon(*id), args, e.span, depth + 1),
        ExKind::CallValue { callee, args } => call(Callee::held(callee, depth + 1), args, e.span, depth + 1),
        ExKind::Sum(items) => super::text::sum(items, depth + 1),
        ExKind::Builtin { .. } => super::method::call(e, depth + 1).unwrap_or_else(|| no_closure_value(e)),
        ExKind::Index { object, index } => {
            super::index::read(e, depth + 1).unwrap_or_else(|| data::index(object, index, e.span, depth + 1))
        }
        ExKind::Array(items) => data::array(items, depth + 1),
        ExKind::Map(entries) => data::map(entries, depth + 1),
        ExKind::Ternary { cond, branches } => data::ternary(cond, branches, depth + 1),
        ExKind::AndOr { all, args } => data::and_or(*all, args, depth + 1),
        ExKind::NodeOf { graph, node } => data::node_of(graph, node, e.span, depth + 1),
        ExKind::CurrentGraph => data::current_graph(),
        ExKind::Tuple(items) => data::tuple(items, depth + 1),
        ExKind::ValueInModels { models, expr } => data::value_in_models(models, expr, depth + 1),
        ExKind::Axioms { usage, axioms } => data::axioms(*usage, axioms, e.span, depth + 1),
        ExKind::Exists { var, cond, min, max } => {
            let (var, span, test) = (*var, e.span, value(cond, depth + 1));
            let cond = Node::new(&**cond);
            let bound = |b: &Option<Box<Ex>>| b.as_deref().map(|b| (value(b, depth + 1), b.span));
            let (min, max) = (bound(min), bound(max));
            Box::new(move |it| it.exists(var, (cond.get(), &test), min.as_ref(), max.as_ref(), span))
        }
        ExKind::Forall { var, cond } => {
            let (var, span, test) = (*var, e.span, value(cond, depth + 1));
            let cond = Node::new(&**cond);
            Box::new(move |it| it.forall(var, (cond.get(), &test), span))
        }
        ExKind::Eval { arg, scope } => data::eval(arg, scope, e.span, depth + 1),
        ExKind::Assign { target, value: v } => data::assign(target, v, e.span, depth + 1),
        ExKind::Compound { op, target, value: v } => data::compound(*op, target, v, e.span, depth + 1),
        ExKind::IncDec { target, delta } => data::inc_dec(target, *delta, e.span, depth + 1),
        ExKind::Lambda(code) => {
            let code = Node::new(code);
            Box::new(move |_| Ok(Value::Lambda(code.get().clone())))
        }
        ExKind::DemonValue(id) => {
            let (id, span) = (*id, e.span);
            Box::new(move |it| Ok(Value::Lambda(it.demon(id, span)?)))
        }
        // `graph::expression` took these.
        ExKind::Edge(_) | ExKind::Node(_) | ExKind::Unary { .. } => no_closure_value(e),
    }
}

/// The value of an expression where it is often a local variable (`return N`): read in place.
/// A demon call is made in place too (the operands of `fib(N - 1) + fib(N - 2)`): one native
/// frame less per call.
pub(super) enum Operand {
    Local(usize),
    Call(CallSite),
    Value(ValueFn),
}

impl Operand {
    pub(super) fn new(e: &Ex, depth: u32) -> Operand {
        match &e.kind {
            ExKind::Var(Slot::Local(i)) => Operand::Local(*i as usize),
            ExKind::Demon { id, args } if depth <= MAX_NESTING => {
                Operand::Call(CallSite::new(Callee::Demon(*id), args, e.span, depth))
            }
            ExKind::CallValue { callee, args } if depth <= MAX_NESTING => {
                Operand::Call(CallSite::new(Callee::held(callee, depth), args, e.span, depth))
            }
            _ => Operand::Value(value(e, depth)),
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, it: &mut Interp) -> R<Value> {
        match self {
            Operand::Local(i) => Ok(it.local(*i).dup()),
            Operand::Call(site) => site.run(it),
            Operand::Value(f) => f(it),
        }
    }

    /// The value where a number is wanted (`super::to_num`): a call's comes back in registers.
    #[inline(always)]
    pub(super) fn num(&self, it: &mut Interp) -> R<f64> {
        match self {
            Operand::Local(i) => match it.local(*i) {
                Value::Num(x) => Ok(*x),
                v => {
                    let v = v.dup();
                    super::to_num(it, v)
                }
            },
            Operand::Call(site) => site.run_num(it),
            Operand::Value(f) => {
                let v = f(it)?;
                super::to_num(it, v)
            }
        }
    }
}

/// A variable or a number constant: an operand the arithmetic reads in place.
fn leaf(e: &Ex) -> Option<Leaf> {
    match &e.kind {
        ExKind::Const(Value::Num(n)) => Some(Leaf::Num(*n)),
        ExKind::Var(slot) => Some(Leaf::Var(*slot)),
        _ => None,
    }
}

/// Whether `Interp::arith` may find a number in `e` (else the quick path is not worth trying).
fn may_be_number(e: &Ex) -> bool {
    matches!(e.kind, ExKind::Const(Value::Num(_)) | ExKind::Var(_) | ExKind::Binary { .. } | ExKind::Sum(_))
}

/// `left op right`: the arithmetic on numbers first (by `NumCode`'s closures, or on operands
/// that are leaves, items of containers or arithmetic on them: `N - 1`, `M[K] + 1`), the
/// operands evaluated and combined when that gives up.
fn binary(e: &Ex, op: BinOp, left: &Ex, right: &Ex, num: Option<&NumCode>, depth: u32) -> ValueFn {
    // Where the arithmetic gives up, both sides are evaluated and combined.
    let sides = Sides::new(left, right, e.span, depth);
    let test = super::num::is_comparison(op);
    let numbers = match num {
        Some(_) => super::num::code(e),
        None if test || super::num::is_arithmetic(op) => super::num::operator(op, left, right),
        None => None,
    };
    if let Some(f) = numbers {
        return Box::new(move |it| match f(it) {
            Some(x) => Ok(if test { Value::bool(x != 0.0) } else { Value::Num(x) }),
            None => sides.combine(op, it),
        });
    }
    // In WebAssembly one closure for every operator (as `guard_and_operator` in mod.rs).
    #[cfg(target_arch = "wasm32")]
    return values_any(op, sides);
    #[cfg(not(target_arch = "wasm32"))]
    by_op!(op, values(sides), values_any(op, sides))
}

/// The operator of a closure made for one: fixed in its code (`Fixed::<K>` is `OPS[K]`), or
/// read when it runs (a `BinOp`).
pub(super) trait OpOf: Copy + 'static {
    fn op(self) -> BinOp;
}

/// The operator `OPS[K]`, known when the closure is compiled.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy)]
pub(super) struct Fixed<const K: usize>;

#[cfg(not(target_arch = "wasm32"))]
impl<const K: usize> OpOf for Fixed<K> {
    #[inline(always)]
    fn op(self) -> BinOp {
        OPS[K]
    }
}

impl OpOf for BinOp {
    #[inline(always)]
    fn op(self) -> BinOp {
        self
    }
}

/// The operators closures are specialised for (`by_op!`), by index: the closure made for one
/// of them does its arithmetic without a `match` on the operator.
pub(super) const OPS: [BinOp; 11] = [
    BinOp::Add,
    BinOp::Sub,
    BinOp::Mul,
    BinOp::Lt,
    BinOp::Le,
    BinOp::Gt,
    BinOp::Ge,
    BinOp::Eq,
    BinOp::Ne,
    BinOp::Div,
    BinOp::Rem,
];

/// `make::<K>(args)` for the operator at `OPS[K]`, or `other` for any other operator.
macro_rules! by_op {
    ($op:expr, $make:ident ( $($arg:expr),* ), $other:expr) => {
        match $op {
            ds_syntax::ast::BinOp::Add => $make::<0>($($arg),*),
            ds_syntax::ast::BinOp::Sub => $make::<1>($($arg),*),
            ds_syntax::ast::BinOp::Mul => $make::<2>($($arg),*),
            ds_syntax::ast::BinOp::Lt => $make::<3>($($arg),*),
            ds_syntax::ast::BinOp::Le => $make::<4>($($arg),*),
            ds_syntax::ast::BinOp::Gt => $make::<5>($($arg),*),
            ds_syntax::ast::BinOp::Ge => $make::<6>($($arg),*),
            ds_syntax::ast::BinOp::Eq => $make::<7>($($arg),*),
            ds_syntax::ast::BinOp::Ne => $make::<8>($($arg),*),
            ds_syntax::ast::BinOp::Div => $make::<9>($($arg),*),
            ds_syntax::ast::BinOp::Rem => $make::<10>($($arg),*),
            _ => $other,
        }
    };
}
pub(super) use by_op;

/// Whether `e` is an operator that `value` makes a `Sides` closure of (not arithmetic on leaves
/// or `NumCode`).
pub(super) fn two_sides(e: &Ex) -> Option<(BinOp, &Ex, &Ex)> {
    let ExKind::Binary { op, left, right, num: None } = &e.kind else { return None };
    (leaf(left).is_none() || leaf(right).is_none()).then_some((*op, &**left, &**right))
}

/// The two sides of an operator, as closures and as nodes (for the arithmetic on numbers).
pub(super) struct Sides {
    l: Operand,
    r: Operand,
    /// Whether `Interp::quick_binary` may find numbers on both sides.
    quick: bool,
    /// Whether both sides are demon calls (their values read as numbers: `combine_num`).
    calls: bool,
    left: Node<Ex>,
    right: Node<Ex>,
    span: Span,
}

impl Sides {
    pub(super) fn new(left: &Ex, right: &Ex, span: Span, depth: u32) -> Sides {
        let quick = may_be_number(left) && may_be_number(right);
        let (l, r) = (Operand::new(left, depth), Operand::new(right, depth));
        let calls = matches!((&l, &r), (Operand::Call(_), Operand::Call(_)));
        Sides { l, r, quick, calls, left: Node::new(left), right: Node::new(right), span }
    }

    /// The operator's value (`Interp::binary_values`).
    #[inline(always)]
    pub(super) fn combine(&self, op: BinOp, it: &mut Interp) -> R<Value> {
        if self.calls {
            let r = self.combine_num(op, it);
            return super::from_num(it, r);
        }
        if self.quick {
            if let Some(v) = it.quick_binary(op, self.left.get(), self.right.get(), &None) {
                return Ok(v);
            }
        }
        // `P1 == P2` of two locals holding nodes: compared where they are, not copied out
        // first (the copies are read back with wide loads that wait for their narrow stores).
        if let (Operand::Local(a), Operand::Local(b)) = (&self.l, &self.r) {
            if let Some(v) = crate::eval::ops::by_reference(op, it.local(*a), it.local(*b)) {
                return Ok(v);
            }
        }
        let a = self.l.get(it)?;
        let b = self.r.get(it)?;
        it.binary_values(op, a, b, self.span)
    }

    /// `combine` where a number is wanted (`super::to_num`), the operands read as numbers
    /// (the values of demon calls in registers) until one is not.
    #[inline(always)]
    pub(super) fn combine_num(&self, op: BinOp, it: &mut Interp) -> R<f64> {
        if self.quick {
            if let Some(v) = it.quick_binary(op, self.left.get(), self.right.get(), &None) {
                return super::to_num(it, v);
            }
        }
        let a = match self.l.num(it) {
            Ok(a) => a,
            Err(Flow::Return) => {
                let a = it.take_returned();
                let b = self.r.get(it)?;
                return self.values_num(op, a, b, it);
            }
            Err(e) => return Err(e),
        };
        let b = match self.r.num(it) {
            Ok(b) => b,
            Err(Flow::Return) => {
                let b = it.take_returned();
                return self.values_num(op, Value::Num(a), b, it);
            }
            Err(e) => return Err(e),
        };
        match number(op, a, b) {
            Some(x) => Ok(x),
            None => self.values_num(op, Value::Num(a), Value::Num(b), it),
        }
    }

    #[inline(never)]
    fn values_num(&self, op: BinOp, a: Value, b: Value, it: &mut Interp) -> R<f64> {
        let v = it.binary_values(op, a, b, self.span)?;
        super::to_num(it, v)
    }
}

#[cfg(not(target_arch = "wasm32"))]
fn values<const K: usize>(s: Sides) -> ValueFn {
    Box::new(move |it| s.combine(OPS[K], it))
}

/// Both sides evaluated, then combined (`Interp::binary_values`).
#[inline(always)]
fn values_any(op: BinOp, s: Sides) -> ValueFn {
    Box::new(move |it| s.combine(op, it))
}

/// `name(args)` of a demon defined with `def` (`Interp::call_demon`), or `f(args)` of the
/// lambda or demon a variable holds, with the arguments as closures.
fn call(callee: Callee, args: &[Ex], span: Span, depth: u32) -> ValueFn {
    let site = CallSite::new(callee, args, span, depth);
    Box::new(move |it| site.run(it))
}

/// What a call calls: a demon defined with `def`, or the value of an expression (`f(x)`, `f`
/// a variable holding a lambda), read at every call. Both run the same way once their code is
/// known: a lambda's call costs what a demon's does.
pub(super) enum Callee {
    Demon(DemonId),
    /// A value's code, with the callee's place.
    Held(CodeFn, Span),
}

impl Callee {
    fn held(callee: &Ex, depth: u32) -> Callee {
        let at = callee.span;
        match callee.kind {
            // A variable: read in place, its code remembered.
            ExKind::Var(slot) => {
                let var = HeldVar { slot, last: Cell::new(std::ptr::null()), kept: Cell::default() };
                Callee::Held(Box::new(move |it, at, span| var.code(it, at, span)), at)
            }
            _ => {
                let f = value(callee, depth);
                Callee::Held(
                    Box::new(move |it, at, span| {
                        let v = f(it)?;
                        Interp::callable(v, at, span)
                    }),
                    at,
                )
            }
        }
    }
}

/// A variable called as a function, with the code of the lambda or demon it held at the last
/// call (an inline cache): while it holds the same value, the call skips `FnCode::of`'s check
/// of the code's type. Any other value goes through `Interp::callable`, as an expression's does.
struct HeldVar {
    slot: Slot,
    /// The address of that code (null: none yet).
    last: Cell<*const FnCode>,
    /// Keeps the allocation at `last`, so that no other code can come to have its address.
    /// (Weak, so that a demon that calls itself through a variable makes no cycle.)
    kept: Cell<Weak<FnCode>>,
}

impl HeldVar {
    #[inline(always)]
    fn code(&self, it: &Interp, at: Span, span: Span) -> R<Rc<FnCode>> {
        let v = match self.slot {
            Slot::Local(i) => it.local(i as usize),
            Slot::Global(i) => &it.globals[i as usize],
        };
        if let Value::Lambda(code) = v {
            let last = self.last.get();
            if std::ptr::addr_eq(Rc::as_ptr(code), last) {
                // SAFETY: the code at `last` is an `Rc<FnCode>`'s (`miss`), still that one
                // (`kept`), and alive: the variable holds a strong count of it.
                unsafe {
                    Rc::increment_strong_count(last);
                    return Ok(Rc::from_raw(last));
                }
            }
        }
        self.miss(v.dup(), at, span)
    }

    /// The code of a value other than the last one (remembered if it has some).
    #[inline(never)]
    fn miss(&self, v: Value, at: Span, span: Span) -> R<Rc<FnCode>> {
        let code = Interp::callable(v, at, span)?;
        self.kept.set(Rc::downgrade(&code));
        self.last.set(Rc::as_ptr(&code));
        Ok(code)
    }
}

/// A call of a demon or of a lambda held in a variable.
pub(super) struct CallSite {
    callee: Callee,
    args: Box<[CallArg]>,
    span: Span,
}

impl CallSite {
    pub(super) fn new(callee: Callee, args: &[Ex], span: Span, depth: u32) -> CallSite {
        CallSite { callee, args: args.iter().map(|a| CallArg::new(a, depth + 1)).collect(), span }
    }

    /// The code to run (`Interp::callable` says what a value that cannot be called gets).
    #[inline(always)]
    fn code(&self, it: &mut Interp) -> R<Rc<FnCode>> {
        match &self.callee {
            Callee::Demon(id) => match it.demons.get(*id as usize) {
                Some(Some(code)) => Ok(code.clone()),
                _ => it.demon(*id, self.span),
            },
            Callee::Held(code, at) => code(it, *at, self.span),
        }
    }

    #[inline(always)]
    pub(super) fn run(&self, it: &mut Interp) -> R<Value> {
        if it.stack_low() {
            return it.stack_used_up(self.span);
        }
        let code = self.code(it)?;
        it.call_compiled(&code, &self.args, self.span)
    }

    /// `run` where a number is wanted (`super::to_num`).
    #[inline(always)]
    fn run_num(&self, it: &mut Interp) -> R<f64> {
        if it.stack_low() {
            return it.stack_used_up(self.span);
        }
        let code = self.code(it)?;
        it.call_compiled_num(&code, &self.args, self.span)
    }
}

/// An argument of a demon call, evaluated onto the frame stack.
pub(crate) enum CallArg {
    Local(usize),
    /// A local plus a number (`N + 1`), or minus one with the number negated (`N - 1`: in IEEE
    /// arithmetic `x - n` is `x + -n`, bit for bit): no `match` on the operator.
    LocalAdd {
        i: usize,
        n: f64,
        arg: ValueFn,
    },
    /// A local times a number (`N * 2`), with the node for when the local holds no number.
    LocalMul {
        i: usize,
        n: f64,
        arg: ValueFn,
    },
    /// Arithmetic (`N - 1`): its number, or its value where the numbers give up.
    Number(NumFn, ValueFn),
    Value(ValueFn),
}

impl CallArg {
    pub(super) fn new(a: &Ex, depth: u32) -> CallArg {
        if let ExKind::Binary { op, left, right, num: None } = &a.kind {
            if let (Some(Leaf::Var(Slot::Local(i))), Some(Leaf::Num(n))) = (leaf(left), leaf(right)) {
                let (i, arg) = (i as usize, || value(a, depth));
                match op {
                    BinOp::Add => return CallArg::LocalAdd { i, n, arg: arg() },
                    BinOp::Sub => return CallArg::LocalAdd { i, n: -n, arg: arg() },
                    BinOp::Mul => return CallArg::LocalMul { i, n, arg: arg() },
                    _ => {}
                }
            }
        }
        match (&a.kind, super::num::arith(a)) {
            (ExKind::Var(Slot::Local(i)), _) => CallArg::Local(*i as usize),
            // A global (a top-level call's `f(i)`): its number written in place, as arithmetic's.
            (ExKind::Var(Slot::Global(i)), _) => {
                let global = super::num::Arg::Global(*i as usize);
                CallArg::Number(Box::new(move |it| global.get(it)), value(a, depth))
            }
            (_, Some(f)) => CallArg::Number(f, value(a, depth)),
            _ => CallArg::Value(value(a, depth)),
        }
    }

    /// Pushes the argument's value onto the frame stack.
    #[inline(always)]
    pub(crate) fn push(&self, it: &mut Interp) -> R<()> {
        // `N - 1` first, its number written straight into the new slot: built in a temporary
        // that one wide load copies, it waits for the two stores before it (no forwarding).
        match self {
            CallArg::LocalAdd { i, n, .. } => {
                if let Value::Num(x) = it.local(*i) {
                    let x = *x + *n;
                    it.push_num(x);
                    return Ok(());
                }
            }
            // Any other arithmetic (a global's `i`, `x % 7`) likewise.
            CallArg::Number(f, _) => {
                if let Some(x) = f(it) {
                    it.push_num(x);
                    return Ok(());
                }
            }
            _ => {}
        }
        let v = match self {
            CallArg::Local(i) => {
                it.push_local(*i);
                return Ok(());
            }
            CallArg::LocalMul { i, n, arg } => match it.local(*i) {
                Value::Num(x) => Value::Num(x * n),
                _ => arg(it)?,
            },
            // `LocalAdd` and `Number` whose number was not there (the match above gave up).
            CallArg::LocalAdd { arg: v, .. } | CallArg::Number(_, v) | CallArg::Value(v) => v(it)?,
        };
        it.stack.push(v);
        Ok(())
    }
}

/// An expression statement, as `Interp::expr_stmt` runs it, when it is an assignment to a
/// variable or a demon call (None: another kind, compiled by the next rule of `stmt_line`).
pub(super) fn statement(e: &Ex, span: Span, depth: u32) -> Option<Line> {
    match &e.kind {
        ExKind::Assign { target, value: v } => {
            let Target::Var(slot) = **target else { return None };
            let append = crate::eval::append::appended(slot, v).map(|ops| pieces(ops, depth));
            let number = super::num::assignment(slot, v);
            let v = value(v, depth);
            // `S = S + x` with S a string is appended in place (`eval/append.rs`); the
            // arithmetic on numbers is tried first (`SetNum`), as `expr_stmt` does.
            let other: StFn = Box::new(move |it| {
                if let Some(done) = append.as_ref().and_then(|ops| it.append_to_var(slot, ops)) {
                    return done;
                }
                let x = v(it)?;
                it.set(slot, x);
                Ok(())
            });
            Some(Line::counted(slot, span, number, other))
        }
        ExKind::Demon { .. } => {
            let call = value(e, depth);
            Some(Line::Any(Box::new(move |it| {
                it.tick(span)?;
                call(it).map(drop)
            })))
        }
        ExKind::Builtin { .. } => super::data::push(e, span, depth).map(Line::Any),
        _ => None,
    }
}

/// The operands of an append (`append::appended`), compiled.
pub(super) fn pieces(operands: Vec<(&Ex, Span)>, depth: u32) -> Box<[crate::eval::append::Piece]> {
    use crate::eval::append::Operand;
    let operand = |e: &Ex| match &e.kind {
        ExKind::Const(v) => Operand::Const(v.dup()),
        ExKind::Var(slot) => Operand::Var(*slot),
        _ => Operand::Value(value(e, depth)),
    };
    operands.into_iter().map(|(e, span)| (operand(e), span)).collect()
}

/// The condition of an `if` or `while`: a comparison of numbers is tested without making a
/// logic value; when it gives up, or for any other condition, the value decides.
pub(super) enum Test {
    /// A local less than a number that is not NaN (`N < 2`, a recursion's base case): tested
    /// without `numeric::apply`'s `match` on the operator.
    LocalLt {
        i: usize,
        n: f64,
        slow: Box<Slow>,
    },
    /// A local compared with a number (`N <= 2`).
    LocalNum {
        op: BinOp,
        i: usize,
        n: f64,
        slow: Box<Slow>,
    },
    /// Any other comparison of numbers, variables or arithmetic on them (`I * I <= N`, `i < n`
    /// of globals), as a closure that gives a `bool` (`num::comparison`).
    Compare {
        test: super::num::CompareFn,
        slow: Box<Slow>,
    },
    Value(ValueFn),
}

impl Test {
    pub(super) fn new(cond: &Ex, depth: u32) -> Test {
        if let ExKind::Binary { op, left, right, num } = &cond.kind {
            let slow = || Box::new(Slow { op: *op, sides: Sides::new(left, right, cond.span, depth) });
            let comparison = super::num::is_comparison(*op);
            match (num, leaf(left), leaf(right)) {
                (None, Some(Leaf::Var(Slot::Local(i))), Some(Leaf::Num(n))) if *op == BinOp::Lt && !n.is_nan() => {
                    return Test::LocalLt { i: i as usize, n, slow: slow() }
                }
                (None, Some(Leaf::Var(Slot::Local(i))), Some(Leaf::Num(n))) if comparison => {
                    return Test::LocalNum { op: *op, i: i as usize, n, slow: slow() }
                }
                _ => {}
            }
            if let Some(test) = super::num::comparison(*op, left, right) {
                return Test::Compare { test, slow: slow() };
            }
        }
        Test::Value(value(cond, depth))
    }

    /// True or False, when the numbers decide (None: `Test::outcome` evaluates the condition).
    #[inline(always)]
    pub(super) fn quick(&self, it: &Interp) -> Option<bool> {
        match self {
            // As `numeric::apply(Lt, ..)`: None when x is NaN (n is not).
            Test::LocalLt { i, n, .. } => match it.local(*i) {
                Value::Num(x) if *x < *n => Some(true),
                Value::Num(x) if *x >= *n => Some(false),
                _ => None,
            },
            Test::LocalNum { op, i, n, .. } => match it.local(*i) {
                Value::Num(x) => Some(crate::eval::numeric::apply(*op, *x, *n)? != 0.0),
                _ => None,
            },
            Test::Compare { test, .. } => test(it),
            Test::Value(_) => None,
        }
    }

    /// Which block of an `if` arm the condition picks: 0 for True, 1 for False, 2 for Undef,
    /// 3 for any other value (as `exec` reads the condition).
    #[inline(always)]
    pub(super) fn outcome(&self, it: &mut Interp) -> R<u8> {
        if let Some(t) = self.quick(it) {
            return Ok(if t { 0 } else { 1 });
        }
        let c = match self {
            Test::LocalLt { slow, .. } | Test::LocalNum { slow, .. } | Test::Compare { slow, .. } => {
                let v = slow.sides.combine(slow.op, it)?;
                let c = v.condition();
                v.discard();
                c
            }
            Test::Value(f) => {
                let v = f(it)?;
                let c = v.condition();
                v.discard();
                c
            }
        };
        Ok(outcome(c))
    }

    /// Whether a `while` goes on: its condition is exactly True.
    #[inline(always)]
    pub(super) fn holds(&self, it: &mut Interp) -> R<bool> {
        if let Some(t) = self.quick(it) {
            return Ok(t);
        }
        match self {
            Test::LocalLt { slow, .. } | Test::LocalNum { slow, .. } | Test::Compare { slow, .. } => {
                Ok(slow.sides.combine(slow.op, it)?.is_exactly_true())
            }
            Test::Value(f) => Ok(f(it)?.is_exactly_true()),
        }
    }
}

/// A comparison's value when the numbers do not decide it: both sides evaluated and combined.
pub(super) struct Slow {
    op: BinOp,
    sides: Sides,
}

fn outcome(c: Logic) -> u8 {
    if c.is_true() {
        0
    } else if c.is_false() {
        1
    } else if c.is_undef() {
        2
    } else {
        3
    }
}
