//! How often the closures hand a node to the tree walker (`Interp::eval`), by the
//! node's kind: what issue 43's conversion is measured by. `tree` counts nodes compiled to a
//! closure that only calls the tree walker; `gave_up` counts specialised closures that gave
//! their node back (a variable that held no number, say). Counting is two additions on a path
//! that is slow anyway; the set of distinct nodes is kept only when `distinct` is on
//! (`DS_FALLBACKS=1 ds FILE` prints the table on standard error).

use crate::compile::ir::{Ex, ExKind, St, StKind};
use rustc_hash::FxHashSet;

const ST_KINDS: [&str; 18] = [
    "Expr",
    "SetEdge",
    "Axiom",
    "Var",
    "Static",
    "Nodes",
    "Out",
    "If",
    "While",
    "ForRange",
    "ForValue",
    "ForNodes",
    "Return",
    "ReturnIfdef",
    "Break",
    "Continue",
    "Block",
    "Return(none)",
];

const EX_KINDS: [&str; 28] = [
    "Const",
    "Var",
    "CurrentGraph",
    "Node",
    "Array",
    "Map",
    "Tuple",
    "Lambda",
    "DemonValue",
    "Demon",
    "CallValue",
    "Builtin",
    "Exists",
    "Forall",
    "AndOr",
    "Eval",
    "NodeOf",
    "Index",
    "Unary",
    "Binary",
    "Sum",
    "Edge",
    "Ternary",
    "Assign",
    "Compound",
    "IncDec",
    "Axioms",
    "ValueInModels",
];

/// The index of a statement's kind in `ST_KINDS`.
pub fn st_kind(s: &St) -> usize {
    match &s.kind {
        StKind::Expr(_) => 0,
        StKind::SetEdge(_) => 1,
        StKind::Axiom(_) => 2,
        StKind::Var(_) => 3,
        StKind::Static { .. } => 4,
        StKind::Nodes { .. } => 5,
        StKind::Out { .. } => 6,
        StKind::If(_) => 7,
        StKind::While { .. } => 8,
        StKind::ForRange { .. } => 9,
        StKind::ForValue { .. } => 10,
        StKind::ForNodes { .. } => 11,
        StKind::Return(Some(_)) => 12,
        StKind::ReturnIfdef(_) => 13,
        StKind::Break => 14,
        StKind::Continue => 15,
        StKind::Block(_) => 16,
        StKind::Return(None) => 17,
    }
}

/// The index of an expression's kind in `EX_KINDS`.
pub fn ex_kind(e: &Ex) -> usize {
    match &e.kind {
        ExKind::Const(_) => 0,
        ExKind::Var(_) => 1,
        ExKind::CurrentGraph => 2,
        ExKind::Node(_) => 3,
        ExKind::Array(_) => 4,
        ExKind::Map(_) => 5,
        ExKind::Tuple(_) => 6,
        ExKind::Lambda(_) => 7,
        ExKind::DemonValue(_) => 8,
        ExKind::Demon { .. } => 9,
        ExKind::CallValue { .. } => 10,
        ExKind::Builtin { .. } => 11,
        ExKind::Exists { .. } => 12,
        ExKind::Forall { .. } => 13,
        ExKind::AndOr { .. } => 14,
        ExKind::Eval { .. } => 15,
        ExKind::NodeOf { .. } => 16,
        ExKind::Index { .. } => 17,
        ExKind::Unary { .. } => 18,
        ExKind::Binary { .. } => 19,
        ExKind::Sum(_) => 20,
        ExKind::Edge(_) => 21,
        ExKind::Ternary { .. } => 22,
        ExKind::Assign { .. } => 23,
        ExKind::Compound { .. } => 24,
        ExKind::IncDec { .. } => 25,
        ExKind::Axioms { .. } => 26,
        ExKind::ValueInModels { .. } => 27,
    }
}

/// The counts, per kind: runs of fallback closures and of specialised closures that gave up.
#[derive(Default)]
pub struct Fallbacks {
    pub st_tree: [u64; ST_KINDS.len()],
    pub ex_tree: [u64; EX_KINDS.len()],
    pub ex_gave_up: [u64; EX_KINDS.len()],
    /// Keep the distinct nodes too (`nodes`): off unless asked for.
    pub distinct: bool,
    /// Each node's address, with its row (`Row::id`).
    nodes: FxHashSet<(usize, usize)>,
}

/// One row of `Fallbacks::rows`.
#[derive(Debug, PartialEq)]
pub struct Row {
    pub kind: &'static str,
    pub statement: bool,
    pub runs: u64,
    pub gave_up: u64,
    /// The distinct nodes behind `runs` and `gave_up` (0 unless `Fallbacks::distinct`).
    pub nodes: (usize, usize),
}

impl Fallbacks {
    #[inline(always)]
    pub(crate) fn stmt(&mut self, s: &St) {
        let k = st_kind(s);
        self.st_tree[k] += 1;
        if self.distinct {
            self.nodes.insert((s as *const St as usize, k));
        }
    }

    #[inline(always)]
    pub(crate) fn expr(&mut self, e: &Ex, gave_up: bool) {
        let (counts, k) = if gave_up { (&mut self.ex_gave_up, 2) } else { (&mut self.ex_tree, 1) };
        let kind = ex_kind(e);
        counts[kind] += 1;
        if self.distinct {
            self.nodes.insert((e as *const Ex as usize, k * 100 + kind));
        }
    }

    /// The kinds that reached the tree walker, most runs first.
    pub fn rows(&self) -> Vec<Row> {
        let nodes = |id: usize| self.nodes.iter().filter(|n| n.1 == id).count();
        let st = self.st_tree.iter().enumerate().map(|(i, &runs)| Row {
            kind: ST_KINDS[i],
            statement: true,
            runs,
            gave_up: 0,
            nodes: (nodes(i), 0),
        });
        let ex = EX_KINDS.iter().enumerate().map(|(i, &kind)| Row {
            kind,
            statement: false,
            runs: self.ex_tree[i],
            gave_up: self.ex_gave_up[i],
            nodes: (nodes(100 + i), nodes(200 + i)),
        });
        let mut rows: Vec<Row> = st.chain(ex).filter(|r| r.runs + r.gave_up > 0).collect();
        rows.sort_by_key(|r| std::cmp::Reverse(r.runs + r.gave_up));
        rows
    }

    /// The table `DS_FALLBACKS` prints.
    pub fn report(&self) -> String {
        let mut s = String::from("fallbacks to the tree walker: kind, runs (nodes), runs after giving up (nodes)\n");
        for r in self.rows() {
            let what = if r.statement { "statement" } else { "expression" };
            let (n, g) = r.nodes;
            s += &format!("{what:10} {:14} {:>12} ({n}) {:>12} ({g})\n", r.kind, r.runs, r.gave_up);
        }
        s
    }
}
