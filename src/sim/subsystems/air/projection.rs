//! Pressure projection: the pressure that makes the air's velocity divergence-free, and its
//! gradient taken off the faces (Bridson, "Fluid Simulation for Computer Graphics", ch. 5; seed
//! 002's walk-through). For each open cell,
//!
//! Σ over open neighbours (p − p_neighbour) = −(ρ Δx / Δt) × outflow,
//!
//! where outflow = u_right − u_left + v_top − v_bottom (so Δx × divergence), and solid faces
//! keep the solid's velocity (Neumann walls). Then every face between two open cells loses
//! Δt / (ρ Δx) × (p_ahead − p_behind), which takes the outflow away whatever ρ is: the density
//! scales the pressure, not the motion (Bridson ch. 5: ρ in the update and in the equation).

use super::field::{inner_u_face_rows, inner_v_face_rows, CellRow, MacGrid, ROWS_PER_TASK};
use super::pressure::{Poisson, Report, Settings};
use rayon::prelude::*;
use std::ops::Range;

/// The pressure solve's workspace and last result.
pub struct Projection {
    poisson: Poisson,
    open: Vec<bool>,
    rhs: Vec<f32>,
    /// Pressure per cell from the last projection (the next one starts from it).
    pub pressure: Vec<f32>,
}

impl std::fmt::Debug for Projection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Projection")
            .field("cells", &self.pressure.len())
            .finish_non_exhaustive()
    }
}

impl Projection {
    /// Workspace for an `nx` × `ny` grid.
    pub fn new(nx: usize, ny: usize) -> Self {
        Self {
            poisson: Poisson::new(nx, ny),
            open: vec![true; nx * ny],
            rhs: vec![0.0; nx * ny],
            pressure: vec![0.0; nx * ny],
        }
    }

    /// Workspace whose first solve starts from `pressure` (a copy of another's).
    pub fn starting_from(nx: usize, ny: usize, pressure: Vec<f32>) -> Self {
        Self {
            pressure,
            ..Self::new(nx, ny)
        }
    }

    /// Makes `grid`'s velocity divergence-free on its open cells (to `settings.tolerance`
    /// relative residual); `density` is the air's ρ.
    pub fn project(
        &mut self,
        grid: &mut MacGrid,
        dt: f32,
        density: f32,
        settings: Settings,
    ) -> Report {
        let (nx, ny, dx) = (grid.nx, grid.ny, grid.dx);
        let scale = -dx * density / dt;
        {
            // The open cells and the right-hand side −ρ Δx/Δt · outflow, in one pass.
            let g = &*grid;
            let rows = nx * ROWS_PER_TASK;
            let tasks = self
                .open
                .par_chunks_mut(rows)
                .zip(self.rhs.par_chunks_mut(rows));
            tasks.enumerate().for_each(|(task, (open, rhs))| {
                let rows = open.chunks_mut(nx).zip(rhs.chunks_mut(nx)).enumerate();
                for (r, (open, rhs)) in rows {
                    let row = CellRow::new(g, task * ROWS_PER_TASK + r);
                    for i in 0..nx {
                        open[i] = !row.solid[i];
                        rhs[i] = if row.solid[i] {
                            0.0
                        } else {
                            scale * row.outflow(i)
                        };
                    }
                }
            });
        }
        let report = self
            .poisson
            .solve(&self.open, &self.rhs, &mut self.pressure, settings);
        let gain = dt / (density * dx);
        let (p, open) = (&self.pressure, &self.open);
        // Faces between two open cells lose the pressure gradient (others keep the solid's);
        // row by row on slices, without branches, so the loops vectorise.
        let push = |faces: &mut [f32], behind: Range<usize>, ahead: Range<usize>| {
            let n = faces.len();
            let (p_a, p_b) = (&p[behind.clone()][..n], &p[ahead.clone()][..n]);
            let (open_a, open_b) = (&open[behind][..n], &open[ahead][..n]);
            for (k, face) in faces.iter_mut().enumerate() {
                let pushed = *face - gain * (p_b[k] - p_a[k]);
                *face = if open_a[k] && open_b[k] {
                    pushed
                } else {
                    *face
                };
            }
        };
        inner_u_face_rows(&mut grid.u, nx, push);
        inner_v_face_rows(&mut grid.v, nx, ny, push);
        report
    }
}

#[cfg(test)]
mod tests {
    use super::super::advect::Advection;
    use super::super::pressure::Method;
    use super::*;
    use glam::Vec2;
    use rand::{Rng, SeedableRng};

    fn exact(method: Method) -> Settings {
        Settings {
            method,
            tolerance: 1e-7,
            max_iterations: 10_000,
        }
    }

    /// Seed 002 end to end: advect, then project the 2 × 2 grid (Δx 1, Δt 0.1, ρ 1) and find the
    /// tutorial's pressures and its pinwheel of ±0.225.
    #[test]
    fn seed_two_by_two_projection_gives_the_pinwheel() {
        for method in [Method::MultigridPcg, Method::GaussSeidel] {
            let mut grid = MacGrid::new(2, 2, 1.0, Vec2::ZERO);
            let inner = grid.v_face(0, 1);
            grid.v[inner] = 1.0;
            Advection::default().velocities(&mut grid, 0.1);
            grid.apply_solid_velocities();
            let mut projection = Projection::new(2, 2);
            projection.project(&mut grid, 0.1, 1.0, exact(method));
            let expected = [-3.375, -1.125, 3.375, 1.125];
            for (p, e) in projection.pressure.iter().zip(expected) {
                assert!(
                    (p - e).abs() < 1e-6,
                    "{method:?}: {:?}",
                    projection.pressure
                );
            }
            let close = |a: f32, b: f32| (a - b).abs() < 1e-6;
            assert!(close(grid.u[grid.u_face(1, 0)], -0.225), "{:?}", grid.u);
            assert!(close(grid.u[grid.u_face(1, 1)], 0.225), "{:?}", grid.u);
            assert!(close(grid.v[grid.v_face(0, 1)], 0.225), "{:?}", grid.v);
            assert!(close(grid.v[grid.v_face(1, 1)], -0.225), "{:?}", grid.v);
            assert!(grid.divergence_max() < 1e-6);
        }
    }

    /// The density scales the pressure and leaves the projected velocity as it is: the same
    /// field projected at ρ 1, 1000 and 0.001 comes out divergence-free each time, with the
    /// pressure in proportion to ρ.
    #[test]
    fn the_density_scales_the_pressure_not_the_velocity() {
        let mut rng = rand_pcg::Pcg32::seed_from_u64(9);
        let (nx, ny) = (12, 9);
        let mut start = MacGrid::new(nx, ny, 0.1, Vec2::ZERO);
        start
            .u
            .iter_mut()
            .for_each(|u| *u = rng.random_range(-1.0..1.0));
        start
            .v
            .iter_mut()
            .for_each(|v| *v = rng.random_range(-1.0..1.0));
        start.apply_solid_velocities();
        let projected = |density: f32| {
            let mut grid = start.clone();
            let mut projection = Projection::new(nx, ny);
            projection.project(&mut grid, 0.05, density, exact(Method::MultigridPcg));
            (grid, projection.pressure)
        };
        let (unit, unit_pressure) = projected(1.0);
        for density in [1000.0, 0.001] {
            let (grid, pressure) = projected(density);
            assert!(
                grid.divergence_max() < 1e-4,
                "ρ {density}: {}",
                grid.divergence_max()
            );
            for (a, b) in grid
                .u
                .iter()
                .chain(&grid.v)
                .zip(unit.u.iter().chain(&unit.v))
            {
                assert!((a - b).abs() < 1e-5, "ρ {density}: {a} against {b}");
            }
            for (p, q) in pressure.iter().zip(&unit_pressure) {
                assert!(
                    (p - density * q).abs() <= 1e-4 * density,
                    "ρ {density}: {p}, {q}"
                );
            }
        }
    }

    #[test]
    fn random_fields_project_below_the_solvers_tolerance() {
        let mut rng = rand_pcg::Pcg32::seed_from_u64(5);
        for case in 0..6 {
            let (nx, ny) = (rng.random_range(3..40), rng.random_range(3..40));
            let dx = 0.1;
            let mut grid = MacGrid::new(nx, ny, dx, Vec2::ZERO);
            for c in 0..nx * ny {
                grid.solid[c] = rng.random_bool(0.15);
            }
            grid.u
                .iter_mut()
                .for_each(|u| *u = rng.random_range(-1.0..1.0));
            grid.v
                .iter_mut()
                .for_each(|v| *v = rng.random_range(-1.0..1.0));
            grid.apply_solid_velocities();
            let before = grid.divergence_max();
            let mut projection = Projection::new(nx, ny);
            let tolerance = 1e-5;
            let settings = Settings {
                method: Method::MultigridPcg,
                tolerance,
                max_iterations: 500,
            };
            let report = projection.project(&mut grid, 0.05, 1.0, settings);
            assert!(
                report.relative_residual <= tolerance,
                "case {case}: {report:?}"
            );
            // Residual in outflow units: relative residual times the right-hand side's size.
            let after = grid.divergence_max();
            assert!(
                after < 1e-3 * before,
                "case {case}: {before} -> {after} ({report:?})"
            );
        }
    }
}
