//! Binary operators.

use super::{fail, Interp, R};
use crate::syntax::ast::BinOp;
use crate::syntax::Span;
use crate::value::{Logic, Value};
use std::cmp::Ordering;

impl Interp {
    pub fn binary(&mut self, op: BinOp, l: Value, r: Value, span: Span) -> R<Value> {
        use BinOp::*;
        match op {
            Add => self.add(l, r, span),
            Sub | Mul | Div | IntDiv | Rem => arithmetic(op, &l, &r, span),
            Eq => Ok(Value::bool(l.equals(&r))),
            Ne => Ok(Value::bool(!l.equals(&r))),
            Lt | Le | Gt | Ge => Ok(Value::Logic(match l.compare(&r) {
                Some(o) => Logic::from_bool(match op {
                    Lt => o == Ordering::Less,
                    Le => o != Ordering::Greater,
                    Gt => o == Ordering::Greater,
                    _ => o != Ordering::Less,
                }),
                None => Logic::UNDEF,
            })),
            And | Or | Implies | Equiv => Ok(Value::Logic(match (&l, &r) {
                (Value::Logic(a), Value::Logic(b)) => match op {
                    And => a.and(*b),
                    Or => a.or(*b),
                    Implies => a.implies(*b),
                    _ => a.equiv(*b),
                },
                _ => Logic::UNDEF,
            })),
        }
    }

    fn add(&mut self, l: Value, r: Value, span: Span) -> R<Value> {
        match (&l, &r) {
            (Value::Num(a), Value::Num(b)) => Ok(Value::Num(a + b)),
            (Value::Str(_), _) | (_, Value::Str(_)) | (Value::Node(_), _) => {
                let mut s = self.text(&l);
                s.push_str(&self.text(&r));
                Ok(Value::Str(s.into()))
            }
            (Value::Array(a), Value::Array(b)) => {
                let mut v = a.borrow().clone();
                v.extend(b.borrow().iter().cloned());
                Ok(Value::array(v))
            }
            (Value::Map(a), Value::Map(b)) => {
                let mut m = a.borrow().clone();
                for (k, v) in b.borrow().iter() {
                    m.insert(k.clone(), v.clone());
                }
                Ok(Value::Map(std::rc::Rc::new(std::cell::RefCell::new(m))))
            }
            _ => fail(span, format!("cannot add a {} and a {}", l.type_name(), r.type_name())),
        }
    }
}

fn arithmetic(op: BinOp, l: &Value, r: &Value, span: Span) -> R<Value> {
    let (Value::Num(a), Value::Num(b)) = (l, r) else {
        return fail(
            span,
            format!("`{}` needs two numbers, not a {} and a {}", op.symbol(), l.type_name(), r.type_name()),
        );
    };
    let (a, b) = (*a, *b);
    let v = match op {
        BinOp::Sub => a - b,
        BinOp::Mul => a * b,
        BinOp::Div | BinOp::IntDiv | BinOp::Rem if b == 0.0 => return fail(span, "division by zero"),
        BinOp::Div => a / b,
        BinOp::IntDiv => {
            let (x, y) = (a.trunc(), b.trunc());
            if y == 0.0 {
                return fail(span, "division by zero");
            }
            (x / y).trunc()
        }
        _ => a % b,
    };
    Ok(Value::Num(v))
}
