//! The connected components of the finest level's open cells (4-connectivity): with Neumann
//! walls, each adds its constants to A's null space. The cells are labelled by runs, the runs of
//! open cells of each row joined (union-find) to the runs of the row below that they touch.
//! The per-component means are what a solve removes from b (to make the system consistent) and
//! from p and z (to keep them in A's range).

use super::layout::{interior, interior_indices, interior_mut, CellGrid};
use super::rows::{for_each_row, for_each_row_pair_summed, squares_of_sums, Sums};

/// The connected components of the finest level's open cells, and per-component sums.
pub struct Components {
    /// Per stored cell: 0 for solid cells and padding, else the 1-based id of its component.
    pub id: Vec<u32>,
    /// Number of components.
    pub count: usize,
    /// Per id (index 0: the solid cells, whose mean is kept 0): cells, sums and means.
    pub size: Vec<f64>,
    sum: Vec<f64>,
    other_sum: Vec<f64>,
    pub mean: Vec<f64>,
    /// Labelling: the runs of open cells (first and one-past-last stored index, row by row),
    /// the index of each row's first run, and each run's parent in the union-find.
    runs: Vec<[usize; 2]>,
    row_runs: Vec<usize>,
    parent: Vec<usize>,
}

impl Components {
    pub fn new(grid: &CellGrid) -> Self {
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
    pub fn label(&mut self, grid: &CellGrid) {
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
    pub fn means(&mut self, grid: &CellGrid, field: &[f32], total: f64) {
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
    pub fn subtract_means_exactly(
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
    pub fn mean_part_norm(&self) -> f64 {
        let squares = (1..=self.count).map(|c| self.size[c] * self.mean[c] * self.mean[c]);
        squares.sum::<f64>().sqrt()
    }

    /// Fills `mean` with z's per-component means and returns Σ over components of
    /// mean × (Σ r over the component), in one pass in index order.
    pub fn project(&mut self, grid: &CellGrid, r: &[f32], z: &[f32]) -> f64 {
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
    pub fn spread_means(&self, grid: &CellGrid, field: &mut [f32]) {
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

#[cfg(test)]
mod tests {
    use super::super::test_problems::*;
    use super::super::Poisson;
    use rand::{Rng, SeedableRng};
    use rand_pcg::Pcg32;

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
}
