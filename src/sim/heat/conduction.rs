//! The conduction stage of `sim::heat`: one substep of the SPH heat equation along the pairs.

use crate::sim::pairs::Contact;
use crate::sim::physics::{conductance, conduction_kernel, conductivity, density_norm};
use crate::sim::physics::{harmonic_conductivity, laplacian_correction};
use crate::sim::portable::Ordered;
use crate::sim::subsystem::Frozen;
use rayon::prelude::*;

/// Most cycles one substep's exchange is cut into.
pub const MAX_CYCLES: u32 = 16;

/// The Laplacian correction (`physics::laplacian_correction`) is kept within these: a particle
/// with few neighbours (a drop, the surface) has a small sum, which the correction must not
/// turn into a fast conductor.
const MIN_CORRECTION: f32 = 0.5;
/// See `MIN_CORRECTION`.
const MAX_CORRECTION: f32 = 2.0;

/// Most of its difference from its neighbours a particle's temperature moves in one cycle: the
/// sum over its pairs of G Δt / (m c), kept at or below this, keeps every new temperature
/// between the old ones of the particle and its neighbours.
const MOST_PER_CYCLE: f32 = 0.5;

/// How a material holds and passes heat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Thermal {
    /// Thermal diffusivity α, m²/s.
    pub(crate) diffusivity: f32,
    /// Heat capacity per unit mass, relative to water.
    pub(crate) heat_capacity: f32,
}

/// The conduction stage's scratch, reused every substep.
#[derive(Clone, Debug, Default)]
pub(super) struct Conduction {
    /// Kernel sum Σ_j W(r_ij), the particle itself included: one over its volume.
    number_density: Vec<f32>,
    /// m c of each particle.
    capacity: Vec<f32>,
    /// Conductivity k = ρ c α of each particle.
    conductivity: Vec<f32>,
    /// The Laplacian correction of each particle (from Σ_j V_j F r², then 4 over it).
    correction: Vec<f32>,
    /// F(r) of each contact.
    kernel: Vec<f32>,
    /// G Δt of each contact.
    conductance: Vec<f32>,
    /// Σ G Δt / (m c) over each particle's pairs.
    diagonal: Vec<f32>,
    /// The heat each particle gains in a cycle.
    gained: Vec<f32>,
}

impl Conduction {
    /// One substep of conduction along `contacts` (pairs of `frozen.particles` closer than h),
    /// changing `temperature` (indexed like the particles).
    pub(super) fn conduct(
        &mut self,
        materials: &[Thermal],
        frozen: &Frozen,
        contacts: &[Contact],
        temperature: &mut [f32],
    ) {
        let Frozen {
            particles, h, dt, ..
        } = *frozen;
        let count = particles.len();
        let norm = density_norm(h);
        self.number_density.clear();
        self.number_density.resize(count, norm);
        for contact in contacts {
            let a = contact.weight;
            let w = norm * a * a * a;
            self.number_density[contact.i as usize] += w;
            self.number_density[contact.j as usize] += w;
        }
        let (mass, material) = (&particles.mass, &particles.material);
        self.capacity.clear();
        self.conductivity.clear();
        for i in 0..count {
            let thermal = materials[material[i] as usize];
            let capacity = mass[i] * thermal.heat_capacity;
            let density = mass[i] * self.number_density[i];
            self.capacity.push(capacity);
            self.conductivity.push(conductivity(
                density,
                thermal.heat_capacity,
                thermal.diffusivity,
            ));
        }
        contacts
            .par_iter()
            .with_min_len(4096)
            .map(|contact| conduction_kernel(contact.r, h))
            .collect_into_vec(&mut self.kernel);
        self.correction.clear();
        self.correction.resize(count, 0.0);
        for (contact, &kernel) in contacts.iter().zip(&self.kernel) {
            let (i, j) = (contact.i as usize, contact.j as usize);
            let moment = kernel * contact.r * contact.r;
            self.correction[i] += moment / self.number_density[j];
            self.correction[j] += moment / self.number_density[i];
        }
        for correction in &mut self.correction {
            *correction = laplacian_correction(*correction).clamp(MIN_CORRECTION, MAX_CORRECTION);
        }
        let (number_density, k) = (&self.number_density, &self.conductivity);
        let (correction, kernel) = (&self.correction, &self.kernel);
        (contacts, kernel)
            .into_par_iter()
            .with_min_len(4096)
            .map(|(contact, &kernel)| {
                let (i, j) = (contact.i as usize, contact.j as usize);
                let k_ij = harmonic_conductivity(k[i], k[j]);
                if k_ij <= 0.0 {
                    return 0.0;
                }
                let (v_i, v_j) = (1.0 / number_density[i], 1.0 / number_density[j]);
                let c_ij = 0.5 * (correction[i] + correction[j]);
                conductance(k_ij, v_i, v_j, kernel, c_ij) * dt
            })
            .collect_into_vec(&mut self.conductance);
        self.diagonal.clear();
        self.diagonal.resize(count, 0.0);
        for (contact, &g) in contacts.iter().zip(&self.conductance) {
            let (i, j) = (contact.i as usize, contact.j as usize);
            self.diagonal[i] += g / self.capacity[i];
            self.diagonal[j] += g / self.capacity[j];
        }
        let most = self
            .diagonal
            .iter()
            .copied()
            .fold(0.0, crate::sim::portable::max);
        let cycles = ((most / MOST_PER_CYCLE).ceil() as u32).clamp(1, MAX_CYCLES);
        let per_cycle = 1.0 / cycles as f32;
        if most * per_cycle > MOST_PER_CYCLE {
            // Too fast even in the most cycles: each pair slowed as much as its faster end needs.
            let limit = MOST_PER_CYCLE * cycles as f32;
            let slowed = |d: f32| if d > limit { limit / d } else { 1.0 };
            for (contact, g) in contacts.iter().zip(&mut self.conductance) {
                let (i, j) = (contact.i as usize, contact.j as usize);
                *g *= slowed(self.diagonal[i]).at_most(slowed(self.diagonal[j]));
            }
        }
        for g in &mut self.conductance {
            *g *= per_cycle;
        }
        for _ in 0..cycles {
            self.gained.clear();
            self.gained.resize(count, 0.0);
            for (contact, &g) in contacts.iter().zip(&self.conductance) {
                if g == 0.0 {
                    continue;
                }
                let (i, j) = (contact.i as usize, contact.j as usize);
                let heat = g * (temperature[j] - temperature[i]);
                self.gained[i] += heat;
                self.gained[j] -= heat;
            }
            for ((t, &gained), &capacity) in
                temperature.iter_mut().zip(&self.gained).zip(&self.capacity)
            {
                *t += gained / capacity;
            }
        }
    }
}
