//! The simulation's parameters, with the seed's constants as documented defaults.

use glam::Vec2;

/// Every tunable of the solver in one place. `Default` gives the seed's values (Madams 2010,
/// see `docs/PHYSICS.md`): a liquid that settles in about a second at 20 frames × 7 substeps.
///
/// It is a preset's `[params]` table as written: a field left out takes its `Default` value
/// (but see `preset` for `interaction_radius` and `max_substeps`, which follow other fields).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct SimParams {
    /// Rest density ρ0 per unit mass (seed 82). Pressure is k (ρ − m ρ0).
    pub rest_density: f32,
    /// Pressure stiffness k (seed 0.08).
    pub stiffness: f32,
    /// Near-pressure stiffness k_near (seed 0.1); keeps particles apart and shapes the surface.
    pub near_stiffness: f32,
    /// Surface tension σs between particles of the same material (seed 0.0004).
    pub surface_tension: f32,
    /// Linear viscosity σ of approaching pairs (seed 0.5).
    pub linear_viscosity: f32,
    /// Quadratic viscosity β of approaching pairs (seed 1.0).
    pub quadratic_viscosity: f32,
    /// Particle radius: walls keep particles this far out, the renderer sizes splats by it (seed
    /// 0.05).
    pub particle_radius: f32,
    /// Interaction radius h: pairs closer than h interact; also the grid cell size (seed 6 ×
    /// radius).
    pub interaction_radius: f32,
    /// Coulomb friction of the walls: a particle pressed into a wall loses up to this times the
    /// pressing speed from its sliding speed (0, as in the seed: a liquid slides along a wall,
    /// which carries the liquid's density and pressure, `wall_density`). Jelly, goo and slime
    /// grip with it (the `jelly`, `pachinko` and `slime` presets set 0.5).
    pub wall_friction: f32,
    /// Gravity acceleration (seed (0, −9.8)).
    pub gravity: Vec2,
    /// Frames per second of simulated time (seed 20); one frame is `substeps` substeps.
    pub frame_rate: f32,
    /// Substeps per frame (seed 7), so dt = 1 / (frame_rate × substeps).
    pub substeps: u32,
    /// Most substeps a frame may take when fast particles need shorter steps (seed: 4 × 7).
    pub max_substeps: u32,
    /// Largest distance a particle may travel in one substep, as a fraction of h (0.5): beyond
    /// it the frame takes more substeps, and past `max_substeps` the travel is capped.
    pub cfl: f32,
    /// Global particle cap: emitters and blocks never make more particles than this.
    pub max_particles: usize,
}

impl Default for SimParams {
    fn default() -> Self {
        let particle_radius = 0.05;
        Self {
            rest_density: 82.0,
            stiffness: 0.08,
            near_stiffness: 0.1,
            surface_tension: 0.0004,
            linear_viscosity: 0.5,
            quadratic_viscosity: 1.0,
            particle_radius,
            interaction_radius: 6.0 * particle_radius,
            wall_friction: 0.0,
            gravity: Vec2::new(0.0, -9.8),
            frame_rate: 20.0,
            substeps: 7,
            max_substeps: 28,
            cfl: 0.5,
            max_particles: 3000,
        }
    }
}

impl SimParams {
    /// Length of one substep in simulated seconds.
    pub fn dt(&self) -> f32 {
        1.0 / (self.frame_rate * self.substeps as f32)
    }
}
