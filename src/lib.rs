//! slosh: a 2D particle-fluid engine (SPH, double density relaxation) and its demo.
//!
//! `sim` is the headless core; `preset` loads scenes from TOML; `cli` is the headless runner.

pub mod cli;
pub mod preset;
pub mod sim;
