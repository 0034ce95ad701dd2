//! What a game does to the particles besides the tools: forces and impulses on the particles in
//! a region or on given ids, and a tag of the game's own on each particle.

use super::edit::EditError;
use super::World;
use crate::sim::queries::Found;
use crate::sim::scene::shape::Part;
use glam::Vec2;

/// A push on particles (`World::push`, `World::push_ids`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Push {
    /// Each particle's momentum changes by this at once: its velocity by the impulse over its
    /// mass.
    Impulse(Vec2),
    /// Each particle takes this force for one frame, `1 / frame_rate` seconds, given at once as
    /// the impulse it makes (a force a game holds is this every frame).
    Force(Vec2),
}

impl Push {
    /// The impulse of the push in a world of `frame_rate`, or the error that it is not finite.
    fn impulse(self, frame_rate: f32) -> Result<Vec2, EditError> {
        let (impulse, what) = match self {
            Self::Impulse(impulse) => (impulse, "impulse"),
            Self::Force(force) => (force / frame_rate, "force"),
        };
        if impulse.is_finite() {
            Ok(impulse)
        } else {
            Err(EditError::NotFinite(what))
        }
    }
}

impl World {
    /// Pushes every particle whose centre lies in `region` (`Push`); returns how many. The
    /// particles move by it from the next step on, as they would under any force: the walls and
    /// the step's limits hold them as ever.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::{Part, Push};
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let jet = Part::circle(Vec2::new(1.0, 0.5), 0.4);
    /// let pushed = world.push(&jet, Push::Impulse(Vec2::new(4.0, 6.0)))?;
    /// assert!(pushed > 20);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push(&mut self, region: &Part, push: Push) -> Result<usize, EditError> {
        let impulse = push.impulse(self.params.frame_rate)?;
        let found = self.found_in(region);
        let p = &mut self.particles;
        for hit in &found {
            p.velocity[hit.index] += impulse / p.mass[hit.index];
        }
        Ok(found.len())
    }

    /// Pushes the particles with these `ids` (`Push`); returns how many of them there were
    /// (an id no particle has is skipped: it may have been erased, or have burned away).
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Push;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let first: Vec<u32> = world.particles().id[..10].to_vec();
    /// assert_eq!(world.push_ids(&first, Push::Force(Vec2::new(0.0, 100.0)))?, 10);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn push_ids(&mut self, ids: &[u32], push: Push) -> Result<usize, EditError> {
        let impulse = push.impulse(self.params.frame_rate)?;
        let p = &mut self.particles;
        let mut count = 0;
        for i in indices_of(&p.id, ids) {
            p.velocity[i] += impulse / p.mass[i];
            count += 1;
        }
        Ok(count)
    }

    /// Gives every particle whose centre lies in `region` the tag `tag`, a number of the game's
    /// own meaning (`Particles::tag`; a new particle has 0); returns how many. A tag stays with
    /// its particle through every step, snapshot and replay, and through its changes of phase.
    ///
    /// ```
    /// use glam::Vec2;
    /// use slosh::sim::Part;
    ///
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let red = 7;
    /// let tagged = world.tag(&Part::rect(Vec2::ZERO, Vec2::new(2.0, 5.0)), red);
    /// for _ in 0..10 {
    ///     world.step_frame();
    /// }
    /// let p = world.particles();
    /// assert_eq!(p.tag.iter().filter(|&&tag| tag == red).count(), tagged);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn tag(&mut self, region: &Part, tag: u32) -> usize {
        let found = self.found_in(region);
        for hit in &found {
            self.particles.tag[hit.index] = tag;
        }
        found.len()
    }

    /// Gives the particles with these `ids` the tag `tag` (see `tag`); returns how many of them
    /// there were.
    /// ```
    /// let mut world = slosh::preset::Preset::load("tank")?.build_world(1);
    /// let id = world.particles().id[0];
    /// assert_eq!(world.tag_ids(&[id, u32::MAX], 42), 1, "one of the two ids is a particle's");
    /// world.step_frame();
    /// let p = world.particles();
    /// let at = p.id.iter().position(|&i| i == id).unwrap();
    /// assert_eq!(p.tag[at], 42);
    /// # Ok::<(), slosh::preset::PresetError>(())
    /// ```
    pub fn tag_ids(&mut self, ids: &[u32], tag: u32) -> usize {
        let p = &mut self.particles;
        let mut count = 0;
        for i in indices_of(&p.id, ids) {
            p.tag[i] = tag;
            count += 1;
        }
        count
    }

    /// The particles in `region`, in index order.
    fn found_in(&self, region: &Part) -> Vec<Found> {
        let mut found = Vec::new();
        self.particles_in(region, &mut found);
        found
    }
}

/// The indices, ascending, of the particles (whose ids are `column`) that have one of `ids`.
fn indices_of<'a>(column: &'a [u32], ids: &[u32]) -> impl Iterator<Item = usize> + 'a {
    let mut wanted = ids.to_vec();
    wanted.sort_unstable();
    (0..column.len()).filter(move |&i| wanted.binary_search(&column[i]).is_ok())
}
