//! Neighbour lists: for every particle, each particle within h with its kernel weight
//! a = 1 − r/h and the unit direction towards it.
//!
//! Lists are built once per substep from the grid (one scan of the candidate cells) and read by
//! the density and relaxation stages. They are stored per fixed chunk of particles, so chunks can
//! be filled in parallel and the result does not depend on the thread count. Buffers only grow:
//! once the particle count and crowding are steady, building allocates nothing.

use super::grid::Grid;
use glam::Vec2;

/// Particles per chunk: the unit of parallel work for the neighbour-based stages.
pub const CHUNK: usize = 256;

/// Neighbour lists of one chunk of consecutive particles. `entries` is kept at its high-water
/// length; `start` says which entries are live.
#[derive(Clone, Debug, Default)]
pub struct NeighbourChunk {
    /// `start[k]..start[k + 1]` are the entries of the chunk's k-th particle.
    start: Vec<u32>,
    /// The neighbours, particle after particle.
    entries: Vec<Neighbour>,
}

/// One neighbour of a particle (16 bytes, written and read as one record).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[repr(C)]
pub struct Neighbour {
    /// Index of the neighbour (sorted particle order).
    pub index: u32,
    /// Kernel weight a = 1 − r/h, in (0, 1] (during the scan: squared distance).
    pub weight: f32,
    /// Unit vector from the particle towards the neighbour (during the scan: the offset).
    pub direction: Vec2,
}

impl NeighbourChunk {
    /// Empties the lists, keeping their buffers.
    pub fn clear(&mut self) {
        self.start.clear();
        self.start.push(0);
    }

    /// Appends the list of particle `i`: every other particle closer than `h` among the grid's
    /// candidates. Particles at the same spot get `coincident(i, j)` as their direction.
    pub fn push_particle(
        &mut self,
        grid: &Grid,
        positions: &[Vec2],
        i: usize,
        h: f32,
        coincident: impl Fn(usize, usize) -> Vec2,
    ) {
        let begin = *self.start.last().expect("clear() was called") as usize;
        let h2 = h * h;
        let xi = positions[i];
        let mut filled = begin;
        // The particle itself lies in the middle row: scan around it rather than test every
        // candidate against `i`.
        let [top, upper, middle, lower, bottom] = grid.neighbour_rows(i);
        let candidate_ranges = [
            top,
            upper,
            middle.start..i,
            i + 1..middle.end,
            lower,
            bottom,
        ];
        for row in candidate_ranges {
            let needed = filled + row.len();
            if self.entries.len() < needed {
                self.entries.resize(needed, Neighbour::default());
            }
            let entries = &mut self.entries[..needed];
            let candidates = &positions[row.clone()];
            // Branch-free compaction: always write, advance only for a neighbour. `filled` stays
            // below `needed` because it grows at most once per candidate of this row.
            for (j, &candidate) in row.zip(candidates) {
                let offset = candidate - xi;
                let r2 = offset.length_squared();
                entries[filled] = Neighbour {
                    index: j as u32,
                    weight: r2,
                    direction: offset,
                };
                filled += (r2 < h2) as usize;
            }
        }
        let inverse_h = 1.0 / h;
        let coincident_weight = 1.0 - COINCIDENT * inverse_h;
        for entry in &mut self.entries[begin..filled] {
            let r = entry.weight.sqrt();
            entry.weight = 1.0 - r * inverse_h;
            entry.direction *= 1.0 / r.max(COINCIDENT);
            if entry.weight > coincident_weight {
                entry.direction = coincident(i, entry.index as usize);
            }
        }
        self.start.push(filled as u32);
    }

    /// The neighbours of the chunk's k-th particle.
    #[inline]
    pub fn neighbours(&self, k: usize) -> &[Neighbour] {
        &self.entries[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// Total entries in the chunk.
    pub fn len(&self) -> usize {
        *self.start.last().unwrap_or(&0) as usize
    }

    /// True when the chunk holds no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Distance below which two particles count as being at the same spot.
const COINCIDENT: f32 = 1.0e-6;
