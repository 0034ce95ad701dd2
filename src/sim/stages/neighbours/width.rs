//! Which implementation of the groups of eight lanes (`simd`) runs the pair loops: two groups
//! side by side in one AVX-512 register on x86-64 CPUs that have AVX-512 F and DQ, one AVX
//! register on those that have AVX (both detected at run time), else two parts of four, one after
//! the other (SSE2, NEON, wasm `simd128`). All give the same bits; the choice is speed only. No
//! CPU-specific build flags.
//!
//! The environment variable `SLOSH_LANES` forces a narrower choice on any CPU that has it:
//! `SLOSH_LANES=4` the parts of four, `SLOSH_LANES=8` one AVX register, so that one machine can
//! check that all give the same results (the golden checksums run all three).

use super::bands::{PairSum, PairSums};
use super::density::{density_band_for, DensityStage};
use super::diffusion::{diffusion_band_for, DiffusionStage};
use super::pressures::{pressures_for, DensityOutputs, PressureStage};
use super::relax::{relaxation_band_for, RelaxStage};
use std::ops::Range;
use std::sync::OnceLock;

/// The environment variable that forces the parts of four (`SLOSH_LANES=4`) or one AVX register
/// (`SLOSH_LANES=8`).
pub const LANES_VARIABLE: &str = "SLOSH_LANES";

/// The pair loops of one band of particles, compiled for one implementation of the lanes.
pub trait PairLoops: Sync {
    /// The density sums of every particle of `band`, and the diffusion's exchange fused into
    /// them when `heat` is given.
    fn density_band(
        &self,
        band: Range<usize>,
        stage: &DensityStage,
        sums: &mut PairSums,
        heat: Option<&mut PairSum>,
    );
    /// The density stage's finish of the particles `done`, their sums complete, whose outputs
    /// lie in `outputs` from sorted index `start` on.
    fn pressures(
        &self,
        done: Range<usize>,
        start: usize,
        stage: &PressureStage,
        outputs: &mut DensityOutputs,
    );
    /// The relaxation of every particle of `band`.
    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums);
    /// The diffusion's exchange alone for every particle of `band`.
    fn diffusion_band(&self, band: Range<usize>, stage: &DiffusionStage, sums: &mut PairSum);
    /// What runs the lanes, for reports: "avx512", "avx", or "2x4 sse2", "2x4 neon",
    /// "2x4 simd128", "2x4 scalar".
    fn name(&self) -> &'static str;
}

/// The pair loops this process runs: the widest this CPU has (AVX-512, AVX, the parts of four),
/// or the narrower one `SLOSH_LANES` asks for (4, or 8 where the CPU has AVX). Chosen once.
pub fn chosen() -> &'static dyn PairLoops {
    static CHOSEN: OnceLock<&'static dyn PairLoops> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        let forced = std::env::var(LANES_VARIABLE).unwrap_or_default();
        match forced.trim() {
            "4" => &FourByTwo,
            "8" => avx().unwrap_or(&FourByTwo),
            _ => avx512().or_else(avx).unwrap_or(&FourByTwo),
        }
    })
}

/// Every implementation this CPU runs (for tests: they must agree bit for bit).
#[cfg(test)]
pub fn every_implementation() -> Vec<&'static dyn PairLoops> {
    let mut all: Vec<&'static dyn PairLoops> = vec![&FourByTwo];
    all.extend(avx());
    all.extend(avx512());
    all
}

/// The AVX loops, when this CPU has AVX.
fn avx() -> Option<&'static dyn PairLoops> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx") {
        return Some(&AvxLoops);
    }
    None
}

/// The AVX-512 loops, when this CPU has AVX-512 F and DQ.
fn avx512() -> Option<&'static dyn PairLoops> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512dq")
    {
        return Some(&Avx512Loops);
    }
    None
}

/// A group as two parts of four lanes (`wide::f32x4`), one after the other.
struct FourByTwo;

impl PairLoops for FourByTwo {
    fn density_band(
        &self,
        band: Range<usize>,
        stage: &DensityStage,
        sums: &mut PairSums,
        heat: Option<&mut PairSum>,
    ) {
        density_band_for::<wide::f32x4>(band, stage, sums, heat);
    }

    fn pressures(
        &self,
        done: Range<usize>,
        start: usize,
        stage: &PressureStage,
        outputs: &mut DensityOutputs,
    ) {
        pressures_for::<wide::f32x4>(done, start, stage, outputs);
    }

    fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
        relaxation_band_for::<wide::f32x4>(band, stage, sums);
    }

    fn diffusion_band(&self, band: Range<usize>, stage: &DiffusionStage, sums: &mut PairSum) {
        diffusion_band_for::<wide::f32x4>(band, stage, sums);
    }

    fn name(&self) -> &'static str {
        if cfg!(target_arch = "x86_64") {
            "2x4 sse2"
        } else if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
            "2x4 neon"
        } else if cfg!(all(target_arch = "wasm32", target_feature = "simd128")) {
            "2x4 simd128"
        } else {
            "2x4 scalar"
        }
    }
}

/// The pair loops compiled for one x86-64 implementation of the lanes, `$lanes`, inside
/// functions that enable `$features`; `$name` reports it. The type is only handed out after
/// checking the CPU has those features (`avx()`, `avx512()`), which is what makes the calls
/// below sound.
#[cfg(target_arch = "x86_64")]
macro_rules! x86_loops {
    ($(#[doc = $doc:literal])* $loops:ident, $lanes:ty, $features:literal, $name:literal) => {
        $(#[doc = $doc])*
        struct $loops;

        impl $loops {
            #[target_feature(enable = $features)]
            fn density_band_enabled(
                band: Range<usize>,
                stage: &DensityStage,
                sums: &mut PairSums,
                heat: Option<&mut PairSum>,
            ) {
                density_band_for::<$lanes>(band, stage, sums, heat);
            }

            #[target_feature(enable = $features)]
            fn pressures_enabled(
                done: Range<usize>,
                start: usize,
                stage: &PressureStage,
                outputs: &mut DensityOutputs,
            ) {
                pressures_for::<$lanes>(done, start, stage, outputs);
            }

            #[target_feature(enable = $features)]
            fn relaxation_band_enabled(
                band: Range<usize>,
                stage: &RelaxStage,
                sums: &mut PairSums,
            ) {
                relaxation_band_for::<$lanes>(band, stage, sums);
            }

            #[target_feature(enable = $features)]
            fn diffusion_band_enabled(
                band: Range<usize>,
                stage: &DiffusionStage,
                sums: &mut PairSum,
            ) {
                diffusion_band_for::<$lanes>(band, stage, sums);
            }
        }

        impl PairLoops for $loops {
            fn density_band(
                &self,
                band: Range<usize>,
                stage: &DensityStage,
                sums: &mut PairSums,
                heat: Option<&mut PairSum>,
            ) {
                // SAFETY: this type is only handed out when the CPU has `$features`.
                unsafe { Self::density_band_enabled(band, stage, sums, heat) }
            }

            fn pressures(
                &self,
                done: Range<usize>,
                start: usize,
                stage: &PressureStage,
                outputs: &mut DensityOutputs,
            ) {
                // SAFETY: as above.
                unsafe { Self::pressures_enabled(done, start, stage, outputs) }
            }

            fn relaxation_band(&self, band: Range<usize>, stage: &RelaxStage, sums: &mut PairSums) {
                // SAFETY: as above.
                unsafe { Self::relaxation_band_enabled(band, stage, sums) }
            }

            fn diffusion_band(
                &self,
                band: Range<usize>,
                stage: &DiffusionStage,
                sums: &mut PairSum,
            ) {
                // SAFETY: as above.
                unsafe { Self::diffusion_band_enabled(band, stage, sums) }
            }

            fn name(&self) -> &'static str {
                $name
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
x86_loops!(
    /// One AVX register of eight lanes; only handed out by `avx()` after checking the CPU has
    /// AVX.
    AvxLoops,
    crate::sim::numerics::simd::Avx,
    "avx",
    "avx"
);

#[cfg(target_arch = "x86_64")]
x86_loops!(
    /// Two groups side by side in one AVX-512 register; only handed out by `avx512()` after
    /// checking the CPU has AVX-512 F and DQ.
    Avx512Loops,
    crate::sim::numerics::simd::Avx512,
    "avx512f,avx512dq",
    "avx512"
);
