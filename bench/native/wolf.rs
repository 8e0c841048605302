//! A native solver of the wolf worlds of bench/wolf_worlds.py: the seed's breadth-first search
//! in the seed's order (so it prints the same `Close:` line and plan as the ds program), with a
//! state packed in a u64 and a hash set of visited states. The floor the interpreted versions
//! are compared with.
//!
//! Usage: wolf FARMERS ANIMALS PLACES road|all   (built by bench/run.py with `rustc -O`)
//!
//! A state gives each mover (humans, then animals) 4 bits: its place + 1, or 0 while carried;
//! then each human 4 bits: the animal it holds + 1, or 0.

use std::collections::{HashSet, VecDeque};

const FARMERS: [&str; 4] = ["f", "s", "t", "u"];
const ANIMALS: [&str; 5] = ["b", "w", "g", "c", "m"];

struct World {
    humans: usize,
    animals: usize,
    /// Place names in node order: $1, $2, $3, ...
    places: Vec<String>,
    /// link[a][b]: a road from place a to place b.
    link: Vec<Vec<bool>>,
}

type State = u64;

impl World {
    fn movers(&self) -> usize {
        self.humans + self.animals
    }
    fn on(&self, s: State, x: usize) -> Option<usize> {
        let v = (s >> (4 * x)) & 15;
        (v != 0).then(|| v as usize - 1)
    }
    fn set_on(&self, s: State, x: usize, p: Option<usize>) -> State {
        let v = p.map_or(0, |p| p as u64 + 1);
        (s & !(15 << (4 * x))) | v << (4 * x)
    }
    fn hold(&self, s: State, h: usize) -> Option<usize> {
        let v = (s >> (4 * (self.movers() + h))) & 15;
        (v != 0).then(|| v as usize - 1)
    }
    fn set_hold(&self, s: State, h: usize, a: Option<usize>) -> State {
        let at = 4 * (self.movers() + h);
        let v = a.map_or(0, |a| a as u64 + 1);
        (s & !(15 << at)) | v << at
    }
    fn animal(&self, i: usize) -> usize {
        self.humans + i
    }

    /// A human may leave `here` if another human stays or no animal left there wants one too.
    fn safe_to_leave(&self, s: State, h: usize, here: usize) -> bool {
        if (0..self.humans).any(|f| f != h && self.on(s, f) == Some(here)) {
            return true;
        }
        // animal i wants animal i + 1
        (0..self.animals.saturating_sub(1))
            .all(|i| !(self.on(s, self.animal(i)) == Some(here) && self.on(s, self.animal(i + 1)) == Some(here)))
    }

    /// The successors in the seed's order: per human, put, take each animal, move to each place.
    /// The action: (human, kind, what) with kind 0 put, 1 take, 2 move.
    fn successors(&self, s: State, out: &mut Vec<(State, (u8, u8, u8))>) {
        out.clear();
        for h in 0..self.humans {
            let here = self.on(s, h).expect("a human is always somewhere");
            if let Some(a) = self.hold(s, h) {
                let n = self.set_on(self.set_hold(s, h, None), self.animal(a), Some(here));
                out.push((n, (h as u8, 0, 0)));
            }
            if self.hold(s, h).is_none() {
                for a in 0..self.animals {
                    if self.on(s, self.animal(a)) == Some(here) {
                        let n = self.set_on(self.set_hold(s, h, Some(a)), self.animal(a), None);
                        out.push((n, (h as u8, 1, a as u8)));
                    }
                }
            }
            for p in 0..self.places.len() {
                if p != here && self.link[here][p] && self.safe_to_leave(s, h, here) {
                    out.push((self.set_on(s, h, Some(p)), (h as u8, 2, p as u8)));
                }
            }
        }
    }

    fn is_target(&self, s: State) -> bool {
        (0..self.movers()).all(|x| self.on(s, x) == Some(1)) && (0..self.humans).all(|h| self.hold(s, h).is_none())
    }

    fn action_name(&self, (h, kind, what): (u8, u8, u8)) -> String {
        let who = FARMERS[h as usize];
        match kind {
            0 => format!("{who}.p"),
            1 => format!("{who}.t.{}", ANIMALS[what as usize]),
            _ => format!("{who}.m.{}", self.places[what as usize]),
        }
    }
}

fn world(args: &[String]) -> Option<World> {
    let num = |i: usize| args.get(i)?.parse::<usize>().ok();
    let (humans, animals, places) = (num(0)?, num(1)?, num(2)?);
    if humans > 4 || animals > 5 || !(2..=14).contains(&places) {
        return None;
    }
    // $1 and $2 are the ends; the road goes $1 - $3 - ... - $n - $2.
    let names: Vec<String> = (1..=places).map(|i| format!("${i}")).collect();
    let road: Vec<usize> = std::iter::once(0).chain(2..places).chain(std::iter::once(1)).collect();
    let mut link = vec![vec![false; places]; places];
    match args.get(3)?.as_str() {
        "road" => {
            for w in road.windows(2) {
                link[w[0]][w[1]] = true;
                link[w[1]][w[0]] = true;
            }
        }
        "all" => {
            for (a, row) in link.iter_mut().enumerate() {
                for (b, l) in row.iter_mut().enumerate() {
                    *l = a != b;
                }
            }
        }
        _ => return None,
    }
    Some(World { humans, animals, places: names, link })
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(w) = world(&args) else {
        eprintln!("usage: wolf FARMERS(<=4) ANIMALS(<=5) PLACES(2..14) road|all");
        std::process::exit(2);
    };
    let start = (0..w.movers()).fold(0, |s, x| w.set_on(s, x, Some(0)));
    // Per stored state: its parent's index and the action that made it, for the plan.
    let mut origin: Vec<(u32, (u8, u8, u8))> = vec![(u32::MAX, (0, 0, 0))];
    let mut seen: HashSet<State> = HashSet::from([start]);
    let mut open: VecDeque<(State, u32)> = VecDeque::from([(start, 0)]);
    let mut next = Vec::new();
    while let Some((s, id)) = open.pop_back() {
        w.successors(s, &mut next);
        for &(n, action) in &next {
            if w.is_target(n) {
                println!("Close: {} {}", origin.len(), open.len());
                let mut plan = vec![w.action_name(action)];
                let mut at = id;
                while at != 0 {
                    let (parent, a) = origin[at as usize];
                    plan.push(w.action_name(a));
                    at = parent;
                }
                plan.push("Start".into());
                plan.reverse();
                println!("{}", plan.join(";"));
                return;
            }
            if seen.insert(n) {
                open.push_front((n, origin.len() as u32));
                origin.push((id, action));
            }
        }
    }
    println!("Can't find solution");
}
