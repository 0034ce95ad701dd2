//! The true residual r = b' − A p that stops both methods, computed in f64 from the f32
//! pressure against b' kept to about f64 precision (b and its rounding error), then rounded to
//! f32 (see the module documentation's paragraph on precision). A restart first removes p's
//! per-component means, so that p stays out of A's null space.

use super::layout::{interior, interior_mut, select, Stencil};
use super::rows::{dot, for_each_row_pair_summed, for_each_row_summed, sum, sum_rows, Sums};
use super::Poisson;

impl Poisson {
    /// Removes p's per-component means, sets r = b' − A p (computed in f64) and returns
    /// ‖r‖₂. `p_sum` is Σ p when known (one pass fewer with one component). A guess whose
    /// residual is not finite is replaced by zero first.
    pub(super) fn restart(&mut self, p_sum: Option<f64>) -> f64 {
        let grid = &self.levels[0].grid;
        let p_sum = p_sum.unwrap_or_else(|| {
            let (p, nx, w) = (&self.p, grid.nx, grid.w);
            sum_rows(grid, &mut self.partials, move |y| {
                [sum(interior(p, w, nx, y + 1)), 0.0, 0.0]
            })[0]
        });
        self.components.means(grid, &self.p, p_sum);
        let residual = self.shift_and_residual();
        if residual.is_finite() {
            return residual;
        }
        self.p.fill(0.0);
        self.components.mean[1..=self.components.count].fill(0.0);
        self.shift_and_residual()
    }

    /// p −= its component means, and r = b' − A p (computed in f64, then rounded) for the new
    /// p; returns ‖r‖₂. One pass: the new p of the rows above and below are recomputed where
    /// the residual needs them, with the same operations, and the new p is written to `p_next`
    /// (free at this point), then swapped with p.
    fn shift_and_residual(&mut self) -> f64 {
        let grid = &self.levels[0].grid;
        let (nx, w, b, b_error, p) = (grid.nx, grid.w, &self.b, &self.b_error, &self.p);
        let components = &self.components;
        let single_mean = (components.count == 1).then(|| components.mean[1]);
        let sums = for_each_row_pair_summed(
            grid,
            &mut self.p_next,
            &mut self.r,
            &mut self.partials,
            move |y, p_row, r_row| {
                let py = y + 1;
                let old = Stencil::new(p, w, nx, py);
                let b = [interior(b, w, nx, py), interior(b_error, w, nx, py)];
                let diag = interior(&grid.diag, w, nx, py);
                match single_mean {
                    Some(mean) => {
                        let mask = Stencil::new(&grid.mask, w, nx, py);
                        let shift = |value: f32, open: f32| {
                            (f64::from(value) - f64::from(open) * mean) as f32
                        };
                        shift_and_residual_row(&old, &mask, shift, b, diag, p_row, r_row)
                    }
                    None => {
                        let ids = Stencil::new(&components.id, w, nx, py);
                        let shift = |value: f32, id: u32| {
                            (f64::from(value) - components.mean[id as usize]) as f32
                        };
                        shift_and_residual_row(&old, &ids, shift, b, diag, p_row, r_row)
                    }
                }
            },
        );
        std::mem::swap(&mut self.p, &mut self.p_next);
        sums[0].sqrt()
    }

    /// r = b' − A p, with A p and the difference computed in f64 (then rounded to f32);
    /// returns ‖r‖₂.
    pub(super) fn true_residual(&mut self) -> f64 {
        let grid = &self.levels[0].grid;
        let (nx, w, b, b_error, p) = (grid.nx, grid.w, &self.b, &self.b_error, &self.p);
        let sums = for_each_row_summed(grid, &mut self.r, &mut self.partials, move |y, row| {
            let py = y + 1;
            let around = Stencil::new(p, w, nx, py);
            let (b, diag) = (interior(b, w, nx, py), interior(&grid.diag, w, nx, py));
            let b_error = interior(b_error, w, nx, py);
            let row = interior_mut(row, nx);
            for i in 0..nx {
                let b = f64::from(b[i]) + f64::from(b_error[i]);
                let value = b - around.laplacian_f64(i, diag[i]);
                row[i] = select(diag[i] > 0.0, value as f32, 0.0);
            }
            [dot(row, row), 0.0, 0.0]
        });
        sums[0].sqrt()
    }
}

/// One row of [`Poisson::shift_and_residual`]: the new p = `shift(old p, key)` into
/// `p_row`, and r = b − A (new p) into `r_row`; returns [‖r row‖², 0, 0].
fn shift_and_residual_row<K: Copy>(
    old: &Stencil<'_, f32>,
    keys: &Stencil<'_, K>,
    shift: impl Fn(f32, K) -> f32,
    [b, b_error]: [&[f32]; 2],
    diag: &[f32],
    p_row: &mut [f32],
    r_row: &mut [f32],
) -> Sums {
    let nx = b.len();
    let b_error = &b_error[..nx];
    let centre = interior_mut(p_row, nx);
    for i in 0..nx {
        centre[i] = shift(old.centre[i], keys.centre[i]);
    }
    let new: &[f32] = p_row;
    let (left, centre, right) = (&new[..nx], &new[1..][..nx], &new[2..][..nx]);
    let (diag, r_row) = (&diag[..nx], interior_mut(r_row, nx));
    for i in 0..nx {
        let below = shift(old.below[i], keys.below[i]);
        let above = shift(old.above[i], keys.above[i]);
        let neighbours =
            ((f64::from(left[i]) + f64::from(right[i])) + f64::from(below)) + f64::from(above);
        let b = f64::from(b[i]) + f64::from(b_error[i]);
        let residual = b - (f64::from(diag[i]) * f64::from(centre[i]) - neighbours);
        r_row[i] = select(diag[i] > 0.0, residual as f32, 0.0);
    }
    [dot(r_row, r_row), 0.0, 0.0]
}
