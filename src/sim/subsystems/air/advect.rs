//! Moving the air's quantities along its own velocity.
//!
//! Velocities: semi-Lagrangian (Stam 1999, "Stable Fluids"): each face traces its position back
//! by Δt along the velocity there and takes the interpolated velocity it finds (seed 002's
//! walk-through). Scalars: the same, or mass-conserving "accounting" advection after Mick West
//! 2008 ("Practical Fluid Dynamics", seed 003): a forward pass that moves each cell's content
//! into the four cells around where it lands, then a backward pass that moves into each cell the
//! shares it asks of the four cells around where it came from, scaled down where a cell is
//! asked for more than it holds. Each pass subtracts exactly what it adds, so the total stays.

use super::field::{
    par_rows_mut, CellRow, Lattice, LatticePoint, MacGrid, CELLS_PER_TASK, ROWS_PER_TASK,
};
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::air::ScalarAdvection;
use rayon::prelude::*;

/// Scratch buffers of the advection passes, reused every step.
#[derive(Clone, Debug, Default)]
pub struct Advection {
    u: Vec<f32>,
    v: Vec<f32>,
    scalar: Vec<f32>,
    heat: Vec<f32>,
    requested: Vec<f32>,
    to: Vec<Shares>,
    from: Vec<Shares>,
    /// Offsets of the four cells of a share from its base.
    corners: [usize; 4],
    /// Cells across the grid of the last trace.
    nx: usize,
    /// Rows between a cell and the farthest row its shares reach, in the last trace.
    reach_rows: usize,
}

impl Advection {
    /// Semi-Lagrangian advection of the face velocities by `dt`: the new faces are written to
    /// scratch buffers while the old field is read (so rows can run in parallel), then the
    /// buffers are swapped in. A face at lattice position (i, j) of its own component's
    /// lattice traces back to (i, j) − Δt/Δx · (u, v), where the other component is the mean
    /// of the four faces around it.
    pub fn velocities(&mut self, grid: &mut MacGrid, dt: f32) {
        let (nx, ny) = (grid.nx, grid.ny);
        self.u.resize(grid.u.len(), 0.0);
        self.v.resize(grid.v.len(), 0.0);
        let (old_u, old_v) = (&grid.u, &grid.v);
        let (u_lattice, v_lattice) = (Lattice::new(nx + 1, ny), Lattice::new(nx, ny + 1));
        // Cells moved per m/s of velocity in `dt`.
        let reach = dt / grid.dx;
        par_rows_mut(&mut self.u, nx + 1, |j, row| {
            let (v_below, v_above) = (&old_v[nx * j..nx * (j + 1)], &old_v[nx * (j + 1)..]);
            let here = &old_u[(nx + 1) * j..];
            for (i, value) in row.iter_mut().enumerate() {
                let (a, b) = (i.saturating_sub(1), i.min(nx - 1));
                let v = 0.25 * (v_below[a] + v_below[b] + v_above[a] + v_above[b]);
                let (x, y) = (i as f32 - reach * here[i], j as f32 - reach * v);
                *value = u_lattice.sample(old_u, u_lattice.point(x, y));
            }
        });
        par_rows_mut(&mut self.v, nx, |j, row| {
            let (below, above) = (j.saturating_sub(1), j.min(ny - 1));
            let u_below = &old_u[(nx + 1) * below..(nx + 1) * (below + 1)];
            let u_above = &old_u[(nx + 1) * above..(nx + 1) * (above + 1)];
            let here = &old_v[nx * j..];
            for (i, value) in row.iter_mut().enumerate() {
                let u = 0.25 * (u_below[i] + u_below[i + 1] + u_above[i] + u_above[i + 1]);
                let (x, y) = (i as f32 - reach * u, j as f32 - reach * here[i]);
                *value = v_lattice.sample(old_v, v_lattice.point(x, y));
            }
        });
        std::mem::swap(&mut grid.u, &mut self.u);
        std::mem::swap(&mut grid.v, &mut self.v);
    }

    /// Advects the cell-centred smoke by `scheme` and the heat semi-Lagrangian by `dt` (both
    /// taken out of `grid`). Each cell's trace back (and, for conservative smoke, forward) is
    /// found once and serves both fields. Solid cells neither give nor receive.
    pub fn scalars(
        &mut self,
        grid: &MacGrid,
        smoke: &mut Vec<f32>,
        heat: &mut Vec<f32>,
        dt: f32,
        scheme: ScalarAdvection,
    ) {
        // New values go to scratch buffers while the old ones are read, then swap in.
        self.heat.resize(heat.len(), 0.0);
        match scheme {
            ScalarAdvection::SemiLagrangian => {
                self.scalar.resize(smoke.len(), 0.0);
                let (old_smoke, old_heat) = (&*smoke, &*heat);
                let (nx, cells) = (grid.nx, Lattice::new(grid.nx, grid.ny));
                let reach = dt / grid.dx;
                let rows = nx * ROWS_PER_TASK;
                let tasks = self.scalar.par_chunks_mut(rows);
                let tasks = tasks.zip(self.heat.par_chunks_mut(rows));
                tasks.enumerate().for_each(|(task, (smoke, heat))| {
                    let rows = smoke.chunks_mut(nx).zip(heat.chunks_mut(nx));
                    for (r, (smoke, heat)) in rows.enumerate() {
                        let j = task * ROWS_PER_TASK + r;
                        let row = CellRow::new(grid, j);
                        for i in 0..nx {
                            if row.solid[i] {
                                smoke[i] = old_smoke[nx * j + i];
                                heat[i] = old_heat[nx * j + i];
                            } else {
                                let (sx, sy) = row.step(i, reach);
                                let back = cells.point(i as f32 - sx, j as f32 - sy);
                                smoke[i] = cells.sample(old_smoke, back);
                                heat[i] = cells.sample(old_heat, back);
                            }
                        }
                    }
                });
                std::mem::swap(smoke, &mut self.scalar);
            }
            ScalarAdvection::Conservative => {
                self.trace(grid, heat, dt);
                self.forward_and_count(smoke);
                self.backward(smoke);
            }
        }
        std::mem::swap(heat, &mut self.heat);
    }

    /// Advects one more conserved cell field (the vapour) by `dt`, conservatively, after
    /// `scalars` of the same step: with its traces when that step's smoke was conservative
    /// (`traced`), else tracing afresh.
    pub fn carry(&mut self, grid: &MacGrid, field: &mut [f32], dt: f32, traced: bool) {
        if !traced {
            // The trace also writes a semi-Lagrangian heat into the scratch, unused here.
            self.trace(grid, &grid.temperature, dt);
        }
        self.forward_and_count(field);
        self.backward(field);
    }

    /// For every open cell, the shares of the open cells around where its content goes in `dt`
    /// (forward) and around where it came from (backward): the geometry of both accounting
    /// passes; and, from the same trace back, the semi-Lagrangian `heat`. In parallel over rows.
    fn trace(&mut self, grid: &MacGrid, old_heat: &[f32], dt: f32) {
        let (nx, ny) = (grid.nx, grid.ny);
        self.to.resize(nx * ny, Shares::NONE);
        self.from.resize(nx * ny, Shares::NONE);
        let cells = Lattice::new(nx, ny);
        self.corners = [0, cells.right, cells.up, cells.up + cells.right];
        self.nx = nx;
        let corners = self.corners;
        // Cells moved per m/s of velocity in `dt`.
        let reach = dt / grid.dx;
        let rows = nx * ROWS_PER_TASK;
        let tasks = self
            .to
            .par_chunks_mut(rows)
            .zip(self.from.par_chunks_mut(rows));
        let tasks = tasks.zip(self.heat.par_chunks_mut(rows));
        let farthest = tasks
            .enumerate()
            .map(|(task, ((to, from), heat))| {
                let mut farthest = 0.0f32;
                let rows = to.chunks_mut(nx).zip(from.chunks_mut(nx));
                for (r, ((to, from), heat)) in rows.zip(heat.chunks_mut(nx)).enumerate() {
                    let j = task * ROWS_PER_TASK + r;
                    let row = CellRow::new(grid, j);
                    for i in 0..nx {
                        if row.solid[i] {
                            to[i] = Shares::NONE;
                            from[i] = Shares::NONE;
                            heat[i] = old_heat[nx * j + i];
                            continue;
                        }
                        let (sx, sy) = row.step(i, reach);
                        // A NaN step counts as infinitely far.
                        farthest = if sy.is_nan() {
                            f32::INFINITY
                        } else {
                            farthest.at_least(sy.abs())
                        };
                        let (x, y) = (i as f32, j as f32);
                        to[i] = open_shares(grid, corners, cells.point(x + sx, y + sy));
                        let back = cells.point(x - sx, y - sy);
                        from[i] = open_shares(grid, corners, back);
                        heat[i] = cells.sample(old_heat, back);
                    }
                }
                farthest
            })
            .reduce(|| 0.0, crate::sim::numerics::portable::max);
        // A share of a cell in row j lies in rows j − ⌈|sy|⌉ to j + ⌈|sy|⌉ + 1.
        self.reach_rows = if farthest < ny as f32 {
            farthest.ceil() as usize + 1
        } else {
            ny
        };
    }

    /// Forward accounting pass: each open cell's content moves to the open cells around the
    /// point it reaches, in bilinear shares (shares that would land in solids stay home). In
    /// the same loop: how much of each cell the backward pass asks for in total.
    fn forward_and_count(&mut self, field: &mut [f32]) {
        par_copy(&mut self.scalar, field);
        self.requested.resize(field.len(), 0.0);
        let zero = self.requested.par_chunks_mut(CELLS_PER_TASK);
        zero.for_each(|asked| asked.fill(0.0));
        let (corners, old, to, from) = (self.corners, &self.scalar, &self.to, &self.from);
        let nx = self.nx;
        in_bands(
            field,
            &mut self.requested,
            nx,
            self.reach_rows,
            |rows, first, field, requested| {
                let offset = first * nx;
                for home in rows.start * nx..rows.end * nx {
                    let (to, from) = (&to[home], &from[home]);
                    let amount = old[home];
                    if amount != 0.0 && to.base != Shares::NOWHERE {
                        field[home - offset] -= amount;
                        let base = to.base as usize - offset;
                        for (corner, weight) in corners.iter().zip(to.weight) {
                            field[base + corner] += amount * weight;
                        }
                    }
                    if from.base != Shares::NOWHERE {
                        let base = from.base as usize - offset;
                        for (corner, weight) in corners.iter().zip(from.weight) {
                            requested[base + corner] += weight;
                        }
                    }
                }
            },
        );
        // From here on: the factor each source's shares are scaled by.
        let factors = self.requested.par_iter_mut().with_min_len(CELLS_PER_TASK);
        factors.for_each(|asked| *asked = if *asked > 1.0 { 1.0 / *asked } else { 1.0 });
    }

    /// Backward accounting pass: each open cell takes from the open cells around the point it
    /// came from their bilinear shares of their content, each source scaled so that it never
    /// gives more than it holds.
    fn backward(&mut self, field: &mut [f32]) {
        par_copy(&mut self.scalar, field);
        let (corners, old, from) = (self.corners, &self.scalar, &self.from);
        let nx = self.nx;
        // `requested` is only read here; it travels in bands beside the field.
        in_bands(
            field,
            &mut self.requested,
            nx,
            self.reach_rows,
            |rows, first, field, factor| {
                let offset = first * nx;
                for home in rows.start * nx..rows.end * nx {
                    let from = &from[home];
                    if from.base == Shares::NOWHERE {
                        continue;
                    }
                    let base = from.base as usize;
                    for (corner, weight) in corners.iter().zip(from.weight) {
                        let source = base + corner;
                        let moved = old[source] * weight * factor[source - offset];
                        field[home - offset] += moved;
                        field[source - offset] -= moved;
                    }
                }
            },
        );
    }
}

/// Makes `copy` a copy of `values`, in parallel.
fn par_copy(copy: &mut Vec<f32>, values: &[f32]) {
    copy.resize(values.len(), 0.0);
    let pieces = copy.par_chunks_mut(CELLS_PER_TASK);
    let pieces = pieces.zip(values.par_chunks(CELLS_PER_TASK));
    pieces.for_each(|(copy, values)| copy.copy_from_slice(values));
}

/// Fewest rows in a band of [`in_bands`].
const MIN_BAND_ROWS: usize = 8;

/// Runs `act(rows, first, a, b)` once for each band of rows of two row-major fields `width`
/// entries wide, where `act` may write to entries up to `reach` rows beyond its band: `a` and
/// `b` then hold the rows from `first` on, far enough on both sides. Bands are at least twice
/// `reach` rows high, so even bands never reach one another: they run in parallel, then the
/// odd ones do. Each entry thus receives its writes in one fixed order, the same at any thread
/// count (scatters that add in parallel, deterministically).
fn in_bands<A: Send, B: Send>(
    a: &mut [A],
    b: &mut [B],
    width: usize,
    reach: usize,
    act: impl Fn(std::ops::Range<usize>, usize, &mut [A], &mut [B]) + Sync,
) {
    let rows = a.len() / width.max(1);
    let band = (2 * reach).max(MIN_BAND_ROWS);
    if band >= rows {
        act(0..rows, 0, a, b);
        return;
    }
    let half = band / 2;
    let band_rows = |k: usize| (k * band).min(rows)..((k + 1) * band).min(rows);
    for phase in 0..2 {
        // A head piece, then pieces of two bands' rows, each with one band of this phase in
        // its middle and `half` ≥ `reach` rows on either side of it.
        let head = if phase == 0 {
            2 * band - half
        } else {
            band - half
        };
        let head = head.min(rows);
        let (head_a, rest_a) = a.split_at_mut(head * width);
        let (head_b, rest_b) = b.split_at_mut(head * width);
        let piece = 2 * band * width;
        let pieces = rest_a
            .par_chunks_mut(piece)
            .zip(rest_b.par_chunks_mut(piece));
        rayon::join(
            || {
                if phase == 0 {
                    act(band_rows(0), 0, head_a, head_b);
                }
            },
            || {
                pieces.enumerate().for_each(|(c, (a, b))| {
                    let k = 2 * c + 2 - phase;
                    act(band_rows(k), head + 2 * band * c, a, b);
                });
            },
        );
    }
}

/// The bilinear shares of the four cells around a point (lower-left, right, up, up-right, as
/// a [`Lattice`] has them), zero for solid ones; `base` is the lower-left cell, or `NOWHERE`.
#[derive(Clone, Copy, Debug)]
struct Shares {
    base: u32,
    weight: [f32; 4],
}

impl Shares {
    /// `base` of shares that move nothing: the point has no open cell around it.
    const NOWHERE: u32 = u32::MAX;
    const NONE: Shares = Shares {
        base: Self::NOWHERE,
        weight: [0.0; 4],
    };
}

/// The bilinear shares of the open cells among the four around `at`, renormalised over the
/// open ones; none when none is open. `corners` are the four cells' offsets from `at.base`.
#[inline(always)]
fn open_shares(grid: &MacGrid, corners: [usize; 4], at: LatticePoint) -> Shares {
    let solid = &grid.solid[at.base..];
    let any_solid = solid[corners[0]] | solid[corners[1]] | solid[corners[2]] | solid[corners[3]];
    if any_solid {
        return open_shares_beside_solids(solid, corners, at);
    }
    // Open all round: the bilinear weights as they are (they sum to 1).
    Shares {
        base: at.base as u32,
        weight: at.weights(),
    }
}

/// [`open_shares`] where some of the four cells are solid.
#[cold]
fn open_shares_beside_solids(solid: &[bool], corners: [usize; 4], at: LatticePoint) -> Shares {
    let mut weight = at.weights();
    let shares = |weight| Shares {
        base: at.base as u32,
        weight,
    };
    let open = corners.map(|corner| !solid[corner]);
    let mut total = 0.0;
    for (weight, open) in weight.iter_mut().zip(open) {
        if *weight > 0.0 && open {
            total += *weight;
        } else {
            *weight = 0.0;
        }
    }
    if total <= 0.0 {
        return Shares::NONE;
    }
    for weight in &mut weight {
        *weight /= total;
    }
    shares(weight)
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec2;

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
        let mut heat = vec![0.0; smoke.len()];
        for _ in 0..200 {
            advection.scalars(
                &grid,
                &mut smoke,
                &mut heat,
                0.02,
                ScalarAdvection::Conservative,
            );
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

    /// The banded scatter runs every row once, and an act may write anywhere within `reach`
    /// rows of its band (a write outside the rows it holds would panic).
    #[test]
    fn bands_cover_every_row_once_within_reach() {
        for (rows, reach) in [
            (1, 1),
            (7, 1),
            (40, 1),
            (40, 3),
            (41, 5),
            (100, 7),
            (64, 31),
        ] {
            let width = 3;
            let mut visits = vec![0u32; rows * width];
            let mut touched = vec![0u32; rows * width];
            in_bands(
                &mut visits,
                &mut touched,
                width,
                reach,
                |band, first, visits, touched| {
                    for row in band.clone() {
                        visits[(row - first) * width] += 1;
                        let lowest = row.saturating_sub(reach);
                        let highest = (row + reach).min(rows - 1);
                        for reached in lowest..=highest {
                            touched[(reached - first) * width + 1] += 1;
                        }
                    }
                },
            );
            let once = visits.chunks(width).all(|row| row[0] == 1);
            assert!(once, "rows {rows}, reach {reach}: {visits:?}");
        }
    }

    #[test]
    fn semi_lagrangian_scalars_follow_a_uniform_flow() {
        let mut grid = MacGrid::new(16, 4, 1.0, Vec2::ZERO);
        grid.u.fill(1.0);
        let cell = grid.cell(4, 2);
        grid.smoke[cell] = 1.0;
        let mut smoke = std::mem::take(&mut grid.smoke);
        let mut heat = smoke.clone();
        let scheme = ScalarAdvection::SemiLagrangian;
        Advection::default().scalars(&grid, &mut smoke, &mut heat, 1.0, scheme);
        assert_eq!(smoke[grid.cell(5, 2)], 1.0);
        assert_eq!(smoke[grid.cell(4, 2)], 0.0);
        assert_eq!(heat, smoke);
    }
}
