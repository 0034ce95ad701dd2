//! What happened in the world's last frames, for a game to hear: splashes and knocks, changes
//! of material (phase changes and reactions), ignitions, and what entered or left the sensors a
//! game placed. The events are found after each frame by comparing it with the frame before,
//! particle by particle in id order (`watch.rs`), so that they do not depend on the particles'
//! order in memory or the thread count: the same inputs give the same events, in the same order,
//! with the same bits.
//!
//! Finding them costs a pass over the particles each frame, so a world finds none until asked
//! (`World::record_events`); sensors (`sensors.rs`) cost the queries' sort of the particles into
//! cells once a frame (`sim::queries`, `benches/queries.rs`) and what their regions hold. A game
//! takes the events once a frame (`World::drain_events`); the sound (`sound::Listener`) plays
//! the frame's summary (`FrameEvents`) that the same pass makes.

mod event;
mod record;
mod sensors;
mod watch;

pub use event::Event;
pub use sensors::Sensor;
pub(crate) use watch::Watcher;
pub use watch::{
    Flow, FrameEvents, Impact, Knock, HOT, IMPACT_ACCELERATION, IMPACT_BINS, KNOCK_SPEED,
};

/// The most events a world keeps for a game that does not take them: past it, the oldest go.
pub const MAX_QUEUED: usize = 1 << 16;

/// What a world keeps of its events: the watcher (while recording), the queue, the sensors.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    watcher: Option<Box<Watcher>>,
    /// The last frame's summary, while recording.
    last: Option<FrameEvents>,
    queue: std::collections::VecDeque<Event>,
    sensors: Vec<Option<Sensor>>,
    /// The sensors' query buffer, kept between frames.
    found: Vec<crate::sim::queries::Found>,
}

impl Events {
    /// True when nothing is recorded and no sensor is placed: the frame's end has nothing to do.
    pub(crate) fn idle(&self) -> bool {
        self.watcher.is_none() && self.sensors.is_empty()
    }

    /// Queues `event`, dropping the oldest past `MAX_QUEUED`.
    fn push(&mut self, event: Event) {
        if self.queue.len() >= MAX_QUEUED {
            self.queue.pop_front();
        }
        self.queue.push_back(event);
    }
}
