//! Host objects: values that a part of ds above the value layer makes and the language only
//! holds, prints and compares by identity — files (`File.open`), SVG pictures
//! (`SVG.create()`), state spaces (`Search.explore`). They are one kind of `Value`, behind this
//! trait (as koto's `KotoObject`), so that values depend on none of them; the builtins that
//! work on one get it back with `Value::host::<T>()`.

use std::any::Any;
use std::fmt;
use std::rc::Rc;

pub trait Host: Any + fmt::Debug {
    /// The name `X.type()` returns: "file".
    fn type_name(&self) -> &'static str;
    /// The type with an article, for messages: "a file".
    fn described(&self) -> &'static str;
    /// Appends the printed form (`out X`).
    fn write(&self, out: &mut String);
    /// Where values of this type sort among the types of values (map keys, default `sort()`).
    fn rank(&self) -> u8;
}

pub type HostRef = Rc<dyn Host>;

/// The object behind a host value, when it is a `T`.
pub fn downcast<T: Host>(h: &HostRef) -> Option<Rc<T>> {
    let any: Rc<dyn Any> = h.clone();
    any.downcast().ok()
}
