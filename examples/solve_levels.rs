//! Plays every level through the window's own tools (the game without its window: the same
//! tool code, ring, tilt speed and rules) by a scripted hand, and writes each play as the
//! level's solution replay, `assets/levels/NAME.replay`, which `cargo test` plays back.
//!
//! `cargo run --release --example solve_levels` writes them all; `-- NAME` only one. A level
//! whose file changed so that its play no longer meets the goal says so and exits 1: change the
//! play below (or the level) until it does.

use glam::Vec2;
use slosh::app::{Command, FrameInput, Game, PresetSource, Resolution, Scale, Tool};
use slosh::level::{Outcome, BUILTIN};
use slosh::preset::Preset;
use slosh::sim::numerics::portable::{unit_vector, Ordered};
use slosh::sim::Stir;
use std::process::ExitCode;

/// Frames played after the goal is met, so that a replay shows the win.
const AFTER_WIN: u64 = 20;

fn main() -> ExitCode {
    let only: Option<String> = std::env::args().nth(1);
    let mut failed = false;
    for (name, _) in BUILTIN {
        if only.as_deref().is_some_and(|only| only != *name) {
            continue;
        }
        match solve(name) {
            Ok((seconds, stars, frames)) => {
                println!("{name}: met after {seconds:.2} s, {stars} stars ({frames} frames)")
            }
            Err(why) => {
                println!("{name}: NOT SOLVED: {why}");
                failed = true;
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// Plays level `name` by its script; writes its replay once the goal is met.
fn solve(name: &str) -> Result<(f64, u8, u64), String> {
    let preset = Preset::load(name).map_err(|error| error.to_string())?;
    let source = PresetSource::Builtin {
        name: name.into(),
        key: 0,
    };
    let recorder = slosh::replay::Recorder::in_memory(1);
    let mut game = Game::with_inputs(
        preset,
        source,
        1,
        Resolution::Own,
        Scale::default(),
        Some(recorder),
        None,
    );
    let mut won_at = None;
    for frame in 0..10_000u64 {
        let input = play(name, frame, &mut game);
        game.step(input);
        let attempt = game.recording.attempt.as_ref().ok_or("not a level")?;
        match attempt.outcome() {
            Some(Outcome::Won { .. }) if won_at.is_none() => won_at = Some(frame),
            Some(Outcome::Lost(why)) => {
                let world = &game.session.world;
                let stats: Vec<String> = (world.materials().iter().zip(world.material_stats()))
                    .map(|(m, s)| format!("{} {} at {}", m.name, s.particles, s.centroid))
                    .collect();
                return Err(format!(
                    "lost after {frame} frames: {why} (progress {:?}; {})",
                    attempt.goal_progress(),
                    stats.join(", ")
                ));
            }
            _ => {}
        }
        if won_at.is_some_and(|won| frame >= won + AFTER_WIN) {
            let Some(Outcome::Won { seconds, stars }) = attempt.outcome().cloned() else {
                unreachable!("won above");
            };
            let text = game.replay_so_far().map_err(str::to_string)?;
            let path = format!("assets/levels/{name}.replay");
            std::fs::write(&path, text).map_err(|error| format!("{path}: {error}"))?;
            return Ok((seconds, stars, frame + 1));
        }
    }
    Err("the script ran out".into())
}

/// What the scripted hand does at `frame` of level `name`: tools picked and presses made on
/// `game` directly, and the mouse's frame input returned.
fn play(name: &str, frame: u64, game: &mut Game) -> FrameInput {
    let seconds = frame as f32 / 20.0;
    let none = FrameInput::default();
    match name {
        // Pour just above the cup, moving the hand a little from side to side.
        "first-pour" => {
            if frame == 0 {
                game.apply(Command::SelectTool(Tool::Pour));
            }
            let sway = sin(seconds * 2.0) * 0.4;
            FrameInput {
                pour: Some((Vec2::new(8.0 + sway, 2.6), Vec2::ZERO)),
                ..none
            }
        }
        // Pull the water up the right wall into the basin.
        "wake-up" => {
            let phase = seconds % 4.0;
            if phase < 2.5 {
                FrameInput {
                    pull: Some(Vec2::new(10.0, 3.6)),
                    ..none
                }
            } else {
                FrameInput {
                    stir: Some(Stir {
                        position: Vec2::new(4.0, 0.8),
                        velocity: Vec2::new(6.0, 2.0),
                        radius: game.tools.stir_radius,
                    }),
                    ..none
                }
            }
        }
        // A slanted wall over the village sends the stream back left.
        "dry-village" => {
            if frame == 0 {
                game.apply(Command::SelectTool(Tool::Draw));
                game.draw(Vec2::new(7.0, 3.6), Vec2::new(11.6, 6.0));
            }
            none
        }
        // Tip the box right until the water climbs into the jug, then back.
        "tip-it" => {
            if seconds < 3.0 {
                game.turn_gravity(-0.04);
            } else if (6.0..9.0).contains(&seconds) {
                game.turn_gravity(0.04);
            }
            none
        }
        // Take the crate and carry it onto the shelf.
        "crate-lift" => {
            if frame == 20 {
                game.apply(Command::SelectTool(Tool::Grab));
                let at = game.session.world.bodies().unwrap().state(0).position;
                game.grab_body(at);
            }
            if (20..80).contains(&frame) {
                let start = Vec2::new(2.5, 2.4);
                let target = Vec2::new(10.4, 5.7);
                let t = ((frame - 20) as f32 / 40.0).at_most(1.0);
                let lift = Vec2::new(0.0, 2.5 * sin(std::f32::consts::PI * t));
                return FrameInput {
                    drag: Some(start.lerp(target, t) + lift),
                    ..none
                };
            }
            if frame == 80 {
                game.release_body();
            }
            none
        }
        // Pour onto the paddles right of the axle.
        "mill-race" => {
            if frame == 0 {
                game.apply(Command::SelectTool(Tool::Pour));
            }
            FrameInput {
                pour: Some((Vec2::new(7.0, 6.8), Vec2::new(0.0, -1.0))),
                ..none
            }
        }
        // Stir the air under the cloud toward the barrel.
        "rain-barrel" => FrameInput {
            stir: Some(Stir {
                position: Vec2::new(3.0, 5.0),
                velocity: Vec2::new(8.0, 1.0),
                radius: game.tools.stir_radius,
            }),
            ..none
        },
        // Heat along the pond from end to end, and stir now and then.
        "thaw" => {
            if frame == 0 {
                game.apply(Command::SelectTool(Tool::Heat));
            }
            let x = 4.0 + 3.2 * sin(seconds * 0.8);
            if frame % 40 < 30 {
                FrameInput {
                    heat: Some((Vec2::new(x, 2.2), slosh::app::HEAT_RATE)),
                    ..none
                }
            } else {
                FrameInput {
                    stir: Some(Stir {
                        position: Vec2::new(x, 1.0),
                        velocity: Vec2::new(3.0, 0.0),
                        radius: game.tools.stir_radius,
                    }),
                    ..none
                }
            }
        }
        // Light the dam's top for two seconds: it burns down by itself before the spring starts.
        "wood-dam" => {
            if frame == 0 {
                game.apply(Command::SelectTool(Tool::Heat));
            }
            if seconds >= 2.0 {
                return none;
            }
            FrameInput {
                heat: Some((Vec2::new(3.25, 1.4), slosh::app::HEAT_RATE)),
                ..none
            }
        }
        // A chute from under the hopper to over the bin's wall, 40° steep (5.2 down over 6.25).
        "sand-bin" => {
            if frame == 0 {
                game.apply(Command::SelectTool(Tool::Draw));
                game.draw(Vec2::new(0.45, 7.2), Vec2::new(6.7, 2.0));
            }
            none
        }
        _ => none,
    }
}

/// sin x, the same bits on every machine (the platform's `sin` is not).
fn sin(x: f32) -> f32 {
    unit_vector(x).y
}
