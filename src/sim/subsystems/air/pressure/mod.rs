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
//!
//! The rooms: this file holds the public types, the workspace ([`Poisson`]) and what a solve
//! does around its method (the levels and components built for the mask, b and the guess
//! loaded, p stored); `cg` is the preconditioned conjugate gradients and `gauss_seidel` Stam's
//! sweeps; `residual` measures the true residual that stops both; `multigrid` holds the levels
//! and the V-cycle; `components` labels the open cells and takes per-component means; `layout`
//! is the padded storage every pass reads (a level's `CellGrid`, a row's `Stencil`); `rows`
//! runs a pass row by row and adds its sums in row order.

// The stencil kernels index several shifted rows, cut to one length, with one index: the
// index loops are what lets the compiler drop the bounds checks and vectorise.
#![allow(clippy::needless_range_loop)]

mod cg;
mod components;
mod gauss_seidel;
mod layout;
mod multigrid;
mod residual;
mod rows;
#[cfg(test)]
mod test_problems;

use components::Components;
use layout::{interior, interior_mut, select};
use multigrid::{Level, COARSEST_SIDE};
use rayon::prelude::*;
use rows::{dot, for_each_row_summed, sum, Sums, MIN_ROWS_PER_TASK};

pub use crate::sim::scene::air::{Method, Settings};

/// What a solve did.
#[derive(Clone, Copy, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
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
}

#[cfg(test)]
mod tests {
    use super::test_problems::*;
    use super::*;
    use crate::sim::numerics::portable::Ordered;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

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
            .fold(0.0, crate::sim::numerics::portable::max)
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
