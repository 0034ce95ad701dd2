//! Optional subsystems: parts of the simulation that only some scenes need (viscoelastic
//! springs, obstacles and stickiness today). Each lives in its own module, owns its state, and
//! joins the substep only at the points of the [`Subsystem`] interface; a scene that does not
//! need one skips it at no cost.
//!
//! Adding a subsystem: write its module with a type implementing `Subsystem`, give the world's
//! `Subsystems` (in `subsystems.rs`) a field for it and list it there (the order of that list is
//! the order the substep calls them in). The world's stages stay as they are.

use super::domain::Domain;
use super::grid::Grid;
use super::params::SimParams;
use super::particles::Particles;
use super::scene::Material;
use super::stir::Stir;
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

/// What a subsystem with its own clock gets once per frame, after the frame's substeps: the
/// particles (it may change their velocities), the scene's constants and the frame's length.
pub struct AfterFrame<'a> {
    /// Particle state, sorted by grid cell.
    pub particles: &'a mut Particles,
    /// The world's materials.
    pub materials: &'a [Material],
    /// The world's parameters.
    pub params: &'a SimParams,
    /// The frame's length in simulated seconds.
    pub dt: f32,
}

/// What a subsystem's stage after the move (the bodies) reads and changes.
pub struct AfterMove<'a> {
    /// The particles, sorted by the substep's grid, after their move.
    pub particles: &'a mut Particles,
    /// The substep's grid (built before the move).
    pub grid: &'a Grid,
    /// The walls.
    pub domain: &'a Domain,
    /// Substep length.
    pub dt: f32,
    /// Gravity now.
    pub gravity: Vec2,
    /// Most a particle moved in this substep (`cfl` × h).
    pub reach: f32,
    /// Coulomb friction of the walls.
    pub wall_friction: f32,
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

    /// True when `after_move` does something: then the move stage leaves the next substep's
    /// advance to the advance stage, since this stage must see the particles where they moved.
    fn moves_after_the_move(&self) -> bool {
        false
    }

    /// A stage of its own after the move (the bodies): may move particles and change their
    /// velocities, keeping them inside the walls.
    fn after_move(&mut self, _stage: &mut AfterMove) {}

    /// Fastest speed of anything this subsystem moves through the particles: the frame takes
    /// enough substeps that it travels at most `cfl` × h per substep.
    fn max_speed(&self) -> f32 {
        0.0
    }

    /// True when a particle may not be at `point` (block fills and tools leave it empty).
    fn occupies(&self, _point: Vec2) -> bool {
        false
    }

    /// Once per frame, after its substeps: a subsystem with a clock of its own (the air grid)
    /// steps here, and may change the particles' velocities.
    fn after_frame(&mut self, _frame: &mut AfterFrame) {}

    /// The mouse stirs the world (the particles are stirred apart from this).
    fn stir(&mut self, _stir: &Stir) {}

    /// The mouse pulls toward `centre` (the particles are pulled apart from this).
    fn pull(&mut self, _centre: Vec2, _radius: f32, _speed: f32) {}
}
