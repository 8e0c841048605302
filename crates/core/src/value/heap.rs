//! `Heap()`, the priority queue of uniform-cost and A* search (docs/language.md, decision 16):
//! the item of least priority leaves first, and items of equal priority leave in the order they
//! came (each entry carries its arrival number, so the order never depends on the heap's
//! layout).

use super::Value;
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::rc::Rc;

pub type HeapRef = Rc<RefCell<Heap>>;

#[derive(Debug, Default, Clone)]
pub struct Heap {
    entries: BinaryHeap<Entry>,
    /// Items pushed so far: the arrival number of the next one.
    arrivals: u64,
}

#[derive(Debug, Clone)]
struct Entry {
    priority: Value,
    arrival: u64,
    item: Value,
}

impl Entry {
    /// Least priority first, then first come: `BinaryHeap` is a max-heap, so this is the
    /// reverse of the order in which entries leave.
    fn leaves_before(&self, other: &Entry) -> Ordering {
        self.priority.total_cmp(&other.priority).then(self.arrival.cmp(&other.arrival))
    }
}

impl Ord for Entry {
    fn cmp(&self, other: &Self) -> Ordering {
        other.leaves_before(self)
    }
}

impl PartialOrd for Entry {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Entry {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Entry {}

impl Heap {
    pub fn push(&mut self, item: Value, priority: Value) {
        self.entries.push(Entry { priority, arrival: self.arrivals, item });
        self.arrivals += 1;
    }

    /// The item of least priority (the earliest of equals), taken out.
    pub fn pop(&mut self) -> Option<Value> {
        self.entries.pop().map(|e| e.item)
    }

    /// The item `pop` would take, left in.
    pub fn peek(&self) -> Option<&Value> {
        self.entries.peek().map(|e| &e.item)
    }

    /// The priority of the item `pop` would take.
    pub fn peek_priority(&self) -> Option<&Value> {
        self.entries.peek().map(|e| &e.priority)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// (item, priority) in the order `pop` would take them (for printing).
    pub fn in_order(&self) -> Vec<(&Value, &Value)> {
        let mut entries: Vec<&Entry> = self.entries.iter().collect();
        entries.sort_by(|a, b| a.leaves_before(b));
        entries.into_iter().map(|e| (&e.item, &e.priority)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a stable sort of the pushes by priority: the order docs/language.md, decision 16,
    /// asks for.
    #[test]
    fn equal_priorities_leave_in_the_order_they_came() {
        let mut heap = Heap::default();
        let mut pushed = Vec::new();
        let mut x: u64 = 12345;
        for i in 0..500 {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let priority = ((x >> 33) % 7) as f64;
            heap.push(Value::Num(i as f64), Value::Num(priority));
            pushed.push((priority, i));
            if i % 3 == 0 {
                // Interleave pops with the pushes: the earliest of the least leaves.
                let (at, _) = pushed.iter().enumerate().min_by(|a, b| a.1 .0.total_cmp(&b.1 .0)).expect("one");
                let (_, want) = pushed.remove(at);
                assert!(matches!(heap.pop(), Some(Value::Num(n)) if n == want as f64));
            }
        }
        pushed.sort_by(|a, b| a.0.total_cmp(&b.0));
        for (_, want) in pushed {
            assert!(matches!(heap.pop(), Some(Value::Num(n)) if n == want as f64));
        }
        assert!(heap.pop().is_none() && heap.is_empty());
    }
}
