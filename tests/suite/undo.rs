//! Undo and redo (`replay::History`): an undo returns the world to the state before the edit,
//! time included, and the liquid continues bit for bit from there; a stroke is one step; at
//! least 32 steps are kept within a bounded memory; a replay with `undo` and `redo` lines plays
//! back to its checksum.

use crate::common::step_frames;
use glam::Vec2;
use slosh::input::MaterialRef;
use slosh::preset::Preset;
use slosh::replay::{build, History, Input, Player, Recorder, Replay};
use slosh::sim::{EditError, Obstacle};

fn pour_at(x: f32) -> Input {
    Input::Pour {
        material: MaterialRef::Index(0),
        centre: Vec2::new(x, 6.0),
        radius: 0.4,
        velocity: Vec2::ZERO,
    }
}

#[test]
fn undo_returns_the_world_before_the_edit_and_it_goes_on_bit_for_bit() {
    let (_, mut world) = build("dam", None, 3).unwrap();
    let mut history = History::new();
    step_frames(&mut world, 10);
    let before = world.clone();
    let (checksum, time) = (world.checksum(), world.time());
    let wall = Obstacle::capsule(Vec2::new(3.0, 4.0), Vec2::new(6.0, 4.5), 0.15, 0.5);
    history
        .apply(10, None, &Input::Draw(wall), &mut world)
        .unwrap();
    step_frames(&mut world, 15);
    let after = world.checksum();
    history.apply(25, None, &Input::Undo, &mut world).unwrap();
    assert_eq!(world.checksum(), checksum, "the world before the draw");
    assert_eq!(world.time(), time, "time went back with it");
    assert!(world.obstacles().len() < 1 + before.obstacles().len());
    // It goes on as if the wall had never been drawn.
    let mut never = before;
    step_frames(&mut never, 20);
    let mut undone = world.clone();
    step_frames(&mut undone, 20);
    assert_eq!(undone.checksum(), never.checksum());
    // Redo: the world as it was when undone, wall and all.
    history.apply(26, None, &Input::Redo, &mut world).unwrap();
    assert_eq!(world.checksum(), after);
    assert_eq!(history.steps(), (1, 0));
    // Nothing more to redo: refused, and nothing changes.
    let refused = history.apply(27, None, &Input::Redo, &mut world);
    assert!(matches!(refused, Err(EditError::Refused(_))), "{refused:?}");
    assert_eq!(world.checksum(), after);
}

/// Pours in consecutive frames are one stroke, one step; a pour after a gap is another.
#[test]
fn a_stroke_is_one_step() {
    let (_, mut world) = build("dam", None, 1).unwrap();
    let start = world.checksum();
    let mut history = History::new();
    for frame in 0..8 {
        history
            .apply(frame, None, &pour_at(2.0 + 0.2 * frame as f32), &mut world)
            .unwrap();
        world.step_frame();
    }
    assert_eq!(history.steps(), (1, 0), "one stroke");
    history.apply(20, None, &pour_at(8.0), &mut world).unwrap();
    assert_eq!(history.steps(), (2, 0), "a second stroke after a gap");
    history.apply(21, None, &Input::Undo, &mut world).unwrap();
    history.apply(21, None, &Input::Undo, &mut world).unwrap();
    assert_eq!(world.checksum(), start, "both strokes undone");
    // A new edit drops what could be redone.
    history.apply(22, None, &pour_at(5.0), &mut world).unwrap();
    assert_eq!(history.steps(), (1, 0));
}

/// 40 edits keep at least 32 steps, and the memory they take is counted: each step about a
/// world's size (`world_bytes`).
#[test]
fn at_least_32_steps_are_kept_and_counted() {
    let (_, mut world) = build("dam", None, 1).unwrap();
    let mut history = History::new();
    let first = world.checksum();
    for edit in 0..40 {
        let at = Vec2::new(1.0 + 0.4 * (edit % 20) as f32, 4.0 + (edit / 20) as f32);
        let input = Input::Draw(Obstacle::circle(at, 0.05, 0.5));
        // Each a frame apart from the last but a draw, which is always a step of its own.
        history.apply(edit, None, &input, &mut world).unwrap();
    }
    let (undos, _) = history.steps();
    assert_eq!(undos, 40, "well within the memory bound, all are kept");
    let bytes = history.bytes();
    let one = slosh::replay::world_bytes(&world);
    assert!(
        bytes >= 40 * one / 2 && bytes <= 40 * one * 2,
        "{bytes} for 40 of {one}"
    );
    for _ in 0..40 {
        history.apply(40, None, &Input::Undo, &mut world).unwrap();
    }
    assert_eq!(world.checksum(), first);
}

/// A level is played without undo.
#[test]
fn a_level_refuses_undo() {
    let preset = Preset::load("first-pour").unwrap();
    let mut world = preset.build_world(1);
    let mut attempt = slosh::replay::attempt_at(&preset, &world).unwrap();
    let mut history = History::new();
    let refused = history.apply(0, attempt.as_mut(), &Input::Undo, &mut world);
    assert!(
        matches!(&refused, Err(EditError::Refused(why)) if why.contains("level")),
        "{refused:?}"
    );
}

/// A run with undos and redos, recorded as the window records it, replays to its checksum,
/// through the text of the file too.
#[test]
fn a_replay_with_undo_and_redo_plays_back_to_its_checksum() {
    let seed = 2;
    let (_, mut world) = build("dam", None, seed).unwrap();
    let mut recorder = Recorder::in_memory(seed);
    recorder.record(&Input::Preset {
        source: "dam".into(),
        particles: None,
        checksum: world.checksum(),
    });
    let mut history = History::new();
    let script = |frame: u64| -> Vec<Input> {
        match frame {
            5..=9 => vec![pour_at(3.0 + 0.1 * frame as f32)],
            12 => vec![Input::Undo],
            15 => vec![Input::Redo],
            20 => vec![Input::Gravity(Vec2::new(3.0, -9.0))],
            24 => vec![Input::Undo],
            30 => vec![Input::Undo, Input::Redo, Input::Undo],
            _ => vec![],
        }
    };
    let mut undone = 0;
    for frame in 0..40 {
        for input in script(frame) {
            if history.apply(frame, None, &input, &mut world).is_ok() {
                recorder.record(&input);
                undone += u32::from(input == Input::Undo);
            }
        }
        world.step_frame();
        recorder.frame_done();
    }
    assert!(undone >= 3, "the undos did something");
    let text = recorder.so_far(world.checksum());
    assert!(
        text.contains(" undo\n") && text.contains(" redo\n"),
        "{text}"
    );
    let replay = Replay::parse("undo.replay", &text).unwrap();
    let mut player = Player::new(replay).unwrap();
    while !player.finished() {
        player.step().unwrap();
    }
    assert_eq!(player.world.checksum(), world.checksum());
}
