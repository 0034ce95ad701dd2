//! A random scene for the pair-loop tests: particles sorted by a fresh grid, their physical
//! values (what `physics`' reference reads) and the same values folded into lanes as the world
//! folds them.

use super::super::grid::{ForwardRows, Grid};
use super::super::liquid::Sameness;
use super::lanes::{fill_padded, Folding, LaneData};
use super::relax::RelaxConstants;
use crate::sim::physics::RelaxingParticle;
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

/// No shortcut: mixed materials, masses and viscosities.
pub const NOTHING_SAME: Sameness = Sameness {
    material: false,
    mass: false,
    viscosity: false,
};

/// The viscosities (σ, β) of a scene whose materials all have one.
const ONE_VISCOSITY: (f32, f32) = (0.8, 1.2);

/// Surface tension σs of materials 0 and 1.
const TENSION: [f32; 2] = [1.0e-5, 2.0e-5];

/// One lane's value of a particle, folded as the world folds it.
type LaneValue = fn(&RelaxingParticle, &Folding) -> f32;

/// Particles of a test scene, in the grid's order, with everything the pair loops read.
pub struct Scene {
    /// Physical values of each particle.
    pub particles: Vec<RelaxingParticle>,
    /// The same, folded into lanes.
    pub lanes: LaneData,
    /// Forward candidates of each particle.
    pub rows: Vec<ForwardRows>,
    /// Bands of the grid's lines.
    pub bands: Vec<u32>,
    /// The relaxation's constants (its one viscosity, when `same.viscosity`).
    pub constants: RelaxConstants,
    /// The substep.
    pub dt: f32,
}

/// `count` particles in a box `size` high and `size × stretch` wide (a stretch of 2 or more
/// numbers the cells column by column), with random masses, velocities, pressures, materials and
/// viscosities, except where `same` says they are all equal. Particles 0, 1 and 2 share a spot.
pub fn scene(count: usize, size: f32, stretch: f32, h: f32, seed: u64, same: Sameness) -> Scene {
    let dt = 1.0 / 140.0;
    let mut rng = Pcg32::seed_from_u64(seed);
    let mut unsorted: Vec<Vec2> = (0..count)
        .map(|_| {
            let x = rng.random_range(0.0..size * stretch);
            Vec2::new(x, rng.random_range(0.0..size))
        })
        .collect();
    if count > 10 {
        unsorted[1] = unsorted[0];
        unsorted[2] = unsorted[0];
    }
    let mut grid = Grid::default();
    grid.build(&unsorted, h);
    let particles: Vec<RelaxingParticle> = grid
        .order()
        .iter()
        .map(|&k| {
            let material = if same.material {
                0
            } else {
                rng.random_range(0..2_u16)
            };
            let (linear_viscosity, quadratic_viscosity) = if same.viscosity {
                ONE_VISCOSITY
            } else {
                (rng.random_range(0.0..5.0), rng.random_range(0.0..5.0))
            };
            RelaxingParticle {
                position: unsorted[k as usize],
                velocity: Vec2::new(rng.random_range(-3.0..3.0), rng.random_range(-3.0..3.0)),
                mass: if same.mass {
                    1.3
                } else {
                    rng.random_range(0.5..2.0)
                },
                pressure: rng.random_range(-0.1..0.1),
                near_pressure: rng.random_range(0.0..0.1),
                material,
                surface_tension: TENSION[material as usize],
                linear_viscosity,
                quadratic_viscosity,
            }
        })
        .collect();
    let folding = Folding::new(h, dt);
    let mut lanes = LaneData::default();
    let fields: [(&mut Vec<f32>, LaneValue); 12] = [
        (&mut lanes.x, |p, _| p.position.x),
        (&mut lanes.y, |p, _| p.position.y),
        (&mut lanes.mass, |p, _| p.mass),
        (&mut lanes.inverse_mass, |p, _| 1.0 / p.mass),
        (&mut lanes.velocity_x, |p, _| p.velocity.x),
        (&mut lanes.velocity_y, |p, _| p.velocity.y),
        (&mut lanes.pressure, |p, f| f.pressure(p.pressure)),
        (&mut lanes.near_pressure, |p, f| {
            f.near_pressure(p.near_pressure)
        }),
        (&mut lanes.tension, |p, f| {
            f.tension(p.surface_tension) * p.mass
        }),
        (&mut lanes.material, |p, _| p.material as f32),
        (&mut lanes.linear_viscosity, |p, f| {
            f.viscosity_half(p.linear_viscosity)
        }),
        (&mut lanes.quadratic_viscosity, |p, f| {
            f.viscosity_half(p.quadratic_viscosity)
        }),
    ];
    for (field, value) in fields {
        fill_padded(field, count, 0.0, |i| value(&particles[i], &folding));
    }
    lanes.resize(count);
    let rows = (0..count)
        .map(|i| grid.forward_rows(particles[i].position, i))
        .collect();
    let mut bands = Vec::new();
    grid.bands(64, &mut bands);
    Scene {
        particles,
        lanes,
        rows,
        bands,
        constants: RelaxConstants {
            inverse_h: 1.0 / h,
            linear_viscosity: folding.viscosity(ONE_VISCOSITY.0),
            quadratic_viscosity: folding.viscosity(ONE_VISCOSITY.1),
        },
        dt,
    }
}

/// The direction the tests give two particles at one spot (opposite for j, i).
pub fn coincident_direction(i: usize, j: usize) -> Vec2 {
    if i < j {
        Vec2::X
    } else {
        -Vec2::X
    }
}

/// Gives the particles of `scene` temperatures and thermal shares (a fifth of them not
/// conducting; or all one share), set into the diffusion's lanes as the heat sets them; returns
/// what `physics::reference_conduction` reads and the conductance's scale V c.
pub fn conducting(
    scene: &mut Scene,
    one_share: bool,
) -> (Vec<crate::sim::physics::Conducting>, f32) {
    use crate::sim::physics::{conduction_scale, Conducting};
    let mut rng = Pcg32::seed_from_u64(scene.particles.len() as u64);
    let (scale, _) = conduction_scale(0.3, 82.0);
    let particles: Vec<Conducting> = scene
        .particles
        .iter()
        .map(|p| Conducting {
            position: p.position,
            temperature: rng.random_range(-20.0..300.0),
            share: if one_share {
                0.4
            } else if rng.random_range(0..5) == 0 {
                0.0
            } else {
                p.mass * rng.random_range(0.2..2.0) * rng.random_range(0.01..1.0)
            },
        })
        .collect();
    let count = particles.len();
    let lanes = &mut scene.lanes;
    fill_padded(&mut lanes.diffused, count, 0.0, |i| {
        particles[i].temperature
    });
    fill_padded(&mut lanes.diffusion_share, count, 0.0, |i| {
        particles[i].share
    });
    (particles, scale)
}
