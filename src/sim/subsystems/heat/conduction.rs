//! The conduction stage of `sim::subsystems::heat`: one substep of the SPH heat equation along the
//! pairs, fused into the density stage's pair loop (`Subsystem::diffusion`,
//! `neighbours::diffusion`).

use crate::sim::numerics::portable::{self, Ordered};
use crate::sim::numerics::LIGHT_CHUNK;
use crate::sim::particles::Particles;
use crate::sim::physics::{conduction_norm, conduction_scale, density_norm, heat_share};
use crate::sim::subsystems::Diffusion;
use rayon::prelude::*;

/// Most cycles one substep's exchange is cut into.
pub const MAX_CYCLES: u32 = 16;

/// Most of its difference from its neighbours a particle's temperature moves in one cycle: the
/// sum over its pairs of G Δt / (m c), kept at or below this, makes every new temperature a
/// mean of the old ones of the particle and its neighbours with positive weights, so none
/// overshoots them (at 1 two lone particles would swap temperatures; below it the fastest
/// pattern, neighbours alternately hot and cold, still fades).
const MOST_PER_CYCLE: f32 = 0.9;

/// How much further than `MOST_PER_CYCLE` a cycle's exchange may reach before the substep is
/// cut into more cycles: up to this it is slowed instead (by at most a sixth, in the substeps
/// where a few particles are pressed closer than a resting liquid's), which costs no pass.
const SLOWED: f32 = 1.2;

/// The particles counted in the liquid's mean volume: those at least this dense, as a share of
/// the resting liquid's number density.
const INSIDE: f32 = 0.8;

/// How a material holds and passes heat.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Thermal {
    /// Thermal diffusivity α, m²/s.
    pub(crate) diffusivity: f32,
    /// Heat capacity per unit mass, relative to water.
    pub(crate) heat_capacity: f32,
    /// The mass of its particles (which cannot change at run time).
    pub(crate) mass: f32,
}

impl Thermal {
    /// The share of a particle of this material, A = m c α (`physics::heat_share`).
    fn share(&self) -> f32 {
        heat_share(self.mass, self.heat_capacity, self.diffusivity)
    }
}

/// The conduction stage's constants and scratch, reused every substep.
#[derive(Clone, Debug, Default)]
pub(super) struct Conduction {
    /// The resting liquid's V c and number density (`physics::conduction_scale`), and the
    /// interaction radius and rest density they were found for.
    scale: Option<((f32, f32), (f32, f32))>,
    /// Each material's share.
    shares: Vec<f32>,
    /// Each material's rate: what a particle's sum from the pair loops is multiplied by, with
    /// the substep's factor, to give its change of temperature.
    rates: Vec<f32>,
    /// Each material's reach: Σ_j G_ij Δt / (m c)_i is at most this times the particle's
    /// Σ a³ and the substep's factor.
    reaches: Vec<f32>,
    /// The temperatures between cycles.
    temperature: Vec<f32>,
}

impl Conduction {
    /// Sets each particle's lanes of the diffusion from its temperature and its material's
    /// share (`particles` sorted as the pair loops see them). With one material every particle
    /// has one share (particles of a material have its mass).
    pub(super) fn set_lanes(
        &mut self,
        materials: &[Thermal],
        particles: &Particles,
        diffusion: &mut Diffusion,
    ) {
        self.shares.clear();
        self.shares.extend(materials.iter().map(Thermal::share));
        let (shares, p) = (&self.shares, particles);
        let (material, temperature) = (&p.material, &p.temperature);
        let one_share = materials.len() == 1;
        diffusion.set(p.len(), one_share, |i| {
            [temperature[i], shares[material[i] as usize]]
        });
    }

    /// Takes the exchange the density stage's pair loop found into the particles'
    /// temperatures: at once when no particle would move more than `MOST_PER_CYCLE` of its
    /// difference from its neighbours (up to `SLOWED` times that, the substep's exchange is
    /// slowed to it), else in cycles of the exchange alone, a share of the substep each (at
    /// most `MAX_CYCLES`; past that every pair is slowed alike, so the heat is still conserved
    /// but spreads more slowly than its diffusivity asks).
    ///
    /// How far a particle moves toward its neighbours is Σ_j G_ij Δt / (m c)_i, G_ij = V c F
    /// H(A_i, A_j) (`physics::conductance`). F is the density kernel times a constant, so
    /// Σ_j F_ij is known from the particle's density (its sum Σ a³, the walls' share too: an
    /// upper bound near them), and H(A_i, A_j) is at most H(A_i, A_max): no pass over the pairs
    /// is spent on it.
    pub(super) fn take(
        &mut self,
        materials: &[Thermal],
        particles: &mut Particles,
        diffusion: &mut Diffusion,
    ) {
        let h = diffusion.h;
        let found_for = (h, diffusion.rest_density);
        let (scale, rest_number_density) = match self.scale {
            Some((found, scale)) if found == found_for => scale,
            _ => {
                let scale = conduction_scale(h, diffusion.rest_density);
                self.scale = Some((found_for, scale));
                scale
            }
        };
        let most_share = self.shares.iter().copied().fold(0.0, portable::max);
        let one_share = materials.len() == 1;
        // Per material: its share over m c, what its particle's reach is per unit of Σ a³ over
        // the share, and its m.
        self.rates.clear();
        self.reaches.clear();
        for (thermal, &share) in materials.iter().zip(&self.shares) {
            let shared = if one_share { share } else { 1.0 };
            let rate = shared / (thermal.mass * thermal.heat_capacity);
            let harmonic = if one_share || share + most_share <= 0.0 {
                1.0
            } else {
                2.0 * share * most_share / (share + most_share)
            };
            self.rates.push(rate);
            self.reaches.push(rate * harmonic);
        }
        let norm = density_norm(h);
        let (rates, reaches) = (&self.rates, &self.reaches);
        let (material, mass, density) = (&particles.material, &particles.mass, &particles.density);
        // Each particle's number density n = N + ρ / m (its density's Σ a³, the walls' share
        // and itself); in chunks of a fixed size, so that the sums are the same at any thread
        // count: the largest reach per unit of the factor below, and n summed over the
        // particles of the liquid's inside (at least `INSIDE` of the resting n: the surface's
        // would count as looser).
        let inside = INSIDE * rest_number_density;
        let chunks: Vec<(f32, f64, u32)> = (material, mass, density)
            .into_par_iter()
            .chunks(LIGHT_CHUNK)
            .map(|chunk| {
                let (mut most, mut sum, mut count) = (0.0_f32, 0.0_f64, 0);
                for (&m, &mass, &density) in chunk {
                    let neighbours = density / (norm * mass);
                    most = most.at_least(reaches[m as usize] * neighbours);
                    let number_density = norm + density / mass;
                    if number_density >= inside {
                        sum += f64::from(number_density);
                        count += 1;
                    }
                }
                (most, sum, count)
            })
            .collect();
        let (mut most, mut sum, mut count) = (0.0_f32, 0.0_f64, 0_u32);
        for (chunk_most, chunk_sum, chunk_count) in chunks {
            most = most.at_least(chunk_most);
            sum += chunk_sum;
            count += chunk_count;
        }
        // The liquid's mean volume over the resting one's.
        let looser = if count > 0 {
            (f64::from(rest_number_density) * f64::from(count) / sum) as f32
        } else {
            1.0
        };
        // The pair loops' sums times this and the material's rate are the change of
        // temperature in the substep.
        let factor = diffusion.dt * scale * looser.clamp(0.5, 2.0) * conduction_norm(h);
        let most = most * factor;
        let cycles = ((most / (SLOWED * MOST_PER_CYCLE)).ceil() as u32).clamp(1, MAX_CYCLES);
        let per_cycle = (1.0 / cycles as f32).at_most(MOST_PER_CYCLE / most);
        let apply = |temperature: &mut [f32], gained: &[f32]| {
            (temperature, gained, material)
                .into_par_iter()
                .with_min_len(LIGHT_CHUNK)
                .for_each(|(t, &gained, &m)| *t += per_cycle * factor * rates[m as usize] * gained);
        };
        let gained = diffusion.gained();
        if cycles == 1 {
            apply(&mut particles.temperature, gained);
            return;
        }
        self.temperature.clone_from(&particles.temperature);
        apply(&mut self.temperature, gained);
        for _ in 1..cycles {
            diffusion.again(&self.temperature);
            apply(&mut self.temperature, diffusion.gained());
        }
        particles.temperature.clone_from(&self.temperature);
    }
}
