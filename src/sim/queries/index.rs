//! The particles by cell, for the queries: a counting sort of the particle indices into square
//! cells of one interaction radius over the particles' bounding box, built on the first query
//! after the particles moved and kept until they move again.

use crate::sim::numerics::portable::Ordered;
use glam::Vec2;
use std::sync::{PoisonError, RwLock};

/// Most cells the index makes per particle: a world whose few particles lie far apart gets
/// larger cells rather than a huge empty table.
const CELLS_PER_PARTICLE: usize = 4;

/// Particle indices sorted by the cell their position lies in.
#[derive(Clone, Debug, Default)]
pub(crate) struct Index {
    origin: Vec2,
    cell: f32,
    columns: usize,
    rows: usize,
    /// `start[c]..start[c + 1]` are the entries of `items` in cell `c`.
    start: Vec<u32>,
    /// Particle indices, by cell, ascending within a cell.
    items: Vec<u32>,
    /// Each particle's cell (`usize::MAX` for a position that is not finite), while building.
    cells: Vec<usize>,
}

impl Index {
    /// Sorts `positions` into cells at least `cell` wide, reusing the buffers it has.
    fn build(&mut self, positions: &[Vec2], cell: f32) {
        let finite = positions.iter().filter(|p| p.is_finite());
        let (min, max) = finite.fold((Vec2::INFINITY, Vec2::NEG_INFINITY), |(low, high), p| {
            (low.at_most(*p), high.at_least(*p))
        });
        let extent = if min.x <= max.x {
            max - min
        } else {
            Vec2::ZERO
        };
        let budget = (CELLS_PER_PARTICLE * positions.len()).max(1) as f32;
        let cell = cell
            .at_least((extent.x * extent.y / budget).sqrt())
            .at_least(f32::MIN_POSITIVE);
        self.origin = if min.x <= max.x { min } else { Vec2::ZERO };
        self.cell = cell;
        self.columns = (extent.x / cell) as usize + 1;
        self.rows = (extent.y / cell) as usize + 1;
        let count = self.columns * self.rows;
        self.start.clear();
        self.start.resize(count + 1, 0);
        self.cells.clear();
        for p in positions {
            let cell = if p.is_finite() {
                let (column, row) = self.cell_of(*p);
                row * self.columns + column
            } else {
                usize::MAX
            };
            self.cells.push(cell);
            if cell != usize::MAX {
                self.start[cell + 1] += 1;
            }
        }
        for c in 0..count {
            self.start[c + 1] += self.start[c];
        }
        self.items.clear();
        self.items.resize(self.start[count] as usize, 0);
        // Each particle goes to its cell's next free entry; `start[c]` counts up through cell c
        // and ends where cell c + 1 starts, so shifting it back by one cell restores the starts.
        for (i, &cell) in self.cells.iter().enumerate() {
            if cell != usize::MAX {
                let slot = &mut self.start[cell];
                self.items[*slot as usize] = i as u32;
                *slot += 1;
            }
        }
        self.start.copy_within(0..count, 1);
        self.start[0] = 0;
    }

    /// The column and row of the cell `point` lies in, clamped to the table.
    fn cell_of(&self, point: Vec2) -> (usize, usize) {
        let local = (point - self.origin) / self.cell;
        let column = (local.x.at_least(0.0) as usize).min(self.columns - 1);
        let row = (local.y.at_least(0.0) as usize).min(self.rows - 1);
        (column, row)
    }

    /// Calls `visit` with every particle index whose cell the box from `min` to `max` touches
    /// (a superset of the particles in the box), row by row, ascending within a cell.
    pub(crate) fn visit_box(&self, min: Vec2, max: Vec2, mut visit: impl FnMut(usize)) {
        if self.items.is_empty() || !(min.is_finite() && max.is_finite()) {
            return;
        }
        let far = self.origin + self.cell * Vec2::new(self.columns as f32, self.rows as f32);
        if max.x < self.origin.x || max.y < self.origin.y || min.x > far.x || min.y > far.y {
            return;
        }
        let (first_column, first_row) = self.cell_of(min);
        let (last_column, last_row) = self.cell_of(max);
        for row in first_row..=last_row {
            let begin = self.start[row * self.columns + first_column] as usize;
            let end = self.start[row * self.columns + last_column + 1] as usize;
            for &i in &self.items[begin..end] {
                visit(i as usize);
            }
        }
    }
}

/// The index of the particles as they are, built by the first query that needs it: a world
/// marks it stale (`invalidate`) whenever particles move, come or go. Cloning gives a stale
/// one.
#[derive(Debug, Default)]
pub(crate) struct QueryCache(RwLock<Cached>);

#[derive(Debug, Default)]
struct Cached {
    fresh: bool,
    index: Index,
}

impl Clone for QueryCache {
    fn clone(&self) -> Self {
        Self::default()
    }
}

impl QueryCache {
    /// The particles have moved, come or gone: the next query sorts them again.
    pub(crate) fn invalidate(&mut self) {
        let cached = self.0.get_mut().unwrap_or_else(PoisonError::into_inner);
        cached.fresh = false;
    }

    /// Runs `query` on the index of `positions` (cells at least `cell` wide), sorting them
    /// first if they changed since the last query.
    pub(crate) fn with<R>(
        &self,
        positions: &[Vec2],
        cell: f32,
        query: impl FnOnce(&Index) -> R,
    ) -> R {
        {
            let read = self.0.read().unwrap_or_else(PoisonError::into_inner);
            if read.fresh {
                return query(&read.index);
            }
        }
        let mut write = self.0.write().unwrap_or_else(PoisonError::into_inner);
        if !write.fresh {
            write.index.build(positions, cell);
            write.fresh = true;
        }
        query(&write.index)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_visits_every_particle_inside_it() {
        let positions: Vec<Vec2> = (0..500)
            .map(|k| Vec2::new((k * 37 % 101) as f32 * 0.07, (k * 53 % 89) as f32 * 0.05))
            .chain([Vec2::NAN])
            .collect();
        let mut index = Index::default();
        index.build(&positions, 0.3);
        let (min, max) = (Vec2::new(1.0, 0.5), Vec2::new(2.5, 3.0));
        let mut seen = Vec::new();
        index.visit_box(min, max, |i| seen.push(i));
        let inside = |p: &Vec2| p.cmpge(min).all() && p.cmple(max).all();
        for (i, p) in positions.iter().enumerate() {
            if inside(p) {
                assert!(seen.contains(&i), "{i} at {p} missed");
            }
        }
        assert!(!seen.contains(&500), "a NaN position is in no cell");
        let mut none = Vec::new();
        index.visit_box(Vec2::splat(50.0), Vec2::splat(60.0), |i| none.push(i));
        assert!(none.is_empty());
    }
}
