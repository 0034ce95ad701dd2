//! The density stage's pair loop: Σ a³ and Σ a⁴ over each particle's neighbours (Clavet et al.
//! algorithm 2, first half), evaluated once per pair and added to both ends. The sums count
//! neighbours, not their masses: a particle's density is its own mass times them (Solenthaler
//! and Pajarola 2008, see `physics`). `physics::reference_densities` is the same, pair by pair.

use super::super::grid::ForwardRows;
use super::bands::{PairSum, PairSums};
use super::chunks::Chunks;
use super::diffusion::{self, exchange, Diffusing};
use super::lanes::{weights, LaneData};
use crate::sim::numerics::simd::Lanes;
use std::ops::Range;

/// What the density sums of every band read.
pub struct DensityStage<'a> {
    /// Each particle's forward candidates.
    pub rows: &'a [ForwardRows],
    /// The particles' values (positions and masses).
    pub lanes: &'a LaneData,
    /// Interaction radius h.
    pub h: f32,
    /// Every particle has one share of the diffusion (one material), when it runs.
    pub one_share: bool,
}

/// Density sums Σ a³ and near-density sums Σ a⁴ (unnormalised, the particle itself excluded) of
/// the pairs of particle `i` and its forward candidates, added to both ends. `minus_inverse_h`
/// is −1/h in every lane; `count` is `checked_count` of x and y (and of the diffusion's lanes
/// when it `CONDUCTS`; found once per band). `CONDUCTS`: the pairs also exchange the
/// diffusion's value (`diffusion::exchange`), into `heat`.
#[inline(always)]
fn density_pairs<S: Lanes, const CONDUCTS: bool, const ONE_SHARE: bool>(
    rows: &ForwardRows,
    lanes: &LaneData,
    count: usize,
    i: usize,
    minus_inverse_h: S,
    sums: &mut PairSums,
    heat: &mut PairSum,
) {
    let (xi, yi) = (S::splat(lanes.x[i]), S::splat(lanes.y[i]));
    let own_heat = CONDUCTS.then(|| Diffusing::<S>::own(lanes, i));
    // Each lane's running sums, its even and odd groups apart (`simd::Lanes::accumulate`).
    let mut sum = S::no_sums();
    let mut near_sum = S::no_sums();
    let mut gained = S::no_sums();
    let mut chunks = Chunks::new(rows, count);
    while let Some(chunk) = chunks.next::<S>() {
        // SAFETY: every group of the chunk starts before count, and x and y hold count + LANES
        // values.
        let (x, y) = unsafe {
            (
                S::load_chunk(&lanes.x, &chunk),
                S::load_chunk(&lanes.y, &chunk),
            )
        };
        let (dx, dy) = (x - xi, y - yi);
        let r = (dx * dx + dy * dy).sqrt();
        let a = weights(r, minus_inverse_h, S::valid_lanes(&chunk));
        let a3 = a * a * a;
        let a4 = a3 * a;
        S::accumulate(&mut sum, a3, &chunk);
        S::accumulate(&mut near_sum, a4, &chunk);
        sums.add_chunk(&chunk, a3, a4);
        if let Some(own_heat) = &own_heat {
            // SAFETY: as above, the diffusion's checked count too.
            let candidates = unsafe { Diffusing::<S>::load::<ONE_SHARE>(lanes, &chunk) };
            let gain = exchange::<S, ONE_SHARE>(own_heat, &candidates, a3);
            S::accumulate(&mut gained, gain, &chunk);
            heat.add_chunk(&chunk, S::splat(0.0) - gain);
        }
    }
    sums.add_one(i, S::sums_total(sum), S::sums_total(near_sum));
    if CONDUCTS {
        heat.add_one(i, S::sums_total(gained));
    }
}

/// The density sums of one band (`density_pairs`), and the diffusion's exchange into `heat`
/// when it is given.
#[inline(always)]
pub(super) fn density_band_for<S: Lanes>(
    band: Range<usize>,
    stage: &DensityStage,
    sums: &mut PairSums,
    heat: Option<&mut PairSum>,
) {
    let (rows, lanes) = (stage.rows, stage.lanes);
    let minus_inverse_h = S::splat(-1.0 / stage.h);
    let mut no_heat = PairSum {
        start: 0,
        values: &mut [],
    };
    macro_rules! each {
        ($conducts:literal, $one_share:literal, $heat:expr) => {{
            let count = if $conducts {
                diffusion::checked_count(lanes)
            } else {
                lanes.checked_count(&[&lanes.y])
            };
            let heat = $heat;
            for i in band {
                density_pairs::<S, $conducts, $one_share>(
                    &rows[i],
                    lanes,
                    count,
                    i,
                    minus_inverse_h,
                    sums,
                    heat,
                );
            }
        }};
    }
    match heat {
        None => each!(false, false, &mut no_heat),
        Some(heat) if stage.one_share => each!(true, true, &mut *heat),
        Some(heat) => each!(true, false, &mut *heat),
    }
}

#[cfg(test)]
mod tests {
    use super::super::bands::for_each_band;
    use super::super::test_scene::{scene, NOTHING_SAME};
    use super::super::width::every_implementation;
    use super::*;
    use crate::sim::physics::{density_norm, near_density_norm, reference_densities};
    use crate::sim::stages::liquid::Sameness;

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
            // Mixed masses, then one mass: each density is the particle's own mass times its sums.
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
                let stage = DensityStage {
                    rows: &scene.rows,
                    lanes: &scene.lanes,
                    h,
                    one_share: false,
                };
                let mut first_bits = None;
                for loops in every_implementation() {
                    let name = loops.name();
                    // Stale values: `for_each_band` must clear them.
                    let (mut sum, mut near_sum) = (vec![f32::NAN; count], vec![f32::NAN; count]);
                    for_each_band(&scene.bands, &mut sum, &mut near_sum, &|band, sums| {
                        loops.density_band(band, &stage, sums, None)
                    });
                    // Every implementation of the lanes gives the same bits.
                    let bits: Vec<_> = sum.iter().chain(&near_sum).map(|x| x.to_bits()).collect();
                    assert_eq!(
                        first_bits.get_or_insert_with(|| bits.clone()),
                        &bits,
                        "{name}"
                    );
                    for (i, wanted) in expected.iter().enumerate() {
                        let (density, near_density) = (wanted.density, wanted.near_density);
                        let found = sum[i] * (norm * masses[i]);
                        let near_found = near_sum[i] * (near_norm * masses[i]);
                        assert!(
                            (found - density).abs() < 1e-4 * masses[i] * (norm + density)
                                && (near_found - near_density).abs()
                                    < 1e-4 * masses[i] * (near_norm + near_density),
                            "{name}, {same:?}, particle {i} of {count}: \
                             {found} vs {density}, {near_found} vs {near_density}"
                        );
                    }
                }
            }
        }
    }
}
