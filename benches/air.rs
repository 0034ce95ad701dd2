//! Criterion bench of one air step (sources, advection, buoyancy, vorticity confinement,
//! projection to a relative residual of 1e-4, conservative scalar advection) on 256 × 256 and
//! 512 × 512 grids: a hot plume rising in a closed box around a round beam, warmed up for 30
//! steps so the solve starts from the last step's pressure as in a running scene. Beside it the
//! same step with plain semi-Lagrangian scalar advection (the other selectable scheme), and with
//! Stam's Gauss–Seidel at the same residual (capped; the report says where it stopped). Run
//! with `cargo bench --bench air`; set the threads with `RAYON_NUM_THREADS`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use glam::Vec2;
use slosh::sim::subsystems::air::{Air, AirSettings, AirSource, Method, ScalarAdvection};
use slosh::sim::{Domain, Obstacle, Wall};
use std::time::Duration;

/// Steps of the air before timing.
const WARM_UP_STEPS: usize = 30;
/// Gauss–Seidel's sweep cap: far from converged at these sizes, which is the point.
const GAUSS_SEIDEL_CAP: u32 = 2_000;

/// A 16 × 16 box of air with a plume source and a beam, at `cells` × `cells`.
fn plume(cells: usize, method: Method, advection: ScalarAdvection) -> Air {
    let walls = vec![
        Wall::new(Vec2::X, 0.0),
        Wall::new(Vec2::Y, 0.0),
        Wall::new(-Vec2::X, -16.0),
        Wall::new(-Vec2::Y, -16.0),
    ];
    let domain = Domain::new(walls, 0.05).expect("a box");
    let mut settings = AirSettings {
        columns: cells,
        sources: vec![AirSource {
            position: Vec2::new(8.0, 1.5),
            radius: 0.8,
            smoke: 5.0,
            temperature: 4.0,
            velocity: Vec2::new(0.0, 1.0),
            start: 0.0,
            duration: f32::INFINITY,
        }],
        ..AirSettings::default()
    };
    settings.solver = method;
    settings.advection = advection;
    settings.max_iterations = match method {
        Method::MultigridPcg => 200,
        Method::GaussSeidel => GAUSS_SEIDEL_CAP,
    };
    let beam = Obstacle::circle(Vec2::new(7.0, 8.0), 1.2, 0.5);
    let mut air = Air::new(settings, &domain, &[beam]);
    for _ in 0..WARM_UP_STEPS {
        air.step(1.0 / 60.0, Vec2::Y);
    }
    air
}

fn air_step(c: &mut Criterion) {
    let mut group = c.benchmark_group("air_step");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));
    // One pool for the whole run, entered once, as a running scene does: the stages' parallel
    // passes then start on the pool's own threads instead of waking them from outside.
    let pool = rayon::ThreadPoolBuilder::new()
        .build()
        .expect("a thread pool");
    for cells in [256, 512] {
        for (name, method, advection) in [
            (
                "multigrid",
                Method::MultigridPcg,
                ScalarAdvection::Conservative,
            ),
            (
                "multigrid-semi-lagrangian",
                Method::MultigridPcg,
                ScalarAdvection::SemiLagrangian,
            ),
            (
                "gauss-seidel",
                Method::GaussSeidel,
                ScalarAdvection::Conservative,
            ),
        ] {
            // Made on first use, so a filtered run builds only the scenes it times.
            let mut scene: Option<Air> = None;
            group.bench_function(BenchmarkId::new(name, cells), |b| {
                pool.install(|| {
                    let air = scene.get_or_insert_with(|| plume(cells, method, advection));
                    b.iter(|| air.step(1.0 / 60.0, Vec2::Y))
                })
            });
            let Some(air) = scene else {
                continue;
            };
            let last = air.last_step().solve;
            let times = air.stage_times();
            let per_step = |stage: Duration| stage.as_secs_f64() * 1e3 / air.steps() as f64;
            eprintln!(
                "air_step/{name}/{cells}: {} threads, last solve {} iterations, relative residual \
                 {:.2e}; ms per step: advect velocity {:.2}, forces {:.2}, project {:.2}, \
                 advect scalars {:.2}",
                pool.current_num_threads(),
                last.iterations,
                last.relative_residual,
                per_step(times.advect_velocity),
                per_step(times.forces),
                per_step(times.project),
                per_step(times.advect_scalars),
            );
        }
    }
    group.finish();
}

criterion_group!(benches, air_step);
criterion_main!(benches);
