//! slosh: a 2D particle-fluid engine (SPH with double density relaxation, Clavet et al. 2005)
//! and its demo.
//!
//! The engine is [`sim`]: a headless, deterministic [`sim::World`] that owns all state and
//! steps it, bit-identical at any thread count. [`preset`] loads scenes from TOML files (or the
//! embedded presets) with every value checked. Neither needs a window: with
//! `default-features = false` the crate is these two and nothing else (and without rigid
//! bodies, `features = ["bodies"]` adds them).
//!
//! ```
//! use slosh::preset::Preset;
//!
//! // The seed's scene: two emitters pour a light and a heavy liquid into a box.
//! let preset = Preset::load("seed")?;
//! let mut world = preset.build_world(1);
//! for _ in 0..40 {
//!     world.step_frame(); // 1/20 s of simulated time, in substeps
//! }
//! let stats = world.stats();
//! assert!(stats.particles > 0);
//! assert_eq!((stats.nan, stats.escaped), (0, 0));
//! for (position, velocity) in world.particles().position.iter().zip(&world.particles().velocity) {
//!     // Draw a particle at `position`, shade it by `velocity`…
//!     # let _ = (position, velocity);
//! }
//! # Ok::<(), slosh::preset::PresetError>(())
//! ```
//!
//! Features: `bodies` (a default) adds rigid bodies coupled with the liquid (rapier2d;
//! `sim::subsystems::bodies`): without it a preset or snapshot with bodies is refused with an
//! error that names the feature. `cli` adds the program's command line and headless runner
//! (modules `cli` and `headless`), with `bodies`; `window` (the default, with `cli`) adds the
//! demo window (`app`, the only module that uses macroquad). `docs/ARCHITECTURE.md` maps the
//! engine's stages and state.

#![warn(missing_docs)]

#[cfg(feature = "window")]
pub mod app;
#[cfg(feature = "cli")]
pub mod cli;
#[cfg(feature = "cost")]
pub mod cost;
#[cfg(feature = "cli")]
pub mod golden;
#[cfg(feature = "cli")]
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
