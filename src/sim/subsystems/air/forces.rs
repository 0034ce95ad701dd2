//! Body forces on the air (Fedkiw, Stam and Jensen 2001, "Visual Simulation of Smoke"):
//! buoyancy from smoke and heat, and vorticity confinement, which gives back the small swirls
//! that semi-Lagrangian advection smooths away. Both are found from the same velocity and
//! added to the faces in one pass over each kind of face.

use super::field::{inner_u_face_rows, inner_v_face_rows, par_rows_mut, MacGrid, CELLS_PER_TASK};
use glam::Vec2;
use rayon::prelude::*;
use std::ops::Range;

/// The most velocity vorticity confinement may add to a cell in one air step, as a fraction of
/// |ω| Δx, the change in velocity across the cell that its curl stands for. Confinement adds
/// Δt ε Δx |ω| (Fedkiw et al. 2001, eq. 11), so this caps ε Δt: past about 2 a swirl one cell
/// wide grows faster each step than advection and projection take it away, and the smoke
/// turns to grid-scale noise (the `smoke` preset, 20 air steps a second: calm to ε 30, noise
/// from ε 40). At 0.5 the presets (ε Δt 0.1 to 0.15) are untouched and ε up to 100 stays calm.
pub const CONFINEMENT_LIMIT: f32 = 0.5;

/// The constants of the body forces.
#[derive(Clone, Copy, Debug)]
pub struct ForceConstants {
    /// Buoyancy α: downward acceleration per unit of smoke, m/s².
    pub smoke_weight: f32,
    /// Buoyancy β: upward acceleration per degree, m/s².
    pub heat_lift: f32,
    /// Vorticity confinement ε.
    pub vorticity: f32,
    /// The unit vector against gravity.
    pub up: Vec2,
}

/// Scratch buffers of the body forces (vorticity confinement's curl and force per cell).
#[derive(Clone, Debug, Default)]
pub struct Forces {
    curl: Vec<f32>,
    force: Vec<Vec2>,
}

impl Forces {
    /// Adds Δt times the body forces to every face between two open cells:
    /// - buoyancy f = (−α s + β T) up (Fedkiw et al. 2001, eq. 8), with s and T the mean of
    ///   the two cells: smoke weighs the air down, heat lifts it;
    /// - vorticity confinement (eq. 9–11): with ω the curl at cell centres and
    ///   N = ∇|ω| / |∇|ω||, ε Δx (N × ω), the mean of the two cells', its step Δt ε Δx |ω| at
    ///   most [`CONFINEMENT_LIMIT`] |ω| Δx in each cell.
    pub fn apply(&mut self, grid: &mut MacGrid, constants: ForceConstants, dt: f32) {
        let ForceConstants {
            smoke_weight: alpha,
            heat_lift: beta,
            vorticity: epsilon,
            up,
        } = constants;
        let buoyant = !(alpha == 0.0 && beta == 0.0) && up != Vec2::ZERO;
        if !buoyant && epsilon == 0.0 {
            return;
        }
        let (nx, ny) = (grid.nx, grid.ny);
        let confined = epsilon != 0.0;
        if confined {
            self.confine(grid, epsilon, dt);
        } else {
            self.force.clear();
            self.force.resize(nx * ny, Vec2::ZERO);
        }
        let lift = if buoyant { dt * up } else { Vec2::ZERO };
        let MacGrid {
            u,
            v,
            smoke,
            temperature,
            solid,
            ..
        } = grid;
        let cells = FaceForceCells {
            smoke,
            temperature,
            solid,
            force: &self.force,
            alpha,
            beta,
            lift,
        };
        if lift.x != 0.0 || confined {
            inner_u_face_rows(u, nx, |faces, a, b| cells.push(faces, a, b, |f| f.x));
        }
        if lift.y != 0.0 || confined {
            inner_v_face_rows(v, nx, ny, |faces, a, b| cells.push(faces, a, b, |f| f.y));
        }
    }

    /// Vorticity confinement's Δt ε Δx (N × ω) per open cell inside the grid's border (zero
    /// elsewhere), into `force`; Δt ε at most [`CONFINEMENT_LIMIT`], so no cell gains more
    /// than that fraction of |ω| Δx in a step.
    fn confine(&mut self, grid: &MacGrid, epsilon: f32, dt: f32) {
        let (nx, ny) = (grid.nx, grid.ny);
        self.curl.resize(nx * ny, 0.0);
        self.force.resize(nx * ny, Vec2::ZERO);
        par_rows_mut(&mut self.curl, nx, |j, curl| curl_row(grid, j, curl));
        let curl = &self.curl;
        // Written so that a limit that does not bind leaves the scale's bits as they were.
        let scale = epsilon * grid.dx * dt;
        let limit = CONFINEMENT_LIMIT * grid.dx;
        let scale = if scale > limit { limit } else { scale };
        par_rows_mut(&mut self.force, nx, |j, force| {
            force.fill(Vec2::ZERO);
            if j == 0 || j + 1 == ny {
                return;
            }
            let solid = &grid.solid[nx * j..][..nx];
            let (below, here, above) = (
                &curl[nx * (j - 1)..][..nx],
                &curl[nx * j..][..nx],
                &curl[nx * (j + 1)..][..nx],
            );
            for i in 1..nx.saturating_sub(1) {
                if solid[i] {
                    continue;
                }
                // ∇|ω| (up to a factor 2 Δx, which N does not see).
                let gradient = Vec2::new(
                    here[i + 1].abs() - here[i - 1].abs(),
                    above[i].abs() - below[i].abs(),
                );
                let length = gradient.length();
                if length > 1e-12 * 2.0 * grid.dx {
                    let n = gradient / length;
                    force[i] = scale * here[i] * Vec2::new(n.y, -n.x);
                }
            }
        });
    }
}

/// What the body forces on a face are found from: the cells' smoke, heat and confinement
/// force, and the buoyancy constants (`lift` is Δt times the up vector).
struct FaceForceCells<'a> {
    smoke: &'a [f32],
    temperature: &'a [f32],
    solid: &'a [bool],
    force: &'a [Vec2],
    alpha: f32,
    beta: f32,
    lift: Vec2,
}

impl FaceForceCells<'_> {
    /// Adds to each of `faces` that lies between two open cells (`behind[k]` and `ahead[k]`)
    /// the `pick`ed component of Δt times the force there: buoyancy from the two cells' mean
    /// smoke and heat, and the mean of their confinement forces. Without branches, so the
    /// loop vectorises.
    #[inline(always)]
    fn push(
        &self,
        faces: &mut [f32],
        behind: Range<usize>,
        ahead: Range<usize>,
        pick: impl Fn(Vec2) -> f32,
    ) {
        let n = faces.len();
        let (a, b) = (behind, ahead);
        let (s_a, s_b) = (&self.smoke[a.clone()][..n], &self.smoke[b.clone()][..n]);
        let (t_a, t_b) = (
            &self.temperature[a.clone()][..n],
            &self.temperature[b.clone()][..n],
        );
        let (solid_a, solid_b) = (&self.solid[a.clone()][..n], &self.solid[b.clone()][..n]);
        let (f_a, f_b) = (&self.force[a][..n], &self.force[b][..n]);
        let (alpha, beta, lift) = (self.alpha, self.beta, self.lift);
        for (k, face) in faces.iter_mut().enumerate() {
            let s = 0.5 * (s_a[k] + s_b[k]);
            let t = 0.5 * (t_a[k] + t_b[k]);
            let added = pick((beta * t - alpha * s) * lift + 0.5 * (f_a[k] + f_b[k]));
            let pushed = *face + added;
            *face = if !solid_a[k] && !solid_b[k] {
                pushed
            } else {
                *face
            };
        }
    }
}

/// Curl ∂v/∂x − ∂u/∂y at the centres of row `j`'s cells, from the cell-centred velocities of
/// their neighbours (one-sided at the grid's edge).
fn curl_row(grid: &MacGrid, j: usize, curl: &mut [f32]) {
    let (nx, ny, dx) = (grid.nx, grid.ny, grid.dx);
    let (down, up) = (j.saturating_sub(1), (j + 1).min(ny - 1));
    let u_down = &grid.u[(nx + 1) * down..][..nx + 1];
    let u_up = &grid.u[(nx + 1) * up..][..nx + 1];
    let (v_below, v_above) = (&grid.v[nx * j..][..nx], &grid.v[nx * (j + 1)..][..nx]);
    let centred_v = |i: usize| 0.5 * (v_below[i] + v_above[i]);
    let per_dy = if up > down {
        1.0 / ((up - down) as f32 * dx)
    } else {
        0.0
    };
    for (i, curl) in curl.iter_mut().enumerate() {
        let (left, right) = (i.saturating_sub(1), (i + 1).min(nx - 1));
        let dvdx = if right > left {
            (centred_v(right) - centred_v(left)) / ((right - left) as f32 * dx)
        } else {
            0.0
        };
        let dudy = (0.5 * (u_up[i] + u_up[i + 1]) - 0.5 * (u_down[i] + u_down[i + 1])) * per_dy;
        *curl = dvdx - dudy;
    }
}

/// Exponential decay of a cell field toward zero at `rate` per second (smoke thinning, heat
/// leaving the air).
pub fn decay(field: &mut [f32], rate: f32, dt: f32) {
    if rate > 0.0 {
        let keep = crate::sim::numerics::portable::exp(-rate * dt);
        field
            .par_iter_mut()
            .with_min_len(CELLS_PER_TASK)
            .for_each(|x| *x *= keep);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::numerics::portable::Ordered;

    #[test]
    fn hot_air_rises_and_smoke_sinks() {
        let mut grid = MacGrid::new(3, 3, 1.0, Vec2::ZERO);
        let middle = grid.cell(1, 1);
        grid.temperature[middle] = 2.0;
        let lift = |alpha, beta| ForceConstants {
            smoke_weight: alpha,
            heat_lift: beta,
            vorticity: 0.0,
            up: Vec2::Y,
        };
        Forces::default().apply(&mut grid, lift(0.0, 1.0), 0.5);
        assert!(grid.v[grid.v_face(1, 2)] > 0.0 && grid.v[grid.v_face(1, 1)] > 0.0);
        assert_eq!(grid.v[grid.v_face(1, 0)], 0.0, "the floor face stays");
        let mut grid = MacGrid::new(3, 3, 1.0, Vec2::ZERO);
        grid.smoke[middle] = 2.0;
        Forces::default().apply(&mut grid, lift(1.0, 0.0), 0.5);
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
            Vec2::new(-r.y, r.x) * crate::sim::numerics::portable::exp(-r.length_squared() / 8.0)
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
        let swirling = ForceConstants {
            smoke_weight: 0.0,
            heat_lift: 0.0,
            vorticity: 1.0,
            up: Vec2::Y,
        };
        Forces::default().apply(&mut grid, swirling, 0.1);
        let probe = Vec2::new(n as f32 / 2.0 + 2.0, n as f32 / 2.0);
        let change = grid.velocity_at(probe) - before.velocity_at(probe);
        assert!(change.y > 0.0, "not along the swirl: {change}");
        assert!(change.x.abs() < 0.5 * change.y, "radial: {change}");
    }

    /// Past Δt ε = `CONFINEMENT_LIMIT` confinement pushes no harder: ε 1000 and ε 100 at Δt 0.1
    /// give the same faces, and below the limit a stronger ε pushes harder.
    #[test]
    fn confinement_stops_growing_at_its_limit() {
        let n = 9;
        let mut start = MacGrid::new(n, n, 1.0, Vec2::ZERO);
        for (k, u) in start.u.iter_mut().enumerate() {
            *u = ((k * 7919) % 13) as f32 / 13.0 - 0.5;
        }
        for (k, v) in start.v.iter_mut().enumerate() {
            *v = ((k * 104_729) % 11) as f32 / 11.0 - 0.5;
        }
        start.apply_solid_velocities();
        let pushed = |epsilon: f32| {
            let mut grid = start.clone();
            let constants = ForceConstants {
                smoke_weight: 0.0,
                heat_lift: 0.0,
                vorticity: epsilon,
                up: Vec2::Y,
            };
            Forces::default().apply(&mut grid, constants, 0.1);
            let change = |now: &[f32], then: &[f32]| {
                now.iter()
                    .zip(then)
                    .fold(0.0f32, |m, (a, b)| m.at_least((a - b).abs()))
            };
            (
                grid.clone(),
                change(&grid.u, &start.u).at_least(change(&grid.v, &start.v)),
            )
        };
        let (limited, most) = pushed(1000.0);
        let (at_limit, _) = pushed(100.0);
        assert_eq!((limited.u, limited.v), (at_limit.u, at_limit.v));
        let (_, weaker) = pushed(1.0);
        assert!(0.0 < weaker && weaker < most, "{weaker} against {most}");
    }
}
