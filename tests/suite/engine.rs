//! Behaviour of the engine as a whole: walls hold, pools settle, heavy sinks, runs are
//! deterministic.

use crate::common::{box_walls, world_from};
use slosh::headless::{run as run_headless, HeadlessOptions, StirMode};
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::World;

/// A small pool: a block of one liquid in a 4 × 3 box.
fn pool() -> String {
    let walls = box_walls(4.0, 3.0);
    format!(
        r#"
name = "pool"
description = "a small pool for tests"
[params]
max_particles = 2000
{walls}[[materials]]
name = "water"
colour = [0.2, 0.5, 0.9]
mass = 1.0
[[blocks]]
material = "water"
min = [0.05, 0.05]
max = [3.95, 1.25]
spacing = 0.1
"#
    )
}

/// Light liquid below heavy liquid in a 3 × 4 box, so that they must swap places.
fn layers() -> String {
    let walls = box_walls(3.0, 4.0);
    format!(
        r#"
name = "layers"
description = "heavy on top of light, for tests"
[params]
max_particles = 3000
{walls}[[materials]]
name = "light"
colour = [0.6, 0.7, 0.9]
mass = 1.0
[[materials]]
name = "heavy"
colour = [0.1, 0.05, 0.3]
mass = 2.0
[[blocks]]
material = "light"
min = [0.05, 0.05]
max = [2.95, 1.05]
spacing = 0.1
[[blocks]]
material = "heavy"
min = [0.05, 1.05]
max = [2.95, 2.05]
spacing = 0.1
"#
    )
}

fn headless(
    preset: &str,
    frames: u64,
    particles: Option<usize>,
    threads: usize,
    stir: StirMode,
) -> HeadlessOptions {
    HeadlessOptions {
        preset: preset.into(),
        frames,
        particles,
        threads: Some(threads),
        stir,
        ..HeadlessOptions::default()
    }
}

/// Mean height of the particles of one material.
fn mean_height(world: &World, material: u16) -> f32 {
    let p = world.particles();
    let heights: Vec<f32> = (0..p.len())
        .filter(|&i| p.material[i] == material)
        .map(|i| p.position[i].y)
        .collect();
    heights.iter().sum::<f32>() / heights.len() as f32
}

#[test]
fn walls_hold_every_particle_after_every_substep() {
    let mut world = Preset::load("seed").unwrap().build_world(3);
    for _ in 0..2000 {
        world.substep();
        let stats = world.stats();
        assert_eq!(
            (stats.escaped, stats.nan),
            (0, 0),
            "after substep {}",
            world.substeps_done()
        );
    }
    assert!(world.particles().len() > 1000);
}

#[test]
fn walls_hold_every_particle_under_random_stirring() {
    let preset = Preset::load("dam").unwrap().with_particles(3000).unwrap();
    let mut world = preset.build_world(5);
    let mut stirrer = slosh::sim::RandomStirrer::new(5);
    let mut stirred = 0;
    for _ in 0..300 {
        if let Some(stir) = stirrer.next(&world) {
            world.stir(stir);
            stirred += 1;
        }
        for _ in 0..world.params().substeps {
            world.substep();
            let stats = world.stats();
            assert_eq!(
                (stats.escaped, stats.nan),
                (0, 0),
                "after substep {}",
                world.substeps_done()
            );
        }
    }
    assert!(stirred > 100, "the stirrer stirred only {stirred} frames");
    assert_eq!(world.particles().len(), 3000);
}

/// A pool left alone for 15 s stays at rest for 5 s more: no particle moves faster than
/// √(2 g r), the speed of a fall from one particle radius (0.99 m/s), at the end of any frame.
///
/// The pool is not still: waves 1.2 m deep in a 4 m box take long to die out, and how much is
/// left depends on the seed. The fastest particle over those 100 frames is 0.043 to 0.29 m/s over
/// seeds 1 to 5 and 7 (0.23 for this test's seed 1; the former bound, 0.25 m/s, failed for seeds
/// 3 and 7); the bound is 3.4 times the worst (margin 240%). A pool that does not settle (walls
/// or pressure pumping energy into it, particles hopping off the surface) fails it.
#[test]
fn settled_pool_stays_at_rest() {
    let mut world = world_from(&pool());
    let count = world.particles().len();
    assert_eq!(count, 39 * 12);
    let params = world.params();
    let at_rest = (2.0 * params.gravity.length() * params.particle_radius).sqrt();
    for _ in 0..300 {
        world.step_frame();
    }
    for _ in 0..100 {
        world.step_frame();
        let stats = world.stats();
        assert!(
            stats.max_speed < at_rest,
            "max speed {} in a settled pool (at rest: below {at_rest})",
            stats.max_speed
        );
        assert_eq!(stats.particles, count);
    }
}

/// After 15 s the heavy liquid's mean height is 0.95 to 0.98 m below the light one's over seeds 1
/// to 5 and 7 (the bound, 0.5 m: margin 47%).
#[test]
fn heavy_liquid_settles_below_light() {
    let mut world = world_from(&layers());
    assert!(
        mean_height(&world, 1) > mean_height(&world, 0) + 0.5,
        "starts heavy on top"
    );
    for _ in 0..300 {
        world.step_frame();
    }
    let (light, heavy) = (mean_height(&world, 0), mean_height(&world, 1));
    assert!(heavy + 0.5 < light, "heavy at {heavy}, light at {light}");
}

#[test]
fn results_are_identical_with_one_two_and_three_threads() {
    for (preset, particles, stir) in [
        ("seed", None, StirMode::None),
        ("dam", Some(4000), StirMode::Random),
        ("jelly", None, StirMode::Random),
        ("pachinko", None, StirMode::None),
    ] {
        let one = run_headless(&headless(preset, 120, particles, 1, stir)).unwrap();
        assert_eq!(one.threads, 1);
        // Three threads split the bands of grid rows unevenly, unlike one or two.
        for threads in [2, 3] {
            let many = run_headless(&headless(preset, 120, particles, threads, stir)).unwrap();
            assert_eq!(many.threads, threads);
            assert_eq!(one.checksum, many.checksum, "{preset}, {threads} threads");
            assert_eq!(one.stats(), many.stats(), "{preset}, {threads} threads");
        }
    }
}

#[test]
fn runs_with_one_seed_repeat_and_other_seeds_differ() {
    let options = headless("seed", 60, None, 2, StirMode::Random);
    let first = run_headless(&options).unwrap();
    let second = run_headless(&options).unwrap();
    assert_eq!(first.checksum, second.checksum);
    let other = run_headless(&HeadlessOptions { seed: 2, ..options }).unwrap();
    assert_ne!(first.checksum, other.checksum);
}

/// Every frame keeps its 7 substeps: the fastest particle at a frame's start peaks at 13.7 to
/// 14.9 m/s over seeds 1 to 5 and 7, where an eighth substep is taken above 21 m/s (margin 41%).
/// The fastest at the end is 3.1 to 4.2 m/s (the bound, 20 m/s: margin 374%).
#[test]
fn seed_preset_runs_400_frames_without_nan_or_escape() {
    let report = run_headless(&headless("seed", 400, None, 2, StirMode::None)).unwrap();
    assert_eq!(report.substeps, 400 * 7);
    assert_eq!(report.particles, 3000, "both emitters spend their budget");
    assert_eq!((report.nan, report.escaped), (0, 0));
    assert!(report.max_speed < 20.0, "max speed {}", report.max_speed);
}

#[test]
fn the_second_seed_emitter_waits_six_seconds() {
    let mut world = Preset::load("seed").unwrap().build_world(1);
    // 6 s is 120 frames; stop just before.
    for _ in 0..119 {
        world.step_frame();
    }
    let heavy = world
        .particles()
        .material
        .iter()
        .filter(|&&m| m == 1)
        .count();
    assert_eq!(heavy, 0);
    for _ in 0..2 {
        world.step_frame();
    }
    let heavy = world
        .particles()
        .material
        .iter()
        .filter(|&&m| m == 1)
        .count();
    assert!(heavy > 0);
}

/// The benchmarks' tank is the dam widened: more particles, a wider box, the same particles.
#[test]
fn tank_scales_its_count_and_width_with_particles() {
    for particles in [1000, 3000, 48000] {
        let preset = Preset::load("tank")
            .unwrap()
            .with_particles(particles)
            .unwrap();
        let world = preset.build_world(1);
        assert_eq!(world.particles().len(), particles);
        let ratio = particles as f32 / 3000.0;
        let (min, max) = (world.domain().min(), world.domain().max());
        assert!(
            (max.x - min.x - 16.0 * ratio).abs() < 1e-2 * ratio,
            "width {} for {particles}",
            max.x - min.x
        );
        assert!(
            (max.y - min.y - 9.0).abs() < 1e-3,
            "height {} for {particles}",
            max.y - min.y
        );
    }
}

/// Regression: with frictionless projection walls, floor particles squeezed by the seed's pool
/// could only separate sideways and raced along the floor at 50–120 m/s. Now the fastest from
/// frame 200 to 400 is 13.1 to 14.8 m/s over seeds 1 to 5 and 7 (the bound, 20 m/s: margin 35%).
#[test]
fn regression_floor_particles_do_not_race_along_the_floor() {
    let mut world = Preset::load("seed").unwrap().build_world(1);
    let mut peak: f32 = 0.0;
    for frame in 0..400 {
        world.step_frame();
        if frame >= 200 {
            peak = peak.at_least(world.stats().max_speed);
        }
    }
    assert!(peak < 20.0, "peak speed {peak} while the pool fills");
}

/// `step_frame` folds each substep's advance into the previous substep's move; the bits must be
/// those of plain substeps.
#[test]
fn a_frame_gives_the_same_bits_as_its_substeps_one_by_one() {
    for preset in ["seed", "slime"] {
        let mut by_frames = Preset::load(preset).unwrap().build_world(2);
        let mut by_substeps = Preset::load(preset).unwrap().build_world(2);
        for _ in 0..40 {
            by_frames.step_frame();
            assert_eq!(by_frames.last_frame().substeps, by_frames.params().substeps);
            for _ in 0..by_substeps.params().substeps {
                by_substeps.substep();
            }
        }
        assert!(by_frames.particles().len() > 100, "{preset}");
        assert_eq!(by_frames.substeps_done(), by_substeps.substeps_done());
        assert_eq!(by_frames.checksum(), by_substeps.checksum(), "{preset}");
    }
}
