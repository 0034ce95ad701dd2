//! The headless simulation core: SPH with double density relaxation (Clavet et al. 2005, as
//! simplified by Madams 2010). No window or GPU: only glam, rayon and rand.
//!
//! The rooms, lowest first:
//!
//! - [`numerics`]: arithmetic that gives the same bits on every machine, the lanes of the pair
//!   loops, the checksum, the clock;
//! - [`scene`]: what a scene is, as plain data (parameters, materials, walls, emitters, the air's
//!   and the bodies' settings) with its accepted ranges and its rescaling to other particles;
//! - [`physics`]: the formulas, as the papers write them, and the scalar reference solver;
//! - [`stages`]: the substep's stages, one module each (emission, advance, grid, neighbours,
//!   walls, pairs) and the substep counts they need;
//! - [`subsystems`]: the optional parts a scene may have (springs, obstacles, fixed material,
//!   heat, air, rigid bodies), each behind the [`subsystems::Subsystem`] trait;
//! - [`world`]: [`World`], which owns all state and steps it; its edits and saved state.
//!
//! `docs/ARCHITECTURE.md` maps them.

pub mod numerics;
pub mod particles;
pub mod physics;
pub mod queries;
pub mod scene;
pub mod stages;
pub mod subsystems;
pub mod world;

pub use particles::{MaterialStats, Particles, WorldStats};
pub use queries::{Found, Sample, Wrench};
pub use scene::air::AirSettings;
pub use scene::bodies::{Body, BodyState, Hinge};
pub use scene::domain::{Domain, DomainError, Wall};
pub use scene::params::SimParams;
pub use scene::shape::{BodyShape, Part};
pub use scene::{
    Block, Emitter, Material, MaterialPatch, Obstacle, Product, Reaction, Scene, Shape, Style,
    Tunable,
};
pub use stages::neighbours::{lanes_name, LaneUse, LANES_VARIABLE};
pub use subsystems::air::AirState;
pub use subsystems::springs::{SpringList, SpringState};
pub use subsystems::stir::Stir;
pub use subsystems::StateError;
pub use world::RandomStirrer;
pub use world::{
    Arrival, Coupled, Coupling, EditError, Event, FrameReport, Pour, Poured, Push, Sensor,
    StageTimes, Substep, Taken, World, MAX_HEAT_RATE,
};
pub use world::{EmitterProgress, ParticleState, WorldState};
