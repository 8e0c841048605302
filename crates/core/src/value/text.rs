//! Positions in strings, as `substring` and the `+` chains that copy its parts directly
//! (`eval/closure/text.rs`) both read them.

/// A position given as a number: truncated toward zero, negative counting from the end, clamped
/// to the string (NaN reads as the end). Integer arithmetic: `f64::trunc` is a libm call.
#[inline]
pub fn clamp(x: f64, len: usize) -> usize {
    if x.is_nan() {
        return len;
    }
    let i = x as i64; // truncates toward zero, saturating
    if i < 0 {
        (i + len as i64).max(0) as usize
    } else {
        (i as u64).min(len as u64) as usize
    }
}

/// The bytes a..b of `s` (b clamped to its length), each end moved back to a character
/// boundary; empty when a is not before b.
#[inline]
pub fn part(s: &str, a: usize, b: usize) -> &str {
    let fix = |mut i: usize| {
        while i > 0 && !s.is_char_boundary(i) {
            i -= 1;
        }
        i
    };
    let (a, b) = (fix(a), fix(b.min(s.len())));
    if a < b {
        &s[a..b]
    } else {
        ""
    }
}

/// `S.substring(a)` / `S.substring(a, b)` of number positions.
#[inline]
pub fn substring(s: &str, a: f64, b: Option<f64>) -> &str {
    let end = b.map_or(s.len(), |b| clamp(b, s.len()));
    part(s, clamp(a, s.len()), end)
}

/// `S.substr(a)` / `S.substr(a, n)` of number positions: n bytes from a (none when n is NaN or
/// below 1, the rest of the string when n is not given).
#[inline]
pub fn substr(s: &str, a: f64, n: Option<f64>) -> &str {
    let start = clamp(a, s.len());
    let count = match n {
        None => s.len() as u64,
        Some(n) if n.is_nan() => 0,
        Some(n) => (n as i64).max(0) as u64,
    };
    part(s, start, (start as u64).saturating_add(count).min(s.len() as u64) as usize)
}

/// `Str::from(s)` with one copy of the bytes: ecow's `From<&str>` (0.3.1) copies text too long
/// to be inline byte by byte, about four instructions a byte.
#[inline]
pub fn copied(s: &str) -> super::Str {
    joined(&[s])
}

/// The pieces joined, with one copy of each. A short result is put together on the stack and
/// made inline once: ecow's `push_str` costs about forty instructions a piece even inline.
pub fn joined(pieces: &[&str]) -> super::Str {
    let len = pieces.iter().map(|p| p.len()).sum();
    if len <= super::Str::INLINE_LIMIT {
        let mut buf = [0u8; super::Str::INLINE_LIMIT];
        for (at, b) in pieces.iter().flat_map(|p| p.bytes()).enumerate() {
            buf[at] = b;
        }
        // SAFETY: the bytes are whole `str`s one after another, which is UTF-8.
        return super::Str::inline(unsafe { std::str::from_utf8_unchecked(&buf[..len]) });
    }
    let mut out = super::Str::with_capacity(len);
    pieces.iter().for_each(|p| out.push_str(p));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_and_joins_keep_the_text() {
        for text in ["", "short", "exactly fifteen", "a text too long to be inline, with é"] {
            assert_eq!(copied(text).as_str(), text);
        }
        let pieces = ["Start", ";f.t.b", ";f.m.$3", "", ";é"];
        assert_eq!(joined(&pieces).as_str(), "Start;f.t.b;f.m.$3;é");
        assert_eq!(joined(&[]).as_str(), "");
        // Short results, built inline: up to the limit, and one byte over it.
        assert_eq!(joined(&["12", "6", "45", "3", "780"]).as_str(), "126453780");
        assert_eq!(joined(&["exactly", " ", "fifteen"]).as_str(), "exactly fifteen");
        assert_eq!(joined(&["exactly", " ", "sixteen", "!"]).as_str(), "exactly sixteen!");
        assert_eq!(joined(&["é", "", "ü"]).as_str(), "éü");
    }

    #[test]
    fn positions_count_from_either_end_and_stay_on_characters() {
        assert_eq!(substring("abcdef", 1.0, Some(3.0)), "bc");
        assert_eq!(substring("abcdef", -2.0, None), "ef");
        assert_eq!(substring("abcdef", 4.0, Some(2.0)), "");
        assert_eq!(substring("abcdef", f64::NAN, None), "");
        assert_eq!(substring("aé", 0.0, Some(2.0)), "a"); // 'é' is bytes 1..3
    }
}
