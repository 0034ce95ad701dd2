//! What happened in the world's last frames, for a game to hear: splashes and knocks, changes
//! of material (phase changes and reactions), ignitions, and what entered or left the sensors a
//! game placed. The events are found after each frame by comparing it with the frame before,
//! particle by particle in id order (`watch.rs`), so that they do not depend on the particles'
//! order in memory or the thread count: the same inputs give the same events, in the same order,
//! with the same bits.
//!
//! Finding them costs a pass over the particles each frame, so a world finds none until asked
//! (`World::record_events`); sensors (`sensors.rs`) cost only what their regions hold. A game
//! takes the events once a frame (`World::drain_events`); the sound (`sound::Listener`) plays
//! the frame's summary (`FrameEvents`) that the same pass makes.

mod sensors;
mod watch;

pub use sensors::Sensor;
pub use watch::{
    Flow, FrameEvents, Impact, Knock, Watcher, HOT, IMPACT_ACCELERATION, IMPACT_BINS, KNOCK_SPEED,
};

use super::World;
use crate::sim::scene::shape::Part;
use glam::Vec2;

/// The most events a world keeps for a game that does not take them: past it, the oldest go.
pub const MAX_QUEUED: usize = 1 << 16;

/// One thing that happened in a frame (`World::drain_events`).
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// Liquid that stopped fast in one strip of the box (`IMPACT_BINS` strips across it): a
    /// splash, or a wave against a wall.
    Splash {
        /// Where, weighted by energy.
        position: Vec2,
        /// ½ m |Δv|² of the particles that stopped, beyond what gravity explains.
        energy: f32,
        /// Their mass.
        mass: f32,
        /// The material that put the most energy into it.
        material: usize,
        /// The share of the energy spent against a wall, an obstacle or a body, 0 to 1.
        hard: f32,
    },
    /// A rigid body whose velocity changed sharply (`KNOCK_SPEED`).
    Knock {
        /// The body's index.
        body: usize,
        /// Its centre of mass.
        position: Vec2,
        /// ½ M |Δv|².
        energy: f32,
        /// Against a wall rather than into the liquid.
        wall: bool,
    },
    /// Particles that turned from one material into another in the frame: melting, freezing,
    /// a reaction's products.
    Changed {
        /// The material they were.
        from: usize,
        /// The material they are.
        to: usize,
        /// Their mass.
        mass: f32,
        /// Where, weighted by mass.
        position: Vec2,
    },
    /// Particles that went in the frame: boiled off as vapour (`boiled`), burned out, reacted
    /// into nothing, or erased.
    Gone {
        /// Their material.
        material: usize,
        /// Their mass.
        mass: f32,
        /// Where they were, weighted by mass.
        position: Vec2,
        /// Hot when they went (above `HOT`): boiled or burned away rather than erased.
        boiled: bool,
    },
    /// One of the world's reactions (`World::reactions`, by index) happened `count` times in the
    /// frame.
    Reacted {
        /// The reaction's index.
        reaction: usize,
        /// How many times.
        count: u64,
    },
    /// A particle that caught fire in the frame.
    Ignited {
        /// Its id.
        id: u32,
        /// Where.
        position: Vec2,
    },
    /// Particles that came into or left a sensor in the frame (`World::add_sensor`).
    Sensed {
        /// The sensor's index.
        sensor: usize,
        /// The ids that came in, ascending.
        entered: Vec<u32>,
        /// The ids that left (or went), ascending.
        left: Vec<u32>,
    },
}

/// What a world keeps of its events: the watcher (while recording), the queue, the sensors.
#[derive(Clone, Debug, Default)]
pub(crate) struct Events {
    watcher: Option<Box<Watcher>>,
    /// The last frame's summary, while recording.
    last: Option<FrameEvents>,
    queue: std::collections::VecDeque<Event>,
    sensors: Vec<Option<Sensor>>,
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

impl World {
    /// Starts (`true`) or stops finding the events of each frame (`Event`s other than the
    /// sensors', and the sound's `FrameEvents`). The first frame after the start compares with
    /// the world as it is now.
    ///
    /// ```
    /// use slosh::sim::Event;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// world.record_events(true);
    /// let mut events = Vec::new();
    /// let mut splashes = 0;
    /// for _ in 0..60 {
    ///     world.step_frame();
    ///     world.drain_events(&mut events);
    ///     splashes += events.iter().filter(|e| matches!(e, Event::Splash { .. })).count();
    ///     events.clear();
    /// }
    /// assert!(splashes > 0, "the dam breaks against the far wall");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn record_events(&mut self, on: bool) {
        let watching = self.events.watcher.is_some();
        if on && !watching {
            self.events.watcher = Some(Box::new(Watcher::new(self)));
        } else if !on {
            self.events.watcher = None;
            self.events.last = None;
        }
    }

    /// True while the world finds its frames' events (`record_events`).
    pub fn records_events(&self) -> bool {
        self.events.watcher.is_some()
    }

    /// Moves the events of the frames since the last call onto the end of `out`, oldest first.
    pub fn drain_events(&mut self, out: &mut Vec<Event>) {
        out.extend(self.events.queue.drain(..));
    }

    /// The last frame's sound sources (`FrameEvents`), while the world records events.
    pub fn frame_events(&self) -> Option<&FrameEvents> {
        self.events.last.as_ref()
    }

    /// Places a sensor over `region`; returns its index. After each frame it holds the ids of
    /// the particles inside and their count and mass per material (`Sensor`), and the frame's
    /// `Event::Sensed` says which came in and which left. The particles inside when it is placed
    /// count as already in.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::{Event, Part};
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let cup = world.add_sensor(Part::rect(Vec2::new(12.0, 0.0), Vec2::new(16.0, 2.0)));
    /// let mut events = Vec::new();
    /// for _ in 0..60 {
    ///     world.step_frame();
    /// }
    /// world.drain_events(&mut events);
    /// let came: usize = events.iter().map(|event| match event {
    ///     Event::Sensed { sensor, entered, .. } if *sensor == cup => entered.len(),
    ///     _ => 0,
    /// }).sum();
    /// let inside = world.sensor(cup).unwrap().inside().len();
    /// assert!(inside > 0 && came >= inside, "the wave reaches the far corner");
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn add_sensor(&mut self, region: Part) -> usize {
        let sensor = Sensor::new(region, self);
        let index = self.events.sensors.len();
        self.events.sensors.push(Some(sensor));
        index
    }

    /// Takes sensor `index` away (its index is not given again); returns whether there was one.
    pub fn remove_sensor(&mut self, index: usize) -> bool {
        let slot = self.events.sensors.get_mut(index);
        slot.and_then(Option::take).is_some()
    }

    /// Sensor `index`, as of the last frame (`None` for one removed or never placed).
    pub fn sensor(&self, index: usize) -> Option<&Sensor> {
        self.events.sensors.get(index).and_then(Option::as_ref)
    }

    /// At the end of a frame: the watcher's events and the sensors'.
    pub(crate) fn find_events(&mut self) {
        if self.events.idle() {
            return;
        }
        if let Some(mut watcher) = self.events.watcher.take() {
            let mut found = Vec::new();
            let summary = watcher.after_frame(self, Some(&mut found));
            for event in found {
                self.events.push(event);
            }
            self.events.last = Some(summary);
            self.events.watcher = Some(watcher);
        }
        let mut sensors = std::mem::take(&mut self.events.sensors);
        for (index, slot) in sensors.iter_mut().enumerate() {
            if let Some(sensor) = slot {
                if let Some(event) = sensor.update(index, self) {
                    self.events.push(event);
                }
            }
        }
        self.events.sensors = sensors;
    }
}
