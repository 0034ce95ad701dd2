//! The neighbour sums of the density and relaxation stages (Clavet et al. 2005, algorithms 2
//! and 5, with Madams' 2D-normalised kernels), evaluated once per pair.
//!
//! Particles are sorted by grid cell, so the candidates of a particle are a few contiguous index
//! ranges. Each pair is evaluated once, by its lower index, over that particle's forward
//! candidates (`Grid::forward_rows`: the rest of its row of cells and the rows above), and its
//! result is added to both ends: gathered into the particle, scattered into the candidates. A
//! range is read in groups of candidates, one per SIMD lane (`simd::Lanes`: 4 lanes, or 8 with
//! AVX), without branches: a candidate farther than h (or past the end of its range) gets the
//! weight a = 0 and so adds exactly zero, and because the candidates of a group are consecutive
//! particles the scatter is one load, add and store per group.
//!
//! Threads never meet: the particles are cut into bands of whole rows of cells (`Grid::bands`),
//! and a band's pairs reach only its own band and the next. Even bands run in parallel, then odd
//! ones (`for_each_band`), each band in index order, so every sum receives its additions in the
//! same order whatever the thread count. No neighbour lists are stored: recomputing a distance
//! costs less than writing it out and reading it back.

use super::grid::ForwardRows;
use super::simd::Lanes;
use super::LIGHT_CHUNK;
use glam::Vec2;
use std::ops::Range;

/// Padding past the last particle in every `LaneData` field: the widest group of lanes.
pub const LANES: usize = 8;

/// Squared distance below which two particles count as being at the same spot.
const COINCIDENT2: f32 = 1.0e-12;

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

/// Two running sums per particle over a window of particles (`start..start + first.len()`):
/// density and near density, or displacement x and y. A band adds into its own particles and
/// the next band's; no other band of its phase touches them.
pub struct PairSums<'a> {
    /// Sorted index of the window's first particle.
    pub start: usize,
    /// First sum of each particle in the window.
    pub first: &'a mut [f32],
    /// Second sum of each particle in the window.
    pub second: &'a mut [f32],
}

impl<'a> PairSums<'a> {
    /// The sums of `band`'s window, cleared first in phase 0 (see `run_phase`).
    pub fn clearing(band: &Band, first: &'a mut [f32], second: &'a mut [f32]) -> Self {
        if band.index.is_multiple_of(2) {
            first.fill(0.0);
            second.fill(0.0);
        }
        Self {
            start: band.start,
            first,
            second,
        }
    }

    /// Adds the lanes of `first` and `second` to the particles from `base` on; lanes past the
    /// first `valid` must be zero (near the window's end they are skipped instead).
    #[inline(always)]
    fn add<S: Lanes>(&mut self, base: usize, valid: usize, first: S, second: S) {
        let local = base - self.start;
        let room = self.first.len().min(self.second.len());
        if local + S::WIDTH <= room {
            // SAFETY: local + WIDTH <= the length of both sums.
            unsafe {
                (S::load(self.first, local) + first).store(self.first, local);
                (S::load(self.second, local) + second).store(self.second, local);
            }
        } else {
            let (mut firsts, mut seconds) = ([0.0; LANES], [0.0; LANES]);
            // SAFETY: LANES >= WIDTH.
            unsafe {
                first.store(&mut firsts, 0);
                second.store(&mut seconds, 0);
            }
            for k in 0..valid.min(S::WIDTH) {
                self.first[local + k] += firsts[k];
                self.second[local + k] += seconds[k];
            }
        }
    }

    /// Adds one value to each sum of particle `j`.
    #[inline(always)]
    fn add_one(&mut self, j: usize, first: f32, second: f32) {
        self.first[j - self.start] += first;
        self.second[j - self.start] += second;
    }
}

/// One band's turn in a phase of `run_phase`.
#[derive(Clone, Debug)]
pub struct Band {
    /// Its index: even bands run in phase 0, odd ones in phase 1.
    pub index: usize,
    /// Its particles.
    pub particles: Range<usize>,
    /// The first particle of its window of the outputs: its own particles, then the next band's.
    pub start: usize,
}

/// Per-particle outputs that the bands of a phase share out, each band getting its window.
pub trait Window: Send + Sized {
    /// The part for the first `at` particles, and the rest.
    fn split_at(self, at: usize) -> (Self, Self);
}

impl<T: Send> Window for &mut [T] {
    fn split_at(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at)
    }
}

impl<A: Window, B: Window> Window for (A, B) {
    fn split_at(self, at: usize) -> (Self, Self) {
        let ((a_low, a_high), (b_low, b_high)) = (self.0.split_at(at), self.1.split_at(at));
        ((a_low, b_low), (a_high, b_high))
    }
}

impl<A: Window, B: Window, C: Window> Window for (A, B, C) {
    fn split_at(self, at: usize) -> (Self, Self) {
        let (low, high) = ((self.0, self.1), self.2).split_at(at);
        ((low.0 .0, low.0 .1, low.1), (high.0 .0, high.0 .1, high.1))
    }
}

/// Runs `work` on every band of phase `phase` (0: the even bands, 1: the odd ones; band k is
/// particles `bands[k]..bands[k + 1]`), in parallel, each with its window of `outputs` (given for
/// every particle). A band's pairs reach only its own band and the next, so no two bands of a
/// phase share a particle: no locks are needed, and when phase 0 then phase 1 run, every output
/// receives its additions in the same order at any thread count. A window's sums must start at
/// zero: the even bands' windows cover every particle, and no band reaches a particle before the
/// even band whose window holds it, so clearing in phase 0 is enough.
pub fn run_phase<O: Window, W>(bands: &[u32], phase: usize, outputs: O, work: &W)
where
    W: Fn(Band, O) + Sync,
{
    let band_count = bands.len().saturating_sub(1);
    if phase >= band_count {
        return;
    }
    let start = bands[phase] as usize;
    let (_, outputs) = outputs.split_at(start);
    bands_of_phase(bands, phase, band_count, start, outputs, work);
}

/// `run_phase` for bands `low, low + 2, …` below `high`, whose outputs are given from particle
/// `start` on; splits in halves run by `rayon::join`.
fn bands_of_phase<O: Window, W>(
    bands: &[u32],
    low: usize,
    high: usize,
    start: usize,
    outputs: O,
    work: &W,
) where
    W: Fn(Band, O) + Sync,
{
    let count = (high - low).div_ceil(2);
    if count == 1 {
        let particles = bands[low] as usize..bands[low + 1] as usize;
        let band = Band {
            index: low,
            particles,
            start,
        };
        work(band, outputs);
        return;
    }
    let middle = low + 2 * (count / 2);
    let split = bands[middle] as usize;
    let (outputs_low, outputs_high) = outputs.split_at(split - start);
    rayon::join(
        || bands_of_phase(bands, low, middle, start, outputs_low, work),
        || bands_of_phase(bands, middle, high, split, outputs_high, work),
    );
}

/// `run_phase` for phases 0 and 1 with two sums per particle (`PairSums`), cleared first.
pub fn for_each_band<W>(bands: &[u32], first: &mut [f32], second: &mut [f32], work: &W)
where
    W: Fn(Range<usize>, &mut PairSums) + Sync,
{
    for phase in 0..2 {
        run_phase(bands, phase, (&mut *first, &mut *second), &|band: Band,
                                                               (
            first,
            second,
        ): (
            &mut [f32],
            &mut [f32],
        )| {
            let mut sums = PairSums::clearing(&band, first, second);
            work(band.particles, &mut sums);
        });
    }
}

/// Kernel weights a = 1 − r/h of a group's candidates at distances `r` (given −1/h), zero
/// beyond h and on the lanes outside `valid`.
#[inline(always)]
fn weights<S: Lanes>(r: S, minus_inverse_h: S, valid: S) -> S {
    r.mul_add(minus_inverse_h, S::splat(1.0)).max(S::splat(0.0)) & valid
}

/// The particles a range may index: every field holds at least this many plus `LANES`.
fn checked_count(lanes: &LaneData, fields: &[&Vec<f32>]) -> usize {
    let count = lanes.x.len().saturating_sub(LANES);
    assert!(fields.iter().all(|field| field.len() >= count + LANES));
    count
}

/// Density sums Σ m_j a³ and near-density sums Σ m_j a⁴ (unnormalised, the particle itself
/// excluded) of the pairs of particle `i` and its forward candidates, added to both ends. With
/// `SAME_MASS` (every particle of one mass) the masses are left out: Σ a³ and Σ a⁴.
/// `minus_inverse_h` is −1/h in every lane; `count` is `checked_count` of x, y and mass (found
/// once per band).
#[inline(always)]
fn density_pairs<S: Lanes, const SAME_MASS: bool>(
    rows: &ForwardRows,
    lanes: &LaneData,
    count: usize,
    i: usize,
    minus_inverse_h: S,
    sums: &mut PairSums,
) {
    let (xi, yi) = (S::splat(lanes.x[i]), S::splat(lanes.y[i]));
    let own_mass = S::splat(lanes.mass[i]);
    let mut sum = S::splat(0.0);
    let mut near_sum = S::splat(0.0);
    for range in rows {
        let (mut base, end) = (range.start as usize, range.end as usize);
        assert!(end <= count);
        while base < end {
            // SAFETY: base < range.end <= count, and x, y and mass hold count + LANES values.
            let (x, y) = unsafe { (S::load(&lanes.x, base), S::load(&lanes.y, base)) };
            let (dx, dy) = (x - xi, y - yi);
            let r = dx.mul_add(dx, dy * dy).sqrt();
            let a = weights(r, minus_inverse_h, S::first_lanes(end - base));
            let a3 = a * a * a;
            let a4 = a3 * a;
            if SAME_MASS {
                sum += a3;
                near_sum += a4;
                sums.add(base, end - base, a3, a4);
            } else {
                // SAFETY: as above.
                let mass = unsafe { S::load(&lanes.mass, base) };
                sum = mass.mul_add(a3, sum);
                near_sum = mass.mul_add(a4, near_sum);
                sums.add(base, end - base, own_mass * a3, own_mass * a4);
            }
            base += S::WIDTH;
        }
    }
    sums.add_one(i, sum.total(), near_sum.total());
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

/// The relaxation of the pairs of particle `i` and its forward candidates, added to both ends'
/// displacements: pressure and near pressure pushes, surface tension between particles of one
/// material, and the viscous impulses of approaching pairs shared by mass (2 m_j / (m_i + m_j)
/// for i). Particles at the same spot push apart along `coincident(j)`, a direction chosen by
/// the caller. `SAME_MASS` says every particle has the same mass (shares of 1, no division);
/// `SAME_VISCOSITY` that every material has `constants`' viscosity (two loads less per pair),
/// otherwise the lanes' viscosities must be filled; `ONE_MATERIAL` that there is one material
/// (then both of the others hold too, and every pair pulls with the particle's own tension).
/// `count` is `Group::checked_count` (found once per band).
#[inline(always)]
fn relaxation_pairs<
    S: Lanes,
    const SAME_MASS: bool,
    const SAME_VISCOSITY: bool,
    const ONE_MATERIAL: bool,
>(
    rows: &ForwardRows,
    lanes: &LaneData,
    count: usize,
    i: usize,
    constants: &RelaxConstants,
    coincident: impl Fn(usize) -> Vec2,
    sums: &mut PairSums,
) {
    let own = Own::<S>::new::<SAME_VISCOSITY>(lanes, i, constants);
    let mut sum_x = S::splat(0.0);
    let mut sum_y = S::splat(0.0);
    // Whether some candidate is at the particle's own spot.
    let mut at_same_spot = false;
    for range in rows {
        let (mut base, end) = (range.start as usize, range.end as usize);
        assert!(end <= count);
        while base < end {
            // SAFETY: base < end <= count.
            let group = unsafe { Group::<S>::load::<SAME_VISCOSITY, ONE_MATERIAL>(lanes, base) };
            let valid = S::first_lanes(end - base);
            let (dx, dy) = (group.x - own.values.x, group.y - own.values.y);
            let r2 = dx.mul_add(dx, dy * dy);
            // Lanes past the range's end count too: a false alarm only costs the exact check
            // in `coincident_pairs`.
            at_same_spot |= r2.less(own.coincident2).any();
            // Coincident particles get a zero direction (and distance) here.
            let inverse_r = r2.inverse_sqrt() & r2.greater(own.coincident2);
            let r = r2 * inverse_r;
            let a = weights(r, own.minus_inverse_h, valid);
            let (push, other) = own.pair_pushes::<SAME_MASS, SAME_VISCOSITY, ONE_MATERIAL>(
                &group, a, r, dx, dy, inverse_r,
            );
            sum_x = dx.mul_add(push, sum_x);
            sum_y = dy.mul_add(push, sum_y);
            sums.add(base, end - base, (dx * other) & valid, (dy * other) & valid);
            base += S::WIDTH;
        }
    }
    let mut displacement = Vec2::new(sum_x.total(), sum_y.total());
    if at_same_spot {
        displacement += own.coincident_pairs::<SAME_MASS, SAME_VISCOSITY, ONE_MATERIAL>(
            rows, lanes, count, i, coincident, sums,
        );
    }
    sums.add_one(i, displacement.x, displacement.y);
}

/// A group of consecutive candidates' values, one per lane.
struct Group<S> {
    x: S,
    y: S,
    mass: S,
    inverse_mass: S,
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
            &lanes.inverse_mass,
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
        let used = if SAME_VISCOSITY { 9 } else { fields.len() };
        checked_count(lanes, &fields[..used])
    }

    /// The values of the candidates from `base` on.
    ///
    /// # Safety
    /// `base < Group::checked_count::<SAME_VISCOSITY>(lanes)`.
    #[inline(always)]
    unsafe fn load<const SAME_VISCOSITY: bool, const ONE_MATERIAL: bool>(
        lanes: &LaneData,
        base: usize,
    ) -> Self {
        // SAFETY (every load): every field holds checked_count + LANES values, and LANES ≥
        // S::WIDTH (the viscosities only when they are read).
        let unless = |skip: bool, field: &[f32]| {
            if skip {
                S::splat(0.0)
            } else {
                unsafe { S::load(field, base) }
            }
        };
        unsafe {
            Self {
                x: S::load(&lanes.x, base),
                y: S::load(&lanes.y, base),
                mass: S::load(&lanes.mass, base),
                inverse_mass: S::load(&lanes.inverse_mass, base),
                velocity_x: S::load(&lanes.velocity_x, base),
                velocity_y: S::load(&lanes.velocity_y, base),
                pressure: S::load(&lanes.pressure, base),
                near_pressure: S::load(&lanes.near_pressure, base),
                // One material: every particle has the same tension, and no material is compared.
                tension: unless(ONE_MATERIAL, &lanes.tension),
                material: unless(ONE_MATERIAL, &lanes.material),
                linear_viscosity: unless(SAME_VISCOSITY, &lanes.linear_viscosity),
                quadratic_viscosity: unless(SAME_VISCOSITY, &lanes.quadratic_viscosity),
            }
        }
    }
}

/// The relaxing particle: its values in every lane (its viscosities are the pair's when there
/// is one viscosity), and the constants of its pairs.
struct Own<S> {
    values: Group<S>,
    minus_inverse_h: S,
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
        let values = Group {
            x: S::splat(lanes.x[i]),
            y: S::splat(lanes.y[i]),
            mass: S::splat(lanes.mass[i]),
            inverse_mass: S::splat(lanes.inverse_mass[i]),
            velocity_x: S::splat(lanes.velocity_x[i]),
            velocity_y: S::splat(lanes.velocity_y[i]),
            pressure: S::splat(lanes.pressure[i]),
            near_pressure: S::splat(lanes.near_pressure[i]),
            tension: S::splat(lanes.tension[i]),
            material: S::splat(lanes.material[i]),
            linear_viscosity: S::splat(linear_viscosity),
            quadratic_viscosity: S::splat(quadratic_viscosity),
        };
        Self {
            values,
            minus_inverse_h: S::splat(-constants.inverse_h),
            coincident2: S::splat(COINCIDENT2),
        }
    }

    /// The signed pushes of a pair per unit of the offset (dx, dy) from this particle to each
    /// candidate, for weights `a`, distances `r` and their inverses (0 where the direction is
    /// unknown): this particle moves by (dx, dy) × the first, the candidate by (dx, dy) × the
    /// second.
    #[inline(always)]
    fn pair_pushes<const SAME_MASS: bool, const SAME_VISCOSITY: bool, const ONE_MATERIAL: bool>(
        &self,
        group: &Group<S>,
        a: S,
        r: S,
        dx: S,
        dy: S,
        inverse_r: S,
    ) -> (S, S) {
        let own = &self.values;
        let a2 = a * a;
        // Pressure and near pressure (Clavet et al. 2005, algorithm 2), split by mass.
        let pressure = (own.near_pressure + group.near_pressure)
            .mul_add(a, own.pressure + group.pressure)
            * a2;
        // Surface tension between particles of one material (Becker & Teschner 2007): each
        // is pulled by the other's.
        let tension_weight = if ONE_MATERIAL {
            a2 * r
        } else {
            (a2 * r) & group.material.equal(own.material)
        };
        // Viscosity impulse of approaching pairs (Clavet et al. algorithm 5), shared by mass.
        let closing = (own.velocity_x - group.velocity_x)
            .mul_add(dx, (own.velocity_y - group.velocity_y) * dy)
            * inverse_r;
        let approach = closing.max(S::splat(0.0));
        let (linear, quadratic) = if SAME_VISCOSITY {
            (own.linear_viscosity, own.quadratic_viscosity)
        } else {
            (
                own.linear_viscosity + group.linear_viscosity,
                own.quadratic_viscosity + group.quadratic_viscosity,
            )
        };
        let viscous = a * r * quadratic.mul_add(approach, linear) * approach;
        let minus_pressure = S::splat(0.0) - pressure;
        let other_pull = own.tension.mul_add(tension_weight, minus_pressure);
        let own_pull = if ONE_MATERIAL {
            other_pull
        } else {
            group.tension.mul_add(tension_weight, minus_pressure)
        };
        if SAME_MASS {
            (
                (own_pull * own.inverse_mass - viscous) * inverse_r,
                (viscous - other_pull * own.inverse_mass) * inverse_r,
            )
        } else {
            let two_over_total = S::splat(2.0) / (own.mass + group.mass);
            let own_share = group.mass * two_over_total;
            let other_share = own.mass * two_over_total;
            (
                (own_pull * own.inverse_mass - viscous * own_share) * inverse_r,
                (viscous * other_share - other_pull * group.inverse_mass) * inverse_r,
            )
        }
    }

    /// Pairs of particle `i` and the forward candidates at its very spot, pushed apart along
    /// the directions `coincident` gives (the lane loop gave them none); the candidates' pushes
    /// go into `sums`, this particle's is returned.
    #[cold]
    fn coincident_pairs<
        const SAME_MASS: bool,
        const SAME_VISCOSITY: bool,
        const ONE_MATERIAL: bool,
    >(
        &self,
        rows: &ForwardRows,
        lanes: &LaneData,
        count: usize,
        i: usize,
        coincident: impl Fn(usize) -> Vec2,
        sums: &mut PairSums,
    ) -> Vec2 {
        let mut total = Vec2::ZERO;
        let (xi, yi) = (lanes.x[i], lanes.y[i]);
        for range in rows {
            let (start, end) = (range.start as usize, range.end as usize);
            assert!(end <= count);
            for j in start..end {
                let (dx, dy) = (lanes.x[j] - xi, lanes.y[j] - yi);
                let r2 = dx * dx + dy * dy;
                if r2 >= COINCIDENT2 {
                    continue;
                }
                // Evaluate the pair alone: lane 0 holds j, the others lie past the limit.
                // SAFETY: j < end <= count.
                let group = unsafe { Group::<S>::load::<SAME_VISCOSITY, ONE_MATERIAL>(lanes, j) };
                let r = S::splat(r2.sqrt());
                let a = weights(r, self.minus_inverse_h, S::first_lanes(1));
                let direction = coincident(j);
                let (ux, uy) = (S::splat(direction.x), S::splat(direction.y));
                let (push, other) = self.pair_pushes::<SAME_MASS, SAME_VISCOSITY, ONE_MATERIAL>(
                    &group,
                    a,
                    r,
                    ux,
                    uy,
                    S::splat(1.0),
                );
                total += direction * push.first();
                let moved = direction * other.first();
                sums.add_one(j, moved.x, moved.y);
            }
        }
        total
    }
}

/// Which shortcuts the relaxation may take: every material of the scene has the same mass, or
/// the same viscosity.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sameness {
    /// The scene has one material (so one mass and one viscosity too).
    pub material: bool,
    /// Every particle has the same mass.
    pub mass: bool,
    /// Every material has the scene's viscosity.
    pub viscosity: bool,
}

/// What the density sums of every band read.
pub struct DensityStage<'a> {
    /// Each particle's forward candidates.
    pub rows: &'a [ForwardRows],
    /// The particles' values (positions and masses).
    pub lanes: &'a LaneData,
    /// Interaction radius h.
    pub h: f32,
    /// Every particle has the same mass (the sums leave it out).
    pub same_mass: bool,
}

/// The density sums of one band, with masses or without (`density_pairs`).
#[inline(always)]
fn density_band_for<S: Lanes>(band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
    let (rows, lanes) = (stage.rows, stage.lanes);
    let minus_inverse_h = S::splat(-1.0 / stage.h);
    let count = checked_count(lanes, &[&lanes.y, &lanes.mass]);
    if stage.same_mass {
        for i in band {
            density_pairs::<S, true>(&rows[i], lanes, count, i, minus_inverse_h, sums);
        }
    } else {
        for i in band {
            density_pairs::<S, false>(&rows[i], lanes, count, i, minus_inverse_h, sums);
        }
    }
}

/// The relaxation of one band with the shortcuts `same` allows.
#[inline(always)]
fn relaxation_band_for<S: Lanes>(band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
    macro_rules! each {
        ($same_mass:literal, $same_viscosity:literal, $one_material:literal) => {{
            let count = Group::<S>::checked_count::<$same_viscosity>(stage.lanes);
            for i in band {
                relaxation_pairs::<S, $same_mass, $same_viscosity, $one_material>(
                    &stage.rows[i],
                    stage.lanes,
                    count,
                    i,
                    &stage.constants,
                    |j| (stage.coincident)(i, j),
                    sums,
                )
            }
        }};
    }
    match (stage.same.material, stage.same.mass, stage.same.viscosity) {
        (true, _, _) => each!(true, true, true),
        (false, true, true) => each!(true, true, false),
        (false, true, false) => each!(true, false, false),
        (false, false, true) => each!(false, true, false),
        (false, false, false) => each!(false, false, false),
    }
}

/// What the relaxation of every band reads.
pub struct RelaxStage<'a> {
    /// Each particle's forward candidates.
    pub rows: &'a [ForwardRows],
    /// The particles' values.
    pub lanes: &'a LaneData,
    /// Constants of every pair.
    pub constants: RelaxConstants,
    /// The shortcuts the scene allows.
    pub same: Sameness,
    /// Direction from particle i to particle j when both are at one spot (opposite for j, i).
    pub coincident: &'a (dyn Fn(usize, usize) -> Vec2 + Sync),
}

/// The neighbour sums of one band of particles, compiled for one lane width.
pub trait Kernels: Sync {
    /// `density_pairs` for every particle of `band`.
    fn density_band(&self, band: Range<usize>, stage: &DensityStage, sums: &mut PairSums);
    /// `relaxation_pairs` for every particle of `band`.
    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums);
}

/// The widest kernels this CPU runs: 8 lanes with AVX and FMA, else 4.
pub fn kernels() -> &'static dyn Kernels {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("fma") {
        return &AvxKernels;
    }
    &FourLanes
}

/// Four lanes (`wide::f32x4`).
struct FourLanes;

impl Kernels for FourLanes {
    fn density_band(&self, band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
        density_band_for::<wide::f32x4>(band, stage, sums);
    }

    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        relaxation_band_for::<wide::f32x4>(band, stage, sums);
    }
}

/// Eight lanes with AVX and FMA; only handed out by `kernels()` after checking the CPU has both.
#[cfg(target_arch = "x86_64")]
struct AvxKernels;

#[cfg(target_arch = "x86_64")]
impl AvxKernels {
    #[target_feature(enable = "avx,fma")]
    fn density_band_avx(band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
        density_band_for::<super::simd::Avx>(band, stage, sums);
    }

    #[target_feature(enable = "avx,fma")]
    fn relaxation_band_avx(band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        relaxation_band_for::<super::simd::Avx>(band, stage, sums);
    }
}

#[cfg(target_arch = "x86_64")]
impl Kernels for AvxKernels {
    fn density_band(&self, band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
        // SAFETY: `kernels()` hands out `AvxKernels` only when the CPU has AVX and FMA.
        unsafe { Self::density_band_avx(band, stage, sums) }
    }

    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        // SAFETY: as above.
        unsafe { Self::relaxation_band_avx(band, stage, sums) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::grid::Grid;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    /// Random particles (sorted by a fresh grid) with random per-particle values in `LaneData`,
    /// their forward rows and bands.
    struct Scene {
        lanes: LaneData,
        rows: Vec<ForwardRows>,
        bands: Vec<u32>,
    }

    /// `count` particles in a box `size` high and `size × stretch` wide (a stretch of 2 or
    /// more numbers the cells column by column).
    fn scene(count: usize, size: f32, stretch: f32, h: f32, seed: u64) -> Scene {
        let mut rng = Pcg32::seed_from_u64(seed);
        let mut unsorted: Vec<Vec2> = (0..count)
            .map(|_| {
                let x = rng.random_range(0.0..size * stretch);
                Vec2::new(x, rng.random_range(0.0..size))
            })
            .collect();
        // A few particles at one spot, to take the coincident path.
        if count > 10 {
            unsorted[1] = unsorted[0];
            unsorted[2] = unsorted[0];
        }
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
        let inverse_mass = mass.iter().map(|m| 1.0 / m).collect();
        let fields: [(&mut Vec<f32>, Vec<f32>); 12] = [
            (&mut lanes.x, position.iter().map(|p| p.x).collect()),
            (&mut lanes.y, position.iter().map(|p| p.y).collect()),
            (&mut lanes.mass, mass),
            (&mut lanes.inverse_mass, inverse_mass),
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
        let rows = (0..count)
            .map(|i| grid.forward_rows(position[i], i))
            .collect();
        let mut bands = Vec::new();
        grid.bands(64, &mut bands);
        Scene { lanes, rows, bands }
    }

    /// The pairs of particle `i` closer than h, by brute force: (j, r, direction from i to j).
    fn neighbours(lanes: &LaneData, i: usize, h: f32) -> Vec<(usize, f64, [f64; 2])> {
        let count = lanes.x.len() - LANES;
        let (xi, yi) = (lanes.x[i] as f64, lanes.y[i] as f64);
        (0..count)
            .filter(|&j| j != i)
            .filter_map(|j| {
                let (dx, dy) = (lanes.x[j] as f64 - xi, lanes.y[j] as f64 - yi);
                let r = dx.hypot(dy);
                (r < h as f64).then(|| {
                    let direction = if r * r > COINCIDENT2 as f64 {
                        [dx / r, dy / r]
                    } else {
                        let d = coincident_direction(i, j);
                        [d.x as f64, d.y as f64]
                    };
                    (j, r, direction)
                })
            })
            .collect()
    }

    /// The direction the tests give two particles at one spot (opposite for j, i).
    fn coincident_direction(i: usize, j: usize) -> Vec2 {
        if i < j {
            Vec2::X
        } else {
            -Vec2::X
        }
    }

    #[test]
    fn density_pairs_match_a_brute_force_sum() {
        let h = 0.3;
        for (count, size, stretch, seed) in [
            (1, 1.0, 1.0, 1),
            (300, 1.0, 1.0, 2),
            (2000, 4.0, 1.0, 3),
            (2000, 1.5, 6.0, 4),
        ] {
            let mut scene = scene(count, size, stretch, h, seed);
            // Mixed masses, then one mass (which the sums leave out: it is multiplied back).
            for same_mass in [false, true] {
                if same_mass {
                    scene.lanes.mass.fill(1.3);
                }
                let lanes = &scene.lanes;
                let unit = if same_mass { 1.3 } else { 1.0 };
                let kernels: [(usize, &dyn Kernels); 2] = [(4, &FourLanes), (0, kernels())];
                for (width, kernels) in kernels {
                    // Stale values: `for_each_band` must clear them.
                    let (mut sum, mut near_sum) = (vec![f32::NAN; count], vec![f32::NAN; count]);
                    let stage = DensityStage {
                        rows: &scene.rows,
                        lanes,
                        h,
                        same_mass,
                    };
                    for_each_band(&scene.bands, &mut sum, &mut near_sum, &|band, sums| {
                        kernels.density_band(band, &stage, sums)
                    });
                    for i in 0..count {
                        let (mut expected, mut near_expected) = (0.0_f64, 0.0_f64);
                        for (j, r, _) in neighbours(lanes, i, h) {
                            let a = 1.0 - r / h as f64;
                            expected += lanes.mass[j] as f64 * a.powi(3);
                            near_expected += lanes.mass[j] as f64 * a.powi(4);
                        }
                        let (found, near_found) = (sum[i] as f64 * unit, near_sum[i] as f64 * unit);
                        assert!(
                            (found - expected).abs() < 1e-4 * (1.0 + expected)
                                && (near_found - near_expected).abs()
                                    < 1e-4 * (1.0 + near_expected),
                            "{width} lanes, same mass {same_mass}, particle {i} of {count}: \
                             {found} vs {expected}, {near_found} vs {near_expected}"
                        );
                    }
                }
            }
        }
    }

    /// Particle i's relaxation displacement from the formula of `relaxation_pairs`, pair by
    /// pair in f64 (the viscosity of a pair is the sum of the lanes' halves unless `same`).
    fn brute_force_displacement(
        lanes: &LaneData,
        i: usize,
        h: f32,
        constants: &RelaxConstants,
        same: Sameness,
    ) -> [f64; 2] {
        let value = |field: &Vec<f32>, k: usize| field[k] as f64;
        let mut total = [0.0; 2];
        for (j, r, [ux, uy]) in neighbours(lanes, i, h) {
            let a = 1.0 - r / h as f64;
            let (mi, mj) = (value(&lanes.mass, i), value(&lanes.mass, j));
            let pressure = ((value(&lanes.near_pressure, i) + value(&lanes.near_pressure, j)) * a
                + value(&lanes.pressure, i)
                + value(&lanes.pressure, j))
                * a
                * a;
            let tension = if lanes.material[i] == lanes.material[j] {
                value(&lanes.tension, j) * a * a * r
            } else {
                0.0
            };
            let closing = (value(&lanes.velocity_x, i) - value(&lanes.velocity_x, j)) * ux
                + (value(&lanes.velocity_y, i) - value(&lanes.velocity_y, j)) * uy;
            let approach = closing.max(0.0);
            let (linear, quadratic) = if same.viscosity {
                (
                    constants.linear_viscosity as f64,
                    constants.quadratic_viscosity as f64,
                )
            } else {
                (
                    value(&lanes.linear_viscosity, i) + value(&lanes.linear_viscosity, j),
                    value(&lanes.quadratic_viscosity, i) + value(&lanes.quadratic_viscosity, j),
                )
            };
            let share = if same.mass { 1.0 } else { 2.0 * mj / (mi + mj) };
            let inverse_mass = if same.mass {
                value(&lanes.inverse_mass, i)
            } else {
                1.0 / mi
            };
            let viscous = a * r * (linear + quadratic * approach) * approach * share;
            let push = (tension - pressure) * inverse_mass - viscous;
            total[0] += push * ux;
            total[1] += push * uy;
        }
        total
    }

    #[test]
    fn relaxation_pairs_match_a_brute_force_sum_at_every_lane_width() {
        let h = 0.3;
        let constants = RelaxConstants {
            inverse_h: 1.0 / h,
            linear_viscosity: 2e-5,
            quadratic_viscosity: 3e-5,
        };
        for (count, size, stretch, seed) in
            [(40, 0.4, 1.0, 8), (1500, 3.0, 1.0, 9), (1500, 1.0, 5.0, 10)]
        {
            let mut scene = scene(count, size, stretch, h, seed);
            // Mixed masses first: the one-mass cases then overwrite them, and one material last.
            for (material, mass, viscosity) in [
                (false, false, false),
                (false, false, true),
                (false, true, false),
                (false, true, true),
                (true, true, true),
            ] {
                let same = Sameness {
                    material,
                    mass,
                    viscosity,
                };
                let lanes = &mut scene.lanes;
                if mass {
                    // One mass for all: the shortcut assumes it.
                    lanes.mass.fill(1.3);
                    lanes.inverse_mass.fill(1.0 / 1.3);
                }
                if material {
                    // One material: one tension too (padding stays past the end).
                    lanes.material[..count].fill(0.0);
                    lanes.tension[..count].fill(4e-4);
                }
                let lanes = &scene.lanes;
                let stage = RelaxStage {
                    rows: &scene.rows,
                    lanes,
                    constants,
                    same,
                    coincident: &coincident_direction,
                };
                let expected: Vec<[f64; 2]> = (0..count)
                    .map(|i| brute_force_displacement(lanes, i, h, &constants, same))
                    .collect();
                let largest = expected
                    .iter()
                    .map(|[x, y]| x.hypot(*y))
                    .fold(0.0, f64::max);
                assert!(largest > 0.0, "the scene relaxes something");
                let kernels: [(usize, &dyn Kernels); 2] = [(4, &FourLanes), (0, kernels())];
                for (width, kernels) in kernels {
                    let (mut x, mut y) = (vec![f32::NAN; count], vec![f32::NAN; count]);
                    for_each_band(&scene.bands, &mut x, &mut y, &|band, sums| {
                        kernels.relaxation_band(band, &stage, sums)
                    });
                    for i in 0..count {
                        let [ex, ey] = expected[i];
                        let error = (x[i] as f64 - ex).hypot(y[i] as f64 - ey);
                        assert!(
                            error <= 1e-4 * largest,
                            "{width} lanes, {same:?}, particle {i} of {count}: \
                             ({}, {}) vs ({ex}, {ey})",
                            x[i],
                            y[i]
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn bands_cover_every_particle_once_and_hold_each_forward_row_in_the_next_band() {
        let h = 0.3;
        // Square, then wide enough that the cells are numbered column by column.
        for stretch in [1.0, 8.0] {
            let scene = scene(3000, 5.0, stretch, h, 4);
            let bands = &scene.bands;
            assert_eq!(bands.first(), Some(&0));
            assert_eq!(bands.last(), Some(&3000));
            assert!(bands.len() > 4, "{} bands", bands.len() - 1);
            assert!(bands.windows(2).all(|pair| pair[0] < pair[1]));
            for k in 0..bands.len() - 1 {
                let window_end = bands[(k + 2).min(bands.len() - 1)];
                for i in bands[k]..bands[k + 1] {
                    for range in &scene.rows[i as usize] {
                        assert!(range.start > i || range.is_empty());
                        assert!(range.end <= window_end, "particle {i} of band {k}");
                    }
                }
            }
        }
    }
}
