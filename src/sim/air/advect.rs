//! Moving the air's quantities along its own velocity.
//!
//! Velocities: semi-Lagrangian (Stam 1999, "Stable Fluids"): each face traces its position back
//! by Δt along the velocity there and takes the interpolated velocity it finds (seed 002's
//! walk-through). Scalars: the same, or mass-conserving "accounting" advection after Mick West
//! 2008 ("Practical Fluid Dynamics", seed 003): a forward pass that moves each cell's content
//! into the four cells around where it lands, then a backward pass that moves into each cell the
//! shares it asks of the four cells around where it came from, scaled down where a cell is
//! asked for more than it holds. Each pass subtracts exactly what it adds, so the total stays.

use super::field::{bilinear, par_cells_mut, MacGrid};
use glam::Vec2;

/// How the scalars (smoke, temperature) are advected.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ScalarAdvection {
    /// Forward then backward accounting passes (seed 003): the total is kept to rounding.
    #[default]
    Conservative,
    /// Plain semi-Lagrangian: smooth, but gains or loses mass where the flow converges.
    SemiLagrangian,
}

/// Scratch buffers of the advection passes, reused every step.
#[derive(Clone, Debug, Default)]
pub struct Advection {
    u: Vec<f32>,
    v: Vec<f32>,
    scalar: Vec<f32>,
    requested: Vec<f32>,
    to: Vec<Shares>,
    from: Vec<Shares>,
}

impl Advection {
    /// Semi-Lagrangian advection of the face velocities by `dt`, from frozen copies (so every
    /// face reads the old field and rows can run in parallel).
    pub fn velocities(&mut self, grid: &mut MacGrid, dt: f32) {
        self.u.clone_from(&grid.u);
        self.v.clone_from(&grid.v);
        let (nx, ny, dx, origin) = (grid.nx, grid.ny, grid.dx, grid.origin);
        let frozen = FrozenVelocity {
            nx,
            ny,
            dx,
            origin,
            u: &self.u,
            v: &self.v,
        };
        let mut u = std::mem::take(&mut grid.u);
        par_cells_mut(&mut u, nx + 1, |i, j, value| {
            let at = origin + dx * Vec2::new(i as f32, j as f32 + 0.5);
            let here = Vec2::new(frozen.u[i + (nx + 1) * j], frozen.v_around_u(i, j));
            *value = frozen.u_at(at - dt * here);
        });
        let mut v = std::mem::take(&mut grid.v);
        par_cells_mut(&mut v, nx, |i, j, value| {
            let at = origin + dx * Vec2::new(i as f32 + 0.5, j as f32);
            let here = Vec2::new(frozen.u_around_v(i, j), frozen.v[i + nx * j]);
            *value = frozen.v_at(at - dt * here);
        });
        grid.u = u;
        grid.v = v;
    }

    /// Advects the cell-centred `field` (taken out of `grid`: smoke or temperature) by `dt` with
    /// `scheme`. Solid cells neither give nor receive.
    pub fn scalar(&mut self, grid: &MacGrid, field: &mut [f32], dt: f32, scheme: ScalarAdvection) {
        match scheme {
            ScalarAdvection::SemiLagrangian => self.semi_lagrangian(grid, field, dt),
            ScalarAdvection::Conservative => {
                self.find_shares(grid, dt);
                self.forward(field);
                self.count_requests();
                self.backward(field);
            }
        }
    }

    /// Plain semi-Lagrangian scalar advection (parallel over rows).
    fn semi_lagrangian(&mut self, grid: &MacGrid, field: &mut [f32], dt: f32) {
        self.scalar.clear();
        self.scalar.extend_from_slice(field);
        let old = &self.scalar;
        par_cells_mut(field, grid.nx, |i, j, value| {
            if !grid.solid[grid.cell(i, j)] {
                let back = grid.cell_centre(i, j) - dt * grid.centre_velocity(i, j);
                *value = grid.sample_centred(old, back);
            }
        });
    }

    /// For every open cell, the shares of the open cells around where its content goes in `dt`
    /// (forward) and around where it came from (backward): the geometry both accounting passes
    /// of every scalar use, found once per step, in parallel.
    fn find_shares(&mut self, grid: &MacGrid, dt: f32) {
        let cells = grid.nx * grid.ny;
        self.to.resize(cells, Shares::NONE);
        self.from.resize(cells, Shares::NONE);
        // `forward` is +1 for where the content goes, −1 for where it came from.
        let shares = |forward: f32| {
            move |i: usize, j: usize, shares: &mut Shares| {
                *shares = if grid.solid[grid.cell(i, j)] {
                    Shares::NONE
                } else {
                    let step = forward * dt * grid.centre_velocity(i, j);
                    open_shares(grid, grid.cell_centre(i, j) + step)
                };
            }
        };
        par_cells_mut(&mut self.to, grid.nx, shares(1.0));
        par_cells_mut(&mut self.from, grid.nx, shares(-1.0));
    }

    /// Forward accounting pass: each open cell's content moves to the open cells around the
    /// point it reaches, in bilinear shares (shares that would land in solids stay home).
    fn forward(&mut self, field: &mut [f32]) {
        self.scalar.clear();
        self.scalar.extend_from_slice(field);
        for (home, shares) in self.to.iter().enumerate() {
            let amount = self.scalar[home];
            if amount == 0.0 || shares.count == 0 {
                continue;
            }
            field[home] -= amount;
            for k in 0..shares.count as usize {
                field[shares.cell[k] as usize] += amount * shares.weight[k];
            }
        }
    }

    /// How much of each cell the backward pass asks for in total.
    fn count_requests(&mut self) {
        self.requested.clear();
        self.requested.resize(self.from.len(), 0.0);
        for shares in &self.from {
            for k in 0..shares.count as usize {
                self.requested[shares.cell[k] as usize] += shares.weight[k];
            }
        }
        // From here on: the factor each source's shares are scaled by.
        for asked in &mut self.requested {
            *asked = if *asked > 1.0 { 1.0 / *asked } else { 1.0 };
        }
    }

    /// Backward accounting pass: each open cell takes from the open cells around the point it
    /// came from their bilinear shares of their content, each source scaled so that it never
    /// gives more than it holds.
    fn backward(&mut self, field: &mut [f32]) {
        self.scalar.clear();
        self.scalar.extend_from_slice(field);
        for (home, shares) in self.from.iter().enumerate() {
            for k in 0..shares.count as usize {
                let source = shares.cell[k] as usize;
                let moved = self.scalar[source] * shares.weight[k] * self.requested[source];
                field[home] += moved;
                field[source] -= moved;
            }
        }
    }
}

/// Up to four cells and their shares (summing to 1); `count` of them are used.
#[derive(Clone, Copy, Debug)]
struct Shares {
    cell: [u32; 4],
    weight: [f32; 4],
    count: u8,
}

impl Shares {
    const NONE: Shares = Shares {
        cell: [0; 4],
        weight: [0.0; 4],
        count: 0,
    };
}

/// The velocity field as it was before this advection, read by every face.
struct FrozenVelocity<'a> {
    nx: usize,
    ny: usize,
    dx: f32,
    origin: Vec2,
    u: &'a [f32],
    v: &'a [f32],
}

impl FrozenVelocity<'_> {
    fn u_at(&self, point: Vec2) -> f32 {
        let g = (point - self.origin) / self.dx;
        bilinear(self.u, self.nx + 1, self.ny, g.x, g.y - 0.5)
    }

    fn v_at(&self, point: Vec2) -> f32 {
        let g = (point - self.origin) / self.dx;
        bilinear(self.v, self.nx, self.ny + 1, g.x - 0.5, g.y)
    }

    /// y velocity at vertical face (i, j): the mean of the four horizontal faces around it
    /// (the bilinear value there, clamped at the grid's sides).
    fn v_around_u(&self, i: usize, j: usize) -> f32 {
        let (a, b) = (i.saturating_sub(1), i.min(self.nx - 1));
        let v = |i: usize, j: usize| self.v[i + self.nx * j];
        0.25 * (v(a, j) + v(b, j) + v(a, j + 1) + v(b, j + 1))
    }

    /// x velocity at horizontal face (i, j): the mean of the four vertical faces around it.
    fn u_around_v(&self, i: usize, j: usize) -> f32 {
        let (a, b) = (j.saturating_sub(1), j.min(self.ny - 1));
        let u = |i: usize, j: usize| self.u[i + (self.nx + 1) * j];
        0.25 * (u(i, a) + u(i + 1, a) + u(i, b) + u(i + 1, b))
    }
}

/// The bilinear shares of the (up to four) open cells whose centres surround `point`,
/// renormalised over the open ones; none when none is open. Points beyond the outer cell
/// centres are clamped onto them.
fn open_shares(grid: &MacGrid, point: Vec2) -> Shares {
    let g = (point - grid.origin) / grid.dx - Vec2::splat(0.5);
    let gx = g.x.clamp(0.0, (grid.nx - 1) as f32);
    let gy = g.y.clamp(0.0, (grid.ny - 1) as f32);
    let i0 = (gx as usize).min(grid.nx.saturating_sub(2));
    let j0 = (gy as usize).min(grid.ny.saturating_sub(2));
    let fx = gx - i0 as f32;
    let fy = gy - j0 as f32;
    let i1 = (i0 + 1).min(grid.nx - 1);
    let j1 = (j0 + 1).min(grid.ny - 1);
    let corners = [
        (i0, j0, (1.0 - fx) * (1.0 - fy)),
        (i1, j0, fx * (1.0 - fy)),
        (i0, j1, (1.0 - fx) * fy),
        (i1, j1, fx * fy),
    ];
    let cells = corners.map(|(i, j, _)| grid.cell(i, j));
    let distinct = i1 != i0 && j1 != j0;
    if distinct && cells.iter().all(|&c| !grid.solid[c]) {
        // Open all round: the bilinear weights as they are (they sum to 1).
        return Shares {
            cell: cells.map(|c| c as u32),
            weight: corners.map(|(_, _, w)| w),
            count: 4,
        };
    }
    let mut shares = Shares::NONE;
    let mut total = 0.0;
    for &(i, j, weight) in &corners {
        let cell = grid.cell(i, j);
        if weight > 0.0 && !grid.solid[cell] {
            let k = shares.count as usize;
            shares.cell[k] = cell as u32;
            shares.weight[k] = weight;
            shares.count += 1;
            total += weight;
        }
    }
    if total <= 0.0 {
        return Shares::NONE;
    }
    for weight in &mut shares.weight[..shares.count as usize] {
        *weight /= total;
    }
    shares
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 002: one unit of v on the inner face of a 2 × 2 grid, Δt 0.1, Δx 1: advection
    /// leaves 0.9 there and every other face as it was.
    #[test]
    fn seed_two_by_two_advection_gives_point_nine() {
        let mut grid = MacGrid::new(2, 2, 1.0, Vec2::ZERO);
        let inner = grid.v_face(0, 1);
        grid.v[inner] = 1.0;
        Advection::default().velocities(&mut grid, 0.1);
        grid.apply_solid_velocities();
        assert!((grid.v[inner] - 0.9).abs() < 1e-6, "{}", grid.v[inner]);
        let others: f32 = grid.u.iter().map(|x| x.abs()).sum::<f32>()
            + grid.v.iter().map(|x| x.abs()).sum::<f32>()
            - grid.v[inner].abs();
        assert!(others < 1e-6, "other faces moved: {others}");
    }

    fn swirl(n: usize) -> MacGrid {
        let mut grid = MacGrid::new(n, n, 1.0 / n as f32, Vec2::ZERO);
        let centre = Vec2::splat(0.5);
        for j in 0..n {
            for i in 0..=n {
                let p = Vec2::new(i as f32, j as f32 + 0.5) / n as f32 - centre;
                let face = grid.u_face(i, j);
                grid.u[face] = -p.y * 2.0;
            }
        }
        for j in 0..=n {
            for i in 0..n {
                let p = Vec2::new(i as f32 + 0.5, j as f32) / n as f32 - centre;
                let face = grid.v_face(i, j);
                grid.v[face] = p.x * 2.0;
            }
        }
        grid.apply_solid_velocities();
        grid
    }

    #[test]
    fn conservative_advection_keeps_the_total_and_stays_non_negative() {
        let mut grid = swirl(32);
        for j in 4..12 {
            for i in 6..20 {
                let cell = grid.cell(i, j);
                grid.smoke[cell] = 1.0 + (i * j % 7) as f32 * 0.1;
            }
        }
        let before = grid.smoke_total();
        let mut advection = Advection::default();
        let mut smoke = std::mem::take(&mut grid.smoke);
        for _ in 0..200 {
            advection.scalar(&grid, &mut smoke, 0.02, ScalarAdvection::Conservative);
        }
        grid.smoke = smoke;
        let after = grid.smoke_total();
        assert!(
            ((after - before) / before).abs() < 1e-5,
            "{before} -> {after}"
        );
        assert!(grid.smoke.iter().all(|&s| s >= -1e-6), "negative smoke");
        let moved = grid.smoke_centroid();
        assert!(
            (moved - Vec2::new(0.41, 0.25)).length() > 0.05,
            "the swirl moved nothing: {moved}"
        );
    }

    #[test]
    fn semi_lagrangian_scalars_follow_a_uniform_flow() {
        let mut grid = MacGrid::new(16, 4, 1.0, Vec2::ZERO);
        grid.u.fill(1.0);
        let cell = grid.cell(4, 2);
        grid.smoke[cell] = 1.0;
        let mut smoke = std::mem::take(&mut grid.smoke);
        Advection::default().scalar(&grid, &mut smoke, 1.0, ScalarAdvection::SemiLagrangian);
        assert_eq!(smoke[grid.cell(5, 2)], 1.0);
        assert_eq!(smoke[grid.cell(4, 2)], 0.0);
    }
}
