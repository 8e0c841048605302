//! The operands of an edge (`X rel Y`, `[a, !b] rel Y`) as closures, for the rules of
//! `eval/edges.rs`, which ask for each operand's value in turn.

use super::expr::{value, ValueFn};
use crate::compile::ir::{EdgeEx, Operand};
use crate::eval::{Interp, R};
use crate::value::Value;

/// Each side's items, in order (a single operand is one item).
pub(super) struct EdgeOperands {
    left: Box<[ValueFn]>,
    right: Box<[ValueFn]>,
}

fn items(op: &Operand, depth: u32) -> Box<[ValueFn]> {
    match op {
        Operand::Single(e) => Box::new([value(e, depth)]),
        Operand::Group(items) => items.iter().map(|(_, e)| value(e, depth)).collect(),
    }
}

impl EdgeOperands {
    pub(super) fn new(edge: &EdgeEx, depth: u32) -> EdgeOperands {
        EdgeOperands { left: items(&edge.left, depth), right: items(&edge.right, depth) }
    }

    /// The evaluator `Interp::get_edge` and the other edge rules take (`edges::Ends`).
    pub(super) fn eval(&self) -> impl Fn(&mut Interp, bool, usize) -> R<Value> + '_ {
        move |it, right, i| (if right { &self.right } else { &self.left })[i](it)
    }
}
