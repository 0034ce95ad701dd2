//! How a pass runs: row by row over a level's interior, the rows shared among rayon's threads on
//! large levels, and a pass's sums taken per row in f64 (over lanes added in a fixed order),
//! then added in row order, so that the result is the same bits at any thread count (see the
//! module documentation's paragraph on determinism).

use super::layout::CellGrid;
use rayon::prelude::*;

/// Fewest rows per rayon task.
pub const MIN_ROWS_PER_TASK: usize = 8;

/// Per-row sums, added in row order after a pass (three, for the passes that need several).
pub type Sums = [f64; 3];

/// Σ aᵢ bᵢ in f64, over eight interleaved partial sums added in a fixed order.
#[inline]
pub fn dot(a: &[f32], b: &[f32]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let (a_chunks, b_chunks) = (a.chunks_exact(8), b.chunks_exact(8));
    let tail: f64 = (a_chunks.remainder().iter().zip(b_chunks.remainder()))
        .map(|(&x, &y)| f64::from(x) * f64::from(y))
        .sum();
    for (a8, b8) in a_chunks.zip(b_chunks) {
        for ((lane, &x), &y) in lanes.iter_mut().zip(a8).zip(b8) {
            *lane += f64::from(x) * f64::from(y);
        }
    }
    add_lanes(lanes) + tail
}

/// [Σ aᵢ bᵢ, Σ bᵢ, Σ aᵢ] in f64, each over four interleaved partial sums added in a fixed
/// order, in one loop.
#[inline]
pub fn dot_and_sums(a: &[f32], b: &[f32]) -> Sums {
    let (mut ab, mut b_sum, mut a_sum) = ([0.0f64; 4], [0.0f64; 4], [0.0f64; 4]);
    let (a_chunks, b_chunks) = (a.as_chunks::<4>(), b.as_chunks::<4>());
    for (a4, b4) in a_chunks.0.iter().zip(b_chunks.0) {
        for k in 0..4 {
            let (x, y) = (f64::from(a4[k]), f64::from(b4[k]));
            ab[k] += x * y;
            b_sum[k] += y;
            a_sum[k] += x;
        }
    }
    let mut tail = [0.0; 3];
    for (&x, &y) in a_chunks.1.iter().zip(b_chunks.1) {
        let (x, y) = (f64::from(x), f64::from(y));
        tail = [tail[0] + x * y, tail[1] + y, tail[2] + x];
    }
    let add = |l: [f64; 4]| (l[0] + l[1]) + (l[2] + l[3]);
    [
        add(ab) + tail[0],
        add(b_sum) + tail[1],
        add(a_sum) + tail[2],
    ]
}

/// Σ (aᵢ + bᵢ)² in f64 (a value and its rounding error), over eight interleaved partial sums
/// added in a fixed order.
#[inline]
pub fn squares_of_sums(a: &[f32], b: &[f32]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let (a_chunks, b_chunks) = (a.chunks_exact(8), b.chunks_exact(8));
    let square = |x: f32, y: f32| (f64::from(x) + f64::from(y)) * (f64::from(x) + f64::from(y));
    let tail: f64 = (a_chunks.remainder().iter().zip(b_chunks.remainder()))
        .map(|(&x, &y)| square(x, y))
        .sum();
    for (a8, b8) in a_chunks.zip(b_chunks) {
        for ((lane, &x), &y) in lanes.iter_mut().zip(a8).zip(b8) {
            *lane += square(x, y);
        }
    }
    add_lanes(lanes) + tail
}

/// Σ aᵢ in f64, over eight interleaved partial sums added in a fixed order.
#[inline]
pub fn sum(a: &[f32]) -> f64 {
    let mut lanes = [0.0f64; 8];
    let chunks = a.chunks_exact(8);
    let tail: f64 = chunks.remainder().iter().map(|&x| f64::from(x)).sum();
    for a8 in chunks {
        for (lane, &x) in lanes.iter_mut().zip(a8) {
            *lane += f64::from(x);
        }
    }
    add_lanes(lanes) + tail
}

/// The eight partial sums, added pairwise.
#[inline]
fn add_lanes(l: [f64; 8]) -> f64 {
    ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]))
}

/// Runs `kernel(y, row)` on every interior row `y` of `field` (the row with its padding), in
/// parallel if the grid's passes are.
pub fn for_each_row<F>(grid: &CellGrid, field: &mut [f32], kernel: F)
where
    F: Fn(usize, &mut [f32]) + Sync + Send,
{
    let rows = &mut field[grid.w..(grid.ny + 1) * grid.w];
    if grid.parallel {
        let rows = rows.par_chunks_mut(grid.w).with_min_len(MIN_ROWS_PER_TASK);
        rows.enumerate().for_each(|(y, row)| kernel(y, row));
    } else {
        rows.chunks_mut(grid.w)
            .enumerate()
            .for_each(|(y, row)| kernel(y, row));
    }
}

/// Like [`for_each_row`], and returns the sums of the rows' results, added in row order.
pub fn for_each_row_summed<F>(
    grid: &CellGrid,
    field: &mut [f32],
    partials: &mut [Sums],
    kernel: F,
) -> Sums
where
    F: Fn(usize, &mut [f32]) -> Sums + Sync + Send,
{
    let rows = &mut field[grid.w..(grid.ny + 1) * grid.w];
    let partials = &mut partials[..grid.ny];
    if grid.parallel {
        let rows = rows.par_chunks_mut(grid.w).zip(partials.par_iter_mut());
        let rows = rows.with_min_len(MIN_ROWS_PER_TASK).enumerate();
        rows.for_each(|(y, (row, partial))| *partial = kernel(y, row));
    } else {
        let rows = rows.chunks_mut(grid.w).zip(partials.iter_mut()).enumerate();
        rows.for_each(|(y, (row, partial))| *partial = kernel(y, row));
    }
    add_in_order(partials)
}

/// Like [`for_each_row_summed`], over the rows of two fields at once.
pub fn for_each_row_pair_summed<F>(
    grid: &CellGrid,
    first: &mut [f32],
    second: &mut [f32],
    partials: &mut [Sums],
    kernel: F,
) -> Sums
where
    F: Fn(usize, &mut [f32], &mut [f32]) -> Sums + Sync + Send,
{
    let interior_rows = grid.w..(grid.ny + 1) * grid.w;
    let (first, second) = (
        &mut first[interior_rows.clone()],
        &mut second[interior_rows],
    );
    let partials = &mut partials[..grid.ny];
    if grid.parallel {
        let rows = first
            .par_chunks_mut(grid.w)
            .zip(second.par_chunks_mut(grid.w));
        let rows = rows
            .zip(partials.par_iter_mut())
            .with_min_len(MIN_ROWS_PER_TASK);
        rows.enumerate()
            .for_each(|(y, ((a, b), partial))| *partial = kernel(y, a, b));
    } else {
        let rows = first.chunks_mut(grid.w).zip(second.chunks_mut(grid.w));
        let rows = rows.zip(partials.iter_mut()).enumerate();
        rows.for_each(|(y, ((a, b), partial))| *partial = kernel(y, a, b));
    }
    add_in_order(partials)
}

/// The sums of `kernel(y)` over the interior rows `y`, added in row order.
pub fn sum_rows<F>(grid: &CellGrid, partials: &mut [Sums], kernel: F) -> Sums
where
    F: Fn(usize) -> Sums + Sync + Send,
{
    let partials = &mut partials[..grid.ny];
    if grid.parallel {
        let rows = partials.par_iter_mut().with_min_len(MIN_ROWS_PER_TASK);
        rows.enumerate()
            .for_each(|(y, partial)| *partial = kernel(y));
    } else {
        let rows = partials.iter_mut().enumerate();
        rows.for_each(|(y, partial)| *partial = kernel(y));
    }
    add_in_order(partials)
}

/// Adds per-row sums in row order.
fn add_in_order(partials: &[Sums]) -> Sums {
    partials.iter().fold([0.0; 3], |total, row| {
        [total[0] + row[0], total[1] + row[1], total[2] + row[2]]
    })
}
