//! The band scheduler of the neighbour stages: no physics, only who may write where.
//!
//! The particles are cut into bands of whole lines of grid cells (`Grid::bands`), and a band's
//! pairs reach only its own band and the next. Even bands run in parallel, then odd ones, each
//! band in index order, so threads never meet and every sum receives its additions in the same
//! order whatever the thread count.

use super::lanes::LANES;
use crate::sim::numerics::simd::{Chunk, Lanes};
use std::ops::Range;

/// Two running sums per particle over a window of particles (`start..start + first.len()`):
/// density and near density, or displacement x and y. A band adds into its own particles and
/// the next band's; no other band of its phase touches them.
pub struct PairSums<'a> {
    /// Sorted index of the window's first particle.
    pub start: usize,
    /// First sum of each particle in the window.
    pub first: &'a mut [f32],
    /// Second sum of each particle in the window.
    pub second: &'a mut [f32],
}

impl<'a> PairSums<'a> {
    /// The sums of `band`'s window, cleared first in phase 0 (see `run_phase`).
    pub fn clearing(band: &Band, first: &'a mut [f32], second: &'a mut [f32]) -> Self {
        if band.index.is_multiple_of(2) {
            first.fill(0.0);
            second.fill(0.0);
        }
        Self {
            start: band.start,
            first,
            second,
        }
    }

    /// Adds the lanes of `first` and `second` to the particles from `base` on; lanes past the
    /// first `valid` must be zero (near the window's end they are skipped instead).
    #[inline(always)]
    pub(super) fn add<S: Lanes>(&mut self, base: usize, valid: usize, first: S, second: S) {
        let local = base - self.start;
        let room = self.first.len().min(self.second.len());
        if local + S::LANES <= room {
            // SAFETY: local + LANES <= the length of both sums.
            unsafe {
                (S::load(self.first, local) + first).store(self.first, local);
                (S::load(self.second, local) + second).store(self.second, local);
            }
        } else {
            let (mut firsts, mut seconds) = ([0.0; LANES], [0.0; LANES]);
            // SAFETY: S::LANES <= LANES.
            unsafe {
                first.store(&mut firsts, 0);
                second.store(&mut seconds, 0);
            }
            for k in 0..valid.min(S::LANES) {
                self.first[local + k] += firsts[k];
                self.second[local + k] += seconds[k];
            }
        }
    }

    /// Adds the lanes of `first` and `second` to the candidates of `chunk`, group by group;
    /// lanes past each group's valid candidates must be zero.
    #[inline(always)]
    pub(super) fn add_chunk<S: Lanes>(&mut self, chunk: &Chunk, first: S, second: S) {
        let groups = (chunk.base.iter().zip(chunk.valid))
            .zip(first.groups().into_iter().zip(second.groups()));
        for ((&base, valid), (first, second)) in groups.take(S::GROUPS) {
            if valid > 0 {
                self.add::<S::Group>(base, valid, first, second);
            }
        }
    }

    /// Adds one value to each sum of particle `j`.
    #[inline(always)]
    pub(super) fn add_one(&mut self, j: usize, first: f32, second: f32) {
        self.first[j - self.start] += first;
        self.second[j - self.start] += second;
    }
}

/// One running sum per particle over a window of particles, as `PairSums` (the diffusion's
/// exchange).
pub struct PairSum<'a> {
    /// Sorted index of the window's first particle.
    pub start: usize,
    /// The sum of each particle in the window.
    pub values: &'a mut [f32],
}

impl<'a> PairSum<'a> {
    /// The sums of `band`'s window, cleared first in phase 0 (see `run_phase`).
    pub fn clearing(band: &Band, values: &'a mut [f32]) -> Self {
        if band.index.is_multiple_of(2) {
            values.fill(0.0);
        }
        Self {
            start: band.start,
            values,
        }
    }

    /// Adds the lanes of `value` to the particles from `base` on; lanes past the first `valid`
    /// must be zero (near the window's end they are skipped instead).
    #[inline(always)]
    pub(super) fn add<S: Lanes>(&mut self, base: usize, valid: usize, value: S) {
        let local = base - self.start;
        if local + S::LANES <= self.values.len() {
            // SAFETY: local + LANES <= the length of the sums.
            unsafe { (S::load(self.values, local) + value).store(self.values, local) };
        } else {
            let mut values = [0.0; LANES];
            // SAFETY: S::LANES <= LANES.
            unsafe { value.store(&mut values, 0) };
            let valid = valid.min(S::LANES);
            for (sum, value) in self.values[local..].iter_mut().zip(values).take(valid) {
                *sum += value;
            }
        }
    }

    /// Adds the lanes of `value` to the candidates of `chunk`, as `PairSums::add_chunk`.
    #[inline(always)]
    pub(super) fn add_chunk<S: Lanes>(&mut self, chunk: &Chunk, value: S) {
        let groups = chunk.base.iter().zip(chunk.valid).zip(value.groups());
        for ((&base, valid), value) in groups.take(S::GROUPS) {
            if valid > 0 {
                self.add::<S::Group>(base, valid, value);
            }
        }
    }

    /// Adds one value to the sum of particle `j`.
    #[inline(always)]
    pub(super) fn add_one(&mut self, j: usize, value: f32) {
        self.values[j - self.start] += value;
    }
}

/// One band's turn in a phase of `run_phase`.
#[derive(Clone, Debug)]
pub struct Band {
    /// Its index: even bands run in phase 0, odd ones in phase 1.
    pub index: usize,
    /// Its particles.
    pub particles: Range<usize>,
    /// The first particle of its window of the outputs: its own particles, then the next band's.
    pub start: usize,
}

/// Per-particle outputs that the bands of a phase share out, each band getting its window.
pub trait Window: Send + Sized {
    /// The part for the first `at` particles, and the rest.
    fn split_at(self, at: usize) -> (Self, Self);
}

impl<T: Send> Window for &mut [T] {
    fn split_at(self, at: usize) -> (Self, Self) {
        self.split_at_mut(at)
    }
}

impl<A: Window, B: Window> Window for (A, B) {
    fn split_at(self, at: usize) -> (Self, Self) {
        let ((a_low, a_high), (b_low, b_high)) = (self.0.split_at(at), self.1.split_at(at));
        ((a_low, b_low), (a_high, b_high))
    }
}

impl<A: Window, B: Window, C: Window> Window for (A, B, C) {
    fn split_at(self, at: usize) -> (Self, Self) {
        let (low, high) = ((self.0, self.1), self.2).split_at(at);
        ((low.0 .0, low.0 .1, low.1), (high.0 .0, high.0 .1, high.1))
    }
}

/// Runs `work` on every band of phase `phase` (0: the even bands, 1: the odd ones; band k is
/// particles `bands[k]..bands[k + 1]`), in parallel, each with its window of `outputs` (given for
/// every particle). A band's pairs reach only its own band and the next, so no two bands of a
/// phase share a particle: no locks are needed, and when phase 0 then phase 1 run, every output
/// receives its additions in the same order at any thread count. A window's sums must start at
/// zero: the even bands' windows cover every particle, and no band reaches a particle before the
/// even band whose window holds it, so clearing in phase 0 is enough.
pub fn run_phase<O: Window, W>(bands: &[u32], phase: usize, outputs: O, work: &W)
where
    W: Fn(Band, O) + Sync,
{
    let band_count = bands.len().saturating_sub(1);
    if phase >= band_count {
        return;
    }
    let start = bands[phase] as usize;
    let (_, outputs) = outputs.split_at(start);
    bands_of_phase(bands, phase, band_count, start, outputs, work);
}

/// `run_phase` for bands `low, low + 2, …` below `high`, whose outputs are given from particle
/// `start` on; splits in halves run by `rayon::join`.
fn bands_of_phase<O: Window, W>(
    bands: &[u32],
    low: usize,
    high: usize,
    start: usize,
    outputs: O,
    work: &W,
) where
    W: Fn(Band, O) + Sync,
{
    let count = (high - low).div_ceil(2);
    if count == 1 {
        let particles = bands[low] as usize..bands[low + 1] as usize;
        let band = Band {
            index: low,
            particles,
            start,
        };
        work(band, outputs);
        return;
    }
    let middle = low + 2 * (count / 2);
    let split = bands[middle] as usize;
    let (outputs_low, outputs_high) = outputs.split_at(split - start);
    rayon::join(
        || bands_of_phase(bands, low, middle, start, outputs_low, work),
        || bands_of_phase(bands, middle, high, split, outputs_high, work),
    );
}

/// `run_phase` for phases 0 and 1 with two sums per particle (`PairSums`), cleared first.
pub fn for_each_band<W>(bands: &[u32], first: &mut [f32], second: &mut [f32], work: &W)
where
    W: Fn(Range<usize>, &mut PairSums) + Sync,
{
    for phase in 0..2 {
        run_phase(bands, phase, (&mut *first, &mut *second), &|band: Band,
                                                               (
            first,
            second,
        ): (
            &mut [f32],
            &mut [f32],
        )| {
            let mut sums = PairSums::clearing(&band, first, second);
            work(band.particles, &mut sums);
        });
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_scene::{scene, NOTHING_SAME};

    #[test]
    fn bands_cover_every_particle_once_and_hold_each_forward_row_in_the_next_band() {
        let h = 0.3;
        // Square, then wide enough that the cells are numbered column by column.
        for stretch in [1.0, 8.0] {
            let scene = scene(3000, 5.0, stretch, h, 4, NOTHING_SAME);
            let bands = &scene.bands;
            assert_eq!(bands.first(), Some(&0));
            assert_eq!(bands.last(), Some(&3000));
            assert!(bands.len() > 4, "{} bands", bands.len() - 1);
            assert!(bands.windows(2).all(|pair| pair[0] < pair[1]));
            for k in 0..bands.len() - 1 {
                let window_end = bands[(k + 2).min(bands.len() - 1)];
                for i in bands[k]..bands[k + 1] {
                    for range in &scene.rows[i as usize] {
                        assert!(range.start > i || range.is_empty());
                        assert!(range.end <= window_end, "particle {i} of band {k}");
                    }
                }
            }
        }
    }
}
