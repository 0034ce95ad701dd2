//! Arithmetic that gives the same bits on every CPU and in the page, the eight lanes of the pair
//! loops, the bits of saved floats, the checksum and the clock.

pub mod bits;
pub mod checksum;
pub mod clock;
pub mod portable;
pub(crate) mod simd;

/// Elements per rayon task in the light per-element passes (bounds, copies, reorders): small
/// enough that a 3,000-particle scene keeps both threads busy between the heavy stages (an idle
/// worker falls asleep and wakes late: seed went from 0.63 to 0.51 ms per substep), large enough
/// to amortise scheduling.
pub(crate) const LIGHT_CHUNK: usize = 1024;
