//! Checking every value of a preset file against its accepted range (the table in the module
//! documentation of `preset`), one function per section, and building the scene from it.

use super::file::{
    BlockFile, EmitterFile, MaterialFile, ObstacleFile, ParamsFile, PresetFile, WallFile,
};
use super::MAX_PARTICLES;
use crate::sim::limits::{self, SURFACE_TENSION, VISCOSITY};
use crate::sim::resolution::REFERENCE_RADIUS;
use crate::sim::{Block, Domain, DomainError, Emitter, Material, Obstacle, Scene, SimParams, Wall};
use glam::Vec2;
use Step::{Index, Key};

/// One step of a path into the TOML document.
#[derive(Clone, Debug)]
pub(super) enum Step {
    /// A key of a table.
    Key(&'static str),
    /// An index into an array.
    Index(usize),
}

/// A value out of range, with the path to it.
pub(super) struct Invalid {
    pub path: Vec<Step>,
    pub message: String,
}

impl Invalid {
    pub fn path_string(&self) -> String {
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
pub(super) fn invalid(path: &[Step], message: impl Into<String>) -> Invalid {
    Invalid {
        path: path.to_vec(),
        message: message.into(),
    }
}

/// `check_range` with the range as a pair (the engine's `sim::limits`, shared with run-time
/// edits).
pub(super) fn within(path: &[Step], value: f32, (low, high): (f32, f32)) -> Result<f32, Invalid> {
    check_range(path, value, low, high)
}

/// Checks that `value` is finite and within `range` (inclusive).
pub(super) fn check_range(path: &[Step], value: f32, low: f32, high: f32) -> Result<f32, Invalid> {
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
pub(super) fn check_positive(path: &[Step], value: f32, high: f32) -> Result<f32, Invalid> {
    if value.is_finite() && value > 0.0 && value <= high {
        Ok(value)
    } else {
        Err(invalid(
            path,
            format!("must be a number above 0 and at most {high}, got {value:?}"),
        ))
    }
}

pub(super) fn check_vector(path: &[Step], value: [f32; 2], limit: f32) -> Result<Vec2, Invalid> {
    let vector = Vec2::from(value);
    if vector.is_finite() && crate::sim::portable::largest(vector.abs()) <= limit {
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
pub(super) fn check_text(path: &[Step], value: &str) -> Result<(), Invalid> {
    if value.trim().is_empty() {
        Err(invalid(path, "must not be empty"))
    } else if value.chars().any(char::is_control) {
        Err(invalid(path, "must be one line without control characters"))
    } else {
        Ok(())
    }
}

pub(super) fn check_count(
    path: &[Step],
    value: usize,
    low: usize,
    high: usize,
) -> Result<usize, Invalid> {
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
pub(super) const MAX_COORDINATE: f32 = 1.0e4;

/// Smallest particle radius: keeps nozzle rows and grids finite at any coordinate a scene may use.
const MIN_PARTICLE_RADIUS: f32 = 1.0e-3;

/// A preset file's values, checked.
pub(super) struct Checked {
    pub name: String,
    pub description: String,
    /// The scene as written: every value at the reference radius, but its walls, obstacles and
    /// nozzles checked (and its domain built) for the particles the file runs with, since only
    /// those ever move between them.
    pub reference: Scene,
    /// The particle radius the file asks for.
    pub radius: f32,
    pub base_particles: Option<usize>,
}

impl PresetFile {
    /// Checks every value, section by section, in the order of the file's usual layout.
    pub(super) fn validate(self) -> Result<Checked, Invalid> {
        check_text(&[Key("name")], &self.name)?;
        check_text(&[Key("description")], &self.description)?;
        let (params, radius) = params(&self.params)?;
        let base_particles = self
            .base_particles
            .map(|base| check_count(&[Key("base_particles")], base, 1, MAX_PARTICLES))
            .transpose()?;
        let materials = materials(&self.materials, &params)?;
        let domain = domain(&self.walls, radius)?;
        let obstacles = obstacles(&self.obstacles, &domain, radius, &params)?;
        let emitters = emitters(&self.emitters, &materials, &domain, &obstacles, radius)?;
        let blocks = blocks(&self.blocks, &materials, &domain, &params)?;
        let air = self
            .air
            .as_ref()
            .map(|air| super::air::air(air, &domain))
            .transpose()?;
        let (bodies, hinges) =
            super::bodies::bodies(&self.bodies, &self.hinges, &domain, &obstacles, radius)?;
        Ok(Checked {
            name: self.name,
            description: self.description,
            radius,
            reference: Scene {
                params,
                materials,
                domain,
                obstacles,
                emitters,
                blocks,
                air,
                bodies,
                hinges,
            },
            base_particles,
        })
    }
}

/// `[params]`, at the reference radius (every value but `particle_radius` is written for it),
/// and the particle radius the file asks for.
fn params(p: &ParamsFile) -> Result<(SimParams, f32), Invalid> {
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
    // The interaction radius is given for the file's particles: keep its ratio.
    let ratio = interaction_radius / particle_radius;
    let params = SimParams {
        rest_density: check_positive(&at("rest_density"), p.rest_density, 1.0e4)?,
        stiffness: within(&at("stiffness"), p.stiffness, limits::STIFFNESS)?,
        near_stiffness: within(&at("near_stiffness"), p.near_stiffness, limits::STIFFNESS)?,
        surface_tension: within(&at("surface_tension"), p.surface_tension, SURFACE_TENSION)?,
        linear_viscosity: within(&at("linear_viscosity"), p.linear_viscosity, VISCOSITY)?,
        quadratic_viscosity: within(&at("quadratic_viscosity"), p.quadratic_viscosity, VISCOSITY)?,
        particle_radius: REFERENCE_RADIUS,
        interaction_radius: ratio * REFERENCE_RADIUS,
        wall_friction: check_range(&at("wall_friction"), p.wall_friction, 0.0, 10.0)?,
        gravity: check_vector(&at("gravity"), p.gravity, limits::GRAVITY.1)?,
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
    Ok((params, particle_radius))
}

/// `[[materials]]`: at least one, names unique.
fn materials(list: &[MaterialFile], params: &SimParams) -> Result<Vec<Material>, Invalid> {
    if list.is_empty() {
        return Err(invalid(
            &[Key("materials")],
            "a preset needs at least one material",
        ));
    }
    if list.len() > u16::MAX as usize {
        return Err(invalid(&[Key("materials")], "too many materials"));
    }
    let mut materials = Vec::with_capacity(list.len());
    for (index, material) in list.iter().enumerate() {
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
        let optional = |field, value: Option<f32>, range| {
            value
                .map(|value| within(&at(field), value, range))
                .transpose()
        };
        let dt = params.dt();
        let spring_limit = limits::SPRING_STIFFNESS_DT2 / (dt * dt);
        materials.push(Material {
            stiffness: optional("stiffness", material.stiffness, limits::STIFFNESS)?,
            near_stiffness: optional("near_stiffness", material.near_stiffness, limits::STIFFNESS)?,
            surface_tension: optional(
                "surface_tension",
                material.surface_tension,
                SURFACE_TENSION,
            )?,
            linear_viscosity: optional("linear_viscosity", material.linear_viscosity, VISCOSITY)?,
            quadratic_viscosity: optional(
                "quadratic_viscosity",
                material.quadratic_viscosity,
                VISCOSITY,
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
            yield_ratio: within(
                &at("yield_ratio"),
                material.yield_ratio,
                limits::YIELD_RATIO,
            )?,
            plasticity: within(&at("plasticity"), material.plasticity, limits::PLASTICITY)?,
            spring_radius: check_positive(&at("spring_radius"), material.spring_radius, 1.0)?,
            stickiness: within(&at("stickiness"), material.stickiness, limits::STICKINESS)?,
            stick_distance: check_positive(&at("stick_distance"), material.stick_distance, 1.0)?,
            temperature: within(
                &at("temperature"),
                material.temperature,
                limits::TEMPERATURE,
            )?,
            smoke: within(&at("smoke"), material.smoke, limits::SMOKE)?,
            name: material.name.clone(),
            colour: material.colour,
            mass: check_positive(&at("mass"), material.mass, 1000.0)?,
            pressure_scale: within(
                &at("pressure_scale"),
                material.pressure_scale,
                limits::PRESSURE_SHADING,
            )?,
            pressure_bias: within(
                &at("pressure_bias"),
                material.pressure_bias,
                limits::PRESSURE_SHADING,
            )?,
        });
    }
    Ok(materials)
}

/// The index of the material called `name`, for the field at `path`.
fn material_index(materials: &[Material], path: &[Step], name: &str) -> Result<usize, Invalid> {
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
}

/// `[[walls]]`: the region they enclose, at least a particle across.
fn domain(list: &[WallFile], particle_radius: f32) -> Result<Domain, Invalid> {
    let mut walls = Vec::with_capacity(list.len());
    for (index, wall) in list.iter().enumerate() {
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

    Ok(domain)
}

/// `[[obstacles]]`: inside the walls, with their gaps (see `obstacle_gap_problem`) wide enough
/// for particles of `particle_radius`.
fn obstacles(
    list: &[ObstacleFile],
    domain: &Domain,
    particle_radius: f32,
    params: &SimParams,
) -> Result<Vec<Obstacle>, Invalid> {
    let mut obstacles = Vec::with_capacity(list.len());
    for (index, obstacle) in list.iter().enumerate() {
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
    if let Some((index, problem)) = obstacle_gap_problem(&obstacles, domain, particle_radius) {
        return Err(invalid(
            &[Key("obstacles"), Index(index), Key("radius")],
            problem,
        ));
    }
    Ok(obstacles)
}

/// `[[emitters]]`: nozzles inside the walls, a particle of `particle_radius` clear of the
/// obstacles.
fn emitters(
    list: &[EmitterFile],
    materials: &[Material],
    domain: &Domain,
    obstacles: &[Obstacle],
    particle_radius: f32,
) -> Result<Vec<Emitter>, Invalid> {
    let in_obstacle = |point: Vec2| {
        obstacles
            .iter()
            .position(|o| o.distance(point) < particle_radius)
    };
    let mut emitters = Vec::with_capacity(list.len());
    for (index, emitter) in list.iter().enumerate() {
        let at = |field| [Key("emitters"), Index(index), Key(field)];
        let direction = check_vector(&at("direction"), emitter.direction, MAX_COORDINATE)?;
        if direction.length() < 1.0e-6 {
            return Err(invalid(&at("direction"), "must not be zero"));
        }
        let built = Emitter {
            material: material_index(materials, &at("material"), &emitter.material)?,
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
                    format!("the nozzle lies within a particle radius of obstacles[{obstacle}]"),
                ));
            }
        }
        emitters.push(built);
    }

    Ok(emitters)
}

/// `[[blocks]]`: rectangles inside the walls.
fn blocks(
    list: &[BlockFile],
    materials: &[Material],
    domain: &Domain,
    params: &SimParams,
) -> Result<Vec<Block>, Invalid> {
    let particle_radius = params.particle_radius;
    let mut blocks = Vec::with_capacity(list.len());
    for (index, block) in list.iter().enumerate() {
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
            material: material_index(materials, &at("material"), &block.material)?,
            min,
            max,
            spacing,
            count,
        });
    }

    Ok(blocks)
}

/// the edge's line.
fn polygon_width(polygon: &[Vec2]) -> f32 {
    (0..polygon.len())
        .map(|k| {
            let (a, b) = (polygon[k], polygon[(k + 1) % polygon.len()]);
            let normal = (b - a).perp().normalize_or_zero();
            polygon
                .iter()
                .map(|&corner| normal.dot(corner - a).abs())
                .fold(0.0, crate::sim::portable::max)
        })
        .fold(f32::INFINITY, crate::sim::portable::min)
}

/// The first obstacle (index, problem) closer than 2 r to a wall or to an earlier obstacle.
pub(super) use crate::sim::obstacles::gap_problem as obstacle_gap_problem;
