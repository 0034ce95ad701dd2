//! Criterion benches of what a game asks and hears, on the tank at 48,000 particles two
//! simulated seconds after the break: a query of about 1,000 particles (a circle, into a kept
//! buffer), with the index already built and with it built first (the first query after a
//! step), a sample, a surface height, a force on a shape; and a frame stepped with and without
//! recording its events. Run with `cargo bench --bench queries`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::{Part, World};
use std::time::Duration;

/// The tank at 48,000 particles, two simulated seconds after the break.
fn settled_tank() -> World {
    let mut world = Preset::load("tank")
        .and_then(|preset| preset.with_particles(48_000))
        .expect("the tank preset scales")
        .build_world(1);
    for _ in 0..40 {
        world.step_frame();
    }
    world
}

fn queries(c: &mut Criterion) {
    let mut group = c.benchmark_group("query");
    group
        .sample_size(30)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    let world = settled_tank();
    // A disc of about 1,000 particles, its radius found by halving.
    let spot = Vec2::new(8.0, 0.6);
    let mut found = Vec::new();
    let (mut low, mut high) = (0.0, 4.0);
    for _ in 0..30 {
        let middle = 0.5 * (low + high);
        world.particles_in(&Part::circle(spot, middle), &mut found);
        if found.len() < 1_000 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let radius = high;
    let disc = Part::circle(spot, radius);
    world.particles_in(&disc, &mut found);
    println!(
        "the query's disc (radius {radius:.3}) holds {} particles",
        found.len()
    );
    group.bench_function("particles_in 1000", |b| {
        b.iter(|| world.particles_in(&disc, &mut found))
    });
    group.bench_function("particles_in 1000, index built first", |b| {
        b.iter_batched(
            || world.clone(),
            |copy| {
                copy.particles_in(&disc, &mut Vec::with_capacity(2_000));
                copy
            },
            criterion::BatchSize::LargeInput,
        )
    });
    group.bench_function("sample", |b| b.iter(|| world.sample(spot)));
    group.bench_function("surface_height", |b| b.iter(|| world.surface_height(8.0)));
    let boat = Part::rect(Vec2::new(7.0, 0.2), Vec2::new(9.0, 0.8));
    group.bench_function("force_on 2 x 0.6 box", |b| {
        b.iter(|| world.force_on(&boat, Vec2::ZERO, 0.0))
    });
    group.finish();

    let mut group = c.benchmark_group("frame");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8))
        .warm_up_time(Duration::from_secs(1));
    let (mut plain, mut recording) = (world.clone(), world.clone());
    recording.record_events(true);
    let mut events = Vec::new();
    group.bench_function("step_frame", |b| b.iter(|| plain.step_frame()));
    group.bench_function("step_frame recording events", |b| {
        b.iter(|| {
            recording.step_frame();
            events.clear();
            recording.drain_events(&mut events);
        })
    });
    group.finish();
}

criterion_group!(benches, queries);
criterion_main!(benches);
