//! Things that float: rigid bodies (rapier2d), the scene's coupling with the liquid
//! (`world::Coupling`).
//!
//! rapier steps the bodies (gravity, contacts with the walls, the obstacles and each other,
//! hinges) once per substep, with the substep's Δt, as Clavet et al. (2005, §6.1) couple their
//! bodies: the impulses the particles gave each body in the last substep are applied at their
//! contact points, the grab spring pulls, and rapier steps the bodies by Δt; their parts, where
//! they end, go to the world's coupling stage, which puts the particles out of them and hands
//! each body the particles' momentum change (Akinci et al. 2012), as it does a game's own bodies.
//!
//! Buoyancy, drag and torque are not formulas here: they are the sum of those impulses. A body
//! resting in a pool is held up by the particles its weight pushes against, which the pool's
//! pressure pushes back.
//!
//! rapier's solver at the substep's Δt needs no tuning. Every body collider has a contact skin
//! of one particle radius, so two bodies always leave room for a particle (two radii) between
//! them, as obstacles do; the walls and obstacles rapier sees are three radii larger, so a body
//! keeps two particle layers from them and the liquid gets under a crate on the floor.
//!
//! Everything is sequential in a fixed order (bodies by index), and rapier runs without its
//! parallel feature, with `enhanced-determinism`: results are bit-identical at any thread count.

mod checks;
mod rapier;
mod state;

pub use crate::sim::scene::bodies::{Body, BodyState, Hinge};
pub use crate::sim::scene::shape::{is_convex_counter_clockwise, BodyShape, Part};
pub use checks::{distance_between, distance_to_obstacle, wall_problem};
pub use state::BodiesState;

use super::stir::{PullBlend, Stir, StirBlend};
use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::physics::water_density;
use crate::sim::scene::domain::Domain;
use crate::sim::scene::Obstacle;
use crate::sim::scene::Scene;
use crate::sim::stages::coupling::{Coupled, Coupling, Substep, Taken};
use crate::sim::subsystems::{FromScene, Restoring, SavedState, StateError, Subsystem};
use glam::Vec2;
use rapier::Rapier;
use rapier2d::prelude::{ColliderHandle, RigidBodyHandle};

/// The mouse holds a body: a spring from a point of the body to the cursor.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Grab {
    body: usize,
    /// The held point, in the body's frame.
    local: Vec2,
    /// Where the cursor is.
    target: Vec2,
}

/// Natural frequency of the grab spring, in hertz: the body follows the cursor within a few
/// frames without ringing (critically damped).
const GRAB_HERTZ: f32 = 4.0;

/// Most acceleration the grab spring gives, in m/s² (about 20 g): enough to throw a body at
/// 50 m/s in a quarter second, not enough to smash through anything.
const GRAB_MAX_ACCELERATION: f32 = 200.0;

/// One part of a body, as the coupling reads it.
#[derive(Clone, Debug)]
struct PartRef {
    body: usize,
    collider: ColliderHandle,
}

/// The rigid bodies of a world and their coupling with the particles.
#[derive(Clone)]
pub struct Bodies {
    specs: Vec<Body>,
    hinges: Vec<Hinge>,
    handles: Vec<RigidBodyHandle>,
    parts: Vec<PartRef>,
    rapier: Rapier,
    /// Per body: what the particles gave it in the last substep, applied at the next step.
    pending: Vec<Taken>,
    grab: Option<Grab>,
    particle_radius: f32,
}

impl std::fmt::Debug for Bodies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bodies")
            .field("bodies", &self.specs.len())
            .field("hinges", &self.hinges.len())
            .field("states", &self.states())
            .finish()
    }
}

impl Bodies {
    /// The bodies of a scene: `bodies` and `hinges` in a box of `domain` with `obstacles`, for
    /// particles of `particle_radius` in a liquid whose mass-1 material has density
    /// `water_density` (mass per area). The scene keeps the bodies valid (inside the walls,
    /// apart, convex parts).
    pub fn new(
        bodies: Vec<Body>,
        hinges: Vec<Hinge>,
        domain: &Domain,
        obstacles: &[Obstacle],
        particle_radius: f32,
        water_density: f32,
    ) -> Self {
        let mut rapier = Rapier::new(domain, obstacles, particle_radius);
        let mut handles = Vec::with_capacity(bodies.len());
        let mut parts = Vec::new();
        for (index, body) in bodies.iter().enumerate() {
            let (handle, colliders) = rapier.add_body(body, water_density, particle_radius);
            handles.push(handle);
            parts.extend(colliders.into_iter().map(|collider| PartRef {
                body: index,
                collider,
            }));
        }
        for hinge in &hinges {
            rapier.add_hinge(
                handles[hinge.body],
                hinge.to.map(|to| handles[to]),
                hinge.anchor,
            );
        }
        Self {
            pending: vec![Taken::default(); bodies.len()],
            specs: bodies,
            hinges,
            handles,
            parts,
            rapier,
            grab: None,
            particle_radius,
        }
    }

    /// Adds `body` (density relative to water, whose density is `water_density`) to the bodies
    /// of a running world, at its pose, after the others; returns its index. The caller keeps
    /// it clear of the walls, the obstacles and the other bodies.
    pub fn add(&mut self, body: Body, water_density: f32) -> usize {
        let index = self.specs.len();
        let (handle, colliders) = self
            .rapier
            .add_body(&body, water_density, self.particle_radius);
        self.handles.push(handle);
        self.parts
            .extend(colliders.into_iter().map(|collider| PartRef {
                body: index,
                collider,
            }));
        self.pending.push(Taken::default());
        self.specs.push(body);
        index
    }

    /// Everything the bodies' next step depends on (see `BodiesState`).
    pub fn save_state(&self) -> BodiesState {
        BodiesState {
            rapier: self.rapier.clone(),
            handles: self.handles.clone(),
            colliders: self.parts.iter().map(|part| part.collider).collect(),
            pending: self
                .pending
                .iter()
                .map(|push| [push.impulse.x, push.impulse.y, push.angular].map(f32::to_bits))
                .collect(),
            grab: self.grab.map(|grab| {
                let values = [grab.local.x, grab.local.y, grab.target.x, grab.target.y];
                (grab.body, values.map(f32::to_bits))
            }),
        }
    }

    /// The bodies `bodies` and `hinges` of a scene as `state` left them, for particles of
    /// `particle_radius`; refused (with what does not fit) when the state is not of such bodies.
    pub fn restore(
        bodies: Vec<Body>,
        hinges: Vec<Hinge>,
        particle_radius: f32,
        state: BodiesState,
    ) -> Result<Self, String> {
        let parts: usize = bodies.iter().map(|body| body.parts.len()).sum();
        if state.handles.len() != bodies.len() || state.pending.len() != bodies.len() {
            return Err(format!(
                "{} bodies, but the scene has {}",
                state.handles.len(),
                bodies.len()
            ));
        }
        if state.colliders.len() != parts {
            return Err(format!(
                "{} body parts, but the scene's bodies have {parts}",
                state.colliders.len()
            ));
        }
        let mut part_refs = Vec::with_capacity(parts);
        for (index, body) in bodies.iter().enumerate() {
            let handle = state.handles[index];
            if !state.rapier.has_body(handle) {
                return Err(format!("body {index} is missing from the rigid-body world"));
            }
            for _ in &body.parts {
                let collider = state.colliders[part_refs.len()];
                if state.rapier.parent_of(collider) != Some(handle) {
                    return Err(format!("a part of body {index} is missing from its body"));
                }
                part_refs.push(PartRef {
                    body: index,
                    collider,
                });
            }
        }
        let float = f32::from_bits;
        let grab = match state.grab {
            Some((body, _)) if body >= bodies.len() => {
                return Err(format!("the held body {body} does not exist"))
            }
            Some((body, [x, y, tx, ty])) => Some(Grab {
                body,
                local: Vec2::new(float(x), float(y)),
                target: Vec2::new(float(tx), float(ty)),
            }),
            None => None,
        };
        Ok(Self {
            pending: state
                .pending
                .iter()
                .map(|&[x, y, angular]| Taken {
                    impulse: Vec2::new(float(x), float(y)),
                    angular: float(angular),
                })
                .collect(),
            specs: bodies,
            hinges,
            handles: state.handles,
            parts: part_refs,
            rapier: state.rapier,
            grab,
            particle_radius,
        })
    }

    /// The bodies as the scene gave them (names, parts, colours, starting poses).
    pub fn specs(&self) -> &[Body] {
        &self.specs
    }

    /// The hinges.
    pub fn hinges(&self) -> &[Hinge] {
        &self.hinges
    }

    /// How many bodies there are.
    pub fn len(&self) -> usize {
        self.specs.len()
    }

    /// True when there are none.
    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// Where body `index` is and how it moves.
    pub fn state(&self, index: usize) -> BodyState {
        self.rapier.state(self.handles[index])
    }

    /// Every body's state, in order.
    pub fn states(&self) -> Vec<BodyState> {
        (0..self.len()).map(|i| self.state(i)).collect()
    }

    /// A point of body `index`'s frame in the world now.
    pub fn to_world(&self, index: usize, point: Vec2) -> Vec2 {
        self.state(index).to_world(point)
    }

    /// The body whose solid holds `point`, if any (the last one drawn on top).
    pub fn body_at(&self, point: Vec2) -> Option<usize> {
        self.parts
            .iter()
            .rev()
            .find(|part| self.rapier.distance(part.collider, point) <= 0.0)
            .map(|part| part.body)
    }

    /// Sets body `index` moving at `velocity` and `angular_velocity` (a throw).
    pub fn set_velocity(&mut self, index: usize, velocity: Vec2, angular_velocity: f32) {
        self.rapier
            .set_velocity(self.handles[index], velocity, angular_velocity);
    }

    /// The mouse takes hold of body `index` at world `point` (it need not be inside).
    pub fn grab(&mut self, index: usize, point: Vec2) {
        let local = self.state(index).to_local(point);
        self.grab = Some(Grab {
            body: index,
            local,
            target: point,
        });
    }

    /// The held body is pulled toward `target` from now on.
    pub fn drag_to(&mut self, target: Vec2) {
        if let Some(grab) = &mut self.grab {
            grab.target = target;
        }
    }

    /// The mouse lets go: the body keeps the velocity it has.
    pub fn release(&mut self) {
        self.grab = None;
    }

    /// The held body, the held point in the world and the cursor, while one is held.
    pub fn held(&self) -> Option<(usize, Vec2, Vec2)> {
        self.grab
            .map(|g| (g.body, self.to_world(g.body, g.local), g.target))
    }

    /// Replaces the fixed obstacles the bodies meet (the person drew or removed one).
    pub fn set_obstacles(&mut self, obstacles: &[Obstacle]) {
        self.rapier.set_obstacles(obstacles);
    }

    /// Surface-to-surface distance from the nearest body, where the bodies are now, to
    /// `obstacle` (infinite without bodies).
    pub fn distance_to_obstacle(&self, obstacle: &Obstacle) -> f32 {
        self.parts
            .iter()
            .map(|part| self.rapier.distance_to_obstacle(part.collider, obstacle))
            .fold(f32::INFINITY, crate::sim::numerics::portable::min)
    }

    /// Signed distance from `point` to the nearest body's surface (negative inside; infinite
    /// without bodies).
    pub fn surface_distance(&self, point: Vec2) -> f32 {
        self.parts
            .iter()
            .map(|part| self.rapier.distance(part.collider, point))
            .fold(f32::INFINITY, crate::sim::numerics::portable::min)
    }

    /// Fastest speed of any point of any body: the substep count keeps it within reach.
    pub fn max_speed(&self) -> f32 {
        self.handles
            .iter()
            .map(|&handle| self.rapier.max_point_speed(handle))
            .fold(0.0, crate::sim::numerics::portable::max)
    }

    /// Gives each body's centre of mass the velocity `blend` (at the centre, from its velocity)
    /// returns, where that changes it (the mouse's stir and pull).
    fn blend_velocities(&mut self, blend: impl Fn(Vec2, Vec2) -> Vec2) {
        for &handle in &self.handles {
            let state = self.rapier.state(handle);
            let velocity = blend(state.centre_of_mass, state.velocity);
            if velocity != state.velocity {
                self.rapier
                    .set_velocity(handle, velocity, state.angular_velocity);
            }
        }
    }

    /// Kinetic energy of the bodies (½ m v² + ½ I ω²).
    pub fn kinetic_energy(&self) -> f64 {
        self.handles
            .iter()
            .map(|&h| self.rapier.kinetic_energy(h))
            .sum()
    }

    /// Gives each body the momentum the particles gave it and the grab spring's pull.
    fn apply_pushes_and_grab(&mut self, dt: f32) {
        for (index, push) in self.pending.iter_mut().enumerate() {
            let taken = std::mem::take(push);
            if taken.impulse != Vec2::ZERO || taken.angular != 0.0 {
                self.rapier
                    .apply_impulse(self.handles[index], taken.impulse, taken.angular);
            }
        }
        if let Some(grab) = self.grab {
            let handle = self.handles[grab.body];
            let state = self.rapier.state(handle);
            let anchor = state.to_world(grab.local);
            let anchor_velocity = self.rapier.point_velocity(handle, anchor);
            let omega = std::f32::consts::TAU * GRAB_HERTZ;
            let acceleration = (omega * omega * (grab.target - anchor)
                - 2.0 * omega * anchor_velocity)
                .clamp_length_max(GRAB_MAX_ACCELERATION);
            if acceleration.is_finite() {
                let impulse = acceleration * state.mass * dt;
                let arm = anchor - state.centre_of_mass;
                self.rapier
                    .apply_impulse(handle, impulse, arm.perp_dot(impulse));
                // Held bodies turn toward hanging from the held point rather than spinning.
                self.rapier.damp_spin(handle, (8.0 * dt).at_most(1.0));
            }
        }
    }

    /// FNV-1a over every body's pose and velocity bits.
    pub fn checksum(&self) -> u64 {
        let mut hash = crate::sim::numerics::checksum::Fnv::new();
        for state in self.states() {
            for value in [
                state.position.x,
                state.position.y,
                state.angle,
                state.velocity.x,
                state.velocity.y,
                state.angular_velocity,
            ] {
                hash.f32(value);
            }
        }
        hash.finish()
    }
}

impl FromScene for Option<Bodies> {
    fn from_scene(scene: &Scene) -> Self {
        let params = &scene.params;
        (!scene.bodies.is_empty()).then(|| {
            Bodies::new(
                scene.bodies.clone(),
                scene.hinges.clone(),
                &scene.domain,
                &scene.obstacles,
                params.particle_radius,
                water_density(params),
            )
        })
    }
}

impl Subsystem for Bodies {
    fn name(&self) -> &'static str {
        "bodies"
    }

    /// Rapier's own serde writes its world (its floats as JSON numbers that read back to the
    /// same bits), not `to_state`'s bits: rapier's types may buffer what they read.
    fn save(&self, _particles: &Particles) -> Option<SavedState> {
        Some(SavedState::plain(&self.save_state()))
    }

    fn restore(&mut self, state: SavedState, _restoring: &Restoring) -> Result<(), StateError> {
        let state: BodiesState = state.read_plain()?;
        let (specs, hinges) = (self.specs.clone(), self.hinges.clone());
        *self = Bodies::restore(specs, hinges, self.particle_radius, state)
            .map_err(|message| StateError::at(&[], message))?;
        Ok(())
    }

    fn checksum(&self, _particles: &Particles) -> Option<u64> {
        Some(Bodies::checksum(self))
    }

    fn is_active(&self) -> bool {
        !self.specs.is_empty()
    }

    fn occupies(&self, point: Vec2) -> bool {
        self.parts
            .iter()
            .any(|part| self.rapier.distance(part.collider, point) < self.particle_radius)
    }

    fn stir(&mut self, stir: &Stir) {
        // The hand pushes a body it passes through as it pushes the liquid: the velocity of the
        // body's centre of mass is stirred as a particle's would be there.
        if let Some(blend) = StirBlend::new(stir) {
            self.blend_velocities(|at, velocity| blend.apply(at, velocity));
        }
    }

    fn pull(&mut self, centre: Vec2, radius: f32, speed: f32) {
        // As the particles are pulled (`stir::pull`), by the same fall-off.
        if let Some(blend) = PullBlend::new(centre, radius, speed) {
            self.blend_velocities(|at, velocity| blend.apply(at, velocity));
        }
    }

    fn max_speed(&self) -> f32 {
        Bodies::max_speed(self)
    }
}

/// The scene's coupling: rapier steps the bodies through the substep, and the world's coupling
/// stage keeps the particles out of their parts (module documentation).
impl Coupling for Bodies {
    fn bodies(&mut self, substep: &Substep, out: &mut Vec<Coupled>) {
        self.apply_pushes_and_grab(substep.dt);
        // Before the step as well as after: a throw, a stir or the pushes may have made a body
        // faster than the substep allows since the frame chose its substeps, and the step must
        // not carry it deeper into the particles than they can be pushed back out.
        let fastest = substep.reach / substep.dt;
        self.rapier.limit_speeds(&self.handles, fastest);
        self.rapier.step(substep.gravity, substep.dt, substep.reach);
        self.rapier.limit_speeds(&self.handles, fastest);
        for (body, spec) in self.specs.iter().enumerate() {
            let state = self.rapier.state(self.handles[body]);
            out.extend(spec.parts.iter().map(|part| Coupled {
                body,
                shape: state.place(part),
                centre: state.centre_of_mass,
                velocity: state.velocity,
                angular_velocity: state.angular_velocity,
                friction: spec.friction,
            }));
        }
    }

    fn take(&mut self, body: usize, taken: Taken) {
        self.pending[body] = taken;
    }
}
