//! The integration tests, as modules of one test binary: one build and one link instead of one
//! per file, and one harness that keeps both cores busy to the end. A module that runs the
//! `slosh` program needs its command line (`cli`); the window's needs the window (`window`); one
//! whose scene has rigid bodies (`dam`, `bath`, `mill`, most levels) needs `bodies`.
//! `tests/allocations.rs` stays a binary of its own: it counts every allocation in its process.

mod common;

mod air;
#[cfg(feature = "replay")]
mod arrival;
#[cfg(feature = "bodies")]
mod bodies;
mod collapse;
mod coupling;
mod docs_links;
mod edits;
mod elastic;
mod fire;
mod game;
mod heat;
mod jets;
mod library;
mod materials;
mod pairs;
mod phases;
mod preset_errors;
mod presets;
mod properties;
mod queries;
mod ranges_sweep;
mod resolution;
mod sand;
#[cfg(feature = "sound")]
mod sound;
mod stability;
#[cfg(all(feature = "bodies", feature = "replay"))]
mod undo;

#[cfg(feature = "cli")]
mod cli_errors;
#[cfg(feature = "cli")]
mod engine;
mod events;
#[cfg(feature = "cli")]
mod golden;
#[cfg(feature = "cli")]
mod levels;
#[cfg(feature = "cli")]
mod replay;
#[cfg(feature = "cli")]
mod share;
#[cfg(feature = "cli")]
mod snapshot;

#[cfg(feature = "window")]
mod window;
