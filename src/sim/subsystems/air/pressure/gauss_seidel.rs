//! Stam's `lin_solve` (J. Stam, "Real-Time Fluid Dynamics for Games", 2003): lexicographic
//! Gauss–Seidel sweeps in place, on the calling thread, the baseline the multigrid is measured
//! against. An iteration is a sweep; it needs of the order of (grid side)² of them.

use super::layout::interior;
use super::Poisson;

/// Gauss–Seidel sweeps between two checks of the residual.
const GAUSS_SEIDEL_CHECK_INTERVAL: u32 = 16;

impl Poisson {
    /// Stam's `lin_solve`: lexicographic Gauss–Seidel sweeps in place, checking the residual
    /// every few sweeps; returns the sweeps and the true ‖b' − A p‖₂. Once the check passes
    /// (or the sweeps run out), p's means are removed and the residual of that p decides.
    pub(super) fn gauss_seidel(
        &mut self,
        target: f64,
        max_iterations: u32,
        p_sum: f64,
    ) -> (u32, f64) {
        let mut sweeps = 0;
        let mut residual = self.restart(Some(p_sum));
        while residual > target && sweeps < max_iterations {
            let batch = GAUSS_SEIDEL_CHECK_INTERVAL.min(max_iterations - sweeps);
            for _ in 0..batch {
                self.gauss_seidel_sweep();
            }
            sweeps += batch;
            residual = self.true_residual();
            if residual <= target || sweeps == max_iterations {
                residual = self.restart(None);
            }
        }
        (sweeps, residual)
    }

    /// One lexicographic Gauss–Seidel sweep over the finest level, in place: each cell reads
    /// the new values left of and below it, the old ones right of and above it. The left
    /// neighbour, just updated, is added last and carried in a local, so that a cell waits on
    /// one addition and one multiplication of the previous one, not on the whole sum.
    fn gauss_seidel_sweep(&mut self) {
        let grid = &self.levels[0].grid;
        let (nx, w) = (grid.nx, grid.w);
        for py in 1..=grid.ny {
            let (below, rest) = self.p.split_at_mut(py * w);
            let (row, above) = rest.split_at_mut(w);
            let (below, above) = (&below[(py - 1) * w + 1..][..nx], &above[1..][..nx]);
            let b = interior(&self.b, w, nx, py);
            let inv_diag = interior(&grid.inv_diag, w, nx, py);
            let (mut left, cells) = (0.0, &mut row[1..][..nx + 1]); // the padding, then nx cells
            for i in 0..nx {
                let others = ((b[i] + cells[i + 1]) + below[i]) + above[i];
                left = (others + left) * inv_diag[i];
                cells[i] = left;
            }
        }
    }
}
