//! What a scene is made of besides walls: materials, emitters and initial blocks of fluid.

use glam::Vec2;

/// A kind of liquid: its look and its particle mass.
#[derive(Clone, Debug, PartialEq)]
pub struct Material {
    /// Name used by presets to refer to it.
    pub name: String,
    /// Linear RGB colour, each channel in 0..=1.
    pub colour: [f32; 3],
    /// Mass of one particle; heavier liquids sink below lighter ones.
    pub mass: f32,
    /// Pressure shading: colour × (pressure_bias + pressure_scale × P), as in the seed.
    pub pressure_scale: f32,
    /// See `pressure_scale`.
    pub pressure_bias: f32,
}

/// A nozzle that shoots rows of particles across its width, along its direction.
#[derive(Clone, Debug, PartialEq)]
pub struct Emitter {
    /// Index into the world's materials.
    pub material: usize,
    /// Centre of the nozzle.
    pub position: Vec2,
    /// Unit direction particles leave in.
    pub direction: Vec2,
    /// Width of the nozzle; a row holds width / (2 × radius) + 1 particles (as in the seed).
    pub width: f32,
    /// Launch speed.
    pub speed: f32,
    /// Relative random spread of the speed: each velocity component is scaled by a factor drawn
    /// from [1 − jitter, 1 + jitter] (the seed uses 0.1).
    pub speed_jitter: f32,
    /// Simulated seconds before the first row.
    pub delay: f32,
    /// Rows per simulated second (the seed emits one row every 3 substeps: 140 / 3 per second).
    pub rate: f32,
    /// Most particles this emitter makes.
    pub budget: usize,
}

impl Emitter {
    /// Particle offsets across the nozzle, relative to its centre (the seed's row layout).
    pub fn row_offsets(&self, particle_radius: f32) -> Vec<Vec2> {
        let steps = (self.width / (2.0 * particle_radius)) as usize;
        let across = self.direction.perp();
        (0..=steps)
            .map(|k| {
                let fraction = if steps == 0 {
                    0.0
                } else {
                    k as f32 / steps as f32 - 0.5
                };
                across * (fraction * self.width)
            })
            .collect()
    }
}

/// A rectangle filled with fluid at the start (dam breaks, pools).
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    /// Index into the world's materials.
    pub material: usize,
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
    /// Distance between neighbouring particles of the fill.
    pub spacing: f32,
    /// Most particles to place, row by row from the bottom (the whole rectangle if `None`).
    pub count: Option<usize>,
}

impl Block {
    /// Particles per row of the fill.
    pub fn columns(&self) -> usize {
        (((self.max.x - self.min.x) / self.spacing + 1.0e-3) as usize).max(1)
    }

    /// Lattice positions of the fill, row by row from the bottom left, at most `count`.
    pub fn positions(&self) -> Vec<Vec2> {
        let columns = self.columns();
        let rows = (((self.max.y - self.min.y) / self.spacing + 1.0e-3) as usize).max(1);
        let limit = self.count.unwrap_or(columns * rows).min(columns * rows);
        (0..limit)
            .map(|k| {
                let (column, row) = (k % columns, k / columns);
                self.min + Vec2::new(column as f32 + 0.5, row as f32 + 0.5) * self.spacing
            })
            .collect()
    }
}
