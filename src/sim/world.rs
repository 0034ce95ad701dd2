//! The world: all particle state and one `step_frame()` / `substep()`.
//!
//! One substep, in the seed's order (see `PHYSICS.md`): emit, body forces, advance, grid, density
//! and near density, pressure, relaxation (Jacobi: read frozen positions, write a displacement),
//! move and derive velocity, walls. Each stage is one function; every parallel stage computes each
//! particle (or each band of pairs, see `sums.rs`) from frozen inputs in a fixed order, so results
//! are bit-identical at any thread count.

use super::domain::Domain;
use super::grid::{Bounds, ForwardRows, Grid};
use super::kernels::{density_norm, near_density_norm};
use super::obstacles::{Contacts, Obstacle};
use super::params::SimParams;
use super::scene::{Block, Emitter, Material};
use super::springs::Springs;
use super::sums::{
    fill_padded, for_each_band, kernels, run_phase, Band, DensityStage, LaneData, PairSums,
    RelaxConstants, RelaxStage, Sameness,
};
use super::LIGHT_CHUNK;
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use rayon::prelude::*;
use std::ops::Range;
use std::time::{Duration, Instant};

/// Particles per rayon task: large enough to amortise scheduling, small enough to balance 2–16 cores.
const CHUNK: usize = 512;

/// A band's window of the density stage's outputs: (density, near density) sums, then
/// (pressure, near pressure), then their lanes.
type DensityOutputs<'a> = (
    (&'a mut [f32], &'a mut [f32]),
    (&'a mut [f32], &'a mut [f32]),
    (&'a mut [f32], &'a mut [f32]),
);

/// Fewest particles in a band of the neighbour stages (one rayon task each; see `for_each_band`).
const BAND: usize = 128;

/// Particle state as struct-of-arrays, kept sorted by grid cell (ids stay stable).
#[derive(Clone, Debug, Default)]
pub struct Particles {
    /// Stable id: emission order, never reused.
    pub id: Vec<u32>,
    /// Position.
    pub position: Vec<Vec2>,
    /// Velocity.
    pub velocity: Vec<Vec2>,
    /// Index into the world's materials.
    pub material: Vec<u16>,
    /// Mass, copied from the material.
    pub mass: Vec<f32>,
    /// Density ρ from the last substep.
    pub density: Vec<f32>,
    /// Near density ρ_near from the last substep.
    pub near_density: Vec<f32>,
    /// Pressure P = k (ρ − m ρ0) from the last substep (also drives the renderer's shading).
    pub pressure: Vec<f32>,
    /// Near pressure P_near = k_near ρ_near from the last substep.
    pub near_pressure: Vec<f32>,
}

impl Particles {
    /// Number of particles.
    pub fn len(&self) -> usize {
        self.id.len()
    }

    /// True when there are no particles.
    pub fn is_empty(&self) -> bool {
        self.id.is_empty()
    }
}

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

/// Wall-clock time spent in each stage since the world was made (salva-style stage timers).
#[derive(Clone, Copy, Debug, Default)]
pub struct StageTimes {
    /// Emission.
    pub emit: Duration,
    /// Gravity and advance.
    pub advance: Duration,
    /// Grid build and reorder.
    pub grid: Duration,
    /// Densities and pressures.
    pub density: Duration,
    /// Relaxation.
    pub relax: Duration,
    /// Viscoelastic springs (zero when no material has springs).
    pub springs: Duration,
    /// Move, velocity and walls.
    pub walls: Duration,
}

/// Summary numbers of the particle state (for tests, the HUD and the headless report).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct WorldStats {
    /// Particles alive.
    pub particles: usize,
    /// Particles with a non-finite position or velocity.
    pub nan: usize,
    /// Particles outside any wall.
    pub escaped: usize,
    /// Largest particle speed.
    pub max_speed: f32,
    /// Σ ½ m |v|².
    pub kinetic_energy: f64,
}

/// How the last frame was stepped: its substep count and how many particle moves were capped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FrameReport {
    /// Substeps the frame took (more than configured when particles were fast).
    pub substeps: u32,
    /// Particle moves capped at `cfl × h` during the frame (0 in a calm scene).
    pub capped: usize,
}

/// Emission progress of one emitter.
#[derive(Clone, Debug, Default)]
struct EmitterState {
    rows: u64,
    emitted: usize,
}

/// Buffers reused every substep so that a steady particle count allocates nothing.
#[derive(Clone, Debug, Default)]
struct Scratch {
    /// The relaxation's displacements (and the springs'), x.
    displacement_x: Vec<f32>,
    /// The relaxation's displacements (and the springs'), y.
    displacement_y: Vec<f32>,
    /// Sorted per-particle values as separate, padded arrays for the neighbour sums.
    lanes: LaneData,
    /// Each particle's forward candidates, found once per substep for both neighbour stages.
    rows: Vec<ForwardRows>,
    /// First particle of each band of grid rows, then the count (`Grid::bands`).
    bands: Vec<u32>,
    /// The particle arrays being reordered into cell order, swapped in once written.
    sorted: SortedFields,
}

/// Targets of the reorder into cell order, one per particle array that moves.
#[derive(Clone, Debug, Default)]
struct SortedFields {
    position: Vec<Vec2>,
    velocity: Vec<Vec2>,
    id: Vec<u32>,
    material: Vec<u16>,
    mass: Vec<f32>,
}

/// Owns all simulation state; `substep()` advances it by one dt.
#[derive(Clone, Debug)]
pub struct World {
    params: SimParams,
    materials: Vec<Material>,
    domain: Domain,
    emitters: Vec<Emitter>,
    emitter_state: Vec<EmitterState>,
    particles: Particles,
    grid: Grid,
    /// (σ, β): linear and quadratic viscosity of each material; a pair uses the means.
    viscosity: Vec<(f32, f32)>,
    /// (k, k_near) of each material.
    pressure_stiffness: Vec<(f32, f32)>,
    /// σs of each material.
    surface_tension: Vec<f32>,
    /// Whether every material has one mass, or one viscosity (cheaper relaxation paths).
    same: Sameness,
    /// Springs of the materials that have them (`None`: no material has springs).
    springs: Option<Springs>,
    /// Obstacles and stickiness.
    contacts: Contacts,
    scratch: Scratch,
    rng: Pcg32,
    next_id: u32,
    substeps_done: u64,
    /// Simulated seconds since the world was made.
    time: f64,
    /// Length of the current substep (the configured dt unless the frame needed more substeps).
    dt: f32,
    last_frame: FrameReport,
    cap_reached: bool,
    times: StageTimes,
}

impl World {
    /// A world with the given scene; `blocks` are filled immediately (up to the particle cap).
    /// `seed` drives emitter jitter and block jitter.
    pub fn new(
        params: SimParams,
        materials: Vec<Material>,
        domain: Domain,
        emitters: Vec<Emitter>,
        blocks: &[Block],
        seed: u64,
    ) -> Self {
        Self::with_obstacles(
            params,
            materials,
            domain,
            Vec::new(),
            emitters,
            blocks,
            seed,
        )
    }

    /// A world with static `obstacles` besides the walls (see `obstacles.rs` for the gaps they
    /// need); block sites closer than one particle radius to an obstacle stay empty.
    pub fn with_obstacles(
        params: SimParams,
        materials: Vec<Material>,
        domain: Domain,
        obstacles: Vec<Obstacle>,
        emitters: Vec<Emitter>,
        blocks: &[Block],
        seed: u64,
    ) -> Self {
        let emitter_state = vec![EmitterState::default(); emitters.len()];
        let params_dt = params.dt();
        let linear = |m: &Material| m.linear_viscosity.unwrap_or(params.linear_viscosity);
        let quadratic = |m: &Material| m.quadratic_viscosity.unwrap_or(params.quadratic_viscosity);
        let viscosity = materials
            .iter()
            .map(|m| (linear(m), quadratic(m)))
            .collect();
        let pressure_stiffness = materials
            .iter()
            .map(|m| {
                (
                    m.stiffness.unwrap_or(params.stiffness),
                    m.near_stiffness.unwrap_or(params.near_stiffness),
                )
            })
            .collect();
        let surface_tension = materials
            .iter()
            .map(|m| m.surface_tension.unwrap_or(params.surface_tension))
            .collect();
        let same = Sameness {
            material: materials.len() == 1,
            mass: materials.iter().all(|m| m.mass == materials[0].mass),
            viscosity: materials.iter().all(|m| {
                (linear(m), quadratic(m)) == (linear(&materials[0]), quadratic(&materials[0]))
            }),
        };
        let h = params.interaction_radius;
        let springs = Springs::new(
            materials.iter().map(|m| {
                (
                    m.spring_stiffness,
                    m.yield_ratio,
                    m.plasticity,
                    m.spring_radius,
                )
            }),
            h,
        );
        let contacts = Contacts::new(
            obstacles,
            materials.iter().map(|m| (m.stickiness, m.stick_distance)),
            h,
            params.particle_radius,
        );
        let mut grid = Grid::default();
        grid.reserve(domain.min(), domain.max(), params.interaction_radius);
        let mut world = Self {
            params,
            materials,
            domain,
            emitters,
            emitter_state,
            particles: Particles::default(),
            grid,
            viscosity,
            pressure_stiffness,
            surface_tension,
            same,
            springs,
            contacts,
            scratch: Scratch::default(),
            rng: Pcg32::seed_from_u64(seed),
            next_id: 0,
            substeps_done: 0,
            time: 0.0,
            dt: params_dt,
            last_frame: FrameReport::default(),
            cap_reached: false,
            times: StageTimes::default(),
        };
        for block in blocks {
            let jitter = 0.01 * block.spacing;
            for position in block.positions() {
                if world.contacts.blocks(position) {
                    continue;
                }
                let offset = Vec2::new(
                    world.rng.random_range(-jitter..=jitter),
                    world.rng.random_range(-jitter..=jitter),
                );
                if !world.spawn(block.material, position + offset, Vec2::ZERO) {
                    break;
                }
            }
        }
        world
    }

    /// Parameters in use.
    pub fn params(&self) -> &SimParams {
        &self.params
    }

    /// Materials, indexed by `Particles::material`.
    pub fn materials(&self) -> &[Material] {
        &self.materials
    }

    /// The walls and the region they enclose.
    pub fn domain(&self) -> &Domain {
        &self.domain
    }

    /// The emitters.
    pub fn emitters(&self) -> &[Emitter] {
        &self.emitters
    }

    /// The static obstacles (circles and capsules) besides the walls, for drawing and tests.
    pub fn obstacles(&self) -> &[Obstacle] {
        self.contacts.obstacles()
    }

    /// Viscoelastic springs: (total, most held by one particle); (0, 0) without springs.
    pub fn spring_counts(&self) -> (usize, usize) {
        self.springs.as_ref().map_or((0, 0), Springs::counts)
    }

    /// Particle state (sorted by grid cell; use `id` for identity).
    pub fn particles(&self) -> &Particles {
        &self.particles
    }

    /// Substeps run since the world was made.
    pub fn substeps_done(&self) -> u64 {
        self.substeps_done
    }

    /// Simulated seconds since the world was made.
    pub fn time(&self) -> f64 {
        self.time
    }

    /// What the last `step_frame` did to keep the step stable.
    pub fn last_frame(&self) -> FrameReport {
        self.last_frame
    }

    /// True once an emitter or block was stopped by the global particle cap.
    pub fn cap_reached(&self) -> bool {
        self.cap_reached
    }

    /// True when every emitter has used its budget (or the cap stopped it).
    pub fn emission_finished(&self) -> bool {
        self.cap_reached
            || self
                .emitters
                .iter()
                .zip(&self.emitter_state)
                .all(|(emitter, state)| state.emitted >= emitter.budget)
    }

    /// Time spent per stage so far.
    pub fn stage_times(&self) -> StageTimes {
        self.times
    }

    /// Advances one frame (1 / `frame_rate` simulated seconds) in `params.substeps` substeps, or
    /// in more, up to `params.max_substeps`, when the fastest particle would otherwise travel
    /// more than `cfl × h` in one substep. Past that ceiling each substep caps the travel.
    pub fn step_frame(&mut self) {
        let params = &self.params;
        let max_speed = self
            .particles
            .velocity
            .par_iter()
            .with_min_len(LIGHT_CHUNK)
            .map(|v| v.length())
            .reduce(|| 0.0, f32::max);
        let frame_time = 1.0 / params.frame_rate;
        let reach = params.cfl * params.interaction_radius;
        let needed = (max_speed * frame_time / reach).ceil();
        let substeps = if needed > params.substeps as f32 {
            (needed.min(params.max_substeps as f32)) as u32
        } else {
            params.substeps
        };
        self.dt = 1.0 / (params.frame_rate * substeps as f32);
        self.last_frame = FrameReport {
            substeps,
            capped: 0,
        };
        // Each substep's move also does the next one's advance (one pass less), but the last's:
        // between frames the particles rest at their moved positions.
        let mut advanced = None;
        for step in 1..=substeps {
            advanced = self.run_substep(advanced, step < substeps);
        }
    }

    /// Advances one substep (of the configured dt, or of the shorter one the last frame chose).
    pub fn substep(&mut self) {
        self.run_substep(None, false);
    }

    /// One substep. `advanced`: the particles already had this substep's advance (from the last
    /// substep's move), and these are their bounds. With `advance_next` the move also does the
    /// next substep's advance and returns the bounds for it. The arithmetic is the same either
    /// way, so fused or not, the results are identical.
    fn run_substep(&mut self, advanced: Option<Bounds>, advance_next: bool) -> Option<Bounds> {
        let mut clock = Instant::now();
        let mut lap = |slot: &mut Duration| {
            let now = Instant::now();
            *slot += now - clock;
            clock = now;
        };
        let old_particles = self.particles.len();
        self.emit();
        lap(&mut self.times.emit);
        let bounds = match advanced {
            // Only the particles just emitted still need it.
            Some(bounds) => bounds.union(self.apply_gravity_and_advance(old_particles)),
            None => self.apply_gravity_and_advance(0),
        };
        lap(&mut self.times.advance);
        self.sort_into_grid_within(bounds);
        lap(&mut self.times.grid);
        self.compute_densities();
        lap(&mut self.times.density);
        self.relax();
        lap(&mut self.times.relax);
        if let Some(springs) = &mut self.springs {
            let h = self.params.interaction_radius;
            let scratch = &mut self.scratch;
            let displacement = (&mut scratch.displacement_x, &mut scratch.displacement_y);
            springs.apply(&self.particles, &self.grid, h, self.dt, displacement);
        }
        lap(&mut self.times.springs);
        let (capped, next_bounds) = self.move_and_collide(advance_next);
        self.last_frame.capped += capped;
        lap(&mut self.times.walls);
        self.substeps_done += 1;
        self.time += self.dt as f64;
        advance_next.then_some(next_bounds)
    }

    /// Adds one particle unless the cap is reached; returns whether it was added.
    fn spawn(&mut self, material: usize, position: Vec2, velocity: Vec2) -> bool {
        if self.particles.len() >= self.params.max_particles {
            self.cap_reached = true;
            return false;
        }
        let position = self.domain.clamp(position);
        let p = &mut self.particles;
        p.id.push(self.next_id);
        p.position.push(position);
        p.velocity.push(velocity);
        p.material.push(material as u16);
        p.mass.push(self.materials[material].mass);
        for field in [
            &mut p.density,
            &mut p.near_density,
            &mut p.pressure,
            &mut p.near_pressure,
        ] {
            field.push(0.0);
        }
        self.next_id += 1;
        true
    }

    /// Emits the rows that are due: row k of an emitter leaves at delay + k / rate.
    fn emit(&mut self) {
        let time = self.time();
        let radius = self.params.particle_radius;
        for index in 0..self.emitters.len() {
            let emitter = &self.emitters[index];
            // A spent emitter is skipped before its row layout is allocated.
            if time < emitter.delay as f64 || self.emitter_state[index].emitted >= emitter.budget {
                continue;
            }
            let rows_due = ((time - emitter.delay as f64) * emitter.rate as f64).floor() as u64 + 1;
            let offsets = emitter.row_offsets(radius);
            while self.emitter_state[index].rows < rows_due {
                self.emitter_state[index].rows += 1;
                let emitter = self.emitters[index].clone();
                for offset in &offsets {
                    if self.emitter_state[index].emitted >= emitter.budget {
                        break;
                    }
                    let jitter = emitter.speed_jitter;
                    let scale = Vec2::new(
                        self.rng.random_range(1.0 - jitter..=1.0 + jitter),
                        self.rng.random_range(1.0 - jitter..=1.0 + jitter),
                    );
                    let velocity = emitter.direction * emitter.speed * scale;
                    if !self.spawn(emitter.material, emitter.position + *offset, velocity) {
                        return;
                    }
                    self.emitter_state[index].emitted += 1;
                }
            }
        }
    }

    /// v += g dt; x += v dt for the particles from `first` on. Returns the bounds of their new
    /// positions (for the grid).
    fn apply_gravity_and_advance(&mut self, first: usize) -> Bounds {
        let dt = self.dt;
        let gravity_step = self.params.gravity * dt;
        let p = &mut self.particles;
        (&mut p.position[first..], &mut p.velocity[first..])
            .into_par_iter()
            .with_min_len(LIGHT_CHUNK)
            .fold(Bounds::default, |bounds, (position, velocity)| {
                advance(position, velocity, gravity_step, dt);
                bounds.with(*position)
            })
            .reduce(Bounds::default, Bounds::union)
    }

    /// Rebuilds the grid, reorders every particle array into cell order and fills the lanes
    /// of the neighbour sums that do not depend on density, all in one pass (public for benches).
    pub fn sort_into_grid(&mut self) {
        self.sort_into_grid_within(Bounds::of(&self.particles.position));
    }

    /// `sort_into_grid`, given the bounds of the positions.
    fn sort_into_grid_within(&mut self, bounds: Bounds) {
        let h = self.params.interaction_radius;
        self.grid.build_within(&self.particles.position, h, bounds);
        let order = self.grid.order();
        let count = order.len();
        let tension_norm = density_norm(h);
        let surface_tension = &self.surface_tension;
        let p = &self.particles;
        let sorted = &mut self.scratch.sorted;
        sorted.position.resize(count, Vec2::ZERO);
        sorted.velocity.resize(count, Vec2::ZERO);
        sorted.id.resize(count, 0);
        sorted.material.resize(count, 0);
        sorted.mass.resize(count, 0.0);
        let lanes = &mut self.scratch.lanes;
        lanes.resize(count);
        let rows = &mut self.scratch.rows;
        rows.resize(count, ForwardRows::default());
        let grid = &self.grid;
        let particle_chunks = (
            sorted.position.par_chunks_mut(LIGHT_CHUNK),
            sorted.velocity.par_chunks_mut(LIGHT_CHUNK),
            sorted.id.par_chunks_mut(LIGHT_CHUNK),
            sorted.material.par_chunks_mut(LIGHT_CHUNK),
            sorted.mass.par_chunks_mut(LIGHT_CHUNK),
        );
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
            particle_chunks,
            lane_chunks,
        )
            .into_par_iter()
            .enumerate()
            .for_each(|(chunk, (order, rows, particle, lane))| {
                let (position, velocity, id, material, mass) = particle;
                let (x, y, lane_mass, inverse_mass, velocity_x, velocity_y, tension, lane_material) =
                    lane;
                // Every chunk is as long as its slice of `order` (one check here, none per write).
                let n = order.len();
                assert!([position.len(), velocity.len(), id.len(), material.len(), mass.len()]
                    .iter()
                    .chain(&[x.len(), y.len(), lane_mass.len(), inverse_mass.len()])
                    .chain(&[velocity_x.len(), velocity_y.len(), tension.len()])
                    .chain(&[lane_material.len(), rows.len()])
                    .all(|&len| len == n));
                for (k, &old) in order.iter().enumerate() {
                    let old = old as usize;
                    let (at, moving) = (p.position[old], p.velocity[old]);
                    let (kind, m) = (p.material[old], p.mass[old]);
                    position[k] = at;
                    velocity[k] = moving;
                    id[k] = p.id[old];
                    material[k] = kind;
                    mass[k] = m;
                    x[k] = at.x;
                    y[k] = at.y;
                    lane_mass[k] = m;
                    inverse_mass[k] = 1.0 / m;
                    velocity_x[k] = moving.x;
                    velocity_y[k] = moving.y;
                    tension[k] = surface_tension[kind as usize] * tension_norm * m;
                    lane_material[k] = kind as f32;
                    rows[k] = grid.forward_rows(at, chunk * LIGHT_CHUNK + k);
                }
            });
        self.grid.bands(BAND, &mut self.scratch.bands);
        let p = &mut self.particles;
        std::mem::swap(&mut p.position, &mut sorted.position);
        std::mem::swap(&mut p.velocity, &mut sorted.velocity);
        std::mem::swap(&mut p.id, &mut sorted.id);
        std::mem::swap(&mut p.material, &mut sorted.material);
        std::mem::swap(&mut p.mass, &mut sorted.mass);
        if !self.same.viscosity {
            // ¼ dt² σ and ¼ dt² β per particle: a pair's viscosity is the sum of its two.
            let quarter_dt2 = 0.25 * self.dt * self.dt;
            let (viscosity, material) = (&self.viscosity, &p.material);
            fill_padded(&mut lanes.linear_viscosity, count, 0.0, |i| {
                quarter_dt2 * viscosity[material[i] as usize].0
            });
            fill_padded(&mut lanes.quadratic_viscosity, count, 0.0, |i| {
                quarter_dt2 * viscosity[material[i] as usize].1
            });
        }
    }

    /// Computes every particle's density and near density from the particles within h (itself
    /// excluded, as in the seed), its pressures, and the pressure lanes of the relaxation.
    /// Needs a current grid (public for benches).
    pub fn compute_densities(&mut self) {
        let h = self.params.interaction_radius;
        let (norm, near_norm) = (density_norm(h), near_density_norm(h));
        let half_dt2 = 0.5 * self.dt * self.dt;
        let pressure_stiffness = &self.pressure_stiffness;
        let rest_density = self.params.rest_density;
        let kernels = kernels();
        let same_mass = self.same.mass;
        // Sums without masses (one mass for all) get it with the normalisation.
        let unit = if same_mass {
            self.materials[0].mass
        } else {
            1.0
        };
        let (norm_sum, near_norm_sum) = (norm * unit, near_norm * unit);
        let p = &mut self.particles;
        let count = p.len();
        p.density.resize(count, 0.0);
        p.near_density.resize(count, 0.0);
        let scratch = &mut self.scratch;
        let (rows, bands) = (&scratch.rows, &scratch.bands);
        // The pressure lanes are written here while the others are read.
        let mut lane_pressure = std::mem::take(&mut scratch.lanes.pressure);
        let mut lane_near_pressure = std::mem::take(&mut scratch.lanes.near_pressure);
        let lanes = &scratch.lanes;
        let stage = DensityStage {
            rows,
            lanes,
            h,
            same_mass,
        };
        let (mass, material) = (&p.mass, &p.material);
        // Normalised densities, pressures and pressure lanes of particles `done` (window
        // positions from `start`), once their sums are complete.
        let finish = |done: Range<usize>, start: usize, outputs: &mut DensityOutputs| {
            let (sums, pressures, pressure_lanes) = outputs;
            for i in done {
                let local = i - start;
                let (stiffness, near_stiffness) = pressure_stiffness[material[i] as usize];
                let density = sums.0[local] * norm_sum;
                let near_density = sums.1[local] * near_norm_sum;
                let pressure = stiffness * (density - mass[i] * rest_density);
                let near_pressure = near_stiffness * near_density;
                (sums.0[local], sums.1[local]) = (density, near_density);
                (pressures.0[local], pressures.1[local]) = (pressure, near_pressure);
                // Each particle's share of a pair's pushes: ½ dt² N P and ½ dt² N_near P_near.
                pressure_lanes.0[local] = half_dt2 * norm * pressure;
                pressure_lanes.1[local] = half_dt2 * near_norm * near_pressure;
            }
        };
        for phase in 0..2 {
            let outputs: DensityOutputs = (
                (&mut p.density, &mut p.near_density),
                (&mut p.pressure, &mut p.near_pressure),
                (
                    &mut lane_pressure[..count],
                    &mut lane_near_pressure[..count],
                ),
            );
            run_phase(
                bands,
                phase,
                outputs,
                &|band: Band, mut outputs: DensityOutputs| {
                    let (sums, _, _) = &mut outputs;
                    let mut sums = PairSums::clearing(&band, sums.0, sums.1);
                    kernels.density_band(band.particles.clone(), &stage, &mut sums);
                    // Complete now: band 0 (reached by itself alone) after phase 0, and an
                    // odd band's whole window (its band and the next, each reached from the
                    // band before it and itself) after phase 1.
                    let window_end = band.start + outputs.0 .0.len();
                    if band.index == 0 {
                        finish(band.particles, band.start, &mut outputs);
                    } else if band.index % 2 == 1 {
                        finish(band.start..window_end, band.start, &mut outputs);
                    }
                },
            );
        }
        let lanes = &mut scratch.lanes;
        lanes.pressure = lane_pressure;
        lanes.near_pressure = lane_near_pressure;
    }

    /// Double density relaxation, surface tension and viscosity, written as a displacement into
    /// the scratch buffers (Jacobi: every pair reads the same frozen positions). Needs current
    /// densities, i.e. a `compute_densities` since the last grid build (public for benches).
    pub fn relax(&mut self) {
        let h = self.params.interaction_radius;
        let half_dt2 = 0.5 * self.dt * self.dt;
        // Viscosity: impulse × dt × r = ½ dt² a r (σ u + β u²), with σ and β the means of the
        // pair's two materials: each particle carries half of ½ dt² times its own.
        let (linear, quadratic) = self.viscosity[0];
        let id = &self.particles.id;
        let coincident = |i: usize, j: usize| coincident_direction(id[i], id[j]);
        let scratch = &mut self.scratch;
        let stage = RelaxStage {
            rows: &scratch.rows,
            lanes: &scratch.lanes,
            constants: RelaxConstants {
                inverse_h: 1.0 / h,
                linear_viscosity: half_dt2 * linear,
                quadratic_viscosity: half_dt2 * quadratic,
            },
            same: self.same,
            coincident: &coincident,
        };
        let count = id.len();
        scratch.displacement_x.resize(count, 0.0);
        scratch.displacement_y.resize(count, 0.0);
        let kernels = kernels();
        for_each_band(
            &scratch.bands,
            &mut scratch.displacement_x,
            &mut scratch.displacement_y,
            &|band, sums| kernels.relaxation_band(band, &stage, sums),
        );
    }

    /// Moves to the relaxed positions, derives velocities, and resolves the walls as Clavet et al.
    /// do for bodies: a particle closer than one radius to a wall is put back at one radius (an
    /// exact projection, right in acute corners too), loses the velocity it had into the wall,
    /// and Coulomb friction takes up to `wall_friction` × that much of its sliding speed. A
    /// particle that would travel more than `cfl × h` in this substep travels only that far.
    /// With `advance_next`, each particle then gets the next substep's advance too. Returns how
    /// many particles were capped, and the bounds of the positions (advanced or not).
    fn move_and_collide(&mut self, advance_next: bool) -> (usize, Bounds) {
        let inverse_dt = 1.0 / self.dt;
        let gravity_step = self.params.gravity * self.dt;
        let reach = self.params.cfl * self.params.interaction_radius;
        let friction = self.params.wall_friction;
        let domain = &self.domain;
        let (contacts, dt) = (
            (!self.contacts.is_idle()).then_some(&self.contacts),
            self.dt,
        );
        let (displacement_x, displacement_y) =
            (&self.scratch.displacement_x, &self.scratch.displacement_y);
        let p = &mut self.particles;
        (
            &mut p.position,
            &mut p.velocity,
            (displacement_x, displacement_y),
            &p.material,
        )
            .into_par_iter()
            .with_min_len(CHUNK)
            .map(|(position, velocity, (&dx, &dy), &material)| {
                // This substep's travel: the advance's v dt, then the relaxation's displacement.
                let advanced = *velocity * dt;
                let relaxation = Vec2::new(dx, dy);
                let mut travel = advanced + relaxation;
                // Where the particle started the substep (to rounding).
                let start = *position - advanced;
                // NaN travel counts as capped too.
                let within_reach = travel.length_squared() <= reach * reach;
                let capped = !within_reach;
                let mut x = *position + relaxation;
                if capped {
                    travel = travel.clamp_length_max(reach);
                    if !travel.is_finite() {
                        travel = Vec2::ZERO;
                    }
                    x = start + travel;
                }
                let mut v = travel * inverse_dt;
                if let Some(contacts) = contacts {
                    (x, v) = contacts.push_out(x, start, v);
                }
                let inside = domain.clamp(x);
                if inside != x {
                    for wall in domain.walls() {
                        if wall.distance(x) < domain.particle_radius() {
                            v = collide(v, wall.normal, friction);
                        }
                    }
                }
                if let Some(contacts) = contacts {
                    v = contacts.stick(inside, v, material as usize, domain, dt);
                }
                *position = inside;
                *velocity = v;
                if advance_next {
                    advance(position, velocity, gravity_step, dt);
                }
                (capped as usize, Bounds::default().with(*position))
            })
            .reduce(
                || (0, Bounds::default()),
                |(capped, bounds), (more, other)| (capped + more, bounds.union(other)),
            )
    }

    /// Blends the velocity of particles near `stir.position` toward `stir.velocity`, fully at the
    /// centre and smoothly less toward the radius: never faster than the stir or the particle was.
    pub fn stir(&mut self, stir: Stir) {
        let usable = stir.radius.is_finite() && stir.radius > 0.0;
        if !usable || !stir.position.is_finite() || !stir.velocity.is_finite() {
            return;
        }
        let inverse_r2 = 1.0 / (stir.radius * stir.radius);
        let p = &mut self.particles;
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

    /// Gathers particles within `radius` toward `centre` (the right mouse button): each is
    /// steered toward a velocity proportional to its distance from the centre, `speed` at the
    /// rim and zero at the centre, so the crowd gathers without crashing into itself.
    pub fn pull(&mut self, centre: Vec2, radius: f32, speed: f32) {
        let usable = radius.is_finite() && radius > 0.0 && speed.is_finite();
        if !usable || !centre.is_finite() {
            return;
        }
        let inverse_r2 = 1.0 / (radius * radius);
        let gain = speed / radius;
        let p = &mut self.particles;
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

    /// Counts, extremes and energy of the current state.
    pub fn stats(&self) -> WorldStats {
        let p = &self.particles;
        let mut stats = WorldStats {
            particles: p.len(),
            ..WorldStats::default()
        };
        for i in 0..p.len() {
            let (x, v) = (p.position[i], p.velocity[i]);
            if !x.is_finite() || !v.is_finite() {
                stats.nan += 1;
                continue;
            }
            if !self.domain.contains(x) {
                stats.escaped += 1;
            }
            stats.max_speed = stats.max_speed.max(v.length());
            stats.kinetic_energy += 0.5 * p.mass[i] as f64 * v.length_squared() as f64;
        }
        stats
    }

    /// FNV-1a hash of every particle's position and velocity bits, in id order.
    pub fn checksum(&self) -> u64 {
        let p = &self.particles;
        let mut by_id: Vec<usize> = (0..p.len()).collect();
        by_id.sort_unstable_by_key(|&i| p.id[i]);
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for i in by_id {
            for value in [
                p.position[i].x,
                p.position[i].y,
                p.velocity[i].x,
                p.velocity[i].y,
            ] {
                for byte in value.to_bits().to_le_bytes() {
                    hash ^= byte as u64;
                    hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
                }
            }
        }
        hash
    }
}

/// The advance of one particle: v += g dt, then x += v dt (`gravity_step` is g dt).
#[inline(always)]
fn advance(position: &mut Vec2, velocity: &mut Vec2, gravity_step: Vec2, dt: f32) {
    *velocity += gravity_step;
    *position += *velocity * dt;
}

/// Velocity after touching a surface with unit `normal`: the part into the surface is removed
/// and, with Coulomb friction, the sliding part shrinks by at most `friction` × the removed part
/// (without ever reversing). Sliding without pressing on the surface is not slowed.
pub(crate) fn collide(velocity: Vec2, normal: Vec2, friction: f32) -> Vec2 {
    let normal_speed = velocity.dot(normal);
    if normal_speed >= 0.0 {
        return velocity;
    }
    let sliding = velocity - normal * normal_speed;
    let sliding_speed = sliding.length();
    if sliding_speed <= 0.0 {
        return Vec2::ZERO;
    }
    sliding * (1.0 - friction * -normal_speed / sliding_speed).max(0.0)
}

/// A direction for two particles at the same spot, opposite for the two of the pair, chosen from
/// their ids so that it is deterministic.
fn coincident_direction(id_i: u32, id_j: u32) -> Vec2 {
    let (low, high) = (id_i.min(id_j), id_i.max(id_j));
    let mixed = (low as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ (high as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    let angle = (mixed >> 40) as f32 * (std::f32::consts::TAU / (1u64 << 24) as f32);
    let direction = Vec2::from_angle(angle);
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
    fn collision_removes_the_velocity_into_the_wall() {
        let v = collide(Vec2::new(0.0, -3.0), Vec2::Y, 0.5);
        assert_eq!(v, Vec2::ZERO);
        let v = collide(Vec2::new(2.0, -1.0), Vec2::Y, 0.0);
        assert_eq!(v, Vec2::new(2.0, 0.0));
    }

    #[test]
    fn coulomb_friction_slows_sliding_by_the_pressing_speed_and_never_reverses_it() {
        let v = collide(Vec2::new(2.0, -1.0), Vec2::Y, 0.5);
        assert!((v - Vec2::new(1.5, 0.0)).length() < 1e-6, "{v}");
        let v = collide(Vec2::new(0.2, -10.0), Vec2::Y, 0.5);
        assert_eq!(v, Vec2::ZERO);
        let leaving = Vec2::new(3.0, 1.0);
        assert_eq!(collide(leaving, Vec2::Y, 0.5), leaving);
    }

    #[test]
    fn coincident_particles_get_opposite_directions() {
        let (a, b) = (coincident_direction(3, 9), coincident_direction(9, 3));
        assert!((a + b).length() < 1e-6);
        assert!((a.length() - 1.0).abs() < 1e-5);
    }
}
