//! slosh: a 2D particle-fluid engine (SPH, double density relaxation) and its demo.
//!
//! `sim` is the headless core; `preset` loads scenes from TOML; `cli` is the headless runner;
//! `app` is the demo window (the only module that uses macroquad).

pub mod app;
pub mod cli;
pub mod preset;
pub mod sim;
