//! A game's own bodies in the liquid: the `Coupling` a game gives `World::step_frame_with`.
//!
//! The coupling is the one the rigid bodies of the `bodies` feature use, for bodies the game
//! integrates itself (its own physics, another engine's): after each substep's move, every
//! particle whose centre is closer than one particle radius to a body's surface (or inside it)
//! is put one radius outside, at the nearest point; its velocity relative to the body's surface
//! there loses the part into the body, and Coulomb friction takes some of the sliding part (as
//! for walls and obstacles). The particle's momentum change, reversed, is the impulse on the
//! body at that point (Akinci et al. 2012). Buoyancy and drag are the sum of those impulses.
//!
//! The game's bodies move during the frame as the game said, at their velocity and spin; the
//! frame's impulses reach them at its end (`Coupling::take`), for the game's next step of its
//! own. Everything runs in a fixed order (bodies as given, particles by sorted index), so the
//! results are the same at any thread count.

use super::World;
use crate::sim::scene::shape::Part;
use crate::sim::stages::contact::{collide, keep_inside};
use glam::Vec2;
use std::ops::Range;

/// One part of a game's body as the liquid meets it in a frame (`Coupling::bodies`).
#[derive(Clone, Debug, PartialEq)]
pub struct Coupled {
    /// The body this part belongs to: the index `Coupling::take` gets back.
    pub body: usize,
    /// The part's shape where it is at the frame's start, in the world's frame.
    pub shape: Part,
    /// The body's centre of mass at the frame's start: it turns about this point, and the
    /// torque it takes back is about it.
    pub centre: Vec2,
    /// The body's velocity (of its centre of mass) over the frame.
    pub velocity: Vec2,
    /// The body's spin over the frame, in radians per second, counter-clockwise.
    pub angular_velocity: f32,
    /// Coulomb friction of its surface with the liquid (0: the liquid slides).
    pub friction: f32,
}

/// What the liquid gave one body in a frame: `World::step_frame_with` hands it back.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Taken {
    /// The impulse on the body (momentum, not force: over the frame's length it is the mean
    /// force).
    pub impulse: Vec2,
    /// Its angular impulse about the body's centre of mass.
    pub angular: f32,
}

/// A game's bodies, coupled both ways with the liquid (`World::step_frame_with`): the game gives
/// their shapes and motion, the liquid keeps out of them and gives back the impulses it put on
/// them.
pub trait Coupling {
    /// The game's bodies as they are at the start of the frame: each part goes onto `out`
    /// (empty when called).
    fn bodies(&mut self, out: &mut Vec<Coupled>);

    /// What the liquid gave body `body` in the frame just run (called once a frame for every
    /// body `bodies` named, in order).
    fn take(&mut self, body: usize, taken: Taken);
}

/// No bodies of the game's own: `World::step_frame` is `step_frame_with(&mut ())`.
impl Coupling for () {
    fn bodies(&mut self, _out: &mut Vec<Coupled>) {}

    fn take(&mut self, _body: usize, _taken: Taken) {}
}

/// A frame's coupled bodies and what they took so far, kept between frames for their buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct CouplingFrame {
    pub parts: Vec<Coupled>,
    /// Per body index.
    pub taken: Vec<Taken>,
    ranges: Vec<Range<u32>>,
}

impl CouplingFrame {
    /// True when the game has no bodies this frame.
    pub(crate) fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// Starts a frame of `coupling`'s bodies.
    pub(crate) fn start(&mut self, coupling: &mut impl Coupling) {
        self.parts.clear();
        coupling.bodies(&mut self.parts);
        let bodies = self
            .parts
            .iter()
            .map(|part| part.body + 1)
            .max()
            .unwrap_or(0);
        self.taken.clear();
        self.taken.resize(bodies, Taken::default());
    }

    /// Hands each body what it took.
    pub(crate) fn finish(&mut self, coupling: &mut impl Coupling) {
        let mut told = vec![false; self.taken.len()];
        for part in &self.parts {
            if !std::mem::replace(&mut told[part.body], true) {
                coupling.take(part.body, self.taken[part.body]);
            }
        }
    }
}

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
                    let friction = self.params.wall_friction;
                    (p.position[i], p.velocity[i]) =
                        keep_inside(&self.domain, out, new_velocity, friction);
                }
            }
        }
    }
}

/// `offset` turned by `angle` radians.
fn portable_turn(offset: Vec2, angle: f32) -> Vec2 {
    crate::sim::numerics::portable::unit_vector(angle).rotate(offset)
}
