//! Conjugate gradients preconditioned by one multigrid V-cycle (A. McAdams, E. Sifakis,
//! J. Teran, "A parallel multigrid Poisson solver for fluids simulation on large grids", SCA
//! 2010; R. Bridson, *Fluid Simulation for Computer Graphics*, 2nd ed., 2015, ch. 5), on the
//! finest level's padded layout. The preconditioned residual z is kept in A's range by
//! removing its per-component means, and the passes are fused where they can be: the V-cycle's
//! last half sweep with ρ's sums, the new search direction with d · A d, the step with ‖r‖₂.

use super::layout::{interior, interior_mut, select, Stencil};
use super::multigrid::{relax_summed, v_cycle_but_last, RED};
use super::rows::{dot, for_each_row_pair_summed, for_each_row_summed, Sums};
use super::Poisson;

impl Poisson {
    /// Multigrid-preconditioned CG from the guess in p until ‖r‖ ≤ `target` or
    /// `max_iterations`; returns the iterations and the true ‖b' − A p‖₂. When the recursively
    /// updated residual has met the target but the true one has not (f32 drift), CG restarts
    /// from the true residual, as long as each restart at least halves it.
    pub(super) fn pcg(&mut self, target: f64, max_iterations: u32, p_sum: f64) -> (u32, f64) {
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

#[cfg(test)]
mod tests {
    use super::super::test_problems::*;
    use super::*;
    use crate::sim::numerics::portable::Ordered;

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
}
