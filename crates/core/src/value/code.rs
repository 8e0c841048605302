//! Demons and lambdas as values. Their code is the compiler's (`compile::ir::FnCode`), behind
//! this trait so that values do not depend on the compiler: a value only prints its code and
//! compares it by identity; the evaluator gets the `FnCode` back (`FnCode::of`) to run it.

use std::any::Any;
use std::fmt;
use std::rc::Rc;

pub trait Code: Any + fmt::Debug {
    /// The demon's name ("lambda" for a lambda).
    fn name(&self) -> &str;
    fn params(&self) -> &[Rc<str>];
    /// A lambda's body as written; None for a demon.
    fn source(&self) -> Option<&str>;
}

pub type CodeRef = Rc<dyn Code>;
