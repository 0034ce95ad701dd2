//! The padded layout every pass reads: a level's cells (`CellGrid`: which are open, the
//! Laplacian's diagonal and the prolongation's weights, stored with a ring of solid padding so
//! that no kernel checks bounds), the five-point `Stencil` of a row, slices of padded rows, and
//! `select`, the kernels' branchless choice.

/// Levels with fewer cells run their passes on the calling thread: for them a rayon fork-join
/// costs more than the work it would share.
const PARALLEL_MIN_CELLS: usize = 8192;

/// One multigrid level's cells. Fields are stored with padding: one solid column on the left,
/// two on the right, one solid row below and two above, so that no kernel checks bounds (the
/// second ring holds the 4 × 4 restriction stencil of an odd-sized level's last coarse cell).
pub struct CellGrid {
    pub nx: usize,
    pub ny: usize,
    /// Row stride: nx + 3.
    pub w: usize,
    /// Whether this level's passes are shared among rayon's threads.
    pub parallel: bool,
    /// 1 for an open cell, 0 for a solid one and for the padding.
    pub mask: Vec<f32>,
    /// The Laplacian's diagonal: the number of open 4-neighbours of an open cell, 0 elsewhere.
    pub diag: Vec<f32>,
    /// 1 / diag where diag > 0, else 0: solid and isolated cells stay 0 when smoothed.
    pub inv_diag: Vec<f32>,
    /// Per open cell with an open neighbour, 1 / (the sum of the bilinear weights of the
    /// coarser level's open cells that prolongation reads for it); 0 elsewhere.
    pub inv_weight: Vec<f32>,
}

impl CellGrid {
    pub fn new(nx: usize, ny: usize) -> Self {
        let w = nx + 3;
        let len = w * (ny + 3);
        Self {
            nx,
            ny,
            w,
            parallel: nx * ny >= PARALLEL_MIN_CELLS,
            mask: vec![0.0; len],
            diag: vec![0.0; len],
            inv_diag: vec![0.0; len],
            inv_weight: vec![0.0; len],
        }
    }

    /// Number of stored values, padding included.
    pub fn len(&self) -> usize {
        self.w * (self.ny + 3)
    }

    /// The Laplacian's diagonal (and its inverse) from the mask.
    pub fn set_diagonal(&mut self) {
        let w = self.w;
        for y in 1..=self.ny {
            for i in y * w + 1..y * w + 1 + self.nx {
                let m = &self.mask;
                let open_neighbours = m[i - 1] + m[i + 1] + m[i - w] + m[i + w];
                self.diag[i] = m[i] * open_neighbours;
                self.inv_diag[i] = if self.diag[i] > 0.0 {
                    1.0 / self.diag[i]
                } else {
                    0.0
                };
            }
        }
    }
}

/// The five-point neighbourhood of one row's interior cells: five slices of nx values.
pub struct Stencil<'a, T = f32> {
    pub centre: &'a [T],
    pub left: &'a [T],
    pub right: &'a [T],
    pub below: &'a [T],
    pub above: &'a [T],
}

impl<'a, T> Stencil<'a, T> {
    /// The neighbourhood of padded row `py` of `field` (stride `w`, `nx` interior cells).
    /// Always inlined, so that the compiler sees the five lengths are `nx` (no bounds checks).
    #[inline(always)]
    pub fn new(field: &'a [T], w: usize, nx: usize, py: usize) -> Self {
        let start = py * w + 1;
        Self {
            centre: &field[start..][..nx],
            left: &field[start - 1..][..nx],
            right: &field[start + 1..][..nx],
            below: &field[start - w..][..nx],
            above: &field[start + w..][..nx],
        }
    }
}

impl Stencil<'_, f32> {
    /// The sum of cell `i`'s four neighbours, in a fixed order (solid ones hold 0).
    #[inline]
    pub fn sum(&self, i: usize) -> f32 {
        ((self.left[i] + self.right[i]) + self.below[i]) + self.above[i]
    }

    /// (A v)ᵢ for an open cell whose diagonal is `diag`.
    #[inline]
    pub fn laplacian(&self, i: usize, diag: f32) -> f32 {
        diag * self.centre[i] - self.sum(i)
    }

    /// (A v)ᵢ in f64.
    #[inline]
    pub fn laplacian_f64(&self, i: usize, diag: f32) -> f64 {
        let neighbours = ((f64::from(self.left[i]) + f64::from(self.right[i]))
            + f64::from(self.below[i]))
            + f64::from(self.above[i]);
        f64::from(diag) * f64::from(self.centre[i]) - neighbours
    }
}

/// Padded row `py` of a field stored with stride `w`, padding included.
#[inline]
pub fn row(field: &[f32], w: usize, py: usize) -> &[f32] {
    &field[py * w..][..w]
}

/// `len` cells of padded row `py`, from padded column `shift` on.
#[inline]
pub fn cells(field: &[f32], w: usize, py: usize, shift: usize, len: usize) -> &[f32] {
    &field[py * w + shift..][..len]
}

/// The `nx` interior cells of padded row `py`.
#[inline]
pub fn interior(field: &[f32], w: usize, nx: usize, py: usize) -> &[f32] {
    &field[py * w + 1..][..nx]
}

/// The `nx` interior cells of a padded row.
#[inline]
pub fn interior_mut(row: &mut [f32], nx: usize) -> &mut [f32] {
    &mut row[1..][..nx]
}

/// The stored indices of a grid's interior cells, in index order.
pub fn interior_indices(grid: &CellGrid) -> impl Iterator<Item = usize> + '_ {
    (1..=grid.ny).flat_map(move |y| y * grid.w + 1..y * grid.w + 1 + grid.nx)
}

/// `a` if `pick_a`, else `b`, bit for bit and without a branch: both are computed, so the
/// half sweeps' loops vectorise.
#[inline(always)]
pub fn select(pick_a: bool, a: f32, b: f32) -> f32 {
    let mask = u32::from(pick_a).wrapping_neg(); // all ones, or zero
    f32::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}
