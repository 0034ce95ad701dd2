//! The headless simulation core: SPH with double density relaxation (Clavet et al. 2005, as
//! simplified by Madams 2010). No window or GPU: only glam, rayon and rand.
//!
//! [`World`] owns all state and steps it; [`physics`] holds the formulas; the stages live in
//! their own modules (`docs/ARCHITECTURE.md` maps them), and optional subsystems (springs,
//! obstacles) implement [`subsystem::Subsystem`].

pub mod air;
pub mod bits;
pub mod bodies;
pub mod checksum;
pub mod clock;
mod contact;
pub mod domain;
mod emission;
pub mod fixed;
pub mod grid;
pub mod heat;
mod liquid;
mod motion;
mod neighbours;
pub mod obstacles;
pub mod pairs;
pub mod params;
pub mod particles;
pub mod physics;
pub mod portable;
mod random_stir;
pub mod ranges;
pub mod resolution;
pub mod scene;
mod simd;
pub mod springs;
pub mod stability;
pub mod stir;
pub mod subsystem;
mod subsystems;
pub mod wall_density;
pub mod world;

/// Elements per rayon task in the light per-element passes (bounds, copies, reorders): small
/// enough that a 3,000-particle scene keeps both threads busy between the heavy stages (an idle
/// worker falls asleep and wakes late: seed went from 0.63 to 0.51 ms per substep), large enough
/// to amortise scheduling.
const LIGHT_CHUNK: usize = 1024;

pub use air::AirState;
pub use bodies::{Body, BodyShape, BodyState, Hinge, Part};
pub use domain::{Domain, DomainError, Wall};
pub use neighbours::{lanes_name, LANES_VARIABLE};
pub use params::SimParams;
pub use particles::{MaterialStats, Particles, WorldStats};
pub use random_stir::RandomStirrer;
pub use scene::{Block, Emitter, Material, Obstacle, Product, Reaction, Scene, Shape};
pub use springs::{SpringList, SpringState};
pub use stir::Stir;
pub use world::{EditError, FrameReport, Pour, Poured, StageTimes, Tunable, World, MAX_HEAT_RATE};
pub use world::{EmitterProgress, ParticleState, WorldState};
