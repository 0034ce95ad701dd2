//! The contacts subsystem: keeps particles out of the static obstacles (`scene::Obstacle`) and
//! lets sticky materials cling to them and to the walls (Clavet et al. 2005, 6.1–6.2).
//!
//! An obstacle is a *core* (a point for a circle, a segment for a capsule) thickened by a
//! radius: the solid is every point closer than `radius` to the core. Particles are kept one
//! particle radius outside that surface, as the walls keep them one radius inside the walls.
//!
//! Presets keep every obstacle at least two particle radii from every wall and from every other
//! obstacle (see `preset.rs`). With that gap, pushing a particle out of one obstacle never puts
//! it into another or behind a wall, and the wall clamp that follows never puts it back into an
//! obstacle, so a single pass leaves no particle inside any solid.

use crate::sim::numerics::portable::Ordered;
use crate::sim::physics::stickiness_impulse;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::{Material, Obstacle, Scene};
use crate::sim::stages::contact::collide;
use crate::sim::subsystems::{FromScene, Moving, Subsystem};
use glam::Vec2;

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
    /// Per material: the Coulomb coefficient of a granular one (sand holds on an obstacle by
    /// its own friction where that is more than the obstacle's); empty when none is granular.
    grain_friction: Vec<f32>,
    particle_radius: f32,
}

/// The first obstacle (index, problem) closer than 2 r (two particle radii) to a wall or to an
/// earlier obstacle: the gap that keeps a particle from being squeezed between two solids.
pub fn gap_problem(
    obstacles: &[Obstacle],
    domain: &Domain,
    particle_radius: f32,
) -> Option<(usize, String)> {
    let gap = 2.0 * particle_radius;
    for (index, obstacle) in obstacles.iter().enumerate() {
        let (a, b) = obstacle.core();
        for (k, wall) in domain.walls().iter().enumerate() {
            let room = wall.distance(a).at_most(wall.distance(b)) - obstacle.radius();
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

/// Where a particle at `x`, closer than one `particle_radius` to `obstacle`'s surface, goes to
/// be one radius outside it, and the surface normal there; `None` when it is far enough out.
/// `previous` (where it came from) gives the way out for a particle exactly on the core.
#[inline]
pub(crate) fn way_out(
    obstacle: &Obstacle,
    particle_radius: f32,
    x: Vec2,
    previous: Vec2,
) -> Option<(Vec2, Vec2)> {
    let core = obstacle.core_point(x);
    let offset = x - core;
    let reach = obstacle.radius() + particle_radius;
    let distance2 = offset.length_squared();
    if distance2 >= reach * reach || !distance2.is_finite() {
        return None;
    }
    let distance = distance2.sqrt();
    let normal = if distance > 1.0e-6 * reach {
        offset / distance
    } else {
        (previous - core).try_normalize().unwrap_or(Vec2::Y)
    };
    Some((core + normal * reach, normal))
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
        let mut grain_friction = crate::sim::subsystems::granular::friction_coefficients(materials);
        if grain_friction.iter().all(|&mu| mu <= 0.0) {
            grain_friction.clear();
        }
        Self {
            obstacles,
            stickiness,
            grain_friction,
            particle_radius,
        }
    }

    /// The obstacles.
    pub fn obstacles(&self) -> &[Obstacle] {
        &self.obstacles
    }

    /// Replaces the obstacles (the person drew or removed one); the caller keeps the gaps of
    /// `gap_problem`.
    pub fn set_obstacles(&mut self, obstacles: Vec<Obstacle>) {
        self.obstacles = obstacles;
    }

    /// Takes the stickiness of `materials` (changed at run time), with interaction radius `h`.
    pub fn set_materials(&mut self, materials: &[Material], h: f32) {
        let obstacles = std::mem::take(&mut self.obstacles);
        *self = Self::new(obstacles, materials, h, self.particle_radius);
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
        let grain = self
            .grain_friction
            .get(particle.material)
            .copied()
            .unwrap_or(0.0);
        for obstacle in &self.obstacles {
            if let Some((out, normal)) = way_out(obstacle, self.particle_radius, x, previous) {
                x = out;
                v = collide(v, normal, obstacle.friction.at_least(grain));
            }
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
                v -= wall.normal * impulse(d.at_least(0.0));
            }
        }
        for obstacle in &self.obstacles {
            let core = obstacle.core_point(position);
            let offset = position - core;
            let centre_distance = offset.length();
            let d = centre_distance - obstacle.radius();
            if d < reach && centre_distance > 0.0 {
                v -= offset / centre_distance * impulse(d.at_least(0.0));
            }
        }
        v
    }
}

impl FromScene for Contacts {
    fn from_scene(scene: &Scene) -> Self {
        let params = &scene.params;
        Contacts::new(
            scene.obstacles.clone(),
            &scene.materials,
            params.interaction_radius,
            params.particle_radius,
        )
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
    fn push_out_leaves_one_particle_radius() {
        let contacts = Contacts::new(vec![Obstacle::circle(Vec2::ZERO, 1.0, 0.0)], &[], 0.3, 0.05);
        let moving = |position, start, velocity| {
            let mut particle = Moving {
                position,
                start,
                velocity,
                material: 0,
                index: 0,
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
}
