//! The queries a game asks between frames, each against a case with a known answer: what a scan
//! of every particle finds, the weight of the liquid between two depths of a still pool, the
//! level of a still pool, Archimedes, and the momentum of a stream stopped by a plate.

use crate::common::{box_walls, step_frames, world_from};
use glam::Vec2;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::{Found, Part, Pour, World};

/// The width of `still_pool`'s box.
const WIDTH: f32 = 8.0;

/// A still pool of water about 1.9 deep in an 8 × 4 box, settled for 3 s.
fn still_pool() -> World {
    let walls = box_walls(WIDTH, 4.0);
    let mut world = world_from(&format!(
        r#"
name = "pool"
description = "a still pool for the queries"
[params]
max_particles = 4000
{walls}[[materials]]
name = "water"
[[blocks]]
material = "water"
min = [0.05, 0.05]
max = [7.95, 1.95]
spacing = 0.1
"#
    ));
    step_frames(&mut world, 60);
    world
}

/// The xs from 1 to 7 (away from the walls), every 0.05.
fn xs() -> impl Iterator<Item = f32> {
    (0..=120).map(|k| 1.0 + 0.05 * k as f32)
}

/// What a scan of every particle finds in `region`, in index order.
fn scanned(world: &World, region: &Part) -> Vec<Found> {
    let p = world.particles();
    (0..p.len())
        .filter(|&i| region.contains(p.position[i]))
        .map(|i| Found {
            index: i,
            id: p.id[i],
            material: p.material[i] as usize,
        })
        .collect()
}

#[test]
fn particles_in_a_shape_are_those_a_scan_finds_after_steps_and_edits() {
    let mut world = still_pool();
    let regions = [
        Part::circle(Vec2::new(3.0, 1.0), 0.7),
        Part::rect(Vec2::new(0.0, 0.0), Vec2::new(1.2, 0.6)),
        Part::capsule(Vec2::new(5.0, 0.2), Vec2::new(7.5, 1.8), 0.3),
    ];
    let mut found = Vec::new();
    let mut check = |world: &World, when: &str| {
        for region in &regions {
            world.particles_in(region, &mut found);
            assert!(!found.is_empty(), "{when}: {region:?} holds liquid");
            assert_eq!(found, scanned(world, region), "{when}: {region:?}");
        }
    };
    check(&world, "settled");
    world.erase(Vec2::new(3.0, 1.0), 0.4).unwrap();
    check(&world, "after an erase, before any step");
    let poured = world
        .pour(Pour {
            material: 0,
            centre: Vec2::new(6.0, 3.0),
            radius: 0.5,
            velocity: Vec2::ZERO,
        })
        .unwrap();
    assert!(poured.added > 50);
    check(&world, "after a pour");
    step_frames(&mut world, 3);
    check(&world, "after steps");
    world.particles_in(&Part::circle(Vec2::new(50.0, 50.0), 1.0), &mut found);
    assert!(found.is_empty(), "nothing outside the box");
    world.particles_in(&Part::circle(Vec2::NAN, 1.0), &mut found);
    assert!(found.is_empty(), "nothing at a point that is not a number");
}

/// g ∫ ρ dy from `low` to `high` at `x`, the density sampled every 0.01.
fn weight_between(world: &World, x: f32, low: f32, high: f32) -> f32 {
    let steps = ((high - low) / 0.01).round() as usize;
    let dy = (high - low) / steps as f32;
    let g = world.params().gravity.length();
    (0..steps)
        .map(|k| {
            let y = low + dy * (k as f32 + 0.5);
            g * world.sample(Vec2::new(x, y)).unwrap().density * dy
        })
        .sum()
}

#[test]
fn pressure_grows_with_depth_by_the_weight_of_the_liquid_above() {
    let world = still_pool();
    let (deep, shallow) = (0.4, 1.5);
    let mut ratios = Vec::new();
    for x in xs() {
        let below = world.sample(Vec2::new(x, deep)).unwrap();
        let above = world.sample(Vec2::new(x, shallow)).unwrap();
        let weight = weight_between(&world, x, deep, shallow);
        ratios.push((below.pressure - above.pressure) / weight);
        assert!(below.velocity.length() < 0.2, "still at {x}: {below:?}");
    }
    let mean = ratios.iter().sum::<f32>() / ratios.len() as f32;
    println!("Δp / (g ∫ ρ dy) over 1.1 m of depth: mean {mean:.4}");
    assert!((mean - 1.0).abs() < 0.05, "the mean over the pool: {mean}");
    for ratio in ratios {
        assert!((ratio - 1.0).abs() < 0.15, "at one x: {ratio}");
    }
}

#[test]
fn a_still_pool_is_level_at_its_top_layer() {
    let world = still_pool();
    let p = world.particles();
    let mut heights: Vec<f32> = (0..p.len())
        .filter(|&i| (1.0..7.0).contains(&p.position[i].x))
        .map(|i| p.position[i].y)
        .collect();
    heights.sort_by(f32::total_cmp);
    let radius = world.params().particle_radius;
    let top_layer = heights[heights.len() * 97 / 100] + radius;
    let levels: Vec<f32> = xs().map(|x| world.surface_height(x).unwrap()).collect();
    let (low, high) = levels.iter().fold((f32::MAX, f32::MIN), |(l, h), &y| {
        (l.at_most(y), h.at_least(y))
    });
    println!("surface from {low:.4} to {high:.4}; the top layer's top {top_layer:.4}");
    let mean = levels.iter().sum::<f32>() / levels.len() as f32;
    assert!(
        high - low < 2.0 * radius,
        "level within a particle: {low}..{high}"
    );
    assert!(
        (mean - top_layer).abs() < 0.5 * radius,
        "{mean} vs {top_layer}"
    );
    assert_eq!(world.surface_height(-5.0), None, "outside the box");
    assert_eq!(world.surface_height(f32::NAN), None);
}

/// The density of the pool's water between heights `low` and `high`, away from the walls: the
/// mass of the particles there over the band's area.
fn band_density(world: &World, low: f32, high: f32) -> f32 {
    let p = world.particles();
    let mass: f32 = (0..p.len())
        .filter(|&i| {
            (1.0..7.0).contains(&p.position[i].x) && (low..high).contains(&p.position[i].y)
        })
        .map(|i| p.mass[i])
        .sum();
    mass / (6.0 * (high - low))
}

#[test]
fn buoyancy_is_the_weight_of_the_liquid_displaced() {
    let world = still_pool();
    let g = world.params().gravity.length();
    let ball = Part::circle(Vec2::new(4.0, 1.0), 0.4);
    let lift = world.force_on(&ball, Vec2::ZERO, 0.0);
    let archimedes = band_density(&world, 0.6, 1.4) * g * ball.area();
    println!("ball: {lift:?}, Archimedes {archimedes:.1}");
    assert!(
        (lift.force.y / archimedes - 1.0).abs() < 0.05,
        "{lift:?} vs {archimedes}"
    );
    assert!(lift.force.x.abs() < 0.02 * archimedes && lift.torque.abs() < 0.02 * archimedes);
    // A box half in the water: only its wet half counts.
    let level = world.surface_height(4.0).unwrap();
    let raft = Part::rect(Vec2::new(3.5, level - 0.3), Vec2::new(4.5, level + 0.3));
    let lift = world.force_on(&raft, Vec2::ZERO, 0.0);
    let archimedes = band_density(&world, level - 0.3, level) * g * 0.3;
    println!("raft: {lift:?}, Archimedes {archimedes:.1}");
    assert!(
        (lift.force.y / archimedes - 1.0).abs() < 0.1,
        "{lift:?} vs {archimedes}"
    );
    // A log across the surface, its left end under: the lift acts left of its centre, so it
    // turns the log clockwise, by the lift times an arm shorter than half the log.
    let log = Part::capsule(
        Vec2::new(3.4, level - 0.6),
        Vec2::new(4.6, level + 0.6),
        0.2,
    );
    let heel = world.force_on(&log, Vec2::ZERO, 0.0);
    let arm = -heel.torque / heel.force.y;
    println!("log: {heel:?}, arm {arm:.3}");
    assert!(heel.force.y > 0.0 && (0.1..0.6).contains(&arm), "{heel:?}");
    let above = Part::circle(Vec2::new(4.0, level + 1.0), 0.4);
    assert_eq!(
        world.force_on(&above, Vec2::ZERO, 0.0).force,
        Vec2::ZERO,
        "nothing in the air"
    );
}

/// A disc of water 1 across poured at rest into an empty box with no gravity, moving at `speed`
/// along x: a uniform stream.
fn stream(speed: f32) -> World {
    let walls = box_walls(8.0, 8.0);
    let mut world = world_from(&format!(
        r#"
name = "stream"
description = "a stream without gravity"
[params]
max_particles = 4000
gravity = [0.0, 0.0]
{walls}[[materials]]
name = "water"
"#
    ));
    world
        .pour(Pour {
            material: 0,
            centre: Vec2::new(4.0, 4.0),
            radius: 1.0,
            velocity: Vec2::new(speed, 0.0),
        })
        .unwrap();
    world
}

#[test]
fn a_plate_across_a_stream_takes_its_momentum() {
    let speed = 2.0;
    let world = stream(speed);
    let density = world.sample(Vec2::new(4.0, 4.0)).unwrap().density;
    let span = 0.6;
    let plate = Part::rect(
        Vec2::new(3.99, 4.0 - span / 2.0),
        Vec2::new(4.01, 4.0 + span / 2.0),
    );
    let drag = world.force_on(&plate, Vec2::ZERO, 0.0);
    let newton = density * speed * speed * span;
    println!("plate: {drag:?}, ρ U² D {newton:.1}");
    assert!(
        (drag.force.x / newton - 1.0).abs() < 0.1,
        "{drag:?} vs {newton}"
    );
    assert!(drag.force.y.abs() < 0.02 * newton);
    let carried = world.force_on(&plate, Vec2::new(speed, 0.0), 0.0);
    assert!(
        carried.force.length() < 0.01 * newton,
        "moving with the stream: {carried:?}"
    );
    let ball = Part::circle(Vec2::new(4.0, 4.0), 0.3);
    let drag = world.force_on(&ball, Vec2::ZERO, 0.0).force.x;
    let cylinder = 4.0 / 3.0 * density * speed * speed * 0.3;
    assert!((drag / cylinder - 1.0).abs() < 0.1, "{drag} vs {cylinder}");
}

#[test]
fn samples_hold_the_liquid_where_it_is() {
    let world = stream(1.5);
    let centre = world.sample(Vec2::new(4.0, 4.0)).unwrap();
    assert!(
        (centre.velocity - Vec2::new(1.5, 0.0)).length() < 1e-4,
        "{centre:?}"
    );
    assert!((80.0..120.0).contains(&centre.density), "{centre:?}");
    assert!(centre.neighbours > 20);
    assert_eq!(world.sample(Vec2::new(1.0, 1.0)), None, "no liquid there");
    assert_eq!(world.sample(Vec2::INFINITY), None);
}
