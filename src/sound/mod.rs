//! Sound made from the simulation's own events: no window, no audio device, the same bytes on
//! every machine (docs/ENGINE.md, "Sound").
//!
//! Three steps, each its own file:
//! - `events.rs`: `Listener` watches a `World` after each simulation frame and tells what in it
//!   makes a sound (`FrameEvents`): impacts, streams, hisses, crackles, knocks;
//! - `synth.rs`: `Synth` turns each frame's events into stereo samples at `SAMPLE_RATE`, under a
//!   voice budget and a limiter;
//! - `wav.rs`: a run's sound as a WAV file, and the figures the reports give of it.
//!
//! A window or a page plays the same `Synth` through its own audio output (`app::audio`).

pub mod events;
pub mod synth;

pub use events::{FrameEvents, Listener};
pub use synth::Synth;

/// Samples per second of every sound slosh makes, in the window, the page and a WAV.
pub const SAMPLE_RATE: u32 = 48_000;

/// Stereo: samples are interleaved left, right.
pub const CHANNELS: usize = 2;
