//! Criterion benches of the engine's stages on a settled dam break at 6,000, 24,000 and 96,000
//! particles: grid build (sort and reorder), density pass (neighbour sums and pressures),
//! relaxation pass, and a full substep. Run with `cargo bench --bench engine`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use slosh::preset::Preset;
use slosh::sim::World;
use std::time::Duration;

const SIZES: [usize; 3] = [6_000, 24_000, 96_000];

/// A dam of `particles` particles two simulated seconds after the break.
fn settled_dam(particles: usize) -> World {
    let mut world = Preset::load("tank")
        .and_then(|preset| preset.with_particles(particles))
        .expect("the tank preset scales")
        .build_world(1);
    for _ in 0..40 {
        world.step_frame();
    }
    world
}

fn stages(c: &mut Criterion) {
    let mut group = c.benchmark_group("stage");
    group
        .sample_size(20)
        .measurement_time(Duration::from_secs(4))
        .warm_up_time(Duration::from_secs(1));
    for particles in SIZES {
        let mut world = settled_dam(particles);
        group.throughput(Throughput::Elements(particles as u64));
        group.bench_function(BenchmarkId::new("grid", particles), |b| {
            b.iter(|| world.sort_into_grid())
        });
        group.bench_function(BenchmarkId::new("density", particles), |b| {
            b.iter(|| world.compute_densities())
        });
        group.bench_function(BenchmarkId::new("relax", particles), |b| {
            b.iter(|| world.relax())
        });
        group.bench_function(BenchmarkId::new("substep", particles), |b| {
            b.iter(|| world.substep())
        });
    }
    group.finish();
}

criterion_group!(benches, stages);
criterion_main!(benches);
