//! Number printing: the shortest text that reads back to the same value (docs/language.md,
//! decision 5).

/// `2.5`, `0.1`, `8`, `-3`, `1e+21`, `1e-7`; never `2.500000`.
pub fn format_number(x: f64) -> String {
    if x.is_nan() {
        return "nan".to_string();
    }
    if x.is_infinite() {
        return if x > 0.0 { "inf".to_string() } else { "-inf".to_string() };
    }
    if x == 0.0 {
        return "0".to_string();
    }
    let a = x.abs();
    if (1e-7..1e21).contains(&a) {
        // Rust's Display is already the shortest round-trip form, without an exponent.
        format!("{x}")
    } else {
        format!("{x:e}")
    }
}

#[cfg(test)]
mod tests {
    use super::format_number;

    #[test]
    fn shortest_forms() {
        assert_eq!(format_number(2.5), "2.5");
        assert_eq!(format_number(0.1), "0.1");
        assert_eq!(format_number(8.0), "8");
        assert_eq!(format_number(-3.0), "-3");
        assert_eq!(format_number(-0.0), "0");
        assert_eq!(format_number(1.0 / 3.0), "0.3333333333333333");
        assert_eq!(format_number(0.1 + 0.2), "0.30000000000000004");
        assert_eq!(format_number(10000000000.0), "10000000000");
        assert_eq!(format_number(1e21), "1e21");
        assert_eq!(format_number(1e-8), "1e-8");
        for x in [2.5, 0.1, 1.0 / 3.0, 1e21, 1e-8, 123456789.125, 1e300] {
            assert_eq!(format_number(x).parse::<f64>().unwrap(), x, "{x} must read back");
        }
    }
}
