//! Smoothing kernels of double density relaxation (Clavet et al. 2005, "Particle-based
//! Viscoelastic Fluid Simulation"), in the cubic/quartic form and 2D normalisation of Tom Madams,
//! "Why my fluids don't flow" (2010).
//!
//! With q = r / h and a = 1 − q, the density kernel is a³ and the near-density kernel a⁴. Each is
//! divided by its integral over the disc of radius h, so that it integrates to 1:
//! ∫₀ʰ (1 − r/h)³ 2πr dr = 2πh²/20 and ∫₀ʰ (1 − r/h)⁴ 2πr dr = 2πh²/30.

use std::f32::consts::PI;

/// Normalisation of the density kernel a³ in 2D: 20 / (2π h²).
pub fn density_norm(h: f32) -> f32 {
    20.0 / (2.0 * PI * h * h)
}

/// Normalisation of the near-density kernel a⁴ in 2D: 30 / (2π h²).
pub fn near_density_norm(h: f32) -> f32 {
    30.0 / (2.0 * PI * h * h)
}

/// Normalised density kernel W(r) = N a³, zero at and beyond h.
pub fn density_kernel(r: f32, h: f32) -> f32 {
    let a = (1.0 - r / h).max(0.0);
    density_norm(h) * a * a * a
}

/// Normalised near-density kernel W_near(r) = N_near a⁴, zero at and beyond h.
pub fn near_density_kernel(r: f32, h: f32) -> f32 {
    let a = (1.0 - r / h).max(0.0);
    let a2 = a * a;
    near_density_norm(h) * a2 * a2
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Integrates a radial function over the disc of radius h with the midpoint rule in r.
    fn integrate_over_disc(kernel: impl Fn(f32) -> f32, h: f32) -> f64 {
        let steps = 20_000;
        let dr = h as f64 / steps as f64;
        (0..steps)
            .map(|k| {
                let r = (k as f64 + 0.5) * dr;
                kernel(r as f32) as f64 * 2.0 * std::f64::consts::PI * r * dr
            })
            .sum()
    }

    #[test]
    fn density_kernel_integrates_to_one_over_the_disc() {
        for h in [0.3_f32, 1.0, 2.5] {
            let integral = integrate_over_disc(|r| density_kernel(r, h), h);
            assert!((integral - 1.0).abs() < 1e-4, "h = {h}: ∫W = {integral}");
        }
    }

    #[test]
    fn near_density_kernel_integrates_to_one_over_the_disc() {
        for h in [0.3_f32, 1.0, 2.5] {
            let integral = integrate_over_disc(|r| near_density_kernel(r, h), h);
            assert!(
                (integral - 1.0).abs() < 1e-4,
                "h = {h}: ∫W_near = {integral}"
            );
        }
    }

    #[test]
    fn kernels_vanish_at_and_beyond_h() {
        assert_eq!(density_kernel(0.3, 0.3), 0.0);
        assert_eq!(near_density_kernel(0.31, 0.3), 0.0);
        assert!(density_kernel(0.0, 0.3) > near_density_kernel(0.29, 0.3));
    }
}
