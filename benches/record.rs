//! What recording costs: one frame's worth of recorded input (a stir and a pour, the most a
//! frame of mouse input makes, plus the frame count) written by `replay::Recorder`, beside one
//! simulation frame of `dam` at its own 3,000 particles. The bar is recording under 1%
//! of a frame. Run with `cargo bench --bench record`.

use criterion::{criterion_group, criterion_main, Criterion};
use glam::Vec2;
use slosh::input::MaterialRef;
use slosh::preset::Preset;
use slosh::replay::{Input, Recorder};
use slosh::sim::Stir;
use std::time::Duration;

fn record(c: &mut Criterion) {
    let folder = std::env::temp_dir().join(format!("slosh-record-bench-{}", std::process::id()));
    std::fs::create_dir_all(&folder).unwrap();
    let mut recorder = Recorder::create(&folder.join("bench.replay"), 1).unwrap();
    let stir = Input::Stir(Stir {
        position: Vec2::new(4.123_456, 1.987_654),
        velocity: Vec2::new(-3.120_592_7, 0.577_215_7),
        radius: 1.697_056_4,
    });
    let pour = Input::Pour {
        material: MaterialRef::Index(0),
        centre: Vec2::new(8.108_001, 6.633_001),
        radius: 1.697_056_4,
        velocity: Vec2::new(-1.463_456_9, 2.026_715_8),
    };
    let mut group = c.benchmark_group("record");
    group.bench_function("one frame of input", |b| {
        b.iter(|| {
            recorder.record(&stir);
            recorder.record(&pour);
            recorder.frame_done();
        })
    });
    let mut world = Preset::load("dam").unwrap().build_world(1);
    for _ in 0..20 {
        world.step_frame();
    }
    group.measurement_time(Duration::from_secs(8));
    group.bench_function("one dam frame (3,000 particles)", |b| {
        b.iter(|| world.step_frame())
    });
    group.finish();
    recorder.finish(0).unwrap();
    std::fs::remove_dir_all(&folder).unwrap();
}

criterion_group!(benches, record);
criterion_main!(benches);
