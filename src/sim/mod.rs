//! The headless simulation core: SPH with double density relaxation (Clavet et al. 2005, as
//! simplified by Madams 2010). No window or GPU: only glam, rayon and rand.

pub mod domain;
pub mod grid;
pub mod kernels;
pub mod obstacles;
pub mod params;
pub mod scene;
pub mod simd;
pub mod springs;
pub mod sums;
pub mod world;

/// Elements per rayon task in the light per-element passes (bounds, copies, reorders): small
/// enough that a 3,000-particle scene keeps both threads busy between the heavy stages (an idle
/// worker falls asleep and wakes late: seed went from 0.63 to 0.51 ms per substep), large enough
/// to amortise scheduling.
const LIGHT_CHUNK: usize = 1024;

pub use domain::{Domain, DomainError, Wall};
pub use obstacles::{Obstacle, Shape};
pub use params::SimParams;
pub use scene::{Block, Emitter, Material};
pub use world::{FrameReport, Particles, StageTimes, Stir, World, WorldStats};
