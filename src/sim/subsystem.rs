//! Optional subsystems: parts of the simulation that only some scenes need (viscoelastic
//! springs, obstacles and stickiness today). Each lives in its own module, owns its state, and
//! joins the substep only at the points of the [`Subsystem`] interface; a scene that does not
//! need one skips it at no cost.
//!
//! Adding a subsystem: write its module with a type implementing `Subsystem`, give
//! [`Subsystems`] a field for it and list it in `all` and `all_mut` (the order there is the order
//! the substep calls them in). The world's stages stay as they are.

use super::domain::Domain;
use super::grid::Grid;
use super::obstacles::{Contacts, Obstacle};
use super::params::SimParams;
use super::particles::Particles;
use super::scene::Material;
use super::springs::Springs;
use glam::Vec2;

/// What a subsystem reads in the springs stage: the particles as the relaxation read them
/// (sorted by cell, positions frozen for the whole stage), the grid that sorted them, and the
/// substep's constants.
pub struct Frozen<'a> {
    /// Particle state, sorted by grid cell.
    pub particles: &'a Particles,
    /// The grid of this substep (neighbour queries).
    pub grid: &'a Grid,
    /// Interaction radius h.
    pub h: f32,
    /// This substep's length.
    pub dt: f32,
}

/// A particle in the move stage after its move: where it is now, where it started the substep,
/// its velocity and its material. Subsystems with solids change position and velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moving {
    /// Position after the move.
    pub position: Vec2,
    /// Position at the start of the substep (to rounding).
    pub start: Vec2,
    /// Velocity derived from the move.
    pub velocity: Vec2,
    /// Index into the world's materials.
    pub material: usize,
}

/// The points of a substep where a subsystem joins in, in the order the substep calls them. Every
/// hook has a default that does nothing.
pub trait Subsystem: Send + Sync {
    /// Short name, for timers and messages.
    fn name(&self) -> &'static str;

    /// False when the scene gives it nothing to do: the substep skips it entirely.
    fn is_active(&self) -> bool;

    /// The springs stage, after the relaxation: adds this subsystem's displacement of every
    /// particle (indexed like `frozen.particles`) to `displacement`, reading only `frozen`
    /// (Jacobi, so any thread count gives the same bits).
    fn displace(&mut self, _frozen: &Frozen, _displacement: (&mut [f32], &mut [f32])) {}

    /// True when `push_out` or `after_walls` do something; only then does the move stage call
    /// them for every particle.
    fn touches_particles(&self) -> bool {
        false
    }

    /// The move stage, per particle, before the walls: keeps the particle out of this
    /// subsystem's solids. Called from many threads at once.
    fn push_out(&self, _particle: &mut Moving) {}

    /// The move stage, per particle, after the walls have put it inside the box: velocity
    /// changes that depend on where it ended (stickiness).
    fn after_walls(&self, _particle: &mut Moving, _domain: &Domain, _dt: f32) {}

    /// True when a particle may not be at `point` (block fills and tools leave it empty).
    fn occupies(&self, _point: Vec2) -> bool {
        false
    }
}

/// Every subsystem of a world, in substep order.
#[derive(Clone, Debug)]
pub struct Subsystems {
    /// Viscoelastic springs between particles of a material (Clavet et al. section 5).
    pub(crate) springs: Springs,
    /// Static obstacles and the stickiness of materials (Clavet et al. section 6).
    pub(crate) contacts: Contacts,
}

impl Subsystems {
    /// The subsystems of a scene with `materials` and `obstacles`.
    pub fn new(materials: &[Material], obstacles: Vec<Obstacle>, params: &SimParams) -> Self {
        let h = params.interaction_radius;
        Self {
            springs: Springs::new(materials, h),
            contacts: Contacts::new(obstacles, materials, h, params.particle_radius),
        }
    }

    /// All of them, in substep order.
    fn all(&self) -> [&dyn Subsystem; 2] {
        [&self.springs, &self.contacts]
    }

    /// All of them, in substep order, to step.
    fn all_mut(&mut self) -> [&mut dyn Subsystem; 2] {
        [&mut self.springs, &mut self.contacts]
    }

    /// The springs stage: every active subsystem's displacement.
    pub fn displace(&mut self, frozen: &Frozen, displacement: (&mut [f32], &mut [f32])) {
        let (x, y) = displacement;
        for subsystem in self.all_mut() {
            if subsystem.is_active() {
                subsystem.displace(frozen, (&mut *x, &mut *y));
            }
        }
    }

    /// The subsystems the move stage must call for every particle, or `None` when there are
    /// none (then it takes its plain path).
    pub fn touching(&self) -> Option<Touching<'_>> {
        let mut list = [None; 2];
        let mut count = 0;
        for subsystem in self.all() {
            if subsystem.is_active() && subsystem.touches_particles() {
                list[count] = Some(subsystem);
                count += 1;
            }
        }
        (count > 0).then_some(Touching { list })
    }

    /// True when some subsystem's solid takes up `point`.
    pub fn occupies(&self, point: Vec2) -> bool {
        self.all()
            .iter()
            .any(|s| s.is_active() && s.occupies(point))
    }
}

/// The subsystems with per-particle work in the move stage, in substep order.
#[derive(Clone, Copy)]
pub struct Touching<'a> {
    list: [Option<&'a dyn Subsystem>; 2],
}

impl Touching<'_> {
    /// Every subsystem's `push_out`, in order.
    #[inline]
    pub fn push_out(&self, particle: &mut Moving) {
        for subsystem in self.list.iter().flatten() {
            subsystem.push_out(particle);
        }
    }

    /// Every subsystem's `after_walls`, in order.
    #[inline]
    pub fn after_walls(&self, particle: &mut Moving, domain: &Domain, dt: f32) {
        for subsystem in self.list.iter().flatten() {
            subsystem.after_walls(particle, domain, dt);
        }
    }
}
