//! What floating bodies cost: 20 bodies (crates and balls) in a pool of about 20,000 particles,
//! on 2 threads. Prints, for five runs of 100 frames after the bodies have settled in, the
//! bodies stage (rapier's step and the coupling) as a share of the whole substep, and the
//! median; the issue's bar is 15%. Run with `cargo bench --bench bodies`.

use slosh::preset::Preset;
use slosh::sim::World;
use std::time::Duration;

/// A 40 × 8 tank with a pool about 5 deep and `bodies` bodies dropped in along it.
fn scene(bodies: usize) -> String {
    let mut text = String::from(
        r#"
name = "bodies-bench"
description = "20 bodies in 20,000 particles"
[params]
max_particles = 21000
[[walls]]
normal = [1.0, 0.0]
offset = 0.0
[[walls]]
normal = [0.0, 1.0]
offset = 0.0
[[walls]]
normal = [-1.0, 0.0]
offset = -40.0
[[walls]]
normal = [0.0, -1.0]
offset = -8.0
[[materials]]
name = "water"
colour = [0.2, 0.5, 0.9]
mass = 1.0
[[blocks]]
material = "water"
min = [0.1, 0.1]
max = [39.9, 5.1]
spacing = 0.1
"#,
    );
    for k in 0..bodies {
        let x = 1.0 + 2.0 * k as f32;
        let (shape, density) = if k % 2 == 0 {
            (r#"{ kind = "box", half_size = [0.4, 0.4] }"#, 0.5)
        } else {
            (r#"{ kind = "circle", radius = 0.35 }"#, 0.8)
        };
        text.push_str(&format!(
            "[[bodies]]\nname = \"body{k}\"\nposition = [{x}, 6.8]\ndensity = {density}\nshapes = [{shape}]\n"
        ));
    }
    text
}

/// Total and coupling-stage time over `frames` frames, and the substeps they took.
fn measure(world: &mut World, frames: usize) -> (Duration, Duration, u64) {
    let (before, substeps) = (world.stage_times(), world.substeps_done());
    for _ in 0..frames {
        world.step_frame();
    }
    let after = world.stage_times();
    let total = |t: &slosh::sim::StageTimes| t.named().iter().map(|(_, d)| *d).sum::<Duration>();
    let bodies = |t: &slosh::sim::StageTimes| t.couple;
    (
        total(&after) - total(&before),
        bodies(&after) - bodies(&before),
        world.substeps_done() - substeps,
    )
}

fn main() {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .unwrap();
    pool.install(|| {
        let mut with = Preset::parse("bench.toml", &scene(20))
            .unwrap()
            .build_world(1);
        let mut without = Preset::parse("bench.toml", &scene(0))
            .unwrap()
            .build_world(1);
        println!(
            "{} particles, {} bodies, 2 threads",
            with.particles().len(),
            with.bodies().map_or(0, |b| b.len())
        );
        for _ in 0..60 {
            with.step_frame();
            without.step_frame();
        }
        let mut shares = Vec::new();
        for run in 0..5 {
            let (total, bodies, substeps) = measure(&mut with, 100);
            let (plain, _, plain_substeps) = measure(&mut without, 100);
            let per = |d: Duration, n: u64| d.as_secs_f64() * 1e3 / n as f64;
            let share = bodies.as_secs_f64() / total.as_secs_f64();
            println!(
                "run {run}: substep {:.3} ms with bodies, {:.3} ms without; bodies stage {:.3} ms = {:.1}%",
                per(total, substeps),
                per(plain, plain_substeps),
                per(bodies, substeps),
                share * 100.0
            );
            shares.push(share);
        }
        shares.sort_by(f64::total_cmp);
        println!("median bodies share: {:.1}% (bar: 15%)", shares[2] * 100.0);
    });
}
