//! The special forms: called like functions, but compiled into their own kinds of expression,
//! as their arguments are not plain values (a variable to bind, axioms, code to compile, an
//! expression evaluated in each model, or arguments evaluated only as far as needed). Their
//! rows are in the registry with the builtins, so that the docs, the REPL and the language
//! server describe them alike.

use super::ir::*;
use super::registry::{special, Arity, Builtin};
use super::Compiler;
use crate::value::Value;
use crate::world::World;
use ds_syntax::ast::{Expr, ExprKind, Name};
use ds_syntax::Span;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Exists,
    Forall,
    Eval,
    And,
    Or,
    Axioms(AxiomUse),
    ValueInModels,
}

pub const FORMS: &[Builtin] = &[
    special("exists", Arity::range(2, 4), Form::Exists).doc(
        "exists(X, Cond [, N [, M]])",
        "True when some node (exactly N, or N to M nodes) of the current graph makes Cond True; binds X to the first",
    ),
    special("forall", Arity::exactly(2), Form::Forall)
        .doc("forall(X, Cond)", "True when every node of the current graph makes Cond True"),
    special("eval", Arity::exactly(1), Form::Eval).doc(
        "eval(S)",
        "compiles the string S as an expression here, with the variables visible here, and gives its value",
    ),
    special("and", Arity::at_least(0), Form::And)
        .doc("and(A, ...)", "True when every argument is exactly True, evaluated left to right until one is not"),
    special("or", Arity::at_least(0), Form::Or)
        .doc("or(A, ...)", "True when some argument is exactly True, evaluated left to right until one is"),
    special("set", Arity::at_least(1), Form::Axioms(AxiomUse::Set))
        .doc("set(axiom, ...)", "applies the axioms once to the current graph; the number of edges set, or -1"),
    special("Mind.add", Arity::at_least(1), Form::Axioms(AxiomUse::Add))
        .doc("Mind.add(axiom, ...)", "adds axioms that always hold, such as `X part Y & Y part Z -> X part Z`"),
    special("Mind.add_usual", Arity::at_least(1), Form::Axioms(AxiomUse::AddUsual))
        .doc("Mind.add_usual(axiom, ...)", "adds usual axioms: defaults that a model may break"),
    special("Mind.value", Arity::exactly(2), Form::ValueInModels)
        .doc("Mind.value(models, expr)", "the logic value expr has in every model (as `GRAPH`), else Undef"),
];

impl Compiler {
    /// A call of the special form `b` (a row of `FORMS`).
    pub(super) fn special_form(&mut self, b: &Builtin, form: Form, args: &[Expr], span: Span, world: &mut World) -> Ex {
        // Axioms say themselves what they lack; `and()` and `or()` take anything.
        let checked = !matches!(form, Form::Axioms(_) | Form::And | Form::Or);
        if checked && !b.arity.accepts(args.len()) {
            self.arity_error("function", b.name, &b.arity.describe(), args.len(), span);
            return Ex { kind: ExKind::Const(Value::None), span };
        }
        let kind = match form {
            Form::Exists | Form::Forall => return self.quantifier(form, b.name, args, span, world),
            Form::Eval => {
                let arg = Box::new(self.expr(&args[0], world));
                // The code may assign GRAPH: the demon must restore its caller's graph.
                self.ctx_mut().sets_graph = true;
                ExKind::Eval { arg, scope: std::rc::Rc::new(self.eval_scope()) }
            }
            Form::And | Form::Or => ExKind::AndOr { all: form == Form::And, args: self.exprs(args, world) },
            Form::Axioms(usage) => return self.axioms_call(b.name, usage, args, span, world),
            Form::ValueInModels => {
                let models = Box::new(self.expr(&args[0], world));
                let expr = Box::new(self.expr(&args[1], world));
                ExKind::ValueInModels { models, expr }
            }
        };
        Ex { kind, span }
    }

    /// `exists(V, Cond [, N [, M]])` and `forall(V, Cond)`: V may be a new name.
    fn quantifier(&mut self, form: Form, which: &str, args: &[Expr], span: Span, world: &mut World) -> Ex {
        let var = match &args[0].kind {
            ExprKind::Name(n) => match self.lookup_var(n) {
                Some(slot) => {
                    self.note_var(n, slot, args[0].span, false);
                    slot
                }
                None => self.declare_local(&Name { text: n.clone(), span: args[0].span }, false),
            },
            _ => {
                self.error(args[0].span, format!("the first argument of `{which}` must be a variable name"));
                return Ex { kind: ExKind::Const(Value::None), span };
            }
        };
        let cond = Box::new(self.expr(&args[1], world));
        if form == Form::Forall {
            return Ex { kind: ExKind::Forall { var, cond }, span };
        }
        let min = args.get(2).map(|e| Box::new(self.expr(e, world)));
        let max = args.get(3).map(|e| Box::new(self.expr(e, world)));
        Ex { kind: ExKind::Exists { var, cond, min, max }, span }
    }
}
