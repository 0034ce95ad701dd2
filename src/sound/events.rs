//! What in a world makes a sound, frame by frame.

use crate::sim::World;

/// One simulation frame's sound sources. Positions are across the box: `x` 0 at its left wall,
/// 1 at its right (the stereo pan).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FrameEvents {
    /// Simulated seconds the frame lasts (1 / the scene's frame rate).
    pub seconds: f32,
}

/// Watches a world after each of its frames (`listen`) and keeps what it needs of the last one.
#[derive(Clone, Debug, Default)]
pub struct Listener {}

impl Listener {
    /// A listener for `world` as it is now: its first `listen` compares with this state.
    pub fn new(world: &World) -> Self {
        let _ = world;
        Self {}
    }

    /// The events of the frame `world` just ran.
    pub fn listen(&mut self, world: &World) -> FrameEvents {
        FrameEvents {
            seconds: 1.0 / world.params().frame_rate,
        }
    }
}
