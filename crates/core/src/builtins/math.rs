//! The `Math` module.

use super::{arg, function, Arity, Builtin};
use crate::eval::{fail, Interp, R};
use crate::value::Value;
use ds_syntax::Span;

macro_rules! unary {
    ($($name:literal => $f:expr, $doc:literal;)*) => {
        pub const BUILTINS: &[Builtin] = &[
            $(function($name, Arity::exactly(1), |_, _, args, span| {
                let x = arg::<f64>(args, 0, $name, span)?;
                let f: fn(f64) -> f64 = $f;
                Ok(Value::Num(f(x)))
            }).doc(concat!($name, "(x)"), $doc),)*
            function("Math.pow", Arity::exactly(2), pow).doc("Math.pow(x, y)", "x to the power y"),
            function("Math.atan2", Arity::exactly(2), atan2)
                .doc("Math.atan2(y, x)", "the angle of the point (x, y) from the x axis, in radians"),
            function("Math.hypot", Arity::at_least(1), hypot)
                .doc("Math.hypot(x, ...)", "the square root of the sum of the squares"),
            function("Math.max", Arity::at_least(1), max).doc("Math.max(x, ...)", "the largest of the numbers"),
            function("Math.min", Arity::at_least(1), min).doc("Math.min(x, ...)", "the smallest of the numbers"),
            function("Math.random", Arity::exactly(0), random)
                .doc("Math.random()", "a pseudo-random number from 0 up to 1 (repeatable after `Math.randomSeed`)"),
            function("Math.randomSeed", Arity::exactly(1), random_seed)
                .doc("Math.randomSeed(n)", "starts the pseudo-random numbers afresh from seed n"),
            function("Math.randrange", Arity::range(1, 3), randrange)
                .doc(
                    "Math.randrange(stop) or Math.randrange(start, stop [, step])",
                    "a pseudo-random whole number from start (default 0) to stop, both included (unlike `range`), rounded down to a multiple of step",
                ),
        ];
    };
}

unary! {
    "Math.abs" => f64::abs, "the absolute value of x";
    "Math.acos" => f64::acos, "the arc cosine of x, in radians";
    "Math.acosh" => f64::acosh, "the inverse hyperbolic cosine of x";
    "Math.asin" => f64::asin, "the arc sine of x, in radians";
    "Math.asinh" => f64::asinh, "the inverse hyperbolic sine of x";
    "Math.atan" => f64::atan, "the arc tangent of x, in radians";
    "Math.atanh" => f64::atanh, "the inverse hyperbolic tangent of x";
    "Math.cbrt" => f64::cbrt, "the cube root of x";
    "Math.ceil" => f64::ceil, "the smallest whole number not below x";
    "Math.cos" => f64::cos, "the cosine of x radians";
    "Math.cosh" => f64::cosh, "the hyperbolic cosine of x";
    "Math.exp" => f64::exp, "e to the power x";
    "Math.expm1" => f64::exp_m1, "e to the power x, minus 1 (exact for small x)";
    "Math.floor" => f64::floor, "the largest whole number not above x";
    "Math.log" => f64::ln, "the natural logarithm of x";
    "Math.log10" => f64::log10, "the logarithm of x to base 10";
    "Math.log1p" => f64::ln_1p, "the natural logarithm of 1 + x (exact for small x)";
    "Math.log2" => f64::log2, "the logarithm of x to base 2";
    "Math.round" => f64::round, "x rounded to the nearest whole number, halves away from zero";
    "Math.sign" => |x| if x > 0.0 { 1.0 } else if x < 0.0 { -1.0 } else { 0.0 }, "1, -1 or 0: the sign of x";
    "Math.sin" => f64::sin, "the sine of x radians";
    "Math.sinh" => f64::sinh, "the hyperbolic sine of x";
    "Math.sqrt" => f64::sqrt, "the square root of x";
    "Math.tan" => f64::tan, "the tangent of x radians";
    "Math.tanh" => f64::tanh, "the hyperbolic tangent of x";
    "Math.trunc" => f64::trunc, "x without its fractional part";
}

/// The module's constants, with their descriptions.
pub const CONSTANTS: &[(&str, f64, &str)] = &[
    ("Math.PI", std::f64::consts::PI, "π, the ratio of a circle's circumference to its diameter"),
    ("Math.E", std::f64::consts::E, "e, the base of natural logarithms"),
    ("Math.INF", f64::INFINITY, "infinity, above every number (a heuristic's mark of a dead end)"),
];

fn nums(args: &[Value], name: &str, span: Span) -> R<Vec<f64>> {
    (0..args.len()).map(|i| arg::<f64>(args, i, name, span)).collect()
}

fn pow(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(arg::<f64>(args, 0, "Math.pow", span)?.powf(arg::<f64>(args, 1, "Math.pow", span)?)))
}

fn atan2(_: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    Ok(Value::Num(arg::<f64>(args, 0, "Math.atan2", span)?.atan2(arg::<f64>(args, 1, "Math.atan2", span)?)))
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

fn random(it: &mut Interp, _: Option<Value>, _: &[Value], _: Span) -> R<Value> {
    Ok(Value::Num(it.random.number()))
}

fn random_seed(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
    let n = arg::<f64>(args, 0, "Math.randomSeed", span)?;
    it.random.seed(n);
    Ok(Value::None)
}

/// A uniform integer in the closed range [start, stop], rounded down to a multiple of step.
fn randrange(it: &mut Interp, _: Option<Value>, args: &[Value], span: Span) -> R<Value> {
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
    let x = start + (it.random.number() * (stop - start + 1.0)).floor();
    Ok(Value::Num(start + ((x - start) / step).floor() * step))
}
