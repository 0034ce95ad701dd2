//! Reactions between materials in contact (`scene::Reaction`): lava and water make rock and
//! steam. The pairs of reacting materials are noted in each substep's pair hook; once a frame,
//! every particle of a reaction's first material that touched one of its second reacts with the
//! first such partner in the contacts' order that has not reacted yet, with the chance
//! 1 − e^(−rate Δt) drawn from the world's seeded generator in that same order. Reactions run in
//! the scene's order, each particle at most once a frame.

use crate::sim::numerics::portable;
use crate::sim::particles::Particles;
use crate::sim::scene::{Product, Reaction};
use crate::sim::stages::pairs::Contact;
use rand::Rng;
use rand_pcg::Pcg32;

/// What a particle becomes in this frame's reactions.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Reacted {
    /// Its index.
    pub index: usize,
    /// What it becomes.
    pub product: Product,
    /// The heat it gains per unit mass, in degrees of water.
    pub heat: f32,
}

/// The scene's reactions, the pairs that touched in the last substep, and how often each
/// reaction has happened.
#[derive(Clone, Debug, Default)]
pub(crate) struct Reactions {
    pub list: Vec<Reaction>,
    /// Pairs of the last substep whose materials some reaction joins (sorted indices).
    touching: Vec<(u32, u32)>,
    /// How many times each reaction has happened.
    pub counts: Vec<u64>,
    /// Whether each particle has reacted in this frame (scratch).
    reacted: Vec<bool>,
    /// Whether some reaction joins materials a and b, at a × materials + b (either order).
    joins: Vec<bool>,
    /// How many materials `joins` is laid out for.
    materials: usize,
}

impl Reactions {
    /// The reactions `list`, none happened yet.
    pub fn new(list: Vec<Reaction>) -> Self {
        let materials = list
            .iter()
            .flat_map(|r| r.between)
            .max()
            .map_or(0, |most| most + 1);
        let mut joins = vec![false; materials * materials];
        for [a, b] in list.iter().map(|r| r.between) {
            joins[a * materials + b] = true;
            joins[b * materials + a] = true;
        }
        Self {
            counts: vec![0; list.len()],
            list,
            joins,
            materials,
            ..Self::default()
        }
    }

    /// `more` reactions after these, none happened yet; the counts of these stay.
    pub fn extend(&mut self, more: Vec<Reaction>) {
        let counts = std::mem::take(&mut self.counts);
        let mut list = std::mem::take(&mut self.list);
        list.extend(more);
        *self = Self::new(list);
        self.counts[..counts.len()].copy_from_slice(&counts);
    }

    /// True when the scene has reactions.
    pub fn any(&self) -> bool {
        !self.list.is_empty()
    }

    /// Notes the pairs of `contacts` (between `particles`) whose materials react.
    pub fn note(&mut self, particles: &Particles, contacts: &[Contact]) {
        self.touching.clear();
        if self.list.is_empty() {
            return;
        }
        let (material, n) = (&particles.material, self.materials);
        let joins = &self.joins;
        let reacts = |a: u16, b: u16| {
            let (a, b) = (a as usize, b as usize);
            a < n && b < n && joins[a * n + b]
        };
        for contact in contacts {
            if reacts(material[contact.i as usize], material[contact.j as usize]) {
                self.touching.push((contact.i, contact.j));
            }
        }
    }

    /// This frame's reactions among `particles` (sorted as in the last substep), `dt` long:
    /// what each reacting particle becomes, in the order they happened.
    pub fn react(&mut self, particles: &Particles, dt: f32, rng: &mut Pcg32) -> Vec<Reacted> {
        let mut happened = Vec::new();
        let count = particles.len();
        if self.touching.is_empty() {
            return happened;
        }
        self.reacted.clear();
        self.reacted.resize(count, false);
        let material = &particles.material;
        for (k, reaction) in self.list.iter().enumerate() {
            let chance = 1.0 - portable::exp(-reaction.rate * dt);
            let [first, second] = reaction.between;
            // Each particle of the first material draws once, at its first free partner.
            for &(i, j) in &self.touching {
                let (i, j) = (i as usize, j as usize);
                if i >= count || j >= count || self.reacted[i] || self.reacted[j] {
                    continue;
                }
                let (a, b) = match (material[i] as usize, material[j] as usize) {
                    (x, y) if x == first && y == second => (i, j),
                    (x, y) if x == second && y == first => (j, i),
                    _ => continue,
                };
                let draw: f32 = rng.random();
                // A particle that drew and did not react waits for the next frame.
                self.reacted[a] = true;
                if draw >= chance {
                    continue;
                }
                self.reacted[b] = true;
                self.counts[k] += 1;
                for (index, product) in [(a, reaction.into[0]), (b, reaction.into[1])] {
                    happened.push(Reacted {
                        index,
                        product,
                        heat: reaction.heat,
                    });
                }
            }
        }
        happened
    }
}
