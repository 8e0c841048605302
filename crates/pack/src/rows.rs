//! Byte strings of one width, numbered in the order they were pushed, kept in chunks of a
//! fixed number of rows: a column that grows a chunk at a time has spare room in its last
//! chunk only (a vector that doubles holds up to as much again as it uses), and never copies
//! more than a chunk to grow.

/// Rows per chunk (a power of two, so a row's chunk is a shift).
const CHUNK_ROWS: usize = 1 << 16;

#[derive(Default)]
pub struct Rows {
    width: usize,
    len: usize,
    chunks: Vec<Vec<u8>>,
}

impl Rows {
    /// No rows, each to be `width` bytes.
    pub fn new(width: usize) -> Rows {
        Rows { width, len: 0, chunks: Vec::new() }
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn width(&self) -> usize {
        self.width
    }

    /// Row `i`.
    #[inline]
    pub fn get(&self, i: usize) -> &[u8] {
        let at = (i % CHUNK_ROWS) * self.width;
        &self.chunks[i / CHUNK_ROWS][at..at + self.width]
    }

    /// Appends `row`, which must be `width` bytes.
    pub fn push(&mut self, row: &[u8]) {
        debug_assert_eq!(row.len(), self.width);
        if self.len.is_multiple_of(CHUNK_ROWS) {
            // (a chunk grows as a vector does until it is full: a small search takes little)
            self.chunks.push(Vec::new());
        }
        let chunk = self.chunks.last_mut().expect("a chunk");
        chunk.extend_from_slice(row);
        self.len += 1;
        if self.len.is_multiple_of(CHUNK_ROWS) {
            chunk.shrink_to_fit();
        }
    }

    /// Makes every row `width` bytes, wider ones padded with zeros (a layout that grew).
    pub fn widen(&mut self, width: usize) {
        if width <= self.width {
            return;
        }
        let old = self.width;
        for (c, chunk) in self.chunks.iter_mut().enumerate() {
            let rows = (self.len - c * CHUNK_ROWS).min(CHUNK_ROWS);
            let mut wide = Vec::with_capacity(rows * width);
            for r in 0..rows {
                wide.extend_from_slice(&chunk[r * old..(r + 1) * old]);
                wide.resize((r + 1) * width, 0);
            }
            *chunk = wide;
        }
        self.width = width;
    }

    /// Bytes of memory held.
    pub fn memory(&self) -> usize {
        self.chunks.iter().map(Vec::capacity).sum::<usize>() + self.chunks.capacity() * std::mem::size_of::<Vec<u8>>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_come_back_across_chunks_and_widening() {
        let mut rows = Rows::new(3);
        let n = CHUNK_ROWS + 10;
        let row = |i: usize| [(i % 251) as u8, (i / 251 % 251) as u8, (i / 63_001) as u8];
        for i in 0..n {
            rows.push(&row(i));
        }
        assert_eq!(rows.len(), n);
        assert_eq!(rows.get(CHUNK_ROWS + 3), row(CHUNK_ROWS + 3));
        rows.widen(5);
        for i in [0, 1, CHUNK_ROWS - 1, CHUNK_ROWS, n - 1] {
            assert_eq!(rows.get(i)[..3], row(i));
            assert_eq!(rows.get(i)[3..], [0, 0]);
        }
        rows.push(&[9; 5]);
        assert_eq!(rows.get(n), [9; 5]);
        let mut empty = Rows::new(0);
        empty.push(&[]);
        empty.widen(2);
        assert_eq!(empty.get(0), [0, 0], "rows of no bytes widen too");
    }
}
