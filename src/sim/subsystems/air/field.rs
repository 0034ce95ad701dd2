//! The staggered (MAC) grid of the air: velocities on cell faces, scalars at cell centres
//! (Harlow and Welch 1965; Bridson, "Fluid Simulation for Computer Graphics", ch. 2), and the
//! bilinear interpolation that reads any of them at any point.

use crate::sim::numerics::portable::Ordered;
use glam::Vec2;
use rayon::prelude::*;
use std::ops::Range;

/// The air's state on an `nx` × `ny` grid of square cells of side `dx`, whose lower-left corner
/// is `origin`. Cell (i, j) spans `origin + dx (i..i+1, j..j+1)`; arrays are row-major, y up.
#[derive(Clone, Debug, PartialEq)]
pub struct MacGrid {
    /// Cells across.
    pub nx: usize,
    /// Cells up.
    pub ny: usize,
    /// Side of a cell.
    pub dx: f32,
    /// Lower-left corner of cell (0, 0).
    pub origin: Vec2,
    /// x velocity on the vertical faces: (nx + 1) × ny, face (i, j) at `origin + dx (i, j + ½)`.
    pub u: Vec<f32>,
    /// y velocity on the horizontal faces: nx × (ny + 1), face (i, j) at `origin + dx (i + ½, j)`.
    pub v: Vec<f32>,
    /// Smoke density per cell (arbitrary units, 0 = clear air).
    pub smoke: Vec<f32>,
    /// Temperature per cell, in °C (the air starts at 0 and cools back toward it).
    pub temperature: Vec<f32>,
    /// Vapour of the scene's boiling material per cell, as mass (`vapour.rs`; all zero in
    /// scenes where nothing boils).
    pub vapour: Vec<f32>,
    /// Vapour condensed in each cell into droplets too small to fall yet, as mass: it stays
    /// where it formed until a drop's worth has gathered (`vapour.rs`).
    pub dew: Vec<f32>,
    /// True for a cell the air cannot enter: outside the walls, inside an obstacle, or (this
    /// frame) filled with liquid.
    pub solid: Vec<bool>,
    /// Velocity of the solid in each solid cell (zero for walls and obstacles; the liquid's for
    /// cells it fills).
    pub solid_velocity: Vec<Vec2>,
}

impl MacGrid {
    /// A still, clear, all-open grid.
    pub fn new(nx: usize, ny: usize, dx: f32, origin: Vec2) -> Self {
        let cells = nx * ny;
        Self {
            nx,
            ny,
            dx,
            origin,
            u: vec![0.0; (nx + 1) * ny],
            v: vec![0.0; nx * (ny + 1)],
            smoke: vec![0.0; cells],
            temperature: vec![0.0; cells],
            vapour: vec![0.0; cells],
            dew: vec![0.0; cells],
            solid: vec![false; cells],
            solid_velocity: vec![Vec2::ZERO; cells],
        }
    }

    /// Index of cell (i, j).
    #[inline]
    pub fn cell(&self, i: usize, j: usize) -> usize {
        i + self.nx * j
    }

    /// Index of the vertical face (i, j): the left side of cell (i, j).
    #[inline]
    pub fn u_face(&self, i: usize, j: usize) -> usize {
        i + (self.nx + 1) * j
    }

    /// Index of the horizontal face (i, j): the bottom of cell (i, j).
    #[inline]
    pub fn v_face(&self, i: usize, j: usize) -> usize {
        i + self.nx * j
    }

    /// Centre of cell (i, j).
    #[inline]
    pub fn cell_centre(&self, i: usize, j: usize) -> Vec2 {
        self.origin + self.dx * Vec2::new(i as f32 + 0.5, j as f32 + 0.5)
    }

    /// True when cell (i, j) exists and is open to air.
    #[inline]
    pub fn is_open(&self, i: isize, j: isize) -> bool {
        i >= 0
            && j >= 0
            && (i as usize) < self.nx
            && (j as usize) < self.ny
            && !self.solid[i as usize + self.nx * j as usize]
    }

    /// The cell holding `point`, if it is inside the grid.
    pub fn cell_at(&self, point: Vec2) -> Option<(usize, usize)> {
        let g = (point - self.origin) / self.dx;
        let inside = g.x >= 0.0 && g.y >= 0.0 && g.x < self.nx as f32 && g.y < self.ny as f32;
        inside.then_some((g.x as usize, g.y as usize))
    }

    /// x velocity at `point` (bilinear on the vertical faces; clamped to the grid).
    pub fn sample_u(&self, point: Vec2) -> f32 {
        let g = (point - self.origin) / self.dx;
        bilinear(&self.u, self.nx + 1, self.ny, g.x, g.y - 0.5)
    }

    /// y velocity at `point` (bilinear on the horizontal faces; clamped to the grid).
    pub fn sample_v(&self, point: Vec2) -> f32 {
        let g = (point - self.origin) / self.dx;
        bilinear(&self.v, self.nx, self.ny + 1, g.x - 0.5, g.y)
    }

    /// Air velocity at `point`.
    pub fn velocity_at(&self, point: Vec2) -> Vec2 {
        Vec2::new(self.sample_u(point), self.sample_v(point))
    }

    /// Air velocity at the centre of cell (i, j): the mean of its faces.
    #[inline]
    pub fn centre_velocity(&self, i: usize, j: usize) -> Vec2 {
        Vec2::new(
            0.5 * (self.u[self.u_face(i, j)] + self.u[self.u_face(i + 1, j)]),
            0.5 * (self.v[self.v_face(i, j)] + self.v[self.v_face(i, j + 1)]),
        )
    }

    /// A cell-centred field (smoke, temperature) at `point` (bilinear; clamped to the grid).
    pub fn sample_centred(&self, field: &[f32], point: Vec2) -> f32 {
        let g = (point - self.origin) / self.dx;
        bilinear(field, self.nx, self.ny, g.x - 0.5, g.y - 0.5)
    }

    /// Net outflow of cell (i, j) per unit time and length: (u right − u left + v top − v
    /// bottom); divided by `dx` it is the divergence.
    #[inline]
    pub fn outflow(&self, i: usize, j: usize) -> f32 {
        CellRow::new(self, j).outflow(i)
    }

    /// Largest |divergence| over the open cells, in 1/s.
    pub fn divergence_max(&self) -> f32 {
        (0..self.ny)
            .into_par_iter()
            .with_min_len(ROWS_PER_TASK)
            .map(|j| {
                let row = CellRow::new(self, j);
                let mut largest = 0.0f32;
                for i in 0..self.nx {
                    let size = if row.solid[i] {
                        0.0
                    } else {
                        row.outflow(i).abs()
                    };
                    largest = largest.at_least(size);
                }
                largest
            })
            .reduce(|| 0.0, crate::sim::numerics::portable::max)
            / self.dx
    }

    /// Total smoke (sum over cells times the cell area).
    pub fn smoke_total(&self) -> f64 {
        let area = f64::from(self.dx) * f64::from(self.dx);
        self.smoke.iter().map(|&s| f64::from(s)).sum::<f64>() * area
    }

    /// Centre of mass of the smoke (the grid's centre when there is none).
    pub fn smoke_centroid(&self) -> Vec2 {
        let mut weighted = [0.0f64; 2];
        let mut total = 0.0f64;
        for j in 0..self.ny {
            for i in 0..self.nx {
                let s = f64::from(self.smoke[self.cell(i, j)]);
                let c = self.cell_centre(i, j);
                weighted[0] += s * f64::from(c.x);
                weighted[1] += s * f64::from(c.y);
                total += s;
            }
        }
        if total > 0.0 {
            Vec2::new((weighted[0] / total) as f32, (weighted[1] / total) as f32)
        } else {
            self.origin + 0.5 * self.dx * Vec2::new(self.nx as f32, self.ny as f32)
        }
    }

    /// Every face next to a solid cell or the grid's edge takes the solid's velocity (its normal
    /// component): zero at walls and obstacles, the liquid's where liquid fills the cell. Faces
    /// between two solid cells take their mean. Parallel over rows.
    pub fn apply_solid_velocities(&mut self) {
        let (nx, ny) = (self.nx, self.ny);
        let Self {
            u,
            v,
            solid,
            solid_velocity,
            ..
        } = self;
        let (solid, solid_velocity) = (&*solid, &*solid_velocity);
        par_cells_mut(u, nx + 1, |i, j, face| {
            let left = (i > 0).then(|| i - 1 + nx * j);
            let right = (i < nx).then(|| i + nx * j);
            if let Some(value) = face_solid_velocity(solid, solid_velocity, left, right, |w| w.x) {
                *face = value;
            }
        });
        par_cells_mut(v, nx, |i, j, face| {
            let below = (j > 0).then(|| i + nx * (j - 1));
            let above = (j < ny).then(|| i + nx * j);
            if let Some(value) = face_solid_velocity(solid, solid_velocity, below, above, |w| w.y) {
                *face = value;
            }
        });
    }
}

/// Rows of faces or cells per rayon task in the grid's passes.
pub const ROWS_PER_TASK: usize = 8;

/// Cells (or faces) per rayon task of the passes over flat fields (decay, clamps).
pub const CELLS_PER_TASK: usize = 4096;

/// Calls `act(j, row)` for every row `j` of a row-major lattice `width` entries wide, in
/// parallel over rows.
pub fn par_rows_mut<T: Send>(values: &mut [T], width: usize, act: impl Fn(usize, &mut [T]) + Sync) {
    values
        .par_chunks_mut(width * ROWS_PER_TASK)
        .enumerate()
        .for_each(|(task, rows)| {
            for (r, row) in rows.chunks_mut(width).enumerate() {
                act(task * ROWS_PER_TASK + r, row);
            }
        });
}

/// Calls `act(i, j, value)` for every entry (i, j) of a row-major lattice `width` entries wide
/// (cells: `nx`; vertical faces: `nx + 1`; horizontal faces: `nx`), in parallel over rows. Each
/// entry is written by its own call only, so any thread count gives the same result.
pub fn par_cells_mut<T: Send>(
    values: &mut [T],
    width: usize,
    act: impl Fn(usize, usize, &mut T) + Sync,
) {
    values
        .par_chunks_mut(width * ROWS_PER_TASK)
        .enumerate()
        .for_each(|(task, rows)| {
            for (r, row) in rows.chunks_mut(width).enumerate() {
                let j = task * ROWS_PER_TASK + r;
                for (i, value) in row.iter_mut().enumerate() {
                    act(i, j, value);
                }
            }
        });
}

/// Calls `act(faces, behind, ahead)` for every row of vertical faces between two cells, in
/// parallel over rows: `faces` are the row's inner faces, `behind` and `ahead` the index
/// ranges of the cells left and right of them, each as long as `faces`.
pub fn inner_u_face_rows(
    u: &mut [f32],
    nx: usize,
    act: impl Fn(&mut [f32], Range<usize>, Range<usize>) + Sync,
) {
    par_rows_mut(u, nx + 1, |j, row| {
        let cells = nx * j;
        act(
            &mut row[1..nx],
            cells..cells + nx - 1,
            cells + 1..cells + nx,
        );
    });
}

/// Calls `act(faces, behind, ahead)` for every row of horizontal faces between two cells, in
/// parallel over rows: `faces` are the row's faces, `behind` and `ahead` the index ranges of
/// the cells below and above them.
pub fn inner_v_face_rows(
    v: &mut [f32],
    nx: usize,
    ny: usize,
    act: impl Fn(&mut [f32], Range<usize>, Range<usize>) + Sync,
) {
    par_rows_mut(v, nx, |j, row| {
        if j > 0 && j < ny {
            act(row, nx * (j - 1)..nx * j, nx * j..nx * (j + 1));
        }
    });
}

/// The velocity a face between cells `a` and `b` (either may be outside the grid) must have,
/// or `None` when both are open air.
#[inline]
fn face_solid_velocity(
    solid: &[bool],
    solid_velocity: &[Vec2],
    a: Option<usize>,
    b: Option<usize>,
    component: impl Fn(Vec2) -> f32,
) -> Option<f32> {
    let is_solid = |c: Option<usize>| c.is_none_or(|c| solid[c]);
    let speed = |c: Option<usize>| c.map_or(0.0, |c| component(solid_velocity[c]));
    match (is_solid(a), is_solid(b)) {
        (false, false) => None,
        (true, false) => Some(speed(a)),
        (false, true) => Some(speed(b)),
        (true, true) => Some(0.5 * (speed(a) + speed(b))),
    }
}

/// One row of cells of a grid, as slices: its solids and the faces around it.
pub struct CellRow<'a> {
    /// Whether each cell is solid.
    pub solid: &'a [bool],
    /// The row's vertical faces (nx + 1: left of each cell, then the last right one).
    pub u: &'a [f32],
    /// The horizontal faces below the cells.
    pub v_below: &'a [f32],
    /// The horizontal faces above the cells.
    pub v_above: &'a [f32],
}

impl<'a> CellRow<'a> {
    /// Row `j` of `grid`.
    pub fn new(grid: &'a MacGrid, j: usize) -> Self {
        let nx = grid.nx;
        Self {
            solid: &grid.solid[nx * j..nx * (j + 1)],
            u: &grid.u[(nx + 1) * j..(nx + 1) * (j + 1)],
            v_below: &grid.v[nx * j..nx * (j + 1)],
            v_above: &grid.v[nx * (j + 1)..nx * (j + 2)],
        }
    }

    /// Net outflow of cell `i`, as [`MacGrid::outflow`].
    #[inline]
    pub fn outflow(&self, i: usize) -> f32 {
        self.u[i + 1] - self.u[i] + self.v_above[i] - self.v_below[i]
    }

    /// How many cells the centre of cell `i` moves along x and y at its velocity (the mean
    /// of its faces) in a time that moves `reach` cells per m/s.
    #[inline]
    pub fn step(&self, i: usize, reach: f32) -> (f32, f32) {
        (
            reach * 0.5 * (self.u[i] + self.u[i + 1]),
            reach * 0.5 * (self.v_below[i] + self.v_above[i]),
        )
    }
}

/// A row-major lattice of `w` × `h` values (cells or faces) and the offsets from an entry to
/// the one on its right and the one above (zero along a side of a lattice one entry wide or
/// high), for bilinear reads.
#[derive(Clone, Copy, Debug, Default)]
pub struct Lattice {
    w: usize,
    /// Largest coordinates inside the lattice: w − 1 and h − 1.
    last_x: f32,
    last_y: f32,
    /// Largest lower-left entry of a bilinear read: w − 2 and h − 2 (0 for a side of one).
    last_i0: u32,
    last_j0: u32,
    /// Offset from an entry to the one on its right.
    pub right: usize,
    /// Offset from an entry to the one above it.
    pub up: usize,
}

impl Lattice {
    /// The lattice `w` × `h` (both at least 1).
    pub fn new(w: usize, h: usize) -> Self {
        Self {
            w,
            last_x: (w - 1) as f32,
            last_y: (h - 1) as f32,
            last_i0: w.saturating_sub(2) as u32,
            last_j0: h.saturating_sub(2) as u32,
            right: usize::from(w > 1),
            up: if h > 1 { w } else { 0 },
        }
    }

    /// The four entries around lattice coordinates (gx, gy), clamped to the lattice (a NaN
    /// coordinate counts as 0).
    #[inline]
    pub fn point(&self, gx: f32, gy: f32) -> LatticePoint {
        // `max` first: it turns NaN into 0, so the truncations below see finite values in
        // range and need no saturation.
        let gx = gx.at_least(0.0).at_most(self.last_x);
        let gy = gy.at_least(0.0).at_most(self.last_y);
        // SAFETY: gx and gy are finite, in [0, w − 1] and [0, h − 1], so they fit in u32.
        let (i0, j0) = unsafe { (gx.to_int_unchecked::<u32>(), gy.to_int_unchecked::<u32>()) };
        let (i0, j0) = (i0.min(self.last_i0), j0.min(self.last_j0));
        let (i0, j0) = (i0 as usize, j0 as usize);
        LatticePoint {
            base: i0 + self.w * j0,
            fx: gx - i0 as f32,
            fy: gy - j0 as f32,
        }
    }

    /// Bilinear interpolation of `values` (this lattice's) at `at`.
    #[inline]
    pub fn sample(&self, values: &[f32], at: LatticePoint) -> f32 {
        let b = at.base;
        let (fx, fy) = (at.fx, at.fy);
        let bottom = values[b] * (1.0 - fx) + values[b + self.right] * fx;
        let top = values[b + self.up] * (1.0 - fx) + values[b + self.up + self.right] * fx;
        bottom * (1.0 - fy) + top * fy
    }
}

/// A point of a [`Lattice`]: the index of the entry at its lower left and its fractions of
/// the way to the next entry along x and y.
#[derive(Clone, Copy, Debug)]
pub struct LatticePoint {
    /// Index of the lower-left entry.
    pub base: usize,
    /// Fraction of the way to the entry on the right.
    pub fx: f32,
    /// Fraction of the way to the entry above.
    pub fy: f32,
}

impl LatticePoint {
    /// The bilinear weights of the lower-left, right, up and up-right entries (summing to 1).
    #[inline]
    pub fn weights(&self) -> [f32; 4] {
        let (fx, fy) = (self.fx, self.fy);
        [
            (1.0 - fx) * (1.0 - fy),
            fx * (1.0 - fy),
            (1.0 - fx) * fy,
            fx * fy,
        ]
    }
}

/// Bilinear interpolation of `values` (a `w` × `h` row-major lattice) at lattice coordinates
/// (gx, gy), clamped to the lattice.
#[inline]
pub fn bilinear(values: &[f32], w: usize, h: usize, gx: f32, gy: f32) -> f32 {
    let lattice = Lattice::new(w, h);
    lattice.sample(values, lattice.point(gx, gy))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Seed 004's interpolation check: velocities set to their own face positions interpolate
    /// to the position everywhere inside the grid.
    #[test]
    fn a_field_set_to_its_positions_interpolates_to_the_position() {
        let dx = 0.37;
        let origin = Vec2::new(-1.0, 2.0);
        let mut grid = MacGrid::new(7, 5, dx, origin);
        for j in 0..grid.ny {
            for i in 0..=grid.nx {
                let face = grid.u_face(i, j);
                grid.u[face] = origin.x + i as f32 * dx;
            }
        }
        for j in 0..=grid.ny {
            for i in 0..grid.nx {
                let face = grid.v_face(i, j);
                grid.v[face] = origin.y + j as f32 * dx;
            }
        }
        for a in 0..=40 {
            for b in 0..=40 {
                let point = origin + Vec2::new(7.0 * dx * a as f32, 5.0 * dx * b as f32) / 40.0;
                let sampled = grid.velocity_at(point);
                assert!((sampled - point).length() < 1e-5, "at {point}: {sampled}");
            }
        }
    }

    #[test]
    fn walls_stop_the_normal_velocity_and_liquid_cells_lend_theirs() {
        let mut grid = MacGrid::new(3, 2, 1.0, Vec2::ZERO);
        grid.u.fill(1.0);
        grid.v.fill(1.0);
        let liquid = grid.cell(2, 0);
        grid.solid[liquid] = true;
        grid.solid_velocity[liquid] = Vec2::new(-2.0, 3.0);
        grid.apply_solid_velocities();
        assert_eq!(grid.u[grid.u_face(0, 0)], 0.0, "left wall");
        assert_eq!(grid.u[grid.u_face(3, 1)], 0.0, "right wall");
        assert_eq!(grid.v[grid.v_face(1, 2)], 0.0, "ceiling");
        assert_eq!(grid.u[grid.u_face(2, 0)], -2.0, "face onto the liquid");
        assert_eq!(grid.v[grid.v_face(2, 1)], 3.0, "face above the liquid");
        assert_eq!(grid.u[grid.u_face(1, 0)], 1.0, "open face kept");
    }

    #[test]
    fn bilinear_handles_single_row_and_column_lattices() {
        assert_eq!(bilinear(&[4.0], 1, 1, 0.3, -2.0), 4.0);
        assert_eq!(bilinear(&[0.0, 2.0], 2, 1, 0.25, 5.0), 0.5);
        assert_eq!(bilinear(&[0.0, 2.0], 1, 2, 9.0, 0.75), 1.5);
    }
}
