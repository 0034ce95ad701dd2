//! The lanes of the pair loops: groups of eight candidates on every CPU, so that every sum
//! receives the same values in the same order everywhere, and a run gives the same bits on any
//! machine.
//!
//! Three implementations give identical bits, chosen at run time (`neighbours::width`):
//!
//! - [`Avx512`]: two groups side by side in one 512-bit register, on x86-64 CPUs with AVX-512 F
//!   and DQ. Each lane sees the operations of its lane in a group of eight, and the running sums
//!   of the even groups and of the odd ones lie side by side too ([`Lanes::accumulate`]): twice
//!   the work per instruction, the same bits;
//! - [`Avx`]: a group in one 256-bit register, on x86-64 CPUs with AVX;
//! - `wide::f32x4`: a group as two parts of four lanes, one after the other (SSE2 on every
//!   x86-64, NEON on ARM64, `simd128` in the web page, plain code elsewhere). Lane k of a group
//!   sees exactly the operations it sees in the AVX register; doing one part after the other,
//!   rather than both together, halves the registers a pair needs (the page's compiler spilled
//!   them).
//!
//! Each operation is a correctly rounded IEEE 754 operation lane by lane (+, −, ×, ÷, √ and
//! comparisons), so its result does not depend on the hardware. What could depend on it is pinned
//! here:
//!
//! - no fused multiply-add: SSE2 and wasm have none, NEON and FMA fuse, and a fused result rounds
//!   once instead of twice, so `a * b + c` is always written as two operations;
//! - no hardware estimate: the CPU makers' reciprocal square root estimates differ in their last
//!   bits, so 1/r is a square root and a division;
//! - [`Lanes::positive_part`] is max(x, 0) with one answer for −0 and NaN (+0), where the
//!   instructions of the targets disagree;
//! - [`Lanes::total`] adds a group's eight lanes in one fixed order;
//! - [`Lanes::accumulate`] adds the groups of a particle into its running sums, sixteen of
//!   them: lane k of its even groups (the first, third, … it reads) into one, of its odd groups
//!   into another, each in the order the groups are read, whatever the width (a sum that starts
//!   at +0 never becomes −0, so the +0 of lanes that hold no candidate changes no sum).
//!   [`Lanes::sums_total`] adds them in one fixed order. Two sums a lane, rather than one, let
//!   sixteen lanes add a chunk with one instruction.

use std::ops::{Add, AddAssign, BitAnd, Div, Mul, Sub};
use wide::f32x4;

/// Candidates per group, on every CPU.
pub const WIDTH: usize = 8;

/// What one value of lanes reads: a part of a group (four lanes), a group (eight), or two
/// groups side by side (sixteen), each group being `WIDTH` consecutive candidates from its base.
/// Lanes past a group's `valid` candidates lie past the end of its range and must add nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Chunk {
    /// First candidate of each group (of a part, for four lanes); the second only for
    /// sixteen lanes.
    pub base: [usize; 2],
    /// Candidates from each base on still inside its range (0 for a second group that is
    /// absent: then its lanes add nothing).
    pub valid: [usize; 2],
    /// Which of the running sums the value adds to (`Lanes::accumulate`): for four lanes,
    /// 2 × the group's parity (0 for the particle's even groups, 1 for its odd ones) + the
    /// part; for eight, the parity; for sixteen, 0 (its groups are an even one and the next).
    pub slot: usize,
}

/// A particle's running sums in a pair loop (`Lanes::accumulate`), as values of lanes: for four
/// lanes the even groups' two parts, then the odd groups'; for eight the even groups', then the
/// odd groups' (the rest unused); for sixteen both side by side in the first.
pub type Sums<S> = [S; 4];

/// Lanes of f32 (`LANES` of them, a group or a part of one). Comparisons give masks (all bits
/// set or clear per lane) of the same type, to be combined with `&`.
pub trait Lanes:
    Copy
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + BitAnd<Output = Self>
    + AddAssign
{
    /// Lanes in one value: 16 (two groups side by side), 8 (a whole group) or 4.
    const LANES: usize;
    /// Values a group of [`WIDTH`] candidates takes, one after the other: 1 or 2.
    const PARTS: usize = WIDTH / Self::LANES;
    /// Groups one value holds side by side: 1, or 2 for sixteen lanes (`Chunk`).
    const GROUPS: usize = 1;
    /// One group's lanes (or one part's) as a value of their own: `Self`, or eight lanes for
    /// sixteen.
    type Group: Lanes;
    /// Every lane `value`.
    fn splat(value: f32) -> Self;
    /// `LANES` values of `field` from `base` on.
    ///
    /// # Safety
    /// `base + LANES <= field.len()`.
    unsafe fn load(field: &[f32], base: usize) -> Self;
    /// Writes the lanes to `field[base..base + LANES]`.
    ///
    /// # Safety
    /// `base + LANES <= field.len()`.
    unsafe fn store(self, field: &mut [f32], base: usize);
    /// Lane-wise square root.
    fn sqrt(self) -> Self;
    /// Lane-wise max(x, 0): x where x > 0, else +0 (also for −0 and NaN).
    fn positive_part(self) -> Self;
    /// Mask of lanes where `self < other`.
    fn less(self, other: Self) -> Self;
    /// Mask of lanes where `self > other`.
    fn greater(self, other: Self) -> Self;
    /// Mask of lanes where `self == other`.
    fn equal(self, other: Self) -> Self;
    /// Mask of the first `count` lanes (all of them when `count >= LANES`).
    fn first_lanes(count: usize) -> Self;
    /// Sum of a group's eight lanes, given as its `PARTS` values (the rest of `parts` unused),
    /// in a fixed order: s_k = lane k + lane k + 4 for k < 4, then (s₀ + s₁) + (s₂ + s₃).
    fn total(parts: [Self; 2]) -> f32;
    /// The values of `field` the lanes of `chunk` read (`Chunk`).
    ///
    /// # Safety
    /// `chunk.base[k] + WIDTH <= field.len()` for each of the `GROUPS` groups.
    #[inline(always)]
    unsafe fn load_chunk(field: &[f32], chunk: &Chunk) -> Self {
        // SAFETY: as the caller guarantees, and `LANES <= WIDTH` here.
        unsafe { Self::load(field, chunk.base[0]) }
    }
    /// Mask of the lanes of `chunk` that hold a candidate inside its range.
    #[inline(always)]
    fn valid_lanes(chunk: &Chunk) -> Self {
        Self::first_lanes(chunk.valid[0])
    }
    /// Running sums at zero.
    #[inline(always)]
    fn no_sums() -> Sums<Self> {
        [Self::splat(0.0); 4]
    }
    /// Adds a chunk's value to the running sums of its lanes (`sums[chunk.slot]`, as
    /// `sums_total` reads them), so that lane k of the particle's even groups adds into one sum
    /// and of its odd groups into another, each in the groups' order, whatever the width.
    #[inline(always)]
    fn accumulate(sums: &mut Sums<Self>, value: Self, chunk: &Chunk) {
        // A branch per slot rather than an index, so that the sums stay in registers.
        match chunk.slot {
            0 => sums[0] += value,
            1 => sums[1] += value,
            2 => sums[2] += value,
            _ => sums[3] += value,
        }
    }
    /// Takes a chunk's value away from the running sums of its lanes, as `accumulate` adds:
    /// the same bits as accumulating −`value` (x − y is exactly x + (−y)).
    #[inline(always)]
    fn take_away(sums: &mut Sums<Self>, value: Self, chunk: &Chunk) {
        match chunk.slot {
            0 => sums[0] = sums[0] - value,
            1 => sums[1] = sums[1] - value,
            2 => sums[2] = sums[2] - value,
            _ => sums[3] = sums[3] - value,
        }
    }
    /// The total of running sums, in a fixed order: lane k's even sum + its odd sum, then
    /// `total` of those eight.
    fn sums_total(sums: Sums<Self>) -> f32;
    /// The value's groups, as `GROUPS` values of eight lanes (or the one part; the rest
    /// unused).
    fn groups(self) -> [Self::Group; 2];
    /// The first lane.
    fn first(self) -> f32;
    /// Whether any lane of a mask is set.
    fn any(self) -> bool;
}

/// (s₀ + s₁) + (s₂ + s₃): the last additions of [`Lanes::total`].
#[inline(always)]
fn add_four(sums: [f32; 4]) -> f32 {
    (sums[0] + sums[1]) + (sums[2] + sums[3])
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
    const LANES: usize = 4;
    type Group = f32x4;

    #[inline(always)]
    fn groups(self) -> [Self; 2] {
        [self, self]
    }

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
    fn sqrt(self) -> Self {
        f32x4::sqrt(self)
    }

    #[inline(always)]
    fn positive_part(self) -> Self {
        // A comparison and a mask: the same on every target (`wide`'s max is not: on wasm it
        // keeps −0, on NEON it keeps NaN).
        self & self.simd_gt(f32x4::splat(0.0))
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
    fn total(parts: [Self; 2]) -> f32 {
        add_four((parts[0] + parts[1]).to_array())
    }

    #[inline(always)]
    fn sums_total(sums: Sums<Self>) -> f32 {
        Self::total([sums[0] + sums[2], sums[1] + sums[3]])
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

/// `impl $trait for $lanes` (a wrapper of one x86 register) by the lane-wise `$intrinsic`, for the
/// modules below. Only compiled into callers that enable the intrinsic's features (see each
/// module's doc).
#[cfg(target_arch = "x86_64")]
macro_rules! binary {
    ($lanes:ident, $trait:ident, $method:ident, $intrinsic:ident) => {
        impl $trait for $lanes {
            type Output = $lanes;
            #[inline(always)]
            fn $method(self, other: $lanes) -> $lanes {
                // SAFETY: only compiled into callers that enable the intrinsic's features.
                $lanes(unsafe { $intrinsic(self.0, other.0) })
            }
        }
    };
}

#[cfg(target_arch = "x86_64")]
pub use avx::Avx;
#[cfg(target_arch = "x86_64")]
pub use avx512::Avx512;

#[cfg(target_arch = "x86_64")]
mod avx {
    //! A group of eight lanes in one AVX register. Every method is `inline(always)` so that it is
    //! compiled inside a caller that enables AVX (`#[target_feature(enable = "avx")]`); only call
    //! them there, after checking `is_x86_feature_detected!("avx")`.

    use super::{add_four, Lanes, Sums, WIDTH};
    use std::arch::x86_64::*;
    use std::ops::{Add, AddAssign, BitAnd, Div, Mul, Sub};

    /// Eight f32 lanes in one AVX register.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx(pub(super) __m256);

    /// Eight set masks then eight clear ones: eight lanes from `8 - k` on are the mask of the
    /// first k lanes.
    static FIRST_OF_EIGHT: [i32; 16] = [-1, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0, 0, 0, 0, 0];

    binary!(Avx, Add, add, _mm256_add_ps);
    binary!(Avx, Sub, sub, _mm256_sub_ps);
    binary!(Avx, Mul, mul, _mm256_mul_ps);
    binary!(Avx, Div, div, _mm256_div_ps);
    binary!(Avx, BitAnd, bitand, _mm256_and_ps);

    impl AddAssign for Avx {
        #[inline(always)]
        fn add_assign(&mut self, other: Avx) {
            *self = *self + other;
        }
    }

    // SAFETY (every block below): only compiled into callers that enable AVX.
    impl Lanes for Avx {
        const LANES: usize = WIDTH;
        type Group = Avx;

        #[inline(always)]
        fn groups(self) -> [Self; 2] {
            [self, self]
        }

        #[inline(always)]
        fn splat(value: f32) -> Self {
            Avx(unsafe { _mm256_set1_ps(value) })
        }

        #[inline(always)]
        unsafe fn load(field: &[f32], base: usize) -> Self {
            debug_assert!(base + WIDTH <= field.len());
            // SAFETY: in bounds by the caller's guarantee; loadu needs no alignment.
            Avx(unsafe { _mm256_loadu_ps(field.as_ptr().add(base)) })
        }

        #[inline(always)]
        unsafe fn store(self, field: &mut [f32], base: usize) {
            debug_assert!(base + WIDTH <= field.len());
            // SAFETY: in bounds by the caller's guarantee; storeu needs no alignment.
            unsafe { _mm256_storeu_ps(field.as_mut_ptr().add(base), self.0) }
        }

        #[inline(always)]
        fn sqrt(self) -> Self {
            Avx(unsafe { _mm256_sqrt_ps(self.0) })
        }

        #[inline(always)]
        fn positive_part(self) -> Self {
            // maxps(a, b) is `a > b ? a : b`: +0 for −0 and NaN, as the trait says.
            Avx(unsafe { _mm256_max_ps(self.0, _mm256_setzero_ps()) })
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
            let start = WIDTH - count.min(WIDTH);
            let mask = &FIRST_OF_EIGHT[start..start + WIDTH];
            Avx(unsafe { _mm256_loadu_ps(mask.as_ptr().cast::<f32>()) })
        }

        #[inline(always)]
        fn total(parts: [Self; 2]) -> f32 {
            let group = parts[0].0;
            let halves = unsafe {
                _mm_add_ps(
                    _mm256_castps256_ps128(group),
                    _mm256_extractf128_ps::<1>(group),
                )
            };
            let mut sums = [0.0_f32; 4];
            unsafe { _mm_storeu_ps(sums.as_mut_ptr(), halves) };
            add_four(sums)
        }

        #[inline(always)]
        fn sums_total(sums: Sums<Self>) -> f32 {
            Self::total([sums[0] + sums[1]; 2])
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

#[cfg(target_arch = "x86_64")]
mod avx512 {
    //! Two groups of eight lanes side by side in one AVX-512 register. Every lane sees the
    //! operations it sees in a group of eight (`Avx`), and the sums still add group after group
    //! (`accumulate`), so the bits are those of eight lanes; only the work per instruction
    //! doubles. Every method is `inline(always)` so that it is compiled inside a caller that
    //! enables AVX-512 F and DQ (`#[target_feature(enable = "avx512f,avx512dq")]`); only call
    //! them there, after checking that the CPU has both.

    use super::avx::Avx;
    use super::{Chunk, Lanes, Sums, WIDTH};
    use std::arch::x86_64::*;
    use std::ops::{Add, AddAssign, BitAnd, Div, Mul, Sub};

    /// Sixteen f32 lanes in one AVX-512 register: two groups of eight.
    #[derive(Clone, Copy, Debug)]
    pub struct Avx512(__m512);

    binary!(Avx512, Add, add, _mm512_add_ps);
    binary!(Avx512, Sub, sub, _mm512_sub_ps);
    binary!(Avx512, Mul, mul, _mm512_mul_ps);
    binary!(Avx512, Div, div, _mm512_div_ps);
    binary!(Avx512, BitAnd, bitand, _mm512_and_ps);

    impl AddAssign for Avx512 {
        #[inline(always)]
        fn add_assign(&mut self, other: Avx512) {
            *self = *self + other;
        }
    }

    /// A lane mask as a vector: all bits set in the lanes `mask` has.
    #[inline(always)]
    fn spread(mask: __mmask16) -> Avx512 {
        // SAFETY: only compiled into callers that enable AVX-512 (see the module doc).
        Avx512(unsafe { _mm512_castsi512_ps(_mm512_movm_epi32(mask)) })
    }

    /// The mask of the first `count` of eight lanes.
    #[inline(always)]
    fn first_of_eight(count: usize) -> __mmask16 {
        0xff_u16 >> (WIDTH - count.min(WIDTH))
    }

    // SAFETY (every block below): only compiled into callers that enable AVX-512 F and DQ.
    impl Lanes for Avx512 {
        const LANES: usize = 2 * WIDTH;
        const PARTS: usize = 1;
        const GROUPS: usize = 2;
        type Group = Avx;

        #[inline(always)]
        fn splat(value: f32) -> Self {
            Avx512(unsafe { _mm512_set1_ps(value) })
        }

        #[inline(always)]
        unsafe fn load(field: &[f32], base: usize) -> Self {
            debug_assert!(base + 2 * WIDTH <= field.len());
            // SAFETY: in bounds by the caller's guarantee; loadu needs no alignment.
            Avx512(unsafe { _mm512_loadu_ps(field.as_ptr().add(base)) })
        }

        #[inline(always)]
        unsafe fn store(self, field: &mut [f32], base: usize) {
            debug_assert!(base + 2 * WIDTH <= field.len());
            // SAFETY: in bounds by the caller's guarantee; storeu needs no alignment.
            unsafe { _mm512_storeu_ps(field.as_mut_ptr().add(base), self.0) }
        }

        #[inline(always)]
        unsafe fn load_chunk(field: &[f32], chunk: &Chunk) -> Self {
            let [first, second] = chunk.base;
            debug_assert!(first.max(second) + WIDTH <= field.len());
            // SAFETY: each group's eight values are in bounds by the caller's guarantee.
            unsafe {
                let low = _mm256_loadu_ps(field.as_ptr().add(first));
                let high = _mm256_loadu_ps(field.as_ptr().add(second));
                Avx512(_mm512_insertf32x8::<1>(_mm512_castps256_ps512(low), high))
            }
        }

        #[inline(always)]
        fn valid_lanes(chunk: &Chunk) -> Self {
            spread(first_of_eight(chunk.valid[0]) | first_of_eight(chunk.valid[1]) << WIDTH)
        }

        #[inline(always)]
        fn accumulate(sums: &mut Sums<Self>, value: Self, _chunk: &Chunk) {
            // The low eight lanes hold the even groups' sums and the high eight the odd ones',
            // as a chunk holds an even group and the next. (An absent second group adds +0,
            // which changes no sum: a sum that starts at +0 never becomes −0.)
            sums[0] += value;
        }

        #[inline(always)]
        fn take_away(sums: &mut Sums<Self>, value: Self, _chunk: &Chunk) {
            sums[0] = sums[0] - value;
        }

        #[inline(always)]
        fn groups(self) -> [Avx; 2] {
            unsafe {
                [
                    Avx(_mm512_castps512_ps256(self.0)),
                    Avx(_mm512_extractf32x8_ps::<1>(self.0)),
                ]
            }
        }

        #[inline(always)]
        fn sqrt(self) -> Self {
            Avx512(unsafe { _mm512_sqrt_ps(self.0) })
        }

        #[inline(always)]
        fn positive_part(self) -> Self {
            // vmaxps(a, b) is `a > b ? a : b`: +0 for −0 and NaN, as the trait says.
            Avx512(unsafe { _mm512_max_ps(self.0, _mm512_setzero_ps()) })
        }

        #[inline(always)]
        fn less(self, other: Self) -> Self {
            spread(unsafe { _mm512_cmp_ps_mask::<_CMP_LT_OQ>(self.0, other.0) })
        }

        #[inline(always)]
        fn greater(self, other: Self) -> Self {
            spread(unsafe { _mm512_cmp_ps_mask::<_CMP_GT_OQ>(self.0, other.0) })
        }

        #[inline(always)]
        fn equal(self, other: Self) -> Self {
            spread(unsafe { _mm512_cmp_ps_mask::<_CMP_EQ_OQ>(self.0, other.0) })
        }

        #[inline(always)]
        fn first_lanes(count: usize) -> Self {
            let mask = if count >= 2 * WIDTH {
                u16::MAX
            } else {
                (1_u16 << count) - 1
            };
            spread(mask)
        }

        #[inline(always)]
        fn total(parts: [Self; 2]) -> f32 {
            Avx::total([parts[0].groups()[0]; 2])
        }

        #[inline(always)]
        fn sums_total(sums: Sums<Self>) -> f32 {
            let [even, odd] = sums[0].groups();
            Avx::total([even + odd; 2])
        }

        #[inline(always)]
        fn first(self) -> f32 {
            unsafe { _mm512_cvtss_f32(self.0) }
        }

        #[inline(always)]
        fn any(self) -> bool {
            unsafe { _mm512_movepi32_mask(_mm512_castps_si512(self.0)) != 0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values where targets could disagree: signed zeros, NaN, infinities, subnormals.
    const AWKWARD: [f32; 16] = [
        -0.0,
        0.0,
        f32::NAN,
        -f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        1.0e-40,
        -1.0e-40,
        f32::MIN_POSITIVE,
        -1.5,
        2.25,
        1.0,
        -1.0,
        3.0e38,
        -7.0e-3,
        0.333_333_34,
    ];

    /// A lane's bits, any NaN as one value: which operand's payload an operation passes on is
    /// the compiler's choice (it may swap the operands of + and ×), so NaN bits are not part of
    /// the guarantee, and the engine never keeps a NaN (the reports count them).
    fn bits(value: f32) -> u32 {
        if value.is_nan() {
            u32::MAX
        } else {
            value.to_bits()
        }
    }

    #[test]
    fn the_positive_part_is_plus_zero_for_minus_zero_and_nan_and_x_above_zero() {
        for chunk in AWKWARD.chunks(4) {
            let values: [f32; 4] = chunk.try_into().unwrap();
            let found = Lanes::positive_part(f32x4::new(values)).to_array();
            for (value, found) in values.iter().zip(found) {
                let wanted = if *value > 0.0 { *value } else { 0.0 };
                assert_eq!(
                    found.to_bits(),
                    wanted.to_bits(),
                    "positive part of {value:?}"
                );
            }
        }
    }

    #[test]
    fn the_total_adds_in_its_documented_order() {
        // Chosen so that another order rounds differently.
        let values = [1.0e8, 1.0, -1.0e8, 1.0, 0.5, 3.0, 2.0, -0.25];
        let sums = [0, 1, 2, 3].map(|k| values[k] + values[k + 4]);
        let wanted = (sums[0] + sums[1]) + (sums[2] + sums[3]);
        let naive: f32 = values.iter().sum();
        assert_ne!(
            wanted.to_bits(),
            naive.to_bits(),
            "the test can tell orders apart"
        );
        // SAFETY: 8 values.
        let parts = unsafe { [f32x4::load(&values, 0), f32x4::load(&values, 4)] };
        assert_eq!(<f32x4 as Lanes>::total(parts).to_bits(), wanted.to_bits());
    }

    /// Every operation of `Avx` gives, lane by lane, the bits of two parts of four, on awkward
    /// values; and the totals agree.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx_lanes_give_the_bits_of_two_parts_of_four() {
        if !std::arch::is_x86_feature_detected!("avx") {
            return;
        }
        /// Each operation's eight lanes, then the total and whether any lane was less, as bits.
        #[inline(always)]
        fn all<S: Lanes>(a: [f32; 8], b: [f32; 8]) -> (Vec<u32>, u32, bool) {
            let mut out = vec![0.0; 8 * 10];
            let (mut totals, mut any) = ([S::splat(0.0); 2], false);
            for (part, total) in totals.iter_mut().enumerate().take(S::PARTS) {
                let at = part * S::LANES;
                // SAFETY: 8 values in, 80 out.
                let (x, y) = unsafe { (S::load(&a, at), S::load(&b, at)) };
                let results = [
                    x + y,
                    x - y,
                    x * y,
                    x / y,
                    x & y.less(x),
                    x.sqrt(),
                    x.positive_part(),
                    x.greater(y),
                    x.equal(y),
                    S::first_lanes(3usize.saturating_sub(at)),
                ];
                for (k, result) in results.into_iter().enumerate() {
                    unsafe { result.store(&mut out, 8 * k + at) };
                }
                *total = x;
                any |= x.less(y).any();
            }
            (
                out.into_iter().map(bits).collect(),
                bits(S::total(totals)),
                any,
            )
        }
        #[target_feature(enable = "avx")]
        fn compare(a: [f32; 8], b: [f32; 8]) {
            assert_eq!(all::<Avx>(a, b), all::<f32x4>(a, b), "{a:?}, {b:?}");
        }
        for shift in 0..AWKWARD.len() {
            let a: [f32; 8] = std::array::from_fn(|k| AWKWARD[(k + shift) % AWKWARD.len()]);
            let b: [f32; 8] = std::array::from_fn(|k| AWKWARD[(3 * k + shift + 5) % AWKWARD.len()]);
            // SAFETY: the CPU has AVX (checked above).
            unsafe { compare(a, b) };
        }
    }

    /// Every operation of `Avx512` gives, lane by lane, the bits of `Avx` on each of its two
    /// groups, on awkward values; its masks of valid lanes are each group's, and its sums keep
    /// the even groups and the odd ones apart, as groups of eight one after the other do.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn avx512_lanes_give_the_bits_of_two_groups_of_eight() {
        if !(std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq"))
        {
            return;
        }
        /// Each operation's lanes, as bits, for the values of `chunk`, then the sums after
        /// adding `x` of every chunk (as `accumulate` does), and whether any lane was less.
        #[inline(always)]
        fn all<S: Lanes>(a: &[f32; 24], b: &[f32; 24], chunks: &[Chunk]) -> (Vec<u32>, u32, bool) {
            let (mut out, mut sums, mut any) = (Vec::new(), S::no_sums(), false);
            for chunk in chunks {
                // SAFETY: every group of the chunks starts at most 16 before the end.
                let (x, y) = unsafe { (S::load_chunk(a, chunk), S::load_chunk(b, chunk)) };
                let results = [
                    x + y,
                    x - y,
                    x * y,
                    x / y,
                    x & y.less(x),
                    x.sqrt(),
                    x.positive_part(),
                    x.greater(y),
                    x.equal(y),
                    S::valid_lanes(chunk),
                ];
                // Group by group (a second group only when there is one), result by result.
                for k in 0..S::GROUPS {
                    if chunk.valid[k] == 0 {
                        continue;
                    }
                    for result in results {
                        let mut lanes = [0.0; 8];
                        // SAFETY: 8 lanes into 8.
                        unsafe { result.groups()[k].store(&mut lanes, 0) };
                        out.extend(lanes.map(bits));
                    }
                }
                S::accumulate(&mut sums, x, chunk);
                any |= (x.less(y) & S::valid_lanes(chunk)).any();
            }
            (out, bits(S::sums_total(sums)), any)
        }
        #[target_feature(enable = "avx512f,avx512dq")]
        fn compare(a: &[f32; 24], b: &[f32; 24]) {
            // Groups from 0, 11 and 16 (the last one group's end), as two chunks of sixteen
            // lanes (the second without a second group) and as three of eight.
            let (first, second, third) = ((0, 8), (11, 5), (16, 3));
            let wide = [
                Chunk {
                    base: [first.0, second.0],
                    valid: [first.1, second.1],
                    slot: 0,
                },
                Chunk {
                    base: [third.0; 2],
                    valid: [third.1, 0],
                    slot: 0,
                },
            ];
            // Eight lanes: the groups' parities are their slots.
            let eight = [(first, 0), (second, 1), (third, 0)].map(|((base, valid), slot)| Chunk {
                base: [base; 2],
                valid: [valid, 0],
                slot,
            });
            assert_eq!(
                all::<Avx512>(a, b, &wide),
                all::<Avx>(a, b, &eight),
                "{a:?}, {b:?}"
            );
        }
        for shift in 0..AWKWARD.len() {
            let a: [f32; 24] = std::array::from_fn(|k| AWKWARD[(k + shift) % AWKWARD.len()]);
            let b: [f32; 24] =
                std::array::from_fn(|k| AWKWARD[(3 * k + shift + 5) % AWKWARD.len()]);
            // SAFETY: the CPU has AVX-512 F and DQ (checked above).
            unsafe { compare(&a, &b) };
        }
    }
}
