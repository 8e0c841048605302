//! The `Math` module.

use super::{function, num_arg, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::syntax::Span;
use crate::value::Value;

macro_rules! unary {
    ($($name:literal => $f:expr),* $(,)?) => {
        pub const BUILTINS: &[Builtin] = &[
            $(function($name, Arity::exactly(1), |_, _, args, span| {
                let x = num_arg(args, 0, $name, span)?;
                let f: fn(f64) -> f64 = $f;
                Ok(Value::Num(f(x)))
            }),)*
            function("Math.pow", Arity::exactly(2), pow),
            function("Math.atan2", Arity::exactly(2), atan2),
            function("Math.hypot", Arity::at_least(1), hypot),
            function("Math.max", Arity::at_least(1), max),
            function("Math.min", Arity::at_least(1), min),
            function("Math.random", Arity::exactly(0), random),
            function("Math.randomSeed", Arity::exactly(1), random_seed),
            function("Math.randrange", Arity::range(1, 3), randrange),
        ];
    };
}

unary! {
    "Math.abs" => f64::abs, "Math.acos" => f64::acos, "Math.acosh" => f64::acosh,
    "Math.asin" => f64::asin, "Math.asinh" => f64::asinh, "Math.atan" => f64::atan,
    "Math.atanh" => f64::atanh, "Math.cbrt" => f64::cbrt, "Math.ceil" => f64::ceil,
    "Math.cos" => f64::cos, "Math.cosh" => f64::cosh, "Math.exp" => f64::exp,
    "Math.expm1" => f64::exp_m1, "Math.floor" => f64::floor, "Math.log" => f64::ln,
    "Math.log10" => f64::log10, "Math.log1p" => f64::ln_1p, "Math.log2" => f64::log2,
    "Math.round" => f64::round,
    "Math.sign" => |x| if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else { 0.0 },
    "Math.sin" => f64::sin, "Math.sinh" => f64::sinh, "Math.sqrt" => f64::sqrt,
    "Math.tan" => f64::tan, "Math.tanh" => f64::tanh, "Math.trunc" => f64::trunc,
}

pub fn constant(name: &str) -> Option<Value> {
    match name {
        "Math.PI" => Some(Value::Num(std::f64::consts::PI)),
        "Math.E" => Some(Value::Num(std::f64::consts::E)),
        _ => None,
    }
}

fn nums(args: &[Value], name: &str, span: Span) -> R<Vec<f64>> {
    (0..args.len()).map(|i| num_arg(args, i, name, span)).collect()
}

fn pow(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(num_arg(args, 0, "Math.pow", span)?.powf(num_arg(args, 1, "Math.pow", span)?)))
}

fn atan2(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(num_arg(args, 0, "Math.atan2", span)?.atan2(num_arg(args, 1, "Math.atan2", span)?)))
}

fn hypot(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(nums(args, "Math.hypot", span)?.iter().map(|x| x * x).sum::<f64>().sqrt()))
}

fn max(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(nums(args, "Math.max", span)?.into_iter().fold(f64::NEG_INFINITY, f64::max)))
}

fn min(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(nums(args, "Math.min", span)?.into_iter().fold(f64::INFINITY, f64::min)))
}

thread_local! {
    static SEED: std::cell::Cell<u64> = const { std::cell::Cell::new(0x2545_F491_4F6C_DD1D) };
}

/// xorshift64*: small, fast and reproducible from `Math.randomSeed(n)`.
pub(crate) fn next_random() -> f64 {
    SEED.with(|s| {
        let mut x = s.get();
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        s.set(x);
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    })
}

fn random(_: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::Num(next_random()))
}

fn random_seed(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = num_arg(args, 0, "Math.randomSeed", span)?;
    SEED.with(|s| s.set((n.to_bits() ^ 0x9E37_79B9_7F4A_7C15).max(1)));
    Ok(Value::None)
}

/// A uniform integer in the closed range [start, stop], rounded down to a multiple of step.
fn randrange(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = nums(args, "Math.randrange", span)?;
    let (start, stop, step) = match n[..] {
        [stop] => (0.0, stop, 1.0),
        [start, stop] => (start, stop, 1.0),
        [start, stop, step] => (start, stop, step),
        _ => return fail(span, "`Math.randrange` takes 1 to 3 arguments"),
    };
    if step <= 0.0 || stop < start {
        return fail(span, "`Math.randrange` needs start <= stop and a positive step");
    }
    let x = start + (next_random() * (stop - start + 1.0)).floor();
    Ok(Value::Num(start + ((x - start) / step).floor() * step))
}
