//! The few SIMD operations the neighbour sums need, over lanes of f32, in two widths: four
//! lanes (`wide::f32x4`: SSE2 on every x86-64, NEON on ARM64, plain code elsewhere) and, on
//! x86-64 CPUs that have AVX and FMA, eight (`Avx`), chosen at run time. No CPU-specific build
//! flag is needed. All is exact IEEE arithmetic but `inverse_sqrt`, which refines the CPU's own
//! estimate; so results agree across thread counts and runs on one machine, not between CPU
//! makers or between CPUs with and without AVX (the two widths also add in different orders).

use std::ops::{Add, AddAssign, BitAnd, Div, Mul, Sub};
use wide::f32x4;

/// A vector of f32 lanes. Comparisons give masks (all bits set or clear per lane) of the same
/// type, to be combined with `&`.
pub trait Lanes:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + BitAnd<Output = Self>
    + AddAssign
{
    /// Number of lanes.
    const WIDTH: usize;
    /// Every lane `value`.
    fn splat(value: f32) -> Self;
    /// `WIDTH` values of `field` from `base` on.
    ///
    /// # Safety
    /// `base + WIDTH <= field.len()`.
    unsafe fn load(field: &[f32], base: usize) -> Self;
    /// Writes the lanes to `field[base..base + WIDTH]`.
    ///
    /// # Safety
    /// `base + WIDTH <= field.len()`.
    unsafe fn store(self, field: &mut [f32], base: usize);
    /// Lane-wise self × factor + addend, rounded once where the CPU fuses it.
    fn mul_add(self, factor: Self, addend: Self) -> Self;
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// Lane-wise estimate of 1 / √x (about 12 bits; infinite at 0).
    fn inverse_sqrt_estimate(self) -> Self;
    /// Lane-wise 1 / √x to about 22 bits: the estimate refined by one Newton step, many times
    /// cheaper than a square root and a division. The estimate is the CPU's own, so the last
    /// bits may differ between CPU makers (never between runs or thread counts on one CPU).
    #[inline(always)]
    fn inverse_sqrt(self) -> Self {
        let estimate = self.inverse_sqrt_estimate();
        estimate * (Self::splat(-0.5) * self * estimate).mul_add(estimate, Self::splat(1.5))
    }
    /// Lane-wise maximum (either value where one is NaN).
    fn max(self, other: Self) -> Self;
    /// Mask of lanes where `self < other`.
    fn less(self, other: Self) -> Self;
    /// Mask of lanes where `self > other`.
    fn greater(self, other: Self) -> Self;
    /// Mask of lanes where `self == other`.
    fn equal(self, other: Self) -> Self;
    /// Mask of the first `count` lanes (all of them when `count >= WIDTH`).
    fn first_lanes(count: usize) -> Self;
    /// Sum of the lanes, in a fixed order.
    fn total(self) -> f32;
    /// The first lane.
    fn first(self) -> f32;
    /// Whether any lane of a mask is set.
    fn any(self) -> bool;
}

/// Masks of the first k of 4 lanes.
const FIRST_OF_FOUR: [f32x4; 5] = {
    let on = f32::from_bits(u32::MAX);
    [
        f32x4::new([0.0, 0.0, 0.0, 0.0]),
        f32x4::new([on, 0.0, 0.0, 0.0]),
        f32x4::new([on, on, 0.0, 0.0]),
        f32x4::new([on, on, on, 0.0]),
        f32x4::new([on, on, on, on]),
    ]
};

impl Lanes for f32x4 {
    const WIDTH: usize = 4;

    #[inline(always)]
    fn splat(value: f32) -> Self {
        f32x4::splat(value)
    }

    #[inline(always)]
    unsafe fn load(field: &[f32], base: usize) -> Self {
        debug_assert!(base + 4 <= field.len());
        // SAFETY: in bounds by the caller's guarantee; `read_unaligned` needs no alignment.
        f32x4::new(unsafe { field.as_ptr().add(base).cast::<[f32; 4]>().read_unaligned() })
    }

    #[inline(always)]
    unsafe fn store(self, field: &mut [f32], base: usize) {
        debug_assert!(base + 4 <= field.len());
        // SAFETY: in bounds by the caller's guarantee; `write_unaligned` needs no alignment.
        unsafe {
            field
                .as_mut_ptr()
                .add(base)
                .cast::<[f32; 4]>()
                .write_unaligned(self.to_array())
        }
    }

    #[inline(always)]
    fn mul_add(self, factor: Self, addend: Self) -> Self {
        f32x4::mul_add(self, factor, addend)
    }

    #[inline(always)]
    fn sqrt(self) -> Self {
        f32x4::sqrt(self)
    }

    #[inline(always)]
    fn inverse_sqrt_estimate(self) -> Self {
        self.recip_sqrt()
    }

    #[inline(always)]
    fn max(self, other: Self) -> Self {
        self.fast_max(other)
    }

    #[inline(always)]
    fn less(self, other: Self) -> Self {
        self.simd_lt(other)
    }

    #[inline(always)]
    fn greater(self, other: Self) -> Self {
        self.simd_gt(other)
    }

    #[inline(always)]
    fn equal(self, other: Self) -> Self {
        self.simd_eq(other)
    }

    #[inline(always)]
    fn first_lanes(count: usize) -> Self {
        FIRST_OF_FOUR[count.min(4)]
    }

    #[inline(always)]
    fn total(self) -> f32 {
        self.reduce_add()
    }

    #[inline(always)]
    fn first(self) -> f32 {
        self.to_array()[0]
    }

    #[inline(always)]
    fn any(self) -> bool {
        f32x4::any(self)
    }
}

#[cfg(target_arch = "x86_64")]
pub use avx::Avx;

#[cfg(target_arch = "x86_64")]
mod avx {
    //! Eight lanes with AVX and FMA. Every method is `inline(always)` so that it is compiled
    //! inside a caller that enables both (`#[target_feature(enable = "avx,fma")]`); only call
    //! them there, after checking `is_x86_feature_detected!` for both.

    use super::Lanes;
    use std::arch::x86_64::*;
    use std::ops::{Add, AddAssign, BitAnd, Div, Mul, Sub};

    /// Eight f32 lanes in one AVX register (fused multiply-adds need FMA too).
    #[derive(Clone, Copy, Debug)]
    pub struct Avx(__m256);

    /// Eight set masks then eight clear ones: eight lanes from `8 - k` on are the mask of the
    /// first k lanes.
    static FIRST_OF_EIGHT: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];

    macro_rules! binary {
        ($trait:ident, $method:ident, $intrinsic:ident) => {
            impl $trait for Avx {
                type Output = Avx;
                #[inline(always)]
                fn $method(self, other: Avx) -> Avx {
                    // SAFETY: only compiled into callers that enable AVX (see the module doc).
                    Avx(unsafe { $intrinsic(self.0, other.0) })
                }
            }
        };
    }
    binary!(Add, add, _mm256_add_ps);
    binary!(Sub, sub, _mm256_sub_ps);
    binary!(Mul, mul, _mm256_mul_ps);
    binary!(Div, div, _mm256_div_ps);
    binary!(BitAnd, bitand, _mm256_and_ps);

    impl AddAssign for Avx {
        #[inline(always)]
        fn add_assign(&mut self, other: Avx) {
            *self = *self + other;
        }
    }

    // SAFETY (every block below): only compiled into callers that enable AVX.
    impl Lanes for Avx {
        const WIDTH: usize = 8;

        #[inline(always)]
        fn splat(value: f32) -> Self {
            Avx(unsafe { _mm256_set1_ps(value) })
        }

        #[inline(always)]
        unsafe fn load(field: &[f32], base: usize) -> Self {
            debug_assert!(base + 8 <= field.len());
            // SAFETY: in bounds by the caller's guarantee; loadu needs no alignment.
            Avx(unsafe { _mm256_loadu_ps(field.as_ptr().add(base)) })
        }

        #[inline(always)]
        unsafe fn store(self, field: &mut [f32], base: usize) {
            debug_assert!(base + 8 <= field.len());
            // SAFETY: in bounds by the caller's guarantee; storeu needs no alignment.
            unsafe { _mm256_storeu_ps(field.as_mut_ptr().add(base), self.0) }
        }

        #[inline(always)]
        fn mul_add(self, factor: Self, addend: Self) -> Self {
            Avx(unsafe { _mm256_fmadd_ps(self.0, factor.0, addend.0) })
        }

        #[inline(always)]
        fn sqrt(self) -> Self {
            Avx(unsafe { _mm256_sqrt_ps(self.0) })
        }

        #[inline(always)]
        fn inverse_sqrt_estimate(self) -> Self {
            Avx(unsafe { _mm256_rsqrt_ps(self.0) })
        }

        #[inline(always)]
        fn max(self, other: Self) -> Self {
            Avx(unsafe { _mm256_max_ps(self.0, other.0) })
        }

        #[inline(always)]
        fn less(self, other: Self) -> Self {
            Avx(unsafe { _mm256_cmp_ps::<_CMP_LT_OQ>(self.0, other.0) })
        }

        #[inline(always)]
        fn greater(self, other: Self) -> Self {
            Avx(unsafe { _mm256_cmp_ps::<_CMP_GT_OQ>(self.0, other.0) })
        }

        #[inline(always)]
        fn equal(self, other: Self) -> Self {
            Avx(unsafe { _mm256_cmp_ps::<_CMP_EQ_OQ>(self.0, other.0) })
        }

        #[inline(always)]
        fn first_lanes(count: usize) -> Self {
            let start = 8 - count.min(8);
            let mask = &FIRST_OF_EIGHT[start..start + 8];
            Avx(unsafe { _mm256_loadu_ps(mask.as_ptr().cast::<f32>()) })
        }

        #[inline(always)]
        fn total(self) -> f32 {
            // (lanes 0–3 + lanes 4–7), then the four sums in order.
            let halves = unsafe {
                _mm_add_ps(
                    _mm256_castps256_ps128(self.0),
                    _mm256_extractf128_ps::<1>(self.0),
                )
            };
            let mut sums = [0.0_f32; 4];
            unsafe { _mm_storeu_ps(sums.as_mut_ptr(), halves) };
            sums.iter().sum()
        }

        #[inline(always)]
        fn first(self) -> f32 {
            unsafe { _mm256_cvtss_f32(self.0) }
        }

        #[inline(always)]
        fn any(self) -> bool {
            unsafe { _mm256_movemask_ps(self.0) != 0 }
        }
    }
}
