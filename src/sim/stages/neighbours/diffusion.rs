//! The diffusion's pair law and its own pair loop: a value per particle (the heat's
//! temperature, `sim::subsystems::heat`) spread along every pair closer than h, each pair once,
//! what one end gains the other loses (Cleary and Monaghan 1999's pair form,
//! `physics::conductance`, with the density kernel as the Laplacian's,
//! `physics::conduction_kernel`).
//!
//! The density stage's pair loop runs the law fused with its own (`density.rs`): the pair's a³
//! is already there, so a substep's exchange costs a load and a few operations per pair. This
//! loop runs the exchange alone, for the cycles a substep too long for an explicit exchange is
//! cut into after the first (`Neighbours::diffuse_again`). `physics::reference_conduction` is
//! the same law, pair by pair.
//!
//! What a loop adds up for particle i is Σ_j a³ H (v_j − v_i): H the harmonic mean of the two
//! shares 2 A_i A_j / (A_i + A_j) (one division per pair), or 1 where every particle has the
//! same share (`ONE_SHARE`: one material, no division). The caller multiplies by the constants
//! (Δt, the kernel's norm, V c, the share where there is one, over the particle's m c).

use super::super::grid::ForwardRows;
use super::bands::PairSum;
use super::chunks::Chunks;
use super::lanes::{weights, LaneData};
use crate::sim::numerics::simd::{Chunk, Lanes};
use std::ops::Range;

/// Added to a pair's sum of shares, so that two particles that do not conduct (both 0)
/// exchange 0 rather than 0 / 0. Far below any share a liquid has.
const TINY: f32 = 1.0e-30;

/// One end of a pair in the diffusion: a particle's lanes (or a group's).
pub(super) struct Diffusing<S> {
    value: S,
    share: S,
}

impl<S: Lanes> Diffusing<S> {
    /// Particle `i` in every lane.
    #[inline(always)]
    pub(super) fn own(lanes: &LaneData, i: usize) -> Self {
        Self {
            value: S::splat(lanes.diffused[i]),
            share: S::splat(lanes.diffusion_share[i]),
        }
    }

    /// The candidates of `chunk` (their shares only when they may differ).
    ///
    /// # Safety
    /// Every group of `chunk` starts before `checked_count(lanes)`.
    #[inline(always)]
    pub(super) unsafe fn load<const ONE_SHARE: bool>(lanes: &LaneData, chunk: &Chunk) -> Self {
        // SAFETY: both diffusion fields hold checked_count + LANES values (`checked_count`).
        unsafe {
            Self {
                value: S::load_chunk(&lanes.diffused, chunk),
                share: if ONE_SHARE {
                    S::splat(0.0)
                } else {
                    S::load_chunk(&lanes.diffusion_share, chunk)
                },
            }
        }
    }
}

/// The particles a range may index in a loop that reads the diffusion's lanes (and x and y).
pub(super) fn checked_count(lanes: &LaneData) -> usize {
    lanes.checked_count(&[&lanes.y, &lanes.diffused, &lanes.diffusion_share])
}

/// What `own` gains from `other`, a³ H (v_j − v_i), for the pairs' a³ (zero on lanes that are no
/// pair). `ONE_SHARE`: every particle has one share, H is 1.
#[inline(always)]
pub(super) fn exchange<S: Lanes, const ONE_SHARE: bool>(
    own: &Diffusing<S>,
    other: &Diffusing<S>,
    a3: S,
) -> S {
    let weight = if ONE_SHARE {
        a3
    } else {
        let shares = own.share + other.share + S::splat(TINY);
        a3 * (S::splat(2.0) * own.share * other.share / shares)
    };
    weight * (other.value - own.value)
}

/// What the diffusion pass of every band reads.
pub struct DiffusionStage<'a> {
    /// Each particle's forward candidates.
    pub rows: &'a [ForwardRows],
    /// The particles' values (positions and the diffusion's lanes).
    pub lanes: &'a LaneData,
    /// Interaction radius h.
    pub h: f32,
    /// Every particle has one share (one material).
    pub one_share: bool,
}

/// The exchange of particle `i` with its forward candidates, added to both ends.
#[inline(always)]
fn diffusion_pairs<S: Lanes, const ONE_SHARE: bool>(
    rows: &ForwardRows,
    lanes: &LaneData,
    count: usize,
    i: usize,
    minus_inverse_h: S,
    sums: &mut PairSum,
) {
    let (xi, yi) = (S::splat(lanes.x[i]), S::splat(lanes.y[i]));
    let own = Diffusing::<S>::own(lanes, i);
    let mut gained = S::no_sums();
    let mut chunks = Chunks::new(rows, count);
    while let Some(chunk) = chunks.next::<S>() {
        // SAFETY: every group of the chunk starts before count (`checked_count`).
        let (x, y, other) = unsafe {
            (
                S::load_chunk(&lanes.x, &chunk),
                S::load_chunk(&lanes.y, &chunk),
                Diffusing::load::<ONE_SHARE>(lanes, &chunk),
            )
        };
        let (dx, dy) = (x - xi, y - yi);
        let r = (dx * dx + dy * dy).sqrt();
        let a = weights(r, minus_inverse_h, S::valid_lanes(&chunk));
        let gain = exchange::<S, ONE_SHARE>(&own, &other, a * a * a);
        S::accumulate(&mut gained, gain, &chunk);
        sums.add_chunk(&chunk, S::splat(0.0) - gain);
    }
    sums.add_one(i, S::sums_total(gained));
}

/// The diffusion pass of one band (`diffusion_pairs`).
#[inline(always)]
pub(super) fn diffusion_band_for<S: Lanes>(
    band: Range<usize>,
    stage: &DiffusionStage,
    sums: &mut PairSum,
) {
    let minus_inverse_h = S::splat(-1.0 / stage.h);
    let count = checked_count(stage.lanes);
    let (rows, lanes) = (stage.rows, stage.lanes);
    if stage.one_share {
        for i in band {
            diffusion_pairs::<S, true>(&rows[i], lanes, count, i, minus_inverse_h, sums);
        }
    } else {
        for i in band {
            diffusion_pairs::<S, false>(&rows[i], lanes, count, i, minus_inverse_h, sums);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::bands::{run_phase, Band};
    use super::super::test_scene::{conducting, scene, NOTHING_SAME};
    use super::super::width::every_implementation;
    use super::*;
    use crate::sim::numerics::portable::Ordered;
    use crate::sim::physics::{conduction_norm, reference_conduction};

    /// The diffusion pass gives `physics::reference_conduction`'s heat at every lane width (the
    /// same bits at each), with mixed shares and with one, and heat is conserved to rounding.
    #[test]
    fn diffusion_pairs_match_the_reference_at_every_lane_width() {
        let h = 0.3;
        for (count, size, seed) in [(1, 1.0, 1), (300, 1.0, 2), (2000, 4.0, 3)] {
            for one_share in [false, true] {
                let mut scene = scene(count, size, 1.0, h, seed, NOTHING_SAME);
                let (particles, scale) = conducting(&mut scene, one_share);
                let expected = reference_conduction(&particles, h, scale);
                let stage = DiffusionStage {
                    rows: &scene.rows,
                    lanes: &scene.lanes,
                    h,
                    one_share,
                };
                let largest = expected
                    .iter()
                    .map(|g| g.abs())
                    .fold(0.0, crate::sim::numerics::portable::max);
                // The loops leave out the constants (and the share, when there is one).
                let constant =
                    conduction_norm(h) * scale * if one_share { particles[0].share } else { 1.0 };
                let mut first_bits = None;
                for loops in every_implementation() {
                    let name = loops.name();
                    let mut gained = vec![f32::NAN; count];
                    for phase in 0..2 {
                        run_phase(&scene.bands, phase, &mut gained[..], &|band: Band, w| {
                            let mut sums = PairSum::clearing(&band, w);
                            loops.diffusion_band(band.particles, &stage, &mut sums);
                        });
                    }
                    let bits: Vec<_> = gained.iter().map(|v| v.to_bits()).collect();
                    assert_eq!(
                        first_bits.get_or_insert_with(|| bits.clone()),
                        &bits,
                        "{name}"
                    );
                    for (i, wanted) in expected.iter().enumerate() {
                        let found = gained[i] * constant;
                        assert!(
                            (found - wanted).abs() <= 1e-4 * largest,
                            "{name}, particle {i} of {count}: {found} vs {wanted}"
                        );
                    }
                    let net: f64 = gained.iter().map(|&g| f64::from(g)).sum();
                    let moved: f64 = gained.iter().map(|&g| f64::from(g.abs())).sum();
                    assert!(
                        net.abs() <= 1e-5 * moved.at_least(1e-30),
                        "{net} of {moved}"
                    );
                }
            }
        }
    }
}
