//! The world: all simulation state and one `step_frame()`.
//!
//! A substep is the list of its stages, in the seed's order (`docs/ARCHITECTURE.md`): emit,
//! advance, grid, density, relax, springs (the subsystems' displacements), move (contacts and
//! walls). Each stage is one call into the module that owns it; every parallel stage computes
//! each particle (or each band of pairs) from frozen inputs in a fixed order, so results are
//! bit-identical at any thread count.

mod bodies;
mod coupled_step;
mod edit;
mod events;
mod forces;
mod query;
mod random_stir;
mod state;

pub use crate::sim::stages::coupling::{Coupled, Coupling, Substep, Taken};
pub use edit::{Arrival, EditError, Pour, Poured, MAX_HEAT_RATE};
#[cfg(feature = "sound")]
pub(crate) use events::Watcher;
pub use events::{
    Event, Flow, FrameEvents, Impact, Knock, Sensor, HOT, IMPACT_ACCELERATION, IMPACT_BINS,
    KNOCK_SPEED, MAX_QUEUED,
};
pub use forces::Push;
pub use random_stir::RandomStirrer;
pub use state::{EmitterProgress, ParticleState, WorldState};

use super::scene::{Emitter, Material, Obstacle, Scene};
use crate::sim::numerics::checksum;
use crate::sim::numerics::clock::Instant;
use crate::sim::numerics::portable::Ordered;
use crate::sim::numerics::LIGHT_CHUNK;
use crate::sim::particles::{Births, MaterialStats, Particles, WorldStats};
use crate::sim::physics::{self, PressureScales};
use crate::sim::queries::index::QueryCache;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::params::SimParams;
use crate::sim::stages::emission::Emission;
use crate::sim::stages::grid::Bounds;
use crate::sim::stages::liquid::{contrast_substep_factor, Liquid};
use crate::sim::stages::motion::{advance_from, move_and_collide, MoveConstants};
use crate::sim::stages::neighbours::{Folding, LaneUse, Neighbours};
use crate::sim::stages::stability;
use crate::sim::stages::wall_density::WallDensity;
use crate::sim::subsystems::air::Air;
use crate::sim::subsystems::heat::{self, HeatBooks, HeatTotals};
use crate::sim::subsystems::registry::{Subsystems, SUBSYSTEMS};
use crate::sim::subsystems::springs::SpringCounts;
use crate::sim::subsystems::stir::{self, Stir};
use crate::sim::subsystems::{AfterFrame, Diffusion, Frozen};
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use rayon::prelude::*;
use std::time::Duration;

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
    /// Move, velocity, obstacles and walls.
    pub walls: Duration,
    /// The coupling with bodies: the scene's rigid bodies' step (rapier's) and the game's
    /// bodies' moves, then the particles out of them (zero without bodies).
    pub couple: Duration,
    /// Each subsystem's substep hooks, keyed by its name, in registration order: the springs'
    /// displacements, the heat's pairs (zero where the scene has none).
    pub subsystems: [(&'static str, Duration); SUBSYSTEMS],
}

impl StageTimes {
    /// Each stage's name (as the headless report writes it) and time: the liquid's stages in
    /// substep order, then each subsystem's by its name.
    pub fn named(&self) -> Vec<(&'static str, Duration)> {
        let liquid = [
            ("emit", self.emit),
            ("advance", self.advance),
            ("grid", self.grid),
            ("density", self.density),
            ("relax", self.relax),
            ("walls", self.walls),
            ("couple", self.couple),
        ];
        liquid.into_iter().chain(self.subsystems).collect()
    }

    /// The time of the subsystem called `name` (zero for a name no subsystem has).
    pub fn subsystem(&self, name: &str) -> Duration {
        let found = self.subsystems.iter().find(|(key, _)| *key == name);
        found.map_or(Duration::ZERO, |(_, time)| *time)
    }
}

/// How the last frame was stepped: its substep count and how many particle moves were capped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FrameReport {
    /// Substeps the frame took (more than configured when particles were fast).
    pub substeps: u32,
    /// Particle moves capped at `cfl × h` during the frame (0 in a calm scene).
    pub capped: usize,
}

/// Owns all simulation state; `step_frame()` advances it by one frame of substeps.
#[derive(Clone, Debug)]
pub struct World {
    params: SimParams,
    materials: Vec<Material>,
    /// The materials' constants as the neighbour stages read them.
    liquid: Liquid,
    domain: Domain,
    /// The liquid the walls stand for, in the density and relaxation stages.
    wall_density: WallDensity,
    emission: Emission,
    particles: Particles,
    neighbours: Neighbours,
    subsystems: Subsystems,
    rng: Pcg32,
    births: Births,
    substeps_done: u64,
    /// Simulated seconds since the world was made.
    time: f64,
    /// Length of the current substep (the configured dt unless the frame needed more substeps).
    dt: f32,
    last_frame: FrameReport,
    times: StageTimes,
    /// The substeps per frame the scene gives (after the mass ratio's, `World::new`): what the
    /// world runs when no value asks for more.
    own_substeps: u32,
    /// The fields whose values make the world run more substeps per frame than `own_substeps`,
    /// with the substeps each needs (`stability::substeps_needed`); empty for a calm scene.
    stability_substeps: Vec<(&'static str, u32)>,
    /// What the processes that bring or take heat have moved (not kept by snapshots: a world
    /// reopened starts its books again).
    heat_books: HeatBooks,
    /// The particles sorted for the queries (`query.rs`), stale from any step or edit that
    /// moves, adds or removes particles until the next query.
    queries: QueryCache,
    /// The pressure that the equation of state's P and P_near stand for (the queries').
    pressure_scales: PressureScales,
    /// Particles per area of the liquid at rest.
    rest_per_area: f32,
    /// The events found after each frame, while recording, and the sensors (`events/`).
    events: events::Events,
    /// The scene's rigid bodies of the substep being run (`stages/coupling.rs`), kept for their
    /// buffers.
    scene_coupling: crate::sim::stages::coupling::CouplingFrame,
    /// The game's bodies of the substep being run, kept for their buffers.
    coupling: crate::sim::stages::coupling::CouplingFrame,
}

impl World {
    /// A world with `scene`; its blocks are filled now (up to the particle cap), leaving empty the
    /// sites a solid takes up. `seed` drives the blocks' and the emitters' jitter.
    /// ```
    /// use slosh::sim::World;
    ///
    /// let scene = slosh::preset::Preset::load("dam")?.scene;
    /// let world = World::new(scene.clone(), 7);
    /// assert!(world.particles().len() > 1000, "the reservoir is filled");
    /// assert_eq!(world.time(), 0.0);
    /// assert_eq!(World::new(scene, 7).checksum(), world.checksum(), "the same seed, the same bits");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn new(scene: Scene, seed: u64) -> Self {
        let contrast = contrast_substep_factor(&scene.materials);
        let mut scene = scene.with_substeps(scene.params.substeps * contrast);
        let own_substeps = scene.params.substeps;
        // Values that would make the liquid boil at these substeps take the substeps they need.
        let stability_substeps =
            stability::substeps_needed(&scene.params, &scene.materials, own_substeps);
        if let Some(&(_, needed)) = stability_substeps.first() {
            scene = scene.with_substeps(needed.min(stability::MAX_STABILITY_SUBSTEPS));
        }
        let blocks = std::mem::take(&mut scene.blocks);
        let emission = Emission::new(std::mem::take(&mut scene.emitters));
        let mut world = Self::assembled(scene, Pcg32::seed_from_u64(seed), emission);
        world.own_substeps = own_substeps;
        world.stability_substeps = stability_substeps;
        for block in &blocks {
            let jitter = 0.01 * block.spacing;
            for position in block.positions() {
                if world.subsystems.occupies(position) {
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

    /// A world of `scene` with no particles yet, every subsystem built from the scene, at the
    /// start of its clock: what `new` fills and a snapshot restores into.
    fn assembled(scene: Scene, rng: Pcg32, emission: Emission) -> Self {
        let subsystems = Subsystems::new(&scene);
        let (h, rest_density) = (scene.params.interaction_radius, scene.params.rest_density);
        let Scene {
            params,
            materials,
            domain,
            ..
        } = scene;
        Self {
            births: Births::new(params.max_particles),
            liquid: Liquid::new(&materials, &params),
            subsystems,
            neighbours: Neighbours::new(
                domain.min(),
                domain.max(),
                params.interaction_radius,
                params.max_particles,
            ),
            emission,
            dt: params.dt(),
            wall_density: wall_density(&domain, &params),
            own_substeps: params.substeps,
            params,
            materials,
            domain,
            particles: Particles::default(),
            rng,
            substeps_done: 0,
            time: 0.0,
            last_frame: FrameReport::default(),
            times: StageTimes::default(),
            stability_substeps: Vec::new(),
            heat_books: HeatBooks::default(),
            queries: QueryCache::default(),
            pressure_scales: physics::pressure_scales(h, rest_density),
            rest_per_area: physics::rest_particles_per_area(h, rest_density),
            events: events::Events::default(),
            scene_coupling: crate::sim::stages::coupling::CouplingFrame::default(),
            coupling: crate::sim::stages::coupling::CouplingFrame::default(),
        }
    }

    /// The fields whose values make this world run more substeps per frame than its scene gives,
    /// each with the substeps it needs, largest first (`stability::substeps_needed`); empty when
    /// the scene is calm at its own substeps. A world restored from a snapshot counts the
    /// substeps it was saved with as its own, and lists none until an edit asks for more.
    pub fn stability_substeps(&self) -> &[(&'static str, u32)] {
        &self.stability_substeps
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
        self.emission.emitters()
    }

    /// The static obstacles (circles and capsules) besides the walls, for drawing and tests.
    pub fn obstacles(&self) -> &[Obstacle] {
        self.subsystems.contacts.obstacles()
    }

    /// How many viscoelastic springs there are (none without springs).
    pub fn spring_counts(&self) -> SpringCounts {
        self.subsystems.springs.counts()
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
        self.births.cap_reached()
    }

    /// True when every emitter has used its budget (or the cap stopped it).
    pub fn emission_finished(&self) -> bool {
        self.cap_reached() || self.emission.spent()
    }

    /// Time spent per stage so far.
    pub fn stage_times(&self) -> StageTimes {
        StageTimes {
            subsystems: self.subsystems.times(),
            ..self.times
        }
    }

    /// Advances one frame (1 / `frame_rate` simulated seconds) in `params.substeps` substeps, or
    /// in more, up to `params.max_substeps`, when the fastest particle would otherwise travel
    /// more than `cfl × h` in one substep. Past that ceiling each substep caps the travel.
    /// ```
    /// let mut world = slosh::preset::Preset::load("seed")?.build_world(1);
    /// for _ in 0..20 {
    ///     world.step_frame();
    /// }
    /// assert!((world.time() - 1.0).abs() < 1e-6, "20 frames are a simulated second");
    /// assert_eq!(world.stats().nan, 0);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn step_frame(&mut self) {
        self.step_frame_with(&mut ());
    }

    /// `step_frame`, with the game's bodies `game` (`stages/coupling.rs`).
    fn run_frame(&mut self, game: &mut impl Coupling) {
        self.queries.invalidate();
        let params = &self.params;
        let max_speed = self
            .particles
            .velocity
            .par_iter()
            .with_min_len(LIGHT_CHUNK)
            .map(|v| v.length())
            .reduce(|| 0.0, crate::sim::numerics::portable::max)
            .at_least(self.subsystems.max_speed());
        let frame_time = 1.0 / params.frame_rate;
        let reach = params.cfl * params.interaction_radius;
        let needed = (max_speed * frame_time / reach).ceil();
        let substeps = if needed > params.substeps as f32 {
            (needed.at_most(params.max_substeps as f32)) as u32
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
            advanced = self.run_substep(game, advanced, step < substeps, step == substeps);
        }
        self.subsystems.after_frame(&mut AfterFrame {
            particles: &mut self.particles,
            materials: &self.materials,
            params: &self.params,
            dt: frame_time,
            births: &mut self.births,
            rng: &mut self.rng,
            fumes: Vec::new(),
            books: &mut self.heat_books,
            offsets: Vec::new(),
        });
        self.find_events();
    }

    /// Advances one substep (of the configured dt, or of the shorter one the last frame chose):
    /// for tests and benches that look inside a frame; a game steps whole frames.
    #[doc(hidden)]
    pub fn substep(&mut self) {
        self.queries.invalidate();
        self.run_substep(&mut (), None, false, true);
    }

    /// One substep, as the list of its stages, with the game's bodies `game`. `advanced`: the
    /// particles already had this substep's advance (from the last substep's move), and these
    /// are their bounds. With `advance_next` the move also does the next substep's advance and
    /// returns the bounds for it, unless bodies must meet the particles where they moved. The
    /// arithmetic is the same either way, so fused or not, the results are identical.
    fn run_substep(
        &mut self,
        game: &mut impl Coupling,
        advanced: Option<Bounds>,
        advance_next: bool,
        last_of_frame: bool,
    ) -> Option<Bounds> {
        let mut clock = Instant::now();
        let mut lap = |slot: &mut Duration| {
            let now = Instant::now();
            *slot += now - clock;
            clock = now;
        };
        self.start_coupling(game);
        lap(&mut self.times.couple);
        let advance_next = advance_next && !self.coupled();
        let emitted_from = self.particles.len();
        self.emit();
        lap(&mut self.times.emit);
        let bounds = match advanced {
            // Only the particles just emitted still need it.
            Some(bounds) => bounds.union(self.advance(emitted_from)),
            None => self.advance(0),
        };
        lap(&mut self.times.advance);
        self.sort_into_grid_within(bounds);
        lap(&mut self.times.grid);
        // The subsystems time their own hooks, by name (`Subsystems::times`).
        let mut hooks = Duration::ZERO;
        let diffusing = self.set_diffusion();
        lap(&mut hooks);
        self.compute_densities();
        lap(&mut self.times.density);
        if diffusing {
            self.take_diffusion();
        }
        lap(&mut hooks);
        self.relax();
        lap(&mut self.times.relax);
        self.displace_by_subsystems(last_of_frame);
        lap(&mut hooks);
        let next_bounds = self.move_and_collide(advance_next);
        lap(&mut self.times.walls);
        self.couple(game);
        lap(&mut self.times.couple);
        self.substeps_done += 1;
        self.time += self.dt as f64;
        advance_next.then_some(next_bounds)
    }

    /// Adds one particle at `position` (clamped into the walls) unless the cap is reached;
    /// returns whether it was added.
    fn spawn(&mut self, material: usize, position: Vec2, velocity: Vec2) -> bool {
        let made = &self.materials[material];
        let made = (made.mass, made.temperature);
        let position = self.domain.clamp(position);
        self.queries.invalidate();
        (self.births).spawn(&mut self.particles, material, made, position, velocity)
    }

    /// The emit stage: the rows that are due.
    fn emit(&mut self) {
        let (particles, births) = (&mut self.particles, &mut self.births);
        let (domain, materials) = (&self.domain, &self.materials);
        self.emission.emit(
            self.time,
            self.params.particle_radius,
            &mut self.rng,
            |material, position, velocity| {
                let made = (materials[material].mass, materials[material].temperature);
                births.spawn(particles, material, made, domain.clamp(position), velocity)
            },
        );
    }

    /// The advance stage for the particles from `first` on; returns the bounds of their new
    /// positions.
    fn advance(&mut self, first: usize) -> Bounds {
        advance_from(&mut self.particles, first, self.params.gravity, self.dt)
    }

    /// The folded factors of this substep.
    fn folding(&self) -> Folding {
        Folding::new(self.params.interaction_radius, self.dt)
    }

    /// The grid stage: rebuilds the grid and reorders every particle array into cell order
    /// (public for the stage benches, `benches/engine.rs`; hidden from the documentation).
    #[doc(hidden)]
    pub fn sort_into_grid(&mut self) {
        self.queries.invalidate();
        self.sort_into_grid_within(Bounds::of(&self.particles.position));
    }

    /// `sort_into_grid`, given the bounds of the positions.
    fn sort_into_grid_within(&mut self, bounds: Bounds) {
        let folding = self.folding();
        self.neighbours.sort(
            &mut self.particles,
            bounds,
            self.params.interaction_radius,
            &self.liquid,
            &folding,
        );
    }

    /// The density stage: densities and pressures of every particle. Needs a current grid
    /// (public for the stage benches; hidden from the documentation).
    #[doc(hidden)]
    pub fn compute_densities(&mut self) {
        let folding = self.folding();
        self.neighbours.densities(
            &mut self.particles,
            self.params.interaction_radius,
            self.params.rest_density,
            &self.liquid,
            &self.wall_density,
            &folding,
        );
    }

    /// The relaxation stage: pressure, tension and viscosity as a displacement. Needs current
    /// densities, i.e. a `compute_densities` since the last grid build (public for the stage
    /// benches; hidden from the documentation).
    #[doc(hidden)]
    pub fn relax(&mut self) {
        let folding = self.folding();
        self.neighbours.relax(
            &self.particles.id,
            self.params.interaction_radius,
            &self.liquid,
            &self.wall_density,
            &folding,
        );
    }

    /// Before the density stage: the subsystem that diffuses a value along the pairs (the heat)
    /// sets its lanes, and the density stage then runs the exchange fused; returns whether it
    /// did.
    fn set_diffusion(&mut self) -> bool {
        let mut diffusion = Diffusion::new(&mut self.neighbours, &self.params, self.dt);
        self.subsystems.diffusion(&self.particles, &mut diffusion);
        diffusion.is_set()
    }

    /// After the density stage: the subsystem that set the diffusion takes its exchange.
    fn take_diffusion(&mut self) {
        let mut diffusion = Diffusion::new(&mut self.neighbours, &self.params, self.dt);
        self.subsystems
            .diffused(&mut self.particles, &mut diffusion);
    }

    /// The springs stage: the active subsystems add their displacements to the relaxation's
    /// (and, in the frame's last substep, note its pairs for the frame's end).
    fn displace_by_subsystems(&mut self, last_of_frame: bool) {
        let (grid, displacement) = self.neighbours.grid_and_displacement();
        let frozen = Frozen {
            particles: &self.particles,
            grid,
            h: self.params.interaction_radius,
            dt: self.dt,
            gravity: self.params.gravity,
            liquid: &self.liquid,
        };
        self.subsystems
            .displace(&frozen, displacement, last_of_frame);
    }

    /// The move stage (see `motion::move_and_collide`); returns the bounds of the positions.
    fn move_and_collide(&mut self, advance_next: bool) -> Bounds {
        let constants = MoveConstants {
            dt: self.dt,
            gravity: self.params.gravity,
            reach: self.params.cfl * self.params.interaction_radius,
            wall_friction: self.params.wall_friction,
        };
        let (capped, bounds) = move_and_collide(
            &mut self.particles,
            self.neighbours.displacement(),
            &self.domain,
            self.subsystems.touching(),
            constants,
            advance_next,
        );
        self.last_frame.capped += capped;
        bounds
    }

    /// Blends the velocity of particles near `stir.position` toward `stir.velocity` (see
    /// `stir::stir`): never faster than the stir or the particle was.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Stir;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.stir(Stir { position: Vec2::new(2.0, 1.0), velocity: Vec2::new(3.0, 0.0), radius: 0.5 });
    /// let moving = world.sample(Vec2::new(2.0, 1.0)).unwrap().velocity;
    /// assert!(moving.x > 1.0, "{moving}");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn stir(&mut self, stir: Stir) {
        stir::stir(&mut self.particles, stir);
        self.subsystems.stir(&stir);
    }

    /// Gathers particles within `radius` toward `centre` (the right mouse button): each is
    /// steered toward a velocity proportional to its distance from the centre, `speed` at the
    /// rim and zero at the centre, so the crowd gathers without crashing into itself.
    /// ```
    /// use glam::Vec2;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.pull(Vec2::new(2.0, 2.0), 1.0, 3.0);
    /// // Below the centre the liquid now moves up toward it.
    /// assert!(world.sample(Vec2::new(2.0, 1.3)).unwrap().velocity.y > 0.0);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn pull(&mut self, centre: Vec2, radius: f32, speed: f32) {
        stir::pull(&mut self.particles, centre, radius, speed);
        self.subsystems.pull(centre, radius, speed);
    }

    /// The air and smoke grid, in scenes that have one.
    /// ```
    /// let world = slosh::preset::Preset::load("fire")?.build_world(1);
    /// let air = world.air().expect("the fire scene has air");
    /// assert!(air.grid().nx > 0 && air.grid().ny > 0);
    /// assert!(slosh::preset::Preset::load("dam")?.build_world(1).air().is_none());
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn air(&self) -> Option<&Air> {
        self.subsystems.air.as_ref()
    }

    /// Blows the air near `wind.position` toward `wind.velocity` (as `stir` blends the
    /// particles, but the air alone: a wind a game raises); returns whether the world has air.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Stir;
    ///
    /// let wind = Stir { position: Vec2::new(3.0, 4.0), velocity: Vec2::new(5.0, 0.0), radius: 1.0 };
    /// let mut kettle = slosh::preset::Preset::load("kettle")?.build_world(1);
    /// assert!(kettle.blow(wind), "the kettle has air");
    /// let mut tank = slosh::preset::Preset::load("tank")?.build_world(1);
    /// assert!(!tank.blow(wind), "the tank has none");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn blow(&mut self, wind: Stir) -> bool {
        let air = self.subsystems.air.as_mut();
        air.map(|air| air.stir(&wind)).is_some()
    }

    /// Counts, extremes and energy of the current state.
    /// ```
    /// let mut world = slosh::preset::Preset::load("dam")?.build_world(1);
    /// world.step_frame();
    /// let stats = world.stats();
    /// assert_eq!((stats.nan, stats.escaped), (0, 0), "no NaN, none outside the walls");
    /// assert!(stats.max_speed > 0.0, "the water falls");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn stats(&self) -> WorldStats {
        self.particles.stats(&self.domain)
    }

    /// How full the pair loops' lanes were in the last substep: candidates, groups of eight and
    /// pairs within h per particle (a walk over every candidate: for reports).
    pub fn lane_use(&self) -> LaneUse {
        self.neighbours.lane_use(self.params.interaction_radius)
    }

    /// Count, centroid and top of each material's particles, in material order.
    /// ```
    /// let world = slosh::preset::Preset::load("dam")?.build_world(1);
    /// let stats = world.material_stats();
    /// assert_eq!(stats.len(), world.materials().len());
    /// let all: usize = stats.iter().map(|m| m.particles).sum();
    /// assert_eq!(all, world.particles().len());
    /// assert!(stats[0].top > 1.0, "the reservoir stands high");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn material_stats(&self) -> Vec<MaterialStats> {
        self.particles.material_stats(self.materials.len())
    }

    /// The particles' heat and extreme temperatures, in scenes with heat (`None` without).
    pub fn heat(&self) -> Option<HeatTotals> {
        self.subsystems
            .heat
            .as_ref()
            .map(|_| heat::totals(&self.particles, &self.materials))
    }

    /// The fraction of particle `id`'s fuel that has burned: 0 for one that never burned, or in
    /// a scene where nothing burns.
    pub fn burnt(&self, id: u32) -> f32 {
        self.subsystems
            .heat
            .as_ref()
            .map_or(0.0, |heat| heat.burnt(id))
    }

    /// The heat the processes that bring or take it by design have moved since the world was
    /// made (`HeatBooks`): the particles' heat (`heat()`) has changed by its total and, up to
    /// rounding, by what edits did; `None` in a world without heat.
    pub fn heat_books(&self) -> Option<HeatBooks> {
        self.subsystems.heat.as_ref().map(|_| self.heat_books)
    }

    /// The reactions between the world's materials, in the order they happen each frame (empty
    /// without heat).
    pub fn reactions(&self) -> &[crate::sim::scene::Reaction] {
        let heat = self.subsystems.heat.as_ref();
        heat.map_or(&[], |heat| heat.reactions())
    }

    /// How many times each of the scene's reactions has happened, by name, in the scene's order
    /// (empty without reactions).
    /// ```
    /// let mut world = slosh::preset::Preset::load("volcano")?.build_world(1);
    /// for _ in 0..60 {
    ///     world.step_frame();
    /// }
    /// let counts = world.reaction_counts();
    /// assert_eq!(counts.len(), world.reactions().len());
    /// assert!(counts.iter().any(|(_, n)| *n > 0), "lava meets the sea: {counts:?}");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn reaction_counts(&self) -> Vec<(&str, u64)> {
        let heat = self.subsystems.heat.as_ref();
        heat.map_or_else(Vec::new, |heat| heat.reaction_counts().collect())
    }

    /// The mean temperature of the particles whose centres are within `radius` of `point`
    /// (what a thermometer held there reads: the HUD's figure under the cursor); `None` where
    /// there are none, or for a point or radius that is not a finite number.
    /// ```
    /// use glam::Vec2;
    ///
    /// let world = slosh::preset::Preset::load("kettle")?.build_world(1);
    /// let water = world.temperature_near(Vec2::new(2.0, 0.5), 0.5).expect("water there");
    /// assert!(water < 100.0, "not boiling yet: {water}");
    /// assert_eq!(world.temperature_near(Vec2::new(2.0, 0.5), f32::NAN), None);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn temperature_near(&self, point: Vec2, radius: f32) -> Option<f32> {
        if !point.is_finite() || !radius.is_finite() {
            return None;
        }
        let reach = radius * radius;
        let p = &self.particles;
        let (sum, count) = p
            .position
            .iter()
            .zip(&p.temperature)
            .filter(|(x, _)| (**x - point).length_squared() <= reach)
            .fold((0.0_f64, 0_usize), |(sum, count), (_, &t)| {
                (sum + f64::from(t), count + 1)
            });
        (count > 0 && radius >= 0.0).then(|| (sum / count as f64) as f32)
    }

    /// FNV-1a hash of every particle's position and velocity bits, in id order: equal checksums
    /// mean bit-identical states.
    /// In scenes with air or bodies, their state is hashed in too; in scenes with heat, the
    /// particles' temperatures.
    /// ```
    /// let preset = slosh::preset::Preset::load("tank")?;
    /// let (mut a, mut b) = (preset.build_world(1), preset.build_world(1));
    /// for _ in 0..5 {
    ///     a.step_frame();
    ///     b.step_frame();
    /// }
    /// assert_eq!(a.checksum(), b.checksum(), "the same seed and inputs give the same bits");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn checksum(&self) -> u64 {
        self.subsystems
            .checksums(&self.particles)
            .fold(self.particles.checksum(), checksum::join)
    }
}

/// The liquid the walls of `domain` stand for, at the resolution and rest density of `params`.
pub(crate) fn wall_density(domain: &Domain, params: &SimParams) -> WallDensity {
    WallDensity::new(
        domain.walls(),
        params.interaction_radius,
        params.particle_radius,
        params.rest_density,
    )
}
