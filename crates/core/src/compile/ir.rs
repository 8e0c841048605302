//! The resolved program the evaluator runs: every variable is a slot, every demon call a demon
//! id, every relation name a relation id, every builtin a function pointer.

use super::registry::Callee;
use crate::value::code::{Code, CodeRef};
use crate::value::Value;
use crate::world::{ClassId, NodeId, RelId, Sym};
use ds_syntax::ast::{BinOp, EdgeMode, OutSep, UnOp};
use ds_syntax::Span;
use std::cell::Cell;
use std::rc::Rc;

pub type DemonId = u32;

/// A variable: a slot of the running demon's frame, or of the top level (globals, statics).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Slot {
    Local(u32),
    Global(u32),
}

/// A node constant (`$x`, or a bare declared node name), looked up in the current graph's class
/// the first time it runs there; the answer is cached for that class.
#[derive(Debug)]
pub struct NodeRef {
    pub name: Rc<str>,
    pub sym: Sym,
    /// `$x` falls back to the node named `x` (docs/language.md, decision 12).
    pub alt: Option<Sym>,
    pub cache: Cell<Option<(ClassId, NodeId)>>,
}

#[derive(Debug)]
pub struct Ex {
    pub kind: ExKind,
    pub span: Span,
}

#[derive(Debug)]
pub enum Rel {
    Fixed(RelId),
    /// A variable that holds an edge type.
    Var(Slot),
    /// A demon with two parameters used as a relation (`X above Y`).
    Demon(DemonId),
}

/// `repr(u8)`: a tag of its own. Without it the tag hides in a niche of `Const`'s `Value`, and
/// every `match` on an expression decodes it (several instructions on the hottest path).
#[derive(Debug)]
#[repr(u8)]
pub enum ExKind {
    Const(Value),
    Var(Slot),
    CurrentGraph,
    Node(Box<NodeRef>),
    Array(Vec<Ex>),
    Map(Vec<(Ex, Ex)>),
    Tuple(Vec<Ex>),
    Lambda(Rc<FnCode>),
    /// A demon's name used as a value (`Search.bfs(Start, all_actions, target_state)`): the
    /// demon as a callable value, read when it runs (the demon may be defined later).
    DemonValue(DemonId),
    Demon {
        id: DemonId,
        args: Vec<Ex>,
    },
    /// Calling a lambda held in a variable.
    CallValue {
        callee: Box<Ex>,
        args: Vec<Ex>,
    },
    Builtin {
        name: &'static str,
        /// The function, or for a method of several bodies the set it picks from by the
        /// object's kind.
        f: Callee,
        object: Option<Box<Ex>>,
        args: Vec<Ex>,
    },
    Exists {
        var: Slot,
        cond: Box<Ex>,
        min: Option<Box<Ex>>,
        max: Option<Box<Ex>>,
    },
    Forall {
        var: Slot,
        cond: Box<Ex>,
    },
    /// `and(A, ...)` (`all`) / `or(A, ...)`: two-valued, left to right, evaluating arguments only
    /// until the answer is known (reference 7.1).
    AndOr {
        all: bool,
        args: Vec<Ex>,
    },
    /// `eval(Str)`: compiled when it runs, with the variables visible at the call.
    Eval {
        arg: Box<Ex>,
        scope: Rc<EvalScope>,
    },
    /// `G=>$n` / `G.$n`: node `n` of graph `G`, bound to `G`.
    NodeOf {
        graph: Box<Ex>,
        node: Box<NodeRef>,
    },
    Index {
        object: Box<Ex>,
        index: Box<Ex>,
    },
    Unary {
        op: UnOp,
        operand: Box<Ex>,
    },
    Binary {
        op: BinOp,
        left: Box<Ex>,
        right: Box<Ex>,
        /// The operator tree as arithmetic on numbers, when it is one over variables and number
        /// constants (`I < N`, `(S + I * 3) % M`): tried first, the tree when it gives up.
        num: Option<NumCode>,
    },
    /// `a + b + c + ...` (three or more operands, left to right): once the running sum is a
    /// string, the rest is appended to one buffer instead of making a string per `+`. Each
    /// operand after the first carries the span of the sum it ends, for error messages.
    Sum(Box<[(Ex, Span)]>),
    Edge(Box<EdgeEx>),
    Ternary {
        cond: Box<Ex>,
        branches: Vec<Ex>,
    },
    Assign {
        target: Box<Target>,
        value: Box<Ex>,
    },
    Compound {
        op: BinOp,
        target: Box<Target>,
        value: Box<Ex>,
    },
    IncDec {
        target: Box<Target>,
        delta: f64,
    },
    /// `Mind.add(...)`, `Mind.add_usual(...)`, `set(...)`: arguments that are axioms.
    Axioms {
        usage: AxiomUse,
        axioms: Vec<AxiomEx>,
    },
    /// `Mind.value(Models, Expr)`: Expr evaluated with each model as the current graph.
    ValueInModels {
        models: Box<Ex>,
        expr: Box<Ex>,
    },
}

/// An operand of `NumCode`: a variable (which must hold a number) or a number constant.
#[derive(Debug, Clone, Copy)]
pub enum Leaf {
    Var(Slot),
    Num(f64),
}

/// A step of `NumCode`, on an accumulator and a short stack of numbers.
#[derive(Debug, Clone, Copy)]
pub enum NumOp {
    /// acc = leaf
    Load(Leaf),
    /// acc = acc op leaf
    With(BinOp, Leaf),
    /// acc = leaf op acc
    WithRev(BinOp, Leaf),
    /// The accumulator onto the stack.
    Push,
    /// acc = popped op acc
    Pop(BinOp),
}

/// The most numbers a `NumCode` keeps on its stack.
pub const NUM_STACK: usize = 6;

/// An operator tree over variables and number constants as a flat program in `f64`s
/// (`eval/numeric.rs` runs it): arithmetic (`+ - * / %`) inside, a comparison only at the top,
/// as `eval` would give numbers. It gives up (and the tree runs) on a variable that is not a
/// number, a division by zero or a comparison with NaN, which have nothing to undo.
#[derive(Debug)]
pub struct NumCode {
    pub ops: Box<[NumOp]>,
    /// The top operator is a comparison: the result is a logic value (1 for True, 0 for False).
    pub test: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AxiomUse {
    /// `Mind.add`: always holds.
    Add,
    /// `Mind.add_usual`: a default.
    AddUsual,
    /// `set(...)`: applied once to the current graph, not kept.
    Set,
}

/// An axiom as compiled: its atoms, and its clauses as (atom, positive) lists. Fixed terms and
/// relation variables are evaluated when the axiom is added.
#[derive(Debug)]
pub struct AxiomEx {
    pub atoms: Vec<AtomEx>,
    pub clauses: Vec<Vec<(usize, bool)>>,
    /// The quantified variables' names, by index.
    pub vars: Vec<Rc<str>>,
    pub span: Span,
}

#[derive(Debug)]
pub enum AtomEx {
    Edge { rel: Rel, rel_span: Span, from: TermEx, to: TermEx },
    Same(TermEx, TermEx),
}

/// A quantified variable of the axiom, or an expression (a variable, a node constant) that must
/// give a node.
#[derive(Debug)]
pub enum TermEx {
    Var(u8),
    Fixed(Ex),
}

/// The variables visible where `eval` is called, by name (inner scopes win), and whether that
/// is the top level (where the top-level variables are visible too).
#[derive(Debug, Default)]
pub struct EvalScope {
    pub vars: rustc_hash::FxHashMap<Rc<str>, Slot>,
    pub top_level: bool,
}

#[derive(Debug)]
pub struct EdgeEx {
    pub left: Operand,
    pub mode: EdgeMode,
    pub rel: Rel,
    pub rel_span: Span,
    pub right: Operand,
}

/// One side of an edge expression; items of an array literal may carry `!` or `?`.
#[derive(Debug)]
pub enum Operand {
    Single(Ex),
    Group(Vec<(EdgeMode, Ex)>),
}

#[derive(Debug)]
pub enum Target {
    Var(Slot),
    CurrentGraph,
    Index { object: Ex, index: Ex },
    Edge(EdgeEx),
    Demon { id: DemonId, args: Vec<Ex> },
}

#[derive(Debug)]
pub struct St {
    pub kind: StKind,
    pub span: Span,
}

/// One arm of an `if` chain.
#[derive(Debug)]
pub struct IfArm {
    pub cond: Ex,
    pub then: Vec<St>,
    pub on_false: Option<Vec<St>>,
    pub on_undef: Option<Vec<St>>,
    pub on_else: Option<Vec<St>>,
}

/// `repr(u8)`, as `ExKind`: its own tag, not one in a niche of `Expr`'s expression.
#[derive(Debug)]
#[repr(u8)]
pub enum StKind {
    Expr(Ex),
    /// `X rel Y` as a statement: sets the edge (True, or False for `!rel`, Undef for `?rel`).
    SetEdge(EdgeEx),
    /// `A -> B` / `A | B` over edge literals as a statement: an axiom of the current graph.
    Axiom(AxiomEx),
    Var(Vec<(Slot, Option<Ex>)>),
    Static {
        done: Cell<bool>,
        items: Vec<(Slot, Option<Ex>)>,
    },
    Nodes {
        graph: Option<Ex>,
        names: Vec<Rc<str>>,
    },
    Out {
        items: Vec<(OutSep, Ex)>,
        trail: Option<OutSep>,
        /// `fout`: to the `fopen` file, if one is open.
        to_file: bool,
    },
    /// An `if` and its `else if`s: the first arm whose condition picks a block runs it; an arm
    /// that picks none goes on to the next.
    If(Box<[IfArm]>),
    While {
        cond: Ex,
        body: Vec<St>,
    },
    ForRange {
        vars: Vec<Slot>,
        args: Vec<Ex>,
        body: Vec<St>,
    },
    ForValue {
        vars: Vec<Slot>,
        source: Ex,
        body: Vec<St>,
    },
    ForNodes {
        vars: Vec<Slot>,
        cond: Option<Ex>,
        body: Vec<St>,
    },
    Return(Option<Ex>),
    ReturnIfdef(Ex),
    Break,
    Continue,
    Block(Vec<St>),
}

/// A compiled demon or lambda.
#[derive(Debug)]
pub struct FnCode {
    pub name: Rc<str>,
    pub param_names: Vec<Rc<str>>,
    pub frame_size: u32,
    pub body: Vec<St>,
    pub get: Option<Vec<St>>,
    pub set: Option<Vec<St>>,
    /// The slot of the implicit `value` of a `set:` section.
    pub value_slot: Option<u32>,
    /// A one-expression lambda returns the value of `body`'s single expression.
    pub expr_body: bool,
    /// The body assigns `GRAPH`; a call saves and restores the current graph only then (the
    /// demons it calls restore their own).
    pub sets_graph: bool,
    pub span: Span,
    /// A lambda's body as written: it prints as `lambda(a,b) => body` (reference 2.9).
    pub source: Option<ds_syntax::ast::SourceText>,
    /// How many times it was called (`System.stat()`).
    pub calls: std::cell::Cell<u64>,
    /// The body compiled to closures, made at the first call (`eval/closure`).
    pub fast: std::cell::OnceCell<crate::eval::FastBody>,
}

impl Code for FnCode {
    fn name(&self) -> &str {
        &self.name
    }
    fn params(&self) -> &[Rc<str>] {
        &self.param_names
    }
    fn source(&self) -> Option<&str> {
        self.source.as_ref().map(|s| s.as_str())
    }
}

impl FnCode {
    /// The code behind a demon or lambda value (all of them are `FnCode`s: None cannot happen).
    pub fn of(code: CodeRef) -> Option<Rc<FnCode>> {
        let any: Rc<dyn std::any::Any> = code;
        any.downcast().ok()
    }
}
