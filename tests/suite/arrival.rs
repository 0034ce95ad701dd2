//! Any material into any scene: pouring a library material that a world lacks brings it in,
//! with the heat, air and reactions it needs, as the world steps on. The pour is recorded by the
//! material's name and replays to the same bits; undo takes the material out again; a snapshot
//! and the saved preset carry it.

use crate::common::{box_walls, step_frames};
use glam::Vec2;
use slosh::input::MaterialRef;
use slosh::preset::{register_text, Preset};
use slosh::replay::{History, Input, Player, Recorder, Replay};
use slosh::sim::{EditError, World};

/// A 4 × 3 box of still water with neither heat nor air (the water conducts nothing, as in
/// `dam`), registered as `name` so that a replay can name it.
fn pool(name: &str) -> Preset {
    let walls = box_walls(4.0, 3.0);
    let text = format!(
        "name = \"{name}\"\ndescription = \"a pool with no heat and no air\"\n{walls}\n\
         [[materials]]\nname = \"water\"\nconductivity = 0.0\n\n\
         [[blocks]]\nmaterial = \"water\"\nmin = [0.1, 0.1]\nmax = [3.9, 1.1]\nspacing = 0.1\n"
    );
    register_text(name, &text).expect("the pool loads");
    Preset::load(name).unwrap()
}

/// A pour of the material called `name` over the middle of the pool.
fn pour(name: &str) -> Input {
    Input::Pour {
        material: MaterialRef::Name(name.into()),
        centre: Vec2::new(2.0, 2.2),
        radius: 0.3,
        velocity: Vec2::new(0.0, -1.0),
    }
}

fn names(world: &World) -> Vec<&str> {
    world.materials().iter().map(|m| m.name.as_str()).collect()
}

/// Lava poured into a pool that has no heat and no air brings them in, with the rock it makes
/// and the reaction that makes it: the lava quenches where it meets the water, as it does in
/// a scene built with both, and nothing blows up.
#[test]
fn lava_poured_into_a_cold_pool_brings_heat_air_and_the_quench() {
    let preset = pool("arrival-lava");
    let mut world = preset.build_world(1);
    assert!(world.heat().is_none() && world.air().is_none());
    step_frames(&mut world, 5);
    let mut history = History::new();
    for frame in 5..15 {
        history
            .apply(frame, None, &pour("lava"), &mut world)
            .unwrap();
        world.step_frame();
    }
    assert_eq!(names(&world), ["water", "lava", "rock"]);
    let reactions: Vec<&str> = world.reactions().iter().map(|r| r.name.as_str()).collect();
    assert_eq!(reactions, ["quench"]);
    assert!(world.heat().is_some(), "heat joined");
    assert!(world.air().is_some(), "air joined, for the steam");
    step_frames(&mut world, 60);
    let counts = world.reaction_counts();
    let quenched = counts.iter().find(|(n, _)| *n == "quench");
    assert!(quenched.is_some_and(|(_, count)| *count > 0), "{counts:?}");
    let p = world.particles();
    assert!(p.position.iter().all(|x| x.is_finite()));
    assert!(p.velocity.iter().all(|v| v.length() < 20.0));
    // The pool's own water still conducts nothing: what joined is the lava's.
    assert_eq!(world.materials()[0].conductivity, 0.0);
}

/// Pouring a material the world already holds adds nothing but particles; sand poured into
/// the pool brings the soak and the wet sand it makes, and no air (nothing there boils or
/// burns).
#[test]
fn sand_brings_the_soak_and_no_air() {
    let mut world = pool("arrival-sand").build_world(2);
    let mut history = History::new();
    history.apply(0, None, &pour("water"), &mut world).unwrap();
    assert_eq!(names(&world), ["water"]);
    history.apply(1, None, &pour("sand"), &mut world).unwrap();
    assert_eq!(names(&world), ["water", "sand", "wet sand"]);
    assert!(world.air().is_none());
    assert_eq!(world.reactions()[0].name, "soak");
}

/// The window's recording names the material (`pour lava …`); the replay plays back to the
/// recorded checksum, the material joining at the same frame.
#[test]
fn a_pour_is_recorded_by_name_and_replays_bit_for_bit() {
    let preset = pool("arrival-replay");
    let seed = 4;
    let mut world = preset.build_world(seed);
    let mut recorder = Recorder::in_memory(seed);
    recorder.record(&Input::Preset {
        source: "arrival-replay".into(),
        particles: None,
        checksum: world.checksum(),
    });
    let mut history = History::new();
    for frame in 0..40 {
        if (3..9).contains(&frame) {
            let input = pour("lava");
            history.apply(frame, None, &input, &mut world).unwrap();
            recorder.record(&input);
        }
        world.step_frame();
        recorder.frame_done();
    }
    let text = recorder.so_far(world.checksum());
    assert!(text.contains(" pour lava 2 2.2 0.3 0 -1\n"), "{text}");
    let mut player = Player::new(Replay::parse("arrival.replay", &text).unwrap()).unwrap();
    while !player.finished() {
        player.step().unwrap();
    }
    assert_eq!(player.world.checksum(), world.checksum());
    assert_eq!(names(&player.world), names(&world));
}

/// Undo takes out the material a pour brought in, with its heat and air; redo brings it back.
#[test]
fn undo_takes_the_poured_material_out_again() {
    let mut world = pool("arrival-undo").build_world(3);
    step_frames(&mut world, 3);
    let before = world.checksum();
    let mut history = History::new();
    history.apply(3, None, &pour("lava"), &mut world).unwrap();
    step_frames(&mut world, 5);
    let after = world.checksum();
    history.apply(8, None, &Input::Undo, &mut world).unwrap();
    assert_eq!(world.checksum(), before);
    assert_eq!(names(&world), ["water"]);
    assert!(world.heat().is_none() && world.air().is_none());
    history.apply(9, None, &Input::Redo, &mut world).unwrap();
    assert_eq!(world.checksum(), after);
    assert_eq!(names(&world), ["water", "lava", "rock"]);
}

/// The preset a snapshot and F7 save (`Preset::holding`) holds what joined: the snapshot
/// reopens to the same world, which goes on bit for bit; the saved preset, read back, builds
/// a scene with the lava, the rock, the quench and the air.
#[cfg(feature = "cli")]
#[test]
fn a_snapshot_and_the_saved_preset_carry_the_poured_material() {
    let preset = pool("arrival-snapshot");
    let mut world = preset.build_world(5);
    let mut history = History::new();
    for frame in 0..6 {
        history
            .apply(frame, None, &pour("lava"), &mut world)
            .unwrap();
        world.step_frame();
    }
    step_frames(&mut world, 10);
    let held = preset.holding(&world);
    let dir = std::env::temp_dir().join(format!("slosh-arrival-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("lava.snapshot.json");
    slosh::snapshot::save(&path, &held, &world).unwrap();
    let (_, mut reopened) = slosh::snapshot::load(&path).unwrap();
    assert_eq!(reopened.checksum(), world.checksum());
    step_frames(&mut world, 15);
    step_frames(&mut reopened, 15);
    assert_eq!(reopened.checksum(), world.checksum());

    let materials = held.materials_of_world(world.materials(), world.params().substeps);
    let saved = held.edited(&materials, world.obstacles(), world.params().gravity);
    let read = Preset::parse("saved.toml", &saved.to_toml()).unwrap();
    let scene = &read.scene;
    let read_names: Vec<&str> = scene.materials.iter().map(|m| m.name.as_str()).collect();
    assert_eq!(read_names, ["water", "lava", "rock"]);
    assert_eq!(scene.reactions.len(), 1);
    assert!(scene.air.is_some());
    // Its lava is the library's.
    let library = slosh::preset::library::library().material("lava").unwrap();
    assert_eq!(&read.reference().materials[1], library);
}

/// A name with a space is quoted on a replay line and read back whole; an index still reads
/// as an index (older replays); a name no material has is refused with the nearest one, and
/// changes nothing.
#[test]
fn pour_lines_name_materials_and_unknown_names_are_refused() {
    let line = pour("wet sand").to_line();
    assert_eq!(line, "pour \"wet sand\" 2 2.2 0.3 0 -1");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(Input::parse(&words).unwrap(), pour("wet sand"));
    let old = Input::parse(&["pour", "0", "1", "1", "0.3", "0", "0"]).unwrap();
    assert!(matches!(
        old,
        Input::Pour {
            material: MaterialRef::Index(0),
            ..
        }
    ));
    let unclosed = Input::parse(&["pour", "\"wet", "sand", "1", "1", "0.3", "0", "0"]);
    assert!(unclosed.unwrap_err().message.contains("no closing quote"));

    let mut world = pool("arrival-names").build_world(6);
    let before = world.checksum();
    let refused = History::new()
        .apply(0, None, &pour("lavaa"), &mut world)
        .unwrap_err();
    assert!(
        refused.to_string().contains("the nearest is `lava`"),
        "{refused}"
    );
    assert!(matches!(refused, EditError::Arrival(_)));
    assert_eq!(world.checksum(), before);
    assert_eq!(names(&world), ["water"]);
}

/// A level pours only its own materials: the palette offers no others there, and a pour that
/// names one is refused by the level's rules, leaving the world as it was.
#[test]
fn a_level_pours_only_its_own_materials() {
    let preset = Preset::load("first-pour").unwrap();
    let mut world = preset.build_world(1);
    let level = preset.level.clone().unwrap();
    let mut attempt = slosh::level::Attempt::new(level, &world).unwrap();
    let refused = slosh::level::Attempt::apply(Some(&mut attempt), &pour("lava"), &mut world);
    let refused = refused.unwrap_err();
    assert!(
        refused.to_string().contains("its own materials"),
        "{refused}"
    );
    assert!(names(&world).iter().all(|name| *name != "lava"));
}

/// A crate from the palette lands in the pool and floats (the library's crate is half as dense
/// as water), the water under it making room; a second is named `crate 2`; one placed through
/// the wall is refused and changes nothing. The grab tool throws it. The line reads back, undo
/// takes the crate away, and a snapshot with the preset `holding` it reopens bit for bit.
#[cfg(all(feature = "bodies", feature = "cli"))]
#[test]
fn a_crate_from_the_palette_floats_is_thrown_undone_and_saved() {
    let preset = pool("arrival-crate");
    let mut world = preset.build_world(7);
    step_frames(&mut world, 10);
    let before = world.checksum();
    let mut history = History::new();
    let place = |x: f32, y: f32| Input::Body {
        name: "crate".into(),
        position: Vec2::new(x, y),
    };
    let line = place(1.2, 1.0).to_line();
    assert_eq!(line, "body crate 1.2 1");
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(Input::parse(&words).unwrap(), place(1.2, 1.0));
    // Placed half under the water: the particles where it lands make room for it.
    let water = world.particles().len();
    history
        .apply(10, None, &place(1.2, 1.0), &mut world)
        .unwrap();
    assert!(
        world.particles().len() < water,
        "the crate took the water's place"
    );
    history
        .apply(11, None, &place(2.8, 2.0), &mut world)
        .unwrap();
    let names: Vec<&str> = (world.bodies().unwrap().specs().iter())
        .map(|b| b.name.as_str())
        .collect();
    assert_eq!(names, ["crate", "crate 2"]);
    let through = history.apply(12, None, &place(3.9, 2.0), &mut world);
    assert!(matches!(through, Err(EditError::NoRoom(_))), "{through:?}");
    assert_eq!(world.bodies().unwrap().len(), 2);
    step_frames(&mut world, 80);
    let states = world.bodies().unwrap().states();
    for state in &states {
        assert!(state.position.is_finite());
        // The pool is 1 m deep: a floating crate rides near its surface, not on the floor.
        assert!(state.position.y > 0.7, "{state:?}");
    }
    let p = world.particles();
    assert!(p.position.iter().all(|x| x.is_finite()));
    // Thrown by the grab tool.
    let first = states[0].position;
    world.grab_body(first).unwrap();
    world.drag_body(first + Vec2::new(0.0, 1.0)).unwrap();
    step_frames(&mut world, 5);
    world.release_body();
    assert!(world.bodies().unwrap().states()[0].position.y > first.y + 0.2);
    // Saved and reopened.
    let held = preset.holding(&world);
    assert_eq!(held.scene.bodies.len(), 2);
    let dir = std::env::temp_dir().join(format!("slosh-arrival-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("crate.snapshot.json");
    slosh::snapshot::save(&path, &held, &world).unwrap();
    let (_, mut reopened) = slosh::snapshot::load(&path).unwrap();
    assert_eq!(reopened.checksum(), world.checksum());
    step_frames(&mut world, 10);
    step_frames(&mut reopened, 10);
    assert_eq!(reopened.checksum(), world.checksum());
    // Undo, back past both placements, takes the crates away.
    let mut undone = preset.build_world(7);
    step_frames(&mut undone, 10);
    let mut history = History::new();
    history
        .apply(10, None, &place(1.2, 1.0), &mut undone)
        .unwrap();
    history.apply(11, None, &Input::Undo, &mut undone).unwrap();
    assert_eq!(undone.checksum(), before);
    assert!(undone.bodies().is_none());
}

/// The cap the window's automatic resolution records (`cap N`) reads back, stops pours at it,
/// removes nothing below it, and replays; out of range it is refused.
#[test]
fn a_recorded_cap_stops_the_pour_and_removes_nothing() {
    let cap = Input::Cap(300);
    assert_eq!(cap.to_line(), "cap 300");
    assert_eq!(Input::parse(&["cap", "300"]).unwrap(), cap);
    let mut world = pool("arrival-cap").build_world(8);
    let held = world.particles().len();
    assert!(held > 300, "{held}");
    let mut history = History::new();
    history.apply(0, None, &cap, &mut world).unwrap();
    assert_eq!(world.params().max_particles, 300);
    assert_eq!(world.particles().len(), held, "none removed");
    history.apply(1, None, &pour("water"), &mut world).unwrap();
    assert_eq!(world.particles().len(), held, "no pour past the cap");
    let refused = history.apply(2, None, &Input::Cap(0), &mut world);
    assert!(
        matches!(refused, Err(EditError::OutOfRange { .. })),
        "{refused:?}"
    );
}
