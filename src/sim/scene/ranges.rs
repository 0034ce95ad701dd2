//! One table of every preset field: what it accepts, its default and, for the solver's
//! parameters, what it means. Everything that bounds a value reads it here:
//!
//! - the preset loader validates each field by its entry (`Field::check`);
//! - run-time edits (`World::tune`, `World::set_gravity`) and the panel's sliders stay inside
//!   the same entries;
//! - a restored snapshot is checked against them (`World::from_state`);
//! - the reference tables of fields and parameters are rendered from it and from the
//!   materials' table (`sim::scene::reference`).
//!
//! Values are at the reference particle radius of the preset files (`sim::scene::resolution`): a
//! world of other particles runs them rescaled. r is `params.particle_radius`, dt the substep
//! 1 / (`frame_rate` × `substeps`).

/// One step of a path to a value in a preset or snapshot: a key of a table, or an index into an
/// array. Errors name where they are by a path (`materials[2].mass`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A key of a table (an object in JSON).
    Key(&'static str),
    /// An index into an array.
    Index(usize),
}

/// A path as messages write it: `params.gravity`, `materials[2].mass`.
pub fn path_string(path: &[Step]) -> String {
    let mut out = String::new();
    for step in path {
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

/// A bound that may depend on the scene's particles or substeps.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Bound {
    /// A fixed number.
    Number(f32),
    /// A multiple of the particle radius r.
    Radii(f32),
    /// A multiple of 1 / dt².
    PerDtSquared(f32),
    /// A multiple of dt².
    TimesDtSquared(f32),
    /// The scene's `substeps` per frame.
    Substeps,
}

/// What a field accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Accepts {
    /// A finite number from the first bound to the second, both included.
    Range(Bound, Bound),
    /// A finite number above the first bound (excluded), at most the second.
    Above(Bound, Bound),
    /// A whole number from the first bound to the second.
    Count(Bound, usize),
    /// Two finite numbers, each within ± this.
    Components(f32),
    /// A point: two finite numbers within ±`MAX_COORDINATE`, placed as the words say (checked
    /// by the loader's own code).
    Place(&'static str),
    /// A rule said in words, checked by the loader's own code.
    Rule(&'static str),
}

/// One field of the preset format.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Field {
    /// Where it is, as a preset file writes it (`params.stiffness`, `materials[i].mass`).
    pub path: &'static str,
    /// What it accepts.
    pub accepts: Accepts,
    /// The unit its bounds are in, as docs/REFERENCE.md writes it after them ("" for none).
    pub unit: &'static str,
    /// Its default, as docs/REFERENCE.md writes it ("" when the field is required or has none).
    pub default: &'static str,
    /// What it means (for the parameters' table; "" elsewhere).
    pub meaning: &'static str,
}

/// What the bounds that depend on the scene are measured by.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scale {
    /// The particle radius r.
    pub radius: f32,
    /// The substep length dt.
    pub dt: f32,
    /// Substeps per frame.
    pub substeps: u32,
}

impl Scale {
    /// The bounds of a scene that runs with `params`.
    pub fn of(params: &SimParams) -> Self {
        Self {
            radius: params.particle_radius,
            dt: params.dt(),
            substeps: params.substeps,
        }
    }
}

impl Default for Scale {
    /// The seed's (`SimParams::default()`): r = 0.05, 7 substeps at 20 frames per second.
    fn default() -> Self {
        Self::of(&SimParams::default())
    }
}

impl Bound {
    /// Its value in a scene measured by `scale`.
    pub fn value(self, scale: &Scale) -> f32 {
        match self {
            Self::Number(value) => value,
            Self::Radii(radii) => radii * scale.radius,
            Self::PerDtSquared(factor) => factor / (scale.dt * scale.dt),
            Self::TimesDtSquared(factor) => factor * scale.dt * scale.dt,
            Self::Substeps => scale.substeps as f32,
        }
    }

    fn words(self) -> String {
        match self {
            Self::Number(value) => number(value),
            Self::Radii(radii) => format!("{} r", number(radii)),
            Self::PerDtSquared(factor) => format!("{} / dt²", number(factor)),
            Self::TimesDtSquared(factor) => format!("{} dt²", number(factor)),
            Self::Substeps => "`substeps`".into(),
        }
    }
}

/// A value a field does not accept: what the field accepts and what it got, as one sentence
/// ("must be a number from 0 to 10, got 12.0"), for the loader and the edits to say where.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RangeError(pub String);

impl std::fmt::Display for RangeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for RangeError {}

impl Field {
    /// `value` when this field accepts it in a scene measured by `scale`; otherwise what is
    /// wrong (`RangeError`).
    pub fn check(&self, value: f32, scale: &Scale) -> Result<f32, RangeError> {
        let within = |limit: f32| {
            (value.is_finite() && value.abs() <= limit)
                .then_some(value)
                .ok_or_else(|| {
                    RangeError(format!(
                        "must be two finite numbers within ±{limit}, got {value:?}"
                    ))
                })
        };
        match self.accepts {
            Accepts::Range(low, high) => {
                let (low, high) = (low.value(scale), high.value(scale));
                (value.is_finite() && value >= low && value <= high)
                    .then_some(value)
                    .ok_or_else(|| {
                        RangeError(format!(
                            "must be a number from {low} to {high}, got {value:?}"
                        ))
                    })
            }
            Accepts::Above(low, high) => {
                let (low, high) = (low.value(scale), high.value(scale));
                (value.is_finite() && value > low && value <= high)
                    .then_some(value)
                    .ok_or_else(|| {
                        RangeError(format!(
                            "must be a number above {low} and at most {high}, got {value:?}"
                        ))
                    })
            }
            Accepts::Components(limit) => within(limit),
            Accepts::Place(_) => within(MAX_COORDINATE),
            Accepts::Count(..) => self.check_count(value as usize, scale).map(|n| n as f32),
            Accepts::Rule(_) => Ok(value),
        }
    }

    /// `value` as a vector when this field accepts both components.
    pub fn check_vector(&self, value: [f32; 2], scale: &Scale) -> Result<glam::Vec2, RangeError> {
        match value.map(|component| self.check(component, scale)) {
            [Ok(x), Ok(y)] => Ok(glam::Vec2::new(x, y)),
            _ => Err(RangeError(match self.accepts {
                Accepts::Components(limit) => {
                    format!("must be two finite numbers within ±{limit}, got {value:?}")
                }
                Accepts::Place(_) => {
                    format!("must be two finite numbers within ±{MAX_COORDINATE}, got {value:?}")
                }
                _ => format!(
                    "must be two numbers, each {}, got {value:?}",
                    self.accepted()
                ),
            })),
        }
    }

    /// `value` when this whole-number field accepts it.
    pub fn check_count(&self, value: usize, scale: &Scale) -> Result<usize, RangeError> {
        match self.accepts {
            Accepts::Count(low, high) => {
                let low = low.value(scale) as usize;
                (low..=high)
                    .contains(&value)
                    .then_some(value)
                    .ok_or_else(|| RangeError(format!("must be from {low} to {high}, got {value}")))
            }
            _ => self.check(value as f32, scale).map(|v| v as usize),
        }
    }

    /// Its range (low, high) in a scene measured by `scale`: the ends of `Range` and `Above`,
    /// ± the limit of `Components`, the ends of `Count`; (−∞, ∞) for a rule.
    pub fn range(&self, scale: &Scale) -> (f32, f32) {
        match self.accepts {
            Accepts::Range(low, high) | Accepts::Above(low, high) => {
                (low.value(scale), high.value(scale))
            }
            Accepts::Count(low, high) => (low.value(scale), high as f32),
            Accepts::Components(limit) => (-limit, limit),
            Accepts::Place(_) => (-MAX_COORDINATE, MAX_COORDINATE),
            Accepts::Rule(_) => (f32::NEG_INFINITY, f32::INFINITY),
        }
    }

    /// The same entry with its plain-number bounds multiplied by `factor` (a field's range in
    /// a world of other particles, `material::Law`); bounds that depend on the scene's radius or
    /// substep stay as they are.
    pub fn in_world(&self, factor: f32) -> Field {
        let scaled = |bound: Bound| match bound {
            Bound::Number(value) => Bound::Number(value * factor),
            other => other,
        };
        let accepts = match self.accepts {
            Accepts::Range(low, high) => Accepts::Range(scaled(low), scaled(high)),
            Accepts::Above(low, high) => Accepts::Above(scaled(low), scaled(high)),
            other => other,
        };
        Field { accepts, ..*self }
    }

    /// Its key in its table: the last part of its path (`stiffness` for
    /// `materials[i].stiffness`).
    pub fn key(&self) -> &'static str {
        let path: &'static str = self.path;
        path.rsplit('.').next().unwrap_or(path)
    }

    /// What it accepts, in words (docs/REFERENCE.md's second column).
    pub fn accepted(&self) -> String {
        let said = match self.accepts {
            Accepts::Range(low, high) => format!("{} to {}", low.words(), high.words()),
            Accepts::Above(low, high) => {
                format!("above {}, at most {}", low.words(), high.words())
            }
            Accepts::Count(low, high) => format!("{} to {}", low.words(), number(high as f32)),
            Accepts::Components(limit) => format!("each component within ±{}", number(limit)),
            Accepts::Place(rule) | Accepts::Rule(rule) => rule.into(),
        };
        let said = if self.unit.is_empty() {
            said
        } else {
            format!("{said} {}", self.unit)
        };
        if self.default.is_empty() {
            said
        } else {
            format!("{said} (default {})", self.default)
        }
    }
}

/// A number as docs/REFERENCE.md writes it: thousands grouped, a minus sign, no trailing zeros.
fn number(value: f32) -> String {
    if value != 0.0 && (value.abs() < 1e-5 || value.abs() >= 1e7) {
        return format!("{value:e}");
    }
    let text = format!("{value}");
    let (sign, digits) = match text.strip_prefix('-') {
        Some(rest) => ("−", rest),
        None => ("", text.as_str()),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    let mut grouped = String::new();
    for (k, digit) in whole.chars().enumerate() {
        if k > 0 && (whole.len() - k) % 3 == 0 && whole.len() > 4 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}.{fraction}")
    }
}

/// Declares the fields as constants and `ALL`, the table in docs/REFERENCE.md's order.
macro_rules! fields {
    ($($(#[$doc:meta])* $name:ident = $path:literal $(in $unit:literal)?, $accepts:expr,
        $default:literal $(, $meaning:literal)?;)*) => {
        $($(#[$doc])* pub const $name: Field = Field {
            path: $path,
            accepts: $accepts,
            unit: fields!(@text $($unit)?),
            default: $default,
            meaning: fields!(@text $($meaning)?),
        };)*
        /// Every field, in docs/REFERENCE.md's order.
        pub const ALL: &[Field] = &[$($name),*];
    };
    (@text $text:literal) => { $text };
    (@text) => { "" };
}

use super::params::SimParams;
use Accepts::{Above, Components, Count, Place, Range, Rule};
use Bound::{Number as N, Radii, Substeps, TimesDtSquared};

/// Largest coordinate a scene may use.
pub const MAX_COORDINATE: f32 = 1.0e4;
/// Most particles a scene may hold, and the largest count any field takes.
pub const MAX_PARTICLES: usize = 2_000_000;
/// Most cells a side of the air grid may have.
pub const MAX_AIR_CELLS: usize = 1024;
/// Fastest air on the grid and from a source, each component, in m/s: faster air is clamped.
pub const MAX_AIR_SPEED: f32 = 50.0;
/// Most parts a body may have, and most corners a polygon part.
pub const MAX_PARTS: usize = 64;

fields! {
    /// The scene's name.
    NAME = "name", Rule("non-empty, one line, no control characters"), "";
    /// What the scene shows, one line.
    DESCRIPTION = "description", Rule("non-empty, one line, no control characters"), "";
    /// The count the geometry was drawn for (`--particles` widens instead of refining).
    BASE_PARTICLES = "base_particles", Count(N(1.0), MAX_PARTICLES), "none: `--particles` refines";
    /// Rest density ρ0.
    REST_DENSITY = "params.rest_density", Range(N(5.0), N(1000.0)), "82",
        "rest density ρ0 (per unit mass)";
    /// Pressure stiffness k.
    STIFFNESS = "params.stiffness", Range(N(0.0), N(10.0)), "0.08", "pressure stiffness k";
    /// Near-pressure stiffness k_near.
    NEAR_STIFFNESS = "params.near_stiffness", Range(N(0.0), N(10.0)), "0.1",
        "near-pressure stiffness";
    /// Surface tension σs.
    SURFACE_TENSION = "params.surface_tension", Range(N(0.0), TimesDtSquared(30.0)), "0.0004",
        "same-material surface tension σs";
    /// Linear viscosity σ.
    LINEAR_VISCOSITY = "params.linear_viscosity", Range(N(0.0), N(100.0)), "0.5",
        "linear viscosity σ of approaching pairs";
    /// Quadratic viscosity β.
    QUADRATIC_VISCOSITY = "params.quadratic_viscosity", Range(N(0.0), N(100.0)), "1",
        "quadratic viscosity β of approaching pairs";
    /// Particle radius r.
    PARTICLE_RADIUS = "params.particle_radius", Range(N(1.0e-3), N(10.0)), "0.05",
        "distance kept from walls; the resolution the preset runs at (the rest is rescaled)";
    /// Interaction radius h.
    INTERACTION_RADIUS = "params.interaction_radius", Range(Radii(2.0), Radii(20.0)), "6 r",
        "h: pairs closer than h interact; grid cells are h / 2 wide";
    /// Coulomb friction of the walls.
    WALL_FRICTION = "params.wall_friction", Range(N(0.0), N(10.0)), "0",
        "Coulomb friction of walls (0.5 for materials that grip)";
    /// Gravity.
    GRAVITY = "params.gravity" in "m/s²", Components(1000.0), "[0, −9.8]", "gravity in m/s²";
    /// Frames per simulated second.
    FRAME_RATE = "params.frame_rate" in "frames per simulated second", Range(N(1.0), N(1000.0)), "20",
        "frames per simulated second";
    /// Substeps per frame.
    SUBSTEPS = "params.substeps" in "per frame", Count(N(1.0), 100), "7", "substeps per frame (dt = 1/140 s)";
    /// Most substeps a fast frame may take.
    MAX_SUBSTEPS = "params.max_substeps", Count(Substeps, 400), "4 × `substeps`",
        "most substeps a fast frame may take";
    /// Most travel per substep.
    CFL = "params.cfl" in "h per substep", Range(N(0.05), N(1.0)), "0.5",
        "most travel per substep, in h, before a frame takes more substeps";
    /// The particle cap.
    MAX_PARTICLES_FIELD = "params.max_particles", Count(N(1.0), MAX_PARTICLES), "3000",
        "global particle cap";
    /// A wall's normal.
    WALL_NORMAL = "walls[i].normal", Components(MAX_COORDINATE), "";
    /// A wall's offset.
    WALL_OFFSET = "walls[i].offset", Range(N(-MAX_COORDINATE), N(MAX_COORDINATE)), "";
    /// A heater or cooler wall's temperature.
    WALL_TEMPERATURE = "walls[i].temperature" in "°C", Range(N(-1000.0), N(1000.0)), "none: adiabatic";
    /// The walls together.
    WALLS = "walls", Rule("at least three, enclosing a bounded region at least 2 r across; \
        fluid lives where `normal · x > offset`"), "";
    /// The materials together.
    MATERIALS = "materials", Rule("at least one; names unique"), "";
    /// An obstacle's kind.
    OBSTACLE_KIND = "obstacles[i].kind",
        Rule("`\"circle\"` (with `centre`) or `\"capsule\"` (with `a` and `b`)"), "";
    /// An obstacle's points.
    OBSTACLE_POINT = "obstacles[i].centre, .a, .b", Components(MAX_COORDINATE), "";
    /// An obstacle's radius.
    OBSTACLE_RADIUS = "obstacles[i].radius", Above(N(0.0), N(1000.0)), "";
    /// An obstacle's friction.
    OBSTACLE_FRICTION = "obstacles[i].friction", Range(N(0.0), N(10.0)),
        "`params.wall_friction`";
    /// A heater or cooler obstacle's temperature.
    OBSTACLE_TEMPERATURE = "obstacles[i].temperature" in "°C", Range(N(-1000.0), N(1000.0)), "none: adiabatic";
    /// The obstacles together.
    OBSTACLES = "obstacles", Rule("each at least 2 r from every wall and from every other \
        obstacle (surface to surface)"), "";
    /// A reaction's two materials.
    REACTION_BETWEEN = "reactions[i].between", Rule("two names from `materials`"), "";
    /// What a reaction's materials become.
    REACTION_INTO = "reactions[i].into", Rule("two names from `materials`, or `\"vapour\"` \
        (with a boiling material) or `\"nothing\"`"), "";
    /// Reactions per second of each touching particle.
    REACTION_RATE = "reactions[i].rate" in "per second", Range(N(0.0), N(1000.0)), "";
    /// Heat each product gains per unit mass.
    REACTION_HEAT = "reactions[i].heat" in "degrees of water", Range(N(-10000.0), N(10000.0)), "0";
    /// Which material an emitter or block holds.
    MATERIAL_REFERENCE = "emitters[i].material, blocks[i].material",
        Rule("a name from `materials`"), "";
    /// A nozzle's centre.
    EMITTER_POSITION = "emitters[i].position", Place("inside the walls, at least r from every \
        obstacle"), "";
    /// A nozzle's direction.
    EMITTER_DIRECTION = "emitters[i].direction", Components(MAX_COORDINATE), "";
    /// A nozzle's width.
    EMITTER_WIDTH = "emitters[i].width", Range(N(0.0), N(100.0)), "";
    /// Launch speed.
    EMITTER_SPEED = "emitters[i].speed" in "m/s", Range(N(0.0), N(1000.0)), "";
    /// Random spread of the launch speed.
    EMITTER_SPEED_JITTER = "emitters[i].speed_jitter", Range(N(0.0), N(0.99)), "0";
    /// Seconds before the first row.
    EMITTER_DELAY = "emitters[i].delay" in "seconds", Range(N(0.0), N(1.0e6)), "0";
    /// Rows per second.
    EMITTER_RATE = "emitters[i].rate" in "rows per second", Above(N(0.0), N(1.0e5)), "";
    /// Most particles an emitter makes.
    EMITTER_BUDGET = "emitters[i].budget", Count(N(0.0), MAX_PARTICLES), "";
    /// A block's corners.
    BLOCK_CORNERS = "blocks[i].min, .max", Components(MAX_COORDINATE), "";
    /// A block's rectangle.
    BLOCK = "blocks[i]", Rule("`max` above and right of `min`, the rectangle inside the \
        walls, at most 2,000,000 lattice sites"), "";
    /// A block's lattice spacing.
    BLOCK_SPACING = "blocks[i].spacing", Range(Radii(0.5), N(100.0)), "";
    /// Most particles a block places.
    BLOCK_COUNT = "blocks[i].count", Count(N(0.0), MAX_PARTICLES), "the whole rectangle";
    /// Air cells across.
    AIR_COLUMNS = "air.columns" in "cells across, and at most 1024 rows of square cells", Count(N(4.0), MAX_AIR_CELLS), "96";
    /// The air's density.
    AIR_DENSITY = "air.density", Above(N(0.0), N(1000.0)), "1";
    /// How much smoke weighs the air down.
    AIR_SMOKE_WEIGHT = "air.smoke_weight", Range(N(0.0), N(100.0)), "0.1";
    /// How much heat lifts the air.
    AIR_HEAT_LIFT = "air.heat_lift", Range(N(0.0), N(100.0)), "1";
    /// Vorticity confinement.
    AIR_VORTICITY = "air.vorticity", Range(N(0.0), N(100.0)), "2";
    /// How fast the air cools.
    AIR_COOLING = "air.cooling", Range(N(0.0), N(100.0)), "0.5";
    /// How fast smoke fades.
    AIR_SMOKE_DECAY = "air.smoke_decay", Range(N(0.0), N(100.0)), "0";
    /// Drag between air and liquid, per second.
    AIR_DRAG = "air.drag" in "per second", Range(N(0.0), N(1000.0)), "3";
    /// Heating of the air by the liquid, per second.
    AIR_HEATING = "air.heating" in "per second", Range(N(0.0), N(1000.0)), "4";
    /// How fast the liquid's surface takes the air's temperature, in scenes with heat.
    AIR_SURFACE_EXCHANGE = "air.surface_exchange" in "per second", Range(N(0.0), N(100.0)), "0.2";
    /// How far below the boiling point vapour condenses.
    AIR_CONDENSATION = "air.condensation" in "degrees below the boiling point", Range(N(0.0), N(1000.0)), "50";
    /// How smoke and heat are carried.
    AIR_ADVECTION = "air.advection", Rule("`\"conservative\"` or `\"semi-lagrangian\"`"),
        "`\"conservative\"`";
    /// The pressure solver.
    AIR_SOLVER = "air.solver", Rule("`\"multigrid\"` or `\"gauss-seidel\"`"), "`\"multigrid\"`";
    /// The pressure solver's tolerance.
    AIR_TOLERANCE = "air.tolerance", Range(N(1e-8), N(0.5)), "0.0001";
    /// The pressure solver's most iterations.
    AIR_MAX_ITERATIONS = "air.max_iterations", Count(N(1.0), 100_000), "100";
    /// The smoke's colour.
    AIR_COLOUR = "air.colour" in "in each of three channels", Range(N(0.0), N(1.0)), "";
    /// A source's centre.
    SOURCE_POSITION = "air.sources[i].position", Place("inside the walls"), "";
    /// A source's radius.
    SOURCE_RADIUS = "air.sources[i].radius", Above(N(0.0), N(1000.0)), "";
    /// Smoke a source gives per second.
    SOURCE_SMOKE = "air.sources[i].smoke" in "per second", Range(N(0.0), N(1.0e4)), "0";
    /// A source's temperature.
    SOURCE_TEMPERATURE = "air.sources[i].temperature", Range(N(-1000.0), N(1000.0)), "0";
    /// The air a source blows.
    SOURCE_VELOCITY = "air.sources[i].velocity" in "m/s", Components(MAX_AIR_SPEED), "[0, 0]";
    /// When a source starts, in seconds.
    SOURCE_START = "air.sources[i].start" in "seconds", Range(N(0.0), N(1.0e6)), "0";
    /// How long a source runs, in seconds.
    SOURCE_DURATION = "air.sources[i].duration" in "seconds", Above(N(0.0), N(1.0e6)), "forever";
    /// A body's name.
    BODY_NAME = "bodies[i].name", Rule("non-empty, one line, unique"), "";
    /// Where a body is.
    BODY_POSITION = "bodies[i].position", Place("the whole body inside the walls, at least 2 r from every \
        wall, obstacle and earlier body"), "";
    /// A body's or a part's angle, in radians.
    BODY_ANGLE = "bodies[i].angle, .shapes[k].angle" in "radians", Range(N(-1000.0), N(1000.0)), "0";
    /// A body's velocity.
    BODY_VELOCITY = "bodies[i].velocity" in "m/s", Components(100.0), "[0, 0]";
    /// A body's angular velocity, in radians per second.
    BODY_ANGULAR_VELOCITY = "bodies[i].angular_velocity" in "radians per second", Range(N(-100.0), N(100.0)), "0";
    /// A body's density, relative to a material of mass 1.
    BODY_DENSITY = "bodies[i].density" in "relative to a material of mass 1", Range(N(0.05), N(100.0)), "";
    /// A body's friction.
    BODY_FRICTION = "bodies[i].friction", Range(N(0.0), N(10.0)), "0.5";
    /// A body's restitution.
    BODY_RESTITUTION = "bodies[i].restitution", Range(N(0.0), N(1.0)), "0";
    /// A body's colour.
    BODY_COLOUR = "bodies[i].colour" in "in each of three channels", Range(N(0.0), N(1.0)), "";
    /// A body's parts.
    BODY_SHAPES = "bodies[i].shapes" in "parts", Count(N(1.0), MAX_PARTS), "";
    /// A part's kind.
    PART_KIND = "bodies[i].shapes[k].kind", Rule("`\"circle\"` (`radius`), `\"box\"` \
        (`half_size`), `\"capsule\"` (`half_length`, `radius`) or `\"polygon\"` (`points`, \
        convex, counter-clockwise); each part at least r from its middle to every side"), "";
    /// A part's sizes.
    PART_SIZE = "bodies[i].shapes[k].radius, .half_size, .half_length",
        Above(N(0.0), N(1000.0)), "";
    /// A polygon's corners.
    PART_POINTS = "bodies[i].shapes[k].points" in "corners", Count(N(3.0), MAX_PARTS), "";
    /// A polygon's corner, or a part's offset.
    PART_POINT = "bodies[i].shapes[k].points[j], .offset", Components(MAX_COORDINATE), "[0, 0]";
    /// The bodies a hinge joins.
    HINGE_BODIES = "hinges[i].body, .to", Rule("names from `bodies`, not the same; without \
        `to` the body is hinged to the world"), "";
    /// Where a hinge is.
    HINGE_ANCHOR = "hinges[i].anchor", Place("inside the walls"), "";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scene::material::*;

    #[test]
    fn numbers_read_as_readme_writes_them() {
        assert_eq!(number(10_000.0), "10,000");
        assert_eq!(number(1000.0), "1000");
        assert_eq!(number(2_000_000.0), "2,000,000");
        assert_eq!(number(-1000.0), "−1000");
        assert_eq!(number(0.05), "0.05");
        assert_eq!(number(1e-8), "1e-8");
    }

    #[test]
    fn a_value_outside_is_refused_with_its_range() {
        let scale = Scale::default();
        assert_eq!(STIFFNESS.check(0.5, &scale), Ok(0.5));
        assert_eq!(
            STIFFNESS.check(12.0, &scale),
            Err(RangeError("must be a number from 0 to 10, got 12.0".into()))
        );
        assert!(STIFFNESS.check(f32::NAN, &scale).is_err());
        assert!(MASS.check(0.0, &scale).is_err());
        let (_, top) = SPRING_STIFFNESS.range(&scale);
        assert!((top - 0.05 * 140.0 * 140.0).abs() < 1e-2);
        assert_eq!(
            MAX_SUBSTEPS.check_count(6, &scale),
            Err(RangeError("must be from 7 to 400, got 6".into()))
        );
    }

    #[test]
    fn the_table_defaults_are_the_engines() {
        let params = crate::sim::SimParams::default();
        let air = crate::sim::subsystems::air::AirSettings::default();
        let said =
            |field: &Field, value: f32| assert_eq!(field.default, number(value), "{}", field.path);
        said(&REST_DENSITY, params.rest_density);
        said(&STIFFNESS, params.stiffness);
        said(&NEAR_STIFFNESS, params.near_stiffness);
        said(&SURFACE_TENSION, params.surface_tension);
        said(&LINEAR_VISCOSITY, params.linear_viscosity);
        said(&QUADRATIC_VISCOSITY, params.quadratic_viscosity);
        said(&PARTICLE_RADIUS, params.particle_radius);
        said(&WALL_FRICTION, params.wall_friction);
        said(&FRAME_RATE, params.frame_rate);
        said(&SUBSTEPS, params.substeps as f32);
        said(&CFL, params.cfl);
        said(&MAX_PARTICLES_FIELD, params.max_particles as f32);
        said(&AIR_COLUMNS, air.columns as f32);
        said(&AIR_DENSITY, air.density);
        said(&AIR_SMOKE_WEIGHT, air.smoke_weight);
        said(&AIR_HEAT_LIFT, air.heat_lift);
        said(&AIR_VORTICITY, air.vorticity);
        said(&AIR_COOLING, air.cooling);
        said(&AIR_SMOKE_DECAY, air.smoke_decay);
        said(&AIR_DRAG, air.drag);
        said(&AIR_HEATING, air.heating);
        said(&AIR_SURFACE_EXCHANGE, air.surface_exchange);
        said(&AIR_CONDENSATION, air.condensation);
        said(&AIR_TOLERANCE, air.tolerance);
        said(&AIR_MAX_ITERATIONS, air.max_iterations as f32);
        // A material's defaults: every row whose default is a number says Material::default's.
        let material = Material::default();
        for row in MATERIAL_FIELDS {
            if let (Some(value), Ok(_)) = ((row.value)(&material), row.field.default.parse::<f32>())
            {
                said(row.field, value);
            }
        }
        assert_eq!(params.interaction_radius, 6.0 * params.particle_radius);
        assert_eq!(params.max_substeps, 4 * params.substeps);
    }
}
