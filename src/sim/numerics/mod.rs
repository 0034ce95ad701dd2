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

/// Calls `each(i, &mut values[i])` for every element, in parallel tasks of `LIGHT_CHUNK`
/// elements, and returns the sum of what the calls return: each task's sum in its order, then
/// the tasks' in theirs, so the same at any thread count.
pub(crate) fn par_update_summed(
    values: &mut [f32],
    each: impl Fn(usize, &mut f32) -> f64 + Sync,
) -> f64 {
    use rayon::prelude::*;
    let sums: Vec<f64> = (values.par_chunks_mut(LIGHT_CHUNK).enumerate())
        .map(|(chunk, values)| {
            let first = chunk * LIGHT_CHUNK;
            let mut sum = 0.0;
            for (k, value) in values.iter_mut().enumerate() {
                sum += each(first + k, value);
            }
            sum
        })
        .collect();
    sums.iter().sum()
}
