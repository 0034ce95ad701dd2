//! The lane width of the pair loops: eight lanes with AVX and FMA where the CPU has both
//! (detected at run time), else four (`wide::f32x4`: SSE2, NEON). No CPU-specific build flags.

use super::bands::PairSums;
use super::density::{density_band_for, DensityStage};
use super::relax::{relaxation_band_for, RelaxStage};
use std::ops::Range;

/// The pair loops of one band of particles, compiled for one lane width.
pub trait PairLoops: Sync {
    /// The density sums of every particle of `band`.
    fn density_band(&self, band: Range<usize>, stage: &DensityStage, sums: &mut PairSums);
    /// The relaxation of every particle of `band`.
    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums);
}

/// The widest pair loops this CPU runs: 8 lanes with AVX and FMA, else 4.
pub fn widest() -> &'static dyn PairLoops {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") && std::arch::is_x86_feature_detected!("fma") {
        return &AvxLoops;
    }
    &FourLanes
}

/// Every lane width this CPU runs, with its width (for tests).
#[cfg(test)]
pub fn every_width() -> [(usize, &'static dyn PairLoops); 2] {
    let widest_width = if std::ptr::addr_eq(widest(), &FourLanes as &dyn PairLoops) {
        4
    } else {
        8
    };
    [(4, &FourLanes), (widest_width, widest())]
}

/// Four lanes (`wide::f32x4`).
struct FourLanes;

impl PairLoops for FourLanes {
    fn density_band(&self, band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
        density_band_for::<wide::f32x4>(band, stage, sums);
    }

    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        relaxation_band_for::<wide::f32x4>(band, stage, sums);
    }
}

/// Eight lanes with AVX and FMA; only handed out by `widest()` after checking the CPU has both.
#[cfg(target_arch = "x86_64")]
struct AvxLoops;

#[cfg(target_arch = "x86_64")]
impl AvxLoops {
    #[target_feature(enable = "avx,fma")]
    fn density_band_avx(band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
        density_band_for::<super::super::simd::Avx>(band, stage, sums);
    }

    #[target_feature(enable = "avx,fma")]
    fn relaxation_band_avx(band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        relaxation_band_for::<super::super::simd::Avx>(band, stage, sums);
    }
}

#[cfg(target_arch = "x86_64")]
impl PairLoops for AvxLoops {
    fn density_band(&self, band: Range<usize>, stage: &DensityStage, sums: &mut PairSums) {
        // SAFETY: `widest()` hands out `AvxLoops` only when the CPU has AVX and FMA.
        unsafe { Self::density_band_avx(band, stage, sums) }
    }

    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        // SAFETY: as above.
        unsafe { Self::relaxation_band_avx(band, stage, sums) }
    }
}
