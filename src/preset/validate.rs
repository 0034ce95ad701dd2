//! Checking every value of a preset file against its accepted range (the table in the module
//! documentation of `preset`), one function per section, and building the scene from it.

use super::check::{check, check_colour, check_count, check_text, check_vector, invalid, Invalid};
use super::file::{ObstacleFile, PresetFile};
use super::library::ReactionFile;
use crate::level::Level;
use crate::sim::scene::material::{COLOUR, MATERIAL_FIELDS};
use crate::sim::scene::ranges::{self as field, Field, Scale, Step, MAX_PARTICLES};
use crate::sim::scene::resolution::REFERENCE_RADIUS;
use crate::sim::{Block, Domain, DomainError, Emitter, Material, Obstacle, Scene, SimParams, Wall};
use crate::sim::{Product, Reaction};
use glam::Vec2;
use Step::{Index, Key};

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
    /// Its level, when it is one.
    pub level: Option<Level>,
}

impl PresetFile {
    /// Checks every value, section by section, in the order of the file's usual layout.
    pub(super) fn validate(self) -> Result<Checked, Invalid> {
        check_text(&[Key("name")], &self.name)?;
        check_text(&[Key("description")], &self.description)?;
        let (params, radius) = params(&self.params)?;
        let base_particles = self
            .base_particles
            .map(|base| {
                let fixed = Scale::default();
                check_count(
                    &[Key("base_particles")],
                    &field::BASE_PARTICLES,
                    base,
                    &fixed,
                )
            })
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
        let reactions = reactions(&self.reactions, &materials)?;
        let reference = Scene {
            params,
            materials,
            domain,
            obstacles,
            emitters,
            blocks,
            air,
            bodies,
            hinges,
            reactions,
        };
        let level = match (self.level, self.goals.is_empty()) {
            (None, true) => None,
            (None, false) => {
                return Err(invalid(
                    &[Key("goals")],
                    "goals belong to a level: add a `[level]` section",
                ))
            }
            (Some(rules), _) => {
                let level = Level {
                    rules,
                    goals: self.goals,
                };
                crate::level::check(&level, &reference)
                    .map_err(|(path, message)| invalid(&path, message))?;
                Some(level)
            }
        };
        Ok(Checked {
            name: self.name,
            description: self.description,
            radius,
            reference,
            base_particles,
            level,
        })
    }
}

/// `[params]`, at the reference radius (every value but `particle_radius` is written for it),
/// and the particle radius the file asks for.
fn params(p: &SimParams) -> Result<(SimParams, f32), Invalid> {
    let at = |field| [Key("params"), Key(field)];
    let fixed = Scale::default();
    let particle_radius = check(
        &at("particle_radius"),
        &field::PARTICLE_RADIUS,
        p.particle_radius,
        &fixed,
    )?;
    let substeps = check_count(
        &at("substeps"),
        &field::SUBSTEPS,
        p.substeps as usize,
        &fixed,
    )?;
    let frame_rate = check(&at("frame_rate"), &field::FRAME_RATE, p.frame_rate, &fixed)?;
    // The radii, substeps and substep the file's other bounds are measured by.
    let scale = Scale {
        radius: particle_radius,
        substeps: substeps as u32,
        dt: 1.0 / (frame_rate * substeps as f32),
    };
    let interaction_radius = check(
        &at("interaction_radius"),
        &field::INTERACTION_RADIUS,
        p.interaction_radius,
        &scale,
    )?;
    // The interaction radius is given for the file's particles: keep its ratio.
    let ratio = interaction_radius / particle_radius;
    let value = |field: &Field, value| check(&at(field.key()), field, value, &scale);
    let count = |field: &Field, value| check_count(&at(field.key()), field, value, &scale);
    let params = SimParams {
        rest_density: value(&field::REST_DENSITY, p.rest_density)?,
        stiffness: value(&field::STIFFNESS, p.stiffness)?,
        near_stiffness: value(&field::NEAR_STIFFNESS, p.near_stiffness)?,
        surface_tension: value(&field::SURFACE_TENSION, p.surface_tension).map_err(tension_hint)?,
        linear_viscosity: value(&field::LINEAR_VISCOSITY, p.linear_viscosity)?,
        quadratic_viscosity: value(&field::QUADRATIC_VISCOSITY, p.quadratic_viscosity)?,
        particle_radius: REFERENCE_RADIUS,
        interaction_radius: ratio * REFERENCE_RADIUS,
        wall_friction: value(&field::WALL_FRICTION, p.wall_friction)?,
        gravity: check_vector(
            &at("gravity"),
            &field::GRAVITY,
            p.gravity.to_array(),
            &scale,
        )?,
        frame_rate,
        substeps: substeps as u32,
        max_substeps: count(&field::MAX_SUBSTEPS, p.max_substeps as usize)? as u32,
        cfl: value(&field::CFL, p.cfl)?,
        max_particles: count(&field::MAX_PARTICLES_FIELD, p.max_particles)?,
    };
    Ok((params, particle_radius))
}

/// Says why surface tension has a ceiling that more substeps do not raise.
fn tension_hint(mut error: Invalid) -> Invalid {
    error.message.push_str(
        " (30 dt²: a stronger tension pulls the liquid into clumps that burst; more substeps do \
         not help, the same liquid's tension shrinks with dt²)",
    );
    error
}

/// What a spring stiffness out of range needs.
fn spring_hint(mut error: Invalid) -> Invalid {
    error
        .message
        .push_str(" (0.05 / dt²: stiffer springs need shorter substeps)");
    error
}

/// `[[materials]]`: at least one, names unique.
fn materials(list: &[Material], params: &SimParams) -> Result<Vec<Material>, Invalid> {
    if list.is_empty() {
        return Err(invalid(
            &[Key("materials")],
            "a preset needs at least one material",
        ));
    }
    if list.len() > u16::MAX as usize {
        return Err(invalid(&[Key("materials")], "too many materials"));
    }
    let scale = Scale::of(params);
    let mut materials = Vec::with_capacity(list.len());
    for (index, material) in list.iter().enumerate() {
        let at = |field| [Key("materials"), Index(index), Key(field)];
        check_text(&at("name"), &material.name)?;
        if !material.description.is_empty() {
            check_text(&at("description"), &material.description)?;
        }
        if PRODUCT_WORDS.contains(&material.name.as_str()) {
            return Err(invalid(
                &at("name"),
                format!("`{}` is a reaction's word for no material", material.name),
            ));
        }
        if materials.iter().any(|m: &Material| m.name == material.name) {
            return Err(invalid(
                &at("name"),
                format!("`{}` is defined twice", material.name),
            ));
        }
        let mut checked = Material {
            colour: check_colour(&at("colour"), &COLOUR, material.colour, &scale)?,
            ..material.clone()
        };
        for row in MATERIAL_FIELDS {
            let Some(value) = (row.value)(material) else {
                continue;
            };
            let value =
                check(&at(row.name), row.field, value, &scale).map_err(|error| match row.name {
                    "surface_tension" => tension_hint(error),
                    "spring_stiffness" => spring_hint(error),
                    _ => error,
                })?;
            (row.put)(&mut checked, Some(value));
        }
        materials.push(checked);
    }
    phases(&materials)?;
    Ok(materials)
}

/// `[[reactions]]`: their materials and products by name, their rates and heats.
fn reactions(list: &[ReactionFile], materials: &[Material]) -> Result<Vec<Reaction>, Invalid> {
    let fixed = Scale::default();
    let mut reactions = Vec::with_capacity(list.len());
    for (index, file) in list.iter().enumerate() {
        let at = |field| [Key("reactions"), Index(index), Key(field)];
        check_text(&at("name"), &file.name)?;
        let material = |name: &str| material_index(materials, &at("between"), name);
        let between = [material(&file.between[0])?, material(&file.between[1])?];
        let product = |name: &str| match name {
            "vapour" => match materials.iter().any(|m| m.boiling_point.is_some()) {
                true => Ok(Product::Vapour),
                false => Err(invalid(
                    &at("into"),
                    "`vapour` needs a material with a `boiling_point`, whose vapour it is",
                )),
            },
            "nothing" => Ok(Product::Nothing),
            name => material_index(materials, &at("into"), name).map(Product::Material),
        };
        let into = [product(&file.into[0])?, product(&file.into[1])?];
        reactions.push(Reaction {
            name: file.name.clone(),
            between,
            into,
            rate: check(&at("rate"), &field::REACTION_RATE, file.rate, &fixed)?,
            heat: check(&at("heat"), &field::REACTION_HEAT, file.heat, &fixed)?,
        });
    }
    Ok(reactions)
}

/// The words a reaction's `into` uses for products that are no material.
const PRODUCT_WORDS: [&str; 2] = ["vapour", "nothing"];

/// The materials' phase changes: each `melts_into` names another material, no two melt into
/// the same one (freezing must know what it turns into), and at most one material boils (the
/// air's vapour condenses into it).
fn phases(materials: &[Material]) -> Result<(), Invalid> {
    let mut boiling = None;
    for (index, material) in materials.iter().enumerate() {
        let at = |field| [Key("materials"), Index(index), Key(field)];
        if let Some(into) = &material.melts_into {
            let target = material_index(materials, &at("melts_into"), into)?;
            if target == index {
                return Err(invalid(
                    &at("melts_into"),
                    "a material cannot melt into itself",
                ));
            }
            let first = materials
                .iter()
                .position(|m| m.melts_into.as_deref() == Some(into.as_str()));
            if first != Some(index) {
                return Err(invalid(
                    &at("melts_into"),
                    format!(
                        "`{into}` is what `{}` melts into already; at most one material melts \
                         into each",
                        materials[first.unwrap_or(index)].name
                    ),
                ));
            }
        }
        if material.boiling_point.is_some() {
            if let Some(first) = boiling.replace(index) {
                return Err(invalid(
                    &at("boiling_point"),
                    format!(
                        "`{}` boils already; at most one material boils (the air's vapour \
                         condenses into it)",
                        materials[first].name
                    ),
                ));
            }
        }
    }
    Ok(())
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
fn domain(list: &[Wall], particle_radius: f32) -> Result<Domain, Invalid> {
    let mut walls = Vec::with_capacity(list.len());
    for (index, wall) in list.iter().enumerate() {
        let at = |field| [Key("walls"), Index(index), Key(field)];
        let fixed = Scale::default();
        let normal = check_vector(
            &at("normal"),
            &field::WALL_NORMAL,
            wall.normal.to_array(),
            &fixed,
        )?;
        if normal.length() < 1.0e-6 {
            return Err(invalid(&at("normal"), "must not be zero"));
        }
        let offset = check(&at("offset"), &field::WALL_OFFSET, wall.offset, &fixed)?;
        let temperature = wall
            .temperature
            .map(|t| check(&at("temperature"), &field::WALL_TEMPERATURE, t, &fixed))
            .transpose()?;
        // `normal · x > offset` as written: `Wall::new` scales both to a unit normal.
        walls.push(Wall {
            temperature,
            ..Wall::new(normal, offset)
        });
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
    let fixed = Scale::default();
    let mut obstacles = Vec::with_capacity(list.len());
    for (index, obstacle) in list.iter().enumerate() {
        let at = |field| [Key("obstacles"), Index(index), Key(field)];
        let point = |field, value: Option<[f32; 2]>, wanted: bool| match (value, wanted) {
            (Some(value), true) => {
                check_vector(&at(field), &field::OBSTACLE_POINT, value, &fixed).map(Some)
            }
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
        let radius = check(
            &at("radius"),
            &field::OBSTACLE_RADIUS,
            obstacle.radius,
            &fixed,
        )?;
        let friction = match obstacle.friction {
            Some(friction) => check(&at("friction"), &field::OBSTACLE_FRICTION, friction, &fixed)?,
            None => params.wall_friction,
        };
        let mut built = match (centre, a, b) {
            (Some(centre), _, _) => Obstacle::circle(centre, radius, friction),
            (None, Some(a), Some(b)) => Obstacle::capsule(a, b, radius, friction),
            _ => unreachable!("`point` demanded the fields of the kind"),
        };
        built.temperature = obstacle
            .temperature
            .map(|t| check(&at("temperature"), &field::OBSTACLE_TEMPERATURE, t, &fixed))
            .transpose()?;
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
    list: &[Emitter<String>],
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
    let fixed = Scale::default();
    let mut emitters = Vec::with_capacity(list.len());
    for (index, emitter) in list.iter().enumerate() {
        let at = |field| [Key("emitters"), Index(index), Key(field)];
        let value = |field: &Field, value| check(&at(field.key()), field, value, &fixed);
        let direction = check_vector(
            &at("direction"),
            &field::EMITTER_DIRECTION,
            emitter.direction.to_array(),
            &fixed,
        )?;
        if direction.length() < 1.0e-6 {
            return Err(invalid(&at("direction"), "must not be zero"));
        }
        let built = Emitter {
            material: material_index(materials, &at("material"), &emitter.material)?,
            position: check_vector(
                &at("position"),
                &field::EMITTER_POSITION,
                emitter.position.to_array(),
                &fixed,
            )?,
            direction: direction.normalize(),
            width: value(&field::EMITTER_WIDTH, emitter.width)?,
            speed: value(&field::EMITTER_SPEED, emitter.speed)?,
            speed_jitter: value(&field::EMITTER_SPEED_JITTER, emitter.speed_jitter)?,
            delay: value(&field::EMITTER_DELAY, emitter.delay)?,
            rate: value(&field::EMITTER_RATE, emitter.rate)?,
            budget: check_count(
                &at("budget"),
                &field::EMITTER_BUDGET,
                emitter.budget,
                &fixed,
            )?,
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
    list: &[Block<String>],
    materials: &[Material],
    domain: &Domain,
    params: &SimParams,
) -> Result<Vec<Block>, Invalid> {
    let scale = Scale::of(params);
    let mut blocks = Vec::with_capacity(list.len());
    for (index, block) in list.iter().enumerate() {
        let at = |field| [Key("blocks"), Index(index), Key(field)];
        let min = check_vector(
            &at("min"),
            &field::BLOCK_CORNERS,
            block.min.to_array(),
            &scale,
        )?;
        let max = check_vector(
            &at("max"),
            &field::BLOCK_CORNERS,
            block.max.to_array(),
            &scale,
        )?;
        if max.x <= min.x || max.y <= min.y {
            return Err(invalid(&at("max"), "must lie above and right of `min`"));
        }
        let spacing = check(&at("spacing"), &field::BLOCK_SPACING, block.spacing, &scale)?;
        let lattice = ((max - min) / spacing).as_dvec2();
        if lattice.x * lattice.y > MAX_PARTICLES as f64 {
            return Err(invalid(
                &at("spacing"),
                format!("fills more than {MAX_PARTICLES} particles"),
            ));
        }
        let count = block
            .count
            .map(|count| check_count(&at("count"), &field::BLOCK_COUNT, count, &scale))
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
                .fold(0.0, crate::sim::numerics::portable::max)
        })
        .fold(f32::INFINITY, crate::sim::numerics::portable::min)
}

/// The first obstacle (index, problem) closer than 2 r to a wall or to an earlier obstacle.
pub(super) use crate::sim::subsystems::obstacles::gap_problem as obstacle_gap_problem;
