//! Builtin method calls of demon bodies as closures, for the shapes search scripts repeat on
//! every state they make. `Next.name(Next.name() + ";" + H.string() + ".p")` renames a copy
//! by appending its step to its name: done here without the name's whole text (joined, copied
//! into the sum's buffer, compared again with the old name by the setter), since the new name
//! is the old one and the appended text (`Name::appended`). It gives the name, steps and
//! errors the general call gives: a case that could differ (the variable holds no graph, a
//! piece is not a string read in place, the text long enough for its copy to count as work)
//! runs the general call's closure from the start, and nothing this closure reads has side
//! effects.

use super::expr::{Operand, ValueFn};
use super::StFn;
use crate::compile::ir::{Ex, ExKind, Slot};
use crate::eval::{Interp, R};
use crate::value::display::node_name;
use crate::value::{NodeVal, Str, Value};
use ds_syntax::ast::BinOp;
use ds_syntax::Span;

/// Texts up to this length count no work when `+` copies them (`Interp::copy_work`): the
/// rename is done here only for them, so that the steps stay those of the general call.
const FREE_TEXT: usize = 4096;

/// An expression statement made of a builtin method call that has a closure here (None: the
/// caller compiles it otherwise).
pub(super) fn statement(e: &Ex, span: Span, depth: u32) -> Option<StFn> {
    let call = call(e, depth)?;
    let call = match rename(e, span, call) {
        Ok(rename) => return Some(rename),
        Err(call) => call,
    };
    Some(Box::new(move |it| {
        it.tick(span)?;
        call(it).map(drop)
    }))
}

/// A builtin call (`Recv.method(a, b)`, `f(a)`) of up to two arguments, as the general
/// `ExKind::Builtin` closure makes it: the object, the body its kind picks, the arguments, the call;
/// here the operands are closures and the function is called directly.
pub(super) fn call(e: &Ex, depth: u32) -> Option<ValueFn> {
    let ExKind::Builtin { f, object, args, .. } = &e.kind else { return None };
    let (f, span) = (*f, e.span);
    let object = object.as_deref().map(|o| Operand::new(o, depth));
    let object = move |it: &mut Interp| -> R<Option<Value>> {
        match &object {
            Some(o) => o.get(it).map(Some),
            None => Ok(None),
        }
    };
    Some(match &args[..] {
        [] => Box::new(move |it| {
            let obj = object(it)?;
            let f = f.pick(obj.as_ref(), span)?;
            f(it, obj, &[], span)
        }),
        [a] => {
            let a = Operand::new(a, depth);
            Box::new(move |it| {
                let obj = object(it)?;
                let f = f.pick(obj.as_ref(), span)?;
                let a = [a.get(it)?];
                f(it, obj, &a, span)
            })
        }
        [a, b] => {
            let (a, b) = (Operand::new(a, depth), Operand::new(b, depth));
            Box::new(move |it| {
                let obj = object(it)?;
                let f = f.pick(obj.as_ref(), span)?;
                let a = a.get(it)?;
                let ab = [a, b.get(it)?];
                f(it, obj, &ab, span)
            })
        }
        _ => {
            let args: Box<[Operand]> = args.iter().map(|a| Operand::new(a, depth)).collect();
            Box::new(move |it| {
                let obj = object(it)?;
                let f = f.pick(obj.as_ref(), span)?;
                let mut values = crate::eval::expr::Args::with_capacity(args.len());
                for a in args.iter() {
                    values.push(a.get(it)?);
                }
                f(it, obj, &values, span)
            })
        }
    })
}

/// A piece of the text appended to a name, read without evaluating anything.
enum Piece {
    Text(Str),
    /// A local holding a string.
    Local(usize),
    /// `X.string()` of a local holding a node of the state (its name).
    NodeName(usize),
}

/// `G.name(G.name() + a + b + ...)` as a statement, G a local; `call` is the general call of
/// the same node, run when a piece cannot be read in place (given back: another statement).
fn rename(e: &Ex, span: Span, call: ValueFn) -> Result<StFn, ValueFn> {
    let Some((g, pieces)) = rename_parts(e) else { return Err(call) };
    Ok(Box::new(move |it| {
        it.tick(span)?;
        let mut text = Str::new();
        for p in pieces.iter() {
            match p.read(it) {
                Some(part) => text.push_str(part),
                None => return call(it).map(drop),
            }
        }
        let Value::Graph(graph) = it.local(g) else { return call(it).map(drop) };
        let mut graph = graph.borrow_mut();
        if graph.name.len_within(FREE_TEXT.saturating_sub(text.len())).is_none() {
            drop(graph);
            return call(it).map(drop);
        }
        graph.name = graph.name.appended(&text);
        Ok(())
    }))
}

/// The local G and the appended pieces of `G.name(G.name() + a + b + ...)`.
fn rename_parts(e: &Ex) -> Option<(usize, Box<[Piece]>)> {
    let ExKind::Builtin { name: "name", object: Some(graph), args, .. } = &e.kind else { return None };
    let g = local(graph)?;
    let [arg] = &args[..] else { return None };
    let operands: Vec<&Ex> = match &arg.kind {
        ExKind::Sum(items) => items.iter().map(|(e, _)| e).collect(),
        ExKind::Binary { op: BinOp::Add, left, right, .. } => vec![&**left, &**right],
        _ => return None,
    };
    let (first, rest) = operands.split_first()?;
    match &first.kind {
        ExKind::Builtin { name: "name", object: Some(o), args, .. } if args.is_empty() && local(o) == Some(g) => {}
        _ => return None,
    }
    Some((g, rest.iter().map(|e| Piece::new(e)).collect::<Option<_>>()?))
}

impl Piece {
    fn new(e: &Ex) -> Option<Piece> {
        match &e.kind {
            ExKind::Const(Value::Str(s)) => Some(Piece::Text(s.clone())),
            ExKind::Var(Slot::Local(i)) => Some(Piece::Local(*i as usize)),
            ExKind::Builtin { name: "string", object: Some(o), args, .. } if args.is_empty() => {
                Some(Piece::NodeName(local(o)?))
            }
            _ => None,
        }
    }

    /// The piece's text, as `+` appends it (None: evaluate the statement instead).
    #[inline(always)]
    fn read<'a>(&'a self, it: &'a Interp) -> Option<&'a str> {
        match self {
            Piece::Text(s) => Some(s.as_str()),
            Piece::Local(i) => match it.local(*i) {
                Value::Str(s) => Some(s.as_str()),
                _ => None,
            },
            Piece::NodeName(i) => match it.local(*i) {
                Value::Node(NodeVal { class, id, graph: None }) => Some(node_name(&it.world, *class, *id)),
                _ => None,
            },
        }
    }
}

/// The local variable `e` reads, if it is one.
fn local(e: &Ex) -> Option<usize> {
    match e.kind {
        ExKind::Var(Slot::Local(i)) => Some(i as usize),
        _ => None,
    }
}
