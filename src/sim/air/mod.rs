//! The air (smoke) grid solver on a 2D MAC grid.

pub mod pressure;
