//! Air and smoke on a grid, coupled with the particle liquid: the Eulerian fluid of the seed
//! texts (Stam 1999, "Stable Fluids"; Fedkiw, Stam and Jensen 2001, "Visual Simulation of
//! Smoke"; Bridson's "Fluid Simulation for Computer Graphics" for the MAC grid and the pressure
//! solve; Mick West 2008 for mass-conserving advection).
//!
//! One air step per frame (after the liquid's substeps), in this order:
//!
//! 1. **couple**: cells filled with liquid become moving solids with the liquid's velocity; hot
//!    or fuming materials heat the air and give off smoke at their surface, and what burned in
//!    the frame goes up as hot smoke (`coupling.rs`);
//! 2. **sources**: the scene's smoke and heat sources;
//! 3. **advect velocity** (semi-Lagrangian, `advect.rs`);
//! 4. **forces**: buoyancy and vorticity confinement (`forces.rs`);
//! 5. **project**: solid faces take the solids' velocity, then the pressure solve makes the
//!    velocity divergence-free (`projection.rs`, `pressure/`);
//! 6. **advect scalars**: smoke conservative or semi-Lagrangian, heat semi-Lagrangian; cooling;
//! 7. **drag**: the air pulls light spray particles along (`coupling.rs`).
//!
//! Every pass computes each face or cell from frozen inputs, or adds in a fixed order (the
//! accounting scatters run in bands that cannot reach one another, even bands then odd), so the
//! air is bit-identical at any thread count, like the particles. [`AirTimes`] has each stage's
//! wall-clock time.

mod advect;
mod coupling;
mod field;
mod forces;
pub mod pressure;
mod projection;
mod saved;
pub mod vapour;

use crate::sim::numerics::portable::Ordered;
pub use crate::sim::scene::air::{AirSettings, AirSource, ScalarAdvection};
use field::CELLS_PER_TASK;
pub use field::{bilinear, MacGrid};
pub use pressure::{Method, Report as SolveReport, Settings as SolverSettings};
pub use saved::AirState;

use super::stir::Stir;
use crate::sim::numerics::checksum::Fnv;
use crate::sim::numerics::clock::Instant;
use crate::sim::particles::Particles;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::Obstacle;
use crate::sim::scene::Scene;
use crate::sim::subsystems::{
    from_state, to_state, AfterFrame, FromScene, Restoring, SavedState, StateError, Subsystem,
};
use advect::Advection;
use coupling::Coupling;
use forces::{ForceConstants, Forces};
use glam::Vec2;
use projection::Projection;
use rayon::prelude::*;
use std::time::Duration;

/// What the last air step did.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AirStep {
    /// The pressure solve's iterations and relative residual.
    pub solve: SolveReport,
    /// Largest |divergence| over open cells after the projection, in 1/s.
    pub divergence_max: f32,
}

/// Wall-clock time spent in each stage of the air's steps, summed over all steps (for reports
/// and benchmarks; never part of a result).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct AirTimes {
    /// Liquid to air: moving solids, heat and fumes from the liquid (coupled scenes only).
    pub couple: Duration,
    /// The scene's sources.
    pub sources: Duration,
    /// Semi-Lagrangian advection of the face velocities.
    pub advect_velocity: Duration,
    /// Buoyancy and vorticity confinement.
    pub forces: Duration,
    /// Solid velocities, the pressure solve and the velocity update.
    pub project: Duration,
    /// Smoke and heat advection, cooling and speed clamping.
    pub advect_scalars: Duration,
    /// Air to liquid: drag on spray (coupled scenes only).
    pub drag: Duration,
}

impl AirTimes {
    /// All stages together.
    pub fn total(&self) -> Duration {
        self.couple
            + self.sources
            + self.advect_velocity
            + self.forces
            + self.project
            + self.advect_scalars
            + self.drag
    }
}

/// The air subsystem: a MAC grid over the walls' bounding box, stepped once per frame.
#[derive(Debug)]
pub struct Air {
    settings: AirSettings,
    grid: MacGrid,
    /// Cells inside a wall or an obstacle, fixed for the scene.
    static_solid: Vec<bool>,
    advection: Advection,
    forces: Forces,
    projection: Projection,
    coupling: Coupling,
    time: f32,
    steps: u64,
    iterations: u64,
    last: AirStep,
    times: AirTimes,
    /// The scene's boiling material, whose vapour the air carries (`None`: nothing boils).
    boiling: Option<vapour::Boiling>,
    /// True in scenes with heat: the liquid's surface takes the air's temperature.
    exchanges: bool,
    /// The open cells beside a wall with a temperature (within 1.5 cells of it), and that
    /// temperature: the air there is brought toward it at `AirSettings::heating`.
    plates: Vec<(usize, f32)>,
}

impl Clone for Air {
    fn clone(&self) -> Self {
        Self {
            settings: self.settings.clone(),
            grid: self.grid.clone(),
            static_solid: self.static_solid.clone(),
            advection: Advection::default(),
            forces: Forces::default(),
            projection: Projection::starting_from(
                self.grid.nx,
                self.grid.ny,
                self.projection.pressure.clone(),
            ),
            coupling: Coupling::default(),
            time: self.time,
            steps: self.steps,
            iterations: self.iterations,
            last: self.last,
            times: self.times,
            boiling: self.boiling,
            exchanges: self.exchanges,
            plates: self.plates.clone(),
        }
    }
}

impl Air {
    /// The air of a scene whose walls are `domain` and whose solids are `obstacles`.
    pub fn new(settings: AirSettings, domain: &Domain, obstacles: &[Obstacle]) -> Self {
        let (min, max) = (domain.min(), domain.max());
        let size = max - min;
        let nx = settings.columns.max(1);
        let dx = size.x / nx as f32;
        let ny = ((size.y / dx).ceil() as usize).max(1);
        let grid = MacGrid::new(nx, ny, dx, min);
        let mut air = Self {
            projection: Projection::new(nx, ny),
            settings,
            grid,
            static_solid: Vec::new(),
            advection: Advection::default(),
            forces: Forces::default(),
            coupling: Coupling::default(),
            time: 0.0,
            steps: 0,
            iterations: 0,
            last: AirStep::default(),
            times: AirTimes::default(),
            boiling: None,
            exchanges: false,
            plates: Vec::new(),
        };
        air.set_solids(domain, obstacles);
        air
    }

    /// The air of `scene`: its settings, walls and obstacles, the material whose vapour it
    /// carries and whether the liquid's surface exchanges heat with it (both in scenes with
    /// heat only).
    pub fn of_scene(scene: &Scene) -> Option<Self> {
        let mut air = Air::new(scene.air.clone()?, &scene.domain, &scene.obstacles);
        air.take_heat(
            crate::sim::subsystems::heat::Heat::new(scene).is_some(),
            &scene.materials,
        );
        air.plates_of(&scene.domain);
        Some(air)
    }

    /// The air of `settings` joining a running world of `domain`, `obstacles` and `materials`,
    /// with heat or without: the air `of_scene` builds for that world's scene.
    pub fn joining(
        settings: AirSettings,
        domain: &Domain,
        obstacles: &[Obstacle],
        materials: &[crate::sim::scene::Material],
        heat: bool,
    ) -> Self {
        let mut air = Air::new(settings, domain, obstacles);
        air.take_heat(heat, materials);
        air.plates_of(domain);
        air
    }

    /// Whether the world has heat, and its `materials`: with heat the liquid's surface exchanges
    /// it with the air, and the air carries the vapour of the material that boils. A material
    /// boils only in a scene with heat: nothing else brings it to the boil.
    pub fn take_heat(&mut self, heat: bool, materials: &[crate::sim::scene::Material]) {
        self.exchanges = heat;
        self.boiling = vapour::Boiling::of(materials).filter(|_| heat);
    }

    /// The cells beside a wall with a temperature, which it keeps at that temperature.
    fn plates_of(&mut self, domain: &Domain) {
        let grid = &self.grid;
        let plates = &mut self.plates;
        let solid = &self.static_solid;
        for wall in domain.walls() {
            let Some(temperature) = wall.temperature else {
                continue;
            };
            for j in 0..grid.ny {
                for i in 0..grid.nx {
                    let c = grid.cell(i, j);
                    let beside = wall.distance(grid.cell_centre(i, j)) < 1.5 * grid.dx;
                    if beside && !solid[c] {
                        plates.push((c, temperature));
                    }
                }
            }
        }
    }

    /// Takes the boiling material of `materials` (changed at run time: its boiling point moved).
    pub fn set_materials(&mut self, materials: &[crate::sim::scene::Material]) {
        let boiling = vapour::Boiling::of(materials);
        // A scene whose air carried no vapour keeps carrying none (its checksum stays).
        if self.boiling.is_some() {
            self.boiling = boiling;
        }
    }

    /// True when a material of the scene boils: then the air carries its vapour.
    pub fn boils(&self) -> bool {
        self.boiling.is_some()
    }

    /// The vapour's total mass on the grid.
    pub fn vapour_total(&self) -> f64 {
        vapour::total(&self.grid)
    }

    /// Marks the cells outside the walls or inside an obstacle as solid (at the start, and when
    /// the person draws or removes an obstacle); the air in newly solid cells stops.
    pub fn set_solids(&mut self, domain: &Domain, obstacles: &[Obstacle]) {
        let grid = &mut self.grid;
        let mut static_solid = vec![false; grid.nx * grid.ny];
        for j in 0..grid.ny {
            for i in 0..grid.nx {
                let centre = grid.cell_centre(i, j);
                let inside_obstacle = obstacles.iter().any(|o| o.distance(centre) < 0.0);
                static_solid[grid.cell(i, j)] = !domain.contains(centre) || inside_obstacle;
            }
        }
        grid.solid.clone_from(&static_solid);
        grid.apply_solid_velocities();
        self.static_solid = static_solid;
    }

    /// The grid (velocities, smoke, temperature, solids), for drawing and reports.
    pub fn grid(&self) -> &MacGrid {
        &self.grid
    }

    /// The grid, to set fields directly (tests, tools).
    pub fn grid_mut(&mut self) -> &mut MacGrid {
        &mut self.grid
    }

    /// The constants it runs with.
    pub fn settings(&self) -> &AirSettings {
        &self.settings
    }

    /// What the last step did.
    pub fn last_step(&self) -> AirStep {
        self.last
    }

    /// Steps taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }

    /// Simulated seconds the air has been stepped (its sources open and close by it).
    pub fn time(&self) -> f32 {
        self.time
    }

    /// The pressure of the last projection, per cell: the next solve starts from it.
    pub fn pressure(&self) -> &[f32] {
        &self.projection.pressure
    }

    /// Continues from a saved state (snapshots): the next solve starts from `pressure` (nx × ny,
    /// checked by the caller), and the clock and counters are set.
    pub(crate) fn restore(
        &mut self,
        pressure: Vec<f32>,
        time: f32,
        steps: u64,
        iterations: u64,
        last: AirStep,
    ) {
        self.projection.pressure = pressure;
        self.time = time;
        self.steps = steps;
        self.iterations = iterations;
        self.last = last;
    }

    /// Pressure-solver iterations over all steps.
    pub fn solver_iterations(&self) -> u64 {
        self.iterations
    }

    /// Wall-clock time spent stepping, in total.
    pub fn elapsed(&self) -> Duration {
        self.times.total()
    }

    /// Wall-clock time spent in each stage, summed over all steps.
    pub fn stage_times(&self) -> AirTimes {
        self.times
    }

    /// One step of `dt` seconds of the air alone (no liquid), with `up` the unit vector against
    /// gravity (the direction hot air rises).
    pub fn step(&mut self, dt: f32, up: Vec2) {
        self.grid.solid.clone_from(&self.static_solid);
        self.grid.solid_velocity.fill(Vec2::ZERO);
        self.advance(dt, up);
    }

    /// Steps 2 to 6 of the module's list, with the solids already set for this step.
    fn advance(&mut self, dt: f32, up: Vec2) {
        let s = &self.settings;
        let mut clock = Instant::now();
        let mut lap = |stage: &mut Duration| {
            let now = Instant::now();
            *stage += now - clock;
            clock = now;
        };
        let times = &mut self.times;
        add_sources(&mut self.grid, &s.sources, self.time, dt);
        let approach = 1.0 - crate::sim::numerics::portable::exp(-s.heating * dt);
        for &(c, temperature) in &self.plates {
            let t = &mut self.grid.temperature[c];
            *t += (temperature - *t) * approach;
        }
        lap(&mut times.sources);
        self.advection.velocities(&mut self.grid, dt);
        lap(&mut times.advect_velocity);
        let constants = ForceConstants {
            smoke_weight: s.smoke_weight,
            heat_lift: s.heat_lift,
            vorticity: s.vorticity,
            up,
        };
        self.forces.apply(&mut self.grid, constants, dt);
        lap(&mut times.forces);
        self.grid.apply_solid_velocities();
        let solve = self
            .projection
            .project(&mut self.grid, dt, s.density, s.solver_settings());
        lap(&mut times.project);
        let mut smoke = std::mem::take(&mut self.grid.smoke);
        let mut heat = std::mem::take(&mut self.grid.temperature);
        self.advection
            .scalars(&self.grid, &mut smoke, &mut heat, dt, s.advection);
        forces::decay(&mut smoke, s.smoke_decay, dt);
        forces::decay(&mut heat, s.cooling, dt);
        self.grid.smoke = smoke;
        self.grid.temperature = heat;
        if self.boiling.is_some() {
            let mut vapour = std::mem::take(&mut self.grid.vapour);
            let traced = s.advection == ScalarAdvection::Conservative;
            self.advection.carry(&self.grid, &mut vapour, dt, traced);
            self.grid.vapour = vapour;
        }
        clamp_speeds(&mut self.grid);
        self.last = AirStep {
            solve,
            divergence_max: self.grid.divergence_max(),
        };
        lap(&mut times.advect_scalars);
        self.time += dt;
        self.steps += 1;
        self.iterations += u64::from(solve.iterations);
    }

    /// Blends the air's velocity near `stir.position` toward `stir.velocity`, with the same
    /// fall-off as the particles' stir.
    pub fn stir(&mut self, stir: &Stir) {
        let usable = stir.radius.is_finite() && stir.radius > 0.0;
        if !usable || !stir.position.is_finite() || !stir.velocity.is_finite() {
            return;
        }
        self.blend_faces(stir.position, stir.radius, |_, weight| {
            (stir.velocity, weight)
        });
    }

    /// Draws the air near `centre` toward it, like the particles' pull: `speed` at the rim.
    pub fn pull(&mut self, centre: Vec2, radius: f32, speed: f32) {
        let usable = radius.is_finite() && radius > 0.0 && speed.is_finite();
        if !usable || !centre.is_finite() {
            return;
        }
        let gain = speed / radius;
        self.blend_faces(centre, radius, |at, weight| {
            ((centre - at) * gain, 0.5 * weight)
        });
    }

    /// Moves every face within `radius` of `centre` toward the velocity `target(face position,
    /// weight)` returns, by the weight it returns; weight (1 − q²)² with q the distance over the
    /// radius.
    fn blend_faces(
        &mut self,
        centre: Vec2,
        radius: f32,
        target: impl Fn(Vec2, f32) -> (Vec2, f32),
    ) {
        let grid = &mut self.grid;
        let inverse_r2 = 1.0 / (radius * radius);
        let (nx, ny, dx, origin) = (grid.nx, grid.ny, grid.dx, grid.origin);
        for j in 0..ny {
            for i in 0..=nx {
                let at = origin + dx * Vec2::new(i as f32, j as f32 + 0.5);
                let q2 = (at - centre).length_squared() * inverse_r2;
                if q2 < 1.0 {
                    let (velocity, weight) = target(at, (1.0 - q2) * (1.0 - q2));
                    let face = &mut grid.u[i + (nx + 1) * j];
                    *face += (velocity.x - *face) * weight;
                }
            }
        }
        for j in 0..=ny {
            for i in 0..nx {
                let at = origin + dx * Vec2::new(i as f32 + 0.5, j as f32);
                let q2 = (at - centre).length_squared() * inverse_r2;
                if q2 < 1.0 {
                    let (velocity, weight) = target(at, (1.0 - q2) * (1.0 - q2));
                    let face = &mut grid.v[i + nx * j];
                    *face += (velocity.y - *face) * weight;
                }
            }
        }
        grid.apply_solid_velocities();
    }

    /// FNV-1a hash of the grid's velocity, smoke and temperature bits.
    pub fn checksum(&self) -> u64 {
        let mut hash = Fnv::new();
        let g = &self.grid;
        for &x in g.u.iter().chain(&g.v).chain(&g.smoke).chain(&g.temperature) {
            hash.f32(x);
        }
        // Only scenes where something boils have vapour (the others keep their checksums).
        if self.boiling.is_some() {
            for &x in g.vapour.iter().chain(&g.dew) {
                hash.f32(x);
            }
        }
        hash.finish()
    }
}

/// Fastest the air may move, in m/s: a guard against runaway sources or stirs (the liquid's own
/// speeds stay far below it), so nothing can grow without bound.
pub use crate::sim::scene::ranges::MAX_AIR_SPEED;

/// Clamps every face velocity to ±`MAX_AIR_SPEED` and clears anything not finite.
fn clamp_speeds(grid: &mut MacGrid) {
    let speeds = grid.u.par_iter_mut().chain(grid.v.par_iter_mut());
    speeds.with_min_len(CELLS_PER_TASK).for_each(|x| {
        *x = if x.is_finite() {
            x.clamp(-MAX_AIR_SPEED, MAX_AIR_SPEED)
        } else {
            0.0
        };
    });
    let scalars = grid
        .smoke
        .par_iter_mut()
        .chain(grid.temperature.par_iter_mut());
    scalars.with_min_len(CELLS_PER_TASK).for_each(|x| {
        if !x.is_finite() {
            *x = 0.0;
        }
    });
}

/// Adds each open source's smoke, heat and velocity to the open cells and faces of its disc.
fn add_sources(grid: &mut MacGrid, sources: &[AirSource], time: f32, dt: f32) {
    for source in sources {
        let open = time >= source.start && time < source.start + source.duration;
        if !open {
            continue;
        }
        let r2 = source.radius * source.radius;
        // The cells whose centres may lie in the disc: its bounding box, a cell wider all round.
        let span = |centre: f32, origin: f32, cells: usize| {
            let low = (centre - source.radius - origin) / grid.dx - 1.5;
            let high = (centre + source.radius - origin) / grid.dx + 1.5;
            // Saturating casts: a NaN or negative end gives 0, a huge one the grid's size.
            (low.at_least(0.0) as usize).min(cells)..(high.at_least(0.0) as usize).min(cells)
        };
        let columns = span(source.position.x, grid.origin.x, grid.nx);
        for j in span(source.position.y, grid.origin.y, grid.ny) {
            for i in columns.clone() {
                let c = grid.cell(i, j);
                if grid.solid[c] || (grid.cell_centre(i, j) - source.position).length_squared() > r2
                {
                    continue;
                }
                grid.smoke[c] += source.smoke * dt;
                if source.temperature != 0.0 {
                    grid.temperature[c] = grid.temperature[c].at_least(source.temperature);
                }
                if source.velocity != Vec2::ZERO {
                    let (left, right) = (grid.u_face(i, j), grid.u_face(i + 1, j));
                    let (below, above) = (grid.v_face(i, j), grid.v_face(i, j + 1));
                    grid.u[left] = source.velocity.x;
                    grid.u[right] = source.velocity.x;
                    grid.v[below] = source.velocity.y;
                    grid.v[above] = source.velocity.y;
                }
            }
        }
    }
}

impl FromScene for Option<Air> {
    fn from_scene(scene: &Scene) -> Self {
        Air::of_scene(scene)
    }
}

impl Subsystem for Air {
    fn name(&self) -> &'static str {
        "air"
    }

    fn save(&self, _particles: &Particles) -> Option<SavedState> {
        Some(to_state(&self.saved()))
    }

    fn restore(&mut self, state: SavedState, _restoring: &Restoring) -> Result<(), StateError> {
        self.restore_saved(from_state(&state)?)
    }

    fn checksum(&self, _particles: &Particles) -> Option<u64> {
        Some(Air::checksum(self))
    }

    fn is_active(&self) -> bool {
        true
    }

    fn after_frame(&mut self, frame: &mut AfterFrame) {
        let up = (-frame.params.gravity).normalize_or_zero();
        let clock = Instant::now();
        if let Some(boiling) = &self.boiling {
            vapour::boil_off(&mut self.grid, frame, boiling);
            vapour::out_of_the_liquid(&mut self.grid, &self.static_solid);
        }
        self.coupling.liquid_to_air(
            &mut self.grid,
            &self.static_solid,
            frame.particles,
            frame.materials,
            frame.params,
            &self.settings,
            frame.dt,
        );
        coupling::take_fumes(&mut self.grid, &frame.fumes);
        if self.exchanges {
            frame.books.air += coupling::exchange_at_surface(
                &self.grid,
                frame.particles,
                frame.materials,
                self.settings.surface_exchange,
                frame.dt,
            );
        }
        self.times.couple += clock.elapsed();
        self.advance(frame.dt, up);
        if let Some(boiling) = &self.boiling {
            let condensation = self.settings.condensation;
            vapour::condense(&mut self.grid, frame, boiling, condensation, frame.dt);
        }
        let clock = Instant::now();
        coupling::drag_spray(
            &self.grid,
            frame.particles,
            frame.params,
            self.settings.drag,
            frame.dt,
        );
        self.times.drag += clock.elapsed();
    }

    fn stir(&mut self, stir: &Stir) {
        Air::stir(self, stir);
    }

    fn pull(&mut self, centre: Vec2, radius: f32, speed: f32) {
        Air::pull(self, centre, radius, speed);
    }
}
