//! What a scene is made of: parameters, materials, walls, obstacles, emitters and initial blocks
//! of liquid.

pub mod air;
pub mod bodies;
pub mod domain;
pub mod material;
pub mod params;
pub mod ranges;
pub mod reference;
pub mod resolution;
pub mod shape;

pub use material::{Material, MaterialPatch, Style, Tunable};

use air::AirSettings;
use bodies::{Body, Hinge};
use domain::Domain;
use glam::Vec2;
use params::SimParams;
use serde::{Deserialize, Serialize};

/// Everything a world is made of. Presets build one from a TOML file, checking every value
/// (`preset::Preset::load`); a scene built in code should keep the same ranges.
#[derive(Clone, Debug)]
pub struct Scene {
    /// Solver parameters.
    pub params: SimParams,
    /// Liquids, indexed by emitters, blocks and particles (at least one).
    pub materials: Vec<Material>,
    /// Wall planes and the region they enclose.
    pub domain: Domain,
    /// Static circles and capsules.
    pub obstacles: Vec<Obstacle>,
    /// Nozzles.
    pub emitters: Vec<Emitter>,
    /// Rectangles filled with liquid at the start.
    pub blocks: Vec<Block>,
    /// Air and smoke on a grid over the walls, coupled with the liquid (`None`: no air).
    pub air: Option<AirSettings>,
    /// Rigid bodies, coupled both ways with the liquid (rapier2d). They need the `bodies`
    /// feature: without it the preset loader and `World::from_state` refuse a scene with bodies or
    /// hinges, and a world built in code from one runs without them.
    pub bodies: Vec<Body>,
    /// Hinges between a body and the world or another body.
    pub hinges: Vec<Hinge>,
    /// What two materials in contact turn into (`sim::subsystems::heat`), applied in this order.
    pub reactions: Vec<Reaction>,
}

/// A rule for two materials in contact: lava and water make rock and steam. Each frame, every
/// particle of the first material that touches one of the second (closer than h) reacts with
/// the nearest in the contacts' order that has not reacted yet, with the chance
/// 1 − e^(−rate Δt) drawn from the world's seeded generator; both become their products, and
/// each product gains `heat`. Reactions run in the order the scene lists them, each particle at
/// most once a frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Reaction {
    /// Its name, in reports.
    pub name: String,
    /// The two materials, by index.
    pub between: [usize; 2],
    /// What each of them becomes.
    pub into: [Product; 2],
    /// Reactions per second of each particle of the first material touching the second.
    pub rate: f32,
    /// The heat each product gains, per unit mass, in degrees of water (negative: absorbed).
    pub heat: f32,
}

/// What a particle becomes in a reaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Product {
    /// This material (by index), keeping its place, its velocity and its heat.
    Material(usize),
    /// Vapour of the scene's boiling material: it leaves the liquid at once, with its mass.
    Vapour,
    /// Nothing: the particle is gone.
    Nothing,
}

/// A nozzle that shoots rows of particles across its width, along its direction.
///
/// `M` is how it names its material: an index into the world's materials (`usize`, what the
/// engine runs), or the material's name (`String`, a preset's `[[emitters]]` entry as written).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Emitter<M = usize> {
    /// The material it pours: an index into the world's materials, or a name in a preset.
    pub material: M,
    /// Centre of the nozzle.
    pub position: Vec2,
    /// Unit direction particles leave in (a preset's need not be unit; it is normalised).
    pub direction: Vec2,
    /// Width of the nozzle; a row holds width / (2 × radius) + 1 particles (as in the seed).
    pub width: f32,
    /// Launch speed.
    pub speed: f32,
    /// Relative random spread of the speed: each velocity component is scaled by a factor drawn
    /// from [1 − jitter, 1 + jitter] (the seed uses 0.1; a preset that leaves it out, 0).
    #[serde(default)]
    pub speed_jitter: f32,
    /// Simulated seconds before the first row (0).
    #[serde(default)]
    pub delay: f32,
    /// Rows per simulated second (the seed emits one row every 3 substeps: 140 / 3 per second).
    pub rate: f32,
    /// Most particles this emitter makes.
    pub budget: usize,
}

impl Emitter {
    /// Particle offsets across the nozzle, relative to its centre (the seed's row layout).
    pub fn row_offsets(&self, particle_radius: f32) -> Vec<Vec2> {
        let steps = (self.width / (2.0 * particle_radius)) as usize;
        let across = self.direction.perp();
        (0..=steps)
            .map(|k| {
                let fraction = if steps == 0 {
                    0.0
                } else {
                    k as f32 / steps as f32 - 0.5
                };
                across * (fraction * self.width)
            })
            .collect()
    }
}

/// A rectangle filled with fluid at the start (dam breaks, pools).
///
/// `M` names its material as for [`Emitter`]: an index, or a name in a preset's `[[blocks]]`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Block<M = usize> {
    /// The material it is filled with: an index into the world's materials, or a name.
    pub material: M,
    /// Lower-left corner.
    pub min: Vec2,
    /// Upper-right corner.
    pub max: Vec2,
    /// Distance between neighbouring particles of the fill.
    pub spacing: f32,
    /// Most particles to place, row by row from the bottom (the whole rectangle if `None`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<usize>,
}

impl Block {
    /// Particles per row of the fill.
    pub fn columns(&self) -> usize {
        (((self.max.x - self.min.x) / self.spacing + 1.0e-3) as usize).max(1)
    }

    /// Lattice positions of the fill, row by row from the bottom left, at most `count`.
    pub fn positions(&self) -> Vec<Vec2> {
        let columns = self.columns();
        let rows = (((self.max.y - self.min.y) / self.spacing + 1.0e-3) as usize).max(1);
        let limit = self.count.unwrap_or(columns * rows).min(columns * rows);
        (0..limit)
            .map(|k| {
                let (column, row) = (k % columns, k / columns);
                self.min + Vec2::new(column as f32 + 0.5, row as f32 + 0.5) * self.spacing
            })
            .collect()
    }
}

/// The solid part of an obstacle, for drawing and collision.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "lowercase")]
pub enum Shape {
    /// A disc: every point closer than `radius` to `centre`.
    Circle {
        /// Centre of the disc.
        centre: Vec2,
        /// Radius of the disc.
        radius: f32,
    },
    /// A line segment with thickness (a stadium): every point closer than `radius` to the
    /// segment from `a` to `b`. Draw it as a rectangle of width 2 × radius along a–b with a
    /// half-disc at each end.
    Capsule {
        /// One end of the core segment.
        a: Vec2,
        /// The other end of the core segment.
        b: Vec2,
        /// Half the thickness (the radius of the rounded ends).
        radius: f32,
    },
}

/// A static collider: particles slide along it with Coulomb friction and sticky materials cling
/// to it. `World::obstacles()` lists them for the renderer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Obstacle {
    /// What it looks like.
    pub shape: Shape,
    /// Coulomb friction of its surface, like `SimParams::wall_friction`.
    pub friction: f32,
    /// A heater or cooler: the particles beside it are brought toward this temperature, in °C
    /// (`sim::subsystems::heat`). `None` (the default): adiabatic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f32>,
}

impl Obstacle {
    /// A disc at `centre`.
    pub fn circle(centre: Vec2, radius: f32, friction: f32) -> Self {
        Self {
            shape: Shape::Circle { centre, radius },
            friction,
            temperature: None,
        }
    }

    /// A capsule around the segment `a`–`b`.
    pub fn capsule(a: Vec2, b: Vec2, radius: f32, friction: f32) -> Self {
        Self {
            shape: Shape::Capsule { a, b, radius },
            friction,
            temperature: None,
        }
    }

    /// Radius of the solid around the core.
    pub fn radius(&self) -> f32 {
        match self.shape {
            Shape::Circle { radius, .. } | Shape::Capsule { radius, .. } => radius,
        }
    }

    /// Ends of the core: the centre twice for a circle.
    pub fn core(&self) -> (Vec2, Vec2) {
        match self.shape {
            Shape::Circle { centre, .. } => (centre, centre),
            Shape::Capsule { a, b, .. } => (a, b),
        }
    }

    /// The point of the core nearest to `point`.
    pub fn core_point(&self, point: Vec2) -> Vec2 {
        let (a, b) = self.core();
        let along = b - a;
        let length2 = along.length_squared();
        if length2 <= 0.0 {
            return a;
        }
        let t = ((point - a).dot(along) / length2).clamp(0.0, 1.0);
        a + along * t
    }

    /// Signed distance from `point` to the surface: negative inside the solid.
    pub fn distance(&self, point: Vec2) -> f32 {
        (point - self.core_point(point)).length() - self.radius()
    }

    /// Distance between the cores of two obstacles (0 where they cross).
    pub fn core_distance(&self, other: &Obstacle) -> f32 {
        let (a, b) = self.core();
        let (c, d) = other.core();
        if segments_cross(a, b, c, d) {
            return 0.0;
        }
        [
            (a - other.core_point(a)).length(),
            (b - other.core_point(b)).length(),
            (c - self.core_point(c)).length(),
            (d - self.core_point(d)).length(),
        ]
        .into_iter()
        .fold(f32::INFINITY, crate::sim::numerics::portable::min)
    }
}

/// True when segments a–b and c–d properly cross.
fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn capsule_distance_measures_from_the_segment() {
        let capsule = Obstacle::capsule(Vec2::new(0.0, 0.0), Vec2::new(2.0, 0.0), 0.5, 0.0);
        assert!((capsule.distance(Vec2::new(1.0, 1.0)) - 0.5).abs() < 1e-6);
        assert!((capsule.distance(Vec2::new(3.0, 0.0)) - 0.5).abs() < 1e-6);
        assert!(capsule.distance(Vec2::new(1.0, 0.2)) < 0.0);
    }

    #[test]
    fn crossing_cores_have_no_distance() {
        let one = Obstacle::capsule(Vec2::new(-1.0, 0.0), Vec2::new(1.0, 0.0), 0.1, 0.0);
        let two = Obstacle::capsule(Vec2::new(0.0, -1.0), Vec2::new(0.0, 1.0), 0.1, 0.0);
        assert_eq!(one.core_distance(&two), 0.0);
        let three = Obstacle::circle(Vec2::new(0.0, 2.0), 0.1, 0.0);
        assert!((one.core_distance(&three) - 2.0).abs() < 1e-6);
    }
}
