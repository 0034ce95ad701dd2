//! Every embedded preset (the demo's number keys) runs clean: no NaN, no particle outside the
//! walls, and some liquid in the box.

use slosh::preset::Preset;

#[test]
fn every_embedded_preset_runs_clean() {
    for preset in Preset::builtins() {
        let mut world = preset.build_world(1);
        for _ in 0..120 {
            world.step_frame();
        }
        let stats = world.stats();
        assert_eq!(
            (stats.nan, stats.escaped),
            (0, 0),
            "{}: {stats:?}",
            preset.name
        );
        assert!(stats.particles > 100, "{}: {stats:?}", preset.name);
        assert!(
            preset.scene.params.max_particles <= 6000,
            "{}: keep the demo's scenes light",
            preset.name
        );
    }
}
