//! A graph's name. Search scripts name each new state by appending its step to the name of
//! the state it was copied from (`Next.name(Next.name() + ";f.m.$2")`); such a name keeps the
//! old name by reference and stores only the text appended, so that a deep search does not
//! store every state's whole path again.

use crate::value::Str;
use smallvec::SmallVec;
use std::cell::RefCell;
use std::fmt;
use std::rc::Rc;

thread_local! {
    /// The name flattened last and its text. A search names every successor of a state from
    /// that state's name (`Next.name(Next.name() + ...)` on copies of one state), so the same
    /// name is read, and renamed from, several times in a row: its pieces are joined once.
    static LAST: RefCell<Option<(Name, Str)>> = const { RefCell::new(None) };
}

#[derive(Clone)]
pub struct Name(Rc<Part>);

/// `head` (if any) followed by `tail`; `len` is the whole text's length, so that renaming a
/// state checks the name's size without walking the chain (a cache miss per link: 3% of the
/// seed's program on 95k states, docs/performance.md).
struct Part {
    head: Option<Name>,
    tail: Str,
    len: usize,
}

/// Names shorter than this are stored whole: a reference would save nothing.
const SHARED_MIN: usize = 24;

impl Name {
    pub fn new(text: Str) -> Name {
        Name(Rc::new(Part { head: None, len: text.len(), tail: text }))
    }

    /// `head`'s text followed by `tail`, keeping `head` by reference.
    fn joined(head: &Name, tail: &str) -> Name {
        Name(Rc::new(Part { head: Some(head.clone()), tail: tail.into(), len: head.0.len + tail.len() }))
    }

    /// The pieces of the name, in order.
    fn pieces(&self) -> SmallVec<[&str; 32]> {
        let mut pieces = SmallVec::new();
        let mut at = Some(self);
        while let Some(name) = at {
            pieces.push(name.0.tail.as_str());
            at = name.0.head.as_ref();
        }
        pieces.reverse();
        pieces
    }

    /// The name as one string (no copy for a name stored whole).
    pub fn to_str(&self) -> Str {
        if self.0.head.is_none() {
            return self.0.tail.clone();
        }
        let last = LAST.with_borrow(|l| l.as_ref().filter(|(n, _)| Rc::ptr_eq(&n.0, &self.0)).map(|(_, s)| s.clone()));
        if let Some(text) = last {
            return text;
        }
        let text = crate::value::text::joined(&self.pieces());
        // The entry replaced is dropped after the borrow ends (its drop may free a chain).
        let old = LAST.replace(Some((self.clone(), text.clone())));
        drop(old);
        text
    }

    /// What this name adds to `parent`, when it was made from it by `renamed` (None when
    /// that is not known without comparing the text); "" when it is `parent` itself.
    pub fn added_to(&self, parent: &Name) -> Option<&str> {
        if Rc::ptr_eq(&self.0, &parent.0) {
            return Some("");
        }
        match &self.0.head {
            Some(head) if Rc::ptr_eq(&head.0, &parent.0) => Some(self.0.tail.as_str()),
            _ => None,
        }
    }

    /// The length of the name's text, without joining it (None past `limit`).
    pub fn len_within(&self, limit: usize) -> Option<usize> {
        (self.0.len <= limit).then_some(self.0.len)
    }

    /// This name with `rest` appended: what `renamed` makes of this name's text and `rest`
    /// (`G.name(G.name() + rest)`), without that text.
    pub fn appended(&self, rest: &str) -> Name {
        if rest.is_empty() || self.len_within(SHARED_MIN - 1).is_some() {
            let mut text = self.to_str();
            text.push_str(rest);
            return Name::new(text);
        }
        Name::joined(self, rest)
    }

    /// The name `text`, kept as this name and the rest when it starts with this name.
    pub fn renamed(&self, text: Str) -> Name {
        // This name's text, usually just read by `to_str` (the script's `Next.name()`).
        let Some(rest) = text.strip_prefix(self.to_str().as_str()) else { return Name::new(text) };
        let len = text.len() - rest.len();
        if len < SHARED_MIN || rest.is_empty() {
            return Name::new(text);
        }
        Name::joined(self, rest)
    }
}

impl Drop for Part {
    /// A long chain of names is let go one link at a time, not by recursion.
    fn drop(&mut self) {
        let mut next = self.head.take();
        while let Some(Name(rc)) = next {
            next = match Rc::try_unwrap(rc) {
                Ok(mut part) => part.head.take(),
                Err(_) => None,
            };
        }
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        self.pieces().iter().try_for_each(|p| f.write_str(p))
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{:?}", self.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_made_from_the_old_one_shares_it() {
        let start = Name::new("Start;f.t.b;f.m.$3;f.m.$4".into());
        let next = start.renamed("Start;f.t.b;f.m.$3;f.m.$4;f.m.$2".into());
        assert!(next.0.head.as_ref().is_some_and(|h| Rc::ptr_eq(&h.0, &start.0)));
        assert_eq!(next.0.tail, ";f.m.$2");
        assert_eq!(next.to_str(), "Start;f.t.b;f.m.$3;f.m.$4;f.m.$2");
        assert_eq!(next.to_string(), "Start;f.t.b;f.m.$3;f.m.$4;f.m.$2");
        let again = next.renamed("Start;f.t.b;f.m.$3;f.m.$4;f.m.$2;f.p".into());
        assert_eq!(again.to_str(), "Start;f.t.b;f.m.$3;f.m.$4;f.m.$2;f.p");
        assert_eq!(again.pieces().len(), 3);
        // The length kept with each link is the joined text's.
        assert_eq!(again.len_within(usize::MAX), Some(again.to_str().len()));
        assert_eq!(again.len_within(again.to_str().len() - 1), None);
        assert_eq!(again.added_to(&next), Some(";f.p"));
        assert_eq!(again.added_to(&start), None, "not known without the text");
        assert_eq!(start.clone().added_to(&start), Some(""));
    }

    #[test]
    fn appending_gives_the_name_renaming_gives() {
        let start = Name::new("Start;f.t.b;f.m.$3;f.m.$4".into());
        let next = start.appended(";f.m.$2");
        assert!(next.0.head.as_ref().is_some_and(|h| Rc::ptr_eq(&h.0, &start.0)));
        assert_eq!(next.to_str(), "Start;f.t.b;f.m.$3;f.m.$4;f.m.$2");
        assert_eq!(next.len_within(100), Some(32));
        assert_eq!(next.len_within(31), None);
        let short = Name::new("S".into());
        let longer = short.appended(";a");
        assert!(longer.0.head.is_none(), "a short name is stored whole, as `renamed` does");
        assert_eq!(longer.to_str(), "S;a");
        assert!(start.appended("").0.head.is_none());
        assert_eq!(start.appended("").to_str(), start.to_str());
    }

    #[test]
    fn other_names_are_stored_whole() {
        let start = Name::new("Start;f.t.b;f.m.$3;f.m.$4".into());
        for text in ["Other", "Start;f.t.b;f.m.$3;f.m.$", "Start;f.t.b;f.m.$3;f.m.$4", "Start;f.t.b;f.m.$3;f.m.$5;x"] {
            let n = start.renamed(text.into());
            assert!(n.0.head.is_none(), "{text}");
            assert_eq!(n.to_str(), text);
        }
        let short = Name::new("S".into());
        assert!(short.renamed("S;a".into()).0.head.is_none());
    }

    #[test]
    fn a_long_chain_is_dropped_without_recursion() {
        let mut name = Name::new("a name long enough to be shared".into());
        for _ in 0..1_000_000 {
            name = Name::joined(&name, "x");
        }
        assert_eq!(name.to_str().len(), 31 + 1_000_000);
        assert_eq!(name.len_within(usize::MAX), Some(31 + 1_000_000));
        drop(name);
    }
}
