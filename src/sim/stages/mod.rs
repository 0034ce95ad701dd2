//! The stages of a substep, one module each, in the order `World::run_substep` calls them:
//! emission, the advance, the grid, the neighbour passes (density and relaxation), the walls'
//! density, the pairs, the move with its collisions; with the materials' resolved constants and
//! the substep counts a scene needs to stay calm.

pub(crate) mod contact;
pub mod coupling;
pub(crate) mod emission;
pub mod grid;
pub(crate) mod liquid;
pub(crate) mod motion;
pub(crate) mod neighbours;
pub mod pairs;
pub mod stability;
pub mod wall_density;
