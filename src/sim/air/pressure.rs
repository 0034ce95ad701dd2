//! The pressure projection's linear solver on a 2D MAC grid: A p = b, where A is the 5-point
//! Laplacian of the open (air) cells with Neumann walls at solid cells and at the grid's edge.
//!
//! Two methods: conjugate gradients preconditioned by one multigrid V-cycle
//! ([`Method::MultigridPcg`], the default: a handful of iterations at any grid size), and
//! Stam's `lin_solve`, plain Gauss–Seidel sweeps ([`Method::GaussSeidel`], a baseline).
//!
//! References: R. Bridson, *Fluid Simulation for Computer Graphics*, 2nd ed. (2015), ch. 5;
//! A. McAdams, E. Sifakis, J. Teran, "A parallel multigrid Poisson solver for fluids
//! simulation on large grids" (SCA 2010); J. Stam, "Real-Time Fluid Dynamics for Games" (2003).
//!
//! **The singular system.** With Neumann walls A has the constants of each connected component
//! of open cells (4-connectivity) as its null space. [`Poisson::solve`] labels the components,
//! removes from b its mean over each (which makes the system consistent; [`Report`] says how
//! much it removed), keeps the preconditioned residual free of per-component constants, and
//! returns the solution with zero mean over each component.
//!
//! **The multigrid.** Cell-centred levels halve each side (rounding up) until no side exceeds
//! four cells; a coarse cell is open if any of its four children is. Each level's operator is
//! the same 5-point Laplacian, rediscretised on its own cells. Prolongation is bilinear,
//! renormalised over the open coarse cells it reads (so it reproduces constants, as Neumann
//! walls want); restriction is exactly its transpose. Smoothing is red-black Gauss–Seidel:
//! red then black before the coarse correction, black then red after it, and a palindromic
//! run of sweeps on the coarsest level, so the V-cycle is a symmetric preconditioner.
//!
//! **Determinism.** Every pass works row by row with a fixed arithmetic per row (red-black
//! updates read only the other colour), and sums are taken per row in f64 and added in row
//! order, so the result is bit-identical at any rayon thread count.
//!
//! **Precision.** Vectors are f32, sums f64. The reported residual is recomputed in f64 from
//! the f32 pressure that is returned, against b' kept to about f64 precision (its f32 rounding
//! and the rounding error); the recursively updated residual only decides when to check it.
//! Rounding the pressure to f32 bounds how low the residual can go (about 1e-7 × ‖p‖ / ‖b'‖,
//! e.g. 2e-6 for white noise among many solid cells), and a solve asked for less stops once a
//! restart of the iteration no longer halves the residual.

// The stencil kernels index several shifted rows, cut to one length, with one index: the
// index loops are what lets the compiler drop the bounds checks and vectorise.
#![allow(clippy::needless_range_loop)]

use crate::sim::portable::Ordered;
use rayon::prelude::*;

/// Which method solves the pressure Poisson equation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Method {
    /// Conjugate gradients preconditioned by one multigrid V-cycle (McAdams et al. 2010):
    /// a handful of iterations, whatever the grid size. Parallel over rows.
    #[default]
    MultigridPcg,
    /// Stam's `lin_solve`: lexicographic Gauss–Seidel sweeps in place, on the calling thread.
    /// An iteration is a sweep; it needs of the order of (grid side)² of them.
    GaussSeidel,
}

/// Stopping rule.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Settings {
    /// The method to use.
    pub method: Method,
    /// Target relative residual ‖b' − A p‖₂ / ‖b'‖₂, where b' is b less its mean over each
    /// component of open cells. The f32 pressure returned cannot in general do better than
    /// about 1e-7 × ‖p‖ / ‖b'‖ (its rounding alone); asked for less, a solve stops there.
    pub tolerance: f32,
    /// Most iterations (CG iterations, or Gauss–Seidel sweeps) before giving up.
    pub max_iterations: u32,
}

impl Default for Settings {
    /// Multigrid-preconditioned CG to a relative residual of 1e-4, at most 100 iterations.
    fn default() -> Self {
        Self {
            method: Method::MultigridPcg,
            tolerance: 1e-4,
            max_iterations: 100,
        }
    }
}

/// What a solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Report {
    /// CG iterations, or Gauss–Seidel sweeps, that were run.
    pub iterations: u32,
    /// ‖b' − A p‖₂ / ‖b'‖₂ of the pressure returned, computed in f64 (0 when b' is 0).
    pub relative_residual: f32,
    /// Connected components of open cells (4-connectivity), each with its own constant in
    /// A's null space.
    pub components: u32,
    /// ‖b − b'‖₂ / ‖b‖₂ over the open cells: how much of the right-hand side was its
    /// per-component means, removed to make the system consistent (0 when b already summed to
    /// zero over each component, or when b is 0).
    pub rhs_mean_removed: f32,
}

/// Levels are coarsened until neither side exceeds this many cells.
const COARSEST_SIDE: usize = 4;
/// Red-black sweeps on the coarsest level (then one more red half sweep, for symmetry).
const COARSEST_SWEEPS: usize = 8;
/// Levels with fewer cells run their passes on the calling thread: for them a rayon fork-join
/// costs more than the work it would share.
const PARALLEL_MIN_CELLS: usize = 8192;
/// Fewest rows per rayon task.
const MIN_ROWS_PER_TASK: usize = 8;
/// Gauss–Seidel sweeps between two checks of the residual.
const GAUSS_SEIDEL_CHECK_INTERVAL: u32 = 16;
/// Cell colours of the red-black ordering: cell (x, y) is red when x + y is even.
const RED: usize = 0;
/// See [`RED`].
const BLACK: usize = 1;

/// Per-row sums, added in row order after a pass (three, for the passes that need several).
type Sums = [f64; 3];

/// Reusable workspace for an nx × ny grid (all buffers, multigrid levels): a solve allocates
/// nothing.
pub struct Poisson {
    nx: usize,
    ny: usize,
    /// The multigrid levels, the grid itself first.
    levels: Vec<Level>,
    /// Right-hand sides of `levels[1..]`, in that order.
    coarse_rhs: Vec<Vec<f32>>,
    components: Components,
    /// The `open` mask the levels and components were last built for.
    built_for: Vec<bool>,
    built: bool,
    /// CG vectors, in the finest level's padded layout: b', p, r, the search direction d (and
    /// the next one, written while d is read), and scratch for a new p. The preconditioned
    /// residual z is the finest level's `x`.
    b: Vec<f32>,
    /// What b' lost when rounded to f32 (itself rounded): b + b_error is b' to about f64
    /// precision, which the residual is measured against.
    b_error: Vec<f32>,
    p: Vec<f32>,
    r: Vec<f32>,
    d: Vec<f32>,
    d_next: Vec<f32>,
    p_next: Vec<f32>,
    /// With several components: each open cell's component mean of z, to subtract from it.
    z_means: Vec<f32>,
    /// One entry per row of the finest level, for the row sums.
    partials: Vec<Sums>,
}

impl Poisson {
    /// A workspace for an `nx` × `ny` grid, with its multigrid levels.
    ///
    /// # Panics
    /// If `nx` or `ny` is 0.
    pub fn new(nx: usize, ny: usize) -> Self {
        assert!(nx > 0 && ny > 0, "a pressure grid needs at least one cell");
        let mut levels = vec![Level::new(nx, ny)];
        let mut coarse_rhs = Vec::new();
        let (mut lx, mut ly) = (nx, ny);
        while lx.max(ly) > COARSEST_SIDE {
            (lx, ly) = (lx.div_ceil(2), ly.div_ceil(2));
            let level = Level::new(lx, ly);
            coarse_rhs.push(vec![0.0; level.grid.len()]);
            levels.push(level);
        }
        let grid = &levels[0].grid;
        let len = grid.len();
        Self {
            nx,
            ny,
            components: Components::new(grid),
            levels,
            coarse_rhs,
            built_for: vec![false; nx * ny],
            built: false,
            b: vec![0.0; len],
            b_error: vec![0.0; len],
            p: vec![0.0; len],
            r: vec![0.0; len],
            d: vec![0.0; len],
            d_next: vec![0.0; len],
            p_next: vec![0.0; len],
            z_means: vec![0.0; len],
            partials: vec![[0.0; 3]; ny],
        }
    }

    /// Solves A p = b on the open cells. Cells are row-major, index = x + nx * y (y up).
    ///
    /// `open[i]` true: an air cell whose pressure is unknown; false: a solid cell (its
    /// pressure is left 0 and it takes no part). A is the 5-point Laplacian with Neumann
    /// walls: for an open cell, diagonal = number of open 4-neighbours (neighbours outside the
    /// grid count as solid), off-diagonal = −1 for each open neighbour.
    ///
    /// A is singular once per connected component of open cells (constants). The solver finds
    /// the components itself (4-connectivity), removes from b its mean over each component
    /// (so the system is consistent; [`Report::rhs_mean_removed`] says how much), and returns
    /// p with zero mean over each component.
    ///
    /// `pressure` holds the initial guess on entry (warm start from the previous step; a
    /// guess whose residual is not finite is replaced by zero) and the solution on exit. A
    /// right-hand side that is not finite gives p = 0 and a NaN residual. Levels and
    /// components are rebuilt only when `open` differs from the previous call's.
    ///
    /// # Panics
    /// If a slice's length is not nx × ny.
    pub fn solve(
        &mut self,
        open: &[bool],
        rhs: &[f32],
        pressure: &mut [f32],
        settings: Settings,
    ) -> Report {
        let cells = self.nx * self.ny;
        assert_eq!(open.len(), cells, "`open` must have nx × ny cells");
        assert_eq!(rhs.len(), cells, "`rhs` must have nx × ny cells");
        assert_eq!(pressure.len(), cells, "`pressure` must have nx × ny cells");
        self.build(open);
        let components = self.components.count as u32;
        if components == 0 {
            pressure.fill(0.0);
            return Report::default();
        }
        let (b_norm, rhs_mean_removed) = self.load_rhs(rhs);
        let p_sum = self.load_pressure(pressure);
        let (iterations, residual) = if !b_norm.is_finite() {
            self.p.fill(0.0);
            (0, f64::NAN)
        } else if b_norm == 0.0 {
            self.p.fill(0.0);
            (0, 0.0)
        } else {
            let target = f64::from(settings.tolerance) * b_norm;
            let (iterations, residual) = match settings.method {
                Method::MultigridPcg => self.pcg(target, settings.max_iterations, p_sum),
                Method::GaussSeidel => self.gauss_seidel(target, settings.max_iterations, p_sum),
            };
            (iterations, residual / b_norm)
        };
        self.store_pressure(pressure);
        Report {
            iterations,
            relative_residual: residual as f32,
            components,
            rhs_mean_removed: rhs_mean_removed as f32,
        }
    }

    /// Rebuilds the levels' cells and the components for `open`, unless they were built for
    /// it already.
    fn build(&mut self, open: &[bool]) {
        if self.built && self.built_for == open {
            return;
        }
        self.built_for.copy_from_slice(open);
        self.built = true;
        let finest = &mut self.levels[0].grid;
        let (nx, w) = (finest.nx, finest.w);
        for (y, open_row) in open.chunks_exact(nx).enumerate() {
            let mask = &mut finest.mask[(y + 1) * w + 1..][..nx];
            for (m, &o) in mask.iter_mut().zip(open_row) {
                *m = if o { 1.0 } else { 0.0 };
            }
        }
        for l in 1..self.levels.len() {
            let (finer, coarser) = self.levels.split_at_mut(l);
            coarser[0].grid.coarsen_mask(&finer[l - 1].grid);
        }
        for l in 0..self.levels.len() {
            let (level, coarser) = self.levels[l..].split_first_mut().expect("level l exists");
            level.grid.set_diagonal();
            if let Some(coarse) = coarser.first() {
                level.grid.set_prolongation_weights(&coarse.grid);
            }
        }
        self.components.label(&self.levels[0].grid);
    }

    /// Copies the open cells of `rhs` into b, removes its per-component means, and returns
    /// (‖b'‖₂, ‖b − b'‖₂ / ‖b‖₂) over the open cells.
    fn load_rhs(&mut self, rhs: &[f32]) -> (f64, f64) {
        let grid = &self.levels[0].grid;
        let (nx, mask) = (grid.nx, &grid.mask);
        let sums = for_each_row_summed(grid, &mut self.b, &mut self.partials, move |y, row| {
            let (row, mask) = (interior_mut(row, nx), interior(mask, grid.w, nx, y + 1));
            let rhs = &rhs[y * nx..][..nx];
            for i in 0..nx {
                row[i] = select(mask[i] > 0.0, rhs[i], 0.0);
            }
            [dot(row, row), sum(row), 0.0]
        });
        let b_norm = sums[0].sqrt();
        self.components.means(grid, &self.b, sums[1]);
        let removed = self.components.mean_part_norm();
        let b_squared = self.components.subtract_means_exactly(
            grid,
            &mut self.b,
            &mut self.b_error,
            &mut self.partials,
        );
        let relative_removed = if b_norm > 0.0 { removed / b_norm } else { 0.0 };
        (b_squared.sqrt(), relative_removed)
    }

    /// Copies the open cells of the initial guess into p (solid cells 0); returns Σ p.
    fn load_pressure(&mut self, pressure: &[f32]) -> f64 {
        let grid = &self.levels[0].grid;
        let (nx, mask) = (grid.nx, &grid.mask);
        let sums = for_each_row_summed(grid, &mut self.p, &mut self.partials, move |y, row| {
            let (row, mask) = (interior_mut(row, nx), interior(mask, grid.w, nx, y + 1));
            let pressure = &pressure[y * nx..][..nx];
            for i in 0..nx {
                row[i] = select(mask[i] > 0.0, pressure[i], 0.0);
            }
            [sum(row), 0.0, 0.0]
        });
        sums[0]
    }

    /// Copies p out, with +0 on solid cells (p holds ±0 there).
    fn store_pressure(&self, pressure: &mut [f32]) {
        let grid = &self.levels[0].grid;
        let (nx, w) = (grid.nx, grid.w);
        let copy_row = |(y, out): (usize, &mut [f32])| {
            let (p, mask) = (
                interior(&self.p, w, nx, y + 1),
                interior(&grid.mask, w, nx, y + 1),
            );
            for i in 0..nx {
                out[i] = select(mask[i] > 0.0, p[i], 0.0);
            }
        };
        if grid.parallel {
            let rows = pressure.par_chunks_mut(nx).with_min_len(MIN_ROWS_PER_TASK);
            rows.enumerate().for_each(copy_row);
        } else {
            pressure.chunks_mut(nx).enumerate().for_each(copy_row);
        }
    }

    /// Multigrid-preconditioned CG from the guess in p until ‖r‖ ≤ `target` or
    /// `max_iterations`; returns the iterations and the true ‖b' − A p‖₂. When the recursively
    /// updated residual has met the target but the true one has not (f32 drift), CG restarts
    /// from the true residual, as long as each restart at least halves it.
    fn pcg(&mut self, target: f64, max_iterations: u32, p_sum: f64) -> (u32, f64) {
        let mut iterations = 0;
        let mut residual = self.restart(Some(p_sum));
        let mut previous = f64::INFINITY;
        while residual > target && iterations < max_iterations && residual < 0.5 * previous {
            previous = residual;
            self.cg_cycle(target, max_iterations, &mut iterations);
            residual = self.restart(None);
        }
        (iterations, residual)
    }

    /// CG iterations from the residual in r, until the updated residual meets `target` or
    /// `iterations` reaches `max_iterations`.
    fn cg_cycle(&mut self, target: f64, max_iterations: u32, iterations: &mut u32) {
        self.d.fill(0.0);
        let mut rho = self.precondition();
        let mut beta = 0.0;
        loop {
            let curvature = self.update_direction(beta);
            if !(curvature > 0.0 && rho > 0.0) {
                break; // r = 0, or rounding broke the recurrence: the caller restarts.
            }
            let alpha = rho / curvature;
            let r_norm = self.step(alpha as f32);
            *iterations += 1;
            if r_norm <= target || *iterations >= max_iterations {
                break;
            }
            let rho_next = self.precondition();
            beta = (rho_next / rho) as f32;
            rho = rho_next;
        }
    }

    /// Removes p's per-component means, sets r = b' − A p (computed in f64) and returns
    /// ‖r‖₂. `p_sum` is Σ p when known (one pass fewer with one component). A guess whose
    /// residual is not finite is replaced by zero first.
    fn restart(&mut self, p_sum: Option<f64>) -> f64 {
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
    fn true_residual(&mut self) -> f64 {
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

    /// z = one V-cycle applied to r (into the finest level's `x`); finds z's per-component
    /// means and returns ρ = r · (z − means), the CG inner product with z kept in A's range.
    /// The V-cycle's last half sweep also sums r · z, Σ z and Σ r.
    fn precondition(&mut self) -> f64 {
        v_cycle_but_last(&mut self.levels, &mut self.coarse_rhs, &self.r);
        let level = &mut self.levels[0];
        let [rz, z_sum, r_sum] = relax_summed(level, &self.r, RED);
        let components = &mut self.components;
        if components.count == 1 {
            components.mean[1] = z_sum / components.size[1];
            return rz - components.mean[1] * r_sum;
        }
        let rz = rz - components.project(&level.grid, &self.r, &level.x);
        components.spread_means(&level.grid, &mut self.z_means);
        rz
    }

    /// d = (z − its component means) + β d; returns d · A d. One pass: the rows above and
    /// below a row's d are recomputed where A d needs them, with the same operations, and d is
    /// written to a second buffer (the rows of the first are still read). A d is not stored:
    /// [`Self::step`] recomputes it.
    fn update_direction(&mut self, beta: f32) -> f64 {
        let grid = &self.levels[0].grid;
        let (nx, w, z, d) = (grid.nx, grid.w, &self.levels[0].x, &self.d);
        let components = &self.components;
        // With one component every open cell has an open neighbour (diag > 0), unless it is
        // the only open cell (then z = 0): the mean is subtracted where diag > 0.
        let single_mean = (components.count == 1).then(|| components.mean[1] as f32);
        let z_means = &self.z_means;
        let sums =
            for_each_row_summed(grid, &mut self.d_next, &mut self.partials, move |y, row| {
                let py = y + 1;
                let (z, d) = (Stencil::new(z, w, nx, py), Stencil::new(d, w, nx, py));
                let diag = Stencil::new(&grid.diag, w, nx, py);
                match single_mean {
                    Some(mean) => {
                        let direction = |z: f32, diag: f32, d: f32| {
                            (z - select(diag > 0.0, mean, 0.0)) + beta * d
                        };
                        direction_row(&z, &diag, &d, &diag, direction, row)
                    }
                    None => {
                        let means = Stencil::new(z_means, w, nx, py);
                        let direction = |z: f32, mean: f32, d: f32| (z - mean) + beta * d;
                        direction_row(&z, &means, &d, &diag, direction, row)
                    }
                }
            });
        std::mem::swap(&mut self.d, &mut self.d_next);
        sums[0]
    }

    /// p += α d and r −= α A d; returns ‖r‖₂.
    fn step(&mut self, alpha: f32) -> f64 {
        let grid = &self.levels[0].grid;
        let (nx, w, d) = (grid.nx, grid.w, &self.d);
        let sums = for_each_row_pair_summed(
            grid,
            &mut self.p,
            &mut self.r,
            &mut self.partials,
            move |y, p_row, r_row| {
                let py = y + 1;
                let (d, diag) = (Stencil::new(d, w, nx, py), interior(&grid.diag, w, nx, py));
                let (p_row, r_row) = (interior_mut(p_row, nx), interior_mut(r_row, nx));
                for i in 0..nx {
                    let ad = select(diag[i] > 0.0, d.laplacian(i, diag[i]), 0.0);
                    p_row[i] += alpha * d.centre[i];
                    r_row[i] -= alpha * ad;
                }
                [dot(r_row, r_row), 0.0, 0.0]
            },
        );
        sums[0].sqrt()
    }

    /// Stam's `lin_solve`: lexicographic Gauss–Seidel sweeps in place, checking the residual
    /// every few sweeps; returns the sweeps and the true ‖b' − A p‖₂. Once the check passes
    /// (or the sweeps run out), p's means are removed and the residual of that p decides.
    fn gauss_seidel(&mut self, target: f64, max_iterations: u32, p_sum: f64) -> (u32, f64) {
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

/// One multigrid level's cells. Fields are stored with padding: one solid column on the left,
/// two on the right, one solid row below and two above, so that no kernel checks bounds (the
/// second ring holds the 4 × 4 restriction stencil of an odd-sized level's last coarse cell).
struct CellGrid {
    nx: usize,
    ny: usize,
    /// Row stride: nx + 3.
    w: usize,
    /// Whether this level's passes are shared among rayon's threads.
    parallel: bool,
    /// 1 for an open cell, 0 for a solid one and for the padding.
    mask: Vec<f32>,
    /// The Laplacian's diagonal: the number of open 4-neighbours of an open cell, 0 elsewhere.
    diag: Vec<f32>,
    /// 1 / diag where diag > 0, else 0: solid and isolated cells stay 0 when smoothed.
    inv_diag: Vec<f32>,
    /// Per open cell with an open neighbour, 1 / (the sum of the bilinear weights of the
    /// coarser level's open cells that prolongation reads for it); 0 elsewhere.
    inv_weight: Vec<f32>,
}

impl CellGrid {
    fn new(nx: usize, ny: usize) -> Self {
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
    fn len(&self) -> usize {
        self.w * (self.ny + 3)
    }

    /// A coarse cell is open when any of its (up to four) children in `fine` is.
    fn coarsen_mask(&mut self, fine: &CellGrid) {
        let (w, fw) = (self.w, fine.w);
        for y in 0..self.ny {
            for x in 0..self.nx {
                let child = (2 * y + 1) * fw + 2 * x + 1;
                let any = fine.mask[child]
                    .at_least(fine.mask[child + 1])
                    .at_least(fine.mask[child + fw])
                    .at_least(fine.mask[child + fw + 1]);
                self.mask[(y + 1) * w + x + 1] = any;
            }
        }
    }

    /// The Laplacian's diagonal (and its inverse) from the mask.
    fn set_diagonal(&mut self) {
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

    /// The normalisation of the bilinear prolongation from `coarse` (see [`prolong_add`]):
    /// the same weights, by rows and by pairs of cells.
    fn set_prolongation_weights(&mut self, coarse: &CellGrid) {
        let (nx, w, cw, pairs) = (self.nx, self.w, coarse.w, self.nx / 2);
        let (diag, coarse_mask) = (&self.diag, &coarse.mask);
        let parallel = self.parallel;
        let rows = &mut self.inv_weight[w..(self.ny + 1) * w];
        let kernel = move |(y, padded): (usize, &mut [f32])| {
            let (cy, cy_side) = parent_and_side(y);
            let cut = |py, shift| cells(coarse_mask, cw, py, shift, pairs);
            let (m0_left, m0_right) = (cut(cy, 0), cut(cy, 2));
            let (m1, m1_left, m1_right) = (cut(cy_side, 1), cut(cy_side, 0), cut(cy_side, 2));
            let weight = |m0_side: f32, m1: f32, m1_side: f32| {
                9.0 + 3.0 * m0_side + 3.0 * m1 + m0_side.at_least(m1) * m1_side
            };
            let diag = interior(diag, w, nx, y + 1);
            let diag_pairs = &diag.as_chunks::<2>().0[..pairs];
            let out = interior_mut(padded, nx);
            let (out_pairs, last) = out.as_chunks_mut::<2>();
            let out_pairs = &mut out_pairs[..pairs];
            // Isolated cells (diagonal 0) stay out of the transfers: they are never smoothed,
            // so a residual they passed down would not come back symmetrically.
            let inverse = |weight: f32, diag: f32| select(diag > 0.0, 1.0 / weight, 0.0);
            for k in 0..pairs {
                let left = weight(m0_left[k], m1[k], m1_left[k]);
                let right = weight(m0_right[k], m1[k], m1_right[k]);
                out_pairs[k] = [
                    inverse(left, diag_pairs[k][0]),
                    inverse(right, diag_pairs[k][1]),
                ];
            }
            if let [value] = last {
                let (cx, cx_side) = parent_and_side(nx - 1);
                let (m0, m1) = (row(coarse_mask, cw, cy), row(coarse_mask, cw, cy_side));
                *value = inverse(weight(m0[cx_side], m1[cx], m1[cx_side]), diag[nx - 1]);
            }
        };
        if parallel {
            rows.par_chunks_mut(w).enumerate().for_each(kernel);
        } else {
            rows.chunks_mut(w).enumerate().for_each(kernel);
        }
    }
}

/// A level's grid and its solution buffers.
struct Level {
    grid: CellGrid,
    /// The level's correction (on the finest level: the preconditioned residual z).
    x: Vec<f32>,
    /// Scratch: the smoother's and prolongation's output (then swapped with `x`), and the
    /// scaled residual that restriction reads.
    tmp: Vec<f32>,
    /// One entry per row, for the row sums.
    partials: Vec<Sums>,
}

impl Level {
    fn new(nx: usize, ny: usize) -> Self {
        let grid = CellGrid::new(nx, ny);
        let len = grid.len();
        Self {
            grid,
            x: vec![0.0; len],
            tmp: vec![0.0; len],
            partials: vec![[0.0; 3]; ny],
        }
    }
}

/// The connected components of the finest level's open cells, and per-component sums.
struct Components {
    /// Per stored cell: 0 for solid cells and padding, else the 1-based id of its component.
    id: Vec<u32>,
    /// Number of components.
    count: usize,
    /// Per id (index 0: the solid cells, whose mean is kept 0): cells, sums and means.
    size: Vec<f64>,
    sum: Vec<f64>,
    other_sum: Vec<f64>,
    mean: Vec<f64>,
    /// Labelling: the runs of open cells (first and one-past-last stored index, row by row),
    /// the index of each row's first run, and each run's parent in the union-find.
    runs: Vec<[usize; 2]>,
    row_runs: Vec<usize>,
    parent: Vec<usize>,
}

impl Components {
    fn new(grid: &CellGrid) -> Self {
        // Ids 1 to the number of components (at most half the cells, rounded up), and 0.
        let ids = grid.nx * grid.ny + 1;
        Self {
            id: vec![0; grid.len()],
            count: 0,
            size: vec![0.0; ids],
            sum: vec![0.0; ids],
            other_sum: vec![0.0; ids],
            mean: vec![0.0; ids],
            // At most one run per two cells of a row (rounded up).
            runs: Vec::with_capacity(grid.nx.div_ceil(2) * grid.ny),
            row_runs: Vec::with_capacity(grid.ny + 1),
            parent: Vec::with_capacity(grid.nx.div_ceil(2) * grid.ny),
        }
    }

    /// Labels the open cells of `grid` (4-connectivity), components numbered in the order of
    /// their first cell: the runs of open cells of each row are joined (union-find) to the runs
    /// of the row below that they touch, then each run takes its component's id.
    fn label(&mut self, grid: &CellGrid) {
        let w = grid.w;
        self.runs.clear();
        self.row_runs.clear();
        for py in 1..=grid.ny {
            self.row_runs.push(self.runs.len());
            let mut x = 0;
            let mask = interior(&grid.mask, w, grid.nx, py);
            while x < grid.nx {
                if mask[x] == 0.0 {
                    x += 1;
                    continue;
                }
                let start = x;
                while x < grid.nx && mask[x] > 0.0 {
                    x += 1;
                }
                self.runs.push([py * w + 1 + start, py * w + 1 + x]);
            }
        }
        self.row_runs.push(self.runs.len());
        self.parent.clear();
        self.parent.extend(0..self.runs.len());
        for y in 1..grid.ny {
            // Runs of the row below (a) and of this row (b) that share a column are joined.
            let (mut a, a_end) = (self.row_runs[y - 1], self.row_runs[y]);
            let (mut b, b_end) = (self.row_runs[y], self.row_runs[y + 1]);
            while a < a_end && b < b_end {
                let ([a0, a1], [b0, b1]) = (self.runs[a], self.runs[b]);
                let (a0, a1) = (a0 + w, a1 + w); // in the upper row's columns
                if a0 < b1 && b0 < a1 {
                    self.join(a, b);
                }
                if a1 <= b1 {
                    a += 1;
                } else {
                    b += 1;
                }
            }
        }
        // A root is its component's first run: ids in run order are ids in cell order.
        self.id.fill(0);
        self.count = 0;
        for run in 0..self.runs.len() {
            let root = self.root(run);
            let id = if root == run {
                self.count += 1;
                self.size[self.count] = 0.0;
                self.count
            } else {
                self.id[self.runs[root][0]] as usize
            };
            let [start, end] = self.runs[run];
            self.id[start..end].fill(id as u32);
            self.size[id] += (end - start) as f64;
        }
        self.mean[0] = 0.0;
    }

    /// The root of `run`'s tree, halving the path on the way.
    fn root(&mut self, mut run: usize) -> usize {
        while self.parent[run] != run {
            self.parent[run] = self.parent[self.parent[run]];
            run = self.parent[run];
        }
        run
    }

    /// Joins the trees of two runs; the root is the earlier run.
    fn join(&mut self, a: usize, b: usize) {
        let (a, b) = (self.root(a), self.root(b));
        self.parent[a.max(b)] = a.min(b);
    }

    /// Fills `mean` with the mean of `field` over each component: from `total` (Σ field) with
    /// one component, else in one pass in index order.
    fn means(&mut self, grid: &CellGrid, field: &[f32], total: f64) {
        if self.count == 1 {
            self.mean[1] = total / self.size[1];
            return;
        }
        self.sum[..=self.count].fill(0.0);
        for i in interior_indices(grid) {
            self.sum[self.id[i] as usize] += f64::from(field[i]);
        }
        for c in 1..=self.count {
            self.mean[c] = self.sum[c] / self.size[c];
        }
    }

    /// field −= its component's mean on every open cell, in f64, rounded to f32 with the
    /// rounding error in `error`; returns Σ (field − mean)² in f64.
    fn subtract_means_exactly(
        &self,
        grid: &CellGrid,
        field: &mut [f32],
        error: &mut [f32],
        partials: &mut [Sums],
    ) -> f64 {
        let (nx, w) = (grid.nx, grid.w);
        let single_mean = (self.count == 1).then(|| self.mean[1]);
        let sums = for_each_row_pair_summed(grid, field, error, partials, move |y, row, error| {
            let (row, error) = (interior_mut(row, nx), interior_mut(error, nx));
            let mut subtract = |i: usize, mean: f64| {
                let exact = f64::from(row[i]) - mean;
                row[i] = exact as f32;
                error[i] = (exact - f64::from(row[i])) as f32;
            };
            match single_mean {
                Some(mean) => {
                    let mask = interior(&grid.mask, w, nx, y + 1);
                    for i in 0..nx {
                        subtract(i, f64::from(mask[i]) * mean);
                    }
                }
                None => {
                    let ids = &self.id[(y + 1) * w + 1..][..nx];
                    for i in 0..nx {
                        subtract(i, self.mean[ids[i] as usize]);
                    }
                }
            }
            [squares_of_sums(row, error), 0.0, 0.0]
        });
        sums[0]
    }

    /// ‖the per-component means, spread over their cells‖₂ = √(Σ size × mean²).
    fn mean_part_norm(&self) -> f64 {
        let squares = (1..=self.count).map(|c| self.size[c] * self.mean[c] * self.mean[c]);
        squares.sum::<f64>().sqrt()
    }

    /// Fills `mean` with z's per-component means and returns Σ over components of
    /// mean × (Σ r over the component), in one pass in index order.
    fn project(&mut self, grid: &CellGrid, r: &[f32], z: &[f32]) -> f64 {
        self.sum[..=self.count].fill(0.0);
        self.other_sum[..=self.count].fill(0.0);
        for i in interior_indices(grid) {
            let id = self.id[i] as usize;
            self.sum[id] += f64::from(z[i]);
            self.other_sum[id] += f64::from(r[i]);
        }
        let mut correction = 0.0;
        for c in 1..=self.count {
            self.mean[c] = self.sum[c] / self.size[c];
            correction += self.mean[c] * self.other_sum[c];
        }
        correction
    }

    /// Writes each open cell's component mean into `field` (0 elsewhere).
    fn spread_means(&self, grid: &CellGrid, field: &mut [f32]) {
        let (nx, w) = (grid.nx, grid.w);
        for_each_row(grid, field, move |y, row| {
            let ids = &self.id[(y + 1) * w + 1..][..nx];
            let row = interior_mut(row, nx);
            for i in 0..nx {
                row[i] = self.mean[ids[i] as usize] as f32;
            }
        });
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

/// One row of [`Poisson::update_direction`]: d = `direction(z, key, old d)` into `row` (a
/// padded row), where `key` is what the projection subtracts by; returns [d · A d, 0, 0].
fn direction_row(
    z: &Stencil<'_>,
    keys: &Stencil<'_>,
    old: &Stencil<'_>,
    diag: &Stencil<'_>,
    direction: impl Fn(f32, f32, f32) -> f32,
    row: &mut [f32],
) -> Sums {
    let nx = z.centre.len();
    let centre = interior_mut(row, nx);
    for i in 0..nx {
        centre[i] = direction(z.centre[i], keys.centre[i], old.centre[i]);
    }
    let new: &[f32] = row;
    let (left, centre, right) = (&new[..nx], &new[1..][..nx], &new[2..][..nx]);
    let mut ad_row = [0.0f32; 64];
    let mut sum = 0.0;
    for start in (0..nx).step_by(ad_row.len()) {
        let len = ad_row.len().min(nx - start);
        let ad = &mut ad_row[..len];
        for k in 0..len {
            let i = start + k;
            let below = direction(z.below[i], keys.below[i], old.below[i]);
            let above = direction(z.above[i], keys.above[i], old.above[i]);
            let neighbours = ((left[i] + right[i]) + below) + above;
            let value = diag.centre[i] * centre[i] - neighbours;
            ad[k] = select(diag.centre[i] > 0.0, value, 0.0);
        }
        sum += dot(&centre[start..][..len], ad);
    }
    [sum, 0.0, 0.0]
}

/// One V-cycle on `levels` (the first is the one to solve) for the right-hand side `rhs`, from
/// a zero guess, into `levels[0].x`. `coarse_rhs[k]` is the right-hand side of `levels[k + 1]`.
fn v_cycle(levels: &mut [Level], coarse_rhs: &mut [Vec<f32>], rhs: &[f32]) {
    v_cycle_but_last(levels, coarse_rhs, rhs);
    if let [level, ..] = levels {
        relax(level, rhs, RED);
    }
}

/// A V-cycle but for its last half sweep (red), which the caller runs (on the finest level,
/// with CG's sums). Smoothing is red then black before the coarse correction, black then red
/// after it, and a palindrome of sweeps on the coarsest level, so the V-cycle is symmetric.
fn v_cycle_but_last(levels: &mut [Level], coarse_rhs: &mut [Vec<f32>], rhs: &[f32]) {
    let [level, coarser @ ..] = levels else {
        return;
    };
    let [next_rhs, lower_rhs @ ..] = coarse_rhs else {
        relax_from_zero(level, rhs); // red, black
        for _ in 1..COARSEST_SWEEPS {
            relax(level, rhs, RED);
            relax(level, rhs, BLACK);
        }
        return;
    };
    relax_from_zero(level, rhs); // red, black
    residual_for_restriction(level, rhs);
    restrict(level, &coarser[0].grid, next_rhs);
    v_cycle(coarser, lower_rhs, next_rhs);
    prolong_add(level, &coarser[0]);
    relax(level, rhs, BLACK);
}

/// A Gauss–Seidel half sweep: the cells of `color` take (rhs + Σ open neighbours) / diag, the
/// others keep their value. The neighbours are of the other colour, so the order within the
/// half sweep does not matter: rows are written into `tmp`, which then becomes `x`.
fn relax(level: &mut Level, rhs: &[f32], color: usize) {
    relax_rows(level, rhs, color, false);
}

/// [`relax`], also returning r · x, Σ x and Σ r over the level, with r = `rhs` and x the
/// result (the sums CG needs of the preconditioned residual).
fn relax_summed(level: &mut Level, rhs: &[f32], color: usize) -> Sums {
    relax_rows(level, rhs, color, true)
}

/// [`relax`], and [`relax_summed`]'s sums if `summed`.
fn relax_rows(level: &mut Level, rhs: &[f32], color: usize, summed: bool) -> Sums {
    let Level {
        grid,
        x,
        tmp,
        partials,
    } = level;
    let grid = &*grid;
    let (nx, w, x_now) = (grid.nx, grid.w, &x[..]);
    let sums = for_each_row_summed(grid, tmp, partials, move |y, out| {
        let py = y + 1;
        let around = Stencil::new(x_now, w, nx, py);
        let (f, inv_diag) = (
            interior(rhs, w, nx, py),
            interior(&grid.inv_diag, w, nx, py),
        );
        let first = (color + y) & 1; // the first cell of `color` in this row
        let out = interior_mut(out, nx);
        for i in 0..nx {
            let updated = (f[i] + around.sum(i)) * inv_diag[i];
            out[i] = select(i & 1 == first, updated, around.centre[i]);
        }
        if summed {
            dot_and_sums(f, out)
        } else {
            [0.0; 3]
        }
    });
    std::mem::swap(x, tmp);
    sums
}

/// The red half sweep from x = 0 and the black half sweep after it, in one pass: a red cell
/// takes rhs / diag, and a black one sums those of its (red) neighbours on the fly, with the
/// same operations, so the result is bit for bit that of the two half sweeps (but for the
/// sign of the zeros on solid cells).
fn relax_from_zero(level: &mut Level, rhs: &[f32]) {
    let Level { grid, x, tmp, .. } = level;
    let grid = &*grid;
    let (nx, w) = (grid.nx, grid.w);
    for_each_row(grid, tmp, move |y, out| {
        let py = y + 1;
        let f = Stencil::new(rhs, w, nx, py);
        let inv = Stencil::new(&grid.inv_diag, w, nx, py);
        let first_red = y & 1;
        let out = interior_mut(out, nx);
        for i in 0..nx {
            let red_neighbours = ((f.left[i] * inv.left[i] + f.right[i] * inv.right[i])
                + f.below[i] * inv.below[i])
                + f.above[i] * inv.above[i];
            let black = (f.centre[i] + red_neighbours) * inv.centre[i];
            let red = f.centre[i] * inv.centre[i];
            out[i] = select(i & 1 == first_red, red, black);
        }
    });
    std::mem::swap(x, tmp);
}

/// `a` if `pick_a`, else `b`, bit for bit and without a branch: both are computed, so the
/// half sweeps' loops vectorise.
#[inline(always)]
fn select(pick_a: bool, a: f32, b: f32) -> f32 {
    let mask = u32::from(pick_a).wrapping_neg(); // all ones, or zero
    f32::from_bits((a.to_bits() & mask) | (b.to_bits() & !mask))
}

/// tmp = (rhs − A x) × inv_weight: the residual, scaled for [`restrict`].
fn residual_for_restriction(level: &mut Level, rhs: &[f32]) {
    let Level { grid, x, tmp, .. } = level;
    let grid = &*grid;
    let (nx, w, x) = (grid.nx, grid.w, &x[..]);
    for_each_row(grid, tmp, move |y, out| {
        let py = y + 1;
        let around = Stencil::new(x, w, nx, py);
        let (f, diag) = (interior(rhs, w, nx, py), interior(&grid.diag, w, nx, py));
        let inv_weight = interior(&grid.inv_weight, w, nx, py);
        let out = interior_mut(out, nx);
        for i in 0..nx {
            out[i] = (f[i] - around.laplacian(i, diag[i])) * inv_weight[i];
        }
    });
}

/// The coarse right-hand side: the transpose of [`prolong_add`]'s bilinear weights applied to
/// the fine residual (already divided by each fine cell's weight sum). Coarse cell X gathers
/// fine columns (and rows) 2X − 1 … 2X + 2 with 1-D weights 1, 3, 3, 1; a corner cell counts
/// only where prolongation reads this coarse cell as its diagonal neighbour. With the unscaled
/// coarse Laplacian, this is the rediscretisation at twice the spacing.
fn restrict(fine: &Level, coarse: &CellGrid, out: &mut [f32]) {
    let (fw, cw, s) = (fine.grid.w, coarse.w, &fine.tmp[..]);
    let ncx = coarse.nx;
    for_each_row(coarse, out, move |y, out| {
        let cy = y + 1;
        // Fine padded rows 2y … 2y + 3 (interior rows 2y − 1 … 2y + 2) around coarse row y.
        let (s0, s1) = (
            FineRow::new(s, fw, 2 * y, ncx),
            FineRow::new(s, fw, 2 * y + 1, ncx),
        );
        let (s2, s3) = (
            FineRow::new(s, fw, 2 * y + 2, ncx),
            FineRow::new(s, fw, 2 * y + 3, ncx),
        );
        let mask = |py: usize, shift: usize| cells(&coarse.mask, cw, py, shift, ncx);
        let (below, above) = (mask(cy - 1, 1), mask(cy + 1, 1));
        let (left, centre, right) = (mask(cy, 0), mask(cy, 1), mask(cy, 2));
        let out = interior_mut(out, ncx);
        for x in 0..ncx {
            let middle = 3.0 * (s1.inner(x) + s2.inner(x))
                + (s1.left(x) + s2.left(x))
                + (s1.right(x) + s2.right(x));
            let bottom = 3.0 * s0.inner(x)
                + below[x].at_least(left[x]) * s0.left(x)
                + below[x].at_least(right[x]) * s0.right(x);
            let top = 3.0 * s3.inner(x)
                + above[x].at_least(left[x]) * s3.left(x)
                + above[x].at_least(right[x]) * s3.right(x);
            out[x] = centre[x] * (3.0 * middle + bottom + top);
        }
    });
}

/// A fine row as restriction reads it: for coarse column X, the fine padded columns 2X … 2X + 3
/// as two pairs (2X, 2X + 1) and (2X + 2, 2X + 3).
struct FineRow<'a> {
    low: &'a [[f32; 2]],
    high: &'a [[f32; 2]],
}

impl<'a> FineRow<'a> {
    /// Padded row `py` of `field` (stride `w`) for `coarse_nx` coarse columns.
    #[inline(always)]
    fn new(field: &'a [f32], w: usize, py: usize, coarse_nx: usize) -> Self {
        let pairs = |shift: usize| &field[py * w + shift..].as_chunks::<2>().0[..coarse_nx];
        Self {
            low: pairs(0),
            high: pairs(2),
        }
    }

    /// The two children of coarse column `x` in this row.
    #[inline(always)]
    fn inner(&self, x: usize) -> f32 {
        self.low[x][1] + self.high[x][0]
    }

    /// The fine cell left of the children.
    #[inline(always)]
    fn left(&self, x: usize) -> f32 {
        self.low[x][0]
    }

    /// The fine cell right of the children.
    #[inline(always)]
    fn right(&self, x: usize) -> f32 {
        self.high[x][1]
    }
}

/// x += P e, with P bilinear: a fine cell reads its parent (weight 9), the coarse neighbours on
/// its side in x and in y (3 each) and the diagonal one between them (1, and only if one of the
/// two side neighbours is open, so that it is connected to the parent), renormalised over the
/// open ones (a solid or outside coarse cell holds 0 and gets no weight), so constants are
/// reproduced next to walls. Fine cells 2X and 2X + 1 share parent X: the first reads the
/// coarse column on its left, the second the one on its right.
fn prolong_add(level: &mut Level, coarse: &Level) {
    let Level { grid, x, tmp, .. } = level;
    let grid = &*grid;
    let (nx, w, cw, x_now) = (grid.nx, grid.w, coarse.grid.w, &x[..]);
    let pairs = nx / 2;
    let (e, coarse_mask) = (&coarse.x[..], &coarse.grid.mask);
    for_each_row(grid, tmp, move |y, out| {
        let (cy, cy_side) = parent_and_side(y);
        // Coarse rows, from column `shift` on: parent row 0, side row 1.
        let cut = |field, py, shift| cells(field, cw, py, shift, pairs);
        let (e0, e0_left, e0_right) = (cut(e, cy, 1), cut(e, cy, 0), cut(e, cy, 2));
        let (e1, e1_left, e1_right) = (cut(e, cy_side, 1), cut(e, cy_side, 0), cut(e, cy_side, 2));
        let (m0_left, m0_right) = (cut(coarse_mask, cy, 0), cut(coarse_mask, cy, 2));
        let m1 = cut(coarse_mask, cy_side, 1);
        let x_row = interior(x_now, w, nx, y + 1);
        let inv_weight = interior(&grid.inv_weight, w, nx, y + 1);
        let out = interior_mut(out, nx);
        let (out_pairs, last) = out.as_chunks_mut::<2>();
        let out_pairs = &mut out_pairs[..pairs];
        let (x_pairs, inv_weight_pairs) = (
            &x_row.as_chunks::<2>().0[..pairs],
            &inv_weight.as_chunks::<2>().0[..pairs],
        );
        for k in 0..pairs {
            let centre = 9.0 * e0[k] + 3.0 * e1[k];
            let left = centre + 3.0 * e0_left[k] + m0_left[k].at_least(m1[k]) * e1_left[k];
            let right = centre + 3.0 * e0_right[k] + m0_right[k].at_least(m1[k]) * e1_right[k];
            out_pairs[k] = [
                x_pairs[k][0] + left * inv_weight_pairs[k][0],
                x_pairs[k][1] + right * inv_weight_pairs[k][1],
            ];
        }
        if let [value] = last {
            // With nx odd, the last cell (an even index) has no pair: it reads the left column.
            let (cx, cx_side) = parent_and_side(nx - 1);
            let (r0, r1) = (row(e, cw, cy), row(e, cw, cy_side));
            let m0 = row(coarse_mask, cw, cy);
            let corner = m0[cx_side].at_least(row(coarse_mask, cw, cy_side)[cx]);
            let interpolated =
                (9.0 * r0[cx] + 3.0 * r1[cx]) + 3.0 * r0[cx_side] + corner * r1[cx_side];
            *value = x_row[nx - 1] + interpolated * inv_weight[nx - 1];
        }
    });
    std::mem::swap(x, tmp);
}

/// For interior index `i` of a fine level: the padded index of its parent on the coarser level
/// and of the parent's neighbour on `i`'s side (below for even `i`, above for odd).
#[inline]
fn parent_and_side(i: usize) -> (usize, usize) {
    let parent = i / 2 + 1;
    (
        parent,
        if i.is_multiple_of(2) {
            parent - 1
        } else {
            parent + 1
        },
    )
}

/// The five-point neighbourhood of one row's interior cells: five slices of nx values.
struct Stencil<'a, T = f32> {
    centre: &'a [T],
    left: &'a [T],
    right: &'a [T],
    below: &'a [T],
    above: &'a [T],
}

impl<'a, T> Stencil<'a, T> {
    /// The neighbourhood of padded row `py` of `field` (stride `w`, `nx` interior cells).
    /// Always inlined, so that the compiler sees the five lengths are `nx` (no bounds checks).
    #[inline(always)]
    fn new(field: &'a [T], w: usize, nx: usize, py: usize) -> Self {
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
    fn sum(&self, i: usize) -> f32 {
        ((self.left[i] + self.right[i]) + self.below[i]) + self.above[i]
    }

    /// (A v)ᵢ for an open cell whose diagonal is `diag`.
    #[inline]
    fn laplacian(&self, i: usize, diag: f32) -> f32 {
        diag * self.centre[i] - self.sum(i)
    }

    /// (A v)ᵢ in f64.
    #[inline]
    fn laplacian_f64(&self, i: usize, diag: f32) -> f64 {
        let neighbours = ((f64::from(self.left[i]) + f64::from(self.right[i]))
            + f64::from(self.below[i]))
            + f64::from(self.above[i]);
        f64::from(diag) * f64::from(self.centre[i]) - neighbours
    }
}

/// Padded row `py` of a field stored with stride `w`, padding included.
#[inline]
fn row(field: &[f32], w: usize, py: usize) -> &[f32] {
    &field[py * w..][..w]
}

/// `len` cells of padded row `py`, from padded column `shift` on.
#[inline]
fn cells(field: &[f32], w: usize, py: usize, shift: usize, len: usize) -> &[f32] {
    &field[py * w + shift..][..len]
}

/// The `nx` interior cells of padded row `py`.
#[inline]
fn interior(field: &[f32], w: usize, nx: usize, py: usize) -> &[f32] {
    &field[py * w + 1..][..nx]
}

/// The `nx` interior cells of a padded row.
#[inline]
fn interior_mut(row: &mut [f32], nx: usize) -> &mut [f32] {
    &mut row[1..][..nx]
}

/// The stored indices of a grid's interior cells, in index order.
fn interior_indices(grid: &CellGrid) -> impl Iterator<Item = usize> + '_ {
    (1..=grid.ny).flat_map(move |y| y * grid.w + 1..y * grid.w + 1 + grid.nx)
}

/// Σ aᵢ bᵢ in f64, over eight interleaved partial sums added in a fixed order.
#[inline]
fn dot(a: &[f32], b: &[f32]) -> f64 {
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
fn dot_and_sums(a: &[f32], b: &[f32]) -> Sums {
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
fn squares_of_sums(a: &[f32], b: &[f32]) -> f64 {
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
fn sum(a: &[f32]) -> f64 {
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
fn for_each_row<F>(grid: &CellGrid, field: &mut [f32], kernel: F)
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
fn for_each_row_summed<F>(
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
fn for_each_row_pair_summed<F>(
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
fn sum_rows<F>(grid: &CellGrid, partials: &mut [Sums], kernel: F) -> Sums
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

    fn settings(method: Method, tolerance: f32, max_iterations: u32) -> Settings {
        Settings {
            method,
            tolerance,
            max_iterations,
        }
    }

    /// Solves from a zero guess with a fresh workspace.
    fn solve(nx: usize, ny: usize, open: &[bool], rhs: &[f32], s: Settings) -> (Vec<f32>, Report) {
        let mut pressure = vec![0.0; nx * ny];
        let report = Poisson::new(nx, ny).solve(open, rhs, &mut pressure, s);
        (pressure, report)
    }

    fn random_rhs(cells: usize, seed: u64) -> Vec<f32> {
        let mut rng = Pcg32::seed_from_u64(seed);
        (0..cells).map(|_| rng.random_range(-1.0..1.0)).collect()
    }

    /// Component ids (usize::MAX for solid cells) and count, by breadth-first search.
    fn reference_components(nx: usize, ny: usize, open: &[bool]) -> (Vec<usize>, usize) {
        let mut id = vec![usize::MAX; nx * ny];
        let mut count = 0;
        for start in 0..nx * ny {
            if !open[start] || id[start] != usize::MAX {
                continue;
            }
            let mut queue = std::collections::VecDeque::from([start]);
            id[start] = count;
            while let Some(i) = queue.pop_front() {
                let (x, y) = (i % nx, i / nx);
                let mut visit = |j: usize| {
                    if open[j] && id[j] == usize::MAX {
                        id[j] = count;
                        queue.push_back(j);
                    }
                };
                if x > 0 {
                    visit(i - 1);
                }
                if x + 1 < nx {
                    visit(i + 1);
                }
                if y > 0 {
                    visit(i - nx);
                }
                if y + 1 < ny {
                    visit(i + nx);
                }
            }
            count += 1;
        }
        (id, count)
    }

    /// b' (b less its per-component means), in f64.
    fn consistent_rhs(nx: usize, ny: usize, open: &[bool], rhs: &[f32]) -> Vec<f64> {
        let (id, count) = reference_components(nx, ny, open);
        let (mut sums, mut sizes) = (vec![0.0f64; count], vec![0.0f64; count]);
        for i in (0..nx * ny).filter(|&i| open[i]) {
            sums[id[i]] += f64::from(rhs[i]);
            sizes[id[i]] += 1.0;
        }
        let mean = |i: usize| sums[id[i]] / sizes[id[i]];
        (0..nx * ny)
            .map(|i| {
                if open[i] {
                    f64::from(rhs[i]) - mean(i)
                } else {
                    0.0
                }
            })
            .collect()
    }

    /// A p in f64 (0 on solid cells).
    fn laplacian(nx: usize, ny: usize, open: &[bool], p: &[f64]) -> Vec<f64> {
        let neighbours = |i: usize| {
            let (x, y) = (i % nx, i / nx);
            [
                (x > 0).then(|| i - 1),
                (x + 1 < nx).then(|| i + 1),
                (y > 0).then(|| i - nx),
                (y + 1 < ny).then(|| i + nx),
            ]
        };
        let row = |i: usize| {
            let open_neighbours = neighbours(i).into_iter().flatten().filter(|&j| open[j]);
            open_neighbours.map(|j| p[i] - p[j]).sum()
        };
        (0..nx * ny)
            .map(|i| if open[i] { row(i) } else { 0.0 })
            .collect()
    }

    /// ‖b' − A p‖₂ / ‖b'‖₂ in f64.
    fn relative_residual(nx: usize, ny: usize, open: &[bool], rhs: &[f32], p: &[f32]) -> f64 {
        let b = consistent_rhs(nx, ny, open, rhs);
        let p: Vec<f64> = p.iter().map(|&v| f64::from(v)).collect();
        let ap = laplacian(nx, ny, open, &p);
        let residual: f64 = b.iter().zip(&ap).map(|(b, ap)| (b - ap) * (b - ap)).sum();
        let norm: f64 = b.iter().map(|b| b * b).sum();
        (residual / norm).sqrt()
    }

    /// The relative residual of the exact solution rounded to f32: how low any f32 answer
    /// can be expected to go. The exact solution comes from plain CG in f64 to 1e-13.
    fn f32_floor(nx: usize, ny: usize, open: &[bool], rhs: &[f32]) -> f64 {
        let b = consistent_rhs(nx, ny, open, rhs);
        let dot = |u: &[f64], v: &[f64]| u.iter().zip(v).map(|(a, b)| a * b).sum::<f64>();
        let (mut p, mut r, mut d) = (vec![0.0; nx * ny], b.clone(), b.clone());
        let (mut rr, target) = (dot(&r, &r), 1e-26 * dot(&b, &b));
        while rr > target {
            let ad = laplacian(nx, ny, open, &d);
            let alpha = rr / dot(&d, &ad);
            for i in 0..nx * ny {
                p[i] += alpha * d[i];
                r[i] -= alpha * ad[i];
            }
            let next = dot(&r, &r);
            for i in 0..nx * ny {
                d[i] = r[i] + next / rr * d[i];
            }
            rr = next;
        }
        let rounded: Vec<f32> = p.iter().map(|&v| v as f32).collect();
        relative_residual(nx, ny, open, rhs, &rounded)
    }

    /// Max over components of |mean of p| / max |p|.
    fn worst_component_mean(nx: usize, ny: usize, open: &[bool], p: &[f32]) -> f64 {
        let (id, count) = reference_components(nx, ny, open);
        let (mut sums, mut sizes) = (vec![0.0f64; count], vec![0.0f64; count]);
        for i in (0..nx * ny).filter(|&i| open[i]) {
            sums[id[i]] += f64::from(p[i]);
            sizes[id[i]] += 1.0;
        }
        let scale = p
            .iter()
            .fold(0.0f64, |m, &v| m.at_least(f64::from(v).abs()))
            .at_least(1e-30);
        (0..count)
            .map(|c| (sums[c] / sizes[c]).abs() / scale)
            .fold(0.0, crate::sim::portable::max)
    }

    /// 37 × 23 with solid cells drawn with probability `solid`, a walled-off pocket and
    /// isolated open cells.
    fn obstacle_course(solid: f64, seed: u64) -> (usize, usize, Vec<bool>) {
        let (nx, ny) = (37, 23);
        let mut rng = Pcg32::seed_from_u64(seed);
        let mut open: Vec<bool> = (0..nx * ny).map(|_| !rng.random_bool(solid)).collect();
        let mut set = |x: usize, y: usize, value: bool| open[x + nx * y] = value;
        for x in 20..=30 {
            for y in 5..=15 {
                let wall = x == 20 || x == 30 || y == 5 || y == 15;
                set(x, y, !wall);
            }
        }
        for (x, y) in [(3, 3), (10, 18), (33, 2), (0, 0), (36, 22)] {
            set(x, y, true);
            for (dx, dy) in [(-1i32, 0i32), (1, 0), (0, -1), (0, 1)] {
                let (x, y) = (x as i32 + dx, y as i32 + dy);
                if (0..nx as i32).contains(&x) && (0..ny as i32).contains(&y) {
                    set(x as usize, y as usize, false);
                }
            }
        }
        (nx, ny, open)
    }

    /// Solves the course to `tolerance` with both methods and checks what must hold
    /// whatever the precision: the report, the means, the solid cells. Returns the residuals.
    fn solve_course(nx: usize, ny: usize, open: &[bool], rhs: &[f32], tolerance: f32) -> [f64; 2] {
        let (_, count) = reference_components(nx, ny, open);
        [Method::MultigridPcg, Method::GaussSeidel].map(|method| {
            let (p, report) = solve(nx, ny, open, rhs, settings(method, tolerance, 20_000));
            let residual = relative_residual(nx, ny, open, rhs, &p);
            let reported = f64::from(report.relative_residual);
            assert!(
                (reported - residual).abs() <= 0.01 * residual,
                "{method:?}: {report:?}, {residual:e}"
            );
            assert_eq!(report.components as usize, count, "{method:?}");
            assert!(report.rhs_mean_removed > 0.0, "{method:?}: {report:?}");
            let mean = worst_component_mean(nx, ny, open, &p);
            assert!(
                mean <= 1e-6,
                "{method:?}: component mean {mean:e} of max |p|"
            );
            for (i, &value) in p.iter().enumerate() {
                assert!(
                    open[i] || value.to_bits() == 0, // +0, not −0
                    "{method:?}: solid cell {i} holds {value}"
                );
            }
            residual
        })
    }

    #[test]
    fn seed_values_with_both_methods() {
        let open = [true; 4];
        let rhs = [-9.0, 0.0, 9.0, 0.0];
        let expected = [-3.375, -1.125, 3.375, 1.125];
        for method in [Method::MultigridPcg, Method::GaussSeidel] {
            let (p, report) = solve(2, 2, &open, &rhs, settings(method, 1e-7, 1000));
            for (got, want) in p.iter().zip(expected) {
                assert!((got - want).abs() <= 1e-6, "{method:?}: {p:?}");
            }
            assert!(report.relative_residual <= 1e-7, "{method:?}: {report:?}");
            assert_eq!(report.components, 1);
            assert_eq!(report.rhs_mean_removed, 0.0);
        }
    }

    /// The divergence of a random velocity field (zero through solid faces and the grid's
    /// edge), plus `offset`: what a pressure projection is given, less a per-component mean.
    fn random_divergence(nx: usize, ny: usize, open: &[bool], offset: f32, seed: u64) -> Vec<f32> {
        let mut rng = Pcg32::seed_from_u64(seed);
        let is_open = |x: usize, y: usize| x < nx && y < ny && open[x + nx * y];
        // Velocities on the faces at x − ½ (u) and y − ½ (v) of each cell, one more row/column.
        let mut face = |a: bool, b: bool| {
            if a && b {
                rng.random_range(-1.0f32..1.0)
            } else {
                0.0
            }
        };
        let u: Vec<f32> = (0..(nx + 1) * ny)
            .map(|i| {
                let (x, y) = (i % (nx + 1), i / (nx + 1));
                face(x > 0 && is_open(x - 1, y), is_open(x, y))
            })
            .collect();
        let v: Vec<f32> = (0..nx * (ny + 1))
            .map(|i| {
                let (x, y) = (i % nx, i / nx);
                face(y > 0 && is_open(x, y - 1), is_open(x, y))
            })
            .collect();
        (0..nx * ny)
            .map(|i| {
                let (x, y) = (i % nx, i / nx);
                let div = (u[x + 1 + (nx + 1) * y] - u[x + (nx + 1) * y]) + (v[i + nx] - v[i]);
                if open[i] {
                    offset - div
                } else {
                    0.0
                }
            })
            .collect()
    }

    #[test]
    fn random_obstacles_solve_to_1e6_with_both_methods() {
        let (nx, ny, open) = obstacle_course(0.2, 7);
        let (_, count) = reference_components(nx, ny, &open);
        assert!(count >= 7, "the course has several components ({count})");
        let rhs = random_divergence(nx, ny, &open, 0.3, 1);
        let floor = f32_floor(nx, ny, &open, &rhs);
        assert!(floor <= 2e-7, "f32 floor {floor:e}");
        for residual in solve_course(nx, ny, &open, &rhs, 1e-6) {
            assert!(residual <= 1e-6, "residual {residual:e}");
        }
    }

    #[test]
    fn random_obstacles_solve_to_the_f32_limit() {
        // With white noise for b, one cell in five solid makes ‖p‖ / ‖b'‖ ≈ 25: the exact
        // answer rounded to f32 already has a relative residual near 2e-6. Asked for 1e-6, the
        // solver must come within a quarter of that limit (and report what it reached);
        // Gauss–Seidel, updating in place, stalls on its own rounding a little above it.
        let (nx, ny, open) = obstacle_course(0.2, 7);
        let rhs = random_rhs(nx * ny, 1);
        let floor = f32_floor(nx, ny, &open, &rhs);
        assert!(floor > 1e-6, "f32 floor {floor:e}");
        let [multigrid, gauss_seidel] = solve_course(nx, ny, &open, &rhs, 1e-6);
        assert!(
            multigrid <= 1.25 * floor,
            "residual {multigrid:e}, floor {floor:e}"
        );
        assert!(
            gauss_seidel <= 2.0 * floor,
            "residual {gauss_seidel:e}, floor {floor:e}"
        );
    }

    #[test]
    fn methods_agree() {
        let (nx, ny, open) = obstacle_course(0.2, 7);
        let rhs = random_rhs(nx * ny, 2);
        let (mg, _) = solve(
            nx,
            ny,
            &open,
            &rhs,
            settings(Method::MultigridPcg, 1e-6, 100),
        );
        let (gs, _) = solve(
            nx,
            ny,
            &open,
            &rhs,
            settings(Method::GaussSeidel, 1e-6, 20_000),
        );
        let scale = mg.iter().fold(0.0f32, |m, v| m.at_least(v.abs()));
        for (a, b) in mg.iter().zip(&gs) {
            assert!((a - b).abs() <= 1e-4 * scale, "{a} against {b}");
        }
    }

    fn open_grid_iterations(n: usize) -> u32 {
        let open = vec![true; n * n];
        let rhs = random_rhs(n * n, n as u64);
        let (p, report) = solve(n, n, &open, &rhs, settings(Method::MultigridPcg, 1e-4, 100));
        assert!(
            relative_residual(n, n, &open, &rhs, &p) <= 1e-4,
            "{report:?}"
        );
        report.iterations
    }

    #[test]
    fn multigrid_iterations_do_not_grow_with_the_grid() {
        let small = open_grid_iterations(128);
        let large = open_grid_iterations(256);
        assert!(small <= 8, "128²: {small} iterations"); // 5 when measured
        assert!(
            large <= small + 2,
            "256²: {large} iterations, 128²: {small}"
        );
    }

    /// An n × n box with a disk of radius n / 8 at (0.4 n, 0.5 n) and, with `wall`, a solid
    /// column one cell thick at x = 0.73 n from y = 0.1 n up to the top.
    fn disk_and_wall(n: usize, wall: bool) -> Vec<bool> {
        let (cx, cy, radius) = (0.4 * n as f32, 0.5 * n as f32, n as f32 / 8.0);
        let wall_x = (0.73 * n as f32) as usize;
        (0..n * n)
            .map(|i| {
                let (x, y) = (i % n, i / n);
                let (dx, dy) = (x as f32 + 0.5 - cx, y as f32 + 0.5 - cy);
                let in_wall = wall && x == wall_x && y > n / 10;
                dx * dx + dy * dy > radius * radius && !in_wall
            })
            .collect()
    }

    #[test]
    fn multigrid_iterations_around_obstacles() {
        let n = 96;
        let rhs = random_rhs(n * n, 3);
        let s = settings(Method::MultigridPcg, 1e-4, 100);
        let disk = disk_and_wall(n, false);
        let (p, report) = solve(n, n, &disk, &rhs, s);
        assert!(report.iterations <= 10, "disk: {report:?}");
        assert!(relative_residual(n, n, &disk, &rhs, &p) <= 1e-4);
        // A wall one cell thick vanishes on the coarse levels (a coarse cell is open if any
        // child is), so the V-cycle sees a gap that is not there: more iterations (22 when
        // measured), still converging.
        let walled = disk_and_wall(n, true);
        let (p, report) = solve(n, n, &walled, &rhs, s);
        assert!(report.iterations <= 30, "disk and wall: {report:?}");
        assert!(relative_residual(n, n, &walled, &rhs, &p) <= 1e-4);
    }

    #[test]
    fn warm_start_from_the_solution_needs_no_iterations() {
        let (nx, ny, open) = obstacle_course(0.2, 7);
        let rhs = random_rhs(nx * ny, 4);
        for method in [Method::MultigridPcg, Method::GaussSeidel] {
            let s = settings(method, 1e-5, 20_000);
            let mut poisson = Poisson::new(nx, ny);
            let mut p = vec![0.0; nx * ny];
            let first = poisson.solve(&open, &rhs, &mut p, s);
            assert!(first.iterations > 1, "{method:?}: {first:?}");
            let again = poisson.solve(&open, &rhs, &mut p, s);
            assert!(again.iterations <= 1, "{method:?}: {again:?}");
            assert!(again.relative_residual <= 1e-5, "{method:?}: {again:?}");
        }
    }

    #[test]
    fn results_are_bit_identical_at_any_thread_count() {
        // Large enough for the finest two levels to run in parallel; one component, then many.
        let (nx, ny) = (150, 131);
        let mut rng = Pcg32::seed_from_u64(5);
        let one: Vec<bool> = (0..nx * ny)
            .map(|i| (i % nx) != 75 || i / nx > 100)
            .collect();
        let many: Vec<bool> = (0..nx * ny).map(|_| rng.random_bool(0.85)).collect();
        let rhs = random_rhs(nx * ny, 6);
        for open in [one, many] {
            let run = |threads: usize| {
                let pool = rayon::ThreadPoolBuilder::new()
                    .num_threads(threads)
                    .build()
                    .unwrap();
                pool.install(|| {
                    let s = settings(Method::MultigridPcg, 1e-6, 100);
                    let mut guess: Vec<f32> = rhs.iter().map(|v| 0.1 * v).collect();
                    let report = Poisson::new(nx, ny).solve(&open, &rhs, &mut guess, s);
                    (guess, report)
                })
            };
            let (reference, report) = run(1);
            assert!(report.iterations > 3, "{report:?}");
            for threads in [2, 3] {
                let (p, other) = run(threads);
                assert_eq!(other, report, "{threads} threads");
                let same = p
                    .iter()
                    .zip(&reference)
                    .all(|(a, b)| a.to_bits() == b.to_bits());
                assert!(same, "{threads} threads give other bits");
            }
        }
    }

    #[test]
    fn a_workspace_follows_a_changing_mask() {
        let (nx, ny, course) = obstacle_course(0.2, 7);
        let rhs = random_rhs(nx * ny, 8);
        let s = settings(Method::MultigridPcg, 1e-6, 100);
        let open_all = vec![true; nx * ny];
        let mut poisson = Poisson::new(nx, ny);
        for open in [&open_all, &course, &open_all] {
            let mut p = vec![0.0; nx * ny];
            let report = poisson.solve(open, &rhs, &mut p, s);
            let (fresh, fresh_report) = solve(nx, ny, open, &rhs, s);
            assert_eq!(report, fresh_report);
            assert_eq!(p, fresh);
        }
    }

    #[test]
    fn the_preconditioner_is_symmetric_and_positive() {
        let (nx, ny, open) = obstacle_course(0.2, 7);
        let mut poisson = Poisson::new(nx, ny);
        poisson.build(&open);
        // M applied to a vector, projected per component, in the padded layout.
        let w = poisson.levels[0].grid.w;
        let padded = |i: usize| (i / nx + 1) * w + i % nx + 1;
        let mut apply = |v: &[f32]| {
            poisson.r.fill(0.0);
            for i in (0..nx * ny).filter(|&i| open[i]) {
                poisson.r[padded(i)] = v[i];
            }
            poisson.precondition();
            let z = &poisson.levels[0].x;
            (0..nx * ny)
                .map(|i| if open[i] { z[padded(i)] } else { 0.0 })
                .collect::<Vec<f32>>()
        };
        let (u, v) = (random_rhs(nx * ny, 9), random_rhs(nx * ny, 10));
        let dot = |a: &[f32], b: &[f32]| -> f64 {
            let pairs = a.iter().zip(b).zip(&open).filter(|(_, &o)| o);
            pairs.map(|((&x, &y), _)| f64::from(x) * f64::from(y)).sum()
        };
        let (mu, mv) = (apply(&u), apply(&v));
        let (uv, vu) = (dot(&mu, &v), dot(&u, &mv));
        assert!(
            (uv - vu).abs() <= 1e-5 * uv.abs().at_least(vu.abs()),
            "{uv} against {vu}"
        );
        assert!(dot(&mu, &u) > 0.0 && dot(&mv, &v) > 0.0);
    }

    #[test]
    fn the_fused_pass_equals_the_half_sweeps() {
        for (nx, ny, open) in [
            obstacle_course(0.2, 7),
            (1, 5, vec![true; 5]),
            (6, 1, vec![true; 6]),
        ] {
            let mut poisson = Poisson::new(nx, ny);
            poisson.build(&open);
            let level = &mut poisson.levels[0];
            let mask = &level.grid.mask;
            let values = random_rhs(mask.len(), 1).into_iter().zip(mask);
            let rhs: Vec<f32> = values.map(|(v, &m)| v * m).collect();
            // Bits, but for the sign of zero (a solid cell may end at −0 one way, +0 the other).
            let bits = |v: &[f32]| v.iter().map(|&x| (x + 0.0).to_bits()).collect::<Vec<_>>();
            level.x.fill(0.0);
            relax(level, &rhs, RED);
            relax(level, &rhs, BLACK);
            let two_half_sweeps = bits(&level.x);
            relax_from_zero(level, &rhs);
            assert_eq!(bits(&level.x), two_half_sweeps, "{nx}×{ny}");
        }
    }

    #[test]
    fn components_match_a_flood_fill() {
        // A comb: teeth that join only at the top, so runs merge late.
        let (cx, cy) = (21, 9);
        let comb: Vec<bool> = (0..cx * cy)
            .map(|i| (i % cx) % 2 == 0 || i / cx == cy - 1)
            .collect();
        let mut masks = vec![(cx, cy, comb)];
        let mut rng = Pcg32::seed_from_u64(11);
        for (nx, ny, solid) in [(37, 23, 0.2), (37, 23, 0.45), (64, 3, 0.3), (1, 40, 0.3)] {
            masks.push((
                nx,
                ny,
                (0..nx * ny).map(|_| !rng.random_bool(solid)).collect(),
            ));
        }
        for (nx, ny, open) in masks {
            let mut poisson = Poisson::new(nx, ny);
            poisson.build(&open);
            let (reference, count) = reference_components(nx, ny, &open);
            assert_eq!(poisson.components.count, count, "{nx}×{ny}");
            let w = poisson.levels[0].grid.w;
            for i in 0..nx * ny {
                let id = poisson.components.id[(i / nx + 1) * w + i % nx + 1];
                let expected = if open[i] { reference[i] as u32 + 1 } else { 0 };
                assert_eq!(id, expected, "{nx}×{ny}, cell {i}");
            }
        }
    }

    #[test]
    fn degenerate_grids_give_no_nan() {
        let cases: [(usize, usize, Vec<bool>, Vec<f32>); 8] = [
            (1, 1, vec![true], vec![3.0]),
            (1, 1, vec![false], vec![3.0]),
            (1, 7, vec![true; 7], random_rhs(7, 11)),
            (7, 1, vec![true; 7], random_rhs(7, 12)),
            (2, 1, vec![true, true], vec![1.0, -1.0]),
            (9, 5, vec![false; 45], random_rhs(45, 13)),
            (9, 5, vec![true; 45], vec![0.0; 45]),
            (
                5,
                9,
                (0..45).map(|i| i % 2 == 0).collect(),
                random_rhs(45, 14),
            ),
        ];
        for method in [Method::MultigridPcg, Method::GaussSeidel] {
            for (nx, ny, open, rhs) in &cases {
                let (nx, ny) = (*nx, *ny);
                let mut p = vec![f32::NAN; nx * ny];
                let s = settings(method, 1e-6, 20_000);
                let report = Poisson::new(nx, ny).solve(open, rhs, &mut p, s);
                let case = format!("{method:?} {nx}×{ny}: {report:?} {p:?}");
                assert!(p.iter().all(|v| v.is_finite()), "{case}");
                assert!(report.relative_residual <= 1e-6, "{case}");
                let b = consistent_rhs(nx, ny, open, rhs);
                if b.iter().any(|&v| v != 0.0) {
                    assert!(relative_residual(nx, ny, open, rhs, &p) <= 1e-6, "{case}");
                } else {
                    assert!(p.iter().all(|&v| v == 0.0), "{case}");
                }
            }
        }
        let mut p = vec![0.0; 2];
        let report =
            Poisson::new(2, 1).solve(&[true; 2], &[1.0, -1.0], &mut p, Settings::default());
        assert_eq!(p, [0.5, -0.5], "{report:?}");
    }

    #[test]
    fn a_constant_rhs_is_all_mean() {
        let (p, report) = solve(9, 5, &[true; 45], &[2.5; 45], Settings::default());
        assert!(p.iter().all(|&v| v == 0.0));
        assert_eq!(report.iterations, 0);
        assert!((report.rhs_mean_removed - 1.0).abs() <= 1e-6, "{report:?}");
    }
}
