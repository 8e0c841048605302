//! Assignment targets as closures, and the rules of reading and assigning them: `A[i] = v`,
//! `GRAPH = v`, `X rel Y = v`, `d(a) = v` (a demon's `set:` section), and the reads of
//! `A[i] += v` / `A[i]++`. `T op= v` reads the target, then assigns it, each evaluating the
//! target's parts (`A[f()] += 1` calls f twice).

use super::edge::EdgeOperands;
use super::expr::{value, CallSite, Callee, ValueFn};
use super::Node;
use crate::compile::ir::{DemonId, EdgeEx, ExKind, Slot, Target};
use crate::eval::expr::{replace_char, replace_component, replace_fuzzy};
use crate::eval::{fail, Interp, R};
use crate::value::Value;
use ds_syntax::Span;

/// A target, its parts compiled.
pub(super) enum TargetFn {
    Var(Slot),
    CurrentGraph,
    /// `O[I]`; `var`: O is this variable (a string, logic value or fuzzy number in it is
    /// replaced by a changed copy).
    Index {
        object: ValueFn,
        index: ValueFn,
        var: Option<Slot>,
    },
    Edge(Node<EdgeEx>, EdgeOperands),
    /// `d(args)`: read by calling d, assigned through its `set:` section.
    Demon {
        id: DemonId,
        call: CallSite,
        args: Box<[ValueFn]>,
    },
}

impl TargetFn {
    pub(super) fn new(t: &Target, span: Span, depth: u32) -> TargetFn {
        match t {
            Target::Var(slot) => TargetFn::Var(*slot),
            Target::CurrentGraph => TargetFn::CurrentGraph,
            Target::Index { object, index } => {
                let var = match object.kind {
                    ExKind::Var(slot) => Some(slot),
                    _ => None,
                };
                TargetFn::Index { object: value(object, depth), index: value(index, depth), var }
            }
            Target::Edge(edge) => TargetFn::Edge(Node::new(edge), EdgeOperands::new(edge, depth)),
            Target::Demon { id, args } => TargetFn::Demon {
                id: *id,
                call: CallSite::new(Callee::Demon(*id), args, span, depth),
                args: args.iter().map(|a| value(a, depth)).collect(),
            },
        }
    }

    /// The target's value (for `T op= v`, `T++`).
    pub(super) fn read(&self, it: &mut Interp, span: Span) -> R<Value> {
        match self {
            TargetFn::Var(slot) => Ok(it.get(*slot).clone()),
            TargetFn::CurrentGraph => Ok(it.graph.clone()),
            TargetFn::Index { object, index, .. } => {
                let o = object(it)?;
                let i = index(it)?;
                it.index(o, i, span)
            }
            TargetFn::Edge(edge, ends) => it.get_edge(edge.get(), &ends.eval(), span).map(Value::Logic),
            TargetFn::Demon { call, .. } => call.run(it),
        }
    }

    /// Stores `v` in the target; the assignment's value is `v`.
    pub(super) fn assign(&self, it: &mut Interp, v: Value, span: Span) -> R<Value> {
        match self {
            TargetFn::Var(slot) => {
                it.set(*slot, v.clone());
                Ok(v)
            }
            TargetFn::CurrentGraph => {
                it.graph = v.clone();
                Ok(v)
            }
            TargetFn::Index { object, index, var } => {
                let o = object(it)?;
                let i = index(it)?;
                it.assign_index(o, i, v, *var, span)
            }
            TargetFn::Edge(edge, ends) => {
                let Value::Logic(l) = v else {
                    return fail(span, format!("an edge can only be set to a logic value, not {}", v.described()));
                };
                it.set_edge(edge.get(), &ends.eval(), l, span)?;
                Ok(v)
            }
            TargetFn::Demon { id, args, .. } => {
                let code = it.demon(*id, span)?;
                if code.set.is_none() {
                    return fail(
                        span,
                        format!("demon `{}` has no `set:` section, so it cannot be assigned to", code.name),
                    );
                }
                let mut values = Vec::with_capacity(args.len());
                for a in args.iter() {
                    values.push(a(it)?);
                }
                it.call_fn(&code, values, span, Some(v))
            }
        }
    }
}

impl Interp {
    /// `O[I] = v`, O and I evaluated; `var`: the variable O was read from. Strings, logic values
    /// and fuzzy numbers are values: `S[i] = "c"`, `L[0] = 0.3`, `F[2] = 5` store a changed copy
    /// in the variable.
    pub(super) fn assign_index(&mut self, o: Value, i: Value, v: Value, var: Option<Slot>, span: Span) -> R<Value> {
        if let Some(slot) = var {
            let changed = match &o {
                Value::Str(s) => {
                    self.text_work(s.len(), span)?; // the string is copied
                    Some(replace_char(s, &i, &v, span)?)
                }
                Value::Logic(l) => Some(Value::Logic(replace_component(*l, &i, &v, span)?)),
                Value::Fuzzy(f) => Some(replace_fuzzy(f, &i, &v, span)?),
                _ => None,
            };
            if let Some(changed) = changed {
                self.set(slot, changed);
                return Ok(v);
            }
        }
        self.set_index(o, i, v.clone(), span)?;
        Ok(v)
    }
}
