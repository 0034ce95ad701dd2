//! Sound made from the simulation's own events: no window, no audio device, the same bytes on
//! every machine (docs/ENGINE.md, "Sound").
//!
//! Three steps, each its own file:
//! - `events.rs`: `Listener` takes what in each simulation frame makes a sound
//!   (`FrameEvents`: impacts, streams, hisses, crackles, knocks) from the world's own events
//!   (`World::record_events`, `sim::world::Watcher`);
//! - `synth.rs`: `Synth` turns each frame's events into stereo samples at `SAMPLE_RATE`, under a
//!   voice budget, with its sound makers in `voices.rs` and the limiter in `limiter.rs`;
//! - `wav.rs`: a run's sound as a WAV file, and the figures the reports give of it.
//!
//! The same run gives the same samples on every machine, at any thread count and in the page:
//! the world's watcher visits particles in id order, and the synthesiser uses only +, −, ×, ÷ and √
//! per sample, its coefficients from `sim::numerics::portable`, its noise from its own seeded
//! integer generator.
//!
//! A window or a page plays the same `Synth` through its own audio output (`app::audio`).

pub mod events;
pub mod limiter;
pub mod synth;
pub mod voices;
pub mod wav;

pub use events::{FrameEvents, Listener};
pub use synth::Synth;
pub use wav::{Recording, SoundFigures};

/// Samples per second of every sound slosh makes, in the window, the page and a WAV.
pub const SAMPLE_RATE: u32 = 48_000;

/// Stereo: samples are interleaved left, right.
pub const CHANNELS: usize = 2;
