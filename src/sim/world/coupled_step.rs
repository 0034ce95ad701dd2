//! The frame with a game's own bodies (`coupling.rs`): `World::step_frame_with` and the
//! coupling stage of each substep.

use super::coupling::{Coupling, CouplingFrame};
use super::World;
use crate::sim::scene::shape::Part;
use crate::sim::stages::contact::{collide, keep_inside};
use glam::Vec2;

impl World {
    /// Advances one frame as `step_frame` does, with the game's own bodies (`Coupling`): the
    /// liquid keeps out of them and pushes them, and `coupling.take` gets each body's impulse
    /// at the frame's end.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::{Coupled, Coupling, Part, Taken};
    ///
    /// /// A raft the game moves itself: it only falls and floats.
    /// struct Raft {
    ///     position: Vec2,
    ///     velocity: Vec2,
    ///     mass: f32,
    /// }
    ///
    /// impl Coupling for Raft {
    ///     fn bodies(&mut self, out: &mut Vec<Coupled>) {
    ///         let half = Vec2::new(0.6, 0.2);
    ///         out.push(Coupled {
    ///             body: 0,
    ///             shape: Part::rect(self.position - half, self.position + half),
    ///             centre: self.position,
    ///             velocity: self.velocity,
    ///             angular_velocity: 0.0,
    ///             friction: 0.0,
    ///         });
    ///     }
    ///     fn take(&mut self, _body: usize, taken: Taken) {
    ///         self.velocity += taken.impulse / self.mass;
    ///     }
    /// }
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let mut raft = Raft { position: Vec2::new(3.0, 5.0), velocity: Vec2::ZERO, mass: 40.0 };
    /// let frame = 1.0 / world.params().frame_rate;
    /// for _ in 0..40 {
    ///     world.step_frame_with(&mut raft);
    ///     raft.velocity += world.params().gravity * frame;
    ///     raft.position += raft.velocity * frame;
    /// }
    /// assert!(raft.position.y > 0.5, "the water holds the raft up: {}", raft.position);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn step_frame_with(&mut self, coupling: &mut impl Coupling) {
        let mut frame = std::mem::take(&mut self.coupling);
        frame.start(coupling);
        self.run_frame(&mut frame);
        frame.finish(coupling);
        self.coupling = frame;
    }

    /// The coupling stage of a substep that ends `elapsed` seconds into the frame: every
    /// particle out of every part of the game's bodies, in order (module documentation).
    pub(crate) fn couple(&mut self, frame: &mut CouplingFrame, elapsed: f32) {
        let radius = self.params.particle_radius;
        let margin = radius + self.params.cfl * self.params.interaction_radius;
        let wall_friction = self.params.wall_friction;
        let grid = self.neighbours.grid();
        let p = &mut self.particles;
        for k in 0..frame.parts.len() {
            let part = &frame.parts[k];
            let centre = part.centre + part.velocity * elapsed;
            let turn = part.angular_velocity * elapsed;
            let shape = Part {
                offset: centre + portable_turn(part.shape.offset - part.centre, turn),
                angle: part.shape.angle + turn,
                ..part.shape.clone()
            };
            let (min, max) = shape.bounds();
            let reach = Vec2::splat(margin);
            grid.ranges_in_box(min - reach, max + reach, &mut frame.ranges);
            let touch = (min - Vec2::splat(radius), max + Vec2::splat(radius));
            for r in 0..frame.ranges.len() {
                for index in frame.ranges[r].clone() {
                    let i = index as usize;
                    let x = p.position[i];
                    if !(x.cmpge(touch.0).all() && x.cmple(touch.1).all()) {
                        continue;
                    }
                    let (distance, normal) = shape.surface(x);
                    if distance >= radius {
                        continue;
                    }
                    let out = x + normal * (radius - distance);
                    let arm = out - centre;
                    let surface_velocity = part.velocity + part.angular_velocity * arm.perp();
                    let v = p.velocity[i];
                    let relative = collide(v - surface_velocity, normal, part.friction);
                    let new_velocity = surface_velocity + relative;
                    let impulse = (v - new_velocity) * p.mass[i];
                    let taken = &mut frame.taken[part.body];
                    taken.impulse += impulse;
                    taken.angular += arm.perp_dot(impulse);
                    (p.position[i], p.velocity[i]) =
                        keep_inside(&self.domain, out, new_velocity, wall_friction);
                }
            }
        }
    }
}

/// `offset` turned by `angle` radians.
fn portable_turn(offset: Vec2, angle: f32) -> Vec2 {
    crate::sim::numerics::portable::unit_vector(angle).rotate(offset)
}
