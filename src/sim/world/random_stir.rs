//! Seeded random stirring strokes, for tests, benchmarks and soak runs: what a person dragging
//! the mouse through the liquid does, reproducibly.

use super::stir::Stir;
use super::World;
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

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
            velocity: crate::sim::numerics::portable::unit_vector(angle) * speed,
            radius: self.rng.random_range(2.0 * h..8.0 * h),
        };
        self.stroke = Some((stir, self.rng.random_range(2..12)));
        Some(stir)
    }
}
