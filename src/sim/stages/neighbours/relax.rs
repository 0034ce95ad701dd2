//! The relaxation stage's pair loop (Clavet et al. algorithm 2, second half, with surface
//! tension and the viscosity of algorithm 5): each pair evaluated once, its displacement added to
//! both ends. `physics::pair_displacements` is the same law, pair by pair; the lanes hold its
//! per-particle factors already folded (`lanes::Folding`).

use super::super::grid::ForwardRows;
use super::super::liquid::Sameness;
use super::bands::PairSums;
use super::chunks::Chunks;
use super::lanes::{weights, LaneData};
use crate::sim::numerics::simd::{Chunk, Lanes};
use crate::sim::physics::COINCIDENT2;
use glam::Vec2;
use std::ops::Range;

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
    // Each lane's running sums, its even and odd groups apart (`simd::Lanes::accumulate`).
    let mut sum_x = S::no_sums();
    let mut sum_y = S::no_sums();
    // Whether some candidate is at the particle's own spot.
    let mut at_same_spot = false;
    let mut chunks = Chunks::new(rows, count);
    while let Some(chunk) = chunks.next::<S>() {
        // SAFETY: every group of the chunk starts before count.
        let group = unsafe { Group::<S>::load::<SAME_VISCOSITY, ONE_MATERIAL>(lanes, &chunk) };
        let valid = S::valid_lanes(&chunk);
        let (dx, dy) = (group.x - own.values.x, group.y - own.values.y);
        let r2 = dx * dx + dy * dy;
        // Lanes past the range's end count too: a false alarm only costs the exact check in
        // `coincident_pairs`.
        at_same_spot |= r2.less(own.coincident2).any();
        // Coincident particles get a zero direction here (their pushes vanish).
        let r = r2.sqrt();
        let inverse_r = (S::splat(1.0) / r) & r2.greater(own.coincident2);
        let a = weights(r, own.minus_inverse_h, valid);
        let (push, other) = own.pair_pushes::<SAME_MASS, SAME_VISCOSITY, ONE_MATERIAL>(
            &group, a, r, dx, dy, inverse_r,
        );
        let (moved_x, moved_y) = ((dx * other) & valid, (dy * other) & valid);
        if ONE_MATERIAL && SAME_MASS {
            // One pull and one share: this particle's push is exactly −1 times the candidate's
            // (x − y = −(y − x) in IEEE arithmetic), so it takes away what the candidates get,
            // the same bits as adding its own (lanes past the range's end add ±0 either way).
            S::take_away(&mut sum_x, moved_x, &chunk);
            S::take_away(&mut sum_y, moved_y, &chunk);
        } else {
            S::accumulate(&mut sum_x, dx * push, &chunk);
            S::accumulate(&mut sum_y, dy * push, &chunk);
        }
        sums.add_chunk(&chunk, moved_x, moved_y);
    }
    let mut displacement = Vec2::new(S::sums_total(sum_x), S::sums_total(sum_y));
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
        lanes.checked_count(&fields[..used])
    }

    /// The values of the candidates of `chunk`.
    ///
    /// # Safety
    /// Every group of `chunk` starts before `Group::checked_count::<SAME_VISCOSITY>(lanes)`.
    #[inline(always)]
    unsafe fn load<const SAME_VISCOSITY: bool, const ONE_MATERIAL: bool>(
        lanes: &LaneData,
        chunk: &Chunk,
    ) -> Self {
        // SAFETY (every load): every field holds checked_count + LANES values, and each group
        // reads WIDTH = LANES (the viscosities only when they are read).
        let unless = |skip: bool, field: &[f32]| {
            if skip {
                S::splat(0.0)
            } else {
                unsafe { S::load_chunk(field, chunk) }
            }
        };
        unsafe {
            Self {
                x: S::load_chunk(&lanes.x, chunk),
                y: S::load_chunk(&lanes.y, chunk),
                mass: S::load_chunk(&lanes.mass, chunk),
                inverse_mass: S::load_chunk(&lanes.inverse_mass, chunk),
                velocity_x: S::load_chunk(&lanes.velocity_x, chunk),
                velocity_y: S::load_chunk(&lanes.velocity_y, chunk),
                pressure: S::load_chunk(&lanes.pressure, chunk),
                near_pressure: S::load_chunk(&lanes.near_pressure, chunk),
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
        let pressure =
            ((own.near_pressure + group.near_pressure) * a + (own.pressure + group.pressure)) * a2;
        // Surface tension between particles of one material (Becker & Teschner 2007): each
        // is pulled by the other's.
        let tension_weight = if ONE_MATERIAL {
            a2 * r
        } else {
            (a2 * r) & group.material.equal(own.material)
        };
        // Viscosity impulse of approaching pairs (Clavet et al. algorithm 5), shared by mass.
        let closing = ((own.velocity_x - group.velocity_x) * dx
            + (own.velocity_y - group.velocity_y) * dy)
            * inverse_r;
        let approach = closing.positive_part();
        let (linear, quadratic) = if SAME_VISCOSITY {
            (own.linear_viscosity, own.quadratic_viscosity)
        } else {
            (
                own.linear_viscosity + group.linear_viscosity,
                own.quadratic_viscosity + group.quadratic_viscosity,
            )
        };
        let viscous = a * r * (quadratic * approach + linear) * approach;
        // (Written x − P, this gives what x + (0 − P) gave but for the sign of a zero, which no
        // sum sees: a sum that starts at +0 never becomes −0.)
        let other_pull = own.tension * tension_weight - pressure;
        let own_pull = if ONE_MATERIAL {
            other_pull
        } else {
            group.tension * tension_weight - pressure
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
                let alone = Chunk {
                    base: [j; 2],
                    valid: [1, 0],
                    slot: 0,
                };
                // SAFETY: j < end <= count.
                let group =
                    unsafe { Group::<S>::load::<SAME_VISCOSITY, ONE_MATERIAL>(lanes, &alone) };
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

/// The relaxation of one band with the shortcuts `same` allows.
#[inline(always)]
pub(super) fn relaxation_band_for<S: Lanes>(
    band: Range<usize>,
    stage: &RelaxStage,
    sums: &mut PairSums,
) {
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

#[cfg(test)]
mod tests {
    use super::super::bands::for_each_band;
    use super::super::test_scene::{coincident_direction, scene, NOTHING_SAME};
    use super::super::width::every_implementation;
    use super::*;
    use crate::sim::physics::reference_relaxation;

    #[test]
    fn relaxation_pairs_match_the_reference_at_every_lane_width() {
        let h = 0.3;
        for (count, size, stretch, seed) in
            [(40, 0.4, 1.0, 8), (1500, 3.0, 1.0, 9), (1500, 1.0, 5.0, 10)]
        {
            for same in [
                NOTHING_SAME,
                Sameness {
                    viscosity: true,
                    ..NOTHING_SAME
                },
                Sameness {
                    mass: true,
                    ..NOTHING_SAME
                },
                Sameness {
                    mass: true,
                    viscosity: true,
                    ..NOTHING_SAME
                },
                Sameness {
                    material: true,
                    mass: true,
                    viscosity: true,
                },
            ] {
                let scene = scene(count, size, stretch, h, seed, same);
                let expected =
                    reference_relaxation(&scene.particles, h, scene.dt, coincident_direction);
                let largest = expected
                    .iter()
                    .map(|d| d.length())
                    .fold(0.0, crate::sim::numerics::portable::max);
                assert!(largest > 0.0, "the scene relaxes something");
                let stage = RelaxStage {
                    rows: &scene.rows,
                    lanes: &scene.lanes,
                    constants: scene.constants,
                    same,
                    coincident: &coincident_direction,
                };
                let mut first_bits = None;
                for loops in every_implementation() {
                    let name = loops.name();
                    let (mut x, mut y) = (vec![f32::NAN; count], vec![f32::NAN; count]);
                    for_each_band(&scene.bands, &mut x, &mut y, &|band, sums| {
                        loops.relaxation_band(band, &stage, sums)
                    });
                    // Every implementation of the lanes gives the same bits.
                    let bits: Vec<_> = x.iter().chain(&y).map(|v| v.to_bits()).collect();
                    assert_eq!(
                        first_bits.get_or_insert_with(|| bits.clone()),
                        &bits,
                        "{name}"
                    );
                    for (i, wanted) in expected.iter().enumerate() {
                        let error = (Vec2::new(x[i], y[i]) - *wanted).length();
                        assert!(
                            error <= 1e-4 * largest,
                            "{name}, {same:?}, particle {i} of {count}: \
                             ({}, {}) vs {wanted}",
                            x[i],
                            y[i]
                        );
                    }
                }
            }
        }
    }
}
