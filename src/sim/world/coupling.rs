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

use crate::sim::scene::shape::Part;
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
    pub ranges: Vec<Range<u32>>,
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
