//! The rapier2d world behind the bodies: its sets, its pipeline, and the few questions the
//! coupling asks of it, in slosh's own vector type.

use crate::sim::numerics::portable;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::bodies::{velocity_at, Body, BodyState};
use crate::sim::scene::domain::Domain;
use crate::sim::scene::shape::{is_convex_counter_clockwise, BodyShape, Part};
use crate::sim::scene::Obstacle;
use glam::Vec2;
use rapier2d::math::{Pose, Vector};
use rapier2d::prelude::*;
use serde::{Deserialize, Serialize};

/// slosh's vector as rapier's.
pub(super) fn to_vector(v: Vec2) -> Vector {
    Vector::new(v.x, v.y)
}

/// rapier's vector as slosh's.
pub(super) fn from_vector(v: Vector) -> Vec2 {
    Vec2::new(v.x, v.y)
}

/// How much larger than the particles see them the walls and obstacles are to rapier, in
/// particle radii. With a body's contact skin of one radius, a body keeps four radii (two
/// particle layers) from a wall: with room for only one layer, the particles under a crate on
/// the floor have neighbours only beside them, their pressure pulls rather than pushes, and the
/// crate stays stuck to the floor when the water comes.
const WALL_ROOM: f32 = 3.0;

/// Everything rapier steps. Serialized whole but for the pipeline and the CCD solver, which
/// hold only scratch space: a deserialized copy steps exactly as the original would.
#[derive(Serialize, Deserialize)]
pub(super) struct Rapier {
    #[serde(skip)]
    pipeline: PhysicsPipeline,
    parameters: IntegrationParameters,
    islands: IslandManager,
    broad_phase: DefaultBroadPhase,
    narrow_phase: NarrowPhase,
    bodies: RigidBodySet,
    colliders: ColliderSet,
    impulse_joints: ImpulseJointSet,
    multibody_joints: MultibodyJointSet,
    soft_bodies: SoftBodySet,
    #[serde(skip)]
    ccd: CCDSolver,
    /// The fixed body that holds the walls and obstacles (and the world's end of a hinge).
    ground: RigidBodyHandle,
    /// The obstacles' colliders, in the obstacles' order.
    obstacles: Vec<ColliderHandle>,
    particle_radius: f32,
}

/// An obstacle's shape, `extra` larger, and its pose.
pub(super) fn obstacle_shape(obstacle: &Obstacle, extra: f32) -> (SharedShape, Pose) {
    let (a, b) = obstacle.core();
    let radius = obstacle.radius() + extra;
    let shape = if a == b {
        SharedShape::ball(radius)
    } else {
        SharedShape::capsule(to_vector(Vec2::ZERO), to_vector(b - a), radius)
    };
    (shape, Pose::from_translation(to_vector(a)))
}

/// A copy steps exactly as the original would: every set, the islands and the phases (with
/// their contact caches) are copied; the pipeline holds only scratch space.
impl Clone for Rapier {
    fn clone(&self) -> Self {
        Self {
            pipeline: PhysicsPipeline::new(),
            parameters: self.parameters,
            islands: self.islands.clone(),
            broad_phase: self.broad_phase.clone(),
            narrow_phase: self.narrow_phase.clone(),
            bodies: self.bodies.clone(),
            colliders: self.colliders.clone(),
            impulse_joints: self.impulse_joints.clone(),
            multibody_joints: self.multibody_joints.clone(),
            soft_bodies: self.soft_bodies.clone(),
            ccd: self.ccd.clone(),
            ground: self.ground,
            obstacles: self.obstacles.clone(),
            particle_radius: self.particle_radius,
        }
    }
}

impl Rapier {
    /// A rapier world with the walls of `domain` and `obstacles` as fixed colliders, each
    /// `WALL_ROOM` particle radii larger than the particles see it.
    pub fn new(domain: &Domain, obstacles: &[Obstacle], particle_radius: f32) -> Self {
        let mut bodies = RigidBodySet::new();
        let mut colliders = ColliderSet::new();
        let ground = bodies.insert(RigidBodyBuilder::fixed());
        // Each wall is a large box whose face is the wall's plane (moved in by `WALL_ROOM`
        // radii), centred across from the box's middle: a half-plane would do, but its infinite
        // extent has no place in a snapshot's numbers.
        let (min, max) = (domain.min(), domain.max());
        let middle = 0.5 * (min + max);
        let half = 4.0 * portable::largest(max - min) + 10.0;
        for wall in domain.walls() {
            let plane = wall.offset + WALL_ROOM * particle_radius;
            let on_plane = middle - wall.normal * (wall.normal.dot(middle) - plane);
            let centre = on_plane - wall.normal * half;
            let collider = ColliderBuilder::new(SharedShape::cuboid(half, half))
                .position(Pose::new(
                    to_vector(centre),
                    portable::angle_of(wall.normal),
                ))
                .friction(0.5);
            colliders.insert_with_parent(collider, ground, &mut bodies);
        }
        let mut rapier = Self {
            pipeline: PhysicsPipeline::new(),
            parameters: IntegrationParameters::default(),
            islands: IslandManager::new(),
            broad_phase: DefaultBroadPhase::default(),
            narrow_phase: NarrowPhase::new(),
            bodies,
            colliders,
            impulse_joints: ImpulseJointSet::new(),
            multibody_joints: MultibodyJointSet::new(),
            soft_bodies: SoftBodySet::new(),
            ccd: CCDSolver::new(),
            ground,
            obstacles: Vec::new(),
            particle_radius,
        };
        rapier.set_obstacles(obstacles);
        rapier
    }

    /// Replaces the fixed obstacles (the person drew or removed one).
    pub fn set_obstacles(&mut self, obstacles: &[Obstacle]) {
        for handle in std::mem::take(&mut self.obstacles) {
            self.colliders.remove(
                handle,
                &mut self.islands,
                &mut self.bodies,
                &mut self.soft_bodies,
                true,
            );
        }
        for obstacle in obstacles {
            let (shape, pose) = obstacle_shape(obstacle, WALL_ROOM * self.particle_radius);
            let collider = ColliderBuilder::new(shape)
                .position(pose)
                .friction(obstacle.friction);
            let handle = self
                .colliders
                .insert_with_parent(collider, self.ground, &mut self.bodies);
            self.obstacles.push(handle);
        }
    }

    /// Surface-to-surface distance from a collider, where it is now, to `obstacle`.
    pub fn distance_to_obstacle(&self, collider: ColliderHandle, obstacle: &Obstacle) -> f32 {
        let collider = &self.colliders[collider];
        let (shape, pose) = obstacle_shape(obstacle, 0.0);
        rapier2d::parry::query::distance(
            collider.position(),
            collider.shape(),
            &pose,
            shape.as_ref(),
        )
        .map(|d| d.distance)
        .unwrap_or(0.0)
    }

    /// Adds `body` (density relative to water, whose density is `water_density`); returns its
    /// handle and its parts' colliders, in order.
    pub fn add_body(
        &mut self,
        body: &Body,
        water_density: f32,
        particle_radius: f32,
    ) -> (RigidBodyHandle, Vec<ColliderHandle>) {
        let builder = RigidBodyBuilder::dynamic()
            .pose(Pose::new(to_vector(body.position), body.angle))
            .linvel(to_vector(body.velocity))
            .angvel(body.angular_velocity)
            .ccd_enabled(true)
            .can_sleep(false);
        let handle = self.bodies.insert(builder);
        let colliders = body
            .parts
            .iter()
            .map(|part| {
                let shape = rapier_shape(part)
                    .expect("scenes hold convex parts only (checked when loaded)");
                let collider = ColliderBuilder::new(shape)
                    .position(Pose::new(to_vector(part.offset), part.angle))
                    .density(body.density * water_density)
                    .friction(body.friction)
                    .restitution(body.restitution)
                    .contact_skin(particle_radius);
                self.colliders
                    .insert_with_parent(collider, handle, &mut self.bodies)
            })
            .collect();
        (handle, colliders)
    }

    /// A hinge at world point `anchor` between `body` and `to` (or the ground).
    pub fn add_hinge(&mut self, body: RigidBodyHandle, to: Option<RigidBodyHandle>, anchor: Vec2) {
        let other = to.unwrap_or(self.ground);
        let local = |handle: RigidBodyHandle| {
            self.bodies[handle]
                .position()
                .inverse_transform_point(to_vector(anchor))
        };
        let joint = RevoluteJointBuilder::new()
            .local_anchor1(local(other))
            .local_anchor2(local(body));
        self.impulse_joints.insert(other, body, joint, true);
    }

    /// One rapier step of `dt` under `gravity`, for bodies whose points move at most `reach`
    /// in it: contacts are predicted that far ahead (speculative contacts), so a fast body
    /// stops at a wall instead of sinking into it and squeezing the particles there.
    pub fn step(&mut self, gravity: Vec2, dt: f32, reach: f32) {
        self.parameters.dt = dt;
        let length = self.parameters.length_unit;
        self.parameters.normalized_prediction_distance = (reach / length).at_least(0.002);
        self.pipeline.step(
            to_vector(gravity),
            &self.parameters,
            &mut self.islands,
            &mut self.broad_phase,
            &mut self.narrow_phase,
            &mut self.bodies,
            &mut self.colliders,
            &mut self.impulse_joints,
            &mut self.multibody_joints,
            &mut self.soft_bodies,
            &mut self.ccd,
            &(),
            &(),
        );
    }

    /// True when `handle` is a body of this world.
    pub fn has_body(&self, handle: RigidBodyHandle) -> bool {
        self.bodies.get(handle).is_some()
    }

    /// The body a collider is attached to, if the collider exists.
    pub fn parent_of(&self, collider: ColliderHandle) -> Option<RigidBodyHandle> {
        self.colliders.get(collider).and_then(|c| c.parent())
    }

    /// Where a body is and how it moves.
    pub fn state(&self, handle: RigidBodyHandle) -> BodyState {
        let body = &self.bodies[handle];
        BodyState {
            position: from_vector(body.translation()),
            angle: body.rotation().angle(),
            velocity: from_vector(body.linvel()),
            angular_velocity: body.angvel(),
            centre_of_mass: from_vector(body.center_of_mass()),
            mass: body.mass(),
        }
    }

    /// Velocity of the body's rigid motion at world `point`.
    pub fn point_velocity(&self, handle: RigidBodyHandle, point: Vec2) -> Vec2 {
        velocity_at(&self.state(handle), point)
    }

    /// Sets a body's velocity.
    pub fn set_velocity(&mut self, handle: RigidBodyHandle, velocity: Vec2, angular: f32) {
        let body = &mut self.bodies[handle];
        if velocity.is_finite() && angular.is_finite() {
            body.set_linvel(to_vector(velocity), true);
            body.set_angvel(angular, true);
        }
    }

    /// Adds an impulse through the centre of mass and an angular impulse about it.
    pub fn apply_impulse(&mut self, handle: RigidBodyHandle, impulse: Vec2, angular: f32) {
        if impulse.is_finite() && angular.is_finite() {
            let body = &mut self.bodies[handle];
            body.apply_impulse(to_vector(impulse), true);
            body.apply_torque_impulse(angular, true);
        }
    }

    /// Takes the fraction `fraction` of the body's spin away.
    pub fn damp_spin(&mut self, handle: RigidBodyHandle, fraction: f32) {
        let body = &mut self.bodies[handle];
        let spin = body.angvel();
        body.set_angvel(spin * (1.0 - fraction), true);
    }

    /// Slows any body whose fastest point moves faster than `limit` down to it (only past the
    /// frame's most substeps; see `Bodies`' `Coupling::bodies`).
    pub fn limit_speeds(&mut self, handles: &[RigidBodyHandle], limit: f32) {
        for &handle in handles {
            let speed = self.max_point_speed(handle);
            if speed > limit || !speed.is_finite() {
                let scale = if speed.is_finite() {
                    limit / speed
                } else {
                    0.0
                };
                let body = &mut self.bodies[handle];
                let (velocity, spin) = (body.linvel() * scale, body.angvel() * scale);
                body.set_linvel(velocity, true);
                body.set_angvel(spin, true);
            }
        }
    }

    /// Speed of the body's fastest point: |v| + |ω| × the farthest reach of its parts from its
    /// centre of mass.
    pub fn max_point_speed(&self, handle: RigidBodyHandle) -> f32 {
        let body = &self.bodies[handle];
        let centre = body.center_of_mass();
        let reach = body
            .colliders()
            .iter()
            .map(|&collider| {
                let aabb = self.colliders[collider].compute_aabb();
                let (high, low) = ((aabb.maxs - centre).abs(), (aabb.mins - centre).abs());
                Vec2::new(high.x.at_least(low.x), high.y.at_least(low.y)).length()
            })
            .fold(0.0, crate::sim::numerics::portable::max);
        body.linvel().length() + body.angvel().abs() * reach
    }

    /// ½ m v² + ½ I ω² of a body.
    pub fn kinetic_energy(&self, handle: RigidBodyHandle) -> f64 {
        self.bodies[handle].kinetic_energy() as f64
    }

    /// Signed distance from `point` to a collider's surface (negative inside).
    pub fn distance(&self, collider: ColliderHandle, point: Vec2) -> f32 {
        let collider = &self.colliders[collider];
        let local = collider
            .position()
            .inverse_transform_point(to_vector(point));
        let (nearest, inside) = project(collider.shape(), local);
        let distance = (local - nearest).length();
        if inside {
            -distance
        } else {
            distance
        }
    }
}

/// The rapier shape of `part`, in the part's own frame; `None` for a polygon that is not convex.
pub(crate) fn rapier_shape(part: &Part) -> Option<SharedShape> {
    let v = |p: Vec2| Vector::new(p.x, p.y);
    Some(match &part.shape {
        BodyShape::Circle { radius } => SharedShape::ball(*radius),
        BodyShape::Box { half_size } => SharedShape::cuboid(half_size.x, half_size.y),
        BodyShape::Capsule {
            half_length,
            radius,
        } => SharedShape::capsule(
            v(Vec2::new(-half_length, 0.0)),
            v(Vec2::new(*half_length, 0.0)),
            *radius,
        ),
        BodyShape::Polygon { points } => {
            if !is_convex_counter_clockwise(points) {
                return None;
            }
            let points: Vec<_> = points.iter().map(|&p| v(p)).collect();
            SharedShape::convex_polyline(points)?
        }
    })
}

/// The nearest point of `shape`'s surface to `local` (in the shape's frame) and whether `local`
/// is inside. A point exactly at a circle's centre has no nearest point (parry answers NaN):
/// it is nudged a hair first, so it still gets a way out.
fn project(shape: &dyn Shape, local: Vector) -> (Vector, bool) {
    let projection = shape.project_local_point(local, false);
    if projection.point.is_finite() {
        return (projection.point, projection.is_inside);
    }
    let nudged = local + Vector::new(0.0, 1.0e-4);
    let projection = shape.project_local_point(nudged, false);
    (projection.point, projection.is_inside)
}

#[cfg(test)]
mod shape_tests {
    use super::*;

    #[test]
    fn a_convex_polygon_has_a_rapier_shape_and_a_clockwise_one_none() {
        let triangle = Part::new(BodyShape::Polygon {
            points: vec![Vec2::ZERO, Vec2::new(2.0, 0.0), Vec2::new(0.0, 2.0)],
        });
        assert!(rapier_shape(&triangle).is_some());
        let clockwise = Part::new(BodyShape::Polygon {
            points: vec![Vec2::ZERO, Vec2::new(0.0, 2.0), Vec2::new(2.0, 0.0)],
        });
        assert!(rapier_shape(&clockwise).is_none());
    }
}
