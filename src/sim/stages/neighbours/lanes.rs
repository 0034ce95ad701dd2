//! The per-particle values the pair loops read, one padded array each, and the factors folded
//! into them once per particle so that a pair costs only additions and multiplications.
//!
//! The pair law of `physics` has factors of each particle (its pressure, its material's tension
//! and viscosity) and factors of the pair (the kernel weights). The first kind is folded into the
//! lanes once per particle and substep ([`Folding`]):
//!
//! - pressure: the lane holds ½ Δt² N P, so that the pair's ½ Δt² N (P_i + P_j) a² of
//!   `physics::pressure_displacement` is (lane_i + lane_j) a²; likewise ½ Δt² N_near P_near;
//! - tension: the lane holds σs N m, so that i's pull toward j is lane_j a² r / m_i;
//! - viscosity: with mixed materials the lane holds ¼ Δt² σ, so that the pair's
//!   ½ Δt² (σ_i + σ_j) / 2 (the mean) is lane_i + lane_j; with one viscosity the pair's
//!   ½ Δt² σ is a constant.

use crate::sim::numerics::simd::Lanes;
use crate::sim::numerics::LIGHT_CHUNK;
use crate::sim::physics::{density_norm, near_density_norm};

/// Padding past the last particle in every `LaneData` field: one group of lanes.
pub const LANES: usize = crate::sim::numerics::simd::WIDTH;

/// Coordinate of the padding past the last particle: no candidate is ever near it.
const FAR: f32 = 1.0e9;

/// Per-particle values in sorted order, one array each, padded by `LANES` entries past the last
/// particle so that a group of lanes may read beyond the end of a range.
#[derive(Clone, Debug, Default)]
pub struct LaneData {
    /// Position, x.
    pub x: Vec<f32>,
    /// Position, y.
    pub y: Vec<f32>,
    /// Mass.
    pub mass: Vec<f32>,
    /// 1 / mass.
    pub inverse_mass: Vec<f32>,
    /// Velocity, x.
    pub velocity_x: Vec<f32>,
    /// Velocity, y.
    pub velocity_y: Vec<f32>,
    /// ½ Δt² N P: the particle's share of a pair's pressure push.
    pub pressure: Vec<f32>,
    /// ½ Δt² N_near P_near: its share of the near-pressure push.
    pub near_pressure: Vec<f32>,
    /// σs N m: its pull on particles of its own material.
    pub tension: Vec<f32>,
    /// Material index as a float, compared for equality.
    pub material: Vec<f32>,
    /// ¼ Δt² σ of the particle's material: a pair's linear viscosity is the sum of its two
    /// (filled only when materials differ in viscosity).
    pub linear_viscosity: Vec<f32>,
    /// ¼ Δt² β of the particle's material, likewise.
    pub quadratic_viscosity: Vec<f32>,
    /// The value the diffusion spreads along pairs (the temperature), filled only when some
    /// subsystem diffuses one (`diffusion`).
    pub diffused: Vec<f32>,
    /// The particle's share of its pairs' conductances, A (`diffusion`), likewise.
    pub diffusion_share: Vec<f32>,
    /// In a scene of one material, every particle's mass, 1 / mass, tension and material lanes
    /// are the same four values: these values, and how many particles from the first on the
    /// lanes already hold them (the grid stage's reorder then writes only the rest).
    pub same_constants: Option<([f32; 4], usize)>,
}

impl LaneData {
    /// Sizes the fields every scene uses for `count` particles (the viscosities are sized by
    /// their own fill) and sets their padding: far away, of mass 1, of no material, still.
    pub fn resize(&mut self, count: usize) {
        let padded = [
            (&mut self.x, FAR),
            (&mut self.y, FAR),
            (&mut self.mass, 1.0),
            (&mut self.inverse_mass, 1.0),
            (&mut self.velocity_x, 0.0),
            (&mut self.velocity_y, 0.0),
            (&mut self.pressure, 0.0),
            (&mut self.near_pressure, 0.0),
            (&mut self.tension, 0.0),
            (&mut self.material, -1.0),
        ];
        for (field, padding) in padded {
            field.resize(count + LANES, padding);
            field[count..].fill(padding);
        }
    }

    /// The particles a range may index: every field in `fields` (and x) holds at least this many
    /// plus `LANES`.
    pub(super) fn checked_count(&self, fields: &[&Vec<f32>]) -> usize {
        let count = self.x.len().saturating_sub(LANES);
        assert!(fields.iter().all(|field| field.len() >= count + LANES));
        count
    }
}

/// Sets `field` to `count` values from `value` followed by `LANES` copies of `padding`.
pub fn fill_padded(
    field: &mut Vec<f32>,
    count: usize,
    padding: f32,
    value: impl Fn(usize) -> f32 + Sync,
) {
    use rayon::prelude::*;
    field.resize(count + LANES, padding);
    field[..count]
        .par_iter_mut()
        .with_min_len(LIGHT_CHUNK)
        .enumerate()
        .for_each(|(i, slot)| *slot = value(i));
    field[count..].fill(padding);
}

/// The factors of one substep folded into the lanes (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Folding {
    /// The substep Δt.
    pub dt: f32,
    /// ½ Δt².
    pub half_dt2: f32,
    /// Density kernel normalisation N.
    pub norm: f32,
    /// Near-density kernel normalisation N_near.
    pub near_norm: f32,
    half_dt2_norm: f32,
    half_dt2_near_norm: f32,
    quarter_dt2: f32,
}

impl Folding {
    /// The folding for interaction radius `h` and substep `dt`.
    pub fn new(h: f32, dt: f32) -> Self {
        let (norm, near_norm) = (density_norm(h), near_density_norm(h));
        let half_dt2 = 0.5 * dt * dt;
        Self {
            dt,
            half_dt2,
            norm,
            near_norm,
            half_dt2_norm: half_dt2 * norm,
            half_dt2_near_norm: half_dt2 * near_norm,
            quarter_dt2: 0.25 * dt * dt,
        }
    }

    /// Pressure lane ½ Δt² N P.
    #[inline(always)]
    pub fn pressure(&self, pressure: f32) -> f32 {
        self.half_dt2_norm * pressure
    }

    /// Near-pressure lane ½ Δt² N_near P_near.
    #[inline(always)]
    pub fn near_pressure(&self, near_pressure: f32) -> f32 {
        self.half_dt2_near_norm * near_pressure
    }

    /// `pressure` for every lane.
    #[inline(always)]
    pub fn pressure_lanes<S: Lanes>(&self, pressure: S) -> S {
        S::splat(self.half_dt2_norm) * pressure
    }

    /// `near_pressure` for every lane.
    #[inline(always)]
    pub fn near_pressure_lanes<S: Lanes>(&self, near_pressure: S) -> S {
        S::splat(self.half_dt2_near_norm) * near_pressure
    }

    /// A material's tension per unit mass, σs N (the lane is this × m).
    pub fn tension(&self, surface_tension: f32) -> f32 {
        surface_tension * self.norm
    }

    /// Viscosity lane ¼ Δt² σ (or β) of mixed materials: a pair sums two.
    #[inline(always)]
    pub fn viscosity_half(&self, viscosity: f32) -> f32 {
        self.quarter_dt2 * viscosity
    }

    /// A pair's viscosity ½ Δt² σ (or β) when every material has the same.
    pub fn viscosity(&self, viscosity: f32) -> f32 {
        self.half_dt2 * viscosity
    }
}

/// Kernel weights a = 1 − r/h of a group's candidates at distances `r` (given −1/h), zero
/// beyond h and on the lanes outside `valid`.
#[inline(always)]
pub(super) fn weights<S: Lanes>(r: S, minus_inverse_h: S, valid: S) -> S {
    (r * minus_inverse_h + S::splat(1.0)).positive_part() & valid
}
