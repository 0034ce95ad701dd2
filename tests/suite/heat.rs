//! Heat conducted between particles (`sim::subsystems::heat`): the heat Σ m c T is conserved, two
//! blocks at different temperatures follow the heat equation, the bits do not depend on the thread
//! count, snapshots carry the temperatures, and scenes without heat keep their checksums.

use crate::common::{box_walls, on_threads, world_from};
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::subsystems::heat;
use slosh::sim::World;

/// Heat Σ m c T of the world's particles.
fn total_heat(world: &World) -> f64 {
    heat::totals(world.particles(), world.materials()).total
}

/// A 2 × 1.2 box: hot water (80°) on the left, cold (20°) on the right, both conducting with
/// diffusivity 0.5 m²/s, falling into each other under gravity (a dam break both ways).
fn sloshing_box() -> String {
    let walls = box_walls(2.0, 1.2);
    format!(
        r#"
name = "hot and cold"
description = "hot and cold water slosh into each other"
{walls}
[[materials]]
name = "hot"
colour = [0.9, 0.3, 0.2]
mass = 1.0
temperature = 80.0
conductivity = 0.5

[[materials]]
name = "cold"
colour = [0.2, 0.3, 0.9]
mass = 1.0
temperature = 20.0
conductivity = 0.5
heat_capacity = 2.0

[[blocks]]
material = "hot"
min = [0.05, 0.05]
max = [0.6, 1.0]
spacing = 0.1

[[blocks]]
material = "cold"
min = [1.4, 0.05]
max = [1.95, 1.0]
spacing = 0.1
"#
    )
}

/// A closed box, no reactions: over 1,000 frames (50 s) of sloshing, the heat Σ m c T moves by
/// 7.9e-6 of itself (bound 1e-4), while the temperatures even out (from 20 and 80 to 40 ± 0.0007,
/// the mean by heat capacities) and never leave the range they started in.
#[test]
fn heat_is_conserved_in_a_closed_box() {
    let mut world = world_from(&sloshing_box());
    let before = total_heat(&world);
    for _ in 0..1000 {
        world.step_frame();
        let heat::HeatTotals {
            min: low,
            max: high,
            ..
        } = world.heat().unwrap();
        assert!(low >= 20.0 && high <= 80.0, "{low} to {high}");
    }
    let after = total_heat(&world);
    let drift = ((after - before) / before).abs();
    let heat::HeatTotals {
        min: low,
        max: high,
        ..
    } = world.heat().unwrap();
    println!("heat {before} -> {after}: drift {drift:e}; temperatures {low} to {high}");
    assert!(drift < 1e-4, "{drift}");
    assert!(high - low < 1.0, "{low} to {high}");
}

/// The temperatures are the same bits at 1, 2 and 3 threads (and so is the checksum).
#[test]
fn temperatures_are_the_same_bits_at_any_thread_count() {
    let run = |threads| {
        on_threads(threads, || {
            let mut world = world_from(&sloshing_box());
            for _ in 0..60 {
                world.step_frame();
            }
            let bits: Vec<(u32, u32)> = (0..world.particles().len())
                .map(|i| {
                    let particles = world.particles();
                    (particles.id[i], particles.temperature[i].to_bits())
                })
                .collect();
            (bits, world.checksum())
        })
    };
    let one = run(1);
    assert!(one.0.windows(2).any(|w| w[0].1 != w[1].1));
    assert_eq!(run(2), one);
    assert_eq!(run(3), one);
}

/// The exact temperature at `x` after `t` seconds in a 1D bar [0, 2L] with adiabatic ends, hot
/// (1) on [0, L] and cold (0) on [L, 2L], of diffusivity `alpha`: the erf solution of the heat
/// equation for a step, with its images in the two ends (period 4L).
fn exact(x: f64, t: f64, length: f64, alpha: f64) -> f64 {
    let spread = 2.0 * (alpha * t).sqrt();
    (-3..=3)
        .map(|n| {
            let centre = 4.0 * length * f64::from(n);
            let (from, to) = (centre - length, centre + length);
            0.5 * (libm::erf((x - from) / spread) - libm::erf((x - to) / spread))
        })
        .sum()
}

/// Two blocks of one elastic jelly, hot (1°) and cold (0°), fill a 2 × 1 box without gravity,
/// so that they barely move (95% of the particles less than 0.007 m across in 10 s; bound 0.02);
/// the mean temperature of the particles within a spacing of the hot block's midpoint (x = 0.5)
/// follows the erf solution of the 1D heat equation with diffusivity 0.02 m²/s. At 2.5, 5, 7.5
/// and 10 s the midpoint's departure from the mean (0.5) is within 1.3%, 2.3%, 2.8% and 3.4%
/// of the exact one (bound 5%). The particles within h of the top and bottom walls lack the
/// neighbours beyond them and pass heat along the walls more slowly: in a box 0.5 high, where
/// they are most of the rows, the error at 10 s is 4.5%.
#[test]
fn two_blocks_follow_the_heat_equation() {
    let alpha = 0.02;
    let (length, height) = (1.0_f32, 1.0);
    let walls = box_walls(2.0 * length, height);
    let text = format!(
        r#"
name = "two blocks"
description = "a hot and a cold block conduct heat into each other"
[params]
particle_radius = 0.025
gravity = [0.0, 0.0]
{walls}
[[materials]]
name = "hot"
colour = [0.9, 0.3, 0.2]
mass = 1.0
linear_viscosity = 2.0
spring_stiffness = 900.0
temperature = 1.0
conductivity = {alpha}

[[materials]]
name = "cold"
colour = [0.2, 0.3, 0.9]
mass = 1.0
linear_viscosity = 2.0
spring_stiffness = 900.0
temperature = 0.0
conductivity = {alpha}

[[blocks]]
material = "hot"
min = [0.0, 0.0]
max = [{length}, {height}]
spacing = 0.1

[[blocks]]
material = "cold"
min = [{length}, 0.0]
max = [{twice}, {height}]
spacing = 0.1
"#,
        twice = 2.0 * length
    );
    let mut world = world_from(&text);
    // Where each particle started, by id (the grid sort reorders the arrays).
    let particles = world.particles();
    let mut start = vec![0.0; particles.len()];
    for (&id, position) in particles.id.iter().zip(&particles.position) {
        start[id as usize] = position.x;
    }
    let probe = length - 0.5;
    let mut worst: f64 = 0.0;
    for second in 1..=4 {
        for _ in 0..50 {
            world.step_frame();
        }
        let t = 2.5 * f64::from(second);
        let particles = world.particles();
        let near: Vec<f32> = (0..particles.len())
            .filter(|&i| (particles.position[i].x - probe).abs() < 0.05)
            .map(|i| particles.temperature[i])
            .collect();
        let measured = near.iter().map(|&t| f64::from(t)).sum::<f64>() / near.len() as f64;
        let expected = exact(f64::from(probe), t, f64::from(length), alpha);
        let error = (measured - expected).abs() / (expected - 0.5).abs();
        worst = worst.at_least(error);
        println!("t {t}: measured {measured:.4}, exact {expected:.4}, error {error:.4}");
    }
    let particles = world.particles();
    let mut moved: Vec<f32> = (particles.id.iter().zip(&particles.position))
        .map(|(&id, position)| (position.x - start[id as usize]).abs())
        .collect();
    moved.sort_by(f32::total_cmp);
    let moved = moved[moved.len() * 95 / 100];
    println!("worst {worst:.4}; 95% of the particles moved less than {moved:.4} m across");
    assert!(worst < 0.05, "{worst}");
    assert!(moved < 0.02, "{moved}");
}

/// A world with heat saved and restored continues with the same temperatures, bit for bit.
#[test]
fn snapshots_carry_the_temperatures() {
    let text = sloshing_box();
    let mut world = world_from(&text);
    for _ in 0..20 {
        world.step_frame();
    }
    let scene = Preset::parse("test.toml", &text).unwrap().scene;
    let mut restored = World::from_state(scene, world.state()).unwrap();
    assert_eq!(restored.checksum(), world.checksum());
    for _ in 0..20 {
        world.step_frame();
        restored.step_frame();
    }
    assert_eq!(
        restored.particles().temperature,
        world.particles().temperature
    );
    assert_eq!(restored.checksum(), world.checksum());
}

/// Temperatures count in the checksum only where heat is conducted: a scene whose materials
/// have temperatures but no conductivity keeps the checksum of the same scene without them.
#[test]
fn temperatures_without_conduction_leave_the_checksum_alone() {
    let text = sloshing_box().replace("conductivity = 0.5\n", "");
    let plain = text
        .replace("temperature = 80.0\n", "")
        .replace("temperature = 20.0\n", "");
    let (mut warm, mut cold) = (world_from(&text), world_from(&plain));
    for _ in 0..10 {
        warm.step_frame();
        cold.step_frame();
    }
    assert_eq!(warm.checksum(), cold.checksum());
    assert!(warm.particles().temperature.contains(&80.0));
}

/// A preset widened by `--particles` (one with `base_particles`, as `tank`) keeps its walls'
/// temperatures: the widening rebuilt the walls from their normals and offsets alone, and a
/// heater plate became an adiabatic wall.
#[test]
fn widening_a_preset_keeps_its_heater_walls() {
    // The sloshing box, both waters at 20 °C over a floor at 90 °C.
    let text = sloshing_box()
        .replacen("description", "base_particles = 100\ndescription", 1)
        .replace("temperature = 80.0", "temperature = 20.0")
        .replacen(
            "normal = [0.0, 1.0]\noffset = 0.0\n",
            "normal = [0.0, 1.0]\noffset = 0.0\ntemperature = 90.0\n",
            1,
        );
    let preset = Preset::parse("wide.toml", &text).unwrap();
    let wide = preset
        .clone()
        .with_particles(2 * preset.particles())
        .unwrap();
    let mut world = wide.build_world(1);
    for _ in 0..20 {
        world.step_frame();
    }
    let hottest = world.heat().unwrap().max;
    assert!(hottest > 40.0, "the floor heats the water: {hottest}");
}
