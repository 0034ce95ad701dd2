//! Scenes as data: TOML preset files (walls, materials, emitters, blocks, parameters).
//!
//! The files in `assets/presets/` are embedded into the binary; a path ending in `.toml` loads a
//! file instead. Every problem is reported as `file:line: field: message`, never as a panic.
//!
//! # Fields and their accepted ranges
//!
//! `sim::scene::ranges` is the table of every field, what it accepts and its default; the table of
//! fields in docs/REFERENCE.md is rendered from it. Numbers must be finite (`nan` and `inf` are
//! refused).
//!
//! Block sites closer than r to an obstacle are left empty. The gap of 2 r around obstacles
//! means a particle is never squeezed between two solids: pushing it out of one obstacle never
//! puts it into another or behind a wall (see `sim::subsystems::obstacles`).

mod air;
mod bodies;
mod check;
mod error;
mod file;
pub mod library;
mod locate;
mod save;
mod validate;

pub use bodies::{library_body, library_body_names};
pub use error::{one_line, PresetError, ResolutionError};

use crate::level::{self, Level};
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::ranges::Step;
use crate::sim::{Domain, Scene, Shape, Wall, World};
use file::PresetFile;
use glam::Vec2;
use validate::obstacle_gap_problem;

/// The embedded presets, in number-key order (keys 1–9, then 0 for `flood`, Shift+1 for
/// `smoke`, Shift+2 for `lava`, on to Shift+9 for `fire` and Shift+0 for `hourglass`; then
/// `sandbox`, on B; `tank`, the benchmarks' widened dam, has no key): (name, file text).
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
    ("volcano", include_str!("../../assets/presets/volcano.toml")),
    ("ice", include_str!("../../assets/presets/ice.toml")),
    ("kettle", include_str!("../../assets/presets/kettle.toml")),
    ("fire", include_str!("../../assets/presets/fire.toml")),
    (
        "hourglass",
        include_str!("../../assets/presets/hourglass.toml"),
    ),
    ("sandbox", include_str!("../../assets/presets/sandbox.toml")),
    ("tank", include_str!("../../assets/presets/tank.toml")),
];

/// The sandbox's name: an empty box with every library material, on a key of its own (B).
pub const SANDBOX: &str = "sandbox";

/// Scenes that have no file, by the name they were registered under: those opened from a link
/// (`crate::share`). `Preset::load` finds them before any file.
static REGISTERED: std::sync::Mutex<Vec<(String, String)>> = std::sync::Mutex::new(Vec::new());

/// Registers preset `text` under `name`, so that `Preset::load(name)` parses it; checked by the
/// loader first (its errors name `name`). A name registered again takes the new text.
pub fn register_text(name: &str, text: &str) -> Result<(), PresetError> {
    Preset::parse(name, text)?;
    let mut registered = REGISTERED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    registered.retain(|(known, _)| known != name);
    registered.push((name.to_string(), text.to_string()));
    Ok(())
}

/// The text registered under `name` ([`register_text`]), if any.
pub fn registered_text(name: &str) -> Option<String> {
    let registered = REGISTERED
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    registered
        .iter()
        .find(|(known, _)| known == name)
        .map(|(_, text)| text.clone())
}

/// Most particles a preset or `--particles` may ask for.
pub use crate::sim::scene::ranges::MAX_PARTICLES;

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
    /// Its rules and goals, when the scene is a level (`crate::level`).
    pub level: Option<Level>,
    /// The scene as the file writes it, at the reference radius: every rescale starts here.
    reference: Scene,
    /// The particle radius the file asks for (its 1×).
    own_radius: f32,
    /// The file as written, before validation normalised anything (directions, wall normals,
    /// the interaction radius): what `to_toml` writes, with the edits of `edited` in place.
    written: PresetFile,
}

impl Preset {
    /// Loads an embedded preset or level by name, a scene registered by that name
    /// ([`register_text`]: opened from a link), or a file when `name_or_path` ends in `.toml`.
    pub fn load(name_or_path: &str) -> Result<Self, PresetError> {
        if let Some(text) = registered_text(name_or_path) {
            return Self::parse(name_or_path, &text);
        }
        if name_or_path.ends_with(".toml") {
            let text = std::fs::read_to_string(name_or_path).map_err(|error| PresetError {
                file: name_or_path.to_string(),
                line: None,
                field: String::new(),
                message: format!("cannot read the file: {error}"),
            })?;
            return Self::parse(name_or_path, &text);
        }
        if let Some((_, text)) = BUILTIN.iter().find(|(name, _)| *name == name_or_path) {
            return Self::parse(&format!("assets/presets/{name_or_path}.toml"), text);
        }
        if let Some((_, text)) = level::BUILTIN
            .iter()
            .find(|(name, _)| *name == name_or_path)
        {
            return Self::parse(&format!("assets/levels/{name_or_path}.toml"), text);
        }
        let names = |list: &[(&str, &str)]| {
            list.iter()
                .map(|(name, _)| *name)
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(PresetError {
            file: name_or_path.to_string(),
            line: None,
            field: String::new(),
            message: format!(
                "no such preset or level (presets: {}; levels: {})",
                names(BUILTIN),
                names(level::BUILTIN)
            ),
        })
    }

    /// Loads a level: an embedded level by name, or a `.toml` file with a `[level]` section.
    pub fn load_level(name_or_path: &str) -> Result<Self, PresetError> {
        let preset = Self::load(name_or_path)?;
        if preset.level.is_none() {
            return Err(PresetError {
                file: name_or_path.to_string(),
                line: None,
                field: String::new(),
                message: format!(
                    "is a preset, not a level (levels: {})",
                    level::BUILTIN
                        .iter()
                        .map(|(name, _)| *name)
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            });
        }
        Ok(preset)
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

    /// Every embedded preset this build loads, in number-key order: all of them, but without
    /// the `bodies` feature those with rigid bodies are left out.
    pub fn builtins() -> Vec<Preset> {
        BUILTIN
            .iter()
            .filter_map(|(name, _)| match Self::load(name) {
                Err(error) if !cfg!(feature = "bodies") && error.field == "bodies" => None,
                loaded => Some(loaded.expect("embedded presets are valid")),
            })
            .collect()
    }

    /// Parses and validates preset text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, PresetError> {
        let raw = PresetFile::read(file, text)?;
        let written = raw.clone();
        let checked = raw.validate().map_err(|invalid| PresetError {
            file: file.to_string(),
            line: locate::line_of_field(text, &invalid.path),
            field: crate::sim::scene::ranges::path_string(&invalid.path),
            message: invalid.message,
        })?;
        let preset = Self {
            name: checked.name,
            description: checked.description,
            scene: checked.reference.clone(),
            base_particles: checked.base_particles,
            level: checked.level,
            reference: checked.reference,
            own_radius: checked.radius,
            written,
        };
        preset
            .at_radius(checked.radius)
            .map_err(|error| PresetError {
                file: file.to_string(),
                line: locate::line_of_field(
                    text,
                    &[Step::Key("params"), Step::Key("particle_radius")],
                ),
                field: "params.particle_radius".into(),
                message: error.to_string(),
            })
    }

    /// About how many particles the scene holds once its blocks are filled and its emitters
    /// spent (`Scene::particle_estimate`).
    pub fn particles(&self) -> usize {
        self.scene.particle_estimate()
    }

    /// The scene as the file writes it, every constant at the reference particle radius
    /// (`sim::scene::resolution::REFERENCE_RADIUS`), before any rescale.
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
    pub fn at_radius(&self, radius: f32) -> Result<Self, ResolutionError> {
        let scene = self.reference.at_particle_radius(radius).map_err(|error| {
            ResolutionError::Rescale {
                radius,
                why: error.to_string(),
            }
        })?;
        if let Some((obstacle, problem)) =
            obstacle_gap_problem(&scene.obstacles, &scene.domain, radius)
        {
            return Err(ResolutionError::Gap {
                radius,
                obstacle,
                problem: problem.to_string(),
            });
        }
        let count = scene.particle_estimate();
        if count > MAX_PARTICLES {
            return Err(ResolutionError::TooMany { radius, count });
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
            let mut scaled = self.at_radius(radius).map_err(|e| refuse(e.to_string()))?;
            let mut last = None;
            for _ in 0..4 {
                let found = scaled.particles().max(1);
                if found.abs_diff(particles) * 40 <= particles || last == Some(found) {
                    break;
                }
                last = Some(found);
                radius *= (found as f32 / particles as f32).sqrt().clamp(0.5, 2.0);
                scaled = self.at_radius(radius).map_err(|e| refuse(e.to_string()))?;
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
            .map(|wall| Wall {
                // A heater or cooler stays one.
                temperature: wall.temperature,
                ..Wall::new(wall.normal / stretch, wall.offset)
            })
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
