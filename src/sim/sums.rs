//! The neighbour sums of the density and relaxation stages (Clavet et al. 2005, algorithms 2
//! and 5, with Madams' 2D-normalised kernels), evaluated over the grid's candidate ranges.
//!
//! Particles are sorted by grid cell, so the candidates of a particle are a few contiguous index
//! ranges (`Grid::neighbour_rows`). Each range is read in groups of `LANES` candidates with one
//! accumulator per lane, and every candidate is evaluated without branches: a candidate farther
//! than h (or past the end of its range) gets the weight a = 0 and so contributes exactly zero.
//! That fixed shape lets the compiler use SIMD instructions, and the order of the additions
//! depends only on the particle data, never on the thread count. No neighbour lists are stored:
//! recomputing a distance costs less than writing it out and reading it back.

use super::grid::Grid;
use glam::Vec2;
use wide::f32x4;

/// Candidates evaluated together: one SIMD register of f32 on every x86-64 and ARM64 CPU.
pub const LANES: usize = 4;

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
        .with_min_len(4096)
        .enumerate()
        .for_each(|(i, slot)| *slot = value(i));
    field[count..].fill(padding);
}

/// Masks keeping the first k lanes of a group, for k = 0 to `LANES` candidates left in a range.
const KEEP_FIRST: [f32x4; LANES + 1] = {
    let on = f32::from_bits(u32::MAX);
    [
        f32x4::new([0.0, 0.0, 0.0, 0.0]),
        f32x4::new([on, 0.0, 0.0, 0.0]),
        f32x4::new([on, on, 0.0, 0.0]),
        f32x4::new([on, on, on, 0.0]),
        f32x4::new([on, on, on, on]),
    ]
};

/// Kernel weights a = 1 − r/h of a group's candidates at distances `r`, 0 beyond h and for the
/// lanes past the end of the range (`left` candidates are left in it).
#[inline(always)]
fn weights(r: f32x4, inverse_h: f32x4, left: usize) -> f32x4 {
    (f32x4::ONE - r * inverse_h).fast_max(f32x4::ZERO) & KEEP_FIRST[left.min(LANES)]
}

/// Loads `LANES` values of `field` from `base` on.
///
/// # Safety
/// `base + LANES <= field.len()`: the callers read groups that start inside a range of at
/// most `LaneData::count()` particles, and every field is `LANES` longer than that.
#[inline(always)]
unsafe fn load(field: &[f32], base: usize) -> f32x4 {
    debug_assert!(base + LANES <= field.len());
    // SAFETY: in bounds by the caller's guarantee; `read_unaligned` needs no alignment.
    f32x4::new(unsafe {
        field
            .as_ptr()
            .add(base)
            .cast::<[f32; LANES]>()
            .read_unaligned()
    })
}

/// The particles a range may index: every field holds at least this many plus `LANES`.
fn checked_count(lanes: &LaneData, fields: &[&Vec<f32>]) -> usize {
    let count = lanes.x.len().saturating_sub(LANES);
    assert!(fields.iter().all(|field| field.len() >= count + LANES));
    count
}

/// Σ m_j a³ and Σ m_j a⁴ over every particle within h of particle `i`, itself excluded
/// (unnormalised density and near density).
#[inline]
pub fn density_sums(grid: &Grid, lanes: &LaneData, i: usize, h: f32) -> (f32, f32) {
    let (xi, yi) = (f32x4::splat(lanes.x[i]), f32x4::splat(lanes.y[i]));
    let position = Vec2::new(lanes.x[i], lanes.y[i]);
    let inverse_h = f32x4::splat(1.0 / h);
    let mut sum = f32x4::ZERO;
    let mut near_sum = f32x4::ZERO;
    let count = checked_count(lanes, &[&lanes.y, &lanes.mass]);
    for range in grid.neighbour_rows(position) {
        assert!(range.end <= count);
        let mut base = range.start;
        while base < range.end {
            // SAFETY: base < range.end <= count, and x, y and mass hold count + LANES values.
            let (x, y, mass) = unsafe {
                (
                    load(&lanes.x, base),
                    load(&lanes.y, base),
                    load(&lanes.mass, base),
                )
            };
            let (dx, dy) = (x - xi, y - yi);
            let r = (dx * dx + dy * dy).sqrt();
            let a = weights(r, inverse_h, range.end - base);
            let mass_a3 = mass * a * a * a;
            sum += mass_a3;
            near_sum += mass_a3 * a;
            base += LANES;
        }
    }
    // The particle itself was summed with a = 1: take its m_i back out.
    let own = lanes.mass[i];
    (sum.reduce_add() - own, near_sum.reduce_add() - own)
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
/// `coincident(j)`, a direction chosen by the caller. `UNIFORM_MASS` says every particle has
/// the same mass, so that the share is 1 (a division less per pair).
#[inline]
pub fn relaxation_displacement<const UNIFORM_MASS: bool>(
    grid: &Grid,
    lanes: &LaneData,
    i: usize,
    constants: &RelaxConstants,
    coincident: impl Fn(usize) -> Vec2,
) -> Vec2 {
    let own = Own::new(lanes, i, constants);
    let mut sum_x = f32x4::ZERO;
    let mut sum_y = f32x4::ZERO;
    // Candidates at the particle's own spot, itself included, counted per lane.
    let mut at_same_spot = f32x4::ZERO;
    let count = Group::checked_count(lanes);
    let position = Vec2::new(lanes.x[i], lanes.y[i]);
    for range in grid.neighbour_rows(position) {
        assert!(range.end <= count);
        let mut base = range.start;
        while base < range.end {
            // SAFETY: base < range.end <= count.
            let group = unsafe { Group::load(lanes, base) };
            let (dx, dy) = (group.x - own.x, group.y - own.y);
            let r2 = dx * dx + dy * dy;
            let r = r2.sqrt();
            let a = weights(r, own.inverse_h, range.end - base);
            at_same_spot += f32x4::ONE & r2.simd_lt(own.coincident2) & a.simd_gt(f32x4::ZERO);
            // The particle itself and coincident ones get a zero direction here.
            let inverse_r = (f32x4::ONE / r) & r.simd_gt(own.coincident);
            let push = own.pair_push::<UNIFORM_MASS>(&group, a, r, dx, dy, inverse_r);
            sum_x += dx * push;
            sum_y += dy * push;
            base += LANES;
        }
    }
    let mut displacement = Vec2::new(sum_x.reduce_add(), sum_y.reduce_add());
    if at_same_spot.reduce_add() > 1.0 {
        displacement += own.coincident_pushes::<UNIFORM_MASS>(grid, lanes, i, coincident);
    }
    displacement
}

/// A group of `LANES` consecutive candidates' values.
struct Group {
    x: f32x4,
    y: f32x4,
    mass: f32x4,
    velocity_x: f32x4,
    velocity_y: f32x4,
    pressure: f32x4,
    near_pressure: f32x4,
    tension: f32x4,
    material: f32x4,
}

impl Group {
    /// The particles a range may index (see `load`).
    fn checked_count(lanes: &LaneData) -> usize {
        checked_count(
            lanes,
            &[
                &lanes.y,
                &lanes.mass,
                &lanes.velocity_x,
                &lanes.velocity_y,
                &lanes.pressure,
                &lanes.near_pressure,
                &lanes.tension,
                &lanes.material,
            ],
        )
    }

    /// The values of the candidates `base..base + LANES`.
    ///
    /// # Safety
    /// `base < Group::checked_count(lanes)`.
    #[inline(always)]
    unsafe fn load(lanes: &LaneData, base: usize) -> Self {
        // SAFETY: every field holds checked_count + LANES values.
        unsafe {
            Self {
                x: load(&lanes.x, base),
                y: load(&lanes.y, base),
                mass: load(&lanes.mass, base),
                velocity_x: load(&lanes.velocity_x, base),
                velocity_y: load(&lanes.velocity_y, base),
                pressure: load(&lanes.pressure, base),
                near_pressure: load(&lanes.near_pressure, base),
                tension: load(&lanes.tension, base),
                material: load(&lanes.material, base),
            }
        }
    }
}

/// The relaxing particle's own values, one copy per lane.
struct Own {
    x: f32x4,
    y: f32x4,
    mass: f32x4,
    inverse_mass: f32x4,
    velocity_x: f32x4,
    velocity_y: f32x4,
    pressure: f32x4,
    near_pressure: f32x4,
    material: f32x4,
    linear_viscosity: f32x4,
    quadratic_viscosity: f32x4,
    inverse_h: f32x4,
    coincident: f32x4,
    coincident2: f32x4,
}

impl Own {
    #[inline(always)]
    fn new(lanes: &LaneData, i: usize, constants: &RelaxConstants) -> Self {
        Self {
            x: f32x4::splat(lanes.x[i]),
            y: f32x4::splat(lanes.y[i]),
            mass: f32x4::splat(lanes.mass[i]),
            inverse_mass: f32x4::splat(1.0 / lanes.mass[i]),
            velocity_x: f32x4::splat(lanes.velocity_x[i]),
            velocity_y: f32x4::splat(lanes.velocity_y[i]),
            pressure: f32x4::splat(lanes.pressure[i]),
            near_pressure: f32x4::splat(lanes.near_pressure[i]),
            material: f32x4::splat(lanes.material[i]),
            linear_viscosity: f32x4::splat(constants.linear_viscosity),
            quadratic_viscosity: f32x4::splat(constants.quadratic_viscosity),
            inverse_h: f32x4::splat(constants.inverse_h),
            coincident: f32x4::splat(COINCIDENT),
            coincident2: f32x4::splat(COINCIDENT2),
        }
    }

    /// Signed push of each candidate per unit of its offset (dx, dy) from this particle
    /// (positive pulls this particle toward it), for weights `a`, distances `r` and their
    /// inverses (0 where the direction is unknown).
    #[inline(always)]
    fn pair_push<const UNIFORM_MASS: bool>(
        &self,
        group: &Group,
        a: f32x4,
        r: f32x4,
        dx: f32x4,
        dy: f32x4,
        inverse_r: f32x4,
    ) -> f32x4 {
        let a2 = a * a;
        // Pressure and near pressure (Clavet et al. 2005, algorithm 2), split by mass.
        let pressure = ((self.near_pressure + group.near_pressure) * a
            + (self.pressure + group.pressure))
            * a2;
        // Surface tension between particles of one material (Becker & Teschner 2007).
        let same_material = group.material.simd_eq(self.material);
        let tension = (group.tension & same_material) * a2 * r;
        // Viscosity impulse of approaching pairs (Clavet et al. algorithm 5), shared by mass.
        let closing = ((self.velocity_x - group.velocity_x) * dx
            + (self.velocity_y - group.velocity_y) * dy)
            * inverse_r;
        let approach = closing.fast_max(f32x4::ZERO);
        let mut viscous =
            a * r * (self.linear_viscosity + self.quadratic_viscosity * approach) * approach;
        if !UNIFORM_MASS {
            viscous *= (group.mass + group.mass) / (self.mass + group.mass);
        }
        ((tension - pressure) * self.inverse_mass - viscous) * inverse_r
    }

    /// Pushes between particle `i` and the other particles at its very spot, along the
    /// directions `coincident` gives (the lane loop gave them none).
    #[cold]
    fn coincident_pushes<const UNIFORM_MASS: bool>(
        &self,
        grid: &Grid,
        lanes: &LaneData,
        i: usize,
        coincident: impl Fn(usize) -> Vec2,
    ) -> Vec2 {
        let mut total = Vec2::ZERO;
        let (xi, yi) = (lanes.x[i], lanes.y[i]);
        let count = Group::checked_count(lanes);
        let position = Vec2::new(xi, yi);
        for range in grid.neighbour_rows(position) {
            assert!(range.end <= count);
            for j in range {
                let (dx, dy) = (lanes.x[j] - xi, lanes.y[j] - yi);
                let r2 = dx * dx + dy * dy;
                if j == i || r2 >= COINCIDENT2 {
                    continue;
                }
                // Evaluate the pair alone: lane 0 holds j, the others lie past the limit.
                // SAFETY: j < range.end <= count.
                let group = unsafe { Group::load(lanes, j) };
                let r = f32x4::splat(r2.sqrt());
                let a = weights(r, self.inverse_h, 1);
                let direction = coincident(j);
                let (ux, uy) = (f32x4::splat(direction.x), f32x4::splat(direction.y));
                let push = self
                    .pair_push::<UNIFORM_MASS>(&group, a, r, ux, uy, f32x4::ONE)
                    .to_array()[0];
                total += direction * push;
            }
        }
        total
    }
}
