//! Problems for the pressure solver's tests and their reference answers: grids with obstacles,
//! random right-hand sides, the components by breadth-first search, residuals in f64.

use super::{Method, Poisson, Report, Settings};
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;

pub fn settings(method: Method, tolerance: f32, max_iterations: u32) -> Settings {
    Settings {
        method,
        tolerance,
        max_iterations,
    }
}

/// Solves from a zero guess with a fresh workspace.
pub fn solve(nx: usize, ny: usize, open: &[bool], rhs: &[f32], s: Settings) -> (Vec<f32>, Report) {
    let mut pressure = vec![0.0; nx * ny];
    let report = Poisson::new(nx, ny).solve(open, rhs, &mut pressure, s);
    (pressure, report)
}

pub fn random_rhs(cells: usize, seed: u64) -> Vec<f32> {
    let mut rng = Pcg32::seed_from_u64(seed);
    (0..cells).map(|_| rng.random_range(-1.0..1.0)).collect()
}

/// Component ids (usize::MAX for solid cells) and count, by breadth-first search.
pub fn reference_components(nx: usize, ny: usize, open: &[bool]) -> (Vec<usize>, usize) {
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
pub fn consistent_rhs(nx: usize, ny: usize, open: &[bool], rhs: &[f32]) -> Vec<f64> {
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
pub fn laplacian(nx: usize, ny: usize, open: &[bool], p: &[f64]) -> Vec<f64> {
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
pub fn relative_residual(nx: usize, ny: usize, open: &[bool], rhs: &[f32], p: &[f32]) -> f64 {
    let b = consistent_rhs(nx, ny, open, rhs);
    let p: Vec<f64> = p.iter().map(|&v| f64::from(v)).collect();
    let ap = laplacian(nx, ny, open, &p);
    let residual: f64 = b.iter().zip(&ap).map(|(b, ap)| (b - ap) * (b - ap)).sum();
    let norm: f64 = b.iter().map(|b| b * b).sum();
    (residual / norm).sqrt()
}

/// 37 × 23 with solid cells drawn with probability `solid`, a walled-off pocket and
/// isolated open cells.
pub fn obstacle_course(solid: f64, seed: u64) -> (usize, usize, Vec<bool>) {
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
