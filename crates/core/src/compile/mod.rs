//! The compile phase: resolves names to slots, demon calls to demon ids, relation names to
//! relation ids and builtins to functions, and checks argument counts, all before anything runs.
//! Its state persists between chunks of code so that the REPL can add to a running program.

mod arith;
mod axiom;
pub mod dump;
mod expr;
pub mod index;
pub mod ir;
pub mod registry;
mod scopes;
pub mod sink;
pub mod special;
mod stmt;
mod warn;

use crate::world::World;
pub use axiom::axiom_shaped;
use ds_base::diagnostics::Diagnostic;
use ds_syntax::ast::{DefAst, Name, Stmt, StmtKind};
use ds_syntax::Span;
use ir::*;
use rustc_hash::{FxHashMap, FxHashSet};
use std::rc::Rc;

/// What the compiler knows about a demon before its body is compiled.
#[derive(Debug, Clone)]
pub struct DemonSig {
    pub id: DemonId,
    pub arity: usize,
    pub span: Span,
}

/// Names that cannot be variables or parameters.
const RESERVED: [&str; 3] = ["value", "get", "set"];

/// Per demon (or lambda, or the top level) while it is being compiled.
struct FnCtx {
    scopes: scopes::Scopes,
    /// Where each variable of `scopes` was declared, for the duplicate-declaration warning.
    decls: Vec<FxHashMap<Rc<str>, Span>>,
    frame_size: u32,
    top_level: bool,
    loop_depth: u32,
    /// The body assigns `GRAPH` (see `FnCode::sets_graph`).
    sets_graph: bool,
    /// A lambda's body (it sees no variable of the code around it).
    lambda: bool,
}

impl FnCtx {
    fn new(scopes: scopes::Scopes, top_level: bool) -> FnCtx {
        let decls = (0..scopes.depth()).map(|_| FxHashMap::default()).collect();
        FnCtx { scopes, decls, frame_size: 0, top_level, loop_depth: 0, sets_graph: false, lambda: false }
    }
}

/// The names a chunk can add or change, saved so that a failed chunk adds nothing.
struct NamesSnapshot {
    demons: FxHashMap<Rc<str>, DemonSig>,
    demon_code: Vec<Option<Rc<FnCode>>>,
    top: FxHashMap<Rc<str>, Slot>,
    shared: FxHashSet<Rc<str>>,
    node_names: FxHashSet<Rc<str>>,
}

pub struct Compiler {
    /// The builtins that names resolve to.
    pub registry: &'static registry::Registry,
    pub demons: FxHashMap<Rc<str>, DemonSig>,
    /// Compiled demons by id; the evaluator reads them from here.
    pub demon_code: Vec<Option<Rc<FnCode>>>,
    /// The top level's outermost scope: global slots by name.
    top: FxHashMap<Rc<str>, Slot>,
    pub global_count: u32,
    /// Top-level names made visible inside demons by a top-level `global`.
    shared: FxHashSet<Rc<str>>,
    /// Node names declared with `nodes`, usable bare.
    node_names: FxHashSet<Rc<str>>,
    ctx: Vec<FnCtx>,
    errors: Vec<Diagnostic>,
    /// Where names are declared and used, when a tool asked for it (`record_names`).
    index: Option<Box<index::NameIndex>>,
    warnings: Vec<Diagnostic>,
    /// Where this chunk declared its top-level variables (a REPL entry may declare again what
    /// an earlier entry declared without a warning).
    top_decls: FxHashMap<Rc<str>, Span>,
}

impl Compiler {
    pub fn new(registry: &'static registry::Registry) -> Compiler {
        Compiler {
            registry,
            demons: FxHashMap::default(),
            demon_code: Vec::new(),
            top: FxHashMap::default(),
            global_count: 0,
            shared: FxHashSet::default(),
            node_names: FxHashSet::default(),
            ctx: Vec::new(),
            errors: Vec::new(),
            index: None,
            warnings: Vec::new(),
            top_decls: FxHashMap::default(),
        }
    }

    /// Compiles a chunk of top-level statements. On failure nothing of the chunk is kept that
    /// could make a later chunk misbehave; all errors found are returned.
    pub fn compile_chunk(&mut self, stmts: &[Stmt], world: &mut World) -> Result<Vec<St>, Vec<Diagnostic>> {
        self.errors.clear();
        self.warnings.clear();
        self.top_decls.clear();
        let before = self.names_snapshot();
        self.declare_demons(stmts);
        self.ctx.push(FnCtx::new(scopes::Scopes::default(), true));
        let code = self.stmts(stmts, world);
        self.ctx.pop();
        if self.errors.is_empty() {
            Ok(code)
        } else {
            // A REPL entry that fails must not leave a half-compiled demon (or a variable that
            // was never set) behind: the names go back to what they were.
            self.restore_names(before);
            Err(std::mem::take(&mut self.errors))
        }
    }

    /// The variables visible here, for an `eval` call.
    fn eval_scope(&self) -> EvalScope {
        let ctx = self.ctx();
        let mut vars = FxHashMap::default();
        vars.extend(ctx.scopes.visible().map(|(k, v)| (k.clone(), v)));
        EvalScope { vars, top_level: ctx.top_level }
    }

    /// Compiles the expression of an `eval` in the scope its call saw. New variables (the
    /// first argument of `exists`) are allowed at the top level only: a demon's frame is laid
    /// out already.
    pub fn compile_eval(
        &mut self,
        e: &ds_syntax::ast::Expr,
        scope: &EvalScope,
        world: &mut World,
    ) -> Result<Ex, Vec<Diagnostic>> {
        self.errors.clear();
        self.ctx
            .push(FnCtx::new(scopes::Scopes::with(scope.vars.iter().map(|(k, v)| (k.clone(), *v))), scope.top_level));
        let ex = self.expr(e, world);
        self.warnings.clear(); // an expression has none of the statements' warnings
        let ctx = self.ctx.pop().expect("eval context");
        if !scope.top_level && ctx.frame_size > 0 {
            self.error(
                e.span,
                "code given to `eval` inside a demon cannot declare new variables; declare them with `var` first",
            );
        }
        if self.errors.is_empty() {
            Ok(ex)
        } else {
            Err(std::mem::take(&mut self.errors))
        }
    }

    fn names_snapshot(&self) -> NamesSnapshot {
        NamesSnapshot {
            demons: self.demons.clone(),
            demon_code: self.demon_code.clone(),
            top: self.top.clone(),
            shared: self.shared.clone(),
            node_names: self.node_names.clone(),
        }
    }

    /// Global slots handed out stay handed out; only the names are restored.
    fn restore_names(&mut self, s: NamesSnapshot) {
        self.demons = s.demons;
        self.demon_code = s.demon_code;
        self.top = s.top;
        self.shared = s.shared;
        self.node_names = s.node_names;
    }

    /// Whether a name is known to the compiler as a variable of the top level.
    pub fn top_level_names(&self) -> impl Iterator<Item = &Rc<str>> {
        self.top.keys()
    }

    pub fn top_level_slot(&self, name: &str) -> Option<u32> {
        match self.top.get(name) {
            Some(Slot::Global(g)) => Some(*g),
            _ => None,
        }
    }

    pub fn node_names(&self) -> impl Iterator<Item = &Rc<str>> {
        self.node_names.iter()
    }

    fn error(&mut self, span: Span, message: impl Into<String>) {
        self.errors.push(Diagnostic::error(span, message));
    }

    /// A huge program can pass `--max-memory` before it runs: the compiler stops at the
    /// statement where it noticed, with one error however deep the blocks it was in.
    fn out_of_memory(&mut self, span: Span) {
        let message = ds_base::guard::memory::limit_message();
        if !self.errors.iter().any(|e| e.message == message) {
            self.error(span, message);
        }
    }

    fn error_with(&mut self, d: Diagnostic) {
        self.errors.push(d);
    }

    // ------------------------------------------------------------ demons

    /// Registers every `def` of the chunk first, so that a demon may call one defined later.
    fn declare_demons(&mut self, stmts: &[Stmt]) {
        let mut seen: FxHashSet<Rc<str>> = FxHashSet::default();
        let mut defs = Vec::new();
        collect_defs(stmts, &mut defs);
        for def in defs {
            let name = def.name.text.clone();
            if !seen.insert(name.clone()) {
                let first = self.demons.get(&name).map(|d| d.span);
                let mut d = Diagnostic::error(def.name.span, format!("demon `{name}` is defined twice"));
                if let Some(first) = first {
                    d = d.with_note(format!("the first definition is at byte {}", first.lo));
                }
                self.error_with(d);
                continue;
            }
            self.note_demon(&name, def.name.span, &def.params);
            let id = match self.demons.get(&name) {
                Some(sig) => sig.id,
                None => {
                    self.demon_code.push(None);
                    (self.demon_code.len() - 1) as DemonId
                }
            };
            self.demons.insert(name, DemonSig { id, arity: def.params.len(), span: def.name.span });
        }
    }

    fn compile_def(&mut self, def: &DefAst, world: &mut World) {
        let Some(sig) = self.demons.get(&def.name.text).cloned() else { return };
        let code = self.function(&def.name.text, false, &def.params, def.span, world, |c, world| {
            let value_slot =
                def.set.as_ref().map(|_| c.declare_local(&Name { text: "value".into(), span: def.span }, true));
            let body = c.stmts(&def.body, world);
            let get = def.get.as_ref().map(|s| c.block_stmts(s, def.span, world));
            let set = def.set.as_ref().map(|s| c.block_stmts(s, def.span, world));
            (
                body,
                get,
                set,
                value_slot.and_then(|s| match s {
                    Slot::Local(i) => Some(i),
                    Slot::Global(_) => None,
                }),
            )
        });
        self.demon_code[sig.id as usize] = Some(Rc::new(code));
    }

    /// Compiles a demon or lambda body in a fresh frame whose first slots are the parameters.
    fn function(
        &mut self,
        name: &str,
        lambda: bool,
        params: &[Name],
        span: Span,
        world: &mut World,
        body: impl FnOnce(&mut Self, &mut World) -> (Vec<St>, Option<Vec<St>>, Option<Vec<St>>, Option<u32>),
    ) -> FnCode {
        self.ctx.push(FnCtx { lambda, ..FnCtx::new(scopes::Scopes::with([]), false) });
        self.note_function_start(span);
        let mut seen = FxHashSet::default();
        for p in params {
            if !seen.insert(p.text.clone()) {
                self.error(p.span, format!("parameter `{}` is named twice", p.text));
            }
            self.check_reserved(p);
            self.note_declaration(&p.text, p.span);
            let slot = self.ctx_mut().frame_size;
            self.ctx_mut().frame_size += 1;
            self.ctx_mut().scopes.insert(p.text.clone(), Slot::Local(slot));
            self.note_var_as(index::SymbolKind::Parameter, &p.text, Slot::Local(slot), p.span, true);
        }
        let (body, get, set, value_slot) = body(self, world);
        self.note_function_end();
        let ctx = self.ctx.pop().expect("function context");
        FnCode {
            name: name.into(),
            param_names: params.iter().map(|p| p.text.clone()).collect(),
            frame_size: ctx.frame_size,
            body,
            get,
            set,
            value_slot,
            expr_body: false,
            sets_graph: ctx.sets_graph,
            span,
            source: None,
            calls: Default::default(),
            fast: Default::default(),
        }
    }

    // ------------------------------------------------------------ scopes

    fn ctx_mut(&mut self) -> &mut FnCtx {
        self.ctx.last_mut().expect("a function context")
    }

    fn ctx(&self) -> &FnCtx {
        self.ctx.last().expect("a function context")
    }

    /// A scope for the code at `span`.
    fn push_scope(&mut self, span: Span) {
        self.ctx_mut().scopes.push();
        self.note_scope_start(span);
        self.ctx_mut().decls.push(FxHashMap::default());
    }

    fn pop_scope(&mut self) {
        self.ctx_mut().scopes.pop();
        self.note_scope_end();
        self.ctx_mut().decls.pop();
    }

    fn check_reserved(&mut self, n: &Name) {
        if RESERVED.contains(&&*n.text) {
            self.error(n.span, format!("`{}` is reserved and cannot name a variable", n.text));
        }
    }

    fn new_global(&mut self) -> Slot {
        self.global_count += 1;
        Slot::Global(self.global_count - 1)
    }

    /// Declares a variable in the innermost scope (reusing it if that scope already has it).
    fn declare_local(&mut self, n: &Name, allow_reserved: bool) -> Slot {
        if !allow_reserved {
            self.check_reserved(n);
        }
        if let Some(slot) = self.innermost_slot(&n.text) {
            self.note_var(&n.text, slot, n.span, true);
            return slot;
        }
        self.note_declaration(&n.text, n.span);
        let slot = if self.ctx().top_level {
            if self.ctx().scopes.is_empty() {
                let slot = self.new_global();
                self.top.insert(n.text.clone(), slot);
                self.note_var(&n.text, slot, n.span, true);
                return slot;
            }
            self.new_global()
        } else {
            let ctx = self.ctx_mut();
            ctx.frame_size += 1;
            Slot::Local(ctx.frame_size - 1)
        };
        self.ctx_mut().scopes.insert(n.text.clone(), slot);
        self.note_var(&n.text, slot, n.span, true);
        slot
    }

    /// The slot of `name` in the innermost scope (at the top level outside blocks, the
    /// top-level names), if it declares it.
    fn innermost_slot(&self, name: &str) -> Option<Slot> {
        let ctx = self.ctx();
        if ctx.scopes.is_empty() {
            return if ctx.top_level { self.top.get(name).copied() } else { None };
        }
        ctx.scopes.innermost(name)
    }

    /// A variable visible here: the current function's scopes, then (in demons) the top-level
    /// names shared with `global`; at the top level, its outermost scope.
    fn lookup_var(&self, name: &str) -> Option<Slot> {
        let ctx = self.ctx();
        if let Some(s) = ctx.scopes.lookup(name) {
            return Some(s);
        }
        if ctx.top_level || self.shared.contains(name) {
            return self.top.get(name).copied();
        }
        None
    }

    /// The top-level slot of `name`, created (holding None) if it does not exist yet.
    fn top_slot(&mut self, name: &Rc<str>) -> Slot {
        if let Some(&s) = self.top.get(name) {
            return s;
        }
        let s = self.new_global();
        self.top.insert(name.clone(), s);
        s
    }
}

/// Every `def` in a chunk, nested ones included (a demon is global wherever it is written).
fn collect_defs<'a>(stmts: &'a [Stmt], out: &mut Vec<&'a DefAst>) {
    ds_syntax::ast::walk_stmts(stmts, &mut |s| {
        if let StmtKind::Def(d) = &s.kind {
            out.push(d);
        }
    });
}
