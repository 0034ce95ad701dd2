//! Every embedded preset (the demo's number keys) runs clean: no NaN, no particle outside the
//! walls, and some liquid in the box.

use slosh::preset::Preset;

/// The presets made for many particles; the others stay light enough for any machine.
const BIG: &[&str] = &["flood", "tank"];

/// After 120 frames each preset holds the same number of particles on world seeds 1 to 5 and 7
/// (its blocks and its emitters' rows, counted exactly): 494 (jelly) to 6,000 (tank), 5,901 of
/// the flood's 6,000 poured; the bound, more than 100, is 80% below the fewest. The smoke scene's
/// air holds 15.2 of smoke on every seed (the bound, more than 1: margin 93%). A preset that
/// loses its liquid, or air that never moves its smoke, fails it. The sandbox, empty, gets a
/// disc of each of its materials poured side by side (`pour_every_material`).
#[test]
fn every_embedded_preset_runs_clean() {
    for preset in Preset::builtins() {
        let name = preset.name.clone();
        // The big scenes run here at a light resolution (the same scene, coarser).
        let preset = if BIG.contains(&name.as_str()) {
            preset.with_particles(6000).unwrap()
        } else {
            // What the scene makes itself (its cap leaves room to pour as much again).
            assert!(
                preset.particles() <= 6000,
                "{name}: keep the demo's scenes light"
            );
            assert!(
                preset.scene.params.max_particles >= 2 * preset.particles().max(1000),
                "{name}: leave room to pour"
            );
            preset
        };
        let mut world = preset.build_world(1);
        if name == slosh::preset::SANDBOX {
            pour_every_material(&mut world);
        }
        for _ in 0..120 {
            world.step_frame();
        }
        let stats = world.stats();
        assert_eq!((stats.nan, stats.escaped), (0, 0), "{name}: {stats:?}");
        if world.emitters().is_empty() && stats.particles == 0 {
            // Air only (`smoke`): its smoke moved instead.
            let air = world.air().expect("a scene without liquid has air");
            assert!(air.grid().smoke_total() > 1.0, "{name}: no smoke");
        } else {
            assert!(stats.particles > 100, "{name}: {stats:?}");
        }
    }
}

#[test]
fn the_flood_holds_at_least_50000_particles_at_its_own_resolution() {
    let preset = Preset::load("flood").unwrap();
    let world = preset.build_world(1);
    assert!(
        world.particles().len() >= 50_000,
        "{} particles",
        world.particles().len()
    );
    assert!(preset.particles() >= 50_000);
}

/// Pours a disc 0.35 m across of each of `world`'s materials, side by side along the floor of the
/// sandbox's 16 m box: 22 to 31 particles each, 390 in all (more than `every_embedded_preset_
/// runs_clean`'s 100).
fn pour_every_material(world: &mut slosh::sim::World) {
    let materials = world.materials().len();
    for material in 0..materials {
        let x = 0.6 + 14.8 * material as f32 / (materials - 1) as f32;
        let pour = slosh::sim::Pour {
            material,
            centre: glam::Vec2::new(x, 0.6),
            radius: 0.35,
            velocity: glam::Vec2::ZERO,
        };
        let poured = world.pour(pour).unwrap();
        assert!(poured.added > 10, "{poured:?}");
    }
}
