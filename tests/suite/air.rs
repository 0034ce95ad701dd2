//! Air and smoke on the grid, through the public engine: the presets' behaviour, the coupling
//! with the liquid both ways, conservation, determinism across thread counts, random stirring,
//! and the `[air]` table's bad input.

use crate::common::{box_walls, on_threads, rectangle_walls};
use glam::Vec2;
use proptest::prelude::*;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::Ordered;
use slosh::sim::subsystems::air::{Air, AirSettings, MacGrid, MAX_AIR_SPEED};
use slosh::sim::{Domain, Stir, World};

fn world(preset: &str) -> World {
    World::new(Preset::load(preset).expect("embedded preset").scene, 3)
}

fn air_is_finite(grid: &MacGrid) -> bool {
    grid.u
        .iter()
        .chain(&grid.v)
        .chain(&grid.smoke)
        .chain(&grid.temperature)
        .all(|x| x.is_finite())
}

fn fastest_face(grid: &MacGrid) -> f32 {
    grid.u
        .iter()
        .chain(&grid.v)
        .fold(0.0, |m, x| m.at_least(x.abs()))
}

/// The smoke preset has no particles, so no seed changes it; over 78 to 86 frames its centroid
/// rises 3.74 to 4.39 m above the burner (bound 2: margin 46%). The residual is the solver's own
/// tolerance, 1e-4 (6.9e-5 to 8.6e-5), and the total changes by 3e-9 to 9e-9 once the burner has
/// stopped at 4 s (82 to 86 frames; bound 1e-5).
#[test]
fn the_smoke_rises_and_stays_once_its_source_has_stopped() {
    let mut world = world("smoke");
    let source = world.air().unwrap().settings().sources[0].clone();
    // 4 s of burner at 20 frames per second, then 2 s more.
    for _ in 0..82 {
        world.step_frame();
    }
    let air = world.air().unwrap();
    let after_source = air.grid().smoke_total();
    let centroid = air.grid().smoke_centroid();
    assert!(
        centroid.y > source.position.y + 2.0,
        "the smoke did not rise: {centroid}"
    );
    assert!(air.last_step().solve.relative_residual <= 1e-4);
    for _ in 0..40 {
        world.step_frame();
    }
    let later = world.air().unwrap().grid().smoke_total();
    assert!(
        ((later - after_source) / after_source).abs() < 1e-5,
        "smoke changed without a source: {after_source} -> {later}"
    );
}

/// The smoke preset with `change` made to its air, run 400 frames: at frames 300 and 400 the
/// divergence left after the projection, in 1/s, and the smoke centroid's height above the
/// burner, in m; and whether the air stayed finite.
fn smoke_with(change: impl FnOnce(&mut AirSettings)) -> ([(f32, f32); 2], bool) {
    let mut scene = Preset::load("smoke").expect("embedded preset").scene;
    change(scene.air.as_mut().expect("the smoke preset has air"));
    let mut world = World::new(scene, 3);
    let burner = world.air().unwrap().settings().sources[0].position;
    let mut seen = [(0.0, 0.0); 2];
    for (k, frames) in [300, 100].into_iter().enumerate() {
        for _ in 0..frames {
            world.step_frame();
        }
        let air = world.air().unwrap();
        let rise = air.grid().smoke_centroid().y - burner.y;
        seen[k] = (air.last_step().divergence_max, rise);
    }
    (seen, air_is_finite(world.air().unwrap().grid()))
}

/// Every vorticity the preset file accepts (0 to 100) gives a plume, not grid-scale noise: the
/// confinement's step is limited per cell (`sim::subsystems::air::forces`). Before the limit the
/// divergence after 300 frames was 4e-4 at ε 3, 150 at ε 40 and 685 at ε 100; with it, at most
/// 1.7e-3 (ε 10 and above all run at the limit; bound 0.1), and the centroid is 2.8 to 4.0 m above
/// the burner (bound 2).
#[test]
fn every_accepted_vorticity_gives_a_rising_plume() {
    for vorticity in [0.0, 0.1, 1.0, 3.0, 10.0, 30.0, 100.0] {
        let (seen, finite) = smoke_with(|air| air.vorticity = vorticity);
        assert!(finite, "ε {vorticity}: not finite");
        for (divergence, rise) in seen {
            assert!(divergence < 0.1, "ε {vorticity}: divergence {divergence}");
            assert!(rise > 2.0, "ε {vorticity}: the smoke rose {rise} m");
        }
    }
}

/// The air's density scales the pressure, not the motion: at the ends of its range (0.001 and
/// 1000) the plume is the one at 1 (divergence at most 3.2e-4, bound 0.1; centroid 2.9 to 4.0 m
/// above the burner, bound 2). Before the projection put ρ on both sides, 1000 left a
/// divergence of 15 and no plume, and 0.001 one of 1600.
#[test]
fn the_air_density_leaves_the_plume_as_it_is() {
    for density in [0.001, 1000.0] {
        let (seen, finite) = smoke_with(|air| air.density = density);
        assert!(finite, "ρ {density}: not finite");
        for (divergence, rise) in seen {
            assert!(divergence < 0.1, "ρ {density}: divergence {divergence}");
            assert!(rise > 2.0, "ρ {density}: the smoke rose {rise} m");
        }
    }
}

/// Over 950 to 1,050 steps at 46 to 50 columns the total changes by 1.3e-8 to 1.2e-7 (bound 1e-5)
/// and the centroid rises to 1.95 to 2.00 (bound 1: margin 49%).
#[test]
fn a_closed_box_keeps_its_smoke_over_a_thousand_steps() {
    let domain = Domain::new(rectangle_walls(Vec2::ZERO, Vec2::splat(4.0)), 0.05).unwrap();
    let settings = AirSettings {
        columns: 48,
        ..AirSettings::default()
    };
    let mut air = Air::new(settings, &domain, &[]);
    {
        let grid = air.grid_mut();
        for j in 4..14 {
            for i in 10..30 {
                let c = grid.cell(i, j);
                grid.smoke[c] = 1.0;
                grid.temperature[c] = 3.0;
            }
        }
    }
    let before = air.grid().smoke_total();
    for _ in 0..1000 {
        air.step(1.0 / 60.0, Vec2::Y);
    }
    let after = air.grid().smoke_total();
    assert!(
        ((after - before) / before).abs() < 1e-5,
        "{before} -> {after}"
    );
    let centroid = air.grid().smoke_centroid();
    assert!(centroid.y > 1.0, "warm smoke should have risen: {centroid}");
}

/// After 3 s, over seeds 1 to 5 and 7:
/// - the steam's total is 42.4 to 43.5 (bound 1);
/// - its centroid is at 3.35 to 3.43 m (3.29 to 3.46 over frames 57 to 63), above the pool's
///   surface at 1.9; the test asserts more than two air cells above it, 2.23 (margin 32%). It
///   once asserted 2.5 (margin 13%, before the lava's stream was widened). The centroid does not
///   single out the heat lift: with `heat_lift = 0` it is 2.66 to 2.77, the steam being made all
///   along the falling stream (the lift has its unit test in `sim::subsystems::air::forces`);
///   steam kept at the surface fails it;
/// - the fastest updraft 5 m up is 2.06 to 2.44 m/s at frame 60, 2.04 to 3.15 over frames 57 to
///   63 (bound 0.2: margin 90%).
#[test]
fn hot_lava_raises_a_plume_of_steam() {
    let mut world = world("lava");
    for _ in 0..60 {
        world.step_frame();
    }
    let air = world.air().unwrap();
    let grid = air.grid();
    assert!(grid.smoke_total() > 1.0, "no steam: {}", grid.smoke_total());
    // The pool's surface is at 1.9; the steam lies above it, more than two cells up.
    let centroid = grid.smoke_centroid();
    let above_the_pool = 1.9 + 2.0 * grid.dx;
    assert!(
        centroid.y > above_the_pool,
        "the steam stays low: {centroid}, the pool's surface at 1.9"
    );
    // The air rises above the pool near the stream.
    let rising = (0..grid.nx)
        .map(|i| {
            grid.velocity_at(Vec2::new((i as f32 + 0.5) * grid.dx, 5.0))
                .y
        })
        .fold(f32::MIN, slosh::sim::numerics::portable::max);
    assert!(rising > 0.2, "no updraft: {rising}");
}

/// Beside the falling block the air moves at 10.3 to 10.6 m/s at its fastest over seeds 1 to 5
/// and 7 (bound 0.2: margin 98%).
#[test]
fn a_falling_block_of_liquid_pushes_the_air() {
    // The lava preset's pool, dropped from a height: no heat, no sources.
    let mut preset = Preset::load("lava").unwrap();
    preset.scene.materials[1].temperature = 0.0;
    preset.scene.materials[1].smoke = 0.0;
    preset.scene.emitters.clear();
    for block in &mut preset.scene.blocks {
        block.min.y += 4.0;
        block.max.y += 4.0;
        block.max.x = 6.0;
    }
    let mut world = World::new(preset.scene, 1);
    assert_eq!(fastest_face(world.air().unwrap().grid()), 0.0);
    for _ in 0..12 {
        world.step_frame();
    }
    let grid = world.air().unwrap().grid();
    // Beside the falling block (x > 6.5) the displaced air moves.
    let mut fastest_beside = 0.0f32;
    for j in 0..grid.ny {
        for i in 0..grid.nx {
            let centre = grid.cell_centre(i, j);
            if centre.x > 7.0 && !grid.solid[grid.cell(i, j)] {
                fastest_beside = fastest_beside.at_least(grid.velocity_at(centre).length());
            }
        }
    }
    assert!(
        fastest_beside > 0.2,
        "the air did not move: {fastest_beside}"
    );
}

/// Mean horizontal speed of the raindrops in flight (above the pool) after 30 frames of wind blown
/// into the air alone (the particles are not stirred), with the air's drag set to `drag`.
fn rain_drift_in_wind(drag: f32) -> f32 {
    let mut preset = Preset::load("rain").unwrap();
    preset.scene.air = Some(AirSettings {
        drag,
        ..AirSettings::default()
    });
    let mut world = World::new(preset.scene, 3);
    let wind = Stir {
        position: Vec2::new(8.0, 5.0),
        velocity: Vec2::new(6.0, 0.0),
        radius: 4.0,
    };
    for _ in 0..30 {
        assert!(world.blow(wind));
        world.step_frame();
    }
    let particles = world.particles();
    let flying: Vec<f32> = particles
        .velocity
        .iter()
        .zip(&particles.position)
        .filter(|(_, p)| p.y > 2.0)
        .map(|(v, _)| v.x.abs())
        .collect();
    assert!(
        flying.len() > 10,
        "too few drops in flight: {}",
        flying.len()
    );
    flying.iter().sum::<f32>() / flying.len() as f32
}

/// Over seeds 1 to 5 and 7: without drag the drops keep exactly no sideways speed (bound 0.1); with
/// it they drift at 0.81 to 0.95 m/s (bound 0.3: margin 63%).
#[test]
fn wind_in_the_air_carries_the_drops_in_flight() {
    let still = rain_drift_in_wind(0.0);
    let dragged = rain_drift_in_wind(AirSettings::default().drag);
    assert!(still < 0.1, "drops drift without drag: {still}");
    assert!(
        dragged > still + 0.3,
        "drag did not carry the drops: {still} without, {dragged} with"
    );
}

#[test]
fn the_air_is_bit_identical_at_any_thread_count() {
    let run = |preset: &'static str| {
        move || {
            let mut world = world(preset);
            for frame in 0..40 {
                if frame % 5 == 0 {
                    world.stir(Stir {
                        position: Vec2::new(5.0 + frame as f32 * 0.1, 4.0),
                        velocity: Vec2::new(3.0, 2.0),
                        radius: 1.5,
                    });
                }
                world.step_frame();
            }
            (world.checksum(), world.air().unwrap().checksum())
        }
    };
    for preset in ["smoke", "lava"] {
        let one = on_threads(1, run(preset));
        assert_eq!(one, on_threads(2, run(preset)), "{preset}: 1 vs 2 threads");
        assert_eq!(one, on_threads(3, run(preset)), "{preset}: 1 vs 3 threads");
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    /// Whatever the mouse does to the air (stirs and pulls of any speed, anywhere, even outside
    /// the box), nothing becomes NaN and no face exceeds the speed guard.
    #[test]
    fn random_stirs_never_break_the_air(
        actions in prop::collection::vec(
            (0.0f32..1.0, -2.0f32..18.0, -2.0f32..11.0, -200.0f32..200.0, -200.0f32..200.0, 0.05f32..6.0),
            1..30,
        ),
        preset in prop::sample::select(vec!["smoke", "lava"]),
    ) {
        let mut world = world(preset);
        for (kind, x, y, vx, vy, radius) in actions {
            let position = Vec2::new(x, y);
            if kind < 0.6 {
                world.stir(Stir { position, velocity: Vec2::new(vx, vy), radius });
            } else {
                world.pull(position, radius, vx.abs());
            }
            world.step_frame();
            let grid = world.air().unwrap().grid();
            prop_assert!(air_is_finite(grid));
            prop_assert!(fastest_face(grid) <= MAX_AIR_SPEED);
            prop_assert_eq!(world.stats().nan, 0);
            prop_assert_eq!(world.stats().escaped, 0);
        }
    }
}

// ---- Bad input in `[air]` --------------------------------------------------------------------

/// A valid preset with air in a 4 × `height` box.
fn with_air_in_box(height: f32) -> String {
    format!(
        r#"name = "airy"
description = "A box of air"

{}
[[materials]]
name = "water"
colour = [0.2, 0.4, 0.9]
mass = 1.0

[air]
columns = 32

[[air.sources]]
position = [2.0, 0.5]
radius = 0.3
smoke = 1.0
"#,
        box_walls(4.0, height)
    )
}

/// The valid preset the bad-input tests break: a 4 × 3 box of air.
fn with_air() -> String {
    with_air_in_box(3.0)
}

fn refused_at(old: &str, new: &str) -> (String, usize) {
    let valid = with_air();
    assert_eq!(valid.matches(old).count(), 1, "{old}");
    let text = valid.replacen(old, new, 1);
    let line = text
        .lines()
        .position(|l| l.contains(new.lines().last().unwrap()))
        .unwrap()
        + 1;
    let error = Preset::parse("bad.toml", &text).expect_err("must be refused");
    (error.to_string(), line)
}

#[test]
fn the_air_base_preset_parses_and_builds_its_grid() {
    let preset = Preset::parse("good.toml", &with_air()).expect("valid");
    let world = World::new(preset.scene, 1);
    let grid = world.air().expect("air").grid();
    assert_eq!((grid.nx, grid.ny), (32, 24));
}

#[test]
fn bad_air_values_are_refused_with_file_line_and_field() {
    for (old, new, field, words) in [
        (
            "columns = 32",
            "columns = 2",
            "air.columns",
            "from 4 to 1024",
        ),
        (
            "columns = 32",
            "columns = 5000",
            "air.columns",
            "from 4 to 1024",
        ),
        (
            "columns = 32",
            "columns = 32\nvorticity = -1.0",
            "air.vorticity",
            "from 0",
        ),
        (
            "columns = 32",
            "columns = 32\ntolerance = 0.0",
            "air.tolerance",
            "0.5",
        ),
        (
            "columns = 32",
            "columns = 32\nmax_iterations = 0",
            "air.max_iterations",
            "from 1",
        ),
        (
            "columns = 32",
            "columns = 32\nsolver = \"jacobi\"",
            "air.solver",
            "multigrid",
        ),
        (
            "columns = 32",
            "columns = 32\nadvection = \"magic\"",
            "air.advection",
            "conservative",
        ),
        (
            "columns = 32",
            "columns = 32\nheat_lift = nan",
            "air.heat_lift",
            "NaN",
        ),
        (
            "radius = 0.3",
            "radius = -0.3",
            "air.sources[0].radius",
            "above 0",
        ),
        (
            "position = [2.0, 0.5]",
            "position = [9.0, 0.5]",
            "air.sources[0].position",
            "inside the walls",
        ),
        (
            "smoke = 1.0",
            "smoke = 1.0\ntemperature = 5000.0",
            "air.sources[0].temperature",
            "1000",
        ),
        (
            "smoke = 1.0",
            "smoke = 1.0\nvelocity = [80.0, 0.0]",
            "air.sources[0].velocity",
            "50",
        ),
        (
            "mass = 1.0",
            "mass = 1.0\ntemperature = inf",
            "materials[0].temperature",
            "inf",
        ),
    ] {
        let (shown, line) = refused_at(old, new);
        let prefix = format!("bad.toml:{line}: {field}: ");
        assert!(
            shown.starts_with(&prefix),
            "`{shown}` should start `{prefix}`"
        );
        assert!(shown.contains(words), "`{shown}` lacks `{words}`");
    }
}

#[test]
fn a_grid_too_tall_for_its_columns_is_refused() {
    let tall = with_air_in_box(400.0);
    let text = tall.replace("columns = 32", "columns = 16");
    let error = Preset::parse("bad.toml", &text).expect_err("too many rows");
    assert!(error.to_string().contains("air.columns"), "{error}");
    assert!(error.to_string().contains("rows"), "{error}");
}
