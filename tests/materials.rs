//! Materials beyond plain liquids and obstacles: jelly keeps its shape, zero-strength springs
//! and stickiness change nothing, slime clings to walls, nothing ends inside an obstacle, and
//! spring lists stay bounded.

mod common;

use common::box_walls;
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::portable::Ordered;
use slosh::sim::springs::{SpringCounts, MAX_SPRINGS};
use slosh::sim::RandomStirrer;
use slosh::sim::World;

/// Walls that grip, as the jelly, pachinko and slime presets set them: jelly and slime hold on
/// by Coulomb friction, where a plain liquid slides (`SimParams::wall_friction`, 0 by default).
const GRIPPING_WALLS: &str = "[params]\nwall_friction = 0.5\n";

/// A 6 × 4 box with gripping walls and one block of `material` lines, 1.5 wide and 1 high, held
/// 0.5 above the floor.
fn drop_scene(material: &str) -> String {
    let walls = box_walls(6.0, 4.0);
    format!(
        r#"
name = "drop"
description = "a block dropped on the floor"
{GRIPPING_WALLS}{walls}[[materials]]
name = "stuff"
colour = [0.8, 0.2, 0.3]
mass = 1.0
{material}
[[blocks]]
material = "stuff"
min = [2.25, 0.5]
max = [3.75, 1.5]
spacing = 0.1
"#
    )
}

fn world_from(text: &str) -> World {
    Preset::parse("test.toml", text).unwrap().build_world(1)
}

/// (width, height) of the particles' bounding box.
fn extent(world: &World) -> Vec2 {
    let positions = &world.particles().position;
    let min = positions
        .iter()
        .fold(Vec2::splat(f32::MAX), |a, &b| a.at_most(b));
    let max = positions
        .iter()
        .fold(Vec2::splat(f32::MIN), |a, &b| a.at_least(b));
    max - min
}

const JELLY: &str = "spring_stiffness = 950.0\nlinear_viscosity = 2.0";

#[test]
fn jelly_keeps_its_shape_where_liquid_spreads() {
    let mut jelly = world_from(&drop_scene(JELLY));
    let mut liquid = world_from(&drop_scene(""));
    let start = extent(&jelly);
    let mut lowest = f32::MAX;
    for _ in 0..60 {
        jelly.step_frame();
        liquid.step_frame();
        lowest = lowest.at_most(extent(&jelly).y);
    }
    let (jelly_end, liquid_end) = (extent(&jelly), extent(&liquid));
    assert!(jelly.stats().nan == 0 && jelly.stats().escaped == 0);
    let area = |e: Vec2| e.x * e.y;
    assert!(
        (area(jelly_end) / area(start) - 1.0).abs() < 0.25,
        "jelly's box went from {start} to {jelly_end}"
    );
    assert!(jelly_end.y > 0.8 * start.y, "jelly flattened: {jelly_end}");
    assert!(
        jelly_end.y > lowest + 0.02,
        "jelly did not spring back from its squash ({lowest} → {})",
        jelly_end.y
    );
    assert!(
        liquid_end.x > 2.0 * start.x && liquid_end.y < 0.6 * start.y,
        "the liquid did not spread: {start} → {liquid_end}"
    );
}

/// The seed's scene, with `extra` lines added to both of its materials.
fn seed_with(extra: &str) -> String {
    let text = slosh::preset::BUILTIN
        .iter()
        .find(|(name, _)| *name == "seed")
        .unwrap()
        .1;
    text.replace("mass = 1.0\n", &format!("mass = 1.0\n{extra}\n"))
        .replace("mass = 1.4\n", &format!("mass = 1.4\n{extra}\n"))
}

#[test]
fn zero_springs_and_stickiness_change_nothing() {
    let zero = "spring_stiffness = 0.0\nstickiness = 0.0\nplasticity = 0.5\nstick_distance = 0.9";
    let text = seed_with(zero);
    assert_ne!(text, seed_with(""), "the materials were found");
    let mut plain = Preset::load("seed").unwrap().build_world(7);
    let mut explicit = Preset::parse("zero.toml", &text).unwrap().build_world(7);
    // Explicit overrides equal to the `[params]` values change nothing either.
    let same = "stiffness = 0.08\nnear_stiffness = 0.1\nsurface_tension = 0.0004\n\
                linear_viscosity = 0.5\nquadratic_viscosity = 1.0";
    let mut overridden = Preset::parse("same.toml", &seed_with(same))
        .unwrap()
        .build_world(7);
    for _ in 0..130 {
        plain.step_frame();
        explicit.step_frame();
        overridden.step_frame();
    }
    assert!(plain.particles().len() > 900, "both liquids are in");
    assert_eq!(plain.checksum(), explicit.checksum());
    assert_eq!(plain.checksum(), overridden.checksum());
    assert_eq!(explicit.spring_counts(), SpringCounts::default());
}

/// A 4 × 6 box with gripping walls and a 0.2-wide column (two particles) of `material` lines
/// against its left wall.
fn wall_scene(material: &str) -> String {
    let walls = box_walls(4.0, 6.0);
    format!(
        r#"
name = "wall"
description = "a column against a wall"
{GRIPPING_WALLS}{walls}[[materials]]
name = "stuff"
colour = [0.3, 0.8, 0.3]
mass = 1.0
{material}
[[blocks]]
material = "stuff"
min = [0.05, 3.0]
max = [0.25, 5.5]
spacing = 0.1
"#
    )
}

/// Mean downward speed of the particles over frames 2 to 12 (before the column reaches the floor).
fn mean_fall_speed(text: &str) -> f32 {
    let mut world = world_from(text);
    let (mut sum, mut samples) = (0.0, 0);
    for frame in 0..12 {
        world.step_frame();
        if frame >= 2 {
            let v = &world.particles().velocity;
            sum += v.iter().map(|v| -v.y).sum::<f32>() / v.len() as f32;
            samples += 1;
        }
    }
    let stats = world.stats();
    assert_eq!((stats.nan, stats.escaped), (0, 0));
    sum / samples as f32
}

#[test]
fn sticky_particles_slide_down_a_wall_slower() {
    let plain = mean_fall_speed(&wall_scene(""));
    let sticky = mean_fall_speed(&wall_scene("stickiness = 2000.0\nstick_distance = 0.5"));
    eprintln!("mean fall speed: plain {plain}, sticky {sticky}");
    assert!(plain > 1.0, "the plain column falls: {plain}");
    assert!(sticky < 0.5 * plain, "sticky {sticky} vs plain {plain}");
}

/// Deepest penetration of any particle into any obstacle's solid (0 when none is inside).
fn deepest_penetration(world: &World) -> f32 {
    let positions = &world.particles().position;
    world
        .obstacles()
        .iter()
        .flat_map(|obstacle| positions.iter().map(|&x| -obstacle.distance(x)))
        .fold(0.0, slosh::sim::portable::max)
}

/// Runs `frames` frames of `world` substep by substep, stirring randomly when `stir`, and
/// checks after every substep that no particle is inside an obstacle or outside the walls.
fn check_obstacles_hold(mut world: World, frames: usize, stir: bool) {
    assert!(!world.obstacles().is_empty());
    let tolerance = 1.0e-4;
    let mut stirrer = RandomStirrer::new(3);
    for frame in 0..frames {
        if stir {
            if let Some(stir) = stirrer.next(&world) {
                world.stir(stir);
            }
        }
        for substep in 0..world.params().substeps {
            world.substep();
            let depth = deepest_penetration(&world);
            assert!(
                depth <= tolerance,
                "frame {frame} substep {substep}: a particle is {depth} inside an obstacle"
            );
            let stats = world.stats();
            assert_eq!((stats.nan, stats.escaped), (0, 0), "frame {frame}");
        }
    }
    assert!(world.particles().len() > 100);
}

#[test]
fn no_particle_ends_a_substep_inside_an_obstacle() {
    for name in ["jelly", "pachinko", "slime"] {
        let preset = Preset::load(name).unwrap();
        check_obstacles_hold(preset.build_world(1), 120, false);
        check_obstacles_hold(preset.build_world(2), 120, true);
    }
}

#[test]
fn spring_lists_stay_bounded() {
    let mut world = Preset::load("jelly").unwrap().build_world(1);
    let mut stirrer = RandomStirrer::new(9);
    let particles = world.particles().len();
    for _ in 0..200 {
        if let Some(stir) = stirrer.next(&world) {
            world.stir(stir);
        }
        world.step_frame();
        let counts = world.spring_counts();
        let most = counts.most_per_particle;
        assert!(most <= MAX_SPRINGS, "{most} springs on one particle");
        assert!(2 * counts.total <= particles * MAX_SPRINGS);
    }
    let counts = world.spring_counts();
    // More than four spring ends per particle.
    assert!(
        2 * counts.total > 4 * particles,
        "the jelly has springs: {counts:?}"
    );
    assert!(counts.most_per_particle > 0);
}

/// Mean density and kinetic energy of a dropped block of `material` after `frames` frames.
fn density_and_energy(material: &str, frames: usize) -> (f32, f64) {
    let mut world = world_from(&drop_scene(material));
    for _ in 0..frames {
        world.step_frame();
    }
    let density = &world.particles().density;
    let mean = density.iter().sum::<f32>() / density.len() as f32;
    (mean, world.stats().kinetic_energy)
}

#[test]
fn per_material_stiffness_and_viscosity_change_that_material() {
    let (plain_density, plain_energy) = density_and_energy("", 20);
    let (stiff_density, _) = density_and_energy("stiffness = 0.5\nnear_stiffness = 0.6", 20);
    let (_, viscous_energy) =
        density_and_energy("linear_viscosity = 20.0\nquadratic_viscosity = 20.0", 20);
    eprintln!(
        "density {plain_density} → {stiff_density}, energy {plain_energy} → {viscous_energy}"
    );
    assert!(
        stiff_density < 0.95 * plain_density,
        "stiffer liquid compresses less: {stiff_density} vs {plain_density}"
    );
    assert!(
        viscous_energy < 0.8 * plain_energy,
        "more viscous liquid splashes less: {viscous_energy} vs {plain_energy}"
    );
}

/// A 4 × 4 box with a circle of radius 0.6 in the middle and a cap of `material` lines on top.
fn cap_scene(material: &str) -> String {
    let walls = box_walls(4.0, 4.0);
    format!(
        r#"
name = "cap"
description = "a cap on a boulder"
{walls}[[materials]]
name = "stuff"
colour = [0.3, 0.8, 0.3]
mass = 1.0
{material}
[[obstacles]]
kind = "circle"
centre = [2.0, 2.0]
radius = 0.6
[[blocks]]
material = "stuff"
min = [1.4, 2.0]
max = [2.6, 2.9]
spacing = 0.1
"#
    )
}

#[test]
fn sticky_material_clings_to_an_obstacle_where_liquid_runs_off() {
    let on_obstacle = |material: &str| {
        let mut world = world_from(&cap_scene(material));
        for _ in 0..60 {
            world.step_frame();
        }
        let obstacle = world.obstacles()[0];
        let positions = &world.particles().position;
        let near = positions
            .iter()
            .filter(|&&x| obstacle.distance(x) < 0.3)
            .count();
        near as f32 / positions.len() as f32
    };
    let (plain, sticky) = (on_obstacle(""), on_obstacle("stickiness = 3000.0"));
    eprintln!("on the obstacle after 3 s: plain {plain}, sticky {sticky}");
    assert!(plain < 0.05, "the liquid runs off: {plain}");
    assert!(sticky > 0.2, "the sticky material clings: {sticky}");
}

/// The drop scene without gravity.
fn floating_scene(material: &str) -> String {
    drop_scene(material).replacen("[params]\n", "[params]\ngravity = [0.0, 0.0]\n", 1)
}

/// Springs formed, springs left and width of a floating block after pulling its halves apart.
fn pull_apart(material: &str) -> (usize, usize, f32) {
    let mut world = world_from(&floating_scene(material));
    for _ in 0..5 {
        world.step_frame();
    }
    let formed = world.spring_counts().total;
    for _ in 0..10 {
        for (x, vx) in [(2.5, -4.0), (3.5, 4.0)] {
            world.stir(slosh::sim::Stir {
                position: Vec2::new(x, 1.0),
                velocity: Vec2::new(vx, 0.0),
                radius: 0.6,
            });
        }
        world.step_frame();
    }
    for _ in 0..40 {
        world.step_frame();
    }
    let left = world.spring_counts().total;
    (formed, left, extent(&world).x)
}

#[test]
fn pulled_jelly_springs_back_where_goo_yields_and_its_springs_break() {
    let start = extent(&world_from(&floating_scene(""))).x;
    let (_, _, jelly_width) = pull_apart("spring_stiffness = 900.0\nplasticity = 0.0");
    let (formed, left, goo_width) = pull_apart("spring_stiffness = 500.0\nplasticity = 4.0");
    assert!(formed > 1000, "{formed} springs formed");
    assert!(
        jelly_width < 1.3 * start,
        "the elastic jelly did not spring back: {start} → {jelly_width}"
    );
    assert!(
        goo_width > 2.0 * start,
        "the goo did not keep its stretch: {start} → {goo_width}"
    );
    assert!(left < formed, "no goo spring broke: {formed} → {left}");
}

#[test]
fn rescaling_a_scene_moves_its_obstacles_with_it() {
    let text = cap_scene("").replacen("[[walls]]", "base_particles = 100\n\n[[walls]]", 1);
    let preset = Preset::parse("cap.toml", &text).unwrap();
    let wide = preset.clone().with_particles(200).unwrap();
    match wide.scene.obstacles[0].shape {
        slosh::sim::Shape::Circle { centre, radius } => {
            assert!((centre - Vec2::new(4.0, 2.0)).length() < 1e-5, "{centre}");
            assert_eq!(radius, 0.6);
        }
        other => panic!("{other:?}"),
    }
    // Squeezed to a quarter, the boulder no longer keeps its gap from the walls.
    let error = preset.with_particles(25).unwrap_err();
    assert_eq!(error.field, "--particles");
    assert!(error.message.contains("obstacles"), "{error}");
}
