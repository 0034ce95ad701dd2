//! Heat: every particle's temperature (the `temperature` column, in degrees above the ambient
//! air, starting at its material's `temperature`) conducted between neighbours by the SPH heat
//! equation of Cleary and Monaghan 1999 (`physics::conductance`), with the conductivities
//! averaged harmonically and the Laplacian corrected to be exact for quadratic temperatures
//! (`physics::laplacian_correction`).
//!
//! A scene has it when any material conducts (`conductivity` > 0); a scene without pays nothing.
//! It joins the substep at the pair hook (`Subsystem::contacts`): each pair closer than h gets
//! its conductance once, from the frozen positions, and what one particle gains the other
//! loses, so the heat Σ m c T is conserved to rounding. The walls are adiabatic.
//!
//! The exchange is explicit, and a substep too long for it (a large diffusivity at a fine
//! resolution) is cut into up to `MAX_CYCLES` cycles, each moving at most `MOST_PER_CYCLE` of
//! a particle's difference from its neighbours, so a temperature never overshoots them; past
//! that many cycles the pairs' conductances are lowered (both ends alike, so heat is still
//! conserved) and the heat spreads more slowly than its diffusivity asks.
//!
//! Deterministic: the conductances are computed per pair in parallel, and every sum is taken in
//! the contacts' fixed order, so any thread count gives the same bits.

mod conduction;

pub use conduction::MAX_CYCLES;

use super::checksum::Fnv;
use super::pairs::Contact;
use super::particles::Particles;
use super::scene::{Material, Scene};
use super::subsystem::{Exchanged, FromScene, Frozen, Subsystem};
use crate::sim::portable::Ordered;
use conduction::Conduction;

/// How a material holds and passes heat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Thermal {
    /// Thermal diffusivity α, m²/s.
    pub(crate) diffusivity: f32,
    /// Heat capacity per unit mass, relative to water.
    pub(crate) heat_capacity: f32,
}

/// The heat subsystem: the materials' thermal constants and the stage's scratch (the
/// temperatures themselves are the particles').
#[derive(Clone, Debug)]
pub struct Heat {
    materials: Vec<Thermal>,
    /// The conduction stage's scratch.
    conduction: Conduction,
}

impl Heat {
    /// Heat for `materials`, or `None` when none of them conducts.
    pub fn new(materials: &[Material]) -> Option<Self> {
        materials
            .iter()
            .any(|m| m.conductivity > 0.0)
            .then(|| Self {
                materials: thermal(materials),
                conduction: Conduction::default(),
            })
    }

    /// Takes the thermal constants of `materials` (changed at run time).
    pub fn set_materials(&mut self, materials: &[Material]) {
        self.materials = thermal(materials);
    }
}

/// The thermal constants of `materials`, in their order.
fn thermal(materials: &[Material]) -> Vec<Thermal> {
    materials
        .iter()
        .map(|m| Thermal {
            diffusivity: m.conductivity,
            heat_capacity: m.heat_capacity,
        })
        .collect()
}

/// The heat of some particles and their extreme temperatures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HeatTotals {
    /// Σ m c T: mass × heat capacity × temperature (above the ambient air).
    pub total: f64,
    /// The lowest temperature (0 without particles).
    pub min: f32,
    /// The highest temperature (0 without particles).
    pub max: f32,
}

/// The heat of `particles`, with the heat capacities of `materials`.
pub fn totals(particles: &Particles, materials: &[Material]) -> HeatTotals {
    let mut total = 0.0;
    let (mut min, mut max) = (f32::INFINITY, f32::NEG_INFINITY);
    for i in 0..particles.len() {
        let t = particles.temperature[i];
        let capacity = materials[particles.material[i] as usize].heat_capacity;
        total += f64::from(particles.mass[i]) * f64::from(capacity) * f64::from(t);
        min = min.at_most(t);
        max = max.at_least(t);
    }
    if particles.is_empty() {
        HeatTotals::default()
    } else {
        HeatTotals { total, min, max }
    }
}

impl FromScene for Option<Heat> {
    fn from_scene(scene: &Scene) -> Self {
        Heat::new(&scene.materials)
    }
}

impl Subsystem for Heat {
    fn name(&self) -> &'static str {
        "heat"
    }

    fn is_active(&self) -> bool {
        true
    }

    fn wants_contacts(&self) -> bool {
        true
    }

    fn contacts(&mut self, frozen: &Frozen, contacts: &[Contact], exchanged: &mut Exchanged) {
        self.conduction
            .conduct(&self.materials, frozen, contacts, exchanged.temperature);
    }

    /// The temperatures' bits, in id order.
    fn checksum(&self, particles: &Particles) -> Option<u64> {
        let mut by_id: Vec<usize> = (0..particles.len()).collect();
        by_id.sort_unstable_by_key(|&i| particles.id[i]);
        let mut hash = Fnv::new();
        for i in by_id {
            hash.f32(particles.temperature[i]);
        }
        Some(hash.finish())
    }
}
