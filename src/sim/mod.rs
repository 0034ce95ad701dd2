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

pub use domain::{Domain, DomainError, Wall};
pub use obstacles::{Obstacle, Shape};
pub use params::SimParams;
pub use scene::{Block, Emitter, Material};
pub use world::{FrameReport, Particles, StageTimes, Stir, World, WorldStats};
