//! Byte offsets (what the compiler's spans hold) to LSP positions and back. LSP counts
//! columns in UTF-16 code units by default, and the scripts have Cyrillic comments, so a byte
//! is not a column.

use ds_syntax::Span;
use lsp_types::{Position, Range};

/// The start of each line of a text.
#[derive(Debug, Clone, Default)]
pub struct LineIndex {
    starts: Vec<u32>,
}

impl LineIndex {
    pub fn new(text: &str) -> LineIndex {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i as u32 + 1));
        LineIndex { starts }
    }

    /// The position of a byte offset (clamped to the text, moved back to a character start).
    pub fn position(&self, text: &str, offset: u32) -> Position {
        let offset = floor_boundary(text, offset as usize);
        let line = self.starts.partition_point(|&s| s as usize <= offset).saturating_sub(1);
        let start = self.starts[line] as usize;
        let column: usize = text[start..offset].chars().map(char::len_utf16).sum();
        Position { line: line as u32, character: column as u32 }
    }

    /// The byte offset of a position; a column past the end of its line is the line's end, a
    /// line past the end of the text is the text's end.
    pub fn offset(&self, text: &str, pos: Position) -> u32 {
        let Some(&start) = self.starts.get(pos.line as usize) else { return text.len() as u32 };
        let start = start as usize;
        let end = self.starts.get(pos.line as usize + 1).map_or(text.len(), |&e| e as usize - 1);
        let mut units = 0;
        for (i, c) in text[start..end].char_indices() {
            if units >= pos.character as usize {
                return (start + i) as u32;
            }
            units += c.len_utf16();
        }
        end as u32
    }

    pub fn range(&self, text: &str, span: Span) -> Range {
        Range { start: self.position(text, span.lo), end: self.position(text, span.hi.max(span.lo)) }
    }

    #[cfg(feature = "server")]
    pub fn line_count(&self) -> u32 {
        self.starts.len() as u32
    }
}

/// `offset`, clamped to the text and moved back to the start of a character.
pub(super) fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut i = offset.min(text.len());
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_count_utf16_units() {
        let text = "ab\n// дом x\n𝄞y";
        let ix = LineIndex::new(text);
        let x = text.find('x').unwrap() as u32;
        assert_eq!(ix.position(text, x), Position { line: 1, character: 7 });
        assert_eq!(ix.offset(text, Position { line: 1, character: 7 }), x);
        let y = text.find('y').unwrap() as u32;
        assert_eq!(ix.position(text, y), Position { line: 2, character: 2 });
        assert_eq!(ix.offset(text, Position { line: 2, character: 2 }), y);
        assert_eq!(ix.offset(text, Position { line: 0, character: 99 }), 2);
        assert_eq!(ix.offset(text, Position { line: 9, character: 0 }), text.len() as u32);
        assert_eq!(ix.position(text, 999), Position { line: 2, character: 3 });
    }
}
