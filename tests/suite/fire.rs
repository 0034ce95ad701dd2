//! Fire (`sim::subsystems::heat`'s combustion): oil that burns where it touches the air and
//! water that puts it out. The heat the particles gain is the mass burned times the heat of
//! combustion; a slick lit at one end burns to the other, faster with more heat; water poured
//! on it stops the burning; oil kept below its ignition temperature never burns.

use crate::common::{box_walls, world_from};
use slosh::sim::subsystems::heat;
use slosh::sim::World;

/// A 3 × 1.5 box: a pool of water 0.4 deep under a slick of oil 0.3 thick, whose first
/// 0.3 m (`lit` oil, the same oil at `lit` °C) starts hot. The oil burns past 150 °C, releasing
/// `heat` degrees of water per unit mass. `extra` is more preset text (walls, emitters). The
/// air neither cools nor takes heat from the liquid, and the water does not boil: nothing but
/// burning moves heat into or out of the particles.
fn slick(heat: f32, lit: f32, extra: &str) -> String {
    let walls = box_walls(3.0, 1.5);
    let oil = |name: &str, temperature: f32| {
        format!(
            r#"
[[materials]]
name = "{name}"
colour = [0.98, 0.72, 0.18]
mass = 0.7
temperature = {temperature}
conductivity = 0.1
heat_capacity = 0.5
ignition_temperature = 150.0
heat_of_combustion = {heat}
burn_rate = 0.3
"#
        )
    };
    let (cold, hot) = (oil("oil", 20.0), oil("lit", lit));
    format!(
        r#"
name = "slick"
description = "an oil slick on a pool"
{walls}
{extra}
[[materials]]
name = "pool"
colour = [0.2, 0.5, 0.95]
mass = 1.0
temperature = 20.0
conductivity = 0.05
{cold}
{hot}
[[blocks]]
material = "pool"
min = [0.05, 0.05]
max = [2.95, 0.45]
spacing = 0.1

[[blocks]]
material = "lit"
min = [0.05, 0.5]
max = [0.35, 0.8]
spacing = 0.1

[[blocks]]
material = "oil"
min = [0.45, 0.5]
max = [2.95, 0.8]
spacing = 0.1

[air]
columns = 24
cooling = 0.0
smoke_decay = 0.0
surface_exchange = 0.0
"#
    )
}

/// The fuel left: every burning material's particles' mass times the fraction not burned.
fn fuel(world: &World) -> f64 {
    let p = world.particles();
    let burns = |i: usize| {
        let material = &world.materials()[p.material[i] as usize];
        material.ignition_temperature.is_some()
    };
    (0..p.len())
        .filter(|&i| burns(i))
        .map(|i| f64::from(p.mass[i]) * f64::from(1.0 - world.burnt(p.id[i])))
        .sum()
}

/// The particles' heat Σ m (c T + latent).
fn particle_heat(world: &World) -> f64 {
    heat::totals(world.particles(), world.materials()).total
}

/// How many particles have burned away (the report's `burning`).
fn burned_out(world: &World) -> u64 {
    let counts = world.reaction_counts();
    counts
        .iter()
        .find(|(name, _)| *name == "burning")
        .map_or(0, |c| c.1)
}

/// In the closed box, over 8 s of burning, the particles' heat grows by the mass burned (the
/// fuel at the start less the fuel left) times the heat of combustion, within 1%.
#[test]
fn the_heat_released_is_the_mass_burned_times_the_heat_of_combustion() {
    let heat_of_combustion = 2000.0;
    let mut world = world_from(&slick(heat_of_combustion, 400.0, ""));
    let (fuel_before, heat_before) = (fuel(&world), particle_heat(&world));
    for _ in 0..160 {
        world.step_frame();
    }
    let burned = fuel_before - fuel(&world);
    let released = particle_heat(&world) - heat_before;
    let expected = burned * f64::from(heat_of_combustion);
    let ratio = released / expected;
    println!(
        "burned {burned:.3} of {fuel_before:.3}, {} burned out; heat {released:.1} for \
         {expected:.1}: ratio {ratio:.6}",
        burned_out(&world)
    );
    assert!(burned > 0.1 * fuel_before, "too little burned: {burned}");
    assert!((ratio - 1.0).abs() < 0.01, "{ratio}");
}

/// The seconds until some particle at least `reach` along the slick has burned (`None`: not
/// within `frames` frames).
fn time_to_reach(heat: f32, reach: f32, frames: usize) -> Option<f32> {
    let mut world = world_from(&slick(heat, 400.0, ""));
    for frame in 1..=frames {
        world.step_frame();
        let p = world.particles();
        let reached = (0..p.len()).any(|i| p.position[i].x > reach && world.burnt(p.id[i]) > 0.0);
        if reached {
            return Some(frame as f32 / world.params().frame_rate);
        }
    }
    None
}

/// Lit at its left end, the slick burns to its right end (2.6 m of 2.9), and the front gets
/// there sooner with twice the heat of combustion.
#[test]
fn a_slick_lit_at_one_end_burns_to_the_other_faster_with_more_heat() {
    let (slow, fast) = std::thread::scope(|scope| {
        let slow = scope.spawn(|| time_to_reach(1500.0, 2.6, 400));
        let fast = scope.spawn(|| time_to_reach(3000.0, 2.6, 400));
        (slow.join().unwrap(), fast.join().unwrap())
    });
    println!("the front reaches 2.6 m after {slow:?} s (1500) and {fast:?} s (3000)");
    let (slow, fast) = (
        slow.expect("the slow fire spreads"),
        fast.expect("the fast one"),
    );
    assert!(fast * 1.2 < slow, "{fast} s against {slow} s");
}

/// Water rained on the burning slick from 2 s on stops the burning: the mass burned in the 4 s
/// after the rain has fallen (from 5 s to 9 s) is under a tenth of what burned before it came,
/// where the same slick without the rain burns on.
#[test]
fn water_poured_on_a_burning_slick_puts_it_out() {
    let rain = r#"
[[emitters]]
material = "pool"
position = [0.6, 1.4]
direction = [0.0, -1.0]
width = 1.0
speed = 2.0
delay = 2.0
rate = 20.0
budget = 220
"#;
    // The mass burned by 2 s, by 5 s and by 9 s.
    let burned = |extra: &str| {
        let mut world = world_from(&slick(2000.0, 400.0, extra));
        let start = fuel(&world);
        [2.0, 5.0, 9.0].map(|seconds: f64| {
            while world.time() < seconds - 1e-3 {
                world.step_frame();
            }
            start - fuel(&world)
        })
    };
    let (rained, dry) = std::thread::scope(|scope| {
        let rained = scope.spawn(|| burned(rain));
        let dry = scope.spawn(|| burned(""));
        (rained.join().unwrap(), dry.join().unwrap())
    });
    println!("burned by 2, 5 and 9 s: {rained:.3?} with the rain, {dry:.3?} without");
    let [before, poured, after] = rained;
    assert!(before > 0.3, "the slick burns before the rain: {before}");
    assert!(after - poured < 0.1 * before, "{poured} then {after}");
    assert!(
        dry[2] - dry[1] > before,
        "without the rain it burns on: {dry:?}"
    );
}

/// Oil whose lit end starts at 140 °C, below its ignition temperature of 150, never burns in
/// 10 s.
#[test]
fn oil_below_its_ignition_temperature_never_burns() {
    let mut world = world_from(&slick(2000.0, 140.0, ""));
    let start = fuel(&world);
    for _ in 0..200 {
        world.step_frame();
    }
    assert_eq!(fuel(&world), start);
    assert_eq!(burned_out(&world), 0);
}
