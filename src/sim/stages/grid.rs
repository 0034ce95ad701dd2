//! Uniform grid for neighbour search, rebuilt by counting sort every substep.
//!
//! Rows of cells are h / 2 tall, so the particles within h of a particle lie in the five rows
//! around its own. Along its row a cell is a quarter as wide (`CELL_ASPECT`): the particles of a
//! row lie in order along it to h / 8, so the range a query takes from each row can be cut close
//! to the disc of radius h (about 20 candidates ahead of a particle in a liquid rather than the
//! 24 of square cells h / 2 wide, and a tenth fewer groups of eight for the pair loops). The grid
//! covers the bounding box of the particles plus h of empty cells on every side, so any particle
//! inside the walls is found whatever the domain's size. After `build`, `order` lists particle
//! indices cell by cell; the world reorders its arrays by it, so the particles of a row are
//! contiguous in memory and a neighbour query is five index ranges (after Ten Minute Physics and
//! SebLague's Fluid-Sim), each trimmed to the cells the disc of radius h can reach. The
//! neighbour stages evaluate each pair once, from its lower index, over the upper three of those
//! ranges (`forward_rows`), band by band of whole rows (`bands`).

use crate::sim::numerics::portable::Ordered;
use crate::sim::numerics::LIGHT_CHUNK;
use glam::Vec2;
use rayon::prelude::*;
use std::ops::Range;

/// Cell-sorted index of particle positions.
#[derive(Clone, Debug, Default)]
pub struct Grid {
    origin: Vec2,
    /// Height of a row of cells; its cells are `CELL_ASPECT` times narrower along it.
    cell_size: f32,
    /// Cells are numbered column by column (x is the slow axis) instead of row by row: chosen
    /// while the particles spread wider than tall, so that the lines of cells are short and the
    /// bands of whole lines (`bands`) many. Everything below speaks of rows and columns in the
    /// numbering's own axes (`local`).
    transposed: bool,
    /// Cells along a row.
    width: usize,
    /// Rows.
    height: usize,
    /// `cell_start[c]..cell_start[c + 1]` are the sorted indices of cell `c`'s particles.
    cell_start: Vec<u32>,
    /// Cell of each particle, in the order the positions were given to `build`.
    particle_cell: Vec<u32>,
    /// Part of its row (across it) each particle lies in (`row_spans`), in the same order.
    particle_part: Vec<u8>,
    /// Sorted position → index of that particle in the positions given to `build`.
    order: Vec<u32>,
    /// For each part of a row (`PARTS`, across it), and each row of cells around it: the cells
    /// (first, one past the last, counted from `REACH × CELL_ASPECT` to the left of the
    /// particle's cell) that a disc of radius h centred anywhere in that part of a cell can
    /// reach.
    row_spans: Vec<[(u8, u8); 2 * REACH + 1]>,
}

/// A point in cells from the grid's origin: in cells along the row, in rows across them, x and
/// y swapped when the grid is `transposed`.
#[inline(always)]
fn local(position: Vec2, origin: Vec2, cell_size: f32, transposed: bool) -> Vec2 {
    let local = (position - origin) / cell_size;
    // Along a row, `CELL_ASPECT` (a power of two) times as many cells, exactly.
    if transposed {
        Vec2::new(local.y * CELL_ASPECT as f32, local.x)
    } else {
        Vec2::new(local.x * CELL_ASPECT as f32, local.y)
    }
}

/// Column and row of the cell holding a point at `local` (in cells from the grid's origin),
/// kept off the padding, h wide, on every side.
#[inline(always)]
fn cell_of(local: Vec2, width: usize, height: usize) -> (usize, usize) {
    // Clamped as floats first (`max` maps NaN to the low end), so the truncation needs no checks.
    let index = |value: f32, cells: usize, padding: usize| {
        let clamped = value
            .at_least(padding as f32)
            .at_most((cells - 1 - padding) as f32);
        // SAFETY: `clamped` is finite and within 0..cells, which fits in u32.
        unsafe { clamped.to_int_unchecked::<u32>() as usize }
    };
    (
        index(local.x, width, REACH * CELL_ASPECT),
        index(local.y, height, REACH),
    )
}

/// Which of its row's `PARTS` parts (across it) a point at `local` lies in, its row being
/// `row`: the index into `Grid::row_spans`.
#[inline(always)]
fn part_of(local: Vec2, row: usize) -> usize {
    // Clamped as a float first, so the truncation needs no checks.
    let clamped = ((local.y - row as f32) * PARTS as f32)
        .at_least(0.0)
        .at_most((PARTS - 1) as f32);
    // SAFETY: `clamped` is finite and within 0..PARTS.
    unsafe { clamped.to_int_unchecked::<u32>() as usize }
}

/// The cell (`cells`, row by row) and the part of its row (`parts`, `part_of`) of each of
/// `positions`, in a grid of `width` × `height` cells from `origin`, numbered column by column
/// when `TRANSPOSED`.
#[inline(always)]
fn cells_and_parts<const TRANSPOSED: bool>(
    positions: &[Vec2],
    origin: Vec2,
    cell_size: f32,
    (width, height): (usize, usize),
    cells: &mut [u32],
    parts: &mut [u8],
) {
    let n = positions.len();
    assert!(cells.len() == n && parts.len() == n);
    for k in 0..n {
        let local = local(positions[k], origin, cell_size, TRANSPOSED);
        let (column, row) = cell_of(local, width, height);
        cells[k] = (row * width + column) as u32;
        parts[k] = part_of(local, row) as u8;
    }
}

/// Most ranges of cells `counting_sort` cuts the cells into.
const SORT_RANGES: usize = 8;

/// Fewest particles per range of cells in `counting_sort`.
const SORT_RANGE_PARTICLES: usize = 8192;

/// The stable counting sort of the particles by cell: `order` gets the particles' indices cell by
/// cell (each cell's in index order) and `cell_start` each cell's first position in it (the
/// caller sets the end). The cells are cut into `ranges` ranges (at most `SORT_RANGES`) that
/// hold about as many particles each, and each range counts, sums and places only its own
/// cells' particles, into its own part of `order`: the ranges run in parallel without locks,
/// each reading every particle's cell. The order is the same for any number of ranges.
fn counting_sort(ranges: usize, particle_cell: &[u32], cell_start: &mut [u32], order: &mut [u32]) {
    let (count, cell_count) = (particle_cell.len(), cell_start.len());
    let ranges = ranges.clamp(1, SORT_RANGES).min(count.max(1));
    // The particles still lie in about the order of their cells (the last sort's), so the cell
    // of every k-th particle cuts the cells into ranges of about k particles.
    let mut bounds = [cell_count; SORT_RANGES + 1];
    bounds[0] = 0;
    for k in 1..ranges {
        let cell = particle_cell[k * count / ranges] as usize;
        bounds[k] = cell.clamp(bounds[k - 1], cell_count);
    }
    let bounds = &bounds[..=ranges];
    // Each range's particles, then where each range's part of `order` starts.
    let mut totals = [0usize; SORT_RANGES];
    count_cells(particle_cell, bounds, cell_start, &mut totals[..ranges]);
    let mut firsts = [0usize; SORT_RANGES];
    for k in 1..ranges {
        firsts[k] = firsts[k - 1] + totals[k - 1];
    }
    place_particles(particle_cell, bounds, &firsts[..ranges], cell_start, order);
}

/// The particles whose cells are the `len` cells from `first` on, in index order, with their
/// cell's place among those cells.
#[inline(always)]
fn in_range(
    particle_cell: &[u32],
    first: usize,
    len: usize,
) -> impl DoubleEndedIterator<Item = (usize, usize)> + '_ {
    particle_cell
        .iter()
        .enumerate()
        .filter_map(move |(index, &cell)| {
            // One comparison: cells before the range wrap around to large offsets.
            let offset = (cell as usize).wrapping_sub(first);
            (offset < len).then_some((index, offset))
        })
}

/// The first pass of `counting_sort` over the ranges of cells `bounds` (absolute cell indices,
/// one more than the ranges; `cell_start` covers them): each cell's particle count into
/// `cell_start`, and each range's total into `totals`.
fn count_cells(
    particle_cell: &[u32],
    bounds: &[usize],
    cell_start: &mut [u32],
    totals: &mut [usize],
) {
    let ranges = totals.len();
    if ranges == 1 {
        cell_start.fill(0);
        let mut total = 0;
        for (_, offset) in in_range(particle_cell, bounds[0], cell_start.len()) {
            cell_start[offset] += 1;
            total += 1;
        }
        totals[0] = total;
        return;
    }
    let middle = ranges / 2;
    let (low, high) = cell_start.split_at_mut(bounds[middle] - bounds[0]);
    let (low_totals, high_totals) = totals.split_at_mut(middle);
    rayon::join(
        || count_cells(particle_cell, &bounds[..=middle], low, low_totals),
        || count_cells(particle_cell, &bounds[middle..], high, high_totals),
    );
}

/// The second pass of `counting_sort`: each range's inclusive prefix sum of its counts (from
/// its first position `firsts`), each cell's end, then its particles placed into its part of
/// `order` from the last to the first, each into its cell's last free place: a cell's particles
/// keep their index order, and its value ends at its first place.
fn place_particles(
    particle_cell: &[u32],
    bounds: &[usize],
    firsts: &[usize],
    cell_start: &mut [u32],
    order: &mut [u32],
) {
    let ranges = firsts.len();
    if ranges == 1 {
        let first = firsts[0];
        let mut end = first;
        for start in cell_start.iter_mut() {
            end += *start as usize;
            *start = end as u32;
        }
        assert!(end - first == order.len());
        for (index, offset) in in_range(particle_cell, bounds[0], cell_start.len()).rev() {
            let place = &mut cell_start[offset];
            *place -= 1;
            order[*place as usize - first] = index as u32;
        }
        return;
    }
    let middle = ranges / 2;
    let split = bounds[middle] - bounds[0];
    let (low_starts, high_starts) = cell_start.split_at_mut(split);
    let (low_order, high_order) = order.split_at_mut(firsts[middle] - firsts[0]);
    rayon::join(
        || {
            let bounds = &bounds[..=middle];
            place_particles(
                particle_cell,
                bounds,
                &firsts[..middle],
                low_starts,
                low_order,
            )
        },
        || {
            let bounds = &bounds[middle..];
            place_particles(
                particle_cell,
                bounds,
                &firsts[middle..],
                high_starts,
                high_order,
            )
        },
    );
}

/// `forward`, the upper rows of a particle at sorted `index`, with its own row starting after it.
#[inline(always)]
fn after_itself(mut forward: ForwardRows, index: usize) -> ForwardRows {
    let own_row = &mut forward[0];
    own_row.start = own_row.start.max(index as u32 + 1);
    own_row.end = own_row.end.max(own_row.start);
    forward
}

/// The index ranges, one per row of cells, that hold a particle's neighbour candidates.
pub type CandidateRows = [Range<u32>; 2 * REACH + 1];

/// A particle's forward candidates: the rest of its own row of cells after it, then the rows
/// above. Every pair closer than h is among the forward candidates of its lower index, once.
pub type ForwardRows = [Range<u32>; REACH + 1];

/// Parts a row of cells is split into across it for trimming neighbour rows.
const PARTS: usize = 8;

/// How many times narrower along its row a cell is than the row is tall. Narrower cells cut a
/// query's ranges closer to the disc, and cost the counting sort more cells: on `tank` at 48,000
/// particles (2 threads, five runs interleaved), 4 took 1.41 ms a substep against square cells'
/// 1.48, and 8 took 1.41 too, its dearer sort eating what its closer cut saved.
const CELL_ASPECT: usize = 4;

/// `Grid::row_spans` for rows of cells `cell_size` tall and interaction radius `h`.
fn row_spans(cell_size: f32, h: f32) -> Vec<[(u8, u8); 2 * REACH + 1]> {
    // Slightly more than h, in cells, so that rounding never drops a neighbour.
    let reach = h / cell_size * (1.0 + 1.0e-4) + 1.0e-4;
    let part = 1.0 / PARTS as f32;
    (0..PARTS)
        .map(|part_y| {
            let (y_low, y_high) = (part_y as f32 * part, (part_y + 1) as f32 * part);
            std::array::from_fn(|k| {
                let offset = k as f32 - REACH as f32;
                // Nearest vertical distance from the part to row `offset`.
                let dy = (offset - y_high)
                    .at_least(y_low - (offset + 1.0))
                    .at_least(0.0);
                if dy >= reach {
                    return (0, 0);
                }
                // In cells along the row, from the particle's cell (0 to 1).
                let half_width = (reach * reach - dy * dy).sqrt() * CELL_ASPECT as f32;
                let padding = (REACH * CELL_ASPECT) as f32;
                let column = |x: f32| (x.floor() + padding).clamp(0.0, 2.0 * padding);
                let first = column(-half_width) as u8;
                let last = column(1.0 + half_width) as u8;
                (first, last + 1)
            })
        })
        .collect()
}

/// Bounding box of a set of points (empty: min +∞, max −∞; non-finite coordinates are skipped).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// Lowest x and y.
    pub min: Vec2,
    /// Highest x and y.
    pub max: Vec2,
}

impl Default for Bounds {
    fn default() -> Self {
        Self {
            min: Vec2::splat(f32::INFINITY),
            max: Vec2::splat(f32::NEG_INFINITY),
        }
    }
}

impl Bounds {
    /// The bounds of `points`.
    pub fn of(points: &[Vec2]) -> Self {
        points
            .par_iter()
            .with_min_len(LIGHT_CHUNK)
            .fold(Bounds::default, |bounds, &p| bounds.with(p))
            .reduce(Bounds::default, Bounds::union)
    }

    /// These bounds grown to hold `point`.
    #[inline(always)]
    pub fn with(self, point: Vec2) -> Self {
        Self {
            min: point.at_most(self.min),
            max: point.at_least(self.max),
        }
    }

    /// The bounds of both.
    pub fn union(self, other: Self) -> Self {
        Self {
            min: self.min.at_most(other.min),
            max: self.max.at_least(other.max),
        }
    }
}

/// Most cells a grid may have per particle before cells grow beyond h (keeps memory bounded when
/// a few particles span a huge domain; neighbours within h are still found, just with more tests).
const MAX_CELLS_PER_PARTICLE: usize = 8 * CELL_ASPECT;
/// Cells a grid may always have, however few particles there are.
const MIN_CELL_BUDGET: usize = CELL_ASPECT << 16;

/// Rows of cells per interaction radius; a neighbour query spans this many rows on each side
/// (and `REACH × CELL_ASPECT` cells along each row).
pub const REACH: usize = 2;

impl Grid {
    /// Sorts `positions` into rows of cells at least `interaction_radius / REACH` tall.
    pub fn build(&mut self, positions: &[Vec2], interaction_radius: f32) {
        self.build_within(positions, interaction_radius, Bounds::of(positions));
    }

    /// `build`, given the positions' bounding box.
    pub fn build_within(&mut self, positions: &[Vec2], interaction_radius: f32, bounds: Bounds) {
        let min_cell_size = interaction_radius / REACH as f32;
        let count = positions.len();
        let (min, max) = if count == 0 {
            (Vec2::ZERO, Vec2::ZERO)
        } else {
            (bounds.min, bounds.max)
        };
        let extent = (max - min).at_least(Vec2::splat(min_cell_size));
        let budget = (count * MAX_CELLS_PER_PARTICLE).max(MIN_CELL_BUDGET) as f32;
        let cell_size =
            min_cell_size.at_least((extent.x * extent.y * CELL_ASPECT as f32 / budget).sqrt());
        if self.cell_size != cell_size || self.row_spans.is_empty() {
            self.row_spans = row_spans(cell_size, interaction_radius);
        }
        self.cell_size = cell_size;
        self.origin = min - Vec2::splat(cell_size * REACH as f32);
        // Rows along the longer side, with some hysteresis so that a squarish scene does not
        // flip (and reshuffle every particle) back and forth.
        self.transposed = if self.transposed {
            extent.x * 5.0 >= extent.y * 4.0
        } else {
            extent.x * 4.0 > extent.y * 5.0
        };
        let extent = if self.transposed {
            Vec2::new(extent.y, extent.x)
        } else {
            extent
        };
        // h of padding on every side: `REACH` rows, `REACH × CELL_ASPECT` cells along a row.
        self.width =
            (extent.x / cell_size * CELL_ASPECT as f32) as usize + 2 * REACH * CELL_ASPECT + 1;
        self.height = (extent.y / cell_size) as usize + 2 * REACH + 1;
        let cell_count = self.width * self.height;

        let (origin, width, height) = (self.origin, self.width, self.height);
        let transposed = self.transposed;
        self.particle_cell.resize(count, 0);
        self.particle_part.resize(count, 0);
        // The numbering's choice made once, outside the loop, so that the loop is one
        // straight body the compiler runs in vector lanes (twice as fast as the choice inside).
        let cells_and_parts = if transposed {
            cells_and_parts::<true>
        } else {
            cells_and_parts::<false>
        };
        (
            self.particle_cell.par_chunks_mut(LIGHT_CHUNK),
            self.particle_part.par_chunks_mut(LIGHT_CHUNK),
            positions.par_chunks(LIGHT_CHUNK),
        )
            .into_par_iter()
            .for_each(|(cells, parts, positions)| {
                cells_and_parts(positions, origin, cell_size, (width, height), cells, parts);
            });

        self.cell_start.resize(cell_count + 1, 0);
        self.order.resize(count, 0);
        // One range of cells per thread, each of at least `SORT_RANGE_PARTICLES` particles.
        let ranges = (count / SORT_RANGE_PARTICLES).clamp(1, rayon::current_num_threads());
        counting_sort(
            ranges,
            &self.particle_cell,
            &mut self.cell_start[..cell_count],
            &mut self.order,
        );
        self.cell_start[cell_count] = count as u32;
    }

    /// Reserves room for a grid of up to `max_particles` particles inside the box `min..max`, so
    /// that building one later does not allocate. A box far wider than the particles can fill
    /// reserves no more than twice the cell budget of that many particles (`build` coarsens its
    /// cells to that budget).
    pub fn reserve(&mut self, min: Vec2, max: Vec2, interaction_radius: f32, max_particles: usize) {
        let cell_size = interaction_radius / REACH as f32;
        let extent = ((max - min) / cell_size).ceil() + Vec2::splat((2 * REACH + 2) as f32);
        let extent = extent * Vec2::new(CELL_ASPECT as f32, 1.0);
        let budget = max_particles
            .saturating_mul(MAX_CELLS_PER_PARTICLE)
            .max(MIN_CELL_BUDGET);
        let cells = ((extent.x as f64 * extent.y as f64) as usize).min(2 * budget);
        self.cell_start.reserve(cells + 1);
    }

    /// True while cells are numbered column by column (see `transposed`). The choice has
    /// hysteresis, so it depends on the past: snapshots store it.
    pub fn is_transposed(&self) -> bool {
        self.transposed
    }

    /// Sets the numbering the next build starts from (a world restored from a snapshot).
    pub(crate) fn set_transposed(&mut self, transposed: bool) {
        self.transposed = transposed;
    }

    /// Sorted position → index of that particle in the positions given to `build`.
    pub fn order(&self) -> &[u32] {
        &self.order
    }

    /// One index range per row of cells around the particle at `position` (one of the
    /// positions the grid was built from): together they hold every particle closer than h to
    /// it. Each row is trimmed to the columns that the disc of radius h can reach from the
    /// particle's part of its row and its cell (`row_spans`), so fewer candidates are tested
    /// than rows 2.5 h long hold.
    #[inline(always)]
    pub fn neighbour_rows(&self, position: Vec2) -> CandidateRows {
        self.rows_from::<{ 2 * REACH + 1 }>(position, 0)
    }

    /// The sorted indices in `neighbour_rows(position)`, row after row: every candidate
    /// neighbour of the particle at `position`, itself included.
    #[inline(always)]
    pub fn candidates(&self, position: Vec2) -> impl Iterator<Item = usize> {
        self.neighbour_rows(position)
            .into_iter()
            .flat_map(|row| row.start as usize..row.end as usize)
    }

    /// The candidates of the particle at sorted `index` and `position` that come after it
    /// (`ForwardRows`): the upper half of `neighbour_rows`.
    #[inline(always)]
    pub fn forward_rows(&self, position: Vec2, index: usize) -> ForwardRows {
        after_itself(self.rows_from::<{ REACH + 1 }>(position, REACH), index)
    }

    /// `forward_rows` of the particle that was `built`-th in the positions given to `build`
    /// (`order` maps back to it), now at sorted `index`: the same ranges, from the cell and
    /// part `build` found for it rather than from its position again.
    #[inline(always)]
    pub fn forward_rows_of_built(&self, built: usize, index: usize) -> ForwardRows {
        let (cell, part) = (self.particle_cell[built], self.particle_part[built]);
        after_itself(
            self.rows_around::<{ REACH + 1 }>(cell as usize, part as usize, REACH),
            index,
        )
    }

    /// `ROWS` of `neighbour_rows`' ranges, from its row `first` on.
    #[inline(always)]
    fn rows_from<const ROWS: usize>(&self, position: Vec2, first: usize) -> [Range<u32>; ROWS] {
        let local = local(position, self.origin, self.cell_size, self.transposed);
        // The particle's cell, exactly as `build` computed it.
        let (column, row) = cell_of(local, self.width, self.height);
        let cell = row * self.width + column;
        self.rows_around(cell, part_of(local, row), first)
    }

    /// `ROWS` of the ranges of a particle in `cell` and `part` of it (`row_spans`), from its
    /// row `first` on (of `neighbour_rows`' `2 REACH + 1`).
    #[inline(always)]
    fn rows_around<const ROWS: usize>(
        &self,
        cell: usize,
        part: usize,
        first: usize,
    ) -> [Range<u32>; ROWS] {
        let spans = &self.row_spans[part];
        // The cell `REACH` rows down and `REACH × CELL_ASPECT` cells left (cells are off the
        // padding).
        let corner = cell - REACH * self.width - REACH * CELL_ASPECT;
        std::array::from_fn(|k| {
            let k = first + k;
            let start = corner + k * self.width;
            let (low, high) = spans[k];
            let begin = self.cell_start[start + low as usize];
            let end = self.cell_start[start + high as usize];
            begin..end.max(begin)
        })
    }

    /// The sorted-index ranges, one per row of cells, of every cell that the box from `min` to
    /// `max` touches (clamped to the grid): a superset of the particles whose positions, when
    /// the grid was built, lay in the box.
    pub fn ranges_in_box(&self, min: Vec2, max: Vec2, out: &mut Vec<Range<u32>>) {
        out.clear();
        if self.cell_start.is_empty() || !(min.is_finite() && max.is_finite()) {
            return;
        }
        let low = local(min, self.origin, self.cell_size, self.transposed);
        let high = local(max, self.origin, self.cell_size, self.transposed);
        let (first_column, first_row) = cell_of(low, self.width, self.height);
        let (last_column, last_row) = cell_of(high, self.width, self.height);
        for row in first_row..=last_row {
            let begin = self.cell_start[row * self.width + first_column];
            let end = self.cell_start[row * self.width + last_column + 1];
            if end > begin {
                out.push(begin..end);
            }
        }
    }

    /// Splits the sorted particles into bands of whole rows of cells: `out` gets each band's
    /// first particle, then the particle count. Every band but the last spans at least `REACH`
    /// rows and holds at least `min_particles`, so a particle's forward candidates lie in its own
    /// band or the next.
    pub fn bands(&self, min_particles: usize, out: &mut Vec<u32>) {
        let count = self.order.len() as u32;
        let min_particles = min_particles.max(1) as u32;
        out.clear();
        out.reserve(self.height + 2);
        out.push(0);
        let mut rows_in_band = 0;
        for row in 1..self.height {
            rows_in_band += 1;
            let start = self.cell_start[row * self.width];
            let band_start = *out.last().expect("the first band starts at 0");
            if rows_in_band >= REACH && start - band_start >= min_particles && start < count {
                out.push(start);
                rows_in_band = 0;
            }
        }
        out.push(count);
    }

    /// Height of a row of cells (h / 2, or more for sparse giant domains); a cell is
    /// `CELL_ASPECT` times narrower along its row.
    pub fn cell_size(&self) -> f32 {
        self.cell_size
    }

    /// Number of cells, padding included.
    pub fn cell_count(&self) -> usize {
        self.width * self.height
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    #[test]
    fn bounds_skip_nan_coordinates() {
        let points = [
            Vec2::new(1.0, 2.0),
            Vec2::new(f32::NAN, -3.0),
            Vec2::new(4.0, f32::NAN),
        ];
        let bounds = Bounds::of(&points);
        assert_eq!(
            (bounds.min, bounds.max),
            (Vec2::new(1.0, -3.0), Vec2::new(4.0, 2.0))
        );
    }

    /// All pairs (i < j) closer than h, found through the grid, in the caller's indices.
    fn pairs_through_grid(positions: &[Vec2], h: f32) -> Vec<(u32, u32)> {
        let mut grid = Grid::default();
        grid.build(positions, h);
        let order = grid.order();
        let mut pairs = Vec::new();
        for i in 0..positions.len() {
            let original_i = order[i];
            for row in grid.neighbour_rows(positions[original_i as usize]) {
                for &original_j in &order[row.start as usize..row.end as usize] {
                    let (a, b) = (
                        positions[original_i as usize],
                        positions[original_j as usize],
                    );
                    if original_i < original_j && a.distance_squared(b) < h * h {
                        pairs.push((original_i, original_j));
                    }
                }
            }
        }
        pairs.sort_unstable();
        pairs
    }

    fn pairs_brute_force(positions: &[Vec2], h: f32) -> Vec<(u32, u32)> {
        let mut pairs = Vec::new();
        for i in 0..positions.len() {
            for j in i + 1..positions.len() {
                if positions[i].distance_squared(positions[j]) < h * h {
                    pairs.push((i as u32, j as u32));
                }
            }
        }
        pairs
    }

    #[test]
    fn grid_finds_the_same_pairs_as_brute_force() {
        let mut rng = Pcg32::seed_from_u64(7);
        for (count, size) in [(1, 1.0), (50, 0.5), (800, 4.0), (1500, 40.0), (600, 3000.0)] {
            let positions: Vec<Vec2> = (0..count)
                .map(|_| Vec2::new(rng.random_range(-size..size), rng.random_range(0.0..size)))
                .collect();
            let h = 0.3;
            assert_eq!(
                pairs_through_grid(&positions, h),
                pairs_brute_force(&positions, h),
                "{count} particles in a box of {size}"
            );
        }
    }

    #[test]
    fn grid_handles_clustered_and_coincident_particles() {
        let mut rng = Pcg32::seed_from_u64(11);
        let mut positions: Vec<Vec2> = (0..400)
            .map(|_| Vec2::new(rng.random_range(0.0..0.5), rng.random_range(0.0..0.5)))
            .collect();
        positions.extend(std::iter::repeat_n(Vec2::new(0.25, 0.25), 30));
        positions.push(Vec2::new(900.0, -400.0));
        assert_eq!(
            pairs_through_grid(&positions, 0.3),
            pairs_brute_force(&positions, 0.3)
        );
    }

    /// The rows found from the cell and part `build` kept are the rows found from the position.
    #[test]
    fn forward_rows_of_built_match_forward_rows() {
        let mut rng = Pcg32::seed_from_u64(5);
        let positions: Vec<Vec2> = (0..3000)
            .map(|_| Vec2::new(rng.random_range(0.0..6.0), rng.random_range(0.0..2.0)))
            .collect();
        let mut grid = Grid::default();
        grid.build(&positions, 0.3);
        for (index, &built) in grid.order().iter().enumerate() {
            let built = built as usize;
            assert_eq!(
                grid.forward_rows_of_built(built, index),
                grid.forward_rows(positions[built], index),
                "particle {built}, sorted {index}"
            );
        }
    }

    /// The counting sort cut into ranges of cells gives the order and the cell starts of one
    /// range: for scattered cells, for cells in about their sorted order (as the particles lie
    /// after a sort), and for all particles in one cell (every range but one empty).
    #[test]
    fn the_counting_sort_in_ranges_gives_the_order_of_one_range() {
        let (count, cell_count) = (20_000, 5_000);
        let scattered: Vec<u32> = (0..count).map(|i| (i * 7919 % cell_count) as u32).collect();
        let nearly_sorted: Vec<u32> = (0..count)
            .map(|i| ((i * cell_count / count + i % 7 * 3) % cell_count) as u32)
            .collect();
        let one_cell = vec![1234; count];
        for cells in [scattered, nearly_sorted, one_cell] {
            let sorted = |ranges: usize| {
                let mut starts = vec![0; cell_count];
                let mut order = vec![0; count];
                counting_sort(ranges, &cells, &mut starts, &mut order);
                (starts, order)
            };
            let (starts, order) = sorted(1);
            // One range is the plain stable counting sort.
            let mut expected: Vec<u32> = (0..count as u32).collect();
            expected.sort_by_key(|&i| cells[i as usize]);
            assert_eq!(order, expected);
            for (cell, &start) in starts.iter().enumerate() {
                let before = cells.iter().filter(|&&c| (c as usize) < cell).count();
                assert_eq!(start as usize, before, "cell {cell}");
            }
            for ranges in [2, 3, SORT_RANGES] {
                assert_eq!(
                    sorted(ranges),
                    (starts.clone(), order.clone()),
                    "{ranges} ranges"
                );
            }
        }
    }

    #[test]
    fn a_huge_sparse_domain_keeps_the_cell_count_bounded() {
        let positions = vec![
            Vec2::new(-5.0e4, -5.0e4),
            Vec2::new(5.0e4, 5.0e4),
            Vec2::ZERO,
        ];
        let mut grid = Grid::default();
        grid.build(&positions, 0.3);
        assert!(
            grid.cell_count() <= MIN_CELL_BUDGET * 2,
            "{}",
            grid.cell_count()
        );
        assert!(grid.cell_size() >= 0.15);
    }
}
