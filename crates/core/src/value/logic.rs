//! Three-valued (and fuzzy) truth: a pair (p0, p1) of confidence that a statement is false / true.
//! True = (0,1), False = (1,0), Undef = (0,0); the operators are the min/max algebra of the
//! reference (section 5.3), which reduces to strong Kleene logic on the crisp values.

use super::number::format_number;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Logic {
    pub p0: f64,
    pub p1: f64,
}

impl Logic {
    pub const TRUE: Logic = Logic { p0: 0.0, p1: 1.0 };
    pub const FALSE: Logic = Logic { p0: 1.0, p1: 0.0 };
    pub const UNDEF: Logic = Logic { p0: 0.0, p1: 0.0 };

    pub fn new(p0: f64, p1: f64) -> Logic {
        Logic { p0, p1 }
    }

    pub fn from_bool(b: bool) -> Logic {
        if b {
            Logic::TRUE
        } else {
            Logic::FALSE
        }
    }

    pub fn is_true(self) -> bool {
        self == Logic::TRUE
    }
    pub fn is_false(self) -> bool {
        self == Logic::FALSE
    }
    pub fn is_undef(self) -> bool {
        self == Logic::UNDEF
    }

    pub fn negate(self) -> Logic {
        Logic { p0: self.p1, p1: self.p0 }
    }

    pub fn and(self, o: Logic) -> Logic {
        Logic { p0: self.p0.max(o.p0), p1: self.p1.min(o.p1) }
    }

    pub fn or(self, o: Logic) -> Logic {
        Logic { p0: self.p0.min(o.p0), p1: self.p1.max(o.p1) }
    }

    pub fn implies(self, o: Logic) -> Logic {
        self.negate().or(o)
    }

    /// `(!a | b) & (a | !b)`, as the reference defines `<->`.
    pub fn equiv(self, o: Logic) -> Logic {
        self.negate().or(o).and(self.or(o.negate()))
    }

    /// The order used by `<` and by map keys: by p1 - p0, then by p1.
    pub fn cmp_truth(self, o: Logic) -> std::cmp::Ordering {
        let a = (self.p1 - self.p0, self.p1);
        let b = (o.p1 - o.p0, o.p1);
        a.partial_cmp(&b).unwrap_or(std::cmp::Ordering::Equal)
    }

    /// The same value to the bit (`==` on the pair would make -0.0 and 0.0 one value, and
    /// NaN none): what a stored fact compares by.
    pub fn same_bits(self, o: Logic) -> bool {
        self.p0.to_bits() == o.p0.to_bits() && self.p1.to_bits() == o.p1.to_bits()
    }

    /// Bits for hashing a fact's value.
    pub fn bits(self) -> u64 {
        self.p0.to_bits().rotate_left(17) ^ self.p1.to_bits()
    }
}

impl fmt::Display for Logic {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        if self.is_true() {
            f.write_str("True")
        } else if self.is_false() {
            f.write_str("False")
        } else if self.is_undef() {
            f.write_str("Undef")
        } else {
            write!(f, "({},{})", format_number(self.p0), format_number(self.p1))
        }
    }
}
