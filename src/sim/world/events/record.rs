//! The world's side of its events: recording them, draining them, placing sensors, and the
//! frame's end that finds them (`Watcher`, `Sensor`).

use super::event::Event;
use super::watch::View;
use super::{FrameEvents, Sensor, Watcher};
use crate::sim::scene::shape::Part;
use crate::sim::world::World;

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
            let watcher = Box::new(self.watcher());
            self.events.watcher = Some(watcher);
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
        let mut sensor = Sensor::new(region);
        let mut found = std::mem::take(&mut self.events.found);
        self.particles_in(sensor.region(), &mut found);
        sensor.update(0, &found, &self.particles, self.materials.len());
        self.events.found = found;
        let index = self.events.sensors.len();
        self.events.sensors.push(Some(sensor));
        index
    }

    /// Takes sensor `index` away (its index is not given again); returns whether there was one.
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Part;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let drain = world.add_sensor(Part::rect(Vec2::ZERO, Vec2::new(2.0, 1.0)));
    /// assert!(world.sensor(drain).is_some());
    /// assert!(world.remove_sensor(drain));
    /// assert!(world.sensor(drain).is_none() && !world.remove_sensor(drain));
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
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
            let summary = watcher.after_frame(&self.view(), Some(&mut found));
            for event in found {
                self.events.push(event);
            }
            self.events.last = Some(summary);
            self.events.watcher = Some(watcher);
        }
        let mut sensors = std::mem::take(&mut self.events.sensors);
        let mut found = std::mem::take(&mut self.events.found);
        for (index, slot) in sensors.iter_mut().enumerate() {
            if let Some(sensor) = slot {
                self.particles_in(sensor.region(), &mut found);
                let materials = self.materials.len();
                if let Some(event) = sensor.update(index, &found, &self.particles, materials) {
                    self.events.push(event);
                }
            }
        }
        self.events.sensors = sensors;
        self.events.found = found;
    }

    /// What a watcher reads of the world now.
    fn view(&self) -> View<'_> {
        let reactions = self.reaction_counts().iter().map(|(_, n)| *n).collect();
        let states = self.body_states();
        View {
            particles: &self.particles,
            materials: &self.materials,
            params: &self.params,
            domain: &self.domain,
            obstacles: self.obstacles(),
            body_specs: self.body_specs(),
            body_parts: super::super::bodies::placed_parts(self.body_specs(), states.clone())
                .collect(),
            body_states: states,
            reactions,
            time: self.time,
            burnt: Box::new(|id| self.burnt(id)),
        }
    }

    /// A watcher of the world as it is now, for a listener of a world that does not record
    /// (`sound::Listener`): `watch` after each frame gives that frame's summary.
    pub(crate) fn watcher(&self) -> Watcher {
        Watcher::new(&self.view())
    }

    /// The summary of the frame the world just ran, as `watcher` sees it (the same comparison
    /// `record_events` runs).
    #[cfg(feature = "sound")]
    pub(crate) fn watch(&self, watcher: &mut Watcher) -> FrameEvents {
        watcher.after_frame(&self.view(), None)
    }
}
