//! Arithmetic on numbers as closures: the operator trees the compiler turned into `NumCode`
//! (`compile/arith.rs`), each operator a closure specialised for its operator and the kinds of
//! its two operands, instead of the loop of `Interp::run_num` over the flat program. They give
//! the same number (the same operations on the same operands) and give up (None) in the same
//! cases: a variable that does not hold a number, a division by zero, a comparison with NaN.

use super::expr::OPS;
use crate::compile::ir::{Ex, ExKind, Slot};
use crate::eval::numeric::{apply, compare};
use crate::eval::Interp;
use crate::value::Value;
use ds_syntax::ast::BinOp;

/// Arithmetic on numbers: the number, or None where the general closure must evaluate.
pub(super) type NumFn = Box<dyn Fn(&Interp) -> Option<f64>>;

/// A comparison of numbers: True or False, or None where the numbers do not decide it (a
/// variable that holds no number, NaN in an order comparison).
pub(super) type CompareFn = Box<dyn Fn(&Interp) -> Option<bool>>;

/// An operand, read in place when it is a variable or a constant.
pub(super) enum Arg {
    Local(usize),
    Global(usize),
    Num(f64),
    Tree(NumFn),
}

impl Arg {
    pub(super) fn new(e: &Ex) -> Option<Arg> {
        Some(match &e.kind {
            ExKind::Const(Value::Num(n)) => Arg::Num(*n),
            ExKind::Var(Slot::Local(i)) => Arg::Local(*i as usize),
            ExKind::Var(Slot::Global(i)) => Arg::Global(*i as usize),
            ExKind::Index { object, index } => Arg::Tree(super::item::read(object, index)?),
            _ => Arg::Tree(arith(e)?),
        })
    }

    fn var(slot: Slot) -> Arg {
        match slot {
            Slot::Local(i) => Arg::Local(i as usize),
            Slot::Global(i) => Arg::Global(i as usize),
        }
    }

    #[inline(always)]
    pub(super) fn get(&self, it: &Interp) -> Option<f64> {
        let v = match self {
            Arg::Num(n) => return Some(*n),
            Arg::Tree(f) => return f(it),
            Arg::Local(i) => it.local(*i),
            Arg::Global(i) => &it.globals[*i],
        };
        num(v)
    }
}

/// `left op right` of an operator that has `NumCode` (arithmetic inside, a comparison at most at
/// the top, which gives 1 or 0): None when `e` is not that.
pub(super) fn code(e: &Ex) -> Option<NumFn> {
    let ExKind::Binary { op, left, right, num: Some(_) } = &e.kind else { return None };
    operator(*op, left, right)
}

/// Arithmetic (`+ - * / %`, a `+` chain) over variables and number constants.
pub(super) fn arith(e: &Ex) -> Option<NumFn> {
    match &e.kind {
        ExKind::Binary { op, left, right, .. } if is_arithmetic(*op) => operator(*op, left, right),
        ExKind::Sum(items) => {
            let args: Option<Box<[Arg]>> = items.iter().map(|(e, _)| Arg::new(e)).collect();
            let args = args?;
            Some(Box::new(move |it| {
                let (first, rest) = args.split_first()?;
                rest.iter().try_fold(first.get(it)?, |acc, a| Some(acc + a.get(it)?))
            }))
        }
        _ => None,
    }
}

/// `left op right` of a comparison whose operands are variables, number constants or
/// arithmetic on them, as a closure that gives a `bool` (the condition of an `if` or `while`),
/// specialised for the operator and the operands' kinds (None: `e` is not that).
pub(super) fn comparison(op: BinOp, left: &Ex, right: &Ex) -> Option<CompareFn> {
    if !is_comparison(op) {
        return None;
    }
    let (a, b) = (Arg::new(left)?, Arg::new(right)?);
    Some(super::expr::by_op!(op, truth_op(a, b), unreachable!("a comparison")))
}

/// How a statement works out the number it stores in its variable X (`block::SetNum`).
pub(super) enum Update {
    /// `X + n`, added in place (`X = X + n`, `X += n`, `X++`; `X - n` as `X + -n`, the same
    /// number in IEEE arithmetic, bit for bit).
    Add(f64),
    /// Any other arithmetic on numbers.
    Of(NumFn),
}

/// `X = v` of the variable at `slot`, when v is arithmetic on numbers (not a comparison, whose
/// value is a logic value).
pub(super) fn assignment(slot: Slot, v: &Ex) -> Option<Update> {
    if let ExKind::Binary { op, left, right, .. } = &v.kind {
        if matches!(left.kind, ExKind::Var(s) if s == slot) {
            if let Some(n) = added(*op, right) {
                return Some(Update::Add(n));
            }
        }
    }
    let is_test = matches!(&v.kind, ExKind::Binary { num: Some(code), .. } if code.test);
    arith(v).or_else(|| code(v).filter(|_| !is_test)).map(Update::Of)
}

/// `X op v`, the number `X op= v` stores when X (the variable at `slot`) holds a number and
/// v is arithmetic on numbers (None: v is not, or the operator is not arithmetic).
pub(super) fn compound(op: BinOp, slot: Slot, value: &Ex) -> Option<Update> {
    if let Some(n) = added(op, value) {
        return Some(Update::Add(n));
    }
    if !is_arithmetic(op) {
        return None;
    }
    let b = Arg::new(value)?;
    Some(Update::Of(super::expr::by_op!(op, with_op(Arg::var(slot), b), any_op(op, Arg::var(slot), b))))
}

/// The number `op value` adds: n for `+ n`, -n for `- n` (None: another operator or value).
fn added(op: BinOp, value: &Ex) -> Option<f64> {
    match (op, &value.kind) {
        (BinOp::Add, ExKind::Const(Value::Num(n))) => Some(*n),
        (BinOp::Sub, ExKind::Const(Value::Num(n))) => Some(-*n),
        _ => None,
    }
}

/// `+ - * / %`: an operator whose number closure gives a number.
pub(super) fn is_arithmetic(op: BinOp) -> bool {
    matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem)
}

/// An operator whose number closure gives 1 or 0 (a logic value).
pub(super) fn is_comparison(op: BinOp) -> bool {
    matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne)
}

/// `left op right` of two operands that are arithmetic on numbers (or leaves), as a number (1
/// or 0 for a comparison).
pub(super) fn operator(op: BinOp, left: &Ex, right: &Ex) -> Option<NumFn> {
    let (a, b) = (Arg::new(left)?, Arg::new(right)?);
    Some(super::expr::by_op!(op, with_op(a, b), any_op(op, a, b)))
}

fn with_op<const K: usize>(a: Arg, b: Arg) -> NumFn {
    by_kinds::<K, Number>(a, b)
}

fn truth_op<const K: usize>(a: Arg, b: Arg) -> CompareFn {
    by_kinds::<K, Truth>(a, b)
}

/// One closure per pair of operand kinds, each reading its operands without a `match` on
/// their kinds: a global is read as directly as a local (top-level loops).
fn by_kinds<const K: usize, P: Pair>(a: Arg, b: Arg) -> P::Out {
    macro_rules! with_second {
        ($a:expr) => {
            match b {
                Arg::Local(j) => P::make::<K, _, _>($a, Local(j)),
                Arg::Global(j) => P::make::<K, _, _>($a, Global(j)),
                Arg::Num(n) => P::make::<K, _, _>($a, Const(n)),
                Arg::Tree(f) => P::make::<K, _, _>($a, Tree(f)),
            }
        };
    }
    match a {
        Arg::Local(i) => with_second!(Local(i)),
        Arg::Global(i) => with_second!(Global(i)),
        Arg::Num(n) => with_second!(Const(n)),
        Arg::Tree(f) => with_second!(Tree(f)),
    }
}

/// What `by_kinds` makes of the operator `OPS[K]` on two operands: their number (`Number`)
/// or, for a comparison, its truth (`Truth`).
trait Pair {
    type Out;
    fn make<const K: usize, A: Read, B: Read>(a: A, b: B) -> Self::Out;
}

struct Number;
struct Truth;

impl Pair for Number {
    type Out = NumFn;
    fn make<const K: usize, A: Read, B: Read>(a: A, b: B) -> NumFn {
        Box::new(move |it| apply(OPS[K], a.read(it)?, b.read(it)?))
    }
}

impl Pair for Truth {
    type Out = CompareFn;
    fn make<const K: usize, A: Read, B: Read>(a: A, b: B) -> CompareFn {
        Box::new(move |it| compare(OPS[K], a.read(it)?, b.read(it)?))
    }
}

/// An operand of a known kind, read as a number (None: the variable holds something else).
trait Read: 'static {
    fn read(&self, it: &Interp) -> Option<f64>;
}

struct Local(usize);
struct Global(usize);
struct Const(f64);
struct Tree(NumFn);

#[inline(always)]
fn num(v: &Value) -> Option<f64> {
    match v {
        Value::Num(n) => Some(*n),
        _ => None,
    }
}

impl Read for Local {
    #[inline(always)]
    fn read(&self, it: &Interp) -> Option<f64> {
        num(it.local(self.0))
    }
}

impl Read for Global {
    #[inline(always)]
    fn read(&self, it: &Interp) -> Option<f64> {
        num(&it.globals[self.0])
    }
}

impl Read for Const {
    #[inline(always)]
    fn read(&self, _: &Interp) -> Option<f64> {
        Some(self.0)
    }
}

impl Read for Tree {
    #[inline(always)]
    fn read(&self, it: &Interp) -> Option<f64> {
        (self.0)(it)
    }
}

#[inline(always)]
fn any_op(op: BinOp, a: Arg, b: Arg) -> NumFn {
    Box::new(move |it| apply(op, a.get(it)?, b.get(it)?))
}
