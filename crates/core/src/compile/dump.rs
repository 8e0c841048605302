//! `ds --dump ir`: the resolved program as the evaluator will run it. Variables are slots
//! (`L3` in the running frame, `G3` of the top level, with the name where one is known), demons
//! are numbered, relations are the world's; a header lists the relations the program declared
//! (at compile time) and every demon's code.

use super::ir::*;
use super::Compiler;
use crate::value::{display, Value};
use crate::world::World;
use ds_syntax::ast::{EdgeMode, OutSep};
use ds_syntax::dump::{edge_rel, quoted, unary, Tree};
use rustc_hash::FxHashMap;

struct Names<'a> {
    world: &'a World,
    demons: &'a [Option<std::rc::Rc<FnCode>>],
    globals: FxHashMap<u32, &'a str>,
    /// The parameters of the code being printed (`L0`... are its first slots).
    params: Vec<&'a str>,
}

/// The IR of a compiled chunk: the relations, the demons, then the top-level code.
pub fn ir(compiler: &Compiler, world: &World, code: &[St]) -> String {
    let globals = compiler
        .top
        .iter()
        .filter_map(|(name, slot)| match slot {
            Slot::Global(i) => Some((*i, &**name)),
            Slot::Local(_) => None,
        })
        .collect();
    let mut n = Names { world, demons: &compiler.demon_code, globals, params: Vec::new() };
    // Relation 0 is no relation (the id of an unknown name in a failed compile).
    let relations = Tree::node("relations", world.relations.iter().skip(1).map(|r| Tree::leaf(&**r)).collect());
    let mut out = relations.render();
    for (id, code) in compiler.demon_code.iter().enumerate() {
        let Some(code) = code else { continue };
        out.push_str(&n.function(&format!("demon {id} {}", code.name), code).render());
    }
    n.params.clear();
    out.push_str(&n.stmts("top", code).render());
    out
}

impl<'a> Names<'a> {
    fn function(&mut self, head: &str, code: &'a FnCode) -> Tree {
        let saved = std::mem::replace(&mut self.params, code.param_names.iter().map(|p| &**p).collect());
        let mut head = format!("{head} frame {}", code.frame_size);
        if code.sets_graph {
            head.push_str(" sets-graph");
        }
        let params =
            Tree::node("params", (0..code.param_names.len()).map(|i| self.slot(Slot::Local(i as u32))).collect());
        let mut kids = vec![params];
        if let Some(v) = code.value_slot {
            kids.push(Tree::node("value", vec![self.slot(Slot::Local(v))]));
        }
        kids.push(self.stmts(if code.expr_body { "expr-body" } else { "body" }, &code.body));
        kids.extend(code.get.iter().map(|g| self.stmts("get:", g)));
        kids.extend(code.set.iter().map(|s| self.stmts("set:", s)));
        self.params = saved;
        Tree::block(head, kids)
    }

    fn slot(&self, s: Slot) -> Tree {
        Tree::leaf(self.slot_name(s))
    }

    fn slot_name(&self, s: Slot) -> String {
        match s {
            Slot::Local(i) => match self.params.get(i as usize) {
                Some(name) => format!("L{i}:{name}"),
                None => format!("L{i}"),
            },
            Slot::Global(i) => match self.globals.get(&i) {
                Some(name) => format!("G{i}:{name}"),
                None => format!("G{i}"),
            },
        }
    }

    fn slots(&self, head: &str, slots: &[Slot]) -> Tree {
        Tree::node(head, slots.iter().map(|s| self.slot(*s)).collect())
    }

    fn demon(&self, id: DemonId) -> String {
        match self.demons.get(id as usize) {
            Some(Some(code)) => format!("{id}:{}", code.name),
            _ => id.to_string(),
        }
    }

    fn rel(&self, rel: &Rel) -> String {
        match rel {
            Rel::Fixed(id) => self.world.relation_name(*id).to_string(),
            Rel::Var(slot) => format!("var {}", self.slot_name(*slot)),
            Rel::Demon(id) => format!("demon {}", self.demon(*id)),
        }
    }

    fn stmts(&mut self, head: &str, list: &'a [St]) -> Tree {
        Tree::block(head, list.iter().map(|s| self.stmt(s)).collect())
    }

    fn items(&mut self, head: &str, items: &'a [(Slot, Option<Ex>)]) -> Tree {
        let kids = items
            .iter()
            .map(|(slot, init)| match init {
                Some(e) => Tree::node("=", vec![self.slot(*slot), self.expr(e)]),
                None => self.slot(*slot),
            })
            .collect();
        Tree::node(head, kids)
    }

    fn stmt(&mut self, s: &'a St) -> Tree {
        match &s.kind {
            StKind::Expr(e) => self.expr(e),
            StKind::SetEdge(edge) => self.edge("set-edge", edge),
            StKind::Axiom(ax) => self.axiom("axiom-stmt", ax),
            StKind::Var(items) => self.items("var", items),
            StKind::Static { items, .. } => self.items("static", items),
            StKind::Nodes { graph, names } => {
                let mut kids: Vec<Tree> = graph.iter().map(|g| Tree::node("of", vec![self.expr(g)])).collect();
                kids.extend(names.iter().map(|n| Tree::leaf(&**n)));
                Tree::node("nodes", kids)
            }
            StKind::Out { items, trail, to_file } => {
                let sep = |s: OutSep| if s == OutSep::Space { "," } else { ",," };
                let mut kids = Vec::new();
                for (i, (s, e)) in items.iter().enumerate() {
                    let e = self.expr(e);
                    kids.push(if i == 0 { e } else { Tree::node(sep(*s), vec![e]) });
                }
                kids.extend(trail.map(|t| Tree::leaf(format!("{}<end>", sep(t)))));
                Tree::node(if *to_file { "fout" } else { "out" }, kids)
            }
            StKind::If(arms) => {
                let arms = arms
                    .iter()
                    .map(|a| {
                        let mut kids = vec![self.expr(&a.cond), self.stmts("then", &a.then)];
                        for (word, b) in [("false", &a.on_false), ("undef", &a.on_undef), ("else", &a.on_else)] {
                            kids.extend(b.as_ref().map(|b| self.stmts(word, b)));
                        }
                        Tree::block("arm", kids)
                    })
                    .collect();
                Tree::block("if", arms)
            }
            StKind::While { cond, body } => Tree::block("while", vec![self.expr(cond), self.stmts("do", body)]),
            StKind::ForRange { vars, args, body } => {
                let args = Tree::node("range", args.iter().map(|a| self.expr(a)).collect());
                Tree::block("for-range", vec![self.slots("vars", vars), args, self.stmts("do", body)])
            }
            StKind::ForValue { vars, source, body } => {
                let source = Tree::node("in", vec![self.expr(source)]);
                Tree::block("for-value", vec![self.slots("vars", vars), source, self.stmts("do", body)])
            }
            StKind::ForNodes { vars, cond, body } => {
                let mut kids = vec![self.slots("vars", vars)];
                kids.extend(cond.iter().map(|c| Tree::node("where", vec![self.expr(c)])));
                kids.push(self.stmts("do", body));
                Tree::block("for-nodes", kids)
            }
            StKind::Return(v) => Tree::node("return", v.iter().map(|e| self.expr(e)).collect()),
            StKind::ReturnIfdef(v) => Tree::node("return ifdef", vec![self.expr(v)]),
            StKind::Break => Tree::leaf("break"),
            StKind::Continue => Tree::leaf("continue"),
            StKind::Block(b) => self.stmts("block", b),
        }
    }

    fn exprs(&mut self, head: impl Into<String>, mut first: Vec<Tree>, list: &'a [Ex]) -> Tree {
        first.extend(list.iter().map(|e| self.expr(e)));
        Tree::node(head, first)
    }

    fn constant(&self, v: &Value) -> Tree {
        Tree::leaf(match v {
            Value::Str(s) => quoted(s),
            Value::Edge(r) => format!("@{}", self.world.relation_name(*r)),
            other => display::to_text(other, self.world),
        })
    }

    fn expr(&mut self, e: &'a Ex) -> Tree {
        match &e.kind {
            ExKind::Const(v) => self.constant(v),
            ExKind::Var(slot) => self.slot(*slot),
            ExKind::CurrentGraph => Tree::leaf("GRAPH"),
            ExKind::Node(n) => node_ref(n),
            ExKind::Array(items) => self.exprs("array", vec![], items),
            ExKind::Map(entries) => {
                let kids = entries.iter().map(|(k, v)| Tree::node(":", vec![self.expr(k), self.expr(v)])).collect();
                Tree::node("map", kids)
            }
            ExKind::Tuple(items) => self.exprs("tuple", vec![], items),
            ExKind::Lambda(code) => self.function("lambda", code),
            ExKind::DemonValue(id) => Tree::node("demon-value", vec![Tree::leaf(self.demon(*id))]),
            ExKind::Demon { id, args } => self.exprs(format!("demon {}", self.demon(*id)), vec![], args),
            ExKind::CallValue { callee, args } => {
                let callee = self.expr(callee);
                self.exprs("call-value", vec![callee], args)
            }
            ExKind::Builtin { name, object, args, .. } => {
                let object: Vec<Tree> = object.iter().map(|o| Tree::node("object", vec![self.expr(o)])).collect();
                self.exprs(format!("builtin {name}"), object, args)
            }
            ExKind::Exists { var, cond, min, max } => {
                let mut kids = vec![self.slot(*var), self.expr(cond)];
                kids.extend(min.iter().chain(max.iter()).map(|e| self.expr(e)));
                Tree::node("exists", kids)
            }
            ExKind::Forall { var, cond } => Tree::node("forall", vec![self.slot(*var), self.expr(cond)]),
            ExKind::AndOr { all, args } => self.exprs(if *all { "and" } else { "or" }, vec![], args),
            ExKind::Eval { arg, scope } => {
                let mut vars: Vec<(&str, Slot)> = scope.vars.iter().map(|(k, v)| (&**k, *v)).collect();
                vars.sort_unstable_by_key(|v| v.0);
                let mut kids = Vec::new();
                if scope.top_level {
                    kids.push(Tree::leaf("top-level"));
                }
                let slot = |s| self.slot(s);
                kids.extend(vars.into_iter().map(|(name, s)| Tree::node(name, vec![slot(s)])));
                let arg = self.expr(arg);
                Tree::node("eval", vec![arg, Tree::node("scope", kids)])
            }
            ExKind::NodeOf { graph, node } => Tree::node("=>", vec![self.expr(graph), node_ref(node)]),
            ExKind::Index { object, index } => Tree::node("index", vec![self.expr(object), self.expr(index)]),
            ExKind::Unary { op, operand } => Tree::node(unary(*op), vec![self.expr(operand)]),
            ExKind::Binary { op, left, right, .. } => Tree::node(op.symbol(), vec![self.expr(left), self.expr(right)]),
            ExKind::Sum(items) => Tree::node("sum", items.iter().map(|(e, _)| self.expr(e)).collect()),
            ExKind::Edge(edge) => self.edge("edge", edge),
            ExKind::Ternary { cond, branches } => {
                let cond = self.expr(cond);
                self.exprs("?:", vec![cond], branches)
            }
            ExKind::Assign { target, value } => Tree::node("=", vec![self.target(target), self.expr(value)]),
            ExKind::Compound { op, target, value } => {
                Tree::node(format!("{}=", op.symbol()), vec![self.target(target), self.expr(value)])
            }
            ExKind::IncDec { target, delta } => {
                Tree::node(if *delta > 0.0 { "++" } else { "--" }, vec![self.target(target)])
            }
            ExKind::Axioms { usage, axioms } => {
                let head = match usage {
                    AxiomUse::Add => "axioms Mind.add",
                    AxiomUse::AddUsual => "axioms Mind.add_usual",
                    AxiomUse::Set => "axioms set",
                };
                Tree::node(head, axioms.iter().map(|a| self.axiom("axiom", a)).collect())
            }
            ExKind::ValueInModels { models, expr } => {
                Tree::node("value-in-models", vec![self.expr(models), self.expr(expr)])
            }
        }
    }

    fn operand(&mut self, o: &'a Operand) -> Tree {
        match o {
            Operand::Single(e) => self.expr(e),
            Operand::Group(items) => {
                let mode = |m: &EdgeMode| match m {
                    EdgeMode::Is => "is",
                    EdgeMode::Not => "!",
                    EdgeMode::Undef => "?",
                };
                Tree::node("group", items.iter().map(|(m, e)| Tree::node(mode(m), vec![self.expr(e)])).collect())
            }
        }
    }

    fn edge(&mut self, head: &str, e: &'a EdgeEx) -> Tree {
        let rel = Tree::leaf(edge_rel(e.mode, &self.rel(&e.rel)));
        Tree::node(head, vec![self.operand(&e.left), rel, self.operand(&e.right)])
    }

    fn target(&mut self, t: &'a Target) -> Tree {
        match t {
            Target::Var(slot) => self.slot(*slot),
            Target::CurrentGraph => Tree::leaf("GRAPH"),
            Target::Index { object, index } => Tree::node("index", vec![self.expr(object), self.expr(index)]),
            Target::Edge(e) => self.edge("edge", e),
            Target::Demon { id, args } => self.exprs(format!("demon {}", self.demon(*id)), vec![], args),
        }
    }

    /// An axiom: its quantified variables, its atoms (numbered), and its clauses as lists of
    /// atoms, `!` before a negative one.
    fn axiom(&mut self, head: &str, ax: &'a AxiomEx) -> Tree {
        let vars = Tree::node("vars", ax.vars.iter().map(|v| Tree::leaf(&**v)).collect());
        let atoms = ax
            .atoms
            .iter()
            .enumerate()
            .map(|(i, a)| {
                let kids = match a {
                    AtomEx::Edge { rel, from, to, .. } => {
                        vec![self.term(ax, from), Tree::leaf(self.rel(rel)), self.term(ax, to)]
                    }
                    AtomEx::Same(a, b) => vec![Tree::leaf("same"), self.term(ax, a), self.term(ax, b)],
                };
                Tree::node(format!("a{i}"), kids)
            })
            .collect();
        let clauses = ax
            .clauses
            .iter()
            .map(|c| {
                let lits = c.iter().map(|(i, pos)| Tree::leaf(format!("{}a{i}", if *pos { "" } else { "!" })));
                Tree::node("or", lits.collect())
            })
            .collect();
        Tree::block(head, vec![vars, Tree::node("atoms", atoms), Tree::node("clauses", clauses)])
    }

    fn term(&mut self, ax: &AxiomEx, t: &'a TermEx) -> Tree {
        match t {
            TermEx::Var(i) => Tree::leaf(format!("?{}", ax.vars.get(*i as usize).map_or("", |v| &**v))),
            TermEx::Fixed(e) => self.expr(e),
        }
    }
}

/// A node constant; `$x` that falls back to the node named `x` shows both names.
fn node_ref(n: &NodeRef) -> Tree {
    let mut names = vec![Tree::leaf(&*n.name)];
    if n.alt.is_some() {
        names.push(Tree::leaf(n.name.strip_prefix('$').unwrap_or(&n.name)));
    }
    Tree::node("node", names)
}
