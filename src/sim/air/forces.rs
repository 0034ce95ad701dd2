//! Body forces on the air (Fedkiw, Stam and Jensen 2001, "Visual Simulation of Smoke"):
//! buoyancy from smoke and heat, and vorticity confinement, which gives back the small swirls
//! that semi-Lagrangian advection smooths away.

use super::field::{
    for_each_inner_u_face, for_each_inner_v_face, par_cells_mut, MacGrid, CELLS_PER_TASK,
};
use glam::Vec2;
use rayon::prelude::*;

/// Buoyancy f = (−α s + β T) up (Fedkiw et al. 2001, eq. 8), on every face between two open
/// cells, with s and T the mean of the two cells: smoke weighs the air down (`alpha` per unit of
/// smoke, m/s²), heat lifts it (`beta` per degree, m/s²). `up` is the unit vector against
/// gravity.
pub fn buoyancy(grid: &mut MacGrid, alpha: f32, beta: f32, up: Vec2, dt: f32) {
    if (alpha == 0.0 && beta == 0.0) || up == Vec2::ZERO {
        return;
    }
    let (nx, ny) = (grid.nx, grid.ny);
    let MacGrid {
        u,
        v,
        smoke,
        temperature,
        solid,
        ..
    } = grid;
    let (smoke, temperature, solid) = (&*smoke, &*temperature, &*solid);
    // The lift on the face between cells a and b, when both are open.
    let lift = |a: usize, b: usize| {
        if solid[a] || solid[b] {
            return 0.0;
        }
        let s = 0.5 * (smoke[a] + smoke[b]);
        let t = 0.5 * (temperature[a] + temperature[b]);
        dt * (beta * t - alpha * s)
    };
    if up.x != 0.0 {
        for_each_inner_u_face(u, nx, |face, a, b| *face += lift(a, b) * up.x);
    }
    if up.y != 0.0 {
        for_each_inner_v_face(v, nx, ny, |face, a, b| *face += lift(a, b) * up.y);
    }
}

/// Scratch buffers of vorticity confinement.
#[derive(Clone, Debug, Default)]
pub struct Confinement {
    curl: Vec<f32>,
    force: Vec<Vec2>,
}

impl Confinement {
    /// Vorticity confinement (Fedkiw et al. 2001, eq. 9–11): with ω the curl at cell centres
    /// and N = ∇|ω| / |∇|ω||, adds ε Δx (N × ω) Δt to the faces between open cells.
    pub fn apply(&mut self, grid: &mut MacGrid, epsilon: f32, dt: f32) {
        if epsilon == 0.0 {
            return;
        }
        let (nx, ny) = (grid.nx, grid.ny);
        let cells = nx * ny;
        self.curl.resize(cells, 0.0);
        self.force.resize(cells, Vec2::ZERO);
        {
            let g = &*grid;
            par_cells_mut(&mut self.curl, nx, |i, j, curl| *curl = cell_curl(g, i, j));
        }
        {
            let g = &*grid;
            let curl = &self.curl;
            let scale = epsilon * g.dx * dt;
            par_cells_mut(&mut self.force, nx, |i, j, force| {
                let c = i + nx * j;
                *force = Vec2::ZERO;
                if g.solid[c] || i == 0 || j == 0 || i + 1 == nx || j + 1 == ny {
                    return;
                }
                let magnitude = |i: usize, j: usize| curl[i + nx * j].abs();
                let gradient = Vec2::new(
                    magnitude(i + 1, j) - magnitude(i - 1, j),
                    magnitude(i, j + 1) - magnitude(i, j - 1),
                ) / (2.0 * g.dx);
                let length = gradient.length();
                if length > 1e-12 {
                    let n = gradient / length;
                    *force = scale * curl[c] * Vec2::new(n.y, -n.x);
                }
            });
        }
        let force = &self.force;
        let solid = &grid.solid;
        let open = |a: usize, b: usize| !solid[a] && !solid[b];
        for_each_inner_u_face(&mut grid.u, nx, |face, a, b| {
            if open(a, b) {
                *face += 0.5 * (force[a].x + force[b].x);
            }
        });
        for_each_inner_v_face(&mut grid.v, nx, ny, |face, a, b| {
            if open(a, b) {
                *face += 0.5 * (force[a].y + force[b].y);
            }
        });
    }
}

/// Curl ∂v/∂x − ∂u/∂y at the centre of cell (i, j), from the cell-centred velocities of its
/// neighbours (one-sided at the grid's edge).
fn cell_curl(grid: &MacGrid, i: usize, j: usize) -> f32 {
    let centred_u =
        |i: usize, j: usize| 0.5 * (grid.u[grid.u_face(i, j)] + grid.u[grid.u_face(i + 1, j)]);
    let centred_v =
        |i: usize, j: usize| 0.5 * (grid.v[grid.v_face(i, j)] + grid.v[grid.v_face(i, j + 1)]);
    let (left, right) = (i.saturating_sub(1), (i + 1).min(grid.nx - 1));
    let (down, up) = (j.saturating_sub(1), (j + 1).min(grid.ny - 1));
    let dvdx = if right > left {
        (centred_v(right, j) - centred_v(left, j)) / ((right - left) as f32 * grid.dx)
    } else {
        0.0
    };
    let dudy = if up > down {
        (centred_u(i, up) - centred_u(i, down)) / ((up - down) as f32 * grid.dx)
    } else {
        0.0
    };
    dvdx - dudy
}

/// Exponential decay of a cell field toward zero at `rate` per second (smoke thinning, heat
/// leaving the air).
pub fn decay(field: &mut [f32], rate: f32, dt: f32) {
    if rate > 0.0 {
        let keep = (-rate * dt).exp();
        field
            .par_iter_mut()
            .with_min_len(CELLS_PER_TASK)
            .for_each(|x| *x *= keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hot_air_rises_and_smoke_sinks() {
        let mut grid = MacGrid::new(3, 3, 1.0, Vec2::ZERO);
        let middle = grid.cell(1, 1);
        grid.temperature[middle] = 2.0;
        buoyancy(&mut grid, 0.0, 1.0, Vec2::Y, 0.5);
        assert!(grid.v[grid.v_face(1, 2)] > 0.0 && grid.v[grid.v_face(1, 1)] > 0.0);
        assert_eq!(grid.v[grid.v_face(1, 0)], 0.0, "the floor face stays");
        let mut grid = MacGrid::new(3, 3, 1.0, Vec2::ZERO);
        grid.smoke[middle] = 2.0;
        buoyancy(&mut grid, 1.0, 0.0, Vec2::Y, 0.5);
        assert!(grid.v[grid.v_face(1, 2)] < 0.0);
    }

    #[test]
    fn confinement_pushes_around_a_vortex_not_into_it() {
        // A point vortex: confinement's force is tangential, along the swirl.
        let n = 17;
        let mut grid = MacGrid::new(n, n, 1.0, Vec2::ZERO);
        let centre = Vec2::splat(n as f32 / 2.0);
        let swirl = |p: Vec2| {
            let r = p - centre;
            Vec2::new(-r.y, r.x) * (-r.length_squared() / 8.0).exp()
        };
        for j in 0..n {
            for i in 0..=n {
                let face = grid.u_face(i, j);
                grid.u[face] = swirl(Vec2::new(i as f32, j as f32 + 0.5)).x;
            }
        }
        for j in 0..=n {
            for i in 0..n {
                let face = grid.v_face(i, j);
                grid.v[face] = swirl(Vec2::new(i as f32 + 0.5, j as f32)).y;
            }
        }
        let before = grid.clone();
        Confinement::default().apply(&mut grid, 1.0, 0.1);
        let probe = Vec2::new(n as f32 / 2.0 + 2.0, n as f32 / 2.0);
        let change = grid.velocity_at(probe) - before.velocity_at(probe);
        assert!(change.y > 0.0, "not along the swirl: {change}");
        assert!(change.x.abs() < 0.5 * change.y, "radial: {change}");
    }
}
