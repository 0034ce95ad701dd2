//! The neighbour sums of the density and relaxation stages (Clavet et al. 2005, algorithms 2
//! and 5, with Madams' 2D-normalised kernels), evaluated over the grid's candidate ranges.
//!
//! Particles are sorted by grid cell, so the candidates of a particle are a few contiguous index
//! ranges (`Grid::neighbour_rows`). Each range is read in groups of candidates, one per SIMD
//! lane (`simd::Lanes`: 4 lanes, or 8 with AVX), and every candidate is evaluated without
//! branches: a candidate farther than h (or past the end of its range) gets the weight a = 0 and
//! so contributes exactly zero. The order of the additions depends only on the particle data,
//! never on the thread count. No neighbour lists are stored: recomputing a distance costs less
//! than writing it out and reading it back.

use super::grid::CandidateRows;
use super::simd::Lanes;
use super::LIGHT_CHUNK;
use glam::Vec2;

/// Padding past the last particle in every `LaneData` field: the widest group of lanes.
pub const LANES: usize = 8;

/// Squared distance below which two particles count as being at the same spot.
const COINCIDENT2: f32 = 1.0e-12;
/// Distance below which two particles count as being at the same spot.
const COINCIDENT: f32 = 1.0e-6;

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
    /// Velocity, x.
    pub velocity_x: Vec<f32>,
    /// Velocity, y.
    pub velocity_y: Vec<f32>,
    /// ½ dt² N P: the particle's share of a pair's pressure push.
    pub pressure: Vec<f32>,
    /// ½ dt² N_near P_near: its share of the near-pressure push.
    pub near_pressure: Vec<f32>,
    /// σs N m: its pull on particles of its own material.
    pub tension: Vec<f32>,
    /// Material index as a float, compared for equality.
    pub material: Vec<f32>,
    /// ¼ dt² σ of the particle's material: a pair's linear viscosity is the sum of its two
    /// (filled only when materials differ in viscosity).
    pub linear_viscosity: Vec<f32>,
    /// ¼ dt² β of the particle's material, likewise.
    pub quadratic_viscosity: Vec<f32>,
}

impl LaneData {
    /// Sizes the fields every scene uses for `count` particles (the viscosities are sized by
    /// their own fill) and sets their padding: far away, of mass 1, of no material, still.
    pub fn resize(&mut self, count: usize) {
        let padded = [
            (&mut self.x, FAR),
            (&mut self.y, FAR),
            (&mut self.mass, 1.0),
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
}

/// Coordinate of the padding past the last particle: no candidate is ever near it.
const FAR: f32 = 1.0e9;

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

/// Kernel weights a = 1 − r/h of a group's candidates at distances `r`, 0 beyond h and for the
/// lanes past the end of the range (`left` candidates are left in it).
#[inline(always)]
fn weights<S: Lanes>(r: S, inverse_h: S, left: usize) -> S {
    (S::splat(1.0) - r * inverse_h).max(S::splat(0.0)) & S::first_lanes(left)
}

/// The particles a range may index: every field holds at least this many plus `LANES`.
fn checked_count(lanes: &LaneData, fields: &[&Vec<f32>]) -> usize {
    let count = lanes.x.len().saturating_sub(LANES);
    assert!(fields.iter().all(|field| field.len() >= count + LANES));
    count
}

/// Σ m_j a³ and Σ m_j a⁴ over every particle within h of particle `i`, itself excluded
/// (unnormalised density and near density).
#[inline(always)]
pub fn density_sums<S: Lanes>(
    rows: &CandidateRows,
    lanes: &LaneData,
    i: usize,
    h: f32,
) -> (f32, f32) {
    let (xi, yi) = (S::splat(lanes.x[i]), S::splat(lanes.y[i]));
    let inverse_h = S::splat(1.0 / h);
    let mut sum = S::splat(0.0);
    let mut near_sum = S::splat(0.0);
    let count = checked_count(lanes, &[&lanes.y, &lanes.mass]);
    for range in rows {
        let (mut base, end) = (range.start as usize, range.end as usize);
        assert!(end <= count);
        while base < end {
            // SAFETY: base < range.end <= count, and x, y and mass hold count + LANES values.
            let (x, y, mass) = unsafe {
                (
                    S::load(&lanes.x, base),
                    S::load(&lanes.y, base),
                    S::load(&lanes.mass, base),
                )
            };
            let (dx, dy) = (x - xi, y - yi);
            let r = (dx * dx + dy * dy).sqrt();
            let a = weights(r, inverse_h, end - base);
            let mass_a3 = mass * a * a * a;
            sum += mass_a3;
            near_sum += mass_a3 * a;
            base += S::WIDTH;
        }
    }
    // The particle itself was summed with a = 1: take its m_i back out.
    let own = lanes.mass[i];
    (sum.total() - own, near_sum.total() - own)
}

/// Constants of the relaxation shared by every pair.
#[derive(Clone, Copy, Debug)]
pub struct RelaxConstants {
    /// 1 / h.
    pub inverse_h: f32,
    /// ½ dt² σ (linear viscosity).
    pub linear_viscosity: f32,
    /// ½ dt² β (quadratic viscosity).
    pub quadratic_viscosity: f32,
}

/// The relaxation displacement of particle `i`: pressure and near pressure pushes, surface
/// tension toward particles of its own material, and the viscous impulses of approaching pairs
/// shared by mass (2 m_j / (m_i + m_j)). Particles at the same spot push apart along
/// `coincident(j)`, a direction chosen by the caller. `SAME_MASS` says every particle has the
/// same mass, so that the share is 1 (a division less per pair); `SAME_VISCOSITY` that every
/// material has `constants`' viscosity (two loads less per pair), otherwise the lanes'
/// viscosities must be filled.
#[inline(always)]
pub fn relaxation_displacement<S: Lanes, const SAME_MASS: bool, const SAME_VISCOSITY: bool>(
    rows: &CandidateRows,
    lanes: &LaneData,
    i: usize,
    constants: &RelaxConstants,
    coincident: impl Fn(usize) -> Vec2,
) -> Vec2 {
    let own = Own::<S>::new::<SAME_VISCOSITY>(lanes, i, constants);
    let mut sum_x = S::splat(0.0);
    let mut sum_y = S::splat(0.0);
    // Candidates at the particle's own spot (itself included), counted per lane.
    let mut at_same_spot = S::splat(0.0);
    let one = S::splat(1.0);
    let count = Group::<S>::checked_count::<SAME_VISCOSITY>(lanes);
    for range in rows {
        let (mut base, end) = (range.start as usize, range.end as usize);
        assert!(end <= count);
        while base < end {
            // SAFETY: base < end <= count.
            let group = unsafe { Group::<S>::load::<SAME_VISCOSITY>(lanes, base) };
            let (dx, dy) = (group.x - own.x, group.y - own.y);
            let r2 = dx * dx + dy * dy;
            let r = r2.sqrt();
            let a = weights(r, own.inverse_h, end - base);
            // Lanes past the range's end count too: a false alarm only costs the exact check
            // in `coincident_pushes`.
            at_same_spot += one & r2.less(own.coincident2);
            // The particle itself and coincident ones get a zero direction here.
            let inverse_r = (one / r) & r.greater(own.coincident);
            let push = own.pair_push::<SAME_MASS, SAME_VISCOSITY>(&group, a, r, dx, dy, inverse_r);
            sum_x += dx * push;
            sum_y += dy * push;
            base += S::WIDTH;
        }
    }
    let mut displacement = Vec2::new(sum_x.total(), sum_y.total());
    if at_same_spot.total() > 1.0 {
        displacement +=
            own.coincident_pushes::<SAME_MASS, SAME_VISCOSITY>(rows, lanes, i, coincident);
    }
    displacement
}

/// A group of consecutive candidates' values, one per lane.
struct Group<S> {
    x: S,
    y: S,
    mass: S,
    velocity_x: S,
    velocity_y: S,
    pressure: S,
    near_pressure: S,
    tension: S,
    material: S,
    linear_viscosity: S,
    quadratic_viscosity: S,
}

impl<S: Lanes> Group<S> {
    /// The particles a range may index (see `load`).
    fn checked_count<const SAME_VISCOSITY: bool>(lanes: &LaneData) -> usize {
        let fields = [
            &lanes.y,
            &lanes.mass,
            &lanes.velocity_x,
            &lanes.velocity_y,
            &lanes.pressure,
            &lanes.near_pressure,
            &lanes.tension,
            &lanes.material,
            &lanes.linear_viscosity,
            &lanes.quadratic_viscosity,
        ];
        // The viscosities are only read (and filled) for mixed materials.
        let used = if SAME_VISCOSITY { 8 } else { fields.len() };
        checked_count(lanes, &fields[..used])
    }

    /// The values of the candidates from `base` on.
    ///
    /// # Safety
    /// `base < Group::checked_count::<SAME_VISCOSITY>(lanes)`.
    #[inline(always)]
    unsafe fn load<const SAME_VISCOSITY: bool>(lanes: &LaneData, base: usize) -> Self {
        let zero = S::splat(0.0);
        // SAFETY: every field holds checked_count + LANES values, and LANES ≥ S::WIDTH.
        unsafe {
            Self {
                x: S::load(&lanes.x, base),
                y: S::load(&lanes.y, base),
                mass: S::load(&lanes.mass, base),
                velocity_x: S::load(&lanes.velocity_x, base),
                velocity_y: S::load(&lanes.velocity_y, base),
                pressure: S::load(&lanes.pressure, base),
                near_pressure: S::load(&lanes.near_pressure, base),
                tension: S::load(&lanes.tension, base),
                material: S::load(&lanes.material, base),
                linear_viscosity: if SAME_VISCOSITY {
                    zero
                } else {
                    S::load(&lanes.linear_viscosity, base)
                },
                quadratic_viscosity: if SAME_VISCOSITY {
                    zero
                } else {
                    S::load(&lanes.quadratic_viscosity, base)
                },
            }
        }
    }
}

/// The relaxing particle's own values, one copy per lane.
struct Own<S> {
    x: S,
    y: S,
    mass: S,
    inverse_mass: S,
    velocity_x: S,
    velocity_y: S,
    pressure: S,
    near_pressure: S,
    material: S,
    linear_viscosity: S,
    quadratic_viscosity: S,
    inverse_h: S,
    coincident: S,
    coincident2: S,
}

impl<S: Lanes> Own<S> {
    #[inline(always)]
    fn new<const SAME_VISCOSITY: bool>(
        lanes: &LaneData,
        i: usize,
        constants: &RelaxConstants,
    ) -> Self {
        // One viscosity: the pair's is the constant; else the sum of the two halves.
        let (linear_viscosity, quadratic_viscosity) = if SAME_VISCOSITY {
            (constants.linear_viscosity, constants.quadratic_viscosity)
        } else {
            (lanes.linear_viscosity[i], lanes.quadratic_viscosity[i])
        };
        Self {
            x: S::splat(lanes.x[i]),
            y: S::splat(lanes.y[i]),
            mass: S::splat(lanes.mass[i]),
            inverse_mass: S::splat(1.0 / lanes.mass[i]),
            velocity_x: S::splat(lanes.velocity_x[i]),
            velocity_y: S::splat(lanes.velocity_y[i]),
            pressure: S::splat(lanes.pressure[i]),
            near_pressure: S::splat(lanes.near_pressure[i]),
            material: S::splat(lanes.material[i]),
            linear_viscosity: S::splat(linear_viscosity),
            quadratic_viscosity: S::splat(quadratic_viscosity),
            inverse_h: S::splat(constants.inverse_h),
            coincident: S::splat(COINCIDENT),
            coincident2: S::splat(COINCIDENT2),
        }
    }

    /// Signed push of each candidate per unit of its offset (dx, dy) from this particle
    /// (positive pulls this particle toward it), for weights `a`, distances `r` and their
    /// inverses (0 where the direction is unknown).
    #[inline(always)]
    fn pair_push<const SAME_MASS: bool, const SAME_VISCOSITY: bool>(
        &self,
        group: &Group<S>,
        a: S,
        r: S,
        dx: S,
        dy: S,
        inverse_r: S,
    ) -> S {
        let a2 = a * a;
        // Pressure and near pressure (Clavet et al. 2005, algorithm 2), split by mass.
        let pressure = ((self.near_pressure + group.near_pressure) * a
            + (self.pressure + group.pressure))
            * a2;
        // Surface tension between particles of one material (Becker & Teschner 2007).
        let same_material = group.material.equal(self.material);
        let tension = (group.tension & same_material) * a2 * r;
        // Viscosity impulse of approaching pairs (Clavet et al. algorithm 5), shared by mass.
        let closing = ((self.velocity_x - group.velocity_x) * dx
            + (self.velocity_y - group.velocity_y) * dy)
            * inverse_r;
        let approach = closing.max(S::splat(0.0));
        let (linear, quadratic) = if SAME_VISCOSITY {
            (self.linear_viscosity, self.quadratic_viscosity)
        } else {
            (
                self.linear_viscosity + group.linear_viscosity,
                self.quadratic_viscosity + group.quadratic_viscosity,
            )
        };
        let mut viscous = a * r * (linear + quadratic * approach) * approach;
        if !SAME_MASS {
            viscous = viscous * ((group.mass + group.mass) / (self.mass + group.mass));
        }
        ((tension - pressure) * self.inverse_mass - viscous) * inverse_r
    }

    /// Pushes between particle `i` and the other particles at its very spot, along the
    /// directions `coincident` gives (the lane loop gave them none).
    #[cold]
    fn coincident_pushes<const SAME_MASS: bool, const SAME_VISCOSITY: bool>(
        &self,
        rows: &CandidateRows,
        lanes: &LaneData,
        i: usize,
        coincident: impl Fn(usize) -> Vec2,
    ) -> Vec2 {
        let mut total = Vec2::ZERO;
        let (xi, yi) = (lanes.x[i], lanes.y[i]);
        let count = Group::<S>::checked_count::<SAME_VISCOSITY>(lanes);
        for range in rows {
            let (start, end) = (range.start as usize, range.end as usize);
            assert!(end <= count);
            for j in start..end {
                let (dx, dy) = (lanes.x[j] - xi, lanes.y[j] - yi);
                let r2 = dx * dx + dy * dy;
                if j == i || r2 >= COINCIDENT2 {
                    continue;
                }
                // Evaluate the pair alone: lane 0 holds j, the others lie past the limit.
                // SAFETY: j < end <= count.
                let group = unsafe { Group::<S>::load::<SAME_VISCOSITY>(lanes, j) };
                let r = S::splat(r2.sqrt());
                let a = weights(r, self.inverse_h, 1);
                let direction = coincident(j);
                let (ux, uy) = (S::splat(direction.x), S::splat(direction.y));
                let push = self
                    .pair_push::<SAME_MASS, SAME_VISCOSITY>(&group, a, r, ux, uy, S::splat(1.0))
                    .first();
                total += direction * push;
            }
        }
        total
    }
}

/// Which shortcuts the relaxation may take: every material of the scene has the same mass, or
/// the same viscosity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sameness {
    /// Every particle has the same mass.
    pub mass: bool,
    /// Every material has the scene's viscosity.
    pub viscosity: bool,
}

/// `relaxation_displacement` with the shortcuts `same` allows.
#[inline(always)]
fn relaxation_for<S: Lanes>(
    rows: &CandidateRows,
    lanes: &LaneData,
    i: usize,
    constants: &RelaxConstants,
    same: Sameness,
    coincident: &dyn Fn(usize) -> Vec2,
) -> Vec2 {
    let args = (rows, lanes, i, constants, coincident);
    match (same.mass, same.viscosity) {
        (true, true) => {
            relaxation_displacement::<S, true, true>(args.0, args.1, args.2, args.3, args.4)
        }
        (true, false) => {
            relaxation_displacement::<S, true, false>(args.0, args.1, args.2, args.3, args.4)
        }
        (false, true) => {
            relaxation_displacement::<S, false, true>(args.0, args.1, args.2, args.3, args.4)
        }
        (false, false) => {
            relaxation_displacement::<S, false, false>(args.0, args.1, args.2, args.3, args.4)
        }
    }
}

/// The neighbour sums for one particle, compiled for one lane width.
pub trait Kernels: Sync {
    /// See `density_sums`.
    fn density_sums(&self, rows: &CandidateRows, lanes: &LaneData, i: usize, h: f32) -> (f32, f32);
    /// See `relaxation_displacement`; `same` picks its shortcuts.
    fn relaxation_displacement(
        &self,
        rows: &CandidateRows,
        lanes: &LaneData,
        i: usize,
        constants: &RelaxConstants,
        same: Sameness,
        coincident: &dyn Fn(usize) -> Vec2,
    ) -> Vec2;
}

/// The widest kernels this CPU runs: 8 lanes with AVX, else 4.
pub fn kernels() -> &'static dyn Kernels {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        return &AvxKernels;
    }
    &FourLanes
}

/// Four lanes (`wide::f32x4`).
struct FourLanes;

impl Kernels for FourLanes {
    fn density_sums(&self, rows: &CandidateRows, lanes: &LaneData, i: usize, h: f32) -> (f32, f32) {
        density_sums::<wide::f32x4>(rows, lanes, i, h)
    }

    fn relaxation_displacement(
        &self,
        rows: &CandidateRows,
        lanes: &LaneData,
        i: usize,
        constants: &RelaxConstants,
        same: Sameness,
        coincident: &dyn Fn(usize) -> Vec2,
    ) -> Vec2 {
        relaxation_for::<wide::f32x4>(rows, lanes, i, constants, same, coincident)
    }
}

/// Eight lanes with AVX; only handed out by `kernels()` after checking the CPU has it.
#[cfg(target_arch = "x86_64")]
struct AvxKernels;

#[cfg(target_arch = "x86_64")]
impl AvxKernels {
    #[target_feature(enable = "avx")]
    fn density_sums_avx(rows: &CandidateRows, lanes: &LaneData, i: usize, h: f32) -> (f32, f32) {
        density_sums::<super::simd::Avx>(rows, lanes, i, h)
    }

    #[target_feature(enable = "avx")]
    fn relaxation_avx(
        rows: &CandidateRows,
        lanes: &LaneData,
        i: usize,
        constants: &RelaxConstants,
        same: Sameness,
        coincident: &dyn Fn(usize) -> Vec2,
    ) -> Vec2 {
        relaxation_for::<super::simd::Avx>(rows, lanes, i, constants, same, coincident)
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for AvxKernels {
    fn density_sums(&self, rows: &CandidateRows, lanes: &LaneData, i: usize, h: f32) -> (f32, f32) {
        // SAFETY: `kernels()` hands out `AvxKernels` only when the CPU has AVX.
        unsafe { Self::density_sums_avx(rows, lanes, i, h) }
    }

    fn relaxation_displacement(
        &self,
        rows: &CandidateRows,
        lanes: &LaneData,
        i: usize,
        constants: &RelaxConstants,
        same: Sameness,
        coincident: &dyn Fn(usize) -> Vec2,
    ) -> Vec2 {
        // SAFETY: as above.
        unsafe { Self::relaxation_avx(rows, lanes, i, constants, same, coincident) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::grid::Grid;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    /// Random particles (sorted by a fresh grid) with random per-particle values in `LaneData`.
    fn scene(count: usize, size: f32, h: f32, seed: u64) -> (Grid, LaneData) {
        let mut rng = Pcg32::seed_from_u64(seed);
        let unsorted: Vec<Vec2> = (0..count)
            .map(|_| Vec2::new(rng.random_range(0.0..size), rng.random_range(0.0..size)))
            .collect();
        let mut grid = Grid::default();
        grid.build(&unsorted, h);
        let position: Vec<Vec2> = grid.order().iter().map(|&k| unsorted[k as usize]).collect();
        let mut lanes = LaneData::default();
        let mut random = |low: f32, high: f32| -> Vec<f32> {
            (0..count).map(|_| rng.random_range(low..high)).collect()
        };
        let (mass, velocity_x, velocity_y) =
            (random(0.5, 2.0), random(-3.0, 3.0), random(-3.0, 3.0));
        let (pressure, near_pressure, tension) =
            (random(-1e-4, 1e-4), random(0.0, 1e-4), random(0.0, 1e-3));
        let material: Vec<f32> = random(0.0, 2.0).iter().map(|m| m.floor()).collect();
        let (linear, quadratic) = (random(0.0, 1e-4), random(0.0, 1e-4));
        let fields: [(&mut Vec<f32>, Vec<f32>); 11] = [
            (&mut lanes.x, position.iter().map(|p| p.x).collect()),
            (&mut lanes.y, position.iter().map(|p| p.y).collect()),
            (&mut lanes.mass, mass),
            (&mut lanes.velocity_x, velocity_x),
            (&mut lanes.velocity_y, velocity_y),
            (&mut lanes.pressure, pressure),
            (&mut lanes.near_pressure, near_pressure),
            (&mut lanes.tension, tension),
            (&mut lanes.material, material),
            (&mut lanes.linear_viscosity, linear),
            (&mut lanes.quadratic_viscosity, quadratic),
        ];
        for (field, values) in fields {
            fill_padded(field, count, 0.0, |i| values[i]);
        }
        (grid, lanes)
    }

    #[test]
    fn density_sums_match_a_brute_force_sum() {
        let h = 0.3;
        for (count, size, seed) in [(1, 1.0, 1), (300, 1.0, 2), (2000, 4.0, 3)] {
            let (grid, lanes) = scene(count, size, h, seed);
            for i in 0..count {
                let rows = grid.neighbour_rows(Vec2::new(lanes.x[i], lanes.y[i]));
                let (mut sum, mut near_sum) = (0.0_f64, 0.0_f64);
                for j in (0..count).filter(|&j| j != i) {
                    let r =
                        ((lanes.x[j] - lanes.x[i]) as f64).hypot((lanes.y[j] - lanes.y[i]) as f64);
                    let a = (1.0 - r / h as f64).max(0.0);
                    sum += lanes.mass[j] as f64 * a.powi(3);
                    near_sum += lanes.mass[j] as f64 * a.powi(4);
                }
                for (width, (found, near_found)) in [
                    (4, FourLanes.density_sums(&rows, &lanes, i, h)),
                    (0, kernels().density_sums(&rows, &lanes, i, h)),
                ] {
                    assert!(
                        (found as f64 - sum).abs() < 1e-4 * (1.0 + sum)
                            && (near_found as f64 - near_sum).abs() < 1e-4 * (1.0 + near_sum),
                        "{width} lanes, particle {i} of {count}: {found} vs {sum}, {near_found} vs {near_sum}"
                    );
                }
            }
        }
    }

    #[test]
    fn every_lane_width_relaxes_alike() {
        let h = 0.3;
        let constants = RelaxConstants {
            inverse_h: 1.0 / h,
            linear_viscosity: 2e-5,
            quadratic_viscosity: 3e-5,
        };
        let (grid, lanes) = scene(1500, 3.0, h, 9);
        let coincident = |_| Vec2::X;
        let mut largest = 0.0_f32;
        for i in 0..1500 {
            let rows = grid.neighbour_rows(Vec2::new(lanes.x[i], lanes.y[i]));
            for (mass, viscosity) in [(true, true), (true, false), (false, true), (false, false)] {
                let same = Sameness { mass, viscosity };
                let four = FourLanes.relaxation_displacement(
                    &rows,
                    &lanes,
                    i,
                    &constants,
                    same,
                    &coincident,
                );
                let best = kernels().relaxation_displacement(
                    &rows,
                    &lanes,
                    i,
                    &constants,
                    same,
                    &coincident,
                );
                largest = largest.max(four.length());
                assert!(
                    (four - best).length() <= 1e-5 * (1e-3 + four.length()),
                    "{i}: {four} vs {best}"
                );
            }
        }
        assert!(largest > 0.0, "the scene relaxes something");
    }
}
