//! What every search script used to write for itself (issue 15): `Heap()`, constant-time work at
//! both ends of an array, string padding, the short form of a state. Expected outputs come from
//! a model computed here (a stable sort, a `VecDeque`) or are worked out by hand.

use crate::common::{fails_with, prints};
use std::collections::VecDeque;

/// A small generator, so that the operation sequences are the same on every run.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

#[test]
fn a_heap_gives_the_least_priority_first_and_equal_ones_in_arrival_order() {
    let mut rng = Lcg(7);
    let mut src = String::from("var Q = Heap()\n");
    let mut model: Vec<(u64, u64)> = Vec::new(); // (priority, item) in arrival order
    let mut want = String::new();
    for item in 0..300 {
        if rng.next(3) == 0 {
            src.push_str("out Q.pop(),\n");
            match (0..model.len()).min_by_key(|&i| model[i].0) {
                Some(i) => want.push_str(&format!("{} ", model.remove(i).1)),
                None => want.push_str("None "),
            }
        } else {
            let priority = rng.next(5);
            src.push_str(&format!("Q.push({item}, {priority})\n"));
            model.push((priority, item));
        }
    }
    src.push_str("out \"\"\nout Q.size(), Q.peek(), Q.empty()\nwhile !Q.empty() : out Q.pop(),\n");
    let first = (0..model.len()).min_by_key(|&i| model[i].0).map(|i| model[i].1);
    want.push_str(&format!("\n{} {} False\n", model.len(), first.expect("items are left")));
    model.sort_by_key(|&(priority, _)| priority); // stable: equal priorities keep their order
    for (_, item) in model {
        want.push_str(&format!("{item} "));
    }
    prints(&src, &want);
}

#[test]
fn heap_priorities_may_be_arrays_and_strings() {
    // `[F, H]`: ties of F broken by H; strings compare by their bytes.
    prints(
        "var Q = Heap()\nQ.push(\"x\", [3, 1])\nQ.push(\"y\", [2, 5])\nQ.push(\"z\", [2, 4])\nout Q.pop(), Q.pop(), Q.pop()\n\
         var S = Heap()\nS.push(1, \"b\")\nS.push(2, \"a\")\nout S, S.type()\n",
        "z y x\nHeap[2:a,1:b] heap\n",
    );
    // A copy is a heap of its own.
    prints("var Q = Heap()\nQ.push(1, 1)\nvar C = Q.copy()\nC.pop()\nout Q.size(), C.size()\n", "1 0\n");
}

#[test]
fn heap_misuse_is_an_error_that_says_how() {
    fails_with("var Q = Heap()\nQ.push(\"a\")\n", "`push` on a heap takes an item and its priority, but 1 given");
    fails_with(
        "var Q = Heap()\nQ.push(\"a\", None)\n",
        "a priority is a number, a string or an array of numbers, not None",
    );
    fails_with("var Q = Heap()\nQ.push(\"a\", Math.sqrt(-1))\n", "not NaN");
    fails_with(
        "var Q = Heap()\nQ.push(\"a\", 1)\nQ.push(\"b\", [1])\n",
        "this heap's priorities are numbers, and this one is an array",
    );
    fails_with("var Q = Heap()\nQ.shift()\n", "a heap has no `shift`: `pop` takes the item of least priority");
    fails_with("var A = [1]\nA.peek()\n", "`peek` works on heaps, not on an array");
}

#[test]
fn both_ends_of_an_array_agree_with_a_deque() {
    let mut rng = Lcg(11);
    let mut src = String::from("var A = []\n");
    let mut model: VecDeque<i64> = VecDeque::new();
    let mut want = String::new();
    for i in 0..400i64 {
        match rng.next(6) {
            0 => {
                src.push_str(&format!("A.unshift({i})\n"));
                model.push_front(i);
            }
            1 => {
                src.push_str(&format!("A.push({i})\n"));
                model.push_back(i);
            }
            2 => {
                src.push_str("out A.shift(),\n");
                want.push_str(&model.pop_front().map_or("None".into(), |v| v.to_string()));
                want.push(' ');
            }
            3 => {
                src.push_str("out A.pop(),\n");
                want.push_str(&model.pop_back().map_or("None".into(), |v| v.to_string()));
                want.push(' ');
            }
            4 if !model.is_empty() => {
                let at = rng.next(model.len() as u64) as usize;
                // `A.unshift(-1, -2)` repeats values: `find` gives the first.
                src.push_str(&format!("out A[{at}], A.find({}),\n", model[at]));
                let first = model.iter().position(|&v| v == model[at]).expect("present");
                want.push_str(&format!("{} {first} ", model[at]));
            }
            _ => {
                src.push_str("A.unshift(-1, -2)\n");
                // Each argument goes to the front in turn: -2 ends up first.
                model.push_front(-1);
                model.push_front(-2);
            }
        }
    }
    src.push_str("out \"\"\nout A\n");
    let items: Vec<String> = model.iter().map(i64::to_string).collect();
    prints(&src, &format!("{want}\n[{}]\n", items.join(",")));
}

#[test]
fn padding_widens_the_printed_form_in_characters() {
    // By hand: "ab" in 5 is "ab" and three spaces; 42 right-aligned in 6 has four spaces before;
    // "x" centred in 4 has one fill before and two after; "héllo" is 5 characters, not 6 bytes.
    prints(
        "out \"[\" + \"ab\".pad(5) + \"]\", \"[\" + 42.padStart(6) + \"]\", \"[\" + \"x\".center(4, \"*\") + \"]\"\n\
         out \"[\" + \"héllo\".pad(6, \".\") + \"]\", \"toolong\".pad(3), [1, 2].pad(6) + \"|\", True.padStart(5)\n",
        "[ab   ] [    42] [*x**]\n[héllo.] toolong [1,2] | \u{20}True\n",
    );
    fails_with("out \"a\".pad(3, \"ab\")\n", "the fill of `pad` is one character, not `ab`");
    fails_with("out \"a\".pad(-1)\n", "the width of `pad` is a number from 0 to 100 million");
}

#[test]
fn brief_prints_a_state_without_the_relations_named() {
    let world = "edges on, want, link\nvar Sen = GRAPH(\"Sen\")\nSen.nodes $animal, $place\nvar G = GRAPH(\"S\")\n\
                 GRAPH = G\nnodes w, g, $1, $2\n[w, g] isa Sen=>$animal\n[$1, $2] isa Sen=>$place\n\
                 w want g\n$1 link $2\nw on $1\ng !on $1\ng on $2 = (0.2, 0.8)\n";
    // Nodes in declaration order (w, g, $1, $2), each node's relations in declaration order.
    prints(
        &format!("{world}out G.brief(isa, want, link)\nout G.brief([isa, link], on)\nout G.brief(@isa, @on, want, link) == \"\"\n"),
        "w on $1, g !on $1, g on(0.2,0.8) $2\nw want g\nTrue\n",
    );
    prints(&format!("{world}out G.brief().size() > G.brief(isa).size()\n"), "True\n");
    fails_with(&format!("{world}out G.brief(\"isa\")\n"), "`brief` leaves out relations, and this is a string");
}
