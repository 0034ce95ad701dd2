//! The levels: each one's solution replay meets its goal, doing nothing does not, and a level
//! file's mistakes are named by file and line.

use slosh::headless::{self, HeadlessOptions};
use slosh::level::{Attempt, Goal, Outcome, BUILTIN};
use slosh::preset::Preset;
use slosh::replay::Input;
use std::path::PathBuf;

fn solution(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("assets/levels/{name}.replay"))
}

#[test]
fn there_are_eight_levels_or_more_and_each_uses_a_different_tool_or_part() {
    assert!(BUILTIN.len() >= 8, "{} levels", BUILTIN.len());
    let mut kinds = std::collections::BTreeSet::new();
    for (name, _) in BUILTIN {
        let preset = Preset::load(name).unwrap();
        let level = preset.level.expect("every level has [level]");
        kinds.extend(level.goals.iter().map(Goal::kind));
        // Each level's name is its file's `name`, so that a replay's `preset` line finds it.
        assert_eq!(&preset.name, name);
    }
    for kind in ["fill", "keep_out", "body", "temperature", "turn", "survive"] {
        assert!(kinds.contains(kind), "no level has a `{kind}` goal");
    }
}

/// `cargo test` plays each level's shipped solution: it ends at its recorded checksum (a
/// level file changed under it fails here) with the goal met.
#[test]
fn every_solution_replay_meets_its_goal() {
    for (name, _) in BUILTIN {
        let report = headless::replay(&solution(name), Some(2))
            .unwrap_or_else(|error| panic!("{name}: {error}"));
        let goal = report
            .goal
            .unwrap_or_else(|| panic!("{name}: no goal in the report"));
        assert!(
            goal.met,
            "{name}: the solution does not meet the goal: {goal:?}"
        );
        assert!((1..=3).contains(&goal.stars), "{name}: {goal:?}");
        assert_eq!(report.preset, *name);
    }
}

/// Doing nothing does not meet any level's goal: each is lost, or has not been met, when its
/// time runs out.
#[test]
fn doing_nothing_meets_no_goal() {
    for (name, _) in BUILTIN {
        let preset = Preset::load(name).unwrap();
        let mut world = preset.build_world(1);
        let mut attempt = Attempt::new(preset.level.clone().unwrap(), &world).unwrap();
        while attempt.outcome().is_none() {
            world.step_frame();
            attempt.observe(&world);
        }
        assert!(
            matches!(attempt.outcome(), Some(Outcome::Lost(_))),
            "{name}: doing nothing gave {:?}",
            attempt.outcome()
        );
        assert!(!attempt.report().met);
    }
}

/// `--level NAME --headless` runs the level to its time limit and reports the goal.
#[test]
fn a_headless_level_runs_to_its_time_limit_and_reports_its_goal() {
    let report = headless::run(&HeadlessOptions {
        preset: "crate-lift".into(),
        frames: 0,
        level: true,
        threads: Some(2),
        ..HeadlessOptions::default()
    })
    .unwrap();
    // 60 s at 20 frames a second.
    assert_eq!(report.frames, 1200);
    let goal = report.goal.clone().unwrap();
    assert!(!goal.met && goal.stars == 0, "{goal:?}");
    assert!((goal.seconds - 60.0).abs() < 1e-3, "{goal:?}");
    let json = serde_json::to_value(report_json(&report)).unwrap();
    for field in ["met", "progress", "stars", "seconds"] {
        assert!(json["goal"].get(field).is_some(), "goal.{field} in {json}");
    }
    // A preset is not a level.
    let error = headless::run(&HeadlessOptions {
        preset: "dam".into(),
        frames: 0,
        level: true,
        ..HeadlessOptions::default()
    })
    .unwrap_err();
    assert!(error.contains("is a preset, not a level"), "{error}");
}

fn report_json(report: &headless::Report) -> serde_json::Value {
    serde_json::from_str(&report.to_json()).unwrap()
}

/// A level's rules hold: a tool it does not allow is refused, and a spent budget stops the
/// tool that spends it.
#[test]
fn a_level_refuses_other_tools_and_stops_a_spent_budget() {
    let preset = Preset::load("dry-village").unwrap();
    let mut world = preset.build_world(1);
    let mut attempt = Attempt::new(preset.level.clone().unwrap(), &world).unwrap();
    let stir = Input::Stir(slosh::sim::Stir {
        position: glam::Vec2::new(3.0, 2.0),
        velocity: glam::Vec2::new(1.0, 0.0),
        radius: 1.0,
    });
    let refused = attempt.admits(&stir).unwrap_err();
    assert_eq!(refused, slosh::level::LevelError::NotATool("stir"));
    assert_eq!(refused.to_string(), "stir is not a tool of this level");
    // The wall budget is 7 m: two 4 m walls do not fit.
    let wall = |y: f32| {
        Input::Draw(slosh::sim::Obstacle::capsule(
            glam::Vec2::new(2.0, y),
            glam::Vec2::new(6.0, y),
            0.2,
            0.0,
        ))
    };
    let first = wall(5.0);
    attempt.admits(&first).unwrap();
    let before = world.particles().len();
    first.apply(&mut world).unwrap();
    attempt.spend(&first, before, &world);
    assert!((attempt.spent().walls - 4.0).abs() < 1e-4);
    let refused = attempt.admits(&wall(6.5)).unwrap_err();
    assert_eq!(refused, slosh::level::LevelError::BudgetSpent("draw"));
    let left = attempt.budget_left()[1].unwrap();
    assert!((left - 3.0 / 7.0).abs() < 1e-5, "{left}");
}

/// Mistakes in a level file are named with the file, the line and the field.
#[test]
fn level_file_mistakes_are_named_by_line() {
    let good = BUILTIN
        .iter()
        .find(|(name, _)| *name == "first-pour")
        .unwrap()
        .1;
    let cases = [
        (
            "material = \"water\"\nzone = [6.85",
            "material = \"mud\"\nzone = [6.85",
            "goals[1].material",
            "no material `mud`",
        ),
        (
            "fraction = 0.8",
            "fraction = 1.8",
            "goals[1].fraction",
            "at most 1",
        ),
        (
            "zone = [6.85, 0.72, 9.15, 1.8]",
            "zone = [6.85, 0.72, 19.15, 1.8]",
            "goals[1].zone",
            "outside the box",
        ),
        (
            "time_limit = 60.0",
            "time_limit = 6000.0",
            "level.time_limit",
            "at most 600",
        ),
        (
            "tools = [\"pour\"]",
            "tools = [\"hammer\"]",
            "level.tools",
            "unknown variant",
        ),
        (
            "kind = \"fill\"",
            "kind = \"flood\"",
            "goals",
            "unknown variant",
        ),
    ];
    for (from, to, field, message) in cases {
        assert!(
            good.contains(from),
            "the case's text `{from}` is in the level"
        );
        let text = good.replacen(from, to, 1);
        let error = Preset::parse("bad.toml", &text).unwrap_err().to_string();
        assert!(error.starts_with("bad.toml:"), "{error}");
        assert!(error.contains(field), "{field} in: {error}");
        assert!(error.contains(message), "{message} in: {error}");
        let line = error.split(':').nth(1).unwrap();
        assert!(line.parse::<usize>().is_ok(), "a line number in: {error}");
    }
}

/// `--list-levels` prints one level a line, its name first, then its title; `--level` with a
/// preset that is no level is one line and exit code 2.
#[test]
fn the_command_line_lists_levels_and_refuses_a_preset_as_one() {
    let slosh = env!("CARGO_BIN_EXE_slosh");
    let output = std::process::Command::new(slosh)
        .arg("--list-levels")
        .output()
        .unwrap();
    assert!(output.status.success());
    let text = String::from_utf8(output.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), BUILTIN.len(), "{text}");
    for ((name, _), line) in BUILTIN.iter().zip(&lines) {
        let title = Preset::load(name).unwrap().level.unwrap().rules.title;
        assert_eq!(line.split_whitespace().next(), Some(*name), "{line}");
        assert!(line.trim_end().ends_with(&title), "{line}");
    }
    let refused = std::process::Command::new(slosh)
        .args(["--headless", "--level", "dam"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let error = String::from_utf8(refused.stderr).unwrap();
    assert_eq!(error.lines().count(), 1, "{error}");
    assert!(error.contains("is a preset, not a level"), "{error}");
}
