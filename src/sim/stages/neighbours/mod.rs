//! The neighbour stages of a substep: the grid sort, the density and near-density sums with the
//! equation of state, and the relaxation (Clavet et al. 2005, algorithm 2 with Madams' kernels;
//! the formulas themselves are in `physics`).
//!
//! Particles are sorted by grid cell, so the candidates of a particle are a few contiguous index
//! ranges. Each pair is evaluated once, by its lower index, over that particle's forward
//! candidates (`Grid::forward_rows`: the rest of its line of cells and the lines above), and its
//! result is added to both ends: gathered into the particle, scattered into the candidates. A
//! range is read in groups of eight candidates, one per SIMD lane (`simd::Lanes`, eight on every
//! CPU so that every sum adds in the same order everywhere), without branches: a candidate farther
//! than h (or past the end of its range) gets the weight a = 0 and so adds exactly zero, and
//! because the candidates of a group are consecutive particles the scatter is one load, add and
//! store per group. No neighbour lists are stored: recomputing a distance costs less than writing
//! it out and reading it back.
//!
//! The rooms: `lanes` holds the per-particle arrays the loops read and the factors folded into
//! them; `bands` schedules bands of whole lines of cells so that threads never meet; `chunks`
//! hands a particle's groups to the lanes (two at a time on AVX-512); `density` and `relax` are
//! the pair loops; `width` picks what runs the lanes (AVX-512, AVX, or two parts of four).

mod bands;
mod chunks;
mod density;
mod diffusion;
mod lane_use;
mod lanes;
mod pressures;
mod relax;
#[cfg(test)]
mod test_scene;
mod width;

pub use lane_use::LaneUse;
pub use lanes::Folding;
pub use width::LANES_VARIABLE;

/// What runs the pair loops' eight lanes in this process ("avx512", "avx", "2x4 sse2",
/// "2x4 neon", "2x4 simd128"): the same bits whichever it is, so this is for reports only.
pub fn lanes_name() -> &'static str {
    width::chosen().name()
}

use super::grid::{Bounds, ForwardRows, Grid};
use super::liquid::Liquid;
use super::wall_density::{NearWall, WallDensity};
use crate::sim::numerics::LIGHT_CHUNK;
use crate::sim::particles::{Particles, Reordered};
use bands::{for_each_band, run_phase, Band, PairSum, PairSums};
use density::DensityStage;
use diffusion::DiffusionStage;
use glam::Vec2;
use lanes::{fill_padded, LaneData};
use pressures::{DensityOutputs, PressureStage};
use rayon::prelude::*;
use relax::{RelaxConstants, RelaxStage};

/// Fewest particles in a band of the neighbour stages (one rayon task each).
const BAND: usize = 128;

/// The grid and the buffers the neighbour stages reuse every substep (a steady particle count
/// allocates nothing), and the relaxation's output.
#[derive(Clone, Debug, Default)]
pub struct Neighbours {
    grid: Grid,
    /// Sorted per-particle values as separate, padded arrays for the pair loops.
    lanes: LaneData,
    /// Each particle's forward candidates, found once per substep for both pair loops.
    rows: Vec<ForwardRows>,
    /// First particle of each band of grid lines, then the count (`Grid::bands`).
    bands: Vec<u32>,
    /// The particle columns being reordered into cell order, swapped in once written.
    sorted: Reordered,
    /// The relaxation's displacement (and the subsystems'), x.
    displacement_x: Vec<f32>,
    /// The relaxation's displacement (and the subsystems'), y.
    displacement_y: Vec<f32>,
    /// σs N of each material (the tension lane is this × m).
    tension_per_mass: Vec<f32>,
    /// How full of liquid the walls near each particle are (`WallSums::fullness`; 0 away from
    /// the walls).
    wall_fullness: Vec<f32>,
    /// True from `set_diffusion` to the next sort: the density stage runs the diffusion fused.
    diffusing: bool,
    /// Every particle has one share of the diffusion (`set_diffusion`).
    one_share: bool,
    /// What each particle gained in the diffusion's last pass (`diffusion`).
    diffusion_gained: Vec<f32>,
}

impl Neighbours {
    /// Buffers for up to `max_particles` particles inside the box `min..max` with interaction
    /// radius `h` (the grid reserves its cells now, so building it later does not allocate).
    pub fn new(min: Vec2, max: Vec2, h: f32, max_particles: usize) -> Self {
        let mut neighbours = Self::default();
        neighbours.grid.reserve(min, max, h, max_particles);
        neighbours
    }

    /// The grid of the last sort (its numbering carries over to the next: `Grid::is_transposed`).
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// How full the pair loops' lanes were in the last sort, for particles of interaction
    /// radius `h` (`lane_use`: a walk over every candidate, for reports, not for each substep).
    pub fn lane_use(&self, h: f32) -> LaneUse {
        lane_use::lane_use(&self.rows, &self.lanes.x, &self.lanes.y, h)
    }

    /// Sets the numbering the next sort starts from (a world restored from a snapshot).
    pub fn set_grid_transposed(&mut self, transposed: bool) {
        self.grid.set_transposed(transposed);
    }

    /// The displacement of every particle (sorted order): the relaxation's, plus what the
    /// subsystems add.
    pub fn displacement(&self) -> (&[f32], &[f32]) {
        (&self.displacement_x, &self.displacement_y)
    }

    /// The grid, and the displacement to add to.
    pub fn grid_and_displacement(&mut self) -> (&Grid, (&mut [f32], &mut [f32])) {
        (
            &self.grid,
            (&mut self.displacement_x, &mut self.displacement_y),
        )
    }

    /// The grid stage: rebuilds the grid over `bounds` (the particles' bounding box), reorders
    /// every particle column the reorder moves (`particle_columns!`) into cell order and fills
    /// the lanes that do not depend on density, all in one pass, then finds the bands.
    pub fn sort(
        &mut self,
        particles: &mut Particles,
        bounds: Bounds,
        h: f32,
        liquid: &Liquid,
        folding: &Folding,
    ) {
        self.diffusing = false;
        self.grid.build_within(&particles.position, h, bounds);
        let order = self.grid.order();
        let count = order.len();
        self.tension_per_mass.clear();
        self.tension_per_mass.extend(
            liquid
                .materials
                .iter()
                .map(|m| folding.tension(m.surface_tension)),
        );
        let tension_per_mass = &self.tension_per_mass;
        let p = &*particles;
        let sorted = &mut self.sorted;
        sorted.resize(count);
        let lanes = &mut self.lanes;
        lanes.resize(count);
        let rows = &mut self.rows;
        rows.resize(count, ForwardRows::default());
        let grid = &self.grid;
        // One material: the constant lanes are the same for every particle (each particle has
        // its material's mass), and those already written stay as they are.
        let same_constants = liquid.same.material.then(|| {
            let mass = liquid.materials[0].mass;
            [mass, 1.0 / mass, tension_per_mass[0] * mass, 0.0]
        });
        let constants_written = match (same_constants, lanes.same_constants) {
            (Some(values), Some((written, written_count))) if values == written => written_count,
            _ => 0,
        };
        lanes.same_constants = same_constants.map(|values| (values, count));
        let lane_chunks = (
            lanes.x[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.y[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.mass[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.inverse_mass[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.velocity_x[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.velocity_y[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.tension[..count].par_chunks_mut(LIGHT_CHUNK),
            lanes.material[..count].par_chunks_mut(LIGHT_CHUNK),
        );
        (
            order.par_chunks(LIGHT_CHUNK),
            rows.par_chunks_mut(LIGHT_CHUNK),
            sorted.par_chunks_mut(LIGHT_CHUNK),
            lane_chunks,
        )
            .into_par_iter()
            .enumerate()
            .for_each(|(chunk, (order, rows, mut moved, lane))| {
                let (x, y, lane_mass, inverse_mass, velocity_x, velocity_y, tension, lane_material) =
                    lane;
                // Every chunk is as long as its slice of `order` (one check here, none per write).
                let n = order.len();
                assert!(
                    moved.all_len(n)
                        && [x.len(), y.len(), lane_mass.len(), inverse_mass.len()]
                            .iter()
                            .chain(&[velocity_x.len(), velocity_y.len(), tension.len()])
                            .chain(&[lane_material.len(), rows.len()])
                            .all(|&len| len == n)
                );
                let first = chunk * LIGHT_CHUNK;
                let constants = first + n > constants_written;
                for (k, &old) in order.iter().enumerate() {
                    let particle = p.moved(old as usize);
                    let (at, moving) = (particle.position, particle.velocity);
                    let (kind, m) = (particle.material, particle.mass);
                    moved.set(k, particle);
                    x[k] = at.x;
                    y[k] = at.y;
                    velocity_x[k] = moving.x;
                    velocity_y[k] = moving.y;
                    if constants {
                        lane_mass[k] = m;
                        inverse_mass[k] = 1.0 / m;
                        tension[k] = tension_per_mass[kind as usize] * m;
                        lane_material[k] = kind as f32;
                    }
                    debug_assert!(
                        same_constants.is_none_or(|same| same[0] == m && kind == 0),
                        "one material, each particle of its mass"
                    );
                    rows[k] = grid.forward_rows_of_built(old as usize, first + k);
                }
            });
        self.grid.bands(BAND, &mut self.bands);
        let p = particles;
        sorted.swap_into(p);
        if !liquid.same.viscosity {
            // ¼ Δt² σ and ¼ Δt² β per particle: a pair's viscosity is the sum of its two.
            let (materials, material) = (&liquid.materials, &p.material);
            fill_padded(&mut lanes.linear_viscosity, count, 0.0, |i| {
                folding.viscosity_half(materials[material[i] as usize].linear_viscosity)
            });
            fill_padded(&mut lanes.quadratic_viscosity, count, 0.0, |i| {
                folding.viscosity_half(materials[material[i] as usize].quadratic_viscosity)
            });
        }
    }

    /// The density stage: every particle's density and near density from the particles within
    /// h (itself excluded, as in the seed) and the liquid the walls stand for (counted, then
    /// times the particle's own mass), its pressures by the equation of state, and the pressure
    /// lanes of the relaxation; with `set_diffusion` since the sort, the diffusion's exchange
    /// too (`diffusion_gained`). Needs the grid of a `sort` of these particles.
    pub fn densities(
        &mut self,
        particles: &mut Particles,
        h: f32,
        rest_density: f32,
        liquid: &Liquid,
        walls: &WallDensity,
        folding: &Folding,
    ) {
        let count = particles.len();
        particles.density.resize(count, 0.0);
        particles.near_density.resize(count, 0.0);
        self.wall_fullness.resize(count, 0.0);
        // The pressure lanes are written here while the others are read.
        let mut lane_pressure = std::mem::take(&mut self.lanes.pressure);
        let mut lane_near_pressure = std::mem::take(&mut self.lanes.near_pressure);
        let stage = DensityStage {
            rows: &self.rows,
            lanes: &self.lanes,
            h,
            one_share: self.one_share,
        };
        // The diffusion's sums, one per particle (untouched when it does not run).
        self.diffusion_gained.resize(count, 0.0);
        let diffusing = self.diffusing;
        let p = particles;
        let pressure_stage = PressureStage {
            lanes: &self.lanes,
            material: &p.material,
            liquid,
            walls,
            folding,
            rest_density,
        };
        let loops = width::chosen();
        for phase in 0..2 {
            let outputs: DensityOutputs = (
                (&mut p.density, &mut p.near_density),
                (&mut p.pressure, &mut p.near_pressure),
                (
                    (
                        &mut lane_pressure[..count],
                        &mut lane_near_pressure[..count],
                    ),
                    (
                        &mut self.wall_fullness[..count],
                        &mut self.diffusion_gained[..count],
                    ),
                ),
            );
            run_phase(
                &self.bands,
                phase,
                outputs,
                &|band: Band, mut outputs: DensityOutputs| {
                    let (sums, _, (_, (_, gained))) = &mut outputs;
                    let mut sums = PairSums::clearing(&band, sums.0, sums.1);
                    let mut heat = diffusing.then(|| PairSum::clearing(&band, gained));
                    loops.density_band(band.particles.clone(), &stage, &mut sums, heat.as_mut());
                    // Complete now: band 0 (reached by itself alone) after phase 0, and an
                    // odd band's whole window (its band and the next, each reached from the
                    // band before it and itself) after phase 1.
                    let window_end = band.start + outputs.0 .0.len();
                    let done = if band.index == 0 {
                        band.particles
                    } else if band.index % 2 == 1 {
                        band.start..window_end
                    } else {
                        return;
                    };
                    loops.pressures(done, band.start, &pressure_stage, &mut outputs);
                },
            );
        }
        self.lanes.pressure = lane_pressure;
        self.lanes.near_pressure = lane_near_pressure;
    }

    /// Sets the diffusion's lanes of every particle of the last sort (`count` of them, sorted
    /// order): `lane(i)` gives its value and its share (`diffusion`); `one_share` says every
    /// particle has the same share. The next density stage then runs the diffusion's exchange
    /// fused, and `diffusion_gained` gives what it found.
    pub fn set_diffusion(
        &mut self,
        count: usize,
        one_share: bool,
        lane: impl Fn(usize) -> [f32; 2] + Sync,
    ) {
        let lanes = &mut self.lanes;
        for field in [&mut lanes.diffused, &mut lanes.diffusion_share] {
            field.resize(count + lanes::LANES, 0.0);
            field[count..].fill(0.0);
        }
        (
            &mut lanes.diffused[..count],
            &mut lanes.diffusion_share[..count],
        )
            .into_par_iter()
            .with_min_len(LIGHT_CHUNK)
            .enumerate()
            .for_each(|(i, (value, share))| [*value, *share] = lane(i));
        self.diffusing = true;
        self.one_share = one_share;
    }

    /// True from `set_diffusion` to the next sort.
    pub fn is_diffusing(&self) -> bool {
        self.diffusing
    }

    /// What each particle gained in the diffusion's last pass (sorted order):
    /// Σ_j a³ H (v_j − v_i) over its pairs (`diffusion`).
    pub fn diffusion_gained(&self) -> &[f32] {
        &self.diffusion_gained
    }

    /// Another pass of the diffusion alone, from `values` (sorted order, the same particles and
    /// pairs as the density stage's), the shares as set; `diffusion_gained` then gives what it
    /// found.
    pub fn diffuse_again(&mut self, values: &[f32], h: f32) {
        let count = values.len();
        self.lanes.diffused[..count].copy_from_slice(values);
        let stage = DiffusionStage {
            rows: &self.rows,
            lanes: &self.lanes,
            h,
            one_share: self.one_share,
        };
        let loops = width::chosen();
        for phase in 0..2 {
            let gained = &mut self.diffusion_gained[..count];
            run_phase(
                &self.bands,
                phase,
                gained,
                &|band: Band, window: &mut [f32]| {
                    let mut sums = PairSum::clearing(&band, window);
                    loops.diffusion_band(band.particles, &stage, &mut sums);
                },
            );
        }
    }

    /// The relaxation stage: pressure and near pressure pushes, surface tension and viscosity,
    /// and the walls' push, written as a displacement (Jacobi: every pair reads the same frozen
    /// positions). Needs the densities of this grid; `id` is each particle's stable id (sorted
    /// order).
    pub fn relax(
        &mut self,
        id: &[u32],
        h: f32,
        liquid: &Liquid,
        walls: &WallDensity,
        folding: &Folding,
    ) {
        let first = liquid.materials[0];
        let coincident = |i: usize, j: usize| coincident_direction(id[i], id[j]);
        let stage = RelaxStage {
            rows: &self.rows,
            lanes: &self.lanes,
            constants: RelaxConstants {
                inverse_h: 1.0 / h,
                linear_viscosity: folding.viscosity(first.linear_viscosity),
                quadratic_viscosity: folding.viscosity(first.quadratic_viscosity),
            },
            same: liquid.same,
            coincident: &coincident,
        };
        let count = id.len();
        self.displacement_x.resize(count, 0.0);
        self.displacement_y.resize(count, 0.0);
        let loops = width::chosen();
        for_each_band(
            &self.bands,
            &mut self.displacement_x,
            &mut self.displacement_y,
            &|band, sums| loops.relaxation_band(band, &stage, sums),
        );
        let (lanes, fullness) = (&self.lanes, &self.wall_fullness);
        (&mut self.displacement_x, &mut self.displacement_y)
            .into_par_iter()
            .with_min_len(LIGHT_CHUNK)
            .enumerate()
            .for_each(|(i, (x, y))| {
                if fullness[i] == 0.0 {
                    return;
                }
                let material = &liquid.materials[lanes.material[i] as usize];
                let particle = NearWall {
                    position: Vec2::new(lanes.x[i], lanes.y[i]),
                    velocity: Vec2::new(lanes.velocity_x[i], lanes.velocity_y[i]),
                    pressure: lanes.pressure[i],
                    near_pressure: lanes.near_pressure[i],
                    fullness: fullness[i],
                    inverse_mass: lanes.inverse_mass[i],
                    linear_viscosity: folding.viscosity(material.linear_viscosity),
                    quadratic_viscosity: folding.viscosity(material.quadratic_viscosity),
                };
                let push = walls.relaxation(&particle, folding.dt);
                *x += push.x;
                *y += push.y;
            });
    }
}

/// A direction for two particles at the same spot, opposite for the two of the pair, chosen from
/// their ids so that it is deterministic.
fn coincident_direction(id_i: u32, id_j: u32) -> Vec2 {
    let (low, high) = (id_i.min(id_j), id_i.max(id_j));
    let mixed = (low as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (high as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    let angle = (mixed >> 40) as f32 * (std::f32::consts::TAU / (1u64 << 24) as f32);
    let direction = crate::sim::numerics::portable::unit_vector(angle);
    if id_i < id_j {
        direction
    } else {
        -direction
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coincident_particles_get_opposite_directions() {
        let (a, b) = (coincident_direction(3, 9), coincident_direction(9, 3));
        assert!((a + b).length() < 1e-6);
        assert!((a.length() - 1.0).abs() < 1e-5);
    }

    /// The grid stage's reorder moves every column it should (`particle_columns!`' saved and
    /// derived columns) with the particle: each value set from the particle's id before the
    /// sort is found beside that id after it.
    #[test]
    fn a_column_left_out_of_the_reorder_is_caught() {
        use crate::sim::scene::params::SimParams;
        use crate::sim::scene::Material;
        let count = 2000;
        let mut particles = Particles::default();
        for id in 0..count {
            // Scattered over a 4 × 2 box (a stride coprime with the count), so that the sort
            // moves nearly every particle; every column a different function of the id.
            let spot = (id * 7919 % count) as f32;
            let position = Vec2::new(spot % 80.0 * 0.05, (spot / 80.0).floor() * 0.08);
            let velocity = Vec2::new(id as f32 * 0.25, -(id as f32) * 0.5);
            particles.push(
                id,
                (id % 2) as u16,
                position,
                velocity,
                id as f32 * 0.125 - 3.0,
                id as f32 * 0.5 - 1.0,
                id * 3 + 1,
                1.0 + id as f32 / 64.0,
            );
        }
        let before: Vec<_> = (0..particles.len()).map(|i| particles.moved(i)).collect();
        let h = 0.1;
        let liquid = Liquid::new(
            &[Material::default(), Material::default()],
            &SimParams::default(),
        );
        let mut neighbours = Neighbours::new(Vec2::ZERO, Vec2::new(4.0, 2.0), h, count as usize);
        let bounds = Bounds::of(&particles.position);
        neighbours.sort(&mut particles, bounds, h, &liquid, &Folding::new(h, 0.01));
        let moved = (0..particles.len())
            .filter(|&i| particles.id[i] as usize != i)
            .count();
        assert!(moved > count as usize / 2, "the sort moved only {moved}");
        for i in 0..particles.len() {
            let id = particles.id[i] as usize;
            assert_eq!(particles.moved(i), before[id], "particle {id}, at {i}");
        }
    }
}
