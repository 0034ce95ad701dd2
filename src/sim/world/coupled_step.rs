//! The frame with bodies in it (`stages/coupling.rs`): `World::step_frame_with` and the coupling stage
//! of each substep, which the scene's rigid bodies and a game's own go through alike.

use super::World;
use crate::sim::stages::contact::{collide, keep_inside};
use crate::sim::stages::coupling::{Coupled, Coupling, CouplingFrame, Substep};
use glam::Vec2;

/// Rounds of out of a part and back inside the walls for one particle: a particle squeezed
/// between the two (a body pressed into a wall) goes round again, toward the way out left.
const SQUEEZE_ROUNDS: usize = 3;

impl World {
    /// Advances one frame as `step_frame` does, with the game's own bodies (`Coupling`): every
    /// substep they move as the game says, the liquid keeps out of them and pushes them, and
    /// `coupling.take` gets each body's impulse.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::{Coupled, Coupling, Part, Substep, Taken};
    ///
    /// /// A raft the game moves itself: it only falls and floats.
    /// struct Raft {
    ///     position: Vec2,
    ///     velocity: Vec2,
    ///     mass: f32,
    /// }
    ///
    /// impl Coupling for Raft {
    ///     fn bodies(&mut self, substep: &Substep, out: &mut Vec<Coupled>) {
    ///         self.velocity += substep.gravity * substep.dt;
    ///         self.position += self.velocity * substep.dt;
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
    /// for _ in 0..40 {
    ///     world.step_frame_with(&mut raft);
    /// }
    /// assert!(raft.position.y > 0.5, "the water holds the raft up: {}", raft.position);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn step_frame_with(&mut self, coupling: &mut impl Coupling) {
        self.run_frame(coupling);
    }

    /// The substep's coupling, before the particles move: the scene's rigid bodies and the
    /// game's move through the substep and list their parts.
    pub(crate) fn start_coupling(&mut self, game: &mut impl Coupling) {
        let substep = Substep {
            dt: self.dt,
            gravity: self.params.gravity,
            reach: self.params.cfl * self.params.interaction_radius,
        };
        if let Some(bodies) = self.subsystems.bodies.as_mut() {
            self.scene_coupling.start(bodies, &substep);
        }
        self.coupling.start(game, &substep);
    }

    /// True when some body takes part in this substep.
    pub(crate) fn coupled(&self) -> bool {
        !self.scene_coupling.is_empty() || !self.coupling.is_empty()
    }

    /// The coupling stage, after the move: every particle out of every part of the scene's
    /// bodies, then of the game's (module documentation of `stages/coupling.rs`); each coupling takes
    /// what its bodies were given.
    pub(crate) fn couple(&mut self, game: &mut impl Coupling) {
        let mut scene = std::mem::take(&mut self.scene_coupling);
        if !scene.is_empty() {
            self.push_out_of_parts(&mut scene);
            if let Some(bodies) = self.subsystems.bodies.as_mut() {
                scene.finish(bodies);
            }
        }
        self.scene_coupling = scene;
        let mut own = std::mem::take(&mut self.coupling);
        if !own.is_empty() {
            self.push_out_of_parts(&mut own);
            own.finish(game);
        }
        self.coupling = own;
    }

    /// Keeps every particle out of every part, part by part: the particles in the grid cells
    /// around the part's bounds (widened by a particle radius and by the farthest a particle
    /// moved since the grid was built) are tested, in sorted order. Bodies of several parts get
    /// a second sweep, which settles a particle pushed from one of their parts into another
    /// (in the corner between them).
    fn push_out_of_parts(&mut self, frame: &mut CouplingFrame) {
        let radius = self.params.particle_radius;
        let margin = radius + self.params.cfl * self.params.interaction_radius;
        let wall_friction = self.params.wall_friction;
        let grid = self.neighbours.grid();
        let p = &mut self.particles;
        let sweeps = if frame.has_compound() { 2 } else { 1 };
        for sweep in 0..sweeps {
            for k in 0..frame.parts.len() {
                let part = &frame.parts[k];
                if sweep == 1 && frame.part_count[part.body] < 2 {
                    continue;
                }
                let (min, max) = part.shape.bounds();
                grid.ranges_in_box(
                    min - Vec2::splat(margin),
                    max + Vec2::splat(margin),
                    &mut frame.ranges,
                );
                let touch = (min - Vec2::splat(radius), max + Vec2::splat(radius));
                for r in 0..frame.ranges.len() {
                    for index in frame.ranges[r].clone() {
                        let i = index as usize;
                        let x = p.position[i];
                        if !(x.cmpge(touch.0).all() && x.cmple(touch.1).all()) {
                            continue;
                        }
                        let (mut x, mut v) = (x, p.velocity[i]);
                        for _ in 0..SQUEEZE_ROUNDS {
                            let Some((out, new_velocity)) = bounce(part, radius, x, v) else {
                                break;
                            };
                            let impulse = (v - new_velocity) * p.mass[i];
                            let taken = &mut frame.taken[part.body];
                            taken.impulse += impulse;
                            taken.angular += (out - part.centre).perp_dot(impulse);
                            (x, v) = keep_inside(&self.domain, out, new_velocity, wall_friction);
                        }
                        (p.position[i], p.velocity[i]) = (x, v);
                    }
                }
            }
        }
    }
}

/// Where a particle at `x` moving at `v`, closer than `radius` to `part`'s surface or inside it,
/// goes to be `radius` outside, and its velocity there (`contact::collide` against the moving
/// surface); `None` when it is far enough out.
fn bounce(part: &Coupled, radius: f32, x: Vec2, v: Vec2) -> Option<(Vec2, Vec2)> {
    let (distance, normal) = part.shape.surface(x);
    if distance >= radius || !distance.is_finite() {
        return None;
    }
    let out = x + normal * (radius - distance);
    let surface = part.velocity_at(out);
    Some((out, surface + collide(v - surface, normal, part.friction)))
}
