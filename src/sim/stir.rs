//! Hands in the liquid: a stir (the mouse dragged through it) and a pull (particles gathered
//! toward a point).

use super::particles::Particles;
use glam::Vec2;
use rayon::prelude::*;

/// Particles per rayon task of the stir and pull passes.
const CHUNK: usize = 512;

/// A mouse-like stir: particles within `radius` of `position` are pushed toward `velocity`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stir {
    /// Centre of the stir.
    pub position: Vec2,
    /// Velocity imparted at the centre.
    pub velocity: Vec2,
    /// Reach; the effect falls off smoothly to zero there.
    pub radius: f32,
}

/// Blends the velocity of particles near `stir.position` toward `stir.velocity`, fully at the
/// centre and smoothly less toward the radius: never faster than the stir or the particle was.
/// NaN, infinite or non-positive inputs do nothing.
pub fn stir(particles: &mut Particles, stir: Stir) {
    let usable = stir.radius.is_finite() && stir.radius > 0.0;
    if !usable || !stir.position.is_finite() || !stir.velocity.is_finite() {
        return;
    }
    let inverse_r2 = 1.0 / (stir.radius * stir.radius);
    let p = particles;
    (&p.position, &mut p.velocity)
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each(|(position, velocity)| {
            let q2 = (*position - stir.position).length_squared() * inverse_r2;
            if q2 < 1.0 {
                let weight = (1.0 - q2) * (1.0 - q2);
                *velocity += (stir.velocity - *velocity) * weight;
            }
        });
}

/// Gathers particles within `radius` toward `centre`: each is steered toward a velocity
/// proportional to its distance from the centre, `speed` at the rim and zero at the centre, so
/// the crowd gathers without crashing into itself.
pub fn pull(particles: &mut Particles, centre: Vec2, radius: f32, speed: f32) {
    let usable = radius.is_finite() && radius > 0.0 && speed.is_finite();
    if !usable || !centre.is_finite() {
        return;
    }
    let inverse_r2 = 1.0 / (radius * radius);
    let gain = speed / radius;
    let p = particles;
    (&p.position, &mut p.velocity)
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each(|(position, velocity)| {
            let towards = centre - *position;
            let q2 = towards.length_squared() * inverse_r2;
            if q2 < 1.0 {
                let weight = 0.5 * (1.0 - q2) * (1.0 - q2);
                *velocity += (towards * gain - *velocity) * weight;
            }
        });
}
