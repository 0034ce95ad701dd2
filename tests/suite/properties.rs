//! Property tests: random scenes under random abuse keep the solver's invariants.
//!
//! Each scene case builds a `World` directly and runs it for at least 240 substeps, checking
//! after every substep that
//! - every position and velocity is finite;
//! - every particle lies on the fluid side of every wall (against the walls as generated);
//! - the particle count equals what the scene's blocks and emitters should have made by then,
//!   computed here from their definitions and the cap (`Scene::expected_particles`), and the
//!   ids are exactly 0..n;
//! - in the energy properties, the kinetic energy stays within `Scene::energy_bound`.
//!
//! # Scenes
//!
//! - Walls: the edges of a random convex polygon (3 to 8 corners on a rotated ellipse with
//!   jittered angles: slanted walls, acute corners down to a few degrees) or an axis-aligned
//!   box, semi-axes 1 to 5, plus up to two redundant walls that cut nothing.
//! - Parameters, kept where the solver is meant to work, that is scaled like the seed's:
//!   - particle radius r 0.03 to 0.08, interaction radius h 4 r to 8 r;
//!   - a rest spacing of 1.5 r to 3 r, and a rest density 0.8 to 1.25 times that of a square
//!     lattice at that spacing (the seed's 82 is 1.12 times its lattice at spacing 0.1), so that
//!     blocks start near rest;
//!   - stiffness 0.02 to 0.3, near stiffness 0.8 to 4 times it (with less near pressure than
//!     pressure, tension clumps particles until they collide: what the near term is for);
//!   - surface tension 0 to 3 times the seed's 0.0004 (h / 0.3)²: its pull per substep,
//!     σ N a² per neighbour with N ∝ 1 / h², does not shrink with dt, and unscaled it tears
//!     small-h fluid apart;
//!   - both viscosities 0 to 2; gravity 0 to 20 in any direction;
//!   - 3 to 10 substeps, dt such that the relaxation number k_near dt² / h⁵ (how far one
//!     substep's pressure moves a particle, relative to h) is 0.1 to 2 times the seed's, and at
//!     most 1/60 s (larger steps explode by the seed's own account; adaptive substeps are a
//!     separate change);
//!   - particle cap 20 to 400, and at most what fills half the area at spacing 2 r.
//! - Up to 3 materials (mass 0.5 to 2); up to 3 emitters anywhere inside the walls (any
//!   direction, nozzle up to 0.4 wide and inside the walls, speed up to 12, jitter up to 0.5,
//!   delay up to 0.6 s, 5 to 120 rows per second, budget up to 250); up to 2 blocks inside the
//!   walls (spacing within 5% of the rest spacing, optional count). In the energy properties a
//!   block that overlaps an earlier one is dropped: the bound has no term for the energy of a
//!   fluid that starts compressed, which is released as real motion.
//! - One action per frame: nothing; a stir or a pull anywhere around the walls, speed 10⁻¹ to
//!   10³, radius 10⁻² to 10²; or a stir and a pull with a NaN, infinite or negative field,
//!   which must change nothing.
//!
//! `random_preset_text_within_the_documented_ranges_runs` covers instead the full ranges that
//! preset validation documents (radius 0.001 to 10, stiffness up to 10, dt up to 1 s, ...),
//! written as preset text, for fewer substeps, and rescaled with `with_particles`;
//! `corrupted_preset_text_never_panics` breaks valid preset text at random.
//! `no_particle_ends_a_substep_inside_an_obstacle` fills a 4 × 3 box around up to four random
//! circles and capsules (those breaking the presets' gap rule left out) with a random liquid,
//! jelly, goo or sticky material, stirs it at random for 40 frames, and checks after every
//! substep that no particle is inside an obstacle's solid, besides finite and inside the walls.
//!
//! # Kinetic-energy bound
//!
//! No particle should move faster than the sum of three speeds: the fastest input so far
//! (emitter speed × (1 + jitter), or a stir or pull speed); free fall across the walls' extent
//! along gravity, √(2 |g| H); and the scheme's signal speed h / dt, since the relaxation only
//! sees neighbours within h, so that while it is stable, pressure moves a particle by at most
//! about one interaction radius per substep (the seed's wall push, at most r / dt, is less).
//! Hence KE ≤ ½ M (v_input + √(2 |g| H) + h / dt)², M the mass present. On 4,000 scenes left
//! alone the largest KE / bound was 0.17 (median 0.005); a scene above 1 has gained energy that
//! no input gave it. With the seed's velocity-push walls and no travel cap, 5% of stirred
//! scenes did (up to 860 times the bound), and single stirred particles of the seed preset
//! outran the bound's speed: the regression tests at the end of the scene section guard this.
//!
//! # Running
//!
//! The default case counts keep this file to a few seconds with `cargo test --release`.
//! `PROPTEST_CASES=N` runs N cases per property instead (long runs); `PROPTEST_RNG_SEED=S`
//! explores another seed (the default is fixed, with the ChaCha generator, so that failures
//! reproduce). Failing cases are saved to `tests/properties.proptest-regressions` and replayed
//! first on later runs.

use crate::common::{box_walls_spaced, rectangle_walls};
use glam::Vec2;
use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence, RngAlgorithm, RngSeed};
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::numerics::portable::{powf, unit_vector};
use slosh::sim::physics::density_kernel;
use slosh::sim::scene::resolution::REFERENCE_RADIUS;
use slosh::sim::RandomStirrer;
use slosh::sim::{Block, Domain, Emitter, Material, Obstacle, SimParams, Stir, Wall, World};
use std::f32::consts::TAU;

/// Cases per property unless `PROPTEST_CASES` says otherwise.
const DEFAULT_CASES: u32 = 64;

/// The runner's configuration: fixed seed, ChaCha, failures saved beside this file.
fn config(default_cases: u32) -> Config {
    fn from_env<T: std::str::FromStr>(name: &str) -> Option<T> {
        std::env::var(name)
            .ok()
            .and_then(|value| value.parse().ok())
    }
    Config {
        cases: from_env("PROPTEST_CASES").unwrap_or(default_cases),
        rng_algorithm: RngAlgorithm::ChaCha,
        rng_seed: RngSeed::Fixed(from_env("PROPTEST_RNG_SEED").unwrap_or(0x5105_4000)),
        failure_persistence: Some(Box::new(FileFailurePersistence::WithSource(
            "proptest-regressions",
        ))),
        max_shrink_iters: 4096,
        ..Config::default()
    }
}

// ---- Walls ------------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct WallSpec {
    corners: usize,
    jitter: Vec<f32>,
    semi_axis: f32,
    aspect: f32,
    rotation: f32,
    centre: (f32, f32),
    axis_aligned: bool,
    /// (direction, gap) of walls beyond the polygon.
    redundant: Vec<(f32, f32)>,
}

prop_compose! {
    fn wall_spec()(
        corners in 3usize..=8,
        jitter in prop::collection::vec(0.0f32..0.95, 8),
        semi_axis in 1.0f32..5.0,
        aspect in 0.2f32..1.0,
        rotation in 0.0f32..TAU,
        centre in (-3.0f32..3.0, -3.0f32..3.0),
        axis_aligned in prop::bool::weighted(0.25),
        redundant in prop::collection::vec((0.0f32..TAU, 0.0f32..1.0), 0..=2),
    ) -> WallSpec {
        WallSpec { corners, jitter, semi_axis, aspect, rotation, centre, axis_aligned, redundant }
    }
}

impl WallSpec {
    /// Corners of a convex polygon (counter-clockwise) and its walls.
    fn build(&self, scale: f32) -> (Vec<Vec2>, Vec<Wall>) {
        let centre = Vec2::new(self.centre.0, self.centre.1) * scale;
        let corners: Vec<Vec2> = if self.axis_aligned {
            let half = Vec2::new(self.semi_axis, self.semi_axis * self.aspect) * scale;
            vec![
                centre - half,
                centre + Vec2::new(half.x, -half.y),
                centre + half,
                centre + Vec2::new(-half.x, half.y),
            ]
        } else {
            // Points on an ellipse are in convex position; jittered angles give acute corners.
            (0..self.corners)
                .map(|k| {
                    let angle = TAU * (k as f32 + self.jitter[k]) / self.corners as f32;
                    let unit = unit_vector(angle);
                    let local = Vec2::new(unit.x, self.aspect * unit.y);
                    centre + unit_vector(self.rotation).rotate(local) * self.semi_axis * scale
                })
                .collect()
        };
        let mut walls: Vec<Wall> = (0..corners.len())
            .map(|k| {
                let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
                let normal = (b - a).perp();
                Wall::new(normal, normal.dot(a))
            })
            .collect();
        for &(angle, gap) in &self.redundant {
            let normal = unit_vector(angle);
            let nearest = corners
                .iter()
                .map(|&c| normal.dot(c))
                .fold(f32::INFINITY, slosh::sim::numerics::portable::min);
            walls.push(Wall::new(normal, nearest - (0.1 + gap) * scale));
        }
        (corners, walls)
    }
}

/// A point inside a convex polygon: a weighted mean of its corners, pulled toward the centroid.
fn inside_point(corners: &[Vec2], weights: &[f32], spread: f32) -> Vec2 {
    let centroid = corners.iter().copied().sum::<Vec2>() / corners.len() as f32;
    let total: f32 = weights.iter().take(corners.len()).sum();
    let mean = corners
        .iter()
        .zip(weights)
        .map(|(&c, &w)| c * w)
        .sum::<Vec2>()
        / total;
    centroid + (mean - centroid) * spread
}

/// Halves `width` until a nozzle of that width at `position` across `direction` fits inside.
fn fitting_width(domain: &Domain, position: Vec2, direction: Vec2, mut width: f32) -> f32 {
    let across = direction.normalize().perp();
    while width > 0.0 {
        let half = across * (0.5 * width);
        if domain.contains(position - half) && domain.contains(position + half) {
            return width;
        }
        width = if width < 1.0e-3 { 0.0 } else { 0.5 * width };
    }
    0.0
}

/// Shrinks a rectangle about `centre` until its four corners lie inside (`None` if it cannot).
fn fitting_rectangle(domain: &Domain, centre: Vec2, mut half: Vec2) -> Option<(Vec2, Vec2)> {
    for _ in 0..30 {
        let (min, max) = (centre - half, centre + half);
        let corners = [min, max, Vec2::new(min.x, max.y), Vec2::new(max.x, min.y)];
        if corners.iter().all(|&corner| domain.contains(corner)) {
            return Some((min, max));
        }
        half *= 0.7;
    }
    None
}

// ---- Solver parameters ----------------------------------------------------------------------

#[derive(Clone, Debug)]
struct ParamSpec {
    radius: f32,
    h_factor: f32,
    spacing_factor: f32,
    rest_factor: f32,
    stiffness: f32,
    near_stiffness: f32,
    surface_tension: f32,
    viscosity: (f32, f32),
    gravity: f32,
    gravity_angle: f32,
    step_factor: f32,
    substeps: u32,
    max_particles: usize,
}

prop_compose! {
    fn param_spec()(
        radius in 0.03f32..0.08,
        h_factor in 4.0f32..8.0,
        spacing_factor in 1.5f32..3.0,
        rest_factor in 0.8f32..1.25,
        stiffness in 0.02f32..0.3,
        near_stiffness in 0.8f32..4.0,
        surface_tension in 0.0f32..3.0,
        viscosity in (0.0f32..2.0, 0.0f32..2.0),
        gravity in 0.0f32..20.0,
        gravity_angle in 0.0f32..TAU,
        step_factor in 0.1f32..2.0,
        substeps in 3u32..=10,
        max_particles in 20usize..400,
    ) -> ParamSpec {
        ParamSpec {
            radius, h_factor, spacing_factor, rest_factor, stiffness, near_stiffness, surface_tension, viscosity,
            gravity, gravity_angle, step_factor, substeps, max_particles,
        }
    }
}

/// The seed's relaxation number k_near dt² / h⁵ (k_near 0.1, dt 1/140, h 0.3).
const SEED_RELAXATION: f32 = 0.1 / (140.0 * 140.0) / (0.3 * 0.3 * 0.3 * 0.3 * 0.3);

/// Density ρ / m of a particle inside a square lattice of `spacing`: the density kernel summed
/// over the other lattice points within h.
fn lattice_density(spacing: f32, h: f32) -> f32 {
    let reach = (h / spacing).ceil() as i32;
    let mut sum = 0.0;
    for i in -reach..=reach {
        for j in -reach..=reach {
            let r = spacing * ((i * i + j * j) as f32).sqrt();
            if (i, j) != (0, 0) && r < h {
                sum += density_kernel(r, h);
            }
        }
    }
    sum
}

impl ParamSpec {
    /// Spacing at which blocks are filled.
    fn spacing(&self) -> f32 {
        self.spacing_factor * self.radius
    }

    fn build(&self) -> SimParams {
        let h = self.radius * self.h_factor;
        let near_stiffness = self.stiffness * self.near_stiffness;
        let stiffest = self.stiffness.at_least(near_stiffness);
        let dt = (self.step_factor * SEED_RELAXATION * (h * h * h * h * h) / stiffest)
            .sqrt()
            .at_most(1.0 / 60.0);
        SimParams {
            rest_density: lattice_density(self.spacing(), h) * self.rest_factor,
            stiffness: self.stiffness,
            near_stiffness,
            surface_tension: 0.0004 * (h / 0.3) * (h / 0.3) * self.surface_tension,
            linear_viscosity: self.viscosity.0,
            quadratic_viscosity: self.viscosity.1,
            particle_radius: self.radius,
            interaction_radius: h,
            gravity: unit_vector(self.gravity_angle) * self.gravity,
            frame_rate: 1.0 / (dt * self.substeps as f32),
            substeps: self.substeps,
            max_substeps: 4 * self.substeps,
            cfl: 0.5,
            wall_friction: 0.5,
            max_particles: self.max_particles,
        }
    }
}

// ---- Emitters and blocks --------------------------------------------------------------------

#[derive(Clone, Debug)]
struct EmitterSpec {
    weights: Vec<f32>,
    spread: f32,
    angle: f32,
    width: f32,
    speed: f32,
    jitter: f32,
    delay: f32,
    rate: f32,
    budget: usize,
    material: usize,
}

prop_compose! {
    fn emitter_spec()(
        weights in prop::collection::vec(0.01f32..1.0, 8),
        spread in 0.0f32..0.95,
        angle in 0.0f32..TAU,
        width in 0.0f32..0.4,
        speed in 0.0f32..12.0,
        jitter in 0.0f32..0.5,
        delay in 0.0f32..0.6,
        rate in 5.0f32..120.0,
        budget in 0usize..250,
        material in 0usize..3,
    ) -> EmitterSpec {
        EmitterSpec { weights, spread, angle, width, speed, jitter, delay, rate, budget, material }
    }
}

impl EmitterSpec {
    fn build(&self, corners: &[Vec2], domain: &Domain, materials: usize) -> Emitter {
        let position = inside_point(corners, &self.weights, self.spread);
        let direction = unit_vector(self.angle);
        Emitter {
            material: self.material % materials,
            position,
            direction,
            width: fitting_width(domain, position, direction, self.width),
            speed: self.speed,
            speed_jitter: self.jitter,
            delay: self.delay,
            rate: self.rate,
            budget: self.budget,
        }
    }
}

#[derive(Clone, Debug)]
struct BlockSpec {
    weights: Vec<f32>,
    spread: f32,
    half_size: (f32, f32),
    /// Relative to the scene's rest spacing.
    spacing_factor: f32,
    count: Option<usize>,
    material: usize,
}

prop_compose! {
    fn block_spec()(
        weights in prop::collection::vec(0.01f32..1.0, 8),
        spread in 0.0f32..0.9,
        half_size in (0.05f32..0.8, 0.05f32..0.8),
        spacing_factor in 0.95f32..1.05,
        count in prop::option::of(0usize..300),
        material in 0usize..3,
    ) -> BlockSpec {
        BlockSpec { weights, spread, half_size, spacing_factor, count, material }
    }
}

impl BlockSpec {
    fn build(
        &self,
        corners: &[Vec2],
        domain: &Domain,
        spacing: f32,
        materials: usize,
    ) -> Option<Block> {
        let centre = inside_point(corners, &self.weights, self.spread);
        let half = Vec2::new(self.half_size.0, self.half_size.1);
        let (min, max) = fitting_rectangle(domain, centre, half)?;
        Some(Block {
            material: self.material % materials,
            min,
            max,
            spacing: self.spacing_factor * spacing,
            count: self.count,
        })
    }
}

// ---- Actions between frames -----------------------------------------------------------------

#[derive(Clone, Debug)]
enum Action {
    Nothing,
    /// A stir at a point of the walls' bounding box (in fractions, beyond it too).
    Stir {
        at: (f32, f32),
        angle: f32,
        log_speed: f32,
        log_radius: f32,
    },
    Pull {
        at: (f32, f32),
        log_speed: f32,
        log_radius: f32,
    },
    /// A stir and a pull with a NaN, infinite or negative field, which must change nothing.
    Broken {
        which: u8,
    },
}

/// How the fluid is handled between frames.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Handling {
    /// Never touched.
    LeftAlone,
    /// Stirs and pulls of any speed and radius, and broken ones.
    Abused,
}

fn action(handling: Handling) -> BoxedStrategy<Action> {
    if handling == Handling::LeftAlone {
        return Just(Action::Nothing).boxed();
    }
    let at = (-0.2f32..1.2, -0.2f32..1.2);
    prop_oneof![
        3 => Just(Action::Nothing),
        4 => (at.clone(), 0.0f32..TAU, -1.0f32..3.0, -2.0f32..2.0).prop_map(
            |(at, angle, log_speed, log_radius)| Action::Stir { at, angle, log_speed, log_radius }
        ),
        2 => (at, -1.0f32..3.0, -2.0f32..2.0).prop_map(|(at, log_speed, log_radius)| {
            Action::Pull { at, log_speed, log_radius }
        }),
        1 => (0u8..4).prop_map(|which| Action::Broken { which }),
    ]
    .boxed()
}

// ---- Scenes ---------------------------------------------------------------------------------

#[derive(Clone, Debug)]
struct SceneSpec {
    walls: WallSpec,
    params: ParamSpec,
    masses: Vec<f32>,
    emitters: Vec<EmitterSpec>,
    blocks: Vec<BlockSpec>,
    /// Blocks that overlap an earlier one are dropped (they start compressed).
    separate_blocks: bool,
    /// One per frame, cycled.
    actions: Vec<Action>,
    seed: u64,
}

fn scene_spec(handling: Handling, separate_blocks: bool) -> impl Strategy<Value = SceneSpec> {
    (
        wall_spec(),
        param_spec(),
        prop::collection::vec(0.5f32..2.0, 1..=3),
        prop::collection::vec(emitter_spec(), 0..=3),
        prop::collection::vec(block_spec(), 0..=2),
        prop::collection::vec(action(handling), 80),
        any::<u64>(),
    )
        .prop_map(
            move |(walls, params, masses, emitters, blocks, actions, seed)| SceneSpec {
                walls,
                params,
                masses,
                emitters,
                blocks,
                separate_blocks,
                actions,
                seed,
            },
        )
}

/// Everything `World::new` takes, plus what the checks need.
struct Scene {
    params: SimParams,
    materials: Vec<Material>,
    corners: Vec<Vec2>,
    walls: Vec<Wall>,
    domain: Domain,
    emitters: Vec<Emitter>,
    blocks: Vec<Block>,
    seed: u64,
}

impl SceneSpec {
    fn build(&self) -> Scene {
        let mut params = self.params.build();
        let (corners, walls) = self.walls.build(1.0);
        let domain = Domain::new(walls.clone(), params.particle_radius)
            .expect("a convex polygon's edges enclose it");
        // At most what fills half the area at rest spacing: room to settle.
        let room = 0.5 * domain.area() / (4.0 * params.particle_radius * params.particle_radius);
        params.max_particles = params.max_particles.min(room as usize).max(1);
        let materials: Vec<Material> = self
            .masses
            .iter()
            .enumerate()
            .map(|(k, &mass)| Material {
                name: format!("liquid {k}"),
                colour: [0.5; 3],
                mass,
                pressure_scale: 0.0,
                pressure_bias: 1.0,
                ..Material::default()
            })
            .collect();
        let emitters = self
            .emitters
            .iter()
            .map(|spec| spec.build(&corners, &domain, materials.len()))
            .collect();
        let mut blocks: Vec<Block> = Vec::new();
        for spec in &self.blocks {
            let Some(block) = spec.build(&corners, &domain, self.params.spacing(), materials.len())
            else {
                continue;
            };
            let overlaps = |other: &Block| {
                block.min.x < other.max.x
                    && other.min.x < block.max.x
                    && block.min.y < other.max.y
                    && other.min.y < block.max.y
            };
            if !self.separate_blocks || !blocks.iter().any(overlaps) {
                blocks.push(block);
            }
        }
        Scene {
            params,
            materials,
            corners,
            walls,
            domain,
            emitters,
            blocks,
            seed: self.seed,
        }
    }
}

impl Scene {
    fn world(&self) -> World {
        World::new(
            slosh::sim::Scene {
                params: self.params.clone(),
                materials: self.materials.clone(),
                domain: self.domain.clone(),
                obstacles: Vec::new(),
                emitters: self.emitters.clone(),
                blocks: self.blocks.clone(),
                air: None,
                bodies: Vec::new(),
                hinges: Vec::new(),
                reactions: Vec::new(),
            },
            self.seed,
        )
    }

    /// Particles the world should hold after the substep that started at simulated `time`:
    /// every block's lattice, plus per emitter min(budget, rows due × row length), row k being
    /// due at delay + k / rate and a row holding width / (2 r) + 1 particles; all capped by
    /// `max_particles`. (Nothing is ever removed, so once the cap stops anything the count is
    /// the cap.)
    fn expected_particles(&self, time: f64) -> usize {
        let r = self.params.particle_radius;
        let mut total: usize = self.blocks.iter().map(|b| b.positions().len()).sum();
        for emitter in &self.emitters {
            if time < emitter.delay as f64 {
                continue;
            }
            let rows = ((time - emitter.delay as f64) * emitter.rate as f64).floor() as usize + 1;
            let row = (emitter.width / (2.0 * r)) as usize + 1;
            total += emitter.budget.min(rows * row);
        }
        total.min(self.params.max_particles)
    }

    /// The fastest the scene launches particles by itself: emitter speed × (1 + jitter).
    fn fastest_emission(&self) -> f32 {
        self.emitters
            .iter()
            .map(|e| e.speed * (1.0 + e.speed_jitter))
            .fold(0.0, slosh::sim::numerics::portable::max)
    }

    /// Free-fall speed across the walls' extent along gravity, √(2 |g| H).
    fn fall_speed(&self) -> f32 {
        let g = self.params.gravity;
        let down = g.normalize_or_zero();
        let (low, high) = self
            .corners
            .iter()
            .map(|&c| down.dot(c))
            .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), d| {
                (lo.at_most(d), hi.at_least(d))
            });
        (2.0 * g.length() * (high - low)).sqrt()
    }

    /// ½ M (v_input + √(2 |g| H) + h / dt)²: see the file's documentation.
    fn energy_bound(&self, mass: f64, fastest_input: f32) -> f64 {
        let signal = self.params.interaction_radius / self.params.dt();
        let speed = (fastest_input + self.fall_speed() + signal) as f64;
        0.5 * mass * speed * speed
    }
}

// ---- Running a scene ------------------------------------------------------------------------

/// Applies `action` between frames; returns the speed it imparts, if any.
fn apply(world: &mut World, action: &Action) -> f32 {
    let (min, max) = (world.domain().min(), world.domain().max());
    let point = |at: (f32, f32)| min + (max - min) * Vec2::new(at.0, at.1);
    match *action {
        Action::Nothing => 0.0,
        Action::Stir {
            at,
            angle,
            log_speed,
            log_radius,
        } => {
            let speed = powf(10.0, log_speed);
            world.stir(Stir {
                position: point(at),
                velocity: unit_vector(angle) * speed,
                radius: powf(10.0, log_radius),
            });
            speed
        }
        Action::Pull {
            at,
            log_speed,
            log_radius,
        } => {
            let speed = powf(10.0, log_speed);
            world.pull(point(at), powf(10.0, log_radius), speed);
            speed
        }
        Action::Broken { which } => {
            let centre = (min + max) * 0.5;
            let mut stir = Stir {
                position: centre,
                velocity: Vec2::new(3.0, 0.0),
                radius: 1.0,
            };
            let (mut pull_centre, mut pull_radius, mut pull_speed) = (centre, 1.0, 3.0);
            match which {
                0 => {
                    stir.position.x = f32::NAN;
                    pull_centre.y = f32::INFINITY;
                }
                1 => {
                    stir.velocity.y = f32::INFINITY;
                    pull_speed = f32::NAN;
                }
                2 => {
                    stir.radius = f32::NAN;
                    pull_radius = f32::INFINITY;
                }
                _ => {
                    stir.radius = -1.0;
                    pull_radius = 0.0;
                }
            }
            let before = world.checksum();
            world.stir(stir);
            world.pull(pull_centre, pull_radius, pull_speed);
            assert_eq!(
                world.checksum(),
                before,
                "a broken stir or pull changed the fluid"
            );
            0.0
        }
    }
}

/// Checks the invariants after a substep that started at simulated `time`.
fn check_substep(scene: &Scene, world: &World, time: f64) -> Result<(), TestCaseError> {
    let p = world.particles();
    for i in 0..p.len() {
        let (x, v) = (p.position[i], p.velocity[i]);
        prop_assert!(
            x.is_finite() && v.is_finite(),
            "t = {time}: particle {} at {x} moving {v}",
            p.id[i]
        );
        for (k, wall) in scene.walls.iter().enumerate() {
            prop_assert!(
                wall.distance(x) >= 0.0,
                "t = {time}: particle {} at {x} is {} outside wall {k}",
                p.id[i],
                -wall.distance(x)
            );
        }
    }
    prop_assert_eq!(
        p.len(),
        scene.expected_particles(time),
        "particles after the substep from t = {}",
        time
    );
    let mut ids = p.id.clone();
    ids.sort_unstable();
    prop_assert!(
        ids.iter().enumerate().all(|(k, &id)| id as usize == k),
        "t = {time}: ids are not 0..{}",
        p.len()
    );
    Ok(())
}

/// Runs `spec` for at least 240 substeps, checking the invariants after each, and the energy
/// bound too when `check_energy`.
fn run_scene(spec: &SceneSpec, check_energy: bool) -> Result<(), TestCaseError> {
    let scene = spec.build();
    let mut world = scene.world();
    let substeps = scene.params.substeps as usize;
    let mut fastest_input = scene.fastest_emission();
    for frame in 0..240usize.div_ceil(substeps) {
        let action = &spec.actions[frame % spec.actions.len()];
        fastest_input = fastest_input.at_least(apply(&mut world, action));
        for _ in 0..substeps {
            let time = world.time();
            world.substep();
            check_substep(&scene, &world, time)?;
            if check_energy {
                let p = world.particles();
                let mass: f64 = p.mass.iter().map(|&m| m as f64).sum();
                let kinetic: f64 = (0..p.len())
                    .map(|i| 0.5 * p.mass[i] as f64 * p.velocity[i].length_squared() as f64)
                    .sum();
                let bound = scene.energy_bound(mass, fastest_input);
                prop_assert!(
                    kinetic <= bound,
                    "t = {time}: kinetic energy {kinetic} above the bound {bound} \
                     (fastest particle {} m/s, fastest input {fastest_input} m/s)",
                    world.stats().max_speed
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(DEFAULT_CASES))]

    /// The full abuse: extreme stirs and pulls, broken ones, overlapping blocks.
    #[test]
    fn abused_scenes_stay_finite_inside_the_walls_and_fully_counted(
        spec in scene_spec(Handling::Abused, false)
    ) {
        run_scene(&spec, false)?;
    }

    #[test]
    fn kinetic_energy_stays_within_the_input_bound_when_left_alone(
        spec in scene_spec(Handling::LeftAlone, true)
    ) {
        run_scene(&spec, true)?;
    }
}

proptest! {
    #![proptest_config(config(DEFAULT_CASES))]

    #[test]
    fn kinetic_energy_stays_within_the_input_bound_under_stirring(
        spec in scene_spec(Handling::Abused, true)
    ) {
        run_scene(&spec, true)?;
    }
}

/// Regression, found by the energy property under stirring and shrunk (fixed by projecting
/// particles out of walls with Coulomb friction and capping each substep's travel): 136 particles
/// at rest in a 5.2 × 1.1 box, no gravity, quadratic viscosity 1.94. One stir at 268 m/s sweeps the
/// whole fluid into the right wall; two substeps later the fastest particle leaves it at about
/// 1,490 m/s and the fluid holds more kinetic energy than ½ M (268 + h / dt)².
///
/// Now the fluid's kinetic energy peaks at 0.48% of that bound in the 30 substeps after the stir
/// (the fastest particle 21.5 m/s) for world seeds 1 to 5 and 7 alike (the block is a lattice and
/// there is no gravity: the seed changes nothing here); the bound is 200 times the worst (margin
/// over 99%). Walls that fling the swept fluid back faster than it came fail it.
#[test]
fn fluid_stirred_into_a_wall_rebounds_no_faster_than_the_bound() {
    let (min, max) = (
        Vec2::new(-2.591_356_5, -0.555_450_3),
        Vec2::new(2.591_356_5, 0.555_450_3),
    );
    let corners = vec![min, Vec2::new(max.x, min.y), max, Vec2::new(min.x, max.y)];
    let walls = rectangle_walls(min, max);
    let params = SimParams {
        rest_density: 210.204_09,
        stiffness: 0.02,
        near_stiffness: 0.016,
        surface_tension: 0.0,
        linear_viscosity: 0.0,
        quadratic_viscosity: 1.939_863_2,
        particle_radius: 0.034_560_956,
        interaction_radius: 0.148_917_12,
        gravity: Vec2::ZERO,
        frame_rate: 96.387_02,
        substeps: 3,
        max_substeps: 12,
        cfl: 0.5,
        wall_friction: 0.5,
        max_particles: 136,
    };
    let scene = Scene {
        domain: Domain::new(walls.clone(), params.particle_radius).unwrap(),
        materials: vec![Material {
            name: "water".into(),
            colour: [0.5; 3],
            mass: 0.5,
            pressure_scale: 0.0,
            pressure_bias: 1.0,
            ..Material::default()
        }],
        corners,
        walls,
        emitters: Vec::new(),
        blocks: vec![Block {
            material: 0,
            min: Vec2::new(-0.579_741_95, -0.349_093_9),
            max: Vec2::new(0.579_741_95, 0.349_093_9),
            spacing: 0.049_249_362,
            count: None,
        }],
        params,
        seed: 1,
    };
    let mut world = scene.world();
    assert_eq!(world.particles().len(), 136);
    for _ in 0..3 {
        world.substep();
    }
    let stir = Action::Stir {
        at: (0.463_500_7, 0.0),
        angle: 0.383_414_83,
        log_speed: 2.428_634_2,
        log_radius: 1.755_927_4,
    };
    let fastest_input = apply(&mut world, &stir);
    for substep in 0..30 {
        world.substep();
        let stats = world.stats();
        let bound = scene.energy_bound(0.5 * 136.0, fastest_input);
        assert!(
            stats.kinetic_energy <= bound,
            "substep {substep} after the stir: kinetic energy {} above {bound}, fastest \
             particle {} m/s after a {fastest_input} m/s stir",
            stats.kinetic_energy,
            stats.max_speed
        );
    }
}

/// Regression: the seed preset stirred the way `--headless --stir random` stirs it (strokes of 1
/// to 25 m/s) once had, at the end of frame 168, one of its 1,500-odd particles moving at 247 m/s,
/// three times the 78 m/s its fastest input, free fall and the signal speed h / dt add up to. The
/// energy summed over all particles stays within the bound; single particles do not.
///
/// Now the fastest particle is at most 0.31 to 0.38 of the bound over the 200 frames (24 to 30
/// m/s, against bounds of 77 to 79 m/s) for world seeds 1 to 5 and 7 with stirrer seeds 1 to 5
/// and 7 (each world seed with its own stirrer seed, world seed 1 with every stirrer seed, world
/// seeds 2 and 3 with stirrer seed 1); margin 161%. One particle shot out of a crowd by an
/// unbounded pressure or wall push fails it.
#[test]
fn no_particle_of_the_seed_preset_outruns_the_speed_bound_under_random_stirring() {
    let preset = Preset::load("seed").unwrap();
    let mut world = preset.build_world(1);
    let mut stirrer = RandomStirrer::new(1);
    let params = world.params().clone();
    let (min, max) = (world.domain().min(), world.domain().max());
    let fall = (2.0 * params.gravity.length() * (max.y - min.y)).sqrt();
    let signal = params.interaction_radius / params.dt();
    let emission = preset
        .scene
        .emitters
        .iter()
        .map(|e| e.speed * (1.0 + e.speed_jitter))
        .fold(0.0, slosh::sim::numerics::portable::max);
    let mut fastest_input = emission;
    for frame in 0..200 {
        if let Some(stir) = stirrer.next(&world) {
            fastest_input = fastest_input.at_least(stir.velocity.length());
            world.stir(stir);
        }
        world.step_frame();
        let bound = fastest_input + fall + signal;
        let fastest = world.stats().max_speed;
        assert!(
            fastest <= bound,
            "frame {frame}: a particle moves at {fastest} m/s, above {bound} m/s \
             (fastest stir or nozzle {fastest_input}, fall {fall}, h / dt {signal})"
        );
    }
}

/// Regression: `Domain::new` once compared only the area with the room a particle needs, so a
/// 0.01 × 3 box passed for particles 0.1 across. Now the walls shrunk by the radius must leave
/// room.
#[test]
fn regression_a_domain_thinner_than_a_particle_is_refused() {
    let walls = rectangle_walls(Vec2::ZERO, Vec2::new(0.01, 3.0));
    assert!(
        Domain::new(walls, 0.05).is_err(),
        "a box 0.01 wide was accepted as room for particles 0.1 across"
    );
}

// ---- Preset text ----------------------------------------------------------------------------

/// A preset anywhere in the ranges `src/preset.rs` documents, as numbers to write out.
#[derive(Clone, Debug)]
struct PresetSpec {
    walls: WallSpec,
    log_radius: f32,
    /// Region size in particle radii.
    scale: f32,
    interaction: Option<f32>,
    log_rest_density: f32,
    stiffness: (f32, f32),
    /// Surface tension as a fraction of its accepted 30 dt².
    surface_tension: f32,
    viscosity: (f32, f32),
    gravity: (f32, f32),
    frame_rate: f32,
    substeps: u32,
    max_particles: usize,
    base_particles: Option<usize>,
    rescale: usize,
    materials: Vec<([f32; 3], f32, f32, f32)>,
    emitters: Vec<PresetEmitter>,
    blocks: Vec<PresetBlock>,
    seed: u64,
}

#[derive(Clone, Debug)]
struct PresetEmitter {
    weights: Vec<f32>,
    spread: f32,
    angle: f32,
    log_length: f32,
    width: f32,
    speed: f32,
    jitter: f32,
    delay: f32,
    log_rate: f32,
    budget: usize,
    material: usize,
}

#[derive(Clone, Debug)]
struct PresetBlock {
    weights: Vec<f32>,
    spread: f32,
    half_size: (f32, f32),
    spacing: f32,
    count: Option<usize>,
    material: usize,
}

fn preset_emitter() -> impl Strategy<Value = PresetEmitter> {
    (
        (prop::collection::vec(0.01f32..1.0, 8), 0.0f32..0.95),
        (0.0f32..TAU, -3.0f32..4.0),
        (0.0f32..=100.0, 0.0f32..=1000.0, 0.0f32..=0.99),
        prop_oneof![2 => Just(0.0f32), 1 => 0.0f32..=1.0e6, 2 => 0.0f32..2.0],
        (-3.0f32..5.0, 0usize..=2_000_000, 0usize..3),
    )
        .prop_map(
            |((weights, spread), (angle, log_length), (width, speed, jitter), delay, rest)| {
                PresetEmitter {
                    weights,
                    spread,
                    angle,
                    log_length,
                    width,
                    speed,
                    jitter,
                    delay,
                    log_rate: rest.0,
                    budget: rest.1,
                    material: rest.2,
                }
            },
        )
}

fn preset_block() -> impl Strategy<Value = PresetBlock> {
    (
        prop::collection::vec(0.01f32..1.0, 8),
        0.0f32..0.9,
        (0.02f32..0.5, 0.02f32..0.5),
        0.0f32..1.0,
        prop::option::of(0usize..=2_000_000),
        0usize..3,
    )
        .prop_map(
            |(weights, spread, half_size, spacing, count, material)| PresetBlock {
                weights,
                spread,
                half_size,
                spacing,
                count,
                material,
            },
        )
}

fn preset_spec() -> impl Strategy<Value = PresetSpec> {
    (
        (wall_spec(), -3.0f32..1.0, 20.0f32..60.0),
        // Rest density 5 to 1000 (10^0.7 to 10^3).
        (prop::option::of(2.0f32..=20.0), 0.7f32..3.0),
        (
            (0.0f32..=10.0, 0.0f32..=10.0),
            0.0f32..=1.0,
            (0.0f32..=100.0, 0.0f32..=100.0),
        ),
        (
            (-1000.0f32..=1000.0, -1000.0f32..=1000.0),
            1.0f32..=1000.0,
            1u32..=100,
        ),
        (
            1usize..=300,
            prop::option::of(prop_oneof![1usize..=1000, 1usize..=2_000_000]),
            1usize..=600,
        ),
        prop::collection::vec(
            (
                [0.0f32..=1.0, 0.0f32..=1.0, 0.0f32..=1.0],
                -3.0f32..3.0,
                -100.0f32..=100.0,
                -100.0f32..=100.0,
            ),
            1..=3,
        ),
        prop::collection::vec(preset_emitter(), 0..=2),
        prop::collection::vec(preset_block(), 0..=2),
        any::<u64>(),
    )
        .prop_map(
            |(
                (walls, log_radius, scale),
                (interaction, log_rest_density),
                (stiffness, surface_tension, viscosity),
                (gravity, frame_rate, substeps),
                (max_particles, base_particles, rescale),
                materials,
                emitters,
                blocks,
                seed,
            )| PresetSpec {
                walls,
                log_radius,
                scale,
                interaction,
                log_rest_density,
                stiffness,
                surface_tension,
                viscosity,
                gravity,
                frame_rate,
                substeps,
                max_particles,
                base_particles,
                rescale,
                materials,
                emitters,
                blocks,
                seed,
            },
        )
}

/// Smallest width of a convex polygon (over its edges, the farthest corner from the edge).
fn polygon_width(corners: &[Vec2]) -> f32 {
    (0..corners.len())
        .map(|k| {
            let (a, b) = (corners[k], corners[(k + 1) % corners.len()]);
            let normal = (b - a).perp().normalize();
            corners
                .iter()
                .map(|&c| normal.dot(c - a).abs())
                .fold(0.0, slosh::sim::numerics::portable::max)
        })
        .fold(f32::INFINITY, slosh::sim::numerics::portable::min)
}

impl PresetSpec {
    /// The preset as TOML text, or `None` when its walls leave too little room for a particle.
    fn text(&self) -> Option<String> {
        let radius = powf(10.0, self.log_radius);
        let (corners, walls) = self.walls.build(radius * self.scale);
        if polygon_width(&corners) < 4.0 * radius {
            return None;
        }
        let domain = Domain::new(walls.clone(), radius).ok()?;
        let mut text = String::new();
        let mut line = |s: String| {
            text.push_str(&s);
            text.push('\n');
        };
        line("name = \"random\"".into());
        line("description = \"A random preset\"".into());
        if let Some(base) = self.base_particles {
            line(format!("base_particles = {base}"));
        }
        line("\n[params]".into());
        line(format!("particle_radius = {radius:?}"));
        if let Some(factor) = self.interaction {
            // f32 rounding must not take h below 2 r or above 20 r.
            let h = (factor * radius).clamp(2.0 * radius * 1.0001, 20.0 * radius * 0.9999);
            line(format!("interaction_radius = {h:?}"));
        }
        line(format!(
            "rest_density = {:?}",
            powf(10.0, self.log_rest_density)
        ));
        line(format!("stiffness = {:?}", self.stiffness.0));
        line(format!("near_stiffness = {:?}", self.stiffness.1));
        // A fraction of the accepted 30 dt².
        let dt = 1.0 / (self.frame_rate * self.substeps as f32);
        let tension = self.surface_tension * 30.0 * dt * dt * 0.999;
        line(format!("surface_tension = {tension:?}"));
        line(format!("linear_viscosity = {:?}", self.viscosity.0));
        line(format!("quadratic_viscosity = {:?}", self.viscosity.1));
        line(format!(
            "gravity = [{:?}, {:?}]",
            self.gravity.0, self.gravity.1
        ));
        line(format!("frame_rate = {:?}", self.frame_rate));
        line(format!("substeps = {}", self.substeps));
        line(format!("max_particles = {}", self.max_particles));
        for wall in &walls {
            line("\n[[walls]]".into());
            line(format!(
                "normal = [{:?}, {:?}]",
                wall.normal.x, wall.normal.y
            ));
            line(format!("offset = {:?}", wall.offset));
        }
        for (k, (colour, log_mass, scale, bias)) in self.materials.iter().enumerate() {
            line("\n[[materials]]".into());
            line(format!("name = \"liquid {k}\""));
            line(format!(
                "colour = [{:?}, {:?}, {:?}]",
                colour[0], colour[1], colour[2]
            ));
            line(format!("mass = {:?}", powf(10.0, *log_mass)));
            line(format!("pressure_scale = {scale:?}"));
            line(format!("pressure_bias = {bias:?}"));
        }
        let materials = self.materials.len();
        for emitter in &self.emitters {
            let position = inside_point(&corners, &emitter.weights, emitter.spread);
            let direction = unit_vector(emitter.angle) * powf(10.0, emitter.log_length);
            let width = fitting_width(&domain, position, direction, emitter.width);
            line("\n[[emitters]]".into());
            line(format!(
                "material = \"liquid {}\"",
                emitter.material % materials
            ));
            line(format!("position = [{:?}, {:?}]", position.x, position.y));
            line(format!(
                "direction = [{:?}, {:?}]",
                direction.x, direction.y
            ));
            line(format!("width = {width:?}"));
            line(format!("speed = {:?}", emitter.speed));
            line(format!("speed_jitter = {:?}", emitter.jitter));
            line(format!("delay = {:?}", emitter.delay));
            line(format!("rate = {:?}", powf(10.0, emitter.log_rate)));
            line(format!("budget = {}", emitter.budget));
        }
        for block in &self.blocks {
            let centre = inside_point(&corners, &block.weights, block.spread);
            let half = Vec2::new(block.half_size.0, block.half_size.1) * radius * self.scale;
            let Some((min, max)) = fitting_rectangle(&domain, centre, half) else {
                continue;
            };
            // Any spacing from r / 2 to 100 that fills at most 2,000,000 lattice sites; spacing
            // is written for the reference radius, like every value but the geometry.
            let area = (max - min).x * (max - min).y;
            let finest = (0.5 * REFERENCE_RADIUS).at_least((area / 1.9e6).sqrt());
            let spacing = (finest
                * powf(
                    100.0 / finest,
                    block.spacing * block.spacing * block.spacing,
                ))
            .at_most(100.0);
            line("\n[[blocks]]".into());
            line(format!(
                "material = \"liquid {}\"",
                block.material % materials
            ));
            line(format!("min = [{:?}, {:?}]", min.x, min.y));
            line(format!("max = [{:?}, {:?}]", max.x, max.y));
            line(format!("spacing = {spacing:?}"));
            if let Some(count) = block.count {
                line(format!("count = {count}"));
            }
        }
        Some(text)
    }
}

/// Runs a world built from `preset` for `substeps` substeps with a stir now and then, checking
/// positions, velocities and the count after each.
fn run_preset(preset: &Preset, seed: u64, substeps: usize) -> Result<(), TestCaseError> {
    let scene = Scene {
        params: preset.scene.params.clone(),
        materials: preset.scene.materials.clone(),
        corners: preset.scene.domain.polygon().to_vec(),
        walls: preset.scene.domain.walls().to_vec(),
        domain: preset.scene.domain.clone(),
        emitters: preset.scene.emitters.clone(),
        blocks: preset.scene.blocks.clone(),
        seed,
    };
    let mut world = preset.build_world(seed);
    for substep in 0..substeps {
        if substep % 10 == 5 {
            let (min, max) = (world.domain().min(), world.domain().max());
            world.stir(Stir {
                position: (min + max) * 0.5,
                velocity: Vec2::new(1.0e3, -1.0e3),
                radius: (max - min).length(),
            });
        }
        let time = world.time();
        world.substep();
        check_substep(&scene, &world, time)?;
    }
    Ok(())
}

/// A small valid preset for the corruption property, in a 4 × 3 box.
fn valid() -> String {
    format!(
        r#"name = "tiny"
description = "A small box"
base_particles = 150

[params]
frame_rate = 20
substeps = 7
max_particles = 150

{}
[[materials]]
name = "water"
colour = [0.2, 0.4, 0.9]
mass = 1.0

[[emitters]]
material = "water"
position = [0.5, 2.0]
direction = [1.0, 0.0]
width = 0.2
speed = 3.0
rate = 20.0
budget = 50

[[blocks]]
material = "water"
min = [0.1, 0.1]
max = [1.1, 1.1]
spacing = 0.1
"#,
        box_walls_spaced(4.0, 3.0)
    )
}

/// One way of breaking preset text.
#[derive(Clone, Debug)]
enum Corruption {
    /// Replace the value on line `line` (modulo the line count) by `value`.
    Value {
        line: usize,
        value: &'static str,
    },
    DeleteLine(usize),
    DuplicateLine(usize),
    /// Insert `text` at byte `at` (modulo the length).
    Insert {
        at: usize,
        text: String,
    },
    Truncate(usize),
}

const NASTY_VALUES: &[&str] = &[
    "nan",
    "-nan",
    "inf",
    "-inf",
    "0",
    "-0.0",
    "-1",
    "1e40",
    "-1e40",
    "1e-40",
    "99999999999999999999",
    "9223372036854775807",
    "2000001",
    "\"\"",
    "\"x\\ny\"",
    "\"lava\"",
    "[]",
    "[1.0]",
    "[nan, 1.0]",
    "[1e30, 1e30]",
    "[0.0, 0.0]",
    "[1.0, 2.0, 3.0]",
    "{}",
    "{ x = 1 }",
    "true",
    "1979-05-27",
    "0x10",
    "1_000",
    "'water'",
    "[[1.0]]",
    "\"\"\"a\nb\"\"\"",
];

fn corruption() -> impl Strategy<Value = Corruption> {
    prop_oneof![
        4 => (any::<usize>(), prop::sample::select(NASTY_VALUES))
            .prop_map(|(line, value)| Corruption::Value { line, value }),
        1 => any::<usize>().prop_map(Corruption::DeleteLine),
        1 => any::<usize>().prop_map(Corruption::DuplicateLine),
        2 => (any::<usize>(), "[ -~\n]{1,12}").prop_map(|(at, text)| Corruption::Insert { at, text }),
        1 => any::<usize>().prop_map(Corruption::Truncate),
    ]
}

impl Corruption {
    fn apply(&self, text: &str) -> String {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        if lines.is_empty() {
            return text.to_string();
        }
        match self {
            Corruption::Value { line, value } => {
                let k = line % lines.len();
                if let Some((key, _)) = lines[k].split_once('=') {
                    lines[k] = format!("{key}= {value}");
                }
            }
            Corruption::DeleteLine(line) => {
                let k = line % lines.len();
                lines.remove(k);
            }
            Corruption::DuplicateLine(line) => {
                let k = line % lines.len();
                lines.insert(k, lines[k].clone());
            }
            Corruption::Insert { at, text: insert } => {
                let mut out = text.to_string();
                out.insert_str(at % (text.len() + 1), insert);
                return out;
            }
            Corruption::Truncate(at) => return text[..at % (text.len() + 1)].to_string(),
        }
        let mut out = lines.join("\n");
        out.push('\n');
        out
    }
}

proptest! {
    #![proptest_config(config(DEFAULT_CASES))]

    /// Everything inside the documented ranges is accepted, and the world it makes (at solver
    /// parameters far beyond what it is tuned for) still keeps its particles finite, inside and
    /// counted; `--particles` rescaling keeps that too.
    #[test]
    fn random_preset_text_within_the_documented_ranges_runs(spec in preset_spec()) {
        let Some(text) = spec.text() else {
            return Err(TestCaseError::reject("walls too close for a particle"));
        };
        let preset = Preset::parse("random.toml", &text)
            .map_err(|error| TestCaseError::fail(format!("{error}\n{text}")))?;
        run_preset(&preset, spec.seed, 40)?;
        match preset.clone().with_particles(spec.rescale) {
            Ok(rescaled) => run_preset(&rescaled, spec.seed, 10)?,
            Err(error) => prop_assert!(!error.to_string().contains('\n'), "{error}"),
        }
    }

    /// Broken preset text is refused with one line naming the file, or, if it still parses,
    /// runs like any other preset; it never panics.
    #[test]
    fn corrupted_preset_text_never_panics(
        corruptions in prop::collection::vec(corruption(), 1..=3),
        seed in any::<u64>(),
    ) {
        let text = corruptions.iter().fold(valid(), |text, c| c.apply(&text));
        match Preset::parse("fuzz.toml", &text) {
            Err(error) => {
                let shown = error.to_string();
                prop_assert!(!shown.contains('\n'), "{shown:?}");
                prop_assert!(shown.starts_with("fuzz.toml"), "{shown}");
                prop_assert!(error.line.is_none_or(|line| line <= text.lines().count() + 1), "{shown}");
            }
            Ok(preset) => run_preset(&preset, seed, 20)?,
        }
    }
}

// ---- Obstacles ----------------------------------------------------------------------------------

/// A scene with obstacles: a 4 × 3 box, a pool of one material (maybe springy, maybe sticky)
/// filling its lower part around up to four random circles and capsules, stirred at random.
#[derive(Clone, Debug)]
struct ObstacleSpec {
    /// (is capsule, centre x, centre y, radius, half length, angle) per candidate obstacle.
    obstacles: Vec<(bool, f32, f32, f32, f32, f32)>,
    spring_stiffness: f32,
    plasticity: f32,
    stickiness: f32,
    fill_height: f32,
    seed: u64,
}

fn obstacle_spec() -> impl Strategy<Value = ObstacleSpec> {
    let obstacle = (
        any::<bool>(),
        0.0_f32..4.0,
        0.0_f32..3.0,
        0.02_f32..0.8,
        0.0_f32..1.0,
        0.0_f32..TAU,
    );
    (
        prop::collection::vec(obstacle, 1..5),
        prop_oneof![Just(0.0_f32), 100.0_f32..900.0],
        prop_oneof![Just(0.0_f32), 0.1_f32..5.0],
        prop_oneof![Just(0.0_f32), 100.0_f32..8000.0],
        0.3_f32..2.5,
        any::<u64>(),
    )
        .prop_map(
            |(obstacles, spring_stiffness, plasticity, stickiness, fill_height, seed)| {
                ObstacleSpec {
                    obstacles,
                    spring_stiffness,
                    plasticity,
                    stickiness,
                    fill_height,
                    seed,
                }
            },
        )
}

impl ObstacleSpec {
    /// The world: candidates that break the presets' gap rule (2 particle radii from every wall
    /// and every earlier obstacle) are left out, as a preset would refuse them.
    fn world(&self) -> World {
        let params = SimParams {
            max_particles: 900,
            ..SimParams::default()
        };
        let r = params.particle_radius;
        let (min, max) = (Vec2::ZERO, Vec2::new(4.0, 3.0));
        let walls = rectangle_walls(min, max);
        let domain = Domain::new(walls, r).unwrap();
        let mut obstacles: Vec<Obstacle> = Vec::new();
        for &(capsule, x, y, radius, half_length, angle) in &self.obstacles {
            let centre = Vec2::new(x, y);
            let candidate = if capsule {
                let half = unit_vector(angle) * half_length;
                Obstacle::capsule(centre - half, centre + half, radius, 0.5)
            } else {
                Obstacle::circle(centre, radius, 0.5)
            };
            let (a, b) = candidate.core();
            let clear_of_walls = domain
                .walls()
                .iter()
                .all(|wall| wall.distance(a).at_most(wall.distance(b)) - radius >= 2.0 * r);
            let clear_of_others = obstacles
                .iter()
                .all(|o| candidate.core_distance(o) - radius - o.radius() >= 2.0 * r);
            if clear_of_walls && clear_of_others {
                obstacles.push(candidate);
            }
        }
        let material = Material {
            name: "stuff".into(),
            spring_stiffness: self.spring_stiffness,
            plasticity: self.plasticity,
            stickiness: self.stickiness,
            ..Material::default()
        };
        let block = Block {
            material: 0,
            min: Vec2::splat(0.05),
            max: Vec2::new(3.95, self.fill_height),
            spacing: 0.1,
            count: None,
        };
        World::new(
            slosh::sim::Scene {
                params,
                materials: vec![material],
                domain,
                obstacles,
                emitters: Vec::new(),
                blocks: vec![block],
                air: None,
                bodies: Vec::new(),
                hinges: Vec::new(),
                reactions: Vec::new(),
            },
            self.seed,
        )
    }
}

proptest! {
    #![proptest_config(config(16))]

    /// After every substep no particle is inside an obstacle's solid, whatever the material and
    /// however it is stirred.
    #[test]
    fn no_particle_ends_a_substep_inside_an_obstacle(spec in obstacle_spec()) {
        let mut world = spec.world();
        let mut stirrer = RandomStirrer::new(spec.seed);
        for frame in 0..40 {
            if let Some(stir) = stirrer.next(&world) {
                world.stir(stir);
            }
            for _ in 0..world.params().substeps {
                world.substep();
                let stats = world.stats();
                prop_assert_eq!((stats.nan, stats.escaped), (0, 0), "frame {}", frame);
                for obstacle in world.obstacles() {
                    for &x in &world.particles().position {
                        let depth = -obstacle.distance(x);
                        prop_assert!(
                            depth <= 1.0e-4,
                            "frame {}: {} inside {:?}",
                            frame,
                            depth,
                            obstacle
                        );
                    }
                }
            }
        }
    }
}
