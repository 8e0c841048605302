//! `GET /api/check`: the heuristic (`--h`) judged against the true distance to the nearest
//! goal of every state, as `Search.check` judges it (decision 24, the same `search::check`
//! core), over the space explored as far as `--max-states` lets it. The page colours states
//! by it.

use super::explorer::{Answer, ApiError, Explorer};
use crate::search::check::judge;
use crate::search::explore::Transitions;
use crate::search::StateId;
use serde_json::json;

impl Explorer<'_> {
    pub fn check(&mut self) -> Answer {
        if self.parts.h.is_none() {
            return Err(ApiError::BadRequest("checking a heuristic needs one: start ds explore with --h NAME".into()));
        }
        self.advance(|space, p| {
            while space.expand_next(p)? {}
            Ok(())
        })?;
        let n = self.space.len();
        let mut t = Transitions::default();
        let mut costs = Vec::new();
        for from in 0..self.space.expanded() as StateId {
            for s in self.space.successors(from).unwrap_or(&[]) {
                t.from.push(from);
                t.action.push(s.action);
                t.to.push(s.to);
                costs.push(s.cost);
            }
        }
        if costs.iter().any(|&c| c != 1.0) {
            t.cost = Some(costs);
        }
        let goals: Vec<StateId> = (0..n as StateId).filter(|&id| self.space.is_goal(id)).collect();
        let mut h = Vec::with_capacity(n);
        for id in 0..n as StateId {
            h.push(self.h_of(id)?.unwrap_or(0.0));
        }
        let j = judge(&t, &goals, &h);
        Ok(json!({
            "complete": self.space.is_complete(),
            "admissible": j.admissible,
            "consistent": j.consistent,
            "max_overestimate": j.max_overestimate,
            "worst": j.worst,
            "exact": j.exact,
            "h": h,
        }))
    }
}
