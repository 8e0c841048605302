//! Where each name is declared and where it is used, recorded by the compiler when asked
//! (`Compiler::record_names`), for tools that navigate a program: the language server's go to
//! definition, references, hover and completion of the names in scope. The compiler resolves
//! every name anyway; this keeps what it found, with the places.

use super::ir::Slot;
use super::Compiler;
use ds_syntax::Span;
use rustc_hash::FxHashMap;
use std::rc::Rc;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SymbolKind {
    Demon,
    Variable,
    Parameter,
    Node,
    Relation,
}

pub type SymbolId = usize;

#[derive(Debug, Clone)]
pub struct Symbol {
    pub kind: SymbolKind,
    /// As first declared (`$1` for a node declared `$1`).
    pub name: Rc<str>,
    /// The first declaration; `None` for what the language declares itself (`isa`, ...) and for
    /// a variable the compiler made up for a `global` of an unknown name.
    pub decl: Option<Span>,
    /// Variables: the places where the name can be used, each a scope's span; `true` marks the
    /// top level's outermost scope, which a demon sees only through `global` (`shared`).
    pub regions: Vec<(Span, bool)>,
    /// A top-level variable that a top-level `global` made visible in every demon.
    pub shared: bool,
    /// Demons: the names of the parameters.
    pub params: Vec<Rc<str>>,
}

/// One place where a symbol's name is written.
#[derive(Debug, Clone, Copy)]
pub struct Occurrence {
    pub span: Span,
    pub symbol: SymbolId,
    /// A declaration (`def`, `var`, a parameter, `nodes`, `edges`) rather than a use.
    pub declaration: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Named(SymbolKind, Rc<str>),
    /// A global slot, the same variable wherever it is seen.
    Global(u32),
    /// A local slot of one function (demons and lambdas are numbered as they are compiled).
    Local(u32, u32),
}

#[derive(Debug, Default, Clone)]
pub struct NameIndex {
    pub symbols: Vec<Symbol>,
    pub occurrences: Vec<Occurrence>,
    keys: FxHashMap<Key, SymbolId>,
    /// The functions being compiled (innermost last) and the spans of their open scopes.
    functions: Vec<(u32, Vec<Span>)>,
    next_function: u32,
}

impl NameIndex {
    /// The occurrence whose name covers `offset` in `file` (its end counts, for a cursor that
    /// stands just after a name).
    pub fn occurrence_at(&self, file: u32, offset: u32) -> Option<&Occurrence> {
        self.occurrences
            .iter()
            .filter(|o| o.span.file == file && o.span.lo <= offset && offset <= o.span.hi)
            .min_by_key(|o| o.span.hi - o.span.lo)
    }

    pub fn occurrences_of(&self, symbol: SymbolId) -> impl Iterator<Item = &Occurrence> {
        self.occurrences.iter().filter(move |o| o.symbol == symbol)
    }

    /// The variables and parameters that code at `offset` of `file` can use; `in_demon` says
    /// whether that place is inside a demon (which sees top-level variables only when shared).
    pub fn variables_at(&self, file: u32, offset: u32, in_demon: bool) -> impl Iterator<Item = &Symbol> {
        self.symbols.iter().filter(move |s| {
            let declared_before = s.decl.is_none_or(|d| d.file != file || d.lo <= offset);
            declared_before
                && s.regions.iter().any(|&(r, top)| {
                    let inside = r.file == file && r.lo <= offset && offset <= r.hi;
                    inside && (!top || !in_demon || s.shared)
                })
        })
    }

    fn symbol(&mut self, key: Key, kind: SymbolKind, name: &Rc<str>, decl: Option<Span>) -> SymbolId {
        if let Some(&id) = self.keys.get(&key) {
            if self.symbols[id].decl.is_none() {
                self.symbols[id].decl = decl;
            }
            return id;
        }
        self.symbols.push(Symbol {
            kind,
            name: name.clone(),
            decl,
            regions: Vec::new(),
            shared: false,
            params: Vec::new(),
        });
        self.keys.insert(key, self.symbols.len() - 1);
        self.symbols.len() - 1
    }

    fn occur(&mut self, symbol: SymbolId, span: Span, declaration: bool) {
        self.occurrences.push(Occurrence { span, symbol, declaration });
    }

    fn var_key(&self, slot: Slot) -> Key {
        match slot {
            Slot::Global(g) => Key::Global(g),
            Slot::Local(l) => Key::Local(self.functions.last().map_or(0, |f| f.0), l),
        }
    }

    /// The region a declaration made now is visible in: the innermost open scope.
    fn current_region(&self) -> Option<(Span, bool)> {
        match self.functions.last() {
            Some((_, scopes)) => scopes.last().map(|s| (*s, false)),
            None => Some((Span { file: 0, lo: 0, hi: u32::MAX }, true)),
        }
    }
}

/// Node names are keyed without their `$`: `$f` can name the node declared as `f`.
fn node_key(name: &str) -> Rc<str> {
    name.strip_prefix('$').filter(|s| !s.is_empty()).unwrap_or(name).into()
}

impl Compiler {
    /// From now on, record where names are declared and used (see `take_names`).
    pub fn record_names(&mut self) {
        self.index = Some(Box::default());
    }

    /// What was recorded since `record_names`, errors or not.
    pub fn take_names(&mut self) -> Option<NameIndex> {
        self.index.take().map(|b| *b)
    }

    /// A demon, node or relation written at `span`.
    pub(super) fn note_name(&mut self, kind: SymbolKind, name: &Rc<str>, span: Span, declaration: bool) {
        let Some(ix) = self.index.as_deref_mut() else { return };
        let key = Key::Named(kind, if kind == SymbolKind::Node { node_key(name) } else { name.clone() });
        let id = ix.symbol(key, kind, name, declaration.then_some(span));
        ix.occur(id, span, declaration);
    }

    /// A demon's declaration, with its parameters.
    pub(super) fn note_demon(&mut self, name: &Rc<str>, span: Span, params: &[ds_syntax::ast::Name]) {
        self.note_name(SymbolKind::Demon, name, span, true);
        let Some(ix) = self.index.as_deref_mut() else { return };
        if let Some(&id) = ix.keys.get(&Key::Named(SymbolKind::Demon, name.clone())) {
            if ix.symbols[id].params.is_empty() {
                ix.symbols[id].params = params.iter().map(|p| p.text.clone()).collect();
            }
        }
    }

    /// A variable written at `span` that resolved to `slot`; a declaration makes it visible in
    /// the innermost open scope.
    pub(super) fn note_var(&mut self, name: &Rc<str>, slot: Slot, span: Span, declaration: bool) {
        self.note_var_as(SymbolKind::Variable, name, slot, span, declaration);
    }

    pub(super) fn note_var_as(&mut self, kind: SymbolKind, name: &Rc<str>, slot: Slot, span: Span, declaration: bool) {
        let Some(ix) = self.index.as_deref_mut() else { return };
        let key = ix.var_key(slot);
        let id = ix.symbol(key, kind, name, declaration.then_some(span));
        ix.occur(id, span, declaration);
        if declaration {
            if let Some(region) = ix.current_region() {
                if !ix.symbols[id].regions.contains(&region) {
                    ix.symbols[id].regions.push(region);
                }
            }
        }
    }

    /// A top-level `global X`: X is visible in every demon.
    pub(super) fn note_shared(&mut self, slot: Slot) {
        let Some(ix) = self.index.as_deref_mut() else { return };
        if let Some(&id) = ix.keys.get(&ix.var_key(slot)) {
            ix.symbols[id].shared = true;
        }
    }

    /// A function (demon or lambda) starts: its parameters' scope spans `span`.
    pub(super) fn note_function_start(&mut self, span: Span) {
        let Some(ix) = self.index.as_deref_mut() else { return };
        ix.next_function += 1;
        let id = ix.next_function;
        ix.functions.push((id, vec![span]));
    }

    pub(super) fn note_function_end(&mut self) {
        if let Some(ix) = self.index.as_deref_mut() {
            ix.functions.pop();
        }
    }

    pub(super) fn note_scope_start(&mut self, span: Span) {
        if let Some((_, scopes)) = self.index.as_deref_mut().and_then(|ix| ix.functions.last_mut()) {
            scopes.push(span);
        } else if let Some(ix) = self.index.as_deref_mut() {
            // A block of the top level: a function of its own for the index's scopes, but its
            // slots are globals, so keys do not depend on it.
            ix.functions.push((0, vec![span]));
        }
    }

    pub(super) fn note_scope_end(&mut self) {
        let Some(ix) = self.index.as_deref_mut() else { return };
        match ix.functions.last_mut() {
            Some((0, scopes)) if scopes.len() == 1 => {
                ix.functions.pop();
            }
            Some((_, scopes)) => {
                scopes.pop();
            }
            None => {}
        }
    }
}
