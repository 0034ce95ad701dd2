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
//! | `params.wall_friction` | 0 to 10 (default 0.5) |
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
//!
//! Block sites closer than r to an obstacle are left empty. The gap of 2 r around obstacles
//! means a particle is never squeezed between two solids: pushing it out of one obstacle never
//! puts it into another or behind a wall (see `sim::obstacles`).

use crate::sim::{
    Block, Domain, DomainError, Emitter, Material, Obstacle, Shape, SimParams, Wall, World,
};
use glam::Vec2;
use serde::Deserialize;
use std::fmt;
use std::ops::Range;

/// The embedded presets, in number-key order: (name, file text).
pub const BUILTIN: &[(&str, &str)] = &[
    ("seed", include_str!("../assets/presets/seed.toml")),
    ("dam", include_str!("../assets/presets/dam.toml")),
    ("layers", include_str!("../assets/presets/layers.toml")),
    ("fountain", include_str!("../assets/presets/fountain.toml")),
    ("rain", include_str!("../assets/presets/rain.toml")),
    ("funnel", include_str!("../assets/presets/funnel.toml")),
    ("jelly", include_str!("../assets/presets/jelly.toml")),
    ("pachinko", include_str!("../assets/presets/pachinko.toml")),
    ("slime", include_str!("../assets/presets/slime.toml")),
];

/// Most particles a preset or `--particles` may ask for.
pub const MAX_PARTICLES: usize = 2_000_000;

/// A preset that failed to load, with where and what.
#[derive(Clone, Debug, PartialEq)]
pub struct PresetError {
    /// File name or path the text came from.
    pub file: String,
    /// 1-based line, where known.
    pub line: Option<usize>,
    /// Dotted path of the offending field (`emitters[1].speed`), where known.
    pub field: String,
    /// What is wrong.
    pub message: String,
}

/// One line: control characters (line breaks in a quoted name or key, say) are escaped.
impl fmt::Display for PresetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Escaped(&self.file))?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if !self.field.is_empty() {
            write!(f, ": {}", Escaped(&self.field))?;
        }
        write!(f, ": {}", Escaped(&self.message))
    }
}

/// Text shown with its control characters escaped.
struct Escaped<'a>(&'a str);

impl fmt::Display for Escaped<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.0.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for PresetError {}

/// A loaded, validated scene, ready to build a `World`.
#[derive(Clone, Debug)]
pub struct Preset {
    /// Short name (`--preset NAME`).
    pub name: String,
    /// One line saying what the scene shows.
    pub description: String,
    /// Solver parameters.
    pub params: SimParams,
    /// Liquids of the scene.
    pub materials: Vec<Material>,
    /// Wall planes and their region.
    pub domain: Domain,
    /// Nozzles.
    pub emitters: Vec<Emitter>,
    /// Initial fluid rectangles.
    pub blocks: Vec<Block>,
    /// Static circles and capsules.
    pub obstacles: Vec<Obstacle>,
    /// Particle count the geometry was drawn for, if `--particles` rescales it.
    pub base_particles: Option<usize>,
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

    /// Every embedded preset, in order.
    pub fn builtins() -> Vec<Preset> {
        BUILTIN
            .iter()
            .map(|(name, _)| Self::load(name).expect("embedded presets are valid"))
            .collect()
    }

    /// Parses and validates preset text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, PresetError> {
        let raw: PresetFile = toml::from_str(text).map_err(|error| {
            let span = error.span();
            let message = one_line(error.message());
            let mut field = span
                .as_ref()
                .map(|span| field_at(text, span.clone()))
                .unwrap_or_default();
            let mut line = span.as_ref().map(|span| line_at(text, span.start));
            if let Some(missing) = quoted_after(&message, "missing field ") {
                // The span is the table's header, or empty at the start for a top-level field
                // (which has no line then).
                if span.is_some_and(|span| span.is_empty()) {
                    field.clear();
                    line = None;
                }
                if !field.is_empty() {
                    field.push('.');
                }
                field.push_str(missing);
            } else if quoted_after(&message, "unknown field ").is_some() {
                // The key's span also lies in its first array item: name the key itself.
                while field.ends_with(']') {
                    field.truncate(field.rfind('[').unwrap_or(0));
                }
            }
            PresetError {
                file: file.to_string(),
                line,
                field,
                message,
            }
        })?;
        raw.validate().map_err(|invalid| PresetError {
            file: file.to_string(),
            line: line_of_field(text, &invalid.path),
            field: invalid.path_string(),
            message: invalid.message,
        })
    }

    /// Rescales the scene for `particles` particles. Presets with `base_particles` stretch their
    /// width by particles / base (walls, emitters, blocks), which keeps both the particle density
    /// and the depth of the water: depth, not width, is what a fixed time step can hold (about
    /// 50 particle spacings at the seed's 140 substeps per second). Others only cap the count.
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
        let Some(base) = self.base_particles else {
            self.params.max_particles = particles;
            return Ok(self);
        };
        let ratio = particles as f32 / base as f32;
        let stretch = Vec2::new(ratio, 1.0);
        // A plane n·x = c holds the stretched points when its normal is divided by the stretch.
        let walls: Vec<Wall> = self
            .domain
            .walls()
            .iter()
            .map(|wall| Wall::new(wall.normal / stretch, wall.offset))
            .collect();
        let domain = Domain::new(walls, self.params.particle_radius).map_err(|error| {
            refuse(format!(
                "{particles} particles stretch the walls by {ratio}: {error}"
            ))
        })?;
        for obstacle in &mut self.obstacles {
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
        if let Some((_, problem)) =
            obstacle_gap_problem(&self.obstacles, &domain, self.params.particle_radius)
        {
            return Err(refuse(format!(
                "{particles} particles stretch the obstacles by {ratio}: {problem}"
            )));
        }
        for emitter in &mut self.emitters {
            emitter.position *= stretch;
            emitter.budget = (emitter.budget as f32 * ratio).round() as usize;
        }
        for block in &mut self.blocks {
            let wanted = (block.positions().len() as f32 * ratio).round() as usize;
            block.min *= stretch;
            block.max *= stretch;
            let rows = wanted.div_ceil(block.columns());
            block.max.y = block.max.y.max(block.min.y + rows as f32 * block.spacing);
            block.count = Some(wanted);
            let (min, max) = (block.min, block.max);
            let corners = [min, max, Vec2::new(min.x, max.y), Vec2::new(max.x, min.y)];
            if !corners.iter().all(|&corner| domain.contains(corner)) {
                return Err(refuse(format!(
                    "{particles} particles do not fit in the stretched box"
                )));
            }
        }
        self.domain = domain;
        self.params.max_particles = particles;
        Ok(self)
    }

    /// A fresh world for this scene; `seed` drives all randomness.
    pub fn build_world(&self, seed: u64) -> World {
        World::with_obstacles(
            self.params.clone(),
            self.materials.clone(),
            self.domain.clone(),
            self.obstacles.clone(),
            self.emitters.clone(),
            &self.blocks,
            seed,
        )
    }
}

/// Smallest width of a convex polygon: over its edges, the largest distance of a corner from
/// the edge's line.
fn polygon_width(polygon: &[Vec2]) -> f32 {
    (0..polygon.len())
        .map(|k| {
            let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
            let normal = (b - a).perp().normalize_or_zero();
            polygon
                .iter()
                .map(|&corner| normal.dot(corner - a).abs())
                .fold(0.0, f32::max)
        })
        .fold(f32::INFINITY, f32::min)
}

/// The first obstacle (index, problem) closer than 2 r to a wall or to an earlier obstacle.
fn obstacle_gap_problem(
    obstacles: &[Obstacle],
    domain: &Domain,
    particle_radius: f32,
) -> Option<(usize, String)> {
    let gap = 2.0 * particle_radius;
    for (index, obstacle) in obstacles.iter().enumerate() {
        let (a, b) = obstacle.core();
        for (k, wall) in domain.walls().iter().enumerate() {
            let room = wall.distance(a).min(wall.distance(b)) - obstacle.radius();
            if room < gap {
                return Some((
                    index,
                    format!(
                        "must keep {gap} (2 particle radii) from every wall, \
                         but its surface is {room} from walls[{k}]"
                    ),
                ));
            }
        }
        for (other_index, other) in obstacles[..index].iter().enumerate() {
            let room = obstacle.core_distance(other) - obstacle.radius() - other.radius();
            if room < gap {
                return Some((
                    index,
                    format!(
                        "must keep {gap} (2 particle radii) from every other obstacle, \
                         but its surface is {room} from obstacles[{other_index}]"
                    ),
                ));
            }
        }
    }
    None
}

/// `message` on one line, its lines joined by "; ".
fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .collect::<Vec<_>>()
        .join("; ")
}

/// The text between backquotes right after `prefix` in `message` (`missing field `mass``).
fn quoted_after<'a>(message: &'a str, prefix: &str) -> Option<&'a str> {
    let rest = message.strip_prefix(prefix)?.strip_prefix('`')?;
    rest.split_once('`').map(|(quoted, _)| quoted)
}

/// 1-based line of byte `offset` in `text`.
fn line_at(text: &str, offset: usize) -> usize {
    text[..offset.min(text.len())].matches('\n').count() + 1
}

// ---- The file format --------------------------------------------------------------------------

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PresetFile {
    name: String,
    description: String,
    #[serde(default)]
    params: ParamsFile,
    #[serde(default)]
    base_particles: Option<usize>,
    walls: Vec<WallFile>,
    materials: Vec<MaterialFile>,
    #[serde(default)]
    emitters: Vec<EmitterFile>,
    #[serde(default)]
    blocks: Vec<BlockFile>,
    #[serde(default)]
    obstacles: Vec<ObstacleFile>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObstacleFile {
    kind: String,
    #[serde(default)]
    centre: Option<[f32; 2]>,
    #[serde(default)]
    a: Option<[f32; 2]>,
    #[serde(default)]
    b: Option<[f32; 2]>,
    radius: f32,
    #[serde(default)]
    friction: Option<f32>,
}

/// `[params]`: every field optional, defaulting to `SimParams::default()` (the seed's values).
#[derive(Deserialize)]
#[serde(deny_unknown_fields, default)]
struct ParamsFile {
    rest_density: f32,
    stiffness: f32,
    near_stiffness: f32,
    surface_tension: f32,
    linear_viscosity: f32,
    quadratic_viscosity: f32,
    particle_radius: f32,
    interaction_radius: Option<f32>,
    wall_friction: f32,
    gravity: [f32; 2],
    frame_rate: f32,
    substeps: u32,
    max_substeps: Option<u32>,
    cfl: f32,
    max_particles: usize,
}

impl Default for ParamsFile {
    fn default() -> Self {
        let seed = SimParams::default();
        Self {
            rest_density: seed.rest_density,
            stiffness: seed.stiffness,
            near_stiffness: seed.near_stiffness,
            surface_tension: seed.surface_tension,
            linear_viscosity: seed.linear_viscosity,
            quadratic_viscosity: seed.quadratic_viscosity,
            particle_radius: seed.particle_radius,
            interaction_radius: None,
            wall_friction: seed.wall_friction,
            gravity: seed.gravity.to_array(),
            frame_rate: seed.frame_rate,
            substeps: seed.substeps,
            max_substeps: None,
            cfl: seed.cfl,
            max_particles: seed.max_particles,
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WallFile {
    normal: [f32; 2],
    offset: f32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MaterialFile {
    name: String,
    colour: [f32; 3],
    mass: f32,
    #[serde(default)]
    pressure_scale: f32,
    #[serde(default = "one")]
    pressure_bias: f32,
    #[serde(default)]
    stiffness: Option<f32>,
    #[serde(default)]
    near_stiffness: Option<f32>,
    #[serde(default)]
    surface_tension: Option<f32>,
    #[serde(default)]
    linear_viscosity: Option<f32>,
    #[serde(default)]
    quadratic_viscosity: Option<f32>,
    #[serde(default)]
    spring_stiffness: f32,
    #[serde(default = "default_yield_ratio")]
    yield_ratio: f32,
    #[serde(default)]
    plasticity: f32,
    #[serde(default = "one")]
    spring_radius: f32,
    #[serde(default)]
    stickiness: f32,
    #[serde(default = "half")]
    stick_distance: f32,
}

fn one() -> f32 {
    1.0
}

fn half() -> f32 {
    0.5
}

fn default_yield_ratio() -> f32 {
    Material::default().yield_ratio
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct EmitterFile {
    material: String,
    position: [f32; 2],
    direction: [f32; 2],
    width: f32,
    speed: f32,
    #[serde(default)]
    speed_jitter: f32,
    #[serde(default)]
    delay: f32,
    rate: f32,
    budget: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BlockFile {
    material: String,
    min: [f32; 2],
    max: [f32; 2],
    spacing: f32,
    #[serde(default)]
    count: Option<usize>,
}

// ---- Validation -------------------------------------------------------------------------------

/// One step of a path into the TOML document.
#[derive(Clone, Debug)]
enum Step {
    Key(&'static str),
    Index(usize),
}

/// A value out of range, with the path to it.
struct Invalid {
    path: Vec<Step>,
    message: String,
}

impl Invalid {
    fn path_string(&self) -> String {
        let mut out = String::new();
        for step in &self.path {
            match step {
                Step::Key(key) if out.is_empty() => out.push_str(key),
                Step::Key(key) => {
                    out.push('.');
                    out.push_str(key);
                }
                Step::Index(index) => out.push_str(&format!("[{index}]")),
            }
        }
        out
    }
}

/// Builds an `Invalid` at `path`.
fn invalid(path: &[Step], message: impl Into<String>) -> Invalid {
    Invalid {
        path: path.to_vec(),
        message: message.into(),
    }
}

/// Checks that `value` is finite and within `range` (inclusive).
fn check_range(path: &[Step], value: f32, low: f32, high: f32) -> Result<f32, Invalid> {
    if value.is_finite() && value >= low && value <= high {
        Ok(value)
    } else {
        Err(invalid(
            path,
            format!("must be a number from {low} to {high}, got {value:?}"),
        ))
    }
}

/// Checks that `value` is finite and strictly positive, at most `high`.
fn check_positive(path: &[Step], value: f32, high: f32) -> Result<f32, Invalid> {
    if value.is_finite() && value > 0.0 && value <= high {
        Ok(value)
    } else {
        Err(invalid(
            path,
            format!("must be a number above 0 and at most {high}, got {value:?}"),
        ))
    }
}

fn check_vector(path: &[Step], value: [f32; 2], limit: f32) -> Result<Vec2, Invalid> {
    let vector = Vec2::from(value);
    if vector.is_finite() && vector.abs().max_element() <= limit {
        Ok(vector)
    } else {
        Err(invalid(
            path,
            format!("must be two finite numbers within ±{limit}, got {value:?}"),
        ))
    }
}

/// Checks that a name or description is non-empty, single-line text (it is printed in lists,
/// the window title and JSON reports).
fn check_text(path: &[Step], value: &str) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        Err(invalid(path, "must not be empty"))
    } else if value.chars().any(char::is_control) {
        Err(invalid(path, "must be one line without control characters"))
    } else {
        Ok(())
    }
}

fn check_count(path: &[Step], value: usize, low: usize, high: usize) -> Result<usize, Invalid> {
    if (low..=high).contains(&value) {
        Ok(value)
    } else {
        Err(invalid(
            path,
            format!("must be from {low} to {high}, got {value}"),
        ))
    }
}

/// Largest coordinate a scene may use.
const MAX_COORDINATE: f32 = 1.0e4;

/// Smallest particle radius: keeps nozzle rows and grids finite at any coordinate a scene may use.
const MIN_PARTICLE_RADIUS: f32 = 1.0e-3;

impl PresetFile {
    fn validate(self) -> Result<Preset, Invalid> {
        use Step::{Index, Key};
        check_text(&[Key("name")], &self.name)?;
        check_text(&[Key("description")], &self.description)?;
        let p = &self.params;
        let at = |field| [Key("params"), Key(field)];
        let particle_radius = check_range(
            &at("particle_radius"),
            p.particle_radius,
            MIN_PARTICLE_RADIUS,
            10.0,
        )?;
        let interaction_radius = match p.interaction_radius {
            Some(h) => check_range(
                &at("interaction_radius"),
                h,
                2.0 * particle_radius,
                20.0 * particle_radius,
            )?,
            None => 6.0 * particle_radius,
        };
        let params = SimParams {
            rest_density: check_positive(&at("rest_density"), p.rest_density, 1.0e4)?,
            stiffness: check_range(&at("stiffness"), p.stiffness, 0.0, 10.0)?,
            near_stiffness: check_range(&at("near_stiffness"), p.near_stiffness, 0.0, 10.0)?,
            surface_tension: check_range(&at("surface_tension"), p.surface_tension, 0.0, 1.0)?,
            linear_viscosity: check_range(&at("linear_viscosity"), p.linear_viscosity, 0.0, 100.0)?,
            quadratic_viscosity: check_range(
                &at("quadratic_viscosity"),
                p.quadratic_viscosity,
                0.0,
                100.0,
            )?,
            particle_radius,
            interaction_radius,
            wall_friction: check_range(&at("wall_friction"), p.wall_friction, 0.0, 10.0)?,
            gravity: check_vector(&at("gravity"), p.gravity, 1000.0)?,
            frame_rate: check_range(&at("frame_rate"), p.frame_rate, 1.0, 1000.0)?,
            substeps: check_count(&at("substeps"), p.substeps as usize, 1, 100)? as u32,
            max_substeps: match p.max_substeps {
                Some(max) => {
                    check_count(&at("max_substeps"), max as usize, p.substeps as usize, 400)? as u32
                }
                None => 4 * p.substeps,
            },
            cfl: check_range(&at("cfl"), p.cfl, 0.05, 1.0)?,
            max_particles: check_count(&at("max_particles"), p.max_particles, 1, MAX_PARTICLES)?,
        };
        let base_particles = self
            .base_particles
            .map(|base| check_count(&[Key("base_particles")], base, 1, MAX_PARTICLES))
            .transpose()?;

        if self.materials.is_empty() {
            return Err(invalid(
                &[Key("materials")],
                "a preset needs at least one material",
            ));
        }
        if self.materials.len() > u16::MAX as usize {
            return Err(invalid(&[Key("materials")], "too many materials"));
        }
        let mut materials = Vec::with_capacity(self.materials.len());
        for (index, material) in self.materials.iter().enumerate() {
            let at = |field| [Key("materials"), Index(index), Key(field)];
            check_text(&at("name"), &material.name)?;
            if materials.iter().any(|m: &Material| m.name == material.name) {
                return Err(invalid(
                    &at("name"),
                    format!("`{}` is defined twice", material.name),
                ));
            }
            for channel in material.colour {
                check_range(&at("colour"), channel, 0.0, 1.0)?;
            }
            let optional = |field, value: Option<f32>, high| {
                value
                    .map(|value| check_range(&at(field), value, 0.0, high))
                    .transpose()
            };
            let dt = params.dt();
            let spring_limit = 0.05 / (dt * dt);
            materials.push(Material {
                stiffness: optional("stiffness", material.stiffness, 10.0)?,
                near_stiffness: optional("near_stiffness", material.near_stiffness, 10.0)?,
                surface_tension: optional("surface_tension", material.surface_tension, 1.0)?,
                linear_viscosity: optional("linear_viscosity", material.linear_viscosity, 100.0)?,
                quadratic_viscosity: optional(
                    "quadratic_viscosity",
                    material.quadratic_viscosity,
                    100.0,
                )?,
                spring_stiffness: check_range(
                    &at("spring_stiffness"),
                    material.spring_stiffness,
                    0.0,
                    spring_limit,
                )
                .map_err(|mut error| {
                    error
                        .message
                        .push_str(" (0.05 / dt²: stiffer springs need shorter substeps)");
                    error
                })?,
                yield_ratio: check_range(&at("yield_ratio"), material.yield_ratio, 0.0, 1.0)?,
                plasticity: check_range(&at("plasticity"), material.plasticity, 0.0, 100.0)?,
                spring_radius: check_positive(&at("spring_radius"), material.spring_radius, 1.0)?,
                stickiness: check_range(&at("stickiness"), material.stickiness, 0.0, 1.0e4)?,
                stick_distance: check_positive(
                    &at("stick_distance"),
                    material.stick_distance,
                    1.0,
                )?,
                name: material.name.clone(),
                colour: material.colour,
                mass: check_positive(&at("mass"), material.mass, 1000.0)?,
                pressure_scale: check_range(
                    &at("pressure_scale"),
                    material.pressure_scale,
                    -100.0,
                    100.0,
                )?,
                pressure_bias: check_range(
                    &at("pressure_bias"),
                    material.pressure_bias,
                    -100.0,
                    100.0,
                )?,
            });
        }
        let material_index = |path: &[Step], name: &str| {
            materials
                .iter()
                .position(|m| m.name == name)
                .ok_or_else(|| {
                    let known: Vec<&str> = materials.iter().map(|m| m.name.as_str()).collect();
                    invalid(
                        path,
                        format!("unknown material `{name}` (known: {})", known.join(", ")),
                    )
                })
        };

        let mut walls = Vec::with_capacity(self.walls.len());
        for (index, wall) in self.walls.iter().enumerate() {
            let at = |field| [Key("walls"), Index(index), Key(field)];
            let normal = check_vector(&at("normal"), wall.normal, MAX_COORDINATE)?;
            if normal.length() < 1.0e-6 {
                return Err(invalid(&at("normal"), "must not be zero"));
            }
            let offset = check_range(&at("offset"), wall.offset, -MAX_COORDINATE, MAX_COORDINATE)?;
            // `normal · x > offset` as written: `Wall::new` scales both to a unit normal.
            walls.push(Wall::new(normal, offset));
        }
        let domain = Domain::new(walls, particle_radius).map_err(|error| {
            let hint = match error {
                DomainError::Unbounded => " (each direction needs a wall)",
                DomainError::Empty => "",
            };
            invalid(&[Key("walls")], format!("{error}{hint}"))
        })?;
        // `Domain::new` measures room by area only; a long sliver thinner than a particle passes.
        let width = polygon_width(domain.polygon());
        if width < 2.0 * particle_radius {
            return Err(invalid(
                &[Key("walls")],
                format!(
                    "the walls enclose no room for fluid: the region is {width} across, \
                     a particle needs {}",
                    2.0 * particle_radius
                ),
            ));
        }

        let mut obstacles = Vec::with_capacity(self.obstacles.len());
        for (index, obstacle) in self.obstacles.iter().enumerate() {
            let at = |field| [Key("obstacles"), Index(index), Key(field)];
            let point = |field, value: Option<[f32; 2]>, wanted: bool| match (value, wanted) {
                (Some(value), true) => check_vector(&at(field), value, MAX_COORDINATE).map(Some),
                (None, false) => Ok(None),
                (None, true) => Err(invalid(
                    &at("kind"),
                    format!("a {} needs `{field}`", obstacle.kind),
                )),
                (Some(_), false) => Err(invalid(
                    &at(field),
                    format!("a {} has no `{field}`", obstacle.kind),
                )),
            };
            let is_circle = match obstacle.kind.as_str() {
                "circle" => true,
                "capsule" => false,
                other => {
                    return Err(invalid(
                        &at("kind"),
                        format!("must be \"circle\" or \"capsule\", got {other:?}"),
                    ))
                }
            };
            let centre = point("centre", obstacle.centre, is_circle)?;
            let a = point("a", obstacle.a, !is_circle)?;
            let b = point("b", obstacle.b, !is_circle)?;
            let radius = check_positive(&at("radius"), obstacle.radius, 1000.0)?;
            let friction = match obstacle.friction {
                Some(friction) => check_range(&at("friction"), friction, 0.0, 10.0)?,
                None => params.wall_friction,
            };
            let built = match (centre, a, b) {
                (Some(centre), _, _) => Obstacle::circle(centre, radius, friction),
                (None, Some(a), Some(b)) => Obstacle::capsule(a, b, radius, friction),
                _ => unreachable!("`point` demanded the fields of the kind"),
            };
            for end in [built.core().0, built.core().1] {
                if !domain.contains(end) {
                    let field = if is_circle {
                        "centre"
                    } else if end == built.core().0 {
                        "a"
                    } else {
                        "b"
                    };
                    return Err(invalid(&at(field), "lies outside the walls"));
                }
            }
            obstacles.push(built);
        }
        if let Some((index, problem)) = obstacle_gap_problem(&obstacles, &domain, particle_radius) {
            return Err(invalid(
                &[Key("obstacles"), Index(index), Key("radius")],
                problem,
            ));
        }
        let in_obstacle = |point: Vec2| {
            obstacles
                .iter()
                .position(|o| o.distance(point) < particle_radius)
        };

        let mut emitters = Vec::with_capacity(self.emitters.len());
        for (index, emitter) in self.emitters.iter().enumerate() {
            let at = |field| [Key("emitters"), Index(index), Key(field)];
            let direction = check_vector(&at("direction"), emitter.direction, MAX_COORDINATE)?;
            if direction.length() < 1.0e-6 {
                return Err(invalid(&at("direction"), "must not be zero"));
            }
            let built = Emitter {
                material: material_index(&at("material"), &emitter.material)?,
                position: check_vector(&at("position"), emitter.position, MAX_COORDINATE)?,
                direction: direction.normalize(),
                width: check_range(&at("width"), emitter.width, 0.0, 100.0)?,
                speed: check_range(&at("speed"), emitter.speed, 0.0, 1000.0)?,
                speed_jitter: check_range(&at("speed_jitter"), emitter.speed_jitter, 0.0, 0.99)?,
                delay: check_range(&at("delay"), emitter.delay, 0.0, 1.0e6)?,
                rate: check_positive(&at("rate"), emitter.rate, 1.0e5)?,
                budget: check_count(&at("budget"), emitter.budget, 0, MAX_PARTICLES)?,
            };
            if !domain.contains(built.position) {
                return Err(invalid(&at("position"), "lies outside the walls"));
            }
            let half_width = built.direction.perp() * (0.5 * built.width);
            for end in [built.position - half_width, built.position + half_width] {
                if !domain.contains(end) {
                    return Err(invalid(
                        &at("width"),
                        format!("the nozzle reaches outside the walls at {end}"),
                    ));
                }
            }
            for point in [
                built.position - half_width,
                built.position,
                built.position + half_width,
            ] {
                if let Some(obstacle) = in_obstacle(point) {
                    return Err(invalid(
                        &at("position"),
                        format!(
                            "the nozzle lies within a particle radius of obstacles[{obstacle}]"
                        ),
                    ));
                }
            }
            emitters.push(built);
        }

        let mut blocks = Vec::with_capacity(self.blocks.len());
        for (index, block) in self.blocks.iter().enumerate() {
            let at = |field| [Key("blocks"), Index(index), Key(field)];
            let min = check_vector(&at("min"), block.min, MAX_COORDINATE)?;
            let max = check_vector(&at("max"), block.max, MAX_COORDINATE)?;
            if max.x <= min.x || max.y <= min.y {
                return Err(invalid(&at("max"), "must lie above and right of `min`"));
            }
            let spacing = check_range(&at("spacing"), block.spacing, 0.5 * particle_radius, 100.0)?;
            let lattice = ((max - min) / spacing).as_dvec2();
            if lattice.x * lattice.y > MAX_PARTICLES as f64 {
                return Err(invalid(
                    &at("spacing"),
                    format!("fills more than {MAX_PARTICLES} particles"),
                ));
            }
            let count = block
                .count
                .map(|count| check_count(&at("count"), count, 0, MAX_PARTICLES))
                .transpose()?;
            for (corner, field) in [(min, "min"), (max, "max")] {
                if !domain.contains(corner) {
                    return Err(invalid(&at(field), "lies outside the walls"));
                }
            }
            // The walls are convex: the rectangle is inside when its other two corners are too.
            for corner in [Vec2::new(max.x, min.y), Vec2::new(min.x, max.y)] {
                if !domain.contains(corner) {
                    return Err(invalid(
                        &at("max"),
                        format!("the rectangle's corner {corner} lies outside the walls"),
                    ));
                }
            }
            blocks.push(Block {
                material: material_index(&at("material"), &block.material)?,
                min,
                max,
                spacing,
                count,
            });
        }

        Ok(Preset {
            name: self.name,
            description: self.description,
            params,
            materials,
            domain,
            emitters,
            blocks,
            obstacles,
            base_particles,
        })
    }
}

// ---- Locating fields in the text --------------------------------------------------------------

/// Line of the deepest existing value along `path` (the table itself when a field is missing).
fn line_of_field(text: &str, path: &[Step]) -> Option<usize> {
    let document = toml::de::DeTable::parse(text).ok()?;
    let mut span = document.span();
    let mut table = Some(document.get_ref());
    let mut array: Option<&toml::de::DeArray> = None;
    for step in path {
        let value = match (step, table, array) {
            (Step::Key(key), Some(current), _) => current.get(*key),
            (Step::Index(index), _, Some(current)) => current.get(*index),
            _ => None,
        };
        let Some(value) = value else { break };
        span = value.span();
        table = value.get_ref().as_table();
        array = value.get_ref().as_array();
    }
    Some(line_at(text, span.start))
}

/// Dotted path of the field a parse error at `target` is about.
///
/// In valid TOML (a type, range or unknown-field error) it is the innermost value or key whose
/// span holds `target`; table spans cover only their headers, so every value is visited, not
/// just those whose parent holds `target`. In text that is not valid TOML the recovered values
/// are unreliable, so there it is the table whose header comes last before the error, then the
/// key written at the start of the error's line (none for a broken header).
fn field_at(text: &str, target: Range<usize>) -> String {
    let (document, syntax_errors) = toml::de::DeTable::parse_recoverable(text);
    let mut search = FieldSearch {
        target: target.clone(),
        deepest: None,
        last_table: None,
    };
    search.table(document.get_ref(), &mut String::new(), 0);
    if syntax_errors.is_empty() {
        return search.deepest.map(|(_, path)| path).unwrap_or_default();
    }
    let start = target.start.min(text.len());
    let line_start = text[..start].rfind('\n').map_or(0, |newline| newline + 1);
    let line = text[line_start..].lines().next().unwrap_or("");
    let Some(key) = key_at_line_start(line) else {
        return String::new();
    };
    match search.last_table {
        Some((_, table)) if !table.is_empty() => format!("{table}.{key}"),
        _ => key.to_string(),
    }
}

/// The bare key a `key = value` line starts with, if it does.
fn key_at_line_start(line: &str) -> Option<&str> {
    let line = line.trim_start();
    let end = line
        .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.')))
        .unwrap_or(line.len());
    let (key, rest) = line.split_at(end);
    (!key.is_empty() && rest.trim_start().starts_with('=')).then_some(key)
}

/// State of `field_at`'s walk over the document.
struct FieldSearch {
    target: Range<usize>,
    /// (depth, path) of the deepest value or key whose span holds the target.
    deepest: Option<(usize, String)>,
    /// (header start, path) of the table whose header starts last before the target.
    last_table: Option<(usize, String)>,
}

impl FieldSearch {
    fn holds(&self, span: &Range<usize>) -> bool {
        span.start <= self.target.start && self.target.end <= span.end.max(span.start + 1)
    }

    fn found(&mut self, depth: usize, path: &str) {
        if self.deepest.as_ref().is_none_or(|(best, _)| depth > *best) {
            self.deepest = Some((depth, path.to_string()));
        }
    }

    fn table(&mut self, table: &toml::de::DeTable, path: &mut String, depth: usize) {
        for (key, value) in table.iter() {
            let length = path.len();
            if !path.is_empty() {
                path.push('.');
            }
            path.push_str(key.get_ref());
            if self.holds(&key.span()) {
                self.found(depth + 1, path);
            }
            self.value(value, path, depth + 1);
            path.truncate(length);
        }
    }

    fn value(&mut self, value: &toml::Spanned<toml::de::DeValue>, path: &mut String, depth: usize) {
        let span = value.span();
        if self.holds(&span) {
            self.found(depth, path);
        }
        if let Some(table) = value.get_ref().as_table() {
            let header = span.start;
            if header <= self.target.start
                && self
                    .last_table
                    .as_ref()
                    .is_none_or(|(best, _)| header >= *best)
            {
                self.last_table = Some((header, path.clone()));
            }
            self.table(table, path, depth);
        } else if let Some(array) = value.get_ref().as_array() {
            for (index, item) in array.iter().enumerate() {
                let length = path.len();
                path.push_str(&format!("[{index}]"));
                self.value(item, path, depth + 1);
                path.truncate(length);
            }
        }
    }
}
