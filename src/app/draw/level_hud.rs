//! What a level adds to the picture: its zones over the world, each with how far its goal is;
//! its progress bar and budgets in the HUD, its goals in the help overlay; the end screen with
//! its stars, and the level menu.

use super::text::{fit, DIM, FONT, TEXT, WARN};
use super::view::View;
use crate::app::game::Game;
use crate::level::{self, Goal, Outcome};
use crate::sim::numerics::portable::Ordered;
use macroquad::prelude::{
    draw_line, draw_rectangle, draw_rectangle_lines, draw_text, draw_triangle, measure_text,
    screen_height, screen_width, Color, Rect, Vec2,
};

const PANEL: Color = Color::new(0.04, 0.05, 0.08, 0.82);
const GOOD: Color = Color::new(0.35, 0.9, 0.45, 1.0);
const BAD: Color = Color::new(1.0, 0.35, 0.3, 1.0);
const GOLD: Color = Color::new(1.0, 0.8, 0.2, 1.0);
/// The titles' size.
const TITLE: f32 = 28.0;

/// The zones of the level's goals over the world: green where something must go, with how far
/// that goal is, red where it must not.
pub fn draw_zones(view: &View, game: &Game) {
    let Some(attempt) = game.attempt() else {
        return;
    };
    for (goal, &progress) in attempt.level().goals.iter().zip(attempt.goal_progress()) {
        let Some(zone) = goal.zone() else { continue };
        let keep_out = matches!(goal, Goal::KeepOut { .. });
        let colour = if keep_out { BAD } else { GOOD };
        let a = view.to_screen(zone.min);
        let b = view.to_screen(zone.max);
        let (left, top) = (a.x.at_most(b.x), a.y.at_most(b.y));
        let (width, height) = ((a.x - b.x).abs(), (a.y - b.y).abs());
        draw_rectangle(left, top, width, height, with_alpha(colour, 0.12));
        draw_rectangle_lines(left, top, width, height, 2.0, with_alpha(colour, 0.85));
        let label = match goal {
            Goal::KeepOut { .. } => "keep out".to_string(),
            _ if progress >= 1.0 => "goal: done".to_string(),
            _ => format!("goal {:.0}%", 100.0 * progress),
        };
        draw_text(
            label,
            left + 4.0,
            top + f32::from(FONT),
            18.0,
            with_alpha(colour, 0.95),
        );
    }
}

/// What is left of the level's budgets, as the HUD's tool line says it ("pour 80% left").
pub fn budgets(game: &Game) -> Vec<String> {
    let Some(attempt) = game.attempt() else {
        return Vec::new();
    };
    ["pour", "walls", "erase"]
        .iter()
        .zip(attempt.budget_left())
        .filter_map(|(name, left)| left.map(|left| format!("{name} {:.0}% left", 100.0 * left)))
        .collect()
}

/// The level's progress bar in `rect` (between the HUD's two lines): the goals' progress, gold
/// until they are met, then green; the time used is the thin line under it.
pub fn draw_progress(game: &Game, rect: Rect) {
    let Some(attempt) = game.attempt() else {
        return;
    };
    let report = attempt.report();
    let (x, y, width) = (rect.x, rect.y + 1.0, rect.w);
    let height = (rect.h - 4.0).at_least(2.0);
    draw_rectangle(x, y, width, height, Color::new(1.0, 1.0, 1.0, 0.12));
    let fill = if report.met { GOOD } else { GOLD };
    draw_rectangle(x, y, width * report.progress.clamp(0.0, 1.0), height, fill);
    let limit = f64::from(attempt.level().rules.time_limit);
    let used = (1.0 - attempt.seconds_left() / limit) as f32;
    draw_line(
        x,
        y + height + 1.5,
        x + width * used.clamp(0.0, 1.0),
        y + height + 1.5,
        1.0,
        DIM,
    );
}

/// The level's part of the help overlay: its number and title, its hint, each goal with how far
/// it is, and what is left of its budgets; nothing outside a level.
pub fn help_lines(game: &Game) -> Vec<(String, Color)> {
    let Some(attempt) = game.attempt() else {
        return Vec::new();
    };
    let rules = &attempt.level().rules;
    let number = game
        .level_index()
        .map(|index| format!("Level {} of {}: ", index + 1, level::BUILTIN.len()))
        .unwrap_or_default();
    let mut lines = vec![
        (format!("{number}{}", rules.title), WARN),
        (rules.hint.clone(), TEXT),
    ];
    lines.extend(
        attempt
            .level()
            .goals
            .iter()
            .zip(attempt.goal_progress())
            .map(|(goal, &progress)| match goal {
                Goal::KeepOut { .. } if progress < 1.0 => (goal.describe(), BAD),
                Goal::KeepOut { .. } => (goal.describe(), DIM),
                _ if progress >= 1.0 => (format!("{}  done", goal.describe()), GOOD),
                _ => (
                    format!("{}  {:.0}%", goal.describe(), 100.0 * progress),
                    TEXT,
                ),
            }),
    );
    let budgets = budgets(game);
    if !budgets.is_empty() {
        lines.push((format!("budget: {}", budgets.join(", ")), DIM));
    }
    lines.push((
        format!(
            "{:.0} s left; M: the levels, R: retry",
            attempt.seconds_left().ceil().at_least(0.0)
        ),
        DIM,
    ));
    lines
}

/// The end of a go, over the middle of the window: the stars and time of a win, or why it was
/// lost, and the keys that go on.
pub fn draw_end(game: &Game) {
    let Some(outcome) = game.attempt().and_then(|attempt| attempt.outcome()) else {
        return;
    };
    if game.menu.open {
        return;
    }
    let (width, height) = (420.0, 170.0);
    let x = (screen_width() - width) * 0.5;
    let y = screen_height() * 0.5 - height * 0.5;
    draw_rectangle(x, y, width, height, PANEL);
    draw_rectangle_lines(x, y, width, height, 2.0, DIM);
    let centred = |text: &str, y: f32, size: f32, colour: Color| {
        let measured = measure_text(text, None, size as u16, 1.0);
        draw_text(text, x + (width - measured.width) * 0.5, y, size, colour);
    };
    let last = game
        .level_index()
        .is_none_or(|index| index + 1 == level::BUILTIN.len());
    match outcome {
        Outcome::Won { seconds, stars } => {
            centred("Level complete", y + 36.0, TITLE, GOOD);
            for star in 0..3u8 {
                let centre = Vec2::new(x + width * 0.5 + 44.0 * (f32::from(star) - 1.0), y + 72.0);
                draw_star(centre, f32::from(FONT), star < *stars);
            }
            centred(
                &format!("in {seconds:.1} s"),
                y + 112.0,
                f32::from(FONT),
                TEXT,
            );
            let next = if last {
                "Enter: the levels"
            } else {
                "Enter: next level"
            };
            centred(
                &format!("{next}    R: retry    M: levels"),
                y + 148.0,
                f32::from(FONT),
                DIM,
            );
        }
        Outcome::Lost(why) => {
            centred("Not this time", y + 44.0, TITLE, BAD);
            centred(why, y + 84.0, f32::from(FONT), TEXT);
            centred(
                "Enter or R: retry    M: levels",
                y + 140.0,
                f32::from(FONT),
                DIM,
            );
        }
    }
}

/// Geometry of the level menu: its left, top and width, and the height of a row.
fn menu_layout() -> (f32, f32, f32, f32) {
    let width = (screen_width() - 20.0).at_most(620.0);
    let rows = level::BUILTIN.len() as f32;
    let row = 44.0;
    let top = (screen_height() - (70.0 + rows * row)) * 0.5;
    (
        (screen_width() - width) * 0.5,
        top.at_least(10.0),
        width,
        row,
    )
}

/// The menu row (level index) under the pixel `at`, when the menu is open.
pub fn menu_row_at(game: &Game, at: Vec2) -> Option<usize> {
    if !game.menu.open {
        return None;
    }
    let (x, top, width, row) = menu_layout();
    let first = top + 56.0;
    if at.x < x || at.x > x + width || at.y < first {
        return None;
    }
    let index = ((at.y - first) / row) as usize;
    (index < level::BUILTIN.len()).then_some(index)
}

/// The level menu: each level with its title, what it teaches and its stars; those after the
/// first unmet one are locked.
pub fn draw_menu(game: &Game) {
    if !game.menu.open {
        return;
    }
    let (x, top, width, row) = menu_layout();
    let height = 70.0 + row * level::BUILTIN.len() as f32;
    draw_rectangle(x, top, width, height, PANEL);
    draw_rectangle_lines(x, top, width, height, 2.0, DIM);
    draw_text("Levels", x + 14.0, top + 32.0, TITLE, TEXT);
    let keys = "Up / Down, Enter or click: play    M: close";
    let measured = measure_text(keys, None, FONT, 1.0);
    draw_text(
        keys,
        x + width - measured.width - 14.0,
        top + 30.0,
        f32::from(FONT),
        DIM,
    );
    for (index, (name, _)) in level::BUILTIN.iter().enumerate() {
        let y = top + 56.0 + row * index as f32;
        let open = game.progress.is_open(index);
        if index == game.menu.selected {
            draw_rectangle(
                x + 4.0,
                y,
                width - 8.0,
                row - 4.0,
                Color::new(1.0, 1.0, 1.0, 0.1),
            );
        }
        let (title, teaches) = &crate::app::game::levels::catalogue()[index];
        let colour = if open { TEXT } else { DIM };
        draw_text(
            format!("{}  {title}", index + 1),
            x + 14.0,
            y + 18.0,
            f32::from(FONT),
            colour,
        );
        let detail = fit(if open { teaches } else { "locked" }, width - 180.0, FONT);
        draw_text(&detail, x + 36.0, y + 36.0, f32::from(FONT), DIM);
        let stars = game.progress.stars(name);
        for star in 0..3u8 {
            let centre = Vec2::new(x + width - 90.0 + 26.0 * f32::from(star), y + 20.0);
            draw_star(centre, 10.0, star < stars);
        }
    }
}

/// A five-pointed star of outer radius `radius` at `centre`: gold when earned, faint when not.
fn draw_star(centre: Vec2, radius: f32, earned: bool) {
    let colour = if earned {
        GOLD
    } else {
        Color::new(1.0, 1.0, 1.0, 0.18)
    };
    let point = |k: usize| {
        let r = if k.is_multiple_of(2) {
            radius
        } else {
            radius * 0.45
        };
        let angle = std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::PI / 5.0;
        let (sin, cos) = libm::sincosf(angle);
        centre + Vec2::new(r * cos, -r * sin)
    };
    for k in 0..10 {
        draw_triangle(centre, point(k), point(k + 1), colour);
    }
}

fn with_alpha(colour: Color, alpha: f32) -> Color {
    Color { a: alpha, ..colour }
}
