//! Scenes as data: TOML preset files (walls, materials, emitters, blocks, parameters).
//!
//! The files in `assets/presets/` are embedded into the binary; a path ending in `.toml` loads a
//! file instead. Every problem is reported as `file:line: field: message`, never as a panic.
//!
//! # Fields and their accepted ranges
//!
//! Numbers must be finite (`nan` and `inf` are refused); r is `params.particle_radius`.
//!
//! | field | accepted |
//! |---|---|
//! | `name`, `description` | non-empty, one line, no control characters |
//! | `base_particles` (optional) | 1 to 2,000,000 |
//! | `params.rest_density` | above 0, at most 10,000 (default 82) |
//! | `params.stiffness`, `params.near_stiffness` | 0 to 10 (defaults 0.08, 0.1) |
//! | `params.surface_tension` | 0 to 1 (default 0.0004) |
//! | `params.linear_viscosity`, `params.quadratic_viscosity` | 0 to 100 (defaults 0.5, 1) |
//! | `params.particle_radius` | 0.001 to 10 (default 0.05) |
//! | `params.interaction_radius` | 2 r to 20 r (default 6 r) |
//! | `params.gravity` | each component within ±1000 (default [0, −9.8]) |
//! | `params.frame_rate` | 1 to 1000 frames per simulated second (default 20) |
//! | `params.substeps` | 1 to 100 per frame (default 7) |
//! | `params.max_substeps` | `substeps` to 400 (default 4 × `substeps`) |
//! | `params.cfl` | 0.05 to 1: most travel per substep, in h (default 0.5) |
//! | `params.wall_friction` | 0 to 10 (default 0) |
//! | `params.max_particles` | 1 to 2,000,000 (default 3000) |
//! | `walls[i].normal` | non-zero, components within ±10,000 |
//! | `walls[i].offset` | within ±10,000; fluid lives where `normal · x > offset` |
//! | `walls` | at least three, enclosing a bounded region at least 2 r across |
//! | `materials` | at least one; names unique |
//! | `materials[i].colour` | three channels, each 0 to 1 |
//! | `materials[i].mass` | above 0, at most 1000 |
//! | `materials[i].pressure_scale`, `.pressure_bias` | −100 to 100 (defaults 0, 1) |
//! | `materials[i].stiffness`, `.near_stiffness` (optional) | 0 to 10 (default: the `params` value) |
//! | `materials[i].surface_tension` (optional) | 0 to 1 (default: the `params` value) |
//! | `materials[i].linear_viscosity`, `.quadratic_viscosity` (optional) | 0 to 100 (default: the `params` value; a pair of materials uses the mean) |
//! | `materials[i].spring_stiffness` | 0 (no springs, the default) to 0.05 / dt², dt = 1 / (`frame_rate` × `substeps`) |
//! | `materials[i].yield_ratio` | 0 to 1 (default 0.1) |
//! | `materials[i].plasticity` | 0 to 100 per second (default 0: elastic) |
//! | `materials[i].spring_radius` | above 0, at most 1, in h (default 1) |
//! | `materials[i].stickiness` | 0 (not sticky, the default) to 10,000 |
//! | `materials[i].stick_distance` | above 0, at most 1, in h, from the particle centre (default 0.5) |
//! | `materials[i].temperature` | −1000 to 1000 degrees above the ambient air (default 0) |
//! | `materials[i].smoke` | 0 to 10,000 per metre of surface per second (default 0) |
//! | `obstacles[i].kind` | `"circle"` (with `centre`) or `"capsule"` (with `a` and `b`) |
//! | `obstacles[i].centre`, `.a`, `.b` | within ±10,000 |
//! | `obstacles[i].radius` | above 0, at most 1000 |
//! | `obstacles[i].friction` (optional) | 0 to 10 (default: `params.wall_friction`) |
//! | `obstacles` | each at least 2 r from every wall and from every other obstacle (surface to surface) |
//! | `emitters[i].material`, `blocks[i].material` | a name from `materials` |
//! | `emitters[i].position` | inside the walls, at least r from every obstacle |
//! | `emitters[i].direction` | non-zero, components within ±10,000 |
//! | `emitters[i].width` | 0 to 100, the whole nozzle inside the walls |
//! | `emitters[i].speed` | 0 to 1000 |
//! | `emitters[i].speed_jitter` | 0 to 0.99 (default 0) |
//! | `emitters[i].delay` | 0 to 1,000,000 seconds (default 0) |
//! | `emitters[i].rate` | above 0, at most 100,000 rows per second |
//! | `emitters[i].budget` | 0 to 2,000,000 |
//! | `blocks[i].min`, `.max` | `max` above and right of `min`, the rectangle inside the walls |
//! | `blocks[i].spacing` | r / 2 to 100, at most 2,000,000 lattice sites |
//! | `blocks[i].count` (optional) | 0 to 2,000,000 |
//! | `air.columns` | 4 to 1024 (default 96), and at most 1024 rows of square cells |
//! | `air.density` | above 0, at most 1000 (default 1) |
//! | `air.smoke_weight`, `.heat_lift`, `.vorticity`, `.cooling`, `.smoke_decay` | 0 to 100 (defaults 0.1, 1, 2, 0.5, 0) |
//! | `air.drag`, `air.heating` | 0 to 1000 per second (defaults 3, 4) |
//! | `air.advection` | `"conservative"` (default) or `"semi-lagrangian"` |
//! | `air.solver` | `"multigrid"` (default) or `"gauss-seidel"` |
//! | `air.tolerance` | 1e-8 to 0.5 (default 1e-4) |
//! | `air.max_iterations` | 1 to 100,000 (default 100) |
//! | `air.colour` | three channels, each 0 to 1 |
//! | `air.sources[i].position` | inside the walls |
//! | `air.sources[i].radius` | above 0, at most 1000 |
//! | `air.sources[i].smoke` | 0 to 10,000 per second (default 0) |
//! | `air.sources[i].temperature` | −1000 to 1000 (default 0) |
//! | `air.sources[i].velocity` | each component within ±50 (default [0, 0]) |
//! | `air.sources[i].start` | 0 to 1,000,000 seconds (default 0) |
//! | `air.sources[i].duration` (optional) | above 0, at most 1,000,000 seconds (default: forever) |
//! | `bodies[i].name` | non-empty, one line, unique |
//! | `bodies[i].position` | the whole body inside the walls, at least 2 r from every wall, obstacle and earlier body |
//! | `bodies[i].angle`, `.shapes[k].angle` | within ±1000 radians (default 0) |
//! | `bodies[i].velocity` | each component within ±100 (default [0, 0]) |
//! | `bodies[i].angular_velocity` | within ±100 radians per second (default 0) |
//! | `bodies[i].density` | above 0, at most 100, relative to a material of mass 1 |
//! | `bodies[i].friction` | 0 to 10 (default 0.5) |
//! | `bodies[i].restitution` | 0 to 1 (default 0) |
//! | `bodies[i].colour` | three channels, each 0 to 1 |
//! | `bodies[i].shapes` | 1 to 64 parts: `"circle"` (`radius`), `"box"` (`half_size`), `"capsule"` (`half_length`, `radius`) or `"polygon"` (3 to 64 `points`, convex, counter-clockwise); sizes above 0, at most 1000; each part at least r from its middle to every side |
//! | `bodies[i].shapes[k].offset` | within ±10,000 (default [0, 0]) |
//! | `hinges[i].body`, `.to` (optional) | names from `bodies`, not the same |
//! | `hinges[i].anchor` | inside the walls |
//!
//! Block sites closer than r to an obstacle are left empty. The gap of 2 r around obstacles
//! means a particle is never squeezed between two solids: pushing it out of one obstacle never
//! puts it into another or behind a wall (see `sim::obstacles`).

mod air;
mod bodies;
mod error;
mod file;
mod locate;
mod save;
mod validate;

pub use error::{one_line, PresetError};

use crate::sim::portable::Ordered;
use crate::sim::{Domain, Scene, Shape, Wall, World};
use file::PresetFile;
use glam::Vec2;
use validate::{obstacle_gap_problem, Step};

/// The embedded presets, in number-key order (keys 1–9, then 0 for `flood`, Shift+1 for
/// `smoke`, Shift+2 for `lava`, on to Shift+5 for `collapse`; `tank`, the benchmarks' widened
/// dam, has no key): (name, file text).
pub const BUILTIN: &[(&str, &str)] = &[
    ("seed", include_str!("../../assets/presets/seed.toml")),
    ("dam", include_str!("../../assets/presets/dam.toml")),
    ("layers", include_str!("../../assets/presets/layers.toml")),
    (
        "fountain",
        include_str!("../../assets/presets/fountain.toml"),
    ),
    ("rain", include_str!("../../assets/presets/rain.toml")),
    ("funnel", include_str!("../../assets/presets/funnel.toml")),
    ("jelly", include_str!("../../assets/presets/jelly.toml")),
    (
        "pachinko",
        include_str!("../../assets/presets/pachinko.toml"),
    ),
    ("slime", include_str!("../../assets/presets/slime.toml")),
    ("flood", include_str!("../../assets/presets/flood.toml")),
    ("smoke", include_str!("../../assets/presets/smoke.toml")),
    ("lava", include_str!("../../assets/presets/lava.toml")),
    ("bath", include_str!("../../assets/presets/bath.toml")),
    ("mill", include_str!("../../assets/presets/mill.toml")),
    (
        "collapse",
        include_str!("../../assets/presets/collapse.toml"),
    ),
    ("tank", include_str!("../../assets/presets/tank.toml")),
];

/// Most particles a preset or `--particles` may ask for.
pub const MAX_PARTICLES: usize = 2_000_000;

/// A loaded, validated scene with its name, ready to build a `World`.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Short name (`--preset NAME`).
    pub name: String,
    /// One line saying what the scene shows.
    pub description: String,
    /// What the world is made of, at the resolution chosen (the file's own unless rescaled).
    pub scene: Scene,
    /// Particle count the geometry was drawn for, if `--particles` widens the scene instead of
    /// making its particles finer (the `tank` the benchmarks use).
    pub base_particles: Option<usize>,
    /// The scene as the file writes it, at the reference radius: every rescale starts here.
    reference: Scene,
    /// The particle radius the file asks for (its 1×).
    own_radius: f32,
}

impl Preset {
    /// Loads an embedded preset by name, or a file when `name_or_path` ends in `.toml`.
    pub fn load(name_or_path: &str) -> Result<Self, PresetError> {
        if name_or_path.ends_with(".toml") {
            let text = std::fs::read_to_string(name_or_path).map_err(|error| PresetError {
                file: name_or_path.to_string(),
                line: None,
                field: String::new(),
                message: format!("cannot read the file: {error}"),
            })?;
            return Self::parse(name_or_path, &text);
        }
        let (_, text) = BUILTIN
            .iter()
            .find(|(name, _)| *name == name_or_path)
            .ok_or_else(|| PresetError {
                file: name_or_path.to_string(),
                line: None,
                field: String::new(),
                message: format!(
                    "no such preset (known: {})",
                    BUILTIN
                        .iter()
                        .map(|(name, _)| *name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            })?;
        Self::parse(&format!("assets/presets/{name_or_path}.toml"), text)
    }

    /// `load`, then rescaled for `particles` when given (`with_particles`): how the program
    /// loads every scene, from the command line, the number keys and hot reload.
    pub fn load_scaled(name_or_path: &str, particles: Option<usize>) -> Result<Self, PresetError> {
        let preset = Self::load(name_or_path)?;
        match particles {
            Some(particles) => preset.with_particles(particles),
            None => Ok(preset),
        }
    }

    /// Every embedded preset, in number-key order.
    pub fn builtins() -> Vec<Preset> {
        BUILTIN
            .iter()
            .map(|(name, _)| Self::load(name).expect("embedded presets are valid"))
            .collect()
    }

    /// Parses and validates preset text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, PresetError> {
        let raw: PresetFile =
            toml::from_str(text).map_err(|error| locate::read_error(file, text, &error))?;
        let checked = raw.validate().map_err(|invalid| PresetError {
            file: file.to_string(),
            line: locate::line_of_field(text, &invalid.path),
            field: invalid.path_string(),
            message: invalid.message,
        })?;
        let preset = Self {
            name: checked.name,
            description: checked.description,
            scene: checked.reference.clone(),
            base_particles: checked.base_particles,
            reference: checked.reference,
            own_radius: checked.radius,
        };
        preset
            .at_radius(checked.radius)
            .map_err(|message| PresetError {
                file: file.to_string(),
                line: locate::line_of_field(
                    text,
                    &[Step::Key("params"), Step::Key("particle_radius")],
                ),
                field: "params.particle_radius".into(),
                message,
            })
    }

    /// About how many particles the scene holds once its blocks are filled and its emitters
    /// spent (`Scene::particle_estimate`).
    pub fn particles(&self) -> usize {
        self.scene.particle_estimate()
    }

    /// The scene as the file writes it, every constant at the reference particle radius
    /// (`sim::resolution::REFERENCE_RADIUS`), before any rescale.
    pub fn reference(&self) -> &Scene {
        &self.reference
    }

    /// About how many particles the scene holds at the file's own resolution (its 1×).
    pub fn own_particles(&self) -> usize {
        self.at_radius(self.own_radius)
            .map_or_else(|_| self.particles(), |preset| preset.particles())
    }

    /// The preset with particles of `radius` (`Scene::at_particle_radius` of the scene as
    /// written). Refused when the walls or the gaps between obstacles have no room for them, or
    /// when they would be more than `MAX_PARTICLES`.
    pub fn at_radius(&self, radius: f32) -> Result<Self, String> {
        let scene = self
            .reference
            .at_particle_radius(radius)
            .map_err(|error| format!("particles of radius {radius}: {error}"))?;
        if let Some((index, problem)) =
            obstacle_gap_problem(&scene.obstacles, &scene.domain, radius)
        {
            return Err(format!(
                "particles of radius {radius} do not fit between the solids: obstacles[{index}] {problem}"
            ));
        }
        let count = scene.particle_estimate();
        if count > MAX_PARTICLES {
            return Err(format!(
                "particles of radius {radius} make about {count} particles, more than {MAX_PARTICLES}"
            ));
        }
        Ok(Self {
            scene,
            ..self.clone()
        })
    }

    /// The same scene with about `particles` particles. Its particles get finer or coarser
    /// (`at_radius`): the same box, volumes and flows, and a liquid that behaves the same. A
    /// preset with `base_particles` (the benchmarks' `tank`) is widened instead by particles /
    /// base (walls, emitters, blocks), keeping the particle size and the water's depth. A scene
    /// with no liquid at all (air only, like `smoke`) has nothing to rescale and comes back as it
    /// is.
    pub fn with_particles(mut self, particles: usize) -> Result<Self, PresetError> {
        let refuse = |message: String| PresetError {
            file: self.name.clone(),
            line: None,
            field: "--particles".into(),
            message,
        };
        if particles == 0 || particles > MAX_PARTICLES {
            return Err(refuse(format!(
                "must be between 1 and {MAX_PARTICLES}, got {particles}"
            )));
        }
        if self.scene.blocks.is_empty() && self.scene.emitters.is_empty() {
            return Ok(self);
        }
        let Some(base) = self.base_particles else {
            // Particles go with 1 / r²; block edges and rounding make that approximate, so the
            // radius is corrected a few times by the count it gives (each correction at most a
            // factor of two, and none once the count stops answering: a scene of no particles).
            let own = self.own_particles().max(1);
            let mut radius = self.own_radius * (own as f32 / particles as f32).sqrt();
            let mut scaled = self.at_radius(radius).map_err(&refuse)?;
            let mut last = None;
            for _ in 0..4 {
                let found = scaled.particles().max(1);
                if found.abs_diff(particles) * 40 <= particles || last == Some(found) {
                    break;
                }
                last = Some(found);
                radius *= (found as f32 / particles as f32).sqrt().clamp(0.5, 2.0);
                scaled = self.at_radius(radius).map_err(&refuse)?;
            }
            return Ok(scaled);
        };
        let ratio = particles as f32 / base as f32;
        let stretch = Vec2::new(ratio, 1.0);
        // A plane n·x = c holds the stretched points when its normal is divided by the stretch.
        let walls: Vec<Wall> = self
            .scene
            .domain
            .walls()
            .iter()
            .map(|wall| Wall::new(wall.normal / stretch, wall.offset))
            .collect();
        let domain = Domain::new(walls, self.scene.params.particle_radius).map_err(|error| {
            refuse(format!(
                "{particles} particles stretch the walls by {ratio}: {error}"
            ))
        })?;
        for obstacle in &mut self.scene.obstacles {
            obstacle.shape = match obstacle.shape {
                Shape::Circle { centre, radius } => Shape::Circle {
                    centre: centre * stretch,
                    radius,
                },
                Shape::Capsule { a, b, radius } => Shape::Capsule {
                    a: a * stretch,
                    b: b * stretch,
                    radius,
                },
            };
        }
        if let Some((_, problem)) = obstacle_gap_problem(
            &self.scene.obstacles,
            &domain,
            self.scene.params.particle_radius,
        ) {
            return Err(refuse(format!(
                "{particles} particles stretch the obstacles by {ratio}: {problem}"
            )));
        }
        for emitter in &mut self.scene.emitters {
            emitter.position *= stretch;
            emitter.budget = (emitter.budget as f32 * ratio).round() as usize;
        }
        for block in &mut self.scene.blocks {
            let wanted = (block.positions().len() as f32 * ratio).round() as usize;
            block.min *= stretch;
            block.max *= stretch;
            let rows = wanted.div_ceil(block.columns());
            block.max.y = block
                .max
                .y
                .at_least(block.min.y + rows as f32 * block.spacing);
            block.count = Some(wanted);
            let (min, max) = (block.min, block.max);
            let corners = [min, max, Vec2::new(min.x, max.y), Vec2::new(max.x, min.y)];
            if !corners.iter().all(|&corner| domain.contains(corner)) {
                return Err(refuse(format!(
                    "{particles} particles do not fit in the stretched box"
                )));
            }
        }
        self.scene.domain = domain;
        self.scene.params.max_particles = particles;
        Ok(self)
    }

    /// A fresh world for this scene; `seed` drives all randomness.
    pub fn build_world(&self, seed: u64) -> World {
        World::new(self.scene.clone(), seed)
    }
}
