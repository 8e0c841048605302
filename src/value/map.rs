//! An ordered dictionary: keys kept sorted by type, then value (the reference's iteration order).

use super::Value;
use std::cmp::Ordering;

#[derive(Debug, Clone, Default)]
pub struct Map {
    entries: Vec<(Value, Value)>,
}

impl PartialEq for Map {
    fn eq(&self, other: &Map) -> bool {
        self.entries.len() == other.entries.len()
            && self.entries.iter().zip(other.entries.iter()).all(|((k1, v1), (k2, v2))| k1.equals(k2) && v1.equals(v2))
    }
}

impl Map {
    fn position(&self, key: &Value) -> Result<usize, usize> {
        self.entries.binary_search_by(|(k, _)| match k.total_cmp(key) {
            Ordering::Equal if !k.equals(key) => Ordering::Less,
            o => o,
        })
    }

    pub fn get(&self, key: &Value) -> Option<&Value> {
        self.position(key).ok().map(|i| &self.entries[i].1)
    }

    pub fn contains(&self, key: &Value) -> bool {
        self.position(key).is_ok()
    }

    /// Inserts or replaces; returns true when the key was new.
    pub fn insert(&mut self, key: Value, value: Value) -> bool {
        match self.position(&key) {
            Ok(i) => {
                self.entries[i].1 = value;
                false
            }
            Err(i) => {
                self.entries.insert(i, (key, value));
                true
            }
        }
    }

    pub fn remove(&mut self, key: &Value) -> Option<Value> {
        self.position(key).ok().map(|i| self.entries.remove(i).1)
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn clear(&mut self) {
        self.entries.clear();
    }

    pub fn iter(&self) -> impl Iterator<Item = &(Value, Value)> {
        self.entries.iter()
    }

    pub fn keys(&self) -> Vec<Value> {
        self.entries.iter().map(|(k, _)| k.clone()).collect()
    }
}
