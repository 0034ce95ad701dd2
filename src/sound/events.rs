//! What in a world makes a sound, frame by frame: the world's own events (`sim::world`'s
//! `Watcher`, which `World::record_events` runs after each frame), summed up for the synth as
//! [`FrameEvents`].
//!
//! A [`Listener`] reads the summary of a world that records its events; for a world that does
//! not, it runs a watcher of its own, the same comparison, so that a game need not record to be
//! heard.

use crate::sim::world::Watcher;
pub use crate::sim::world::{Flow, FrameEvents, Impact, Knock};
use crate::sim::World;

/// The sound sources of a world's frames, one `listen` after each frame.
#[derive(Clone, Debug)]
pub struct Listener {
    /// The comparison of its own, for a world that does not record its events.
    watcher: Option<Watcher>,
    /// The world's time at the frame last heard.
    heard_at: f64,
}

impl Listener {
    /// A listener for `world` as it is now: its first `listen` hears the next frame.
    pub fn new(world: &World) -> Self {
        Self {
            watcher: (!world.records_events()).then(|| world.watcher()),
            heard_at: world.time(),
        }
    }

    /// The sound sources of the frame `world` just ran: the world's own summary when it records
    /// its events (silent when no frame ran since the last `listen`), else its own watcher's.
    pub fn listen(&mut self, world: &World) -> FrameEvents {
        let fresh = world.time() > self.heard_at;
        self.heard_at = world.time();
        match (&mut self.watcher, world.frame_events()) {
            (None, Some(events)) if world.records_events() => {
                if fresh {
                    events.clone()
                } else {
                    FrameEvents::default()
                }
            }
            (Some(watcher), _) => world.watch(watcher),
            (None, _) => {
                // The world stopped recording: listen on with a watcher of its own.
                let mut watcher = world.watcher();
                let events = world.watch(&mut watcher);
                self.watcher = Some(watcher);
                events
            }
        }
    }
}
