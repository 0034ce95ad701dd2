//! Combustion: matter that burns where it meets the air. A particle of a material with an
//! `ignition_temperature` burns while it is hotter than that and has open air above it (its
//! neighbours of the last substep lie below it: `OPEN_ABOVE`; a wall beside it is no air).
//! Each frame a burning particle burns `burn_rate` Δt of its fuel (its mass at the start), and
//! takes up the heat that releases, `heat_of_combustion` per unit mass burned, as a rise of its
//! temperature; conduction carries it on to its neighbours. The burned mass goes to the air as smoke as hot as the flame
//! (`subsystems::Fume`, taken by the air after the heat).
//!
//! A particle keeps its mass in the liquid while it burns (the pair loops read a material's
//! mass), and with it its heat: the fuel left in it is what its burnt fraction says. When under
//! `BURNT_OUT` of its fuel is left, the rest burns at once and the particle goes; the heat it
//! held goes to its neighbours of the last substep (shared evenly among up to `PARTNERS` of
//! them that stay), so the heat released is all in the particles' books: the particles' heat
//! grows by exactly the mass burned × `heat_of_combustion`. A burned-out particle with no
//! neighbour left waits, burned out, until it touches one.
//!
//! Deterministic: the particles burn in their sorted order, the neighbours are the contacts' in
//! their fixed order, and nothing is drawn at random.

use crate::sim::numerics::portable::Ordered;
use crate::sim::particles::Particles;
use crate::sim::scene::Material;
use crate::sim::stages::pairs::Contact;
use crate::sim::subsystems::Fume;
use glam::Vec2;
use serde::{Deserialize, Serialize};

/// A particle has open air above it when its neighbours lie below it: the mean of the unit
/// vectors toward them, weighted by the kernel's 1 − r/h, points down (along gravity) by more
/// than this. Inside the liquid the vectors nearly cancel; under a flat open surface, with
/// neighbours over a half disc only, the mean is about 2/π ≈ 0.64; beside a wall it points
/// sideways, not down.
pub(crate) const OPEN_ABOVE: f32 = 0.3;

/// A particle whose neighbours' weights sum to less than this (a drop in flight, a lone
/// particle on the floor) is in the open all round.
pub(crate) const LONE: f32 = 0.5;

/// Under this fraction of its fuel left, a burning particle's rest burns at once and it goes.
pub(crate) const BURNT_OUT: f32 = 0.01;

/// How many neighbours of the last substep a particle keeps, to give its heat to when it
/// burns out.
const PARTNERS: usize = 4;

/// No neighbour in a slot of `partners`.
const NONE: u32 = u32::MAX;

/// How a material burns.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Fuel {
    /// It burns past this temperature, °C.
    pub ignition: f32,
    /// Heat released per unit mass burned, in degrees of water.
    pub heat: f32,
    /// Fraction of its fuel a burning particle burns per second.
    pub rate: f32,
}

/// The scene's burning materials, what each particle has burned, and how many burned out.
#[derive(Clone, Debug, Default)]
pub(crate) struct Combustion {
    /// Each material's fuel, by index (`None`: it does not burn).
    fuels: Vec<Option<Fuel>>,
    /// The fraction of each particle's fuel that has burned, by particle id (0 past the end).
    burnt: Vec<f32>,
    /// Up to `PARTNERS` neighbours of each particle in the last substep, by sorted index.
    partners: Vec<[u32; PARTNERS]>,
    /// Each particle's sum over its neighbours of the unit vector toward them weighted by
    /// 1 − r/h, and the sum of those weights, in the last substep.
    toward_neighbours: Vec<(Vec2, f32)>,
    /// How many particles have burned out.
    pub burned_out: u64,
}

/// What a frame's burning did.
#[derive(Debug, Default)]
pub(crate) struct Burned {
    /// The particles burned out, whose heat went to their neighbours: to remove.
    pub gone: Vec<usize>,
    /// The mass that burned, at each burning particle, for the air.
    pub fumes: Vec<Fume>,
    /// The heat of combustion released, in degrees of water × mass (`HeatBooks::burning`).
    pub released: f64,
}

/// What snapshots keep of the burning: the burnt fractions by id (those not 0) and the count.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub(crate) struct SavedBurning {
    pub burnt: Vec<(u32, f32)>,
    pub burned_out: u64,
}

impl Combustion {
    /// The burning materials of `materials`.
    pub fn new(materials: &[Material]) -> Self {
        let mut combustion = Self::default();
        combustion.set_materials(materials);
        combustion
    }

    /// Takes the burning constants of `materials` (changed at run time); what burned stays.
    pub fn set_materials(&mut self, materials: &[Material]) {
        self.fuels = materials
            .iter()
            .map(|m| {
                m.ignition_temperature.map(|ignition| Fuel {
                    ignition,
                    heat: m.heat_of_combustion,
                    rate: m.burn_rate,
                })
            })
            .collect();
    }

    /// True when some material burns.
    pub fn any(&self) -> bool {
        self.fuels.iter().any(Option::is_some)
    }

    /// The fraction of the particle `id`'s fuel that has burned.
    pub fn burnt(&self, id: u32) -> f32 {
        self.burnt.get(id as usize).copied().unwrap_or(0.0)
    }

    /// Notes up to `PARTNERS` neighbours of each particle from the substep's `contacts`, in
    /// their order.
    pub fn note(&mut self, particles: &Particles, contacts: &[Contact]) {
        self.partners.clear();
        self.partners.resize(particles.len(), [NONE; PARTNERS]);
        self.toward_neighbours.clear();
        self.toward_neighbours
            .resize(particles.len(), (Vec2::ZERO, 0.0));
        let position = &particles.position;
        for contact in contacts {
            let (i, j) = (contact.i as usize, contact.j as usize);
            for (a, b) in [(i, j), (j, i)] {
                if let Some(slot) = self.partners[a].iter_mut().find(|s| **s == NONE) {
                    *slot = b as u32;
                }
            }
            if contact.r > 0.0 {
                let toward = (position[j] - position[i]) * (contact.weight / contact.r);
                self.toward_neighbours[i].0 += toward;
                self.toward_neighbours[j].0 -= toward;
            }
            self.toward_neighbours[i].1 += contact.weight;
            self.toward_neighbours[j].1 += contact.weight;
        }
    }

    /// True when particle `i` has open air above it (`down`: the unit vector along gravity,
    /// or zero without gravity, when open air on any side counts), from the last substep's
    /// neighbours.
    fn open_above(&self, i: usize, down: Vec2) -> bool {
        let Some(&(toward, weight)) = self.toward_neighbours.get(i) else {
            return false;
        };
        if weight < LONE {
            return true;
        }
        let along = if down == Vec2::ZERO {
            toward.length()
        } else {
            toward.dot(down)
        };
        along > OPEN_ABOVE * weight
    }

    /// One frame of `dt` seconds: every burning particle burns, its temperature rising by the
    /// heat released over its heat capacity (`capacity` by material), and the burned-out give
    /// their heat (`offsets`: each material's heat per unit mass at 0 °C, `Phases::offsets`) to
    /// their neighbours. `down` is the unit vector along gravity (zero without). Nothing is
    /// removed here: `Burned::gone` says what to remove.
    pub fn burn(
        &mut self,
        particles: &mut Particles,
        capacity: &[f32],
        offsets: &[f64],
        down: Vec2,
        dt: f32,
    ) -> Burned {
        let mut burned = Burned::default();
        let count = particles.len();
        let mut out = Vec::new();
        for i in 0..count {
            let material = particles.material[i] as usize;
            let Some(fuel) = self.fuels.get(material).copied().flatten() else {
                continue;
            };
            let id = particles.id[i] as usize;
            let was = self.burnt(id as u32);
            let hot = particles.temperature[i] > fuel.ignition;
            if was < 1.0 && hot && fuel.rate > 0.0 && self.open_above(i, down) {
                let mut now = (was + fuel.rate * dt).at_most(1.0);
                if 1.0 - now < BURNT_OUT {
                    now = 1.0;
                }
                let share = now - was;
                if self.burnt.len() <= id {
                    self.burnt.resize(id + 1, 0.0);
                }
                self.burnt[id] = now;
                particles.temperature[i] += share * fuel.heat / capacity[material];
                burned.released += f64::from(share * fuel.heat) * f64::from(particles.mass[i]);
                burned.fumes.push(Fume {
                    position: particles.position[i],
                    mass: share * particles.mass[i],
                    temperature: particles.temperature[i],
                });
            }
            if self.burnt(id as u32) >= 1.0 {
                out.push(i);
            }
        }
        if out.is_empty() {
            return burned;
        }
        let mut gone = vec![false; count];
        for &i in &out {
            gone[i] = true;
        }
        for i in out {
            let partners = self.partners.get(i).copied().unwrap_or([NONE; PARTNERS]);
            let staying = |&&q: &&u32| (q as usize) < count && !gone[q as usize];
            let takers = partners.iter().filter(staying).count();
            if takers == 0 {
                // It waits, burned out, for a neighbour to take its heat.
                gone[i] = false;
                continue;
            }
            let material = particles.material[i] as usize;
            let held = f64::from(capacity[material]) * f64::from(particles.temperature[i])
                + f64::from(particles.latent[i])
                + offsets[material];
            let each = f64::from(particles.mass[i]) * held / takers as f64;
            for &q in partners.iter().filter(staying) {
                let q = q as usize;
                let into = particles.material[q] as usize;
                let rise = each / f64::from(particles.mass[q] * capacity[into]);
                particles.temperature[q] += rise as f32;
            }
            burned.gone.push(i);
            self.burned_out += 1;
        }
        burned
    }

    /// What snapshots keep.
    pub fn saved(&self) -> SavedBurning {
        let burnt = self.burnt.iter().enumerate();
        let burnt = burnt.filter(|(_, &b)| b != 0.0);
        SavedBurning {
            burnt: burnt.map(|(id, &b)| (id as u32, b)).collect(),
            burned_out: self.burned_out,
        }
    }

    /// Continues from what a snapshot kept.
    pub fn restore(&mut self, saved: SavedBurning) {
        self.burnt.clear();
        for (id, b) in saved.burnt {
            let id = id as usize;
            if self.burnt.len() <= id {
                self.burnt.resize(id + 1, 0.0);
            }
            self.burnt[id] = b;
        }
        self.burned_out = saved.burned_out;
    }
}
