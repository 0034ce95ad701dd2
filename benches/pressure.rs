//! Criterion benches of the air solver's pressure solve: a square box (the grid's edge) with a
//! circular obstacle in the middle, at 256² and 512², the right-hand side being the divergence
//! of a smooth velocity field (a sum of a few sines, zero through the walls), solved from a
//! zero guess to a relative residual of 1e-4. Multigrid-preconditioned CG runs on two threads
//! (`PRESSURE_BENCH_THREADS` sets another count); Gauss–Seidel (Stam's `lin_solve`, one thread)
//! is capped at 20,000 sweeps, far short of 1e-4 at these sizes. Each bench first prints its
//! solve's report (iterations, and the relative residual where it stopped). Run with
//! `cargo bench --bench pressure` (the Gauss–Seidel ones take a few minutes; add `multigrid` to
//! run the others only).

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, SamplingMode};
use libm::{cosf, sinf};
use slosh::sim::subsystems::air::pressure::{Method, Poisson, Report, Settings};
use std::f32::consts::TAU;
use std::time::Duration;

/// Most Gauss–Seidel sweeps.
const GAUSS_SEIDEL_SWEEPS: u32 = 20_000;

/// A solve's inputs: the open cells and the right-hand side.
struct Case {
    open: Vec<bool>,
    rhs: Vec<f32>,
}

/// An n × n box with a disk of radius n / 8 in the middle; b = −div u for a smooth u.
fn box_with_disk(n: usize) -> Case {
    let centre = n as f32 / 2.0;
    let radius = n as f32 / 8.0;
    let open: Vec<bool> = (0..n * n)
        .map(|i| {
            let (x, y) = ((i % n) as f32 + 0.5 - centre, (i / n) as f32 + 0.5 - centre);
            x * x + y * y > radius * radius
        })
        .collect();
    let is_open = |x: i64, y: i64| {
        (0..n as i64).contains(&x)
            && (0..n as i64).contains(&y)
            && open[x as usize + n * y as usize]
    };
    let s = n as f32;
    // Face velocities at (x, y + ½) and (x + ½, y), in cells per step; 0 through solid faces.
    let u = |x: i64, y: i64| {
        if !(is_open(x - 1, y) && is_open(x, y)) {
            return 0.0;
        }
        let (x, y) = (x as f32 / s, (y as f32 + 0.5) / s);
        sinf(TAU * 1.3 * x + 0.7) * cosf(TAU * 0.8 * y) + 0.5 * sinf(TAU * 3.1 * y + 2.1)
    };
    let v = |x: i64, y: i64| {
        if !(is_open(x, y - 1) && is_open(x, y)) {
            return 0.0;
        }
        let (x, y) = ((x as f32 + 0.5) / s, y as f32 / s);
        sinf(TAU * 0.9 * y + 1.9) * sinf(TAU * 1.7 * x) + 0.3 * cosf(TAU * 2.3 * x + 0.4)
    };
    let rhs = (0..n * n)
        .map(|i| {
            let (x, y) = ((i % n) as i64, (i / n) as i64);
            if !open[i] {
                return 0.0;
            }
            -((u(x + 1, y) - u(x, y)) + (v(x, y + 1) - v(x, y)))
        })
        .collect();
    Case { open, rhs }
}

/// One solve from a zero guess.
fn solve(poisson: &mut Poisson, case: &Case, pressure: &mut [f32], settings: Settings) -> Report {
    pressure.fill(0.0);
    poisson.solve(&case.open, &case.rhs, pressure, settings)
}

fn pressure(c: &mut Criterion) {
    let threads = std::env::var("PRESSURE_BENCH_THREADS").map_or(2, |value| {
        value
            .parse()
            .expect("PRESSURE_BENCH_THREADS is a thread count")
    });
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .expect("a thread pool");
    let multigrid = Settings {
        method: Method::MultigridPcg,
        tolerance: 1e-4,
        max_iterations: 100,
    };
    let gauss_seidel = Settings {
        method: Method::GaussSeidel,
        max_iterations: GAUSS_SEIDEL_SWEEPS,
        ..multigrid
    };
    let cases = [256, 512].map(|n| (n, box_with_disk(n)));
    let mut group = c.benchmark_group("pressure");
    group
        .sample_size(10)
        .warm_up_time(Duration::from_millis(500));
    for (n, case) in &cases {
        let mut poisson = Poisson::new(*n, *n);
        let (mut p, mut reported) = (vec![0.0; n * n], false);
        let id = BenchmarkId::new(format!("multigrid-pcg-{threads}-threads"), n);
        group.measurement_time(Duration::from_secs(3));
        group.bench_function(id, |b| {
            pool.install(|| {
                if !std::mem::replace(&mut reported, true) {
                    let report = solve(&mut poisson, case, &mut p, multigrid);
                    eprintln!("{n}²: {report:?}");
                }
                b.iter(|| solve(&mut poisson, case, &mut p, multigrid))
            })
        });
    }
    // Seconds per solve: one solve per sample, ten samples.
    group.sampling_mode(SamplingMode::Flat);
    group.measurement_time(Duration::from_secs(1));
    for (n, case) in &cases {
        let mut poisson = Poisson::new(*n, *n);
        let (mut p, mut reported) = (vec![0.0; n * n], false);
        group.bench_function(BenchmarkId::new("gauss-seidel", n), |b| {
            if !std::mem::replace(&mut reported, true) {
                let report = solve(&mut poisson, case, &mut p, gauss_seidel);
                eprintln!("{n}²: {report:?}");
            }
            b.iter(|| solve(&mut poisson, case, &mut p, gauss_seidel))
        });
    }
    group.finish();
}

criterion_group!(benches, pressure);
criterion_main!(benches);
