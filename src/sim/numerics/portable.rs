//! The transcendental functions that touch the simulation's state, from one pure-Rust
//! implementation (the `libm` crate), so that they give the same bits on every CPU and in the web
//! page. The standard library's `exp`, `sin_cos`, `atan2` and `powf` call the platform's own C
//! library (or the compiler's, in the page), whose last bits differ from one to the next.
//!
//! Everything else the engine computes is +, −, ×, ÷, √ and comparisons, which IEEE 754 rounds
//! correctly on every target, and min and max written as comparisons ([`Ordered`]): the standard
//! library's `f32::max` and `f32::min` leave open which zero a +0 and a −0 give (x86-64 gives −0
//! for max(−0, +0), aarch64 and wasm +0), and the checksums hash the bits. `clippy.toml` refuses
//! the standard library's versions of all of these everywhere but in the window's drawing code,
//! which touches no state.

use glam::Vec2;
use std::hint::select_unpredictable;

/// max and min with one answer on every target: written as one comparison each, they are a
/// single instruction on x86-64 (`maxss`, `minss`) and inlined in a web page, where the
/// standard library's are calls.
pub trait Ordered: Copy {
    /// max(self, low): `self` where `self > low`, else `low` (so `low` for NaN and for a +0
    /// against a −0 either way round).
    fn at_least(self, low: Self) -> Self;
    /// min(self, high): `self` where `self < high`, else `high` (so `high` for NaN).
    fn at_most(self, high: Self) -> Self;
}

// `select_unpredictable` keeps each a select (`maxss`, `minss`, or vector lanes where the loop
// vectorises): as a plain `if`, the compiler turned some that compare a loaded value into
// branches, which cost the grid stage 45% (tank, 48,000 particles).
macro_rules! ordered_float {
    ($($float:ty),*) => {$(
        impl Ordered for $float {
            #[inline(always)]
            fn at_least(self, low: $float) -> $float {
                select_unpredictable(self > low, self, low)
            }

            #[inline(always)]
            fn at_most(self, high: $float) -> $float {
                select_unpredictable(self < high, self, high)
            }
        }
    )*};
}
ordered_float!(f32, f64);

impl Ordered for Vec2 {
    /// Component by component.
    #[inline(always)]
    fn at_least(self, low: Vec2) -> Vec2 {
        Vec2::new(self.x.at_least(low.x), self.y.at_least(low.y))
    }

    /// Component by component.
    #[inline(always)]
    fn at_most(self, high: Vec2) -> Vec2 {
        Vec2::new(self.x.at_most(high.x), self.y.at_most(high.y))
    }
}

/// The larger of a vector's components ([`Ordered::at_least`]).
#[inline]
pub fn largest(vector: Vec2) -> f32 {
    vector.x.at_least(vector.y)
}

/// The smaller of a vector's components ([`Ordered::at_most`]).
#[inline]
pub fn smallest(vector: Vec2) -> f32 {
    vector.x.at_most(vector.y)
}

/// max(a, b) as a function, for folds: [`Ordered::at_least`].
#[inline(always)]
pub fn max<T: Ordered>(a: T, b: T) -> T {
    a.at_least(b)
}

/// min(a, b) as a function, for folds: [`Ordered::at_most`].
#[inline(always)]
pub fn min<T: Ordered>(a: T, b: T) -> T {
    a.at_most(b)
}

/// eˣ.
#[inline]
pub fn exp(x: f32) -> f32 {
    libm::expf(x)
}

/// xʸ.
#[inline]
pub fn powf(x: f32, y: f32) -> f32 {
    libm::powf(x, y)
}

/// The unit vector at `angle` radians counter-clockwise from +x: (cos, sin).
#[inline]
pub fn unit_vector(angle: f32) -> Vec2 {
    let (sin, cos) = libm::sincosf(angle);
    Vec2::new(cos, sin)
}

/// The angle of `vector` from +x, in −π..π radians.
#[inline]
pub fn angle_of(vector: Vec2) -> f32 {
    libm::atan2f(vector.y, vector.x)
}

/// The tangent of `x` radians.
#[inline]
pub fn tan(x: f32) -> f32 {
    libm::tanf(x)
}

/// (sin x, cos x) in f64.
#[inline]
pub fn sin_cos_f64(x: f64) -> (f64, f64) {
    libm::sincos(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn max_and_min_give_one_zero_and_drop_a_nan_in_self() {
        let bits = |x: f32| x.to_bits();
        assert_eq!(bits((-0.0f32).at_least(0.0)), bits(0.0));
        assert_eq!(bits(0.0f32.at_least(-0.0)), bits(-0.0));
        assert_eq!(bits((-0.0f32).at_most(0.0)), bits(0.0));
        assert_eq!(f32::NAN.at_least(1.0), 1.0);
        assert_eq!(f32::NAN.at_most(1.0), 1.0);
        assert_eq!(2.0f32.at_least(1.0), 2.0);
        assert_eq!(2.0f32.at_most(1.0), 1.0);
        assert_eq!(max(1.0f64, 3.0), 3.0);
        assert_eq!(
            min(Vec2::new(1.0, 5.0), Vec2::new(2.0, 4.0)),
            Vec2::new(1.0, 4.0)
        );
    }

    #[test]
    fn unit_vectors_are_unit_length_at_their_angle() {
        for k in 0..=62 {
            let angle = -3.1 + 0.1 * k as f32;
            let vector = unit_vector(angle);
            assert!((vector.length() - 1.0).abs() < 1e-6, "{angle}");
            assert!((angle_of(vector) - angle).abs() < 1e-5, "{angle}");
        }
    }
}
