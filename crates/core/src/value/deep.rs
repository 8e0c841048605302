//! `==` and the total order for containers nested deeper than `MAX_NESTING`, without native
//! recursion: a loop of `a = [a]` makes an array a million deep, and two such arrays are
//! equal. (Below that depth the recursive comparison in `mod.rs` is faster.)
//!
//! A pair of containers met again while it is being compared (a container that holds
//! itself) is taken as equal there, so that cyclic values compare as the infinite values
//! they unfold to, and every comparison ends.

use super::{ArrayRef, Value};
use rustc_hash::FxHashSet;
use std::cmp::Ordering;
use std::rc::Rc;

type Pairs = FxHashSet<(*const (), *const ())>;

/// The first time `a` and `b` are compared (a pair seen before is taken as equal).
fn first_time(pairs: &mut Pairs, a: *const (), b: *const ()) -> bool {
    a != b && pairs.insert((a, b))
}

/// `a == b`, for values of any depth.
pub(super) fn equals(a: &Value, b: &Value) -> bool {
    let mut pairs = Pairs::default();
    let mut todo = vec![(a.clone(), b.clone())];
    while let Some((x, y)) = todo.pop() {
        match (&x, &y) {
            (Value::Array(p), Value::Array(q)) => {
                if !first_time(&mut pairs, Rc::as_ptr(p).cast(), Rc::as_ptr(q).cast()) {
                    continue;
                }
                let (p, q) = (p.borrow(), q.borrow());
                if p.len() != q.len() {
                    return false;
                }
                todo.extend(p.iter().cloned().zip(q.iter().cloned()));
            }
            (Value::Map(p), Value::Map(q)) => {
                if !first_time(&mut pairs, Rc::as_ptr(p).cast(), Rc::as_ptr(q).cast()) {
                    continue;
                }
                let (p, q) = (p.borrow(), q.borrow());
                if p.len() != q.len() {
                    return false;
                }
                for ((k1, v1), (k2, v2)) in p.iter().zip(q.iter()) {
                    todo.extend([(k1.clone(), k2.clone()), (v1.clone(), v2.clone())]);
                }
            }
            (Value::Array(_) | Value::Map(_), _) | (_, Value::Array(_) | Value::Map(_)) => return false,
            _ if !x.equals(&y) => return false,
            _ => {}
        }
    }
    true
}

/// The total order of `sort()` and map keys between two arrays, for arrays of any depth:
/// item by item, and a shorter array before a longer one it begins.
pub(super) fn total_cmp(a: &ArrayRef, b: &ArrayRef) -> Ordering {
    let mut pairs = Pairs::default();
    let mut frames = vec![(a.clone(), b.clone(), 0usize)];
    while let Some((p, q, i)) = frames.last_mut() {
        let next = {
            let (p, q) = (p.borrow(), q.borrow());
            match (p.get(*i), q.get(*i)) {
                (Some(x), Some(y)) => Some((x.clone(), y.clone())),
                (x, y) => {
                    let by_length = x.is_some().cmp(&y.is_some());
                    if by_length.is_ne() {
                        return by_length;
                    }
                    None
                }
            }
        };
        *i += 1;
        match next {
            None => {
                frames.pop();
            }
            Some((Value::Array(x), Value::Array(y))) => {
                if first_time(&mut pairs, Rc::as_ptr(&x).cast(), Rc::as_ptr(&y).cast()) {
                    frames.push((x, y, 0));
                }
            }
            Some((x, y)) => {
                let order = x.total_cmp(&y);
                if order.is_ne() {
                    return order;
                }
            }
        }
    }
    Ordering::Equal
}
