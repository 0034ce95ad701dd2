//! Static obstacles (circles and capsules) and the contact stage that keeps particles out of
//! them and lets sticky materials cling to them and to the walls (Clavet et al. 2005, 6.1–6.2).
//!
//! An obstacle is a *core* (a point for a circle, a segment for a capsule) thickened by a
//! radius: the solid is every point closer than `radius` to the core. Particles are kept one
//! particle radius outside that surface, as the walls keep them one radius inside the walls.
//!
//! Presets keep every obstacle at least two particle radii from every wall and from every other
//! obstacle (see `preset.rs`). With that gap, pushing a particle out of one obstacle never puts
//! it into another or behind a wall, and the wall clamp that follows never puts it back into an
//! obstacle, so a single pass leaves no particle inside any solid.

use super::contact::collide;
use super::domain::Domain;
use super::physics::stickiness_impulse;
use super::scene::Material;
use super::subsystem::{Moving, Subsystem};
use glam::Vec2;

/// The solid part of an obstacle, for drawing and collision.
#[derive(Clone, Copy, Debug, PartialEq)]
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
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Obstacle {
    /// What it looks like.
    pub shape: Shape,
    /// Coulomb friction of its surface, like `SimParams::wall_friction`.
    pub friction: f32,
}

impl Obstacle {
    /// A disc at `centre`.
    pub fn circle(centre: Vec2, radius: f32, friction: f32) -> Self {
        Self {
            shape: Shape::Circle { centre, radius },
            friction,
        }
    }

    /// A capsule around the segment `a`–`b`.
    pub fn capsule(a: Vec2, b: Vec2, radius: f32, friction: f32) -> Self {
        Self {
            shape: Shape::Capsule { a, b, radius },
            friction,
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
        .fold(f32::INFINITY, f32::min)
    }
}

/// True when segments a–b and c–d properly cross.
fn segments_cross(a: Vec2, b: Vec2, c: Vec2, d: Vec2) -> bool {
    let side = |p: Vec2, q: Vec2, r: Vec2| (q - p).perp_dot(r - p);
    let (d1, d2) = (side(c, d, a), side(c, d, b));
    let (d3, d4) = (side(a, b, c), side(a, b, d));
    d1 * d2 < 0.0 && d3 * d4 < 0.0
}

/// How one material sticks: the impulse Δt k_stick d (1 − d / d_stick) toward a surface at
/// distance d < d_stick.
#[derive(Clone, Copy, Debug, Default)]
struct Stickiness {
    strength: f32,
    reach: f32,
}

/// The obstacles and each material's stickiness, as the move stage uses them.
#[derive(Clone, Debug, Default)]
pub struct Contacts {
    obstacles: Vec<Obstacle>,
    /// Per material; empty when no material is sticky.
    stickiness: Vec<Stickiness>,
    particle_radius: f32,
}

impl Contacts {
    /// Contacts for `obstacles`, with the stickiness of `materials` (`stickiness` and
    /// `stick_distance`); `h` the interaction radius.
    pub fn new(
        obstacles: Vec<Obstacle>,
        materials: &[Material],
        h: f32,
        particle_radius: f32,
    ) -> Self {
        let mut stickiness: Vec<Stickiness> = materials
            .iter()
            .map(|m| Stickiness {
                strength: m.stickiness,
                reach: m.stick_distance * h,
            })
            .collect();
        if stickiness
            .iter()
            .all(|s| s.strength <= 0.0 || s.reach <= 0.0)
        {
            stickiness.clear();
        }
        Self {
            obstacles,
            stickiness,
            particle_radius,
        }
    }

    /// The obstacles.
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    /// True when there is nothing to do: no obstacles and no sticky material.
    pub fn is_idle(&self) -> bool {
        self.obstacles.is_empty() && self.stickiness.is_empty()
    }

    /// True when `point` lies where a particle may not be (inside an obstacle's reach of one
    /// particle radius).
    pub fn blocks(&self, point: Vec2) -> bool {
        self.obstacles
            .iter()
            .any(|o| o.distance(point) < self.particle_radius)
    }

    /// Puts a particle that is closer than one particle radius to an obstacle back at one
    /// radius from it, removes its velocity into the obstacle and applies the obstacle's
    /// friction to the rest (as the walls do). Its start of the substep gives the way out for a
    /// particle exactly on the core.
    fn push_out_of_obstacles(&self, particle: &mut Moving) {
        let (mut x, mut v, previous) = (particle.position, particle.velocity, particle.start);
        for obstacle in &self.obstacles {
            let core = obstacle.core_point(x);
            let offset = x - core;
            let reach = obstacle.radius() + self.particle_radius;
            let distance2 = offset.length_squared();
            if distance2 >= reach * reach || !distance2.is_finite() {
                continue;
            }
            let distance = distance2.sqrt();
            let normal = if distance > 1.0e-6 * reach {
                offset / distance
            } else {
                (previous - core).try_normalize().unwrap_or(Vec2::Y)
            };
            x = core + normal * reach;
            v = collide(v, normal, obstacle.friction);
        }
        (particle.position, particle.velocity) = (x, v);
    }

    /// Adds the stickiness impulse of `material` toward every wall and obstacle surface within
    /// its reach to `velocity` (Clavet et al. 2005, 6.2), for a particle at `position`. The
    /// impulse stays in the velocity until the next substep's collision takes its normal part
    /// away (and turns it into friction), so a particle resting on a sticky surface reports a
    /// small speed toward it.
    pub fn stick(
        &self,
        position: Vec2,
        velocity: Vec2,
        material: usize,
        domain: &Domain,
        dt: f32,
    ) -> Vec2 {
        let Some(&Stickiness { strength, reach }) = self.stickiness.get(material) else {
            return velocity;
        };
        if strength <= 0.0 || reach <= 0.0 {
            return velocity;
        }
        let impulse = |d: f32| stickiness_impulse(dt, strength, d, reach);
        let mut v = velocity;
        for wall in domain.walls() {
            let d = wall.distance(position);
            if d < reach {
                v -= wall.normal * impulse(d.max(0.0));
            }
        }
        for obstacle in &self.obstacles {
            let core = obstacle.core_point(position);
            let offset = position - core;
            let centre_distance = offset.length();
            let d = centre_distance - obstacle.radius();
            if d < reach && centre_distance > 0.0 {
                v -= offset / centre_distance * impulse(d.max(0.0));
            }
        }
        v
    }
}

impl Subsystem for Contacts {
    fn name(&self) -> &'static str {
        "obstacles"
    }

    fn is_active(&self) -> bool {
        !self.is_idle()
    }

    fn touches_particles(&self) -> bool {
        true
    }

    fn push_out(&self, particle: &mut Moving) {
        self.push_out_of_obstacles(particle);
    }

    fn after_walls(&self, particle: &mut Moving, domain: &Domain, dt: f32) {
        particle.velocity = self.stick(
            particle.position,
            particle.velocity,
            particle.material,
            domain,
            dt,
        );
    }

    fn occupies(&self, point: Vec2) -> bool {
        self.blocks(point)
    }
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
    fn push_out_leaves_one_particle_radius() {
        let contacts = Contacts::new(vec![Obstacle::circle(Vec2::ZERO, 1.0, 0.0)], &[], 0.3, 0.05);
        let moving = |position, start, velocity| {
            let mut particle = Moving {
                position,
                start,
                velocity,
                material: 0,
            };
            contacts.push_out_of_obstacles(&mut particle);
            (particle.position, particle.velocity)
        };
        let (x, v) = moving(Vec2::new(0.5, 0.0), Vec2::new(2.0, 0.0), -Vec2::X);
        assert!((x.length() - 1.05).abs() < 1e-5, "{x}");
        assert_eq!(v, Vec2::ZERO);
        // Exactly on the core: out the way it came.
        let (x, _) = moving(Vec2::ZERO, Vec2::new(0.0, -2.0), Vec2::ZERO);
        assert!((x - Vec2::new(0.0, -1.05)).length() < 1e-5, "{x}");
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
