//! Bodies in the liquid: the `Coupling` the world's substeps trade with (the stage itself is
//! `world/coupled_step.rs`). A game gives its own
//! to `World::step_frame_with`; the rigid bodies of the `bodies` feature (rapier2d) are the
//! scene's coupling; a world without either couples with `()`.
//!
//! Every substep, after the particles have moved: the coupling moves its bodies through the
//! substep and lists their parts where they end (`Coupling::bodies`); every particle whose
//! centre is closer than one particle radius to a part's surface (or inside it) is put one
//! radius outside, at the nearest point; its velocity relative to the part's surface there loses
//! the part into the body, and Coulomb friction takes some of the sliding part (as for walls and
//! obstacles). The particle's momentum change, reversed, is the impulse on the body at that
//! point (Akinci et al. 2012), which the coupling takes back (`Coupling::take`) for its next
//! substep. Buoyancy, drag and torque are the sum of those impulses.
//!
//! Trading every substep keeps a body as stiff as the liquid's contact: a body moved once a
//! frame would sink a whole frame's fall into the particles before they push back. Everything
//! runs in a fixed order (bodies as listed, particles by sorted index), so the results are the
//! same at any thread count.

use crate::sim::scene::shape::Part;
use glam::Vec2;
use std::ops::Range;

/// The substep a coupling's bodies move through (`Coupling::bodies`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Substep {
    /// Its length, in seconds.
    pub dt: f32,
    /// The world's gravity, m/s².
    pub gravity: Vec2,
    /// The farthest a particle moves in it, in metres: a body's surface that moves farther in a
    /// substep carries particles deeper than one push puts them out.
    pub reach: f32,
}

/// One part of a body as the liquid meets it in a substep (`Coupling::bodies`).
#[derive(Clone, Debug, PartialEq)]
pub struct Coupled {
    /// The body this part belongs to: the index `Coupling::take` gets back.
    pub body: usize,
    /// The part's shape where it is at the substep's end, in the world's frame.
    pub shape: Part,
    /// The body's centre of mass: its surface moves about this point, and the angular impulse
    /// it takes back is about it.
    pub centre: Vec2,
    /// The velocity of the body's centre of mass.
    pub velocity: Vec2,
    /// The body's spin, in radians per second, counter-clockwise.
    pub angular_velocity: f32,
    /// Coulomb friction of its surface with the liquid (0: the liquid slides).
    pub friction: f32,
}

impl Coupled {
    /// The velocity of the body's surface at `point`.
    pub fn velocity_at(&self, point: Vec2) -> Vec2 {
        self.velocity + self.angular_velocity * (point - self.centre).perp()
    }
}

/// What the liquid gave one body in a substep (`Coupling::take`).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Taken {
    /// The impulse on the body (momentum: over the substep's length it is the mean force).
    pub impulse: Vec2,
    /// Its angular impulse about the body's centre of mass.
    pub angular: f32,
}

/// Bodies coupled both ways with the liquid: they give their shapes and motion every substep,
/// the liquid keeps out of them and gives back the impulses it put on them.
pub trait Coupling {
    /// Called once a substep, before the liquid meets the bodies: move them through
    /// `substep` (a body the game integrates takes its gravity and the impulse it was last
    /// given here), then put each part onto `out` (empty when called) where it is at the
    /// substep's end, with the motion of its body.
    fn bodies(&mut self, substep: &Substep, out: &mut Vec<Coupled>);

    /// What the liquid gave body `body` in the substep just run: called after it, once for
    /// every body `bodies` listed, in the order first listed.
    fn take(&mut self, body: usize, taken: Taken);
}

/// No bodies: `World::step_frame` is `step_frame_with(&mut ())`.
impl Coupling for () {
    fn bodies(&mut self, _substep: &Substep, _out: &mut Vec<Coupled>) {}

    fn take(&mut self, _body: usize, _taken: Taken) {}
}

/// A substep's coupled bodies and what they took so far, kept between substeps for their
/// buffers.
#[derive(Clone, Debug, Default)]
pub(crate) struct CouplingFrame {
    pub parts: Vec<Coupled>,
    /// Per body index: what it took this substep.
    pub taken: Vec<Taken>,
    /// Per body index: how many parts it has this substep, 0 for an index no part names.
    pub part_count: Vec<u32>,
    /// Scratch: index ranges of the particles near a part.
    pub ranges: Vec<Range<u32>>,
}

impl CouplingFrame {
    /// True when there are no bodies this substep.
    pub(crate) fn is_empty(&self) -> bool {
        self.parts.is_empty()
    }

    /// True when some body has more than one part: the push-out goes over them twice.
    pub(crate) fn has_compound(&self) -> bool {
        self.part_count.iter().any(|&n| n > 1)
    }

    /// Starts a substep of `coupling`'s bodies.
    pub(crate) fn start(&mut self, coupling: &mut impl Coupling, substep: &Substep) {
        self.parts.clear();
        coupling.bodies(substep, &mut self.parts);
        let bodies = self
            .parts
            .iter()
            .map(|part| part.body + 1)
            .max()
            .unwrap_or(0);
        self.taken.clear();
        self.taken.resize(bodies, Taken::default());
        self.part_count.clear();
        self.part_count.resize(bodies, 0);
        for part in &self.parts {
            self.part_count[part.body] += 1;
        }
    }

    /// Hands each body what it took, in the order first listed.
    pub(crate) fn finish(&mut self, coupling: &mut impl Coupling) {
        for part in &self.parts {
            // Zeroed once told: a body of several parts is told once.
            let told = &mut self.part_count[part.body];
            if *told > 0 {
                *told = 0;
                coupling.take(part.body, self.taken[part.body]);
            }
        }
    }
}
