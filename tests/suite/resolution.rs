//! Any scene at any resolution: the same preset with four (and, ignored by default, sixteen)
//! times its particles settles into the same pool, and two liquids of very different mass settle
//! calmly into layers. `docs/PHYSICS.md` ("Resolution", "Density contrast") derives the rules
//! these check.
//!
//! The sixteen-times runs take minutes:
//! `cargo test --release --test suite resolution:: -- --ignored`.

use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::{MaterialStats, World};

/// A settled scene: where each material ended up, and how fast its fastest particle still goes.
struct Settled {
    materials: Vec<(String, MaterialStats)>,
    particles: usize,
    max_speed: f32,
    escaped: usize,
    /// The particle radius.
    radius: f32,
    /// The speed of a fall from one particle radius, √(2 g r): no particle of a pool at rest
    /// moves faster.
    at_rest: f32,
}

/// Runs `preset` with `particles` (its own count when `None`) for `frames` frames, stirred by
/// nothing, on the default thread pool.
fn settle(preset: &str, particles: Option<usize>, frames: u32) -> Settled {
    let preset = Preset::load_scaled(preset, particles).unwrap();
    let mut world = preset.build_world(3);
    for _ in 0..frames {
        world.step_frame();
    }
    settled(&world)
}

fn settled(world: &World) -> Settled {
    let stats = world.stats();
    let names = world.materials().iter().map(|m| m.name.clone());
    let params = world.params();
    Settled {
        materials: names
            .zip(world.material_stats())
            .filter(|(_, s)| s.particles > 0)
            .collect(),
        particles: stats.particles,
        max_speed: stats.max_speed,
        escaped: stats.escaped,
        radius: params.particle_radius,
        at_rest: (2.0 * params.gravity.length() * params.particle_radius).sqrt(),
    }
}

/// The finer run's pool matches the 1× run's: every material's centroid height and top within
/// one particle diameter of the 1× run's (its resolution), heavier materials lower, everything
/// inside and at rest, no particle faster than a fall from its own radius (√(2 g r): 0.99 m/s
/// at 1×, 0.70 at 4×).
///
/// Figures at four times the particles, over seeds 3 (the tests'), 1, 2 and 4:
/// - the fastest particle at the end is 0.03 to 0.41 m/s at 1× (the dam, seed 2), 0.03 to 0.23
///   at 4×; over the last 20 frames, 0.03 to 0.52 and 0.05 to 0.43. The former bound, 0.5 m/s,
///   left 22% at the end and failed at frames 1,184 to 1,187 of the dam for seed 2 (0.52 m/s);
///   √(2 g r) leaves 90%
///   at 1× and 63% at 4× over those frames. A pool that still splashes or boils fails it;
/// - centroids differ by at most 0.069 m (seed's heavy liquid, seed 2) and tops by at most 0.065
///   (the same): margin 44% against one diameter, 0.1 m. In percent of the height the former
///   bound, 5%, fails: the seed's heavy liquid, 0.79 m up, is 8.8% lower at 4× for seed 2 (6.9
///   cm; layers' syrup, 0.54 m up, was 5.0% lower for seed 1 and 8.2% for seed 2 before the
///   emitters placed each row where it had travelled). The oil film this guards against (the `layers`
///   regression below) raised the oil's centroid by 9%, 0.22 m: 2.2 times the bound.
///
/// The sixteen-times runs (ignored by default) have the same bounds; their figures were not
/// measured for this.
fn assert_same_pool(preset: &str, coarse: &Settled, fine: &Settled, multiple: usize) {
    let wanted = coarse.particles * multiple;
    assert!(
        fine.particles.abs_diff(wanted) * 10 <= wanted,
        "{preset} ×{multiple}: {} particles, wanted about {wanted}",
        fine.particles
    );
    for run in [coarse, fine] {
        assert!(
            run.max_speed < run.at_rest && run.escaped == 0,
            "{preset} ×{multiple}: not settled (fastest {} m/s, at rest below {}; {} escaped)",
            run.max_speed,
            run.at_rest,
            run.escaped
        );
    }
    let diameter = 2.0 * coarse.radius;
    for ((name, a), (_, b)) in coarse.materials.iter().zip(&fine.materials) {
        let within = |x: f32, y: f32| (x - y).abs() <= diameter;
        assert!(
            within(a.centroid.y, b.centroid.y) && within(a.top, b.top),
            "{preset} ×{multiple}, {name}: centroid height {} and top {} at 1×, {} and {} finer",
            a.centroid.y,
            a.top,
            b.centroid.y,
            b.top
        );
    }
    assert_heavy_below_light(preset, fine);
}

/// Centroids in the order of the materials' masses (the presets list them light to heavy).
fn assert_heavy_below_light(preset: &str, run: &Settled) {
    for pair in run.materials.windows(2) {
        let ((light, a), (heavy, b)) = (&pair[0], &pair[1]);
        assert!(
            b.centroid.y < a.centroid.y,
            "{preset}: {heavy} ({}) settled above {light} ({})",
            b.centroid.y,
            a.centroid.y
        );
    }
}

/// Frames that settle each preset at every resolution (seed and layers pour for about 20 s).
fn settling_frames(preset: &str) -> u32 {
    if preset == "dam" {
        1200
    } else {
        1600
    }
}

fn same_liquid_finer(preset: &str, multiple: usize) {
    let frames = settling_frames(preset);
    let coarse = settle(preset, None, frames);
    let count = Preset::load(preset).unwrap().particles();
    let fine = settle(preset, Some(count * multiple), frames);
    assert_same_pool(preset, &coarse, &fine, multiple);
}

#[test]
fn seed_at_four_times_the_particles_settles_into_the_same_pool() {
    same_liquid_finer("seed", 4);
}

#[cfg(feature = "bodies")]
#[test]
fn dam_at_four_times_the_particles_settles_into_the_same_pool() {
    same_liquid_finer("dam", 4);
}

/// Regression: before the walls carried the liquid's density, a film of oil one or two rows
/// thick stayed pinned to the floor under the syrup, a larger share of the 1× pool than of the
/// 4× one, and the oil's centroid was 9% higher at 4× (docs/PHYSICS.md, "Walls").
#[test]
fn layers_at_four_times_the_particles_settles_into_the_same_pool() {
    same_liquid_finer("layers", 4);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn seed_at_sixteen_times_the_particles_settles_into_the_same_pool() {
    same_liquid_finer("seed", 16);
}

#[cfg(feature = "bodies")]
#[test]
#[ignore = "minutes: run with --ignored"]
fn dam_at_sixteen_times_the_particles_settles_into_the_same_pool() {
    same_liquid_finer("dam", 16);
}

#[test]
#[ignore = "minutes: run with --ignored"]
fn layers_at_sixteen_times_the_particles_settles_into_the_same_pool() {
    same_liquid_finer("layers", 16);
}

/// `--particles N` gives about N particles (within 10%) for every built-in preset, finer and
/// coarser.
#[test]
fn every_preset_takes_any_particle_count_within_ten_percent() {
    for preset in Preset::builtins() {
        let own = preset.particles();
        if preset.scene.blocks.is_empty() && preset.scene.emitters.is_empty() {
            // Air only: no liquid to make finer, and the scene comes back unchanged.
            let same = preset.clone().with_particles(50_000).unwrap();
            assert_eq!(same.particles(), 0, "{}", preset.name);
            assert_eq!(same.scene.params, preset.scene.params, "{}", preset.name);
            continue;
        }
        for wanted in [own / 2, own * 2, own * 7, 50_000] {
            let scaled = preset.clone().with_particles(wanted).unwrap();
            let estimate = scaled.particles();
            assert!(
                estimate.abs_diff(wanted) * 10 <= wanted,
                "{}: asked for {wanted}, got about {estimate}",
                preset.name
            );
        }
    }
}

/// The seed's scene with its heavy liquid thirty times as heavy as the light one (the seed's
/// comments try this ratio): the heavy liquid pours onto the light pool, sinks through it, and
/// both settle in layers with no gap between them, without boiling, calm by 60 simulated seconds.
///
/// A nearly inviscid pool in a 10 m box still sloshes at 40 s, by how much depends on the seed
/// (0.52 to 1.23 m/s over seeds 1 to 8), so the test asserts what holds for every seed, with
/// margin, on seeds 1 and 2 (figures for seeds 1 to 8 at this build; four seeds took two
/// minutes of CI's two cores):
/// - no boiling: no capped move after 20 s (none at all on these seeds; one at 11.7 s for seed 7,
///   while the heavy jet landed, before the emitters placed each row where it had travelled), and
///   the fastest particle from 40 s to 60 s under 3 m/s (0.69 to 1.47: margin 104%);
/// - calm by 60 s: the fastest particle under 1 m/s (0.21 to 0.43: margin 131%);
/// - layers: the heavy liquid's centroid (0.82 to 0.85 m) and top (1.59 to 1.62 m) below the
///   light one's centroid (2.23 to 2.33 m: margin 38%);
/// - no gap: in every metre-wide column away from the side walls, no empty layer four particle
///   radii (0.2 m) thick between the floor and the light liquid's top. The widest is the step
///   between the two liquids' rows, 0.145 to 0.150 m (margin 33%).
#[test]
fn liquids_of_mass_ratio_thirty_settle_into_layers_without_a_gap() {
    let text = include_str!("../../assets/presets/seed.toml").replace("mass = 1.4", "mass = 30.0");
    let preset = Preset::parse("seed30.toml", &text).unwrap();
    for seed in 1..=2 {
        let mut world = preset.build_world(seed);
        let frame_rate = world.params().frame_rate;
        let frames = (60.0 * frame_rate) as u32;
        let (mut capped_late, mut fastest_late) = (0, 0.0f32);
        for frame in 1..=frames {
            world.step_frame();
            let seconds = frame as f32 / frame_rate;
            if seconds > 20.0 {
                capped_late += world.last_frame().capped;
            }
            if seconds >= 40.0 {
                fastest_late = fastest_late.at_least(world.stats().max_speed);
            }
        }
        let run = settled(&world);
        assert!(
            capped_late == 0 && fastest_late < 3.0,
            "seed {seed} boils: {capped_late} capped moves after 20 s, fastest {fastest_late} m/s \
             from 40 s on"
        );
        assert!(
            run.max_speed < 1.0 && run.escaped == 0,
            "seed {seed} not calm at 60 s: fastest {} m/s, {} escaped",
            run.max_speed,
            run.escaped
        );
        assert_heavy_below_light("seed30", &run);
        let (light, heavy) = (&run.materials[0].1, &run.materials[1].1);
        assert!(
            heavy.top < light.centroid.y,
            "seed {seed}: the heavy liquid reaches {} m, above the light one's centroid {} m",
            heavy.top,
            light.centroid.y
        );
        let radius = world.params().particle_radius;
        let below_top = light.top - 4.0 * radius;
        for column in 1..9 {
            let (left, right) = (column as f32, column as f32 + 1.0);
            let mut heights: Vec<f32> = world
                .particles()
                .position
                .iter()
                .filter(|p| p.x > left && p.x < right && p.y < below_top)
                .map(|p| p.y)
                .collect();
            heights.push(0.0);
            heights.sort_by(f32::total_cmp);
            let widest = heights
                .windows(2)
                .map(|pair| pair[1] - pair[0])
                .fold(0.0f32, slosh::sim::numerics::portable::max);
            assert!(
                widest < 4.0 * radius,
                "seed {seed}: an empty layer {widest} m thick between x = {left} and {right}"
            );
        }
    }
}

/// Regression: the flood's first draft, a reservoir 5 m deep, boiled from the floor up at its own
/// radius 0.016 about 18 frames after it burst (docs/PHYSICS.md, "Deep pools"). The 4 m
/// reservoir goes through the burst and over the weir without a capped move, every frame in its
/// 22 substeps (more are taken above 21.1 m/s), and its fastest particle stays under 1.5 times
/// the front speed of a dam break, 2 √(g h) (Ritter's solution; 12.5 m/s for h = 4 m): 18.8 m/s.
///
/// Over seeds 1 to 4 and runs of 38 to 42 frames: no capped move and no extra substep; the
/// fastest particle at any frame's end is 12.0 to 12.9 m/s up to frame 40 and reaches 14.9 m/s
/// at frame 42 (seed 3), where the water falls over the weir (margin 26%, 41% to the substep
/// limit). The test once asserted the fastest at frame 40 below 15 m/s: 11.2 to 12.3 m/s there
/// (margin 22%), 13.2 to 14.9 at frames 41 and 42 (margin 0.5%).
#[test]
fn the_flood_bursts_without_boiling_at_its_own_resolution() {
    let preset = Preset::load("flood").unwrap();
    assert!(preset.particles() >= 50_000);
    let reservoir = &preset.scene.blocks[0];
    let depth = reservoir.max.y - reservoir.min.y;
    let mut world = preset.build_world(1);
    let front = 2.0 * (world.params().gravity.length() * depth).sqrt();
    let (mut capped, mut fastest) = (0, 0.0f32);
    for _ in 0..40 {
        world.step_frame();
        capped += world.last_frame().capped;
        assert_eq!(world.last_frame().substeps, world.params().substeps);
        fastest = fastest.at_least(world.stats().max_speed);
    }
    let stats = world.stats();
    assert_eq!(capped, 0, "{stats:?}");
    assert!(stats.nan == 0 && stats.escaped == 0, "{stats:?}");
    assert!(
        fastest < 1.5 * front,
        "fastest {fastest} m/s, against a dam-break front at {front} m/s"
    );
}
