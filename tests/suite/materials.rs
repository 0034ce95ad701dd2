//! Materials beyond plain liquids and obstacles: jelly keeps its shape, zero-strength springs
//! and stickiness change nothing, slime clings to walls, nothing ends inside an obstacle, and
//! spring lists stay bounded.

use crate::common::{box_walls, spring_pairs, world_from};
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::subsystems::springs::{SpringCounts, MAX_SPRINGS};
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

/// How thick the particles lie: the 95th percentile of their heights less the 5th, which a few
/// splashed droplets do not move (the bounding box's height does).
fn thickness(world: &World) -> f32 {
    let mut heights: Vec<f32> = world.particles().position.iter().map(|p| p.y).collect();
    heights.sort_by(f32::total_cmp);
    let at = |share: usize| heights[(heights.len() - 1) * share / 100];
    at(95) - at(5)
}

const JELLY: &str = "spring_stiffness = 950.0\nlinear_viscosity = 2.0";

/// Three seconds after a block 1.5 wide and 1 high (0.9 between its rows' centres) drops onto
/// the floor, over seeds 1 to 5 and 7:
/// - the jelly's thickness (see `thickness`) is 0.91 to 0.92 of the block's, the liquid's 0.39
///   to 0.44: the test asserts more than 0.6 for the jelly (margin 34%) and less than 0.6 for the
///   liquid (margin 35%). It once compared the bounding box's height with 0.8 and 0.6 of the
///   block's: 0.92 to 0.94 for the jelly (margin 13%), 0.47 to 0.57 for the liquid, whose
///   splashes set it (margin 6%);
/// - the jelly's bounding box keeps its area within 12 to 15% (bound 25%: margin 69%) and stands
///   0.14 to 0.17 higher than at its squash (bound 0.02: margin 85%);
/// - the liquid spreads 3.2 to 3.5 times as wide (bound 2: margin 37%).
#[test]
fn jelly_keeps_its_shape_where_liquid_spreads() {
    let mut jelly = world_from(&drop_scene(JELLY));
    let mut liquid = world_from(&drop_scene(""));
    let start = extent(&jelly);
    let thick = thickness(&jelly);
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
    assert!(
        thickness(&jelly) > 0.6 * thick,
        "jelly flattened: {thick} thick → {}",
        thickness(&jelly)
    );
    assert!(
        jelly_end.y > lowest + 0.02,
        "jelly did not spring back from its squash ({lowest} → {})",
        jelly_end.y
    );
    assert!(
        liquid_end.x > 2.0 * start.x && thickness(&liquid) < 0.6 * thick,
        "the liquid did not spread: {start} → {liquid_end}, {thick} thick → {}",
        thickness(&liquid)
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

/// The plain column falls at 3.675 m/s on average for seeds 1 to 5 and 7 (bound 1: margin 73%);
/// the sticky one at 0.357 to 0.359 of that (bound 0.5: margin 39%).
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
        .fold(0.0, slosh::sim::numerics::portable::max)
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

/// After 200 stirred frames the jelly holds 15.1 to 15.5 spring ends per particle over seeds 1 to
/// 5 and 7 (stirrer seeds 9, 102 to 105 and 107; bound 4: margin 74%).
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

/// How a dropped block of `material` lands (it reaches the floor at about frame 6): how dense its
/// densest tenth gets in the first 30 frames (the highest 90th percentile of density), and its
/// kinetic energy summed over frames 25 to 35, while a plain liquid still sloshes.
fn landing(material: &str) -> (f32, f64) {
    let mut world = world_from(&drop_scene(material));
    let (mut densest, mut energy) = (0.0f32, 0.0);
    for frame in 1..=35 {
        world.step_frame();
        if frame <= 30 {
            let mut density = world.particles().density.clone();
            density.sort_by(f32::total_cmp);
            densest = densest.at_least(density[(density.len() - 1) * 9 / 10]);
        }
        if frame >= 25 {
            energy += world.stats().kinetic_energy;
        }
    }
    (densest, energy)
}

/// Per-material stiffness and viscosity act on that material, over seeds 1 to 5 and 7:
/// - stiffer liquid compresses less: at the landing the plain block's densest tenth reaches
///   84.3 to 84.4 (rest density 82), the stiff one's 55.8 to 58.3: 0.66 to 0.69 of it (bound
///   0.95: margin 37%);
/// - more viscous liquid splashes less: its kinetic energy over frames 25 to 35 is 0.40 to 0.44
///   of the plain one's (bound 0.8: margin 81%).
///
/// An override the engine ignored would give the plain run bit for bit (ratios 1). The test once
/// compared the mean density and the kinetic energy at frame 20, in the splash: ratios 0.82 to
/// 0.94 (margin 0.9% for seed 5) and 0.73 to 0.75 (margin 6%).
#[test]
fn per_material_stiffness_and_viscosity_change_that_material() {
    let (plain_density, plain_energy) = landing("");
    let (stiff_density, _) = landing("stiffness = 0.5\nnear_stiffness = 0.6");
    let (_, viscous_energy) = landing("linear_viscosity = 20.0\nquadratic_viscosity = 20.0");
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

/// After 3 s none of the plain liquid is on the boulder for seeds 1 to 5 and 7 (bound 5%), 89 to
/// 100% of the sticky material (bound 20%: margin 78%).
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

/// A floating block's halves pulled apart: the springs it formed, how many of them broke, and
/// its narrowest width in the 2 s after the pull.
fn pull_apart(material: &str) -> (usize, usize, f32) {
    let mut world = world_from(&floating_scene(material));
    for _ in 0..5 {
        world.step_frame();
    }
    let formed = spring_pairs(&world);
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
    let mut narrowest = f32::MAX;
    for _ in 0..40 {
        world.step_frame();
        narrowest = narrowest.at_most(extent(&world).x);
    }
    let left = spring_pairs(&world);
    let broken = formed.iter().filter(|pair| !left.contains(pair)).count();
    (formed.len(), broken, narrowest)
}

/// Figures over seeds 1 to 5 and 7, the block being 150 particles:
/// - springs formed: 1,080 to 1,084, near the cap of 150 × `MAX_SPRINGS` / 2 = 1,200; the test
///   asserts more than half the cap (margin 44%; it once asserted more than 1,000: margin 7%);
/// - the elastic jelly swings back through its own width: its narrowest in the 2 s after the pull
///   is 0.75 to 1.06 of the block's (bound 1.4: margin 32%); a jelly that kept its stretch would
///   stay at 1.7 or more. Its width at the end, which the test once asserted below 1.3, is a point
///   of the swing: 1.17 to 1.23 (margin 6%), and 1.19 to 1.62 over the last second for seed 7;
/// - the goo keeps its stretch: its narrowest is 3.11 to 3.13 of the block's (bound 2: margin
///   36%);
/// - the goo's springs yield until they break: 240 to 257 of those it formed (more than a tenth
///   is asserted: margin 55%), where the elastic jelly loses 20 to 68 to tears. The test once
///   asserted fewer springs at the end than formed: 1,043 to 1,059 of 1,080 to 1,084 (margin
///   2%), new springs forming as others break.
#[test]
fn pulled_jelly_springs_back_where_goo_yields_and_its_springs_break() {
    let block = world_from(&floating_scene(""));
    let (start, particles) = (extent(&block).x, block.particles().len());
    let (_, _, jelly_narrowest) = pull_apart("spring_stiffness = 900.0\nplasticity = 0.0");
    let (formed, broken, goo_narrowest) = pull_apart("spring_stiffness = 500.0\nplasticity = 4.0");
    assert!(
        formed > particles * MAX_SPRINGS / 4,
        "{formed} springs formed by {particles} particles"
    );
    assert!(
        jelly_narrowest < 1.4 * start,
        "the elastic jelly did not spring back: {start} wide, {jelly_narrowest} at its narrowest"
    );
    assert!(
        goo_narrowest > 2.0 * start,
        "the goo did not keep its stretch: {start} wide, {goo_narrowest} at its narrowest"
    );
    assert!(
        broken * 10 > formed,
        "too few goo springs broke: {broken} of {formed}"
    );
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
