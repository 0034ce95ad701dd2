//! Hands in the liquid: a stir (the mouse dragged through it) and a pull (particles gathered
//! toward a point).

use crate::sim::particles::Particles;
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

/// A stir ready to apply to velocities: its checks and constants done once.
#[derive(Clone, Copy, Debug)]
pub struct StirBlend {
    position: Vec2,
    velocity: Vec2,
    inverse_r2: f32,
}

impl StirBlend {
    /// `stir`, or `None` when its inputs are NaN, infinite or a non-positive radius.
    pub fn new(stir: &Stir) -> Option<Self> {
        let usable = stir.radius.is_finite() && stir.radius > 0.0;
        (usable && stir.position.is_finite() && stir.velocity.is_finite()).then(|| Self {
            position: stir.position,
            velocity: stir.velocity,
            inverse_r2: 1.0 / (stir.radius * stir.radius),
        })
    }

    /// The velocity of something at `position` moving at `velocity` once stirred: blended toward
    /// the stir's, fully at the centre and smoothly less toward the radius.
    #[inline]
    pub fn apply(&self, position: Vec2, velocity: Vec2) -> Vec2 {
        let q2 = (position - self.position).length_squared() * self.inverse_r2;
        if q2 < 1.0 {
            let weight = (1.0 - q2) * (1.0 - q2);
            velocity + (self.velocity - velocity) * weight
        } else {
            velocity
        }
    }
}

/// A pull toward a centre ready to apply to velocities: its checks and constants done once.
#[derive(Clone, Copy, Debug)]
pub struct PullBlend {
    centre: Vec2,
    inverse_r2: f32,
    gain: f32,
}

impl PullBlend {
    /// A pull toward `centre` within `radius`, `speed` at the rim, or `None` when the inputs are
    /// NaN, infinite or a non-positive radius.
    pub fn new(centre: Vec2, radius: f32, speed: f32) -> Option<Self> {
        let usable = radius.is_finite() && radius > 0.0 && speed.is_finite();
        (usable && centre.is_finite()).then(|| Self {
            centre,
            inverse_r2: 1.0 / (radius * radius),
            gain: speed / radius,
        })
    }

    /// The velocity of something at `position` moving at `velocity` once pulled: steered toward
    /// a velocity proportional to its distance from the centre.
    #[inline]
    pub fn apply(&self, position: Vec2, velocity: Vec2) -> Vec2 {
        let towards = self.centre - position;
        let q2 = towards.length_squared() * self.inverse_r2;
        if q2 < 1.0 {
            let weight = 0.5 * (1.0 - q2) * (1.0 - q2);
            velocity + (towards * self.gain - velocity) * weight
        } else {
            velocity
        }
    }
}

/// Blends the velocity of particles near `stir.position` toward `stir.velocity`, fully at the
/// centre and smoothly less toward the radius: never faster than the stir or the particle was.
/// NaN, infinite or non-positive inputs do nothing.
pub fn stir(particles: &mut Particles, stir: Stir) {
    let Some(blend) = StirBlend::new(&stir) else {
        return;
    };
    let p = particles;
    (&p.position, &mut p.velocity)
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each(|(position, velocity)| *velocity = blend.apply(*position, *velocity));
}

/// Gathers particles within `radius` toward `centre`: each is steered toward a velocity
/// proportional to its distance from the centre, `speed` at the rim and zero at the centre, so
/// the crowd gathers without crashing into itself.
pub fn pull(particles: &mut Particles, centre: Vec2, radius: f32, speed: f32) {
    let Some(blend) = PullBlend::new(centre, radius, speed) else {
        return;
    };
    let p = particles;
    (&p.position, &mut p.velocity)
        .into_par_iter()
        .with_min_len(CHUNK)
        .for_each(|(position, velocity)| *velocity = blend.apply(*position, *velocity));
}
