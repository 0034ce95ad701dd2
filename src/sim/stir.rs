//! Hands in the liquid: a stir (the mouse dragged through it), a pull (particles gathered toward
//! a point), and seeded random stirring strokes for tests and soak runs.

use super::particles::Particles;
use super::world::World;
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
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

/// Seeded random stirring strokes, as a person dragging the mouse through the fluid would make.
pub struct RandomStirrer {
    rng: Pcg32,
    stroke: Option<(Stir, u32)>,
}

impl RandomStirrer {
    /// A stirrer whose strokes follow from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Pcg32::seed_from_u64(seed ^ 0x5717_5717),
            stroke: None,
        }
    }

    /// The stir for the next frame (strokes last a few frames, with pauses between them).
    pub fn next(&mut self, world: &World) -> Option<Stir> {
        let frame_time = 1.0 / world.params().frame_rate;
        if let Some((stir, frames_left)) = &mut self.stroke {
            stir.position += stir.velocity * frame_time;
            *frames_left -= 1;
            let stir = *stir;
            if *frames_left == 0 {
                self.stroke = None;
            }
            return Some(stir);
        }
        if self.rng.random_bool(0.3) {
            return None;
        }
        let (min, max) = (world.domain().min(), world.domain().max());
        let h = world.params().interaction_radius;
        let position = Vec2::new(
            self.rng.random_range(min.x..=max.x),
            self.rng.random_range(min.y..=max.y),
        );
        let angle = self.rng.random_range(0.0..std::f32::consts::TAU);
        let speed = self.rng.random_range(1.0..25.0);
        let stir = Stir {
            position,
            velocity: Vec2::from_angle(angle) * speed,
            radius: self.rng.random_range(2.0 * h..8.0 * h),
        };
        self.stroke = Some((stir, self.rng.random_range(2..12)));
        Some(stir)
    }
}
