//! Snapshots: a saved world reopens with the same checksum and continues bit for bit, at any
//! thread count; broken or foreign files are refused with one line naming the file.

use crate::common::{self, on_threads, step_frames};

use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::{Obstacle, Pour, World};
use slosh::snapshot::{load, save};
use std::path::PathBuf;

/// A file name of its own in the temporary folder for each test.
fn temp_file(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("slosh-snapshot-{}-{name}.json", std::process::id()))
}

/// Saves `world` (built from `preset`), loads it back, checks the checksum, steps both 30 more
/// frames and checks it again; returns the reloaded world.
fn round_trip(name: &str, preset: &Preset, world: &mut World) -> World {
    let path = temp_file(name);
    save(&path, preset, world).unwrap();
    let (loaded_preset, mut loaded) = load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded_preset.name, preset.name);
    assert_eq!(loaded.checksum(), world.checksum(), "{name}: on load");
    assert_eq!(loaded.params(), world.params(), "{name}: params");
    assert_eq!(loaded.materials(), world.materials(), "{name}: materials");
    assert_eq!(loaded.obstacles(), world.obstacles(), "{name}: obstacles");
    assert_eq!(loaded.time(), world.time(), "{name}: time");
    assert_eq!(loaded.substeps_done(), world.substeps_done());
    assert_eq!(loaded.cap_reached(), world.cap_reached());
    assert_eq!(loaded.emission_finished(), world.emission_finished());
    step_frames(world, 30);
    step_frames(&mut loaded, 30);
    assert_eq!(loaded.checksum(), world.checksum(), "{name}: 30 frames on");
    assert_eq!(loaded.spring_counts(), world.spring_counts(), "{name}");
    assert_eq!(loaded.particles().len(), world.particles().len());
    loaded
}

/// After 25 frames the seed's emitters have poured 177 particles on every world seed (1 to 5
/// and 7: rows of an emitter, an exact count; the bound, more than 100: margin 44%).
#[test]
fn seed_mid_pour_continues_bit_for_bit() {
    let preset = Preset::load("seed").unwrap();
    let mut world = preset.build_world(3);
    step_frames(&mut world, 25);
    assert!(world.particles().len() > 100 && !world.emission_finished());
    round_trip("seed", &preset, &mut world);
}

/// Sand keeps where each grain is held (its friction's anchors): the hourglass, 40 frames in,
/// its funnel pouring out and a pile growing below, continues bit for bit.
#[test]
fn the_hourglass_keeps_its_grains_anchors() {
    let preset = Preset::load("hourglass").unwrap();
    let mut world = preset.build_world(2);
    step_frames(&mut world, 40);
    assert!(world.particles().len() > 400);
    round_trip("hourglass", &preset, &mut world);
}

/// The jelly holds 3,674 to 3,694 springs after 15 frames and 3,767 to 3,797 after 30 more over
/// world seeds 1 to 5 and 7 (the bound, more than 1,000: margin 73%); the rest is exact.
#[test]
fn jelly_keeps_its_springs() {
    let preset = Preset::load("jelly").unwrap();
    let mut world = preset.build_world(4);
    step_frames(&mut world, 15);
    assert!(world.spring_counts().total > 1000);
    let loaded = round_trip("jelly", &preset, &mut world);
    assert!(loaded.spring_counts().total > 1000);
}

/// After 20 frames 600 to 619 of the lava's air cells are warm (the hottest 5.71) over world
/// seeds 1 to 5 and 7; the test asks for one.
#[test]
fn lava_keeps_its_air_and_heat() {
    let preset = Preset::load("lava").unwrap();
    let mut world = preset.build_world(5);
    step_frames(&mut world, 20);
    let air = world.air().expect("lava has air");
    assert!(air.grid().temperature.iter().any(|&t| t > 0.0));
    let loaded = round_trip("lava", &preset, &mut world);
    let (a, b) = (loaded.air().unwrap(), world.air().unwrap());
    assert_eq!(a.steps(), b.steps());
    assert_eq!(a.solver_iterations(), b.solver_iterations());
    assert_eq!(a.grid().smoke, b.grid().smoke);
}

/// The pour fills 27 sites and the erase takes 21 to 23 particles of the jelly over world seeds
/// 1 to 5 and 7 (the test asks for one of each); the rest is exact.
#[test]
fn an_edited_world_reopens_with_its_edits() {
    let preset = Preset::load("jelly").unwrap();
    let mut world = preset.build_world(6);
    step_frames(&mut world, 15);
    let springs = world.spring_counts().total;
    let poured = world
        .pour(Pour {
            material: 1,
            centre: Vec2::new(1.0, 7.0),
            radius: 0.3,
            velocity: Vec2::new(0.5, 0.0),
        })
        .unwrap();
    assert!(poured.added > 0);
    // Through the jelly: springs to the erased particles are still held until the next substep.
    let jelly = world.material_stats()[0].centroid;
    assert!(world.erase(jelly, 0.3).unwrap() > 0);
    world
        .add_obstacle(Obstacle::circle(Vec2::new(8.5, 6.0), 0.4, 0.3))
        .unwrap();
    world.set_gravity(Vec2::new(1.5, -8.0)).unwrap();
    let mut material = world.materials()[0].clone();
    material.linear_viscosity = Some(3.5);
    material.spring_stiffness *= 0.5;
    world.set_material(0, material).unwrap();
    assert_eq!(world.spring_counts().total, springs);
    let loaded = round_trip("edited", &preset, &mut world);
    assert_eq!(loaded.params().gravity, Vec2::new(1.5, -8.0));
    assert_eq!(loaded.obstacles().len(), preset.scene.obstacles.len() + 1);
    assert_eq!(loaded.materials()[0].linear_viscosity, Some(3.5));
}

#[test]
fn rescaled_presets_reopen_at_their_resolution() {
    for (name, particles) in [("seed", 1200), ("tank", 4500)] {
        let preset = Preset::load(name)
            .unwrap()
            .with_particles(particles)
            .unwrap();
        let mut world = preset.build_world(8);
        step_frames(&mut world, 10);
        let path = temp_file(&format!("rescaled-{name}"));
        save(&path, &preset, &world).unwrap();
        let (loaded_preset, mut loaded) = load(&path).unwrap();
        std::fs::remove_file(&path).unwrap();
        assert_eq!(
            loaded_preset.scene.params.particle_radius,
            preset.scene.params.particle_radius
        );
        assert_eq!(loaded_preset.scene.emitters, preset.scene.emitters);
        step_frames(&mut world, 10);
        step_frames(&mut loaded, 10);
        assert_eq!(loaded.checksum(), world.checksum(), "{name}");
    }
}

#[test]
fn a_world_of_unequal_masses_keeps_its_substeps() {
    // Masses 1 and 25: `World::new` runs three times the scene's substeps.
    let text = r#"
name = "contrast"
description = "a light and a very heavy liquid"
[params]
max_particles = 800
{walls}
[[materials]]
name = "light"
colour = [0.2, 0.5, 0.9]
mass = 1.0
surface_tension = 0.001
[[materials]]
name = "heavy"
colour = [0.9, 0.5, 0.2]
mass = 25.0
[[blocks]]
material = "heavy"
min = [0.5, 1.0]
max = [3.5, 2.0]
spacing = 0.1
[[blocks]]
material = "light"
min = [0.5, 0.1]
max = [3.5, 0.9]
spacing = 0.1
"#;
    let text = text.replace("{walls}", &common::box_walls(4.0, 3.0));
    let preset = Preset::parse("contrast.toml", &text).unwrap();
    let mut world = preset.build_world(9);
    assert_eq!(world.params().substeps, 3 * preset.scene.params.substeps);
    step_frames(&mut world, 5);
    let loaded = round_trip("contrast", &preset, &mut world);
    assert_eq!(loaded.params().substeps, world.params().substeps);
}

#[test]
fn continuation_is_the_same_at_one_and_two_threads() {
    for name in ["seed", "jelly", "lava"] {
        let preset = Preset::load(name).unwrap();
        let path = temp_file(&format!("threads-{name}"));
        // Saved from a one-thread run, continued at one thread and at two.
        let reference = on_threads(1, || {
            let mut world = preset.build_world(10);
            step_frames(&mut world, 12);
            save(&path, &preset, &world).unwrap();
            step_frames(&mut world, 20);
            world.checksum()
        });
        for threads in [1, 2] {
            let continued = on_threads(threads, || {
                let (_, mut world) = load(&path).unwrap();
                step_frames(&mut world, 20);
                world.checksum()
            });
            assert_eq!(continued, reference, "{name} at {threads} threads");
        }
        // Saved from a two-thread run, continued at one.
        let (saved, reference) = on_threads(2, || {
            let mut world = preset.build_world(11);
            step_frames(&mut world, 12);
            save(&path, &preset, &world).unwrap();
            step_frames(&mut world, 20);
            (world.checksum(), world.checksum())
        });
        let _ = saved;
        let continued = on_threads(1, || {
            let (_, mut world) = load(&path).unwrap();
            step_frames(&mut world, 20);
            world.checksum()
        });
        assert_eq!(continued, reference, "{name} saved at 2 threads");
        std::fs::remove_file(&path).unwrap();
    }
}

/// A seed world saved to `name`, and the file's text.
fn saved_seed(name: &str) -> (PathBuf, String) {
    let preset = Preset::load("seed").unwrap();
    let mut world = preset.build_world(12);
    step_frames(&mut world, 30);
    let path = temp_file(name);
    save(&path, &preset, &world).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    (path, text)
}

/// Writes `text` to `path`, loads it and returns the error, which must name the file (and a line,
/// when `line` is given).
fn refusal(path: &PathBuf, text: &str, line: Option<usize>) -> String {
    std::fs::write(path, text).unwrap();
    let error = match load(path) {
        Ok(_) => panic!("{} loaded", path.display()),
        Err(error) => error,
    };
    std::fs::remove_file(path).unwrap();
    assert_eq!(error.file, path.display().to_string(), "{error}");
    if let Some(line) = line {
        assert_eq!(error.line, Some(line), "{error}");
    }
    let error = error.to_string();
    assert!(!error.contains('\n'), "{error}");
    error
}

/// The 1-based line of the first particle, and the text with particle `k`'s line changed by
/// `edit` (given its `[id, material, x, y, vx, vy, temperature, latent, tag]`).
fn edit_particle(text: &str, k: usize, edit: impl Fn(&mut [u64; 9])) -> (usize, String) {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let start = lines
        .iter()
        .position(|line| line.trim_start().starts_with("\"particles\": ["))
        .expect("a particles line");
    let index = start + 1 + k;
    let line = &lines[index];
    let body = line.trim().trim_end_matches(',');
    let mut values: [u64; 9] = serde_json::from_str(body).unwrap();
    edit(&mut values);
    let comma = if line.trim_end().ends_with(',') {
        ","
    } else {
        ""
    };
    let indent = &line[..line.len() - line.trim_start().len()];
    lines[index] = format!("{indent}{}{comma}", serde_json::to_string(&values).unwrap());
    (index + 1, lines.join("\n") + "\n")
}

#[test]
fn the_file_is_text_with_one_particle_per_line() {
    let (path, text) = saved_seed("layout");
    std::fs::remove_file(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "{");
    assert_eq!(lines[1], "  \"format\": \"slosh-snapshot\",");
    assert_eq!(lines[2], "  \"version\": 5,");
    assert!(lines[3].starts_with("  \"preset\": \"# slosh preset"));
    assert!(lines[4].starts_with("  \"checksum\": \""));
    assert_eq!(lines[5], "  \"world\": {");
    let (first, _) = edit_particle(&text, 0, |_| {});
    assert!(
        lines[first - 1].starts_with("      ["),
        "{}",
        lines[first - 1]
    );
}

#[test]
fn broken_files_are_refused_with_their_line() {
    let (path, text) = saved_seed("broken");

    // Cut in half: an end-of-file error at the last line.
    let half = &text[..text.len() / 2];
    let last_line = half.lines().count();
    refusal(&path, half, Some(last_line));

    // Older versions: the files of version 1, whose scene values were mirrored by hand, of
    // version 2, whose particles had no temperature, of version 3, whose particles had no
    // latent heat, and of version 4, whose particles had no tag.
    for old in [1, 2, 3, 4] {
        let other = text.replacen("\"version\": 5,", &format!("\"version\": {old},"), 1);
        let error = refusal(&path, &other, Some(3));
        assert!(
            error.ends_with(&format!(
                "snapshot format version {old}, this build reads 5"
            )),
            "{error}"
        );
    }

    // A particle moved outside the walls.
    let (line, moved) = edit_particle(&text, 7, |p| p[2] = u64::from((25.0f32).to_bits()));
    let error = refusal(&path, &moved, Some(line));
    assert!(error.contains("outside the walls"), "{error}");

    // A temperature that is not a number.
    let (line, hot) = edit_particle(&text, 5, |p| p[6] = u64::from(f32::NAN.to_bits()));
    let error = refusal(&path, &hot, Some(line));
    assert!(error.contains("temperature must be finite"), "{error}");
    let (line, latent) = edit_particle(&text, 5, |p| p[7] = u64::from(f32::INFINITY.to_bits()));
    let error = refusal(&path, &latent, Some(line));
    assert!(
        error.contains("latent heat must be finite, got inf"),
        "{error}"
    );

    // A material index out of range.
    let (line, unknown) = edit_particle(&text, 3, |p| p[1] = 7);
    let error = refusal(&path, &unknown, Some(line));
    assert!(error.contains("material index 7 out of range"), "{error}");

    // A particle moved a little, still inside: only the checksum tells.
    let (_, nudged) = edit_particle(&text, 5, |p| p[3] += 1);
    let error = refusal(&path, &nudged, None);
    assert!(
        error.ends_with(
            ": the state does not give the checksum it was saved with (edited by hand, or from \
             another build)"
        ),
        "{error}"
    );

    // An unknown field in the preset: the line of the preset.
    let bogus = text.replacen(
        "\"preset\": \"# slosh preset",
        "\"preset\": \"bogus = 1\\n# slosh preset",
        1,
    );
    let error = refusal(&path, &bogus, Some(4));
    assert!(error.contains("bogus"), "{error}");

    // A field of the wrong type, a missing field, an unknown one, and garbage.
    let wrong = text.replacen("\"substeps_done\": ", "\"substeps_done\": -", 1);
    refusal(&path, &wrong, None);
    let start = text.find("\"substeps_done\"").unwrap();
    let end = start + text[start..].find('\n').unwrap() + 1;
    let missing = format!("{}{}", &text[..start], &text[end..]);
    let error = refusal(&path, &missing, None);
    assert!(error.contains("substeps_done"), "{error}");
    let extra = text.replacen(
        "\"substeps_done\": ",
        "\"colour\": 1, \"substeps_done\": ",
        1,
    );
    refusal(&path, &extra, None);
    refusal(&path, "garbage", Some(1));
    refusal(&path, "", None);
    refusal(&path, "{\"format\": \"slosh-snapshot\"}", None);
    refusal(&path, "[1, 2, 3]", Some(1));
    let error = refusal(&path, "{\"format\": \"png\", \"version\": 1}", Some(1));
    assert!(error.contains("not a slosh snapshot"), "{error}");
}

#[test]
fn a_missing_file_is_refused() {
    let path = temp_file("missing");
    let error = load(&path).map(|_| ()).unwrap_err();
    assert_eq!(error.file, path.display().to_string(), "{error}");
    assert_eq!(error.line, None, "{error}");
}

#[test]
fn a_preset_that_does_not_give_the_world_is_refused_on_save() {
    let preset = Preset::load("seed").unwrap();
    let world = Preset::load("layers").unwrap().build_world(1);
    let path = temp_file("mismatch");
    let error = save(&path, &preset, &world).unwrap_err();
    assert!(
        error.message.contains("does not give this world"),
        "{error}"
    );
    assert!(!path.exists());
}

#[test]
fn bodies_mid_throw_and_held_continue_bit_for_bit_at_any_thread_count() {
    let preset = Preset::load("bath").unwrap();
    let mut world = preset.build_world(2);
    step_frames(&mut world, 40);
    // One body flying, one held by the grab spring, the particles owing them impulses.
    world.throw_body(1, Vec2::new(-3.0, 6.0), 2.0).unwrap();
    let duck = world.bodies().unwrap().state(3).position;
    world.grab_body(duck).unwrap();
    world.drag_body(duck + Vec2::new(-1.0, 2.0)).unwrap();
    step_frames(&mut world, 3);
    let path = temp_file("bath");
    save(&path, &preset, &world).unwrap();
    let expected = on_threads(1, || {
        let mut world = world.clone();
        step_frames(&mut world, 30);
        world.checksum()
    });
    for threads in [1, 2, 3] {
        let checksum = on_threads(threads, || {
            let (_, mut loaded) = load(&path).unwrap();
            assert_eq!(loaded.checksum(), world.checksum(), "on load");
            assert!(loaded.bodies().unwrap().held().is_some(), "still held");
            step_frames(&mut loaded, 30);
            loaded.checksum()
        });
        assert_eq!(checksum, expected, "{threads} threads, 30 frames on");
    }
    std::fs::remove_file(&path).unwrap();
    round_trip("bath", &preset, &mut world);
}

/// The hinge holds the hinged body's centre on its axle to within 0.0001 m from frame 50 to 80 over
/// world seeds 1 to 5 and 7 (the bound, 0.05 m, is there for a hinge lost in the round trip).
#[test]
fn the_mill_keeps_its_hinge_and_its_pour() {
    let preset = Preset::load("mill").unwrap();
    let mut world = preset.build_world(5);
    step_frames(&mut world, 50);
    let loaded = round_trip("mill", &preset, &mut world);
    let axle = loaded.bodies().unwrap().state(0).position;
    assert!(
        (axle - Vec2::new(6.0, 4.6)).length() < 0.05,
        "on its axle: {axle}"
    );
}

#[test]
fn bodies_and_a_scene_that_disagree_about_them_are_refused() {
    let bath = Preset::load("bath").unwrap();
    let world = bath.build_world(1);
    let mut without = bath.scene.clone();
    without.bodies.clear();
    let error = World::from_state(without.clone(), world.state())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("a state of `bodies`, which the scene does not have"),
        "{error}"
    );
    let plain = World::new(without, 1);
    let error = World::from_state(bath.scene.clone(), plain.state())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("no state of `bodies`, which the scene has"),
        "{error}"
    );
    let mut fewer = bath.scene.clone();
    fewer.bodies.pop();
    let error = World::from_state(fewer, world.state())
        .map(|_| ())
        .unwrap_err()
        .to_string();
    assert!(error.contains("4 bodies, but the scene has 3"), "{error}");
}

/// Regression: a `bath` snapshot saved after 120 frames and run on headless for 20 reported
/// `"substeps": 959` and stage means about seven times too small: the report counted the
/// snapshot's earlier substeps as the run's. It counts only what the run did: its substeps are
/// those of the same 20 frames run on from the saved world, and its stages' mean times add up to
/// about its measured time per substep (below a half, they were divided among too many).
#[test]
fn a_report_after_load_counts_only_the_run_s_own_substeps() {
    let preset = Preset::load("bath").unwrap();
    let mut world = preset.build_world(1);
    step_frames(&mut world, 120);
    let path = temp_file("report");
    save(&path, &preset, &world).unwrap();
    let before = world.substeps_done();
    step_frames(&mut world, 20);
    let report = slosh::headless::run(&slosh::headless::HeadlessOptions {
        load: Some(path.clone()),
        frames: 20,
        ..Default::default()
    })
    .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(report.checksum, world.checksum());
    assert_eq!(report.substeps, world.substeps_done() - before);
    let staged: f64 = report.stage_ms.iter().map(|(_, ms)| ms).sum();
    assert!(
        staged > 0.5 * report.ms_per_substep_median,
        "stages {staged} ms per substep, measured {} ms",
        report.ms_per_substep_median
    );
}

/// `fire` after 60 frames (3 s) has oil part burned; a snapshot carries each particle's burnt
/// fraction and the count burned away, and the reloaded world burns on bit for bit.
#[test]
fn fire_keeps_what_has_burned() {
    let preset = Preset::load("fire").unwrap();
    let mut world = preset.build_world(1);
    step_frames(&mut world, 60);
    let p = world.particles();
    let burning = (0..p.len()).filter(|&i| world.burnt(p.id[i]) > 0.0).count();
    assert!(burning > 0, "the oil burns by 3 s");
    let loaded = round_trip("fire", &preset, &mut world);
    assert_eq!(loaded.reaction_counts(), world.reaction_counts());
}

/// A snapshot saved before each grain's hand-down was kept (its `granular` state three to a
/// grain: id, anchor, motion) still opens, and its sand runs on from it without NaN, every grain
/// inside the box.
#[test]
fn an_hourglass_saved_without_the_hand_down_still_opens() {
    let preset = Preset::load("hourglass").unwrap();
    let mut world = preset.build_world(2);
    step_frames(&mut world, 40);
    let path = temp_file("without-hand-down");
    save(&path, &preset, &world).unwrap();
    let mut file: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let grains = file["world"]["subsystems"]["granular"]
        .as_array_mut()
        .unwrap();
    assert!(!grains.is_empty());
    for grain in grains {
        let fields = grain.as_array_mut().unwrap();
        assert_eq!(fields.len(), 4, "id, anchor, motion and hand-down");
        fields.truncate(3);
    }
    std::fs::write(&path, serde_json::to_string(&file).unwrap()).unwrap();
    let (_, mut loaded) = load(&path).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(loaded.particles().len(), world.particles().len());
    step_frames(&mut loaded, 30);
    let domain = &preset.scene.domain;
    assert!(loaded
        .particles()
        .position
        .iter()
        .all(|&p| p.is_finite() && domain.contains(p)));
}
