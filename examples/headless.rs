//! The engine without any window: load a preset, step it, print a few numbers.
//!
//!     cargo run --release --no-default-features --example headless -- seed 300

use slosh::preset::Preset;

fn main() -> Result<(), slosh::preset::PresetError> {
    let mut args = std::env::args().skip(1);
    let name = args.next().unwrap_or_else(|| "seed".into());
    let frames: u32 = args.next().and_then(|n| n.parse().ok()).unwrap_or(300);

    // A preset is a checked scene; `build_world` makes a fresh world from it (seed 1).
    let preset = Preset::load(&name)?;
    let mut world = preset.build_world(1);
    for frame in 1..=frames {
        world.step_frame(); // one frame: 1 / frame_rate simulated seconds, in substeps
        if frame % 100 == 0 {
            let stats = world.stats();
            println!(
                "{:6.2} s  {:5} particles  fastest {:5.2} m/s",
                world.time(),
                stats.particles,
                stats.max_speed
            );
        }
    }

    // Where each liquid ended up: mean height per material.
    let particles = world.particles();
    for (index, material) in world.materials().iter().enumerate() {
        let heights: Vec<f32> = (0..particles.len())
            .filter(|&i| particles.material[i] as usize == index)
            .map(|i| particles.position[i].y)
            .collect();
        if !heights.is_empty() {
            let mean = heights.iter().sum::<f32>() / heights.len() as f32;
            println!(
                "{:<10} {:5} particles, mean height {mean:.2}",
                material.name,
                heights.len()
            );
        }
    }
    println!("checksum {:016x}", world.checksum());
    Ok(())
}
