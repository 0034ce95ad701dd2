//! A cup that counts what pours into it: a sensor over the cup (`World::add_sensor`) says which
//! particles came in and which left each frame, and the game plays a sound of its own, a short
//! blip pitched by the splash's energy, on every splash in the cup the world records
//! (`Event::Splash`). The game's sound goes to `cup.wav` in the system's temporary folder.
//!
//!     cargo run --release --no-default-features --example cup

use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::unit_vector;
use slosh::sim::{Event, Part};

/// Samples per second of the game's sound.
const RATE: u32 = 22_050;

/// A blip of 80 ms at `pitch` hertz, fading out, added into `samples` from `start`.
fn blip(samples: &mut Vec<f32>, start: usize, pitch: f32, loudness: f32) {
    let length = (0.08 * RATE as f32) as usize;
    if samples.len() < start + length {
        samples.resize(start + length, 0.0);
    }
    for k in 0..length {
        let t = k as f32 / RATE as f32;
        let fade = 1.0 - k as f32 / length as f32;
        let wave = unit_vector(std::f32::consts::TAU * pitch * t).y;
        samples[start + k] += loudness * fade * fade * wave;
    }
}

/// `samples` as a 16-bit mono WAV file.
fn write_wav(path: &str, samples: &[f32]) -> std::io::Result<()> {
    let data: Vec<u8> = samples
        .iter()
        .flat_map(|s| ((s.clamp(-1.0, 1.0) * 32767.0) as i16).to_le_bytes())
        .collect();
    let mut file = Vec::with_capacity(44 + data.len());
    let riff = 36 + data.len() as u32;
    file.extend_from_slice(b"RIFF");
    file.extend_from_slice(&riff.to_le_bytes());
    file.extend_from_slice(b"WAVEfmt ");
    file.extend_from_slice(&16u32.to_le_bytes());
    file.extend_from_slice(&1u16.to_le_bytes()); // PCM
    file.extend_from_slice(&1u16.to_le_bytes()); // mono
    file.extend_from_slice(&RATE.to_le_bytes());
    file.extend_from_slice(&(RATE * 2).to_le_bytes());
    file.extend_from_slice(&2u16.to_le_bytes());
    file.extend_from_slice(&16u16.to_le_bytes());
    file.extend_from_slice(b"data");
    file.extend_from_slice(&(data.len() as u32).to_le_bytes());
    file.extend_from_slice(&data);
    std::fs::write(path, file)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // The seed pours two liquids from above; the cup is the box's lower left corner.
    let mut world = Preset::load("seed")?.build_world(1);
    world.record_events(true);
    let rim = Part::rect(Vec2::new(0.0, 0.0), Vec2::new(3.0, 1.5));
    let cup = world.add_sensor(rim.clone());
    let frame_rate = world.params().frame_rate;
    let (mut samples, mut events) = (Vec::new(), Vec::new());
    let (mut came, mut left, mut splashes) = (0, 0, 0);
    for frame in 0..200 {
        world.step_frame();
        events.clear();
        world.drain_events(&mut events);
        let start = (frame as f32 / frame_rate * RATE as f32) as usize;
        for event in &events {
            match event {
                Event::Splash {
                    energy, position, ..
                } if rim.contains(*position) => {
                    splashes += 1;
                    // Louder and higher for more energy.
                    let level = (energy.sqrt() / 3.0).clamp(0.0, 1.0);
                    blip(
                        &mut samples,
                        start,
                        300.0 + 900.0 * level,
                        0.04 + 0.08 * level,
                    );
                }
                Event::Sensed {
                    sensor,
                    entered,
                    left: gone,
                } if *sensor == cup => {
                    came += entered.len();
                    left += gone.len();
                }
                _ => {}
            }
        }
        if frame % 40 == 39 {
            let inside = world.sensor(cup).expect("the cup is placed");
            println!(
                "{:4.1} s: {} particles in the cup (mass {:.1}), {came} came in, {left} left",
                (frame + 1) as f32 / frame_rate,
                inside.inside().len(),
                inside.mass(),
            );
        }
    }
    let path = std::env::temp_dir().join("cup.wav");
    write_wav(&path.display().to_string(), &samples)?;
    println!(
        "{splashes} splashes in the cup, each a blip in {}",
        path.display()
    );
    Ok(())
}
