//! The rules of statements that the closures of `eval/closure` call: `out`, declarations,
//! `return ifdef` and the three kinds of `for`.

use super::closure::ValueFn;
use super::node_test::{Bound, NodeTest, TestSite};
use super::{fail, Flow, Interp, R};
use crate::compile::ir::{Ex, Slot};
use crate::value::{NodeVal, Value};
use crate::world::{ClassId, GraphRef, NodeId, RelId};
use ds_syntax::ast::OutSep;
use ds_syntax::Span;
use std::rc::Rc;

/// A loop's body, run once per pass: its statements' closures (`eval/closure/loops.rs`).
pub(crate) type Body<'a> = &'a dyn Fn(&mut Interp) -> R<()>;

/// Whether a node loop's condition is exactly True for the node its variable holds: the
/// condition's closure (`Test::holds` in `eval/closure`).
pub(crate) type Holds<'a> = &'a dyn Fn(&mut Interp) -> R<bool>;

/// The condition of `for X in Cond`: its closure, and its tree with the place where the loop
/// keeps the `NodeTest` made from it (None: the condition has no such form, `NodeTest::fits`).
#[derive(Clone, Copy)]
pub(crate) struct NodeCond<'a> {
    pub ex: &'a Ex,
    pub holds: Holds<'a>,
    pub site: Option<&'a TestSite>,
}

impl Interp {
    /// Runs a loop body; `Ok(false)` means `break`.
    fn loop_body(&mut self, body: Body) -> R<bool> {
        match body(self) {
            Ok(()) | Err(Flow::Continue) => Ok(true),
            Err(Flow::Break) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// `out` of items with these separators before them, `item(it, i)` evaluating the i-th.
    pub(super) fn out_stmt(
        &mut self,
        items: &[OutSep],
        item: &dyn Fn(&mut Interp, usize) -> R<Value>,
        trail: Option<OutSep>,
        to_file: bool,
        span: Span,
    ) -> R<()> {
        let mut text = self.text_start();
        if items.is_empty() {
            let g = self.graph.clone();
            text.value(&g, &self.world, span)?;
        }
        // `out V` alone, to the console, may be shown by the host instead (the notebook draws it).
        let alone = items.len() == 1 && trail.is_none() && !(to_file && self.fout.is_some());
        for (i, sep) in items.iter().enumerate() {
            let graced = self.limits.grace_used;
            let v = item(self, i)?;
            if let (true, Some(show)) = (alone, self.show.as_mut()) {
                if show(&self.world, &v) {
                    return Ok(());
                }
            }
            if self.limits.grace_used != graced {
                self.text_renew(&mut text, span)?;
            }
            if i > 0 && *sep == OutSep::Space {
                text.push(" ", span)?;
            }
            text.value(&v, &self.world, span)?;
        }
        match trail {
            None => text.push("\n", span)?,
            Some(OutSep::Space) => text.push(" ", span)?,
            Some(OutSep::Nothing) => {}
        }
        let line = self.text_end(text, span)?;
        if to_file {
            if let Some(f) = self.fout.clone() {
                return f.write_text(self, &line, span);
            }
        }
        self.write_out(&line, span)
    }

    /// The graph a statement or expression works on: `GRAPH`, which must hold a graph.
    pub fn current_graph(&self, span: Span) -> R<GraphRef> {
        match &self.graph {
            Value::Graph(g) => Ok(g.clone()),
            other => fail(span, format!("GRAPH holds {}, not a graph", other.described())),
        }
    }

    /// `return? E`: returns E's value unless it is Undef.
    pub(super) fn return_ifdef(&mut self, v: Value) -> R<()> {
        if !matches!(&v, Value::Logic(l) if l.is_undef()) {
            return Err(self.return_value(v));
        }
        Ok(())
    }

    /// `static` declarations: their values are set the first time only.
    pub(super) fn declare_static(
        &mut self,
        done: &std::cell::Cell<bool>,
        slots: &[Slot],
        init: &dyn Fn(&mut Interp, usize) -> R<Value>,
    ) -> R<()> {
        if !done.get() {
            done.set(true);
            for (i, slot) in slots.iter().enumerate() {
                let v = init(self, i)?;
                self.set(*slot, v);
            }
        }
        Ok(())
    }

    /// `G.nodes a, b` (the graph's value and place given) or `nodes a, b` in the current graph.
    pub(super) fn declare_nodes(
        &mut self,
        graph: Option<(Value, Span)>,
        names: &[std::rc::Rc<str>],
        span: Span,
    ) -> R<()> {
        let g = match graph {
            Some((v, at)) => match v {
                Value::Graph(g) => g,
                other => return fail(at, format!("`.nodes` needs a graph, not {}", other.described())),
            },
            None => self.current_graph(span)?,
        };
        let class = g.borrow().class;
        for n in names {
            self.world.add_node(class, n);
        }
        Ok(())
    }

    /// `for V in range(args)`, each argument's value given by its closure, with its place.
    pub(super) fn for_range(&mut self, vars: &[Slot], args: &[(ValueFn, Span)], body: Body, span: Span) -> R<()> {
        let mut nums = Vec::with_capacity(3);
        for (arg, at) in args {
            match arg(self)? {
                Value::Num(n) => nums.push(n),
                other => return fail(*at, format!("`range` needs numbers, not {}", other.described())),
            }
        }
        let (start, stop, step) = range_bounds(&nums, span)?;
        let mut x = start;
        let mut i = 0.0;
        while (step > 0.0 && x < stop) || (step < 0.0 && x > stop) {
            // One variable (the usual loop) takes the number in place (`set_num`).
            match vars {
                [v] => self.set_num(*v, x),
                _ => self.bind_pair(vars, Value::Num(i), Value::Num(x)),
            }
            if !self.loop_body(body)? {
                break;
            }
            self.tick(span)?;
            i += 1.0;
            x = start + i * step;
        }
        Ok(())
    }

    /// One loop variable takes `second`; two take `first, second`.
    fn bind_pair(&mut self, vars: &[Slot], first: Value, second: Value) {
        match vars {
            [v] => self.set(*v, second),
            [a, b, ..] => {
                self.set(*a, first);
                self.set(*b, second);
            }
            [] => {}
        }
    }

    /// Every iteration counts a step, so that a loop with an empty body over a large array (or
    /// graph) still stops at the limits.
    pub(super) fn for_value(&mut self, vars: &[Slot], v: Value, body: Body, span: Span) -> R<()> {
        match v {
            Value::Array(a) => {
                let n = a.borrow().len();
                for i in 0..n {
                    self.tick(span)?;
                    let Some(item) = a.borrow().get(i).cloned() else { break };
                    self.bind_pair(vars, Value::Num(i as f64), item);
                    if !self.loop_body(body)? {
                        break;
                    }
                }
            }
            Value::Map(m) => {
                let entries: Vec<(Value, Value)> = m.borrow().iter().map(|(k, v)| (k.clone(), v.clone())).collect();
                for (k, v) in entries {
                    self.tick(span)?;
                    if vars.len() == 1 {
                        self.set(vars[0], k);
                    } else {
                        self.bind_pair(vars, k, v);
                    }
                    if !self.loop_body(body)? {
                        break;
                    }
                }
            }
            // With 3 or 4 variables a graph gives its edges (reference 3.8).
            Value::Graph(g) if vars.len() >= 3 => self.for_edges(vars, &g, None, body, span)?,
            Value::Graph(g) => {
                let class = g.borrow().class;
                for id in self.world.class(class).ids() {
                    self.tick(span)?;
                    if !self.world.class(class).contains(id) {
                        break; // the body deleted the nodes
                    }
                    self.set_node(vars[0], class, id);
                    if let Some(v) = vars.get(1) {
                        self.set(*v, node_value(&g, id));
                    }
                    if !self.loop_body(body)? {
                        break;
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `for X in Cond`: every node of the current graph, in creation order, for which Cond is
    /// exactly True. With 3 or 4 variables: every edge (source, relation, target, value).
    pub(super) fn for_nodes(&mut self, vars: &[Slot], cond: Option<NodeCond>, body: Body, span: Span) -> R<()> {
        let g = self.current_graph(span)?;
        let class = g.borrow().class;
        if vars.len() >= 3 {
            return self.for_edges(vars, &g, cond.map(|c| c.holds), body, span);
        }
        if let ([var], Some(cond)) = (vars, cond) {
            let first = self.world.class(class).first();
            return self.for_nodes_tested(*var, class, cond, body, (first, span));
        }
        let mut id = self.world.class(class).first();
        while self.world.class(class).contains(id) {
            self.tick(span)?;
            self.set_node(vars[0], class, id);
            if vars.len() == 2 {
                self.set(vars[1], node_value(&g, id));
            }
            let pass = match &cond {
                Some(c) => (c.holds)(self)?,
                None => true,
            };
            if pass && !self.loop_body(body)? {
                break;
            }
            id += 1;
        }
        Ok(())
    }

    /// `for X in Cond` with one variable, from node `id` on: nodes that cannot pass are not
    /// visited when Cond compiles to a `NodeTest` (made again after every run of the body, which
    /// may change anything the test read); otherwise Cond's closure decides at every node. `X`
    /// ends where a loop that tries every node leaves it.
    fn for_nodes_tested(
        &mut self,
        var: Slot,
        class: ClassId,
        cond: NodeCond,
        body: Body,
        (mut id, span): (NodeId, Span),
    ) -> R<()> {
        let mut test = self.cond_test(var, class, &cond);
        let (mut bound, mut peek) = (Bound::default(), None);
        while self.world.class(class).contains(id) {
            if let Some(t) = test.as_ref().filter(|t| self.bind(t, &mut bound)) {
                let last = self.world.class(class).last();
                let next = self.next_tested(t, (id, last), &bound, &mut peek);
                let Some(next) = self.go_to_pass((var, class), (id, last), next, span)? else { break };
                id = next;
            } else {
                peek = None;
                self.tick(span)?;
                self.set_node(var, class, id);
                if !(cond.holds)(self)? {
                    id += 1;
                    continue;
                }
            }
            if !self.loop_body(body)? {
                break;
            }
            if !test.as_ref().is_some_and(|t| self.still_valid(t)) {
                test = self.cond_test(var, class, &cond);
                peek = None;
            }
            id += 1;
        }
        Ok(())
    }

    /// A loop that visits only the nodes that pass moves from `id` to the next pass, `next`
    /// (None: there is none, and the variable is left on the last node), counting each node
    /// skipped as a step, as trying each would.
    #[inline(always)]
    fn go_to_pass(
        &mut self,
        (var, class): (Slot, ClassId),
        (id, last): (NodeId, NodeId),
        next: Option<NodeId>,
        span: Span,
    ) -> R<Option<NodeId>> {
        self.work(u64::from(next.unwrap_or(last) - id + 1), span)?;
        self.set_node(var, class, next.unwrap_or(last));
        Ok(next)
    }

    /// The `NodeTest` of a loop's condition in the current graph, when it has one.
    fn cond_test(&mut self, var: Slot, class: ClassId, cond: &NodeCond) -> Option<Rc<NodeTest>> {
        let site = cond.site?;
        self.cached_test(var, cond.ex, Some(site)).filter(|t| t.class == class)
    }

    /// `for Z in A rel Z` (`cond`), A a variable and rel fixed: Z takes A's True `rel` targets
    /// in creation order, each round reading A's facts as `for_nodes_tested` would through the
    /// condition's `NodeTest`, without making, binding or checking one. A round where GRAPH is
    /// no graph of the loop's class or A no node of it goes on as `for_nodes_tested` from there.
    pub(super) fn for_targets(
        &mut self,
        var: Slot,
        (a, rel): (Slot, RelId),
        cond: NodeCond,
        body: Body,
        span: Span,
    ) -> R<()> {
        let class = match &self.graph {
            Value::Graph(g) => g.borrow().class,
            _ => return self.for_nodes(&[var], Some(cond), body, span),
        };
        let mut id = self.world.class(class).first();
        let mut peek = None;
        while self.world.class(class).contains(id) {
            let Some(x) = self.target_source(a, class) else {
                return self.for_nodes_tested(var, class, cond, body, (id, span));
            };
            let last = self.world.class(class).last();
            let next = self.next_target((x, rel), (id, last), &mut peek);
            let Some(next) = self.go_to_pass((var, class), (id, last), next, span)? else { break };
            id = next;
            if !self.loop_body(body)? {
                break;
            }
            id += 1;
        }
        Ok(())
    }

    fn for_edges(&mut self, vars: &[Slot], g: &GraphRef, cond: Option<Holds>, body: Body, span: Span) -> R<()> {
        let (class, facts) = {
            let gb = g.borrow();
            (gb.class, gb.facts.to_vec())
        };
        for f in facts {
            self.tick(span)?;
            if !self.world.class(class).contains(f.key.src()) {
                break; // the body deleted the nodes
            }
            self.set(vars[0], Value::Node(NodeVal { class, id: f.key.src(), graph: None }));
            self.set(vars[1], Value::Edge(f.key.rel()));
            let target = if f.key.tgraph() == 0 {
                NodeVal { class, id: f.key.tgt(), graph: None }
            } else {
                match self.world.linked_graph(f.key.tgraph()) {
                    Some(tg) => {
                        let tclass = tg.borrow().class;
                        NodeVal { class: tclass, id: f.key.tgt(), graph: Some(tg) }
                    }
                    None => continue,
                }
            };
            self.set(vars[2], Value::Node(target));
            if let Some(v) = vars.get(3) {
                self.set(*v, Value::Logic(f.value));
            }
            let pass = match cond {
                Some(holds) => holds(self)?,
                None => true,
            };
            if pass && !self.loop_body(body)? {
                break;
            }
        }
        Ok(())
    }
}

/// The value stored on node `id` in graph `g` (`N.value()`), or None.
fn node_value(g: &GraphRef, id: u32) -> Value {
    g.borrow().data.values.get(&id).cloned().unwrap_or(Value::None)
}

/// The (start, stop, step) of `range(stop)` / `range(start, stop [, step])`, shared by the
/// `range` function and `for ... in range(...)`.
pub fn range_bounds(nums: &[f64], span: Span) -> R<(f64, f64, f64)> {
    let (start, stop, step) = match *nums {
        [stop] => (0.0, stop, 1.0),
        [start, stop] => (start, stop, 1.0),
        [start, stop, step] => (start, stop, step),
        _ => return fail(span, "`range` takes 1 to 3 arguments"),
    };
    if step == 0.0 || step.is_nan() {
        return fail(span, "`range` step must not be 0");
    }
    Ok((start, stop, step))
}
