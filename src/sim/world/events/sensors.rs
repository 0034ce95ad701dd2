//! Sensors: regions a game places, which know after each frame which particles are inside.

use super::event::Event;
use crate::sim::particles::Particles;
use crate::sim::queries::Found;
use crate::sim::scene::shape::Part;

/// A region a game watches (`World::add_sensor`): what was inside it after the last frame.
#[derive(Clone, Debug, PartialEq)]
pub struct Sensor {
    region: Part,
    /// The ids inside, ascending.
    inside: Vec<u32>,
    /// Per material of the world: how many particles inside, and their mass.
    materials: Vec<(usize, f32)>,
}

impl Sensor {
    /// A sensor over `region` with nothing inside yet.
    pub(crate) fn new(region: Part) -> Self {
        Self {
            region,
            inside: Vec::new(),
            materials: Vec::new(),
        }
    }

    /// Its region.
    pub fn region(&self) -> &Part {
        &self.region
    }

    /// The ids of the particles inside, ascending.
    pub fn inside(&self) -> &[u32] {
        &self.inside
    }

    /// How many particles of each of the world's materials are inside, and their mass, by
    /// material index.
    pub fn materials(&self) -> &[(usize, f32)] {
        &self.materials
    }

    /// The mass inside, all materials together.
    pub fn mass(&self) -> f32 {
        self.materials.iter().map(|(_, mass)| mass).sum()
    }

    /// Looks again after a frame, given the particles `found` in its region (of `particles`,
    /// with `materials` materials): what came in and what left, as the sensor `index`'s event
    /// (`None` when nothing did).
    pub(crate) fn update(
        &mut self,
        index: usize,
        found: &[Found],
        p: &Particles,
        materials: usize,
    ) -> Option<Event> {
        self.materials.clear();
        self.materials.resize(materials, (0, 0.0));
        let mut now: Vec<u32> = Vec::with_capacity(found.len());
        for hit in found {
            now.push(hit.id);
            let slot = &mut self.materials[hit.material];
            slot.0 += 1;
            slot.1 += p.mass[hit.index];
        }
        now.sort_unstable();
        let (mut entered, mut left) = (Vec::new(), Vec::new());
        let (mut a, mut b) = (0, 0);
        let before = &self.inside;
        while a < before.len() || b < now.len() {
            match (before.get(a), now.get(b)) {
                (Some(x), Some(y)) if x == y => {
                    a += 1;
                    b += 1;
                }
                (Some(x), Some(y)) if x < y => {
                    left.push(*x);
                    a += 1;
                }
                (Some(x), None) => {
                    left.push(*x);
                    a += 1;
                }
                (_, Some(y)) => {
                    entered.push(*y);
                    b += 1;
                }
                (None, None) => break,
            }
        }
        self.inside = now;
        (!entered.is_empty() || !left.is_empty()).then_some(Event::Sensed {
            sensor: index,
            entered,
            left,
        })
    }
}
