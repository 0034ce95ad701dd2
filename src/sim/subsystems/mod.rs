//! Optional subsystems: parts of the simulation that only some scenes need (viscoelastic
//! springs, the grains' friction, obstacles and stickiness, the fixed material, heat, air, rigid
//! bodies). Each lives in
//! its own module, owns its state, and
//! joins the substep only at the points of the [`Subsystem`] interface; a scene that does not
//! need one skips it at no cost.
//!
//! Adding a subsystem: write its module with a type implementing `Subsystem` and register it
//! with one line in `registry.rs` (the order of that list is the order the substep calls
//! them in), built from the scene in `Subsystems::new`. It saves, restores and checksums its own
//! state (`save`, `restore`, `checksum`): snapshots keep it under its `name`, and the world's
//! checksum folds it in. The world's stages stay as they are.

pub mod air;
#[cfg(feature = "bodies")]
pub mod bodies;
pub mod fixed;
pub mod granular;
pub mod heat;
pub mod obstacles;
pub(crate) mod registry;
pub mod springs;
pub mod stir;

pub use crate::sim::stages::motion::Moving;

use super::scene::{Material, Scene};
use crate::sim::particles::{Births, Particles};
use crate::sim::scene::domain::Domain;
use crate::sim::scene::params::SimParams;
use crate::sim::scene::ranges::Step;
use crate::sim::stages::grid::Grid;
use crate::sim::stages::neighbours::Neighbours;
use crate::sim::stages::pairs::Contact;
use crate::sim::subsystems::stir::Stir;
use glam::Vec2;
use rand_pcg::Pcg32;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A subsystem's state in a snapshot, under its name: JSON text (`to_state`), kept as it is
/// written, so that any serde type fits (rapier's 128-bit ids too).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(transparent)]
pub struct SavedState(Box<serde_json::value::RawValue>);

impl PartialEq for SavedState {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl SavedState {
    /// `value` in JSON, as serde writes it.
    pub fn plain<T: Serialize>(value: &T) -> Self {
        Self::of(serde_json::to_string(value))
    }

    /// The value `plain` wrote.
    pub fn read_plain<T: DeserializeOwned>(&self) -> Result<T, StateError> {
        serde_json::from_str(self.0.get()).map_err(|error| StateError::at(&[], error.to_string()))
    }

    fn of(text: serde_json::Result<String>) -> Self {
        let text = text.expect("a subsystem's state is plain data: always JSON");
        Self(serde_json::value::RawValue::from_string(text).expect("serde_json wrote it"))
    }
}

/// Why a saved state does not fit the world it is restored into: where in the state
/// (`particles[17]`, `subsystems.air.u`) and what is wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct StateError {
    /// Keys and indices from the state's root to the offending value.
    pub path: Vec<Step>,
    /// What is wrong with it.
    pub message: String,
}

impl StateError {
    /// A refusal at `path`.
    pub fn at(path: &[Step], message: impl Into<String>) -> Self {
        Self {
            path: path.to_vec(),
            message: message.into(),
        }
    }

    /// The same refusal, its path under `prefix`.
    pub fn under(mut self, prefix: &[Step]) -> Self {
        self.path.splice(0..0, prefix.iter().copied());
        self
    }
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::sim::scene::ranges::path_string(&self.path))?;
        if !self.path.is_empty() {
            write!(f, ": ")?;
        }
        write!(f, "{}", self.message)
    }
}

impl std::error::Error for StateError {}

/// `value` as a subsystem's saved state, every float as its bits (`sim::numerics::bits`), so that
/// it reads back exactly.
pub fn to_state<T: Serialize>(value: &T) -> SavedState {
    let mut text = Vec::new();
    let written =
        crate::sim::numerics::bits::serialize(value, &mut serde_json::Serializer::new(&mut text));
    SavedState::of(written.map(|()| String::from_utf8(text).expect("serde_json writes UTF-8")))
}

/// The value `to_state` saved; a state of another shape is refused.
pub fn from_state<T: DeserializeOwned>(state: &SavedState) -> Result<T, StateError> {
    let mut reader = serde_json::Deserializer::from_str(state.0.get());
    crate::sim::numerics::bits::deserialize(&mut reader)
        .map_err(|error| StateError::at(&[], error.to_string()))
}

/// How a registered subsystem is built from its world's scene (an `Option` of it for one that
/// only some scenes have: `None` when the scene does not need it).
pub trait FromScene {
    /// The subsystem for `scene`, as the world runs it (its parameters, materials, walls,
    /// obstacles and the subsystem's own part of the scene).
    fn from_scene(scene: &Scene) -> Self;
}

/// What a subsystem restoring its state may check it against: the restored particles.
pub struct Restoring<'a> {
    /// The restored particles' ids, in increasing order.
    pub ids: &'a [u32],
}

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
    /// Gravity now.
    pub gravity: Vec2,
    /// Each material's constants of the pair law (its stiffnesses).
    pub liquid: &'a crate::sim::stages::liquid::Liquid,
}

/// The pair loops' diffusion, lent to the subsystem that spreads a value along the pairs (the
/// heat's temperature, `Subsystem::diffuses`): it sets each particle's lanes before the density
/// stage, which runs the exchange fused into its own pair loop, takes what it found after, and
/// may run more passes of the exchange alone.
pub struct Diffusion<'a> {
    neighbours: &'a mut Neighbours,
    /// Interaction radius h.
    pub h: f32,
    /// This substep's length.
    pub dt: f32,
    /// The liquid's rest density ρ0.
    pub rest_density: f32,
}

impl<'a> Diffusion<'a> {
    /// The diffusion of `neighbours`' pair loops, for the world's `params` and substep `dt`.
    pub(crate) fn new(neighbours: &'a mut Neighbours, params: &SimParams, dt: f32) -> Self {
        Self {
            neighbours,
            h: params.interaction_radius,
            dt,
            rest_density: params.rest_density,
        }
    }

    /// Sets every particle's lanes (`count`, sorted order): its value and its share; with
    /// `one_share` every particle has the same (`Neighbours::set_diffusion`).
    pub fn set(&mut self, count: usize, one_share: bool, lane: impl Fn(usize) -> [f32; 2] + Sync) {
        self.neighbours.set_diffusion(count, one_share, lane);
    }

    /// True when the lanes are set for this substep's density stage.
    pub fn is_set(&self) -> bool {
        self.neighbours.is_diffusing()
    }

    /// What the last pass found for each particle (`Neighbours::diffusion_gained`).
    pub fn gained(&self) -> &[f32] {
        self.neighbours.diffusion_gained()
    }

    /// Another pass of the exchange alone, from `values` (`Neighbours::diffuse_again`).
    pub fn again(&mut self, values: &[f32]) {
        self.neighbours.diffuse_again(values, self.h);
    }
}

/// What a subsystem with its own clock gets once per frame, after the frame's substeps: the
/// particles (it may change their velocities, turn them into another material, add and remove
/// them), the scene's constants and the frame's length.
pub struct AfterFrame<'a> {
    /// Particle state, sorted by grid cell.
    pub particles: &'a mut Particles,
    /// The world's materials.
    pub materials: &'a [Material],
    /// The world's parameters.
    pub params: &'a SimParams,
    /// The frame's length in simulated seconds.
    pub dt: f32,
    /// The world's particle ids and cap, which emitters and pours go through too.
    pub(crate) births: &'a mut Births,
    /// The world's seeded generator (reactions draw from it, in a fixed order).
    pub rng: &'a mut Pcg32,
    /// What burned in this frame, left by the heat for the air that comes after it: each
    /// burning particle's burned mass and flame, which the air takes as hot smoke (empty in
    /// scenes where nothing burns).
    pub fumes: Vec<Fume>,
    /// The heat's books, which each process that brings or takes heat adds to.
    pub(crate) books: &'a mut heat::HeatBooks,
    /// Each material's heat per unit mass at 0 °C (`heat::Phases::offsets`), left by the heat
    /// for the books (empty in a world without heat).
    pub(crate) offsets: Vec<f64>,
}

/// Mass that burned in a frame, at a burning particle: the air takes it as smoke as hot as the
/// flame.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fume {
    /// Where it burned: the particle's position.
    pub position: Vec2,
    /// The mass that burned.
    pub mass: f32,
    /// The flame's temperature: the burning particle's, in °C.
    pub temperature: f32,
}

impl AfterFrame<'_> {
    /// The heat particle `index` holds, for the books; 0 in a world without heat.
    pub(crate) fn held_by(&self, index: usize) -> f64 {
        if self.offsets.is_empty() {
            return 0.0;
        }
        heat::held_by(self.particles, self.materials, &self.offsets, index)
    }

    /// Turns particle `index` into `material`, its mass with it (a phase change: water to ice);
    /// it keeps its temperature.
    ///
    /// # Panics
    ///
    /// When there is no such particle or material.
    pub fn convert(&mut self, index: usize, material: usize) {
        self.particles.material[index] =
            u16::try_from(material).expect("material indices fit 16 bits");
        self.particles.mass[index] = self.materials[material].mass;
    }

    /// Adds a particle of `material` as emitters and pours do: a new id, and nothing when the
    /// particle cap is reached (then false).
    ///
    /// # Panics
    ///
    /// When there is no such material.
    pub fn spawn(&mut self, material: usize, position: Vec2, velocity: Vec2) -> bool {
        let made = &self.materials[material];
        let made = (made.mass, made.temperature);
        self.births
            .spawn(self.particles, material, made, position, velocity)
    }

    /// Removes the particles whose `keep` entry is false, as the eraser does (their ids are not
    /// handed out again; springs to them go at the next substep); returns how many went.
    ///
    /// # Panics
    ///
    /// When `keep` is not one entry per particle.
    pub fn remove(&mut self, keep: &[bool]) -> usize {
        self.particles.retain(keep)
    }
}

/// The points of a substep where a subsystem joins in, in the order the substep calls them. Every
/// hook has a default that does nothing.
pub trait Subsystem: Send + Sync {
    /// Short name, for timers and messages.
    fn name(&self) -> &'static str;

    /// False when the scene gives it nothing to do: the substep skips it entirely.
    fn is_active(&self) -> bool;

    /// True when the subsystem exchanges something along pairs of particles (heat, say): only
    /// then does the springs stage gather the pairs for `contacts` (`sim::stages::pairs`).
    fn wants_contacts(&self) -> bool {
        false
    }

    /// True when the subsystem spreads a value along the pairs inside the density stage's pair
    /// loop (the heat's temperature): only then are `diffusion` and `diffused` called.
    fn diffuses(&self) -> bool {
        false
    }

    /// Before the density stage: sets each particle's lanes of the diffusion (`Diffusion::set`)
    /// from `particles`, sorted by this substep's grid, or leaves them unset (then the density
    /// stage runs alone and `diffused` is not called).
    fn diffusion(&mut self, _particles: &Particles, _diffusion: &mut Diffusion) {}

    /// After the density stage, when `diffusion` set the lanes: takes what the exchange found
    /// (`Diffusion::gained`, and any further passes it runs) into its column of `particles`
    /// (with this substep's densities), so that what one particle gains another loses.
    fn diffused(&mut self, _particles: &mut Particles, _diffusion: &mut Diffusion) {}

    /// The springs stage of a frame's last substep, before `displace`: every pair of particles
    /// closer than h, once, in a fixed order (`pairs::Contact`, sorted indices into
    /// `frozen.particles`), to note for `after_frame` (the heat's reactions and burning); a
    /// value spread along the pairs in every substep goes through `diffusion` instead.
    fn contacts(&mut self, _frozen: &Frozen, _contacts: &[Contact]) {}

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

    /// What a snapshot keeps of it beyond what the scene gives (`to_state`), or `None` when it
    /// has nothing of its own; `particles` are the world's.
    fn save(&self, _particles: &Particles) -> Option<SavedState> {
        None
    }

    /// Continues from `state`, what `save` kept, in a subsystem just built from the same scene.
    /// Refused, with the path inside the state, when it does not fit.
    fn restore(&mut self, _state: SavedState, _restoring: &Restoring) -> Result<(), StateError> {
        Err(StateError::at(&[], "keeps no state"))
    }

    /// A hash of its state (`sim::numerics::checksum`), and of the particle columns it owns in
    /// `particles` (the heat's temperatures), folded into the world's checksum; `None` when it
    /// adds nothing to the particles' own checksum.
    fn checksum(&self, _particles: &Particles) -> Option<u64> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::scene::Material;

    /// What a subsystem may do to the particles once per frame goes through the world's
    /// bookkeeping: a spawned particle takes the next id and stops at the cap, a converted one
    /// takes its new material's mass, a removed id is not handed out again.
    #[test]
    fn a_subsystem_converts_spawns_and_removes_through_the_births() {
        let materials = [
            Material {
                mass: 1.0,
                ..Material::default()
            },
            Material {
                mass: 3.0,
                ..Material::default()
            },
        ];
        let params = SimParams::default();
        let mut particles = Particles::default();
        let mut births = Births::new(3);
        let mut rng = rand::SeedableRng::seed_from_u64(1);
        let mut books = heat::HeatBooks::default();
        let mut frame = AfterFrame {
            particles: &mut particles,
            materials: &materials,
            params: &params,
            dt: 0.05,
            births: &mut births,
            rng: &mut rng,
            fumes: Vec::new(),
            books: &mut books,
            offsets: Vec::new(),
        };
        assert!(frame.spawn(0, Vec2::new(1.0, 1.0), Vec2::ZERO));
        assert!(frame.spawn(0, Vec2::new(2.0, 1.0), Vec2::ZERO));
        frame.convert(1, 1);
        assert_eq!(frame.remove(&[false, true]), 1);
        assert!(frame.spawn(1, Vec2::new(3.0, 1.0), Vec2::X));
        assert!(frame.spawn(0, Vec2::new(4.0, 1.0), Vec2::X));
        assert!(
            !frame.spawn(0, Vec2::new(5.0, 1.0), Vec2::X),
            "the cap is 3"
        );
        assert_eq!(particles.id, [1, 2, 3]);
        assert_eq!(particles.material, [1, 1, 0]);
        assert_eq!(particles.mass, [3.0, 3.0, 1.0]);
        assert!(births.cap_reached());
        assert_eq!(births.next_id(), 4);
    }
}
