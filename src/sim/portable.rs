//! The transcendental functions that touch the simulation's state, from one pure-Rust
//! implementation (the `libm` crate), so that they give the same bits on every CPU and in the web
//! page. The standard library's `exp`, `sin_cos`, `atan2` and `powf` call the platform's own C
//! library (or the compiler's, in the page), whose last bits differ from one to the next.
//!
//! Everything else the engine computes is +, −, ×, ÷, √, min and max, which IEEE 754 rounds
//! correctly on every target. `clippy.toml` refuses the standard library's transcendental
//! functions everywhere but in the window's drawing code, which touches no state.

use glam::Vec2;

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

/// (sin x, cos x) in f64.
#[inline]
pub fn sin_cos_f64(x: f64) -> (f64, f64) {
    libm::sincos(x)
}

#[cfg(test)]
mod tests {
    use super::*;

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
