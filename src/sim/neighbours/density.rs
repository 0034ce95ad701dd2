//! The density stage's pair loop: Σ m_j a³ and Σ m_j a⁴ over each particle's neighbours
//! (Clavet et al. algorithm 2, first half), evaluated once per pair and added to both ends.
//! `physics::reference_densities` is the same sum, pair by pair.

use super::super::grid::ForwardRows;
use super::super::simd::Lanes;
use super::bands::PairSums;
use super::lanes::{weights, LaneData};
use std::ops::Range;

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

/// The density sums of one band, with masses or without (`density_pairs`).
#[inline(always)]
pub(super) fn density_band_for<S: Lanes>(
    band: Range<usize>,
    stage: &DensityStage,
    sums: &mut PairSums,
) {
    let (rows, lanes) = (stage.rows, stage.lanes);
    let minus_inverse_h = S::splat(-1.0 / stage.h);
    let count = lanes.checked_count(&[&lanes.y, &lanes.mass]);
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

#[cfg(test)]
mod tests {
    use super::super::bands::for_each_band;
    use super::super::test_scene::{scene, NOTHING_SAME};
    use super::super::width::every_width;
    use super::*;
    use crate::sim::liquid::Sameness;
    use crate::sim::physics::{density_norm, near_density_norm, reference_densities};

    #[test]
    fn density_pairs_match_the_reference_at_every_lane_width() {
        let h = 0.3;
        let (norm, near_norm) = (density_norm(h), near_density_norm(h));
        for (count, size, stretch, seed) in [
            (1, 1.0, 1.0, 1),
            (300, 1.0, 1.0, 2),
            (2000, 4.0, 1.0, 3),
            (2000, 1.5, 6.0, 4),
        ] {
            // Mixed masses, then one mass (which the sums leave out: it is multiplied back).
            for same in [
                NOTHING_SAME,
                Sameness {
                    mass: true,
                    ..NOTHING_SAME
                },
            ] {
                let scene = scene(count, size, stretch, h, seed, same);
                let positions: Vec<_> = scene.particles.iter().map(|p| p.position).collect();
                let masses: Vec<_> = scene.particles.iter().map(|p| p.mass).collect();
                let expected = reference_densities(&positions, &masses, h);
                let unit = if same.mass { masses[0] } else { 1.0 };
                let stage = DensityStage {
                    rows: &scene.rows,
                    lanes: &scene.lanes,
                    h,
                    same_mass: same.mass,
                };
                for (width, loops) in every_width() {
                    // Stale values: `for_each_band` must clear them.
                    let (mut sum, mut near_sum) = (vec![f32::NAN; count], vec![f32::NAN; count]);
                    for_each_band(&scene.bands, &mut sum, &mut near_sum, &|band, sums| {
                        loops.density_band(band, &stage, sums)
                    });
                    for (i, wanted) in expected.iter().enumerate() {
                        let (density, near_density) = (wanted.density, wanted.near_density);
                        let found = sum[i] * unit * norm;
                        let near_found = near_sum[i] * unit * near_norm;
                        assert!(
                            (found - density).abs() < 1e-4 * (norm + density)
                                && (near_found - near_density).abs()
                                    < 1e-4 * (near_norm + near_density),
                            "{width} lanes, {same:?}, particle {i} of {count}: \
                             {found} vs {density}, {near_found} vs {near_density}"
                        );
                    }
                }
            }
        }
    }
}
