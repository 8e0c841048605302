//! The evaluator: demon bodies, top-level code (`Interp::run_top`) and `eval`'s expression
//! compiled to closures, the only executable form (issue 43 retired the tree walker). Each
//! statement and expression of a body becomes a `Box<dyn Fn(&mut Interp) -> ...>` built once,
//! the first time the demon is called (`FnCode::fast`). The common shapes are specialised (a
//! local variable, a constant, a comparison of numbers in an `if`, a demon call, `return` of an
//! expression at the end of the body), chosen from the kinds and shapes the compiler knows;
//! every other statement and expression is a closure built from its parts' closures that calls
//! the rule's one function (`Interp::index`, `out_stmt`, `assign`, `exists`, ...). A body with
//! `get:` / `set:` sections runs its blocks' closures (`FastBody::sections`). A specialised
//! closure that cannot finish quickly (a variable that does not hold a number, say) gives up
//! before any side effect and goes the general way (`Sides::combine`, or the general closure of
//! the same node). IR nodes are still read at run time only where their shape is analysed
//! against the current graph (`exists`, `forall` and node-loop conditions made into a
//! `NodeTest`, the edge and append shapes), never evaluated node by node.

mod assign;
mod block;
mod data;
mod decl;
mod edge;
mod expr;
mod graph;
mod index;
mod item;
mod loops;
mod method;
mod num;
mod target;
mod text;

use super::{Flow, Interp, R};
use crate::compile::ir::{Ex, FnCode, IfArm, St, StKind};
use crate::value::{Logic, Value};
use block::{block, Line};
use ds_syntax::ast::OutSep;
use ds_syntax::Span;
pub(super) use expr::{CallArg, ValueFn};
use expr::{Operand, Test};

/// A statement, run: `Err` carries `return`, `break` and errors.
type StFn = Box<dyn Fn(&mut Interp) -> R<()>>;
/// A demon's whole body, run: the value the call gives.
type BodyFn = Box<dyn Fn(&mut Interp) -> R<Value>>;
/// A body run where the caller wants a number: as `to_num` gives it.
type NumBodyFn = Box<dyn Fn(&mut Interp) -> R<f64>>;

/// Past this nesting of statements and expressions the rest of a subtree is compiled behind a
/// check of the native stack (a closure otherwise checks it only at calls), so that deep
/// nesting ends in an error, never an overflow.
const MAX_NESTING: u32 = 48;

/// The compiled body of a demon or lambda (None: it has a `get:` or `set:` section, whose
/// blocks run as `FastBody::sections`).
/// `num`: the same body for a caller that wants a number (a recursion's step, whose value is
/// arithmetic on calls), when it has such a shape.
pub struct FastBody {
    run: Option<BodyFn>,
    num: Option<NumBodyFn>,
    /// The body, `get:` and `set:` sections as blocks, for a call that `run` does not serve
    /// (a demon with sections, an assignment to a demon: `Interp::run_fn_body`); made then.
    sections: std::cell::OnceCell<Sections>,
}

/// See `FastBody::sections`.
pub(crate) struct Sections {
    pub(crate) body: StFn,
    pub(crate) get: Option<StFn>,
    pub(crate) set: Option<StFn>,
}

impl FastBody {
    fn of(run: BodyFn) -> FastBody {
        FastBody { run: Some(run), num: None, sections: Default::default() }
    }
}

impl std::fmt::Debug for FastBody {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.run.is_some() { "FastBody" } else { "FastBody(none)" })
    }
}

/// A value where the caller wants a number: `Err(Flow::Return)` when it is none, with the
/// value waiting in `Interp::returned` (as a `return` leaves it) for `from_num` to take.
#[inline(always)]
fn to_num(it: &mut Interp, v: Value) -> R<f64> {
    match v {
        Value::Num(x) => Ok(x),
        v => Err(it.return_value(v)),
    }
}

/// The value `to_num` was given back.
#[inline(always)]
fn from_num(it: &mut Interp, r: R<f64>) -> R<Value> {
    match r {
        Ok(x) => Ok(Value::Num(x)),
        Err(Flow::Return) => Ok(it.take_returned()),
        Err(e) => Err(e),
    }
}

/// A node of the tree a closure was compiled from, kept for the rules that read its shape. The closures live
/// in the `FnCode` that owns the tree (`FnCode::fast`), made once it is behind its `Rc`, and a
/// `FnCode` is never changed after that: every node outlives every call of the closures.
pub(crate) struct Node<T>(*const T);

impl<T> Clone for Node<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Node<T> {}

impl<T> Node<T> {
    fn new(t: &T) -> Self {
        Node(t)
    }
    #[inline(always)]
    fn get(&self) -> &T {
        // SAFETY: see the type's comment: the tree outlives the closures that point into it.
        unsafe { &*self.0 }
    }
}

impl Interp {
    /// Runs the body of `code` in the frame set up for it, compiled to closures the first time.
    #[inline(always)]
    pub(super) fn run_fast_body(&mut self, code: &std::rc::Rc<FnCode>) -> Option<R<Value>> {
        let body = code.fast.get_or_init(|| compile_body(code));
        body.run.as_ref().map(|run| run(self))
    }

    /// The body and sections of `code` as blocks of closures (`FastBody::sections`).
    pub(super) fn sections(code: &FnCode) -> &Sections {
        let fast = code.fast.get_or_init(|| compile_body(code));
        fast.sections.get_or_init(|| Sections {
            body: block(&code.body, 0),
            get: code.get.as_deref().map(|b| block(b, 0)),
            set: code.set.as_deref().map(|b| block(b, 0)),
        })
    }

    /// `run_fast_body` for a caller that wants a number (`to_num`); a body with sections runs
    /// as `Interp::run_fn_body`.
    #[inline(always)]
    pub(super) fn run_fast_num(&mut self, code: &std::rc::Rc<FnCode>) -> R<f64> {
        let body = code.fast.get_or_init(|| compile_body(code));
        if let Some(num) = &body.num {
            return num(self);
        }
        let v = match &body.run {
            Some(run) => run(self)?,
            None => self.run_fn_body(code, None)?,
        };
        to_num(self, v)
    }
}

impl Interp {
    /// Runs top-level statements (a script, a REPL entry) compiled to closures. The closures
    /// point into `code` (`Node`) and are dropped before this returns.
    pub fn run_top(&mut self, code: &[St]) -> R<()> {
        let run = block(code, 0);
        run(self)
    }

    /// The expression given to `eval`, compiled to closures (dropped before this returns).
    pub(super) fn eval_compiled(&mut self, e: &Ex) -> R<Value> {
        let value = expr::value(e, 0);
        value(self)
    }
}

/// How a body that ended by `return` (or `break` outside a loop) gives its value.
#[inline(always)]
fn body_result(it: &mut Interp, flow: Flow) -> R<Value> {
    match flow {
        Flow::Return => Ok(it.take_returned()),
        Flow::Break | Flow::Continue => Ok(Value::Logic(Logic::UNDEF)),
        e => Err(e),
    }
}

fn compile_body(code: &FnCode) -> FastBody {
    if code.get.is_some() || code.set.is_some() || code.value_slot.is_some() {
        return FastBody { run: None, num: None, sections: Default::default() };
    }
    // `return E` at the end gives E's value directly, not through `Interp::returned`.
    let (steps, tail) = match code.body.split_last() {
        Some((last, prefix)) => match &last.kind {
            StKind::Return(Some(e)) => (prefix, Some((e, last.span))),
            _ => (&code.body[..], None),
        },
        None => (&code.body[..], None),
    };
    let mut steps: Vec<Step> = steps.iter().map(Step::new).collect();
    // `if C : return A` then `return B` (a recursion's base case and step): no loop, and an
    // operator in B (`fib(N - 1) + fib(N - 2)`) is done here, with its demon calls.
    if let ([Step::Guard(_)], Some((tail, span))) = (&steps[..], &tail) {
        let (Some(Step::Guard(g)), span) = (steps.pop(), *span) else { unreachable!() };
        if let Some((op, left, right)) = expr::two_sides(tail) {
            let sides = expr::Sides::new(left, right, tail.span, 1);
            // In WebAssembly the operator is read as the body runs: the eleven copies of these
            // closures, one per operator, were a fifth of the module's code (docs/performance.md,
            // "A smaller, faster start"); natively each copy does its arithmetic without a match.
            #[cfg(target_arch = "wasm32")]
            if expr::OPS.contains(&op) {
                return guard_and_operator(op, g, sides, span);
            }
            #[cfg(not(target_arch = "wasm32"))]
            return expr::by_op!(
                op,
                guard_and_fixed(g, sides, span),
                guard_and_tail(g, Operand::Value(expr::value(tail, 0)), span)
            );
            #[cfg(target_arch = "wasm32")]
            return guard_and_tail(g, Operand::Value(expr::value(tail, 0)), span);
        }
        return guard_and_tail(g, Operand::new(tail, 0), span);
    }
    let tail = tail.map(|(e, span)| (Operand::new(e, 0), span));
    FastBody::of(Box::new(move |it| {
        for step in steps.iter() {
            match step {
                Step::Stmt(s) => {
                    if let Err(flow) = s(it) {
                        return body_result(it, flow);
                    }
                }
                Step::Guard(g) => {
                    if let Some(done) = g.run(it) {
                        return done;
                    }
                }
            }
        }
        match &tail {
            Some((value, span)) => {
                it.tick(*span)?;
                value.get(it)
            }
            None => Ok(Value::Logic(Logic::UNDEF)),
        }
    }))
}

fn guard_and_tail(g: Box<Guard>, tail: Operand, span: Span) -> FastBody {
    FastBody::of(Box::new(move |it| {
        if let Some(done) = g.run_then(it, span) {
            return done;
        }
        tail.get(it)
    }))
}

/// Both ways of running the body (`FastBody::num`), sharing its parts.
#[cfg(not(target_arch = "wasm32"))]
fn guard_and_fixed<const K: usize>(g: Box<Guard>, tail: expr::Sides, span: Span) -> FastBody {
    guard_and_operator(expr::Fixed::<K>, g, tail, span)
}

/// `op`: the operator fixed in the closures' code (`expr::Fixed`), or read as they run.
fn guard_and_operator<O: expr::OpOf>(op: O, g: Box<Guard>, tail: expr::Sides, span: Span) -> FastBody {
    let (g, tail) = (std::rc::Rc::new(g), std::rc::Rc::new(tail));
    let (g2, tail2) = (g.clone(), tail.clone());
    let run: BodyFn = Box::new(move |it| {
        if let Some(done) = g.run_then(it, span) {
            return done;
        }
        tail.combine(op.op(), it)
    });
    let num: NumBodyFn = Box::new(move |it| {
        if let Some(done) = g2.run_then_num(it, span) {
            return done;
        }
        tail2.combine_num(op.op(), it)
    });
    FastBody { run: Some(run), num: Some(num), sections: Default::default() }
}

/// A statement of a body, at its top level.
enum Step {
    Stmt(StFn),
    /// `if C : return E` (the base case of a recursion): E's value is the call's, directly.
    Guard(Box<Guard>),
}

struct Guard {
    span: Span,
    test: Test,
    ret_span: Span,
    value: Operand,
}

impl Guard {
    /// The call's value when the condition is True (None: it is not, go on).
    #[inline(always)]
    fn run(&self, it: &mut Interp) -> Option<R<Value>> {
        if let Err(e) = it.tick(self.span) {
            return Some(Err(e));
        }
        match self.test.outcome(it) {
            Ok(0) => {}
            Ok(_) => return None,
            Err(e) => return Some(Err(e)),
        }
        if let Err(e) = it.tick(self.ret_span) {
            return Some(Err(e));
        }
        Some(self.value.get(it))
    }
}

impl Guard {
    /// `run`, then the step of the `return` at `next` when the condition is not True (None:
    /// go on with that statement). A test of numbers that decides at once reads nothing that a
    /// step changes, so both steps are counted after it, together (`Interp::tick2`).
    #[inline(always)]
    fn run_then(&self, it: &mut Interp, next: Span) -> Option<R<Value>> {
        let Some(t) = self.test.quick(it) else {
            return match self.run(it) {
                None => it.tick(next).err().map(Err),
                done => done,
            };
        };
        if let Err(e) = it.tick2(self.span, if t { self.ret_span } else { next }) {
            return Some(Err(e));
        }
        if t {
            return Some(self.value.get(it));
        }
        None
    }

    /// `run_then` for a caller that wants a number (`to_num`).
    #[inline(always)]
    fn run_then_num(&self, it: &mut Interp, next: Span) -> Option<R<f64>> {
        let Some(t) = self.test.quick(it) else {
            return match self.run(it) {
                None => it.tick(next).err().map(Err),
                Some(Ok(v)) => Some(to_num(it, v)),
                Some(Err(e)) => Some(Err(e)),
            };
        };
        if let Err(e) = it.tick2(self.span, if t { self.ret_span } else { next }) {
            return Some(Err(e));
        }
        if t {
            return Some(self.value.num(it));
        }
        None
    }
}

impl Step {
    fn new(s: &St) -> Step {
        if let StKind::If(arms) = &s.kind {
            if let [IfArm { cond, then, on_false: None, on_undef: None, on_else: None }] = &arms[..] {
                if let [St { kind: StKind::Return(Some(e)), span: ret_span }] = &then[..] {
                    let (test, value) = (Test::new(cond, 1), Operand::new(e, 1));
                    return Step::Guard(Box::new(Guard { span: s.span, test, ret_span: *ret_span, value }));
                }
            }
        }
        Step::Stmt(stmt(s, 0))
    }
}

/// A statement: each counts a step first.
fn stmt(s: &St, depth: u32) -> StFn {
    stmt_line(s, depth).into_fn()
}

/// A statement as a block runs it: an assignment of a number apart (`block::Line`).
fn stmt_line(s: &St, depth: u32) -> Line {
    let span = s.span;
    if depth > MAX_NESTING {
        return Line::Any(deep_stmt(s));
    }
    let StKind::Expr(e) = &s.kind else { return Line::Any(other_stmt(s, depth)) };
    graph::statement(e, span, depth + 1)
        .map(Line::Any)
        .or_else(|| expr::statement(e, span, depth + 1))
        .or_else(|| assign::statement(e, span, depth + 1))
        .or_else(|| index::assignment(e, span, depth + 1).map(Line::Any))
        .or_else(|| method::statement(e, span, depth + 1).map(Line::Any))
        .unwrap_or_else(|| Line::Any(expression_statement(e, span, depth + 1)))
}

/// A statement other than an expression (an expression statement here is one of the forms
/// `stmt_line` leaves to it). One arm for each kind of statement: a new kind is a compile
/// error here until it has its closure.
fn other_stmt(s: &St, depth: u32) -> StFn {
    let span = s.span;
    match &s.kind {
        StKind::Out { items, trail, to_file } => out(items, *trail, *to_file, span, depth + 1),
        StKind::Static { done, items } => decl::statics(done, items, span, depth + 1),
        StKind::Nodes { graph, names } => decl::nodes(graph.as_ref(), names, span, depth + 1),
        StKind::ReturnIfdef(e) => decl::return_ifdef(e, span, depth + 1),
        StKind::Axiom(ax) => {
            let ax = data::AxiomFn::new(ax, depth + 1);
            Box::new(move |it| {
                it.tick(span)?;
                let (ax, terms) = ax.parts();
                crate::eval::mind::state_axiom(it, ax, terms, span)
            })
        }
        StKind::If(arms) => if_chain(arms, span, depth + 1),
        StKind::Return(Some(e)) => {
            let value = expr::value(e, depth + 1);
            Box::new(move |it| {
                it.tick(span)?;
                let v = value(it)?;
                Err(it.return_value(v))
            })
        }
        StKind::While { cond, body } => block::while_loop(cond, body, span, depth + 1),
        StKind::Block(b) => {
            let b = block(b, depth + 1);
            Box::new(move |it| {
                it.tick(span)?;
                b(it)
            })
        }
        StKind::Expr(e) => expression_statement(e, span, depth + 1),
        StKind::SetEdge(edge) => graph::set_edge(edge, span, depth + 1),
        StKind::Var(items) => loops::var(items, span, depth + 1),
        StKind::ForNodes { vars, cond, body } => {
            loops::for_nodes(vars, cond.as_ref(), block(body, depth + 1), span, depth + 1)
        }
        StKind::ForValue { vars, source, body } => loops::for_value(vars, source, body, span, depth + 1),
        StKind::ForRange { vars, args, body } => loops::for_range(vars, args, body, span, depth + 1),
        StKind::Break => loops::break_loop(span),
        StKind::Continue => loops::continue_loop(span),
        StKind::Return(None) => loops::bare_return(span),
    }
}

/// Any other expression as a statement: its value, dropped. (`Interp::expr_stmt` treats only
/// assignments to variables otherwise, which the closures above cover.)
fn expression_statement(e: &Ex, span: Span, depth: u32) -> StFn {
    let value = expr::value(e, depth);
    Box::new(move |it| {
        it.tick(span)?;
        value(it).map(drop)
    })
}

/// `out A, B ...` (`Interp::out_stmt`, with the items as closures).
fn out(items: &[(OutSep, Ex)], trail: Option<OutSep>, to_file: bool, span: Span, depth: u32) -> StFn {
    let seps: Box<[OutSep]> = items.iter().map(|i| i.0).collect();
    let values: Box<[ValueFn]> = items.iter().map(|i| expr::value(&i.1, depth)).collect();
    Box::new(move |it| {
        it.tick(span)?;
        it.out_stmt(&seps, &|it, i| values[i](it), trail, to_file, span)
    })
}

/// A statement nested past `MAX_NESTING`: compiled afresh behind a check of the native stack.
fn deep_stmt(s: &St) -> StFn {
    let (span, run) = (s.span, stmt(s, 0));
    Box::new(move |it| {
        if it.stack_low() {
            return it.stack_used_up(span);
        }
        run(it)
    })
}

/// An expression nested past `MAX_NESTING`, as `deep_stmt`.
fn deep_value(e: &Ex) -> ValueFn {
    let (span, value) = (e.span, expr::value(e, 0));
    Box::new(move |it| {
        if it.stack_low() {
            return it.stack_used_up(span);
        }
        value(it)
    })
}

/// A statement kind no closure covers: none (a unit test runs every kind,
/// `session::fallback_test`); it would be an error rather than a silent skip.
/// One arm of an `if` chain: its test, and for each of its outcomes (True, False, Undef,
/// anything else) the block to run, if any (an index into `blocks`).
struct Arm {
    test: Test,
    pick: [Option<u8>; 4],
    blocks: Box<[StFn]>,
}

impl Arm {
    fn new(arm: &IfArm, depth: u32) -> Arm {
        let mut blocks = vec![block(&arm.then, depth)];
        let mut index = |b: &Option<Vec<St>>| {
            b.as_ref().map(|b| {
                blocks.push(block(b, depth));
                (blocks.len() - 1) as u8
            })
        };
        let (on_false, on_undef, on_else) = (index(&arm.on_false), index(&arm.on_undef), index(&arm.on_else));
        // The block for the condition's value, or else the `else`.
        let pick = [Some(0), on_false.or(on_else), on_undef.or(on_else), on_else];
        Arm { test: Test::new(&arm.cond, depth), pick, blocks: blocks.into_boxed_slice() }
    }

    /// Runs the block this arm picks: None when it picks none (the next arm is tried).
    #[inline(always)]
    fn run(&self, it: &mut Interp) -> Option<R<()>> {
        let outcome = match self.test.outcome(it) {
            Ok(o) => o,
            Err(e) => return Some(Err(e)),
        };
        self.pick[outcome as usize].map(|b| self.blocks[b as usize](it))
    }
}

fn if_chain(arms: &[IfArm], span: Span, depth: u32) -> StFn {
    if let [arm] = arms {
        let arm = Arm::new(arm, depth);
        return Box::new(move |it| {
            it.tick(span)?;
            arm.run(it).unwrap_or(Ok(()))
        });
    }
    let arms: Box<[Arm]> = arms.iter().map(|a| Arm::new(a, depth)).collect();
    Box::new(move |it| {
        it.tick(span)?;
        for arm in arms.iter() {
            if let Some(done) = arm.run(it) {
                return done;
            }
        }
        Ok(())
    })
}

/// An expression kind no closure covers: none (an internal error if one were).
fn no_closure_value(e: &Ex) -> ValueFn {
    let span = e.span;
    Box::new(move |_| crate::eval::fail(span, "internal error: this expression has no compiled form"))
}
