//! What the sound costs on the main thread per simulation frame: the listener's events, and the
//! synthesis of the frame's samples (pushed, then rendered), on `dam` at 20,000 particles and on
//! `volcano` at its own resolution, over their first 10 s (the busiest: the dam's wave, the lava
//! reaching the sea). The simulation's own step is not timed.
//!
//! `cargo bench --bench sound` (the figures in docs/ENGINE.md, "Sound").

use slosh::preset::Preset;
use slosh::sound::{Listener, Synth, SAMPLE_RATE};
use std::time::{Duration, Instant};

/// Seconds of each scene timed.
const SECONDS: f32 = 10.0;

fn main() {
    let threads = std::env::var("SLOSH_BENCH_THREADS")
        .ok()
        .and_then(|n| n.parse().ok());
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        pool = pool.num_threads(threads);
    }
    let pool = pool.build().expect("a thread pool");
    pool.install(|| {
        for (name, particles) in [("dam", Some(20_000)), ("volcano", None)] {
            time(name, particles);
        }
    });
}

/// Times the sound of `name`'s first `SECONDS` (at `particles`, or its own resolution).
fn time(name: &str, particles: Option<usize>) {
    let preset = Preset::load_scaled(name, particles).expect("an embedded preset");
    let mut world = preset.build_world(1);
    let mut listener = Listener::new(&world);
    let mut synth = Synth::new(1);
    let rate = world.params().frame_rate;
    let frames = (SECONDS * rate) as usize;
    let mut buffer = vec![0.0; 2 * (SAMPLE_RATE as f32 / rate) as usize];
    let (mut events_time, mut synth_time) = (Vec::new(), Vec::new());
    for _ in 0..frames {
        world.step_frame();
        let start = Instant::now();
        let events = listener.listen(&world);
        let heard = start.elapsed();
        let start = Instant::now();
        synth.push(&events);
        synth.render(&mut buffer);
        synth_time.push(start.elapsed());
        events_time.push(heard);
        std::hint::black_box(&buffer);
    }
    let ms = |times: &[Duration]| {
        let mut sorted: Vec<f64> = times.iter().map(|t| t.as_secs_f64() * 1e3).collect();
        sorted.sort_by(f64::total_cmp);
        let mean = sorted.iter().sum::<f64>() / sorted.len().max(1) as f64;
        (
            mean,
            sorted[sorted.len() * 95 / 100],
            sorted[sorted.len() - 1],
        )
    };
    let (events, synthesis) = (ms(&events_time), ms(&synth_time));
    println!(
        "{name}, {} particles, {frames} frames: events {:.3} ms a frame (95th percentile {:.3}, \
         most {:.3}), synthesis of {} samples {:.3} ms (95th percentile {:.3}, most {:.3})",
        world.particles().len(),
        events.0,
        events.1,
        events.2,
        buffer.len() / 2,
        synthesis.0,
        synthesis.1,
        synthesis.2,
    );
}
