//! Checking a level against the scene it is played in: every value in its range, every name the
//! scene's, every zone inside the box.

use super::description::{Budget, Goal, Level, Zone};
use crate::sim::scene::ranges::Step::{self, Index, Key};
use crate::sim::Scene;

/// Longest time limit a level may give, in seconds: a level is played in a few minutes.
pub const MAX_TIME_LIMIT: f32 = 600.0;

/// Checks `level` against `scene`: the problem's path in the file and what is wrong, or `Ok`.
pub fn check(level: &Level, scene: &Scene) -> Result<(), (Vec<Step>, String)> {
    let at = |steps: &[Step], message: String| Err((steps.to_vec(), message));
    let rules = &level.rules;
    for (key, text) in [
        ("title", &rules.title),
        ("teaches", &rules.teaches),
        ("hint", &rules.hint),
    ] {
        if text.trim().is_empty() || text.chars().any(char::is_control) {
            return at(&[Key("level"), Key(key)], "must be one line of text".into());
        }
    }
    if !(rules.time_limit > 0.0 && rules.time_limit <= MAX_TIME_LIMIT) {
        return at(
            &[Key("level"), Key("time_limit")],
            format!(
                "must be above 0 and at most {MAX_TIME_LIMIT} s, got {}",
                rules.time_limit
            ),
        );
    }
    if !(rules.par_seconds > 0.0 && rules.par_seconds <= rules.time_limit) {
        return at(
            &[Key("level"), Key("par_seconds")],
            format!(
                "must be above 0 and at most the time limit ({} s), got {}",
                rules.time_limit, rules.par_seconds
            ),
        );
    }
    if !(0.0..=1.0).contains(&rules.par_budget) {
        return at(
            &[Key("level"), Key("par_budget")],
            format!("must be from 0 to 1, got {}", rules.par_budget),
        );
    }
    if rules.tools.is_empty() {
        return at(
            &[Key("level"), Key("tools")],
            "names no tool: a level needs at least one".into(),
        );
    }
    let Budget { pour, walls, erase } = rules.budget;
    for (key, value) in [("pour", pour), ("walls", walls), ("erase", erase)] {
        if let Some(value) = value {
            if !(value > 0.0 && value.is_finite()) {
                return at(
                    &[Key("level"), Key("budget"), Key(key)],
                    format!("must be above 0, got {value}"),
                );
            }
        }
    }
    if level.goals.is_empty() {
        return at(&[Key("goals")], "a level needs at least one goal".into());
    }
    if level
        .goals
        .iter()
        .all(|goal| matches!(goal, Goal::KeepOut { .. }))
    {
        return at(
            &[Key("goals")],
            "needs a goal to reach besides keeping something out (survive, for one)".into(),
        );
    }
    let (low, high) = (scene.domain.min(), scene.domain.max());
    let material = |name: &str, index: usize| -> Result<(), (Vec<Step>, String)> {
        if scene.materials.iter().any(|material| material.name == name) {
            return Ok(());
        }
        at(
            &[Key("goals"), Index(index), Key("material")],
            format!("no material `{name}` in the scene"),
        )
    };
    let zone = |zone: &Zone, index: usize| -> Result<(), (Vec<Step>, String)> {
        let finite = zone.min.is_finite() && zone.max.is_finite();
        if !finite || zone.min.x >= zone.max.x || zone.min.y >= zone.max.y {
            return at(
                &[Key("goals"), Index(index), Key("zone")],
                "must be [left, bottom, right, top] with left < right and bottom < top".into(),
            );
        }
        if zone.min.cmplt(low).any() || zone.max.cmpgt(high).any() {
            return at(
                &[Key("goals"), Index(index), Key("zone")],
                format!(
                    "reaches outside the box ([{}, {}, {}, {}])",
                    low.x, low.y, high.x, high.y
                ),
            );
        }
        Ok(())
    };
    let share = |value: f32, index: usize, key: &'static str| -> Result<(), (Vec<Step>, String)> {
        if value > 0.0 && value <= 1.0 {
            return Ok(());
        }
        at(
            &[Key("goals"), Index(index), Key(key)],
            format!("must be above 0 and at most 1, got {value}"),
        )
    };
    let body = |name: &str, index: usize| -> Result<usize, (Vec<Step>, String)> {
        match scene.bodies.iter().position(|body| body.name == name) {
            Some(found) => Ok(found),
            None => Err((
                vec![Key("goals"), Index(index), Key("body")],
                format!("no body `{name}` in the scene"),
            )),
        }
    };
    for (index, goal) in level.goals.iter().enumerate() {
        match goal {
            Goal::Fill {
                material: name,
                zone: area,
                fraction,
            } => {
                material(name, index)?;
                zone(area, index)?;
                share(*fraction, index, "fraction")?;
            }
            Goal::KeepOut {
                material: name,
                zone: area,
                most,
            } => {
                material(name, index)?;
                zone(area, index)?;
                if !(0.0..1.0).contains(most) {
                    return at(
                        &[Key("goals"), Index(index), Key("most")],
                        format!("must be from 0 to below 1, got {most}"),
                    );
                }
            }
            Goal::Body {
                body: name,
                zone: area,
            } => {
                body(name, index)?;
                zone(area, index)?;
            }
            Goal::Temperature {
                material: name,
                zone: area,
                above,
                below,
                fraction,
            } => {
                material(name, index)?;
                if let Some(area) = area {
                    zone(area, index)?;
                }
                share(*fraction, index, "fraction")?;
                let given = [above, below].iter().filter(|t| t.is_some()).count();
                if given != 1 {
                    return at(
                        &[Key("goals"), Index(index)],
                        "give one of `above` and `below`".into(),
                    );
                }
                if let Some(t) = above.or(*below) {
                    if !(-273.0..=5000.0).contains(&t) {
                        return at(
                            &[Key("goals"), Index(index), Key("above")],
                            format!("must be from -273 to 5000 °C, got {t}"),
                        );
                    }
                }
            }
            Goal::Turn { body: name, turns } => {
                let found = body(name, index)?;
                if !scene.hinges.iter().any(|hinge| hinge.body == found) {
                    return at(
                        &[Key("goals"), Index(index), Key("body")],
                        format!("`{name}` turns on no hinge"),
                    );
                }
                if !(*turns > 0.0 && *turns <= 100.0) {
                    return at(
                        &[Key("goals"), Index(index), Key("turns")],
                        format!("must be above 0 and at most 100, got {turns}"),
                    );
                }
            }
            Goal::Survive { seconds } => {
                if !(*seconds > 0.0 && *seconds <= rules.time_limit) {
                    return at(
                        &[Key("goals"), Index(index), Key("seconds")],
                        format!(
                            "must be above 0 and at most the time limit ({} s), got {seconds}",
                            rules.time_limit
                        ),
                    );
                }
            }
        }
    }
    Ok(())
}
