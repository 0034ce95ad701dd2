//! slosh: a 2D liquid for games (SPH with double density relaxation, Clavet et al. 2005), and
//! its demo.
//!
//! The engine is [`sim`]: a headless, deterministic [`sim::World`] that owns all state and
//! steps it, bit-identical at any thread count and on every CPU. [`preset`] loads scenes from
//! TOML files (or the embedded presets) with every value checked.
//!
//! ```
//! use glam::Vec2;
//! use slosh::preset::Preset;
//! use slosh::sim::{Event, Part, Push};
//!
//! // The benchmarks' tank: a reservoir of water released into a 16 × 9 box.
//! let mut world = Preset::load("tank")?.build_world(1);
//! world.record_events(true);
//! let cup = world.add_sensor(Part::rect(Vec2::new(12.0, 0.0), Vec2::new(16.0, 2.0)));
//! let mut events = Vec::new();
//! for _ in 0..40 {
//!     world.step_frame(); // 1/20 s of simulated time, in substeps
//!     world.drain_events(&mut events);
//! }
//! assert!(events.iter().any(|event| matches!(event, Event::Splash { .. })));
//! assert!(!world.sensor(cup).unwrap().inside().is_empty(), "the wave reached the cup");
//! // Ask the liquid, and push it.
//! let depth = world.surface_height(2.0).unwrap_or(0.0);
//! let here = world.sample(Vec2::new(2.0, 0.5)).map(|liquid| liquid.velocity);
//! world.push(&Part::circle(Vec2::new(2.0, 0.5), 0.5), Push::Impulse(Vec2::Y))?;
//! for (position, velocity) in world.particles().position.iter().zip(&world.particles().velocity) {
//!     // Draw a particle at `position`, shade it by `velocity`…
//!     # let _ = (position, velocity, depth, here);
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The calls a game makes, on [`sim::World`]:
//! - **step**: [`step_frame`](sim::World::step_frame), or
//!   [`step_frame_with`](sim::World::step_frame_with) and a [`sim::Coupling`] for bodies the
//!   game integrates itself;
//! - **ask**: [`particles_in`](sim::World::particles_in), [`sample`](sim::World::sample),
//!   [`surface_height`](sim::World::surface_height), [`force_on`](sim::World::force_on),
//!   [`particles`](sim::World::particles);
//! - **hear**: [`record_events`](sim::World::record_events),
//!   [`drain_events`](sim::World::drain_events), [`add_sensor`](sim::World::add_sensor);
//! - **act**: [`push`](sim::World::push), [`tag`](sim::World::tag),
//!   [`pour`](sim::World::pour), [`erase`](sim::World::erase), [`stir`](sim::World::stir),
//!   [`blow`](sim::World::blow), [`set_gravity`](sim::World::set_gravity), and the other edits.
//!
//! Features: `bodies` (a default) adds rigid bodies coupled with the liquid (rapier2d;
//! `sim::subsystems::bodies`): without it a preset or snapshot with bodies is refused with an
//! error that names the feature. `sound` (the synth and WAVs), `replay` (recording, replaying,
//! undo), `share` (links) and `cost` (the cost model) add those modules. `cli` adds the
//! program's command line and headless runner (modules `cli` and `headless`), with all of the
//! above; `window` (the default, with `cli`) adds the demo window (`app`, the only module that
//! uses macroquad). With `default-features = false` the crate is the engine, the preset loader,
//! the levels and the input vocabulary. `docs/ARCHITECTURE.md` maps the engine's stages and
//! state.

#![warn(missing_docs)]

// The `slosh` program's own modules (its window, command line, headless runner and golden
// check): public for the program and its tests, not an API for a game, so hidden from the
// documentation. Their errors are the program's messages, one line each.
#[cfg(feature = "window")]
#[doc(hidden)]
pub mod app;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod cli;
#[cfg(feature = "cost")]
pub mod cost;
#[cfg(any(feature = "replay", feature = "sound", feature = "cli"))]
mod file_error;
#[cfg(any(feature = "replay", feature = "sound", feature = "cli"))]
pub use file_error::FileError;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod golden;
#[cfg(feature = "cli")]
#[doc(hidden)]
pub mod headless;
pub mod input;
pub mod level;
pub mod preset;
#[cfg(feature = "replay")]
pub mod replay;
#[cfg(feature = "share")]
pub mod share;
pub mod sim;
#[cfg(feature = "cli")]
pub mod snapshot;
#[cfg(feature = "sound")]
pub mod sound;
