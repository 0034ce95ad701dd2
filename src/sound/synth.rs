//! Each frame's events as stereo samples.

use super::events::FrameEvents;

/// The synthesiser: voices started by the frames' events, mixed under a limiter.
#[derive(Clone, Debug, Default)]
pub struct Synth {}

impl Synth {
    /// A silent synthesiser; `seed` starts its noise (the run's seed, for the same bytes).
    pub fn new(seed: u64) -> Self {
        let _ = seed;
        Self {}
    }

    /// Starts the sounds of one simulation frame's events.
    pub fn push(&mut self, events: &FrameEvents) {
        let _ = events;
    }

    /// Renders the next `out.len() / CHANNELS` stereo samples (interleaved left, right), each in
    /// -1..1.
    pub fn render(&mut self, out: &mut [f32]) {
        out.fill(0.0);
    }
}
