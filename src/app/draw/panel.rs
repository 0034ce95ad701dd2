//! The live panel (T): sliders for the current material's constants and for gravity, a button
//! that puts the preset's values back, and the sound's volume (kept with the progress, not
//! recorded). The material's values and gravity are shown and bounded in the units of the preset
//! files (the reference particle radius), so a slider can never leave the range the loader
//! accepts; the game turns them into this world's units (`sim::scene::resolution`) and applies
//! them at once.
//!
//! The sliders are drawn with macroquad's shapes and text in the same pass as the HUD (so that
//! screenshots show them, which macroquad's `ui` module, drawn after the frame, would not).

use crate::app::game::Game;
use crate::sim::numerics::portable::Ordered;
use crate::sim::scene::ranges::Scale;
use crate::sim::scene::resolution::REFERENCE_RADIUS;
use crate::sim::Tunable;
use macroquad::prelude::{
    draw_rectangle, draw_rectangle_lines, draw_text, is_mouse_button_down, is_mouse_button_pressed,
    mouse_position, screen_width, Color, MouseButton, Rect, Vec2,
};

/// Strongest gravity the slider offers, in m/s²: any direction keeps each component within the
/// loader's ±1000.
const MAX_GRAVITY: f32 = 1000.0;
const WIDTH: f32 = 340.0;
const ROW: f32 = 34.0;
const MARGIN: f32 = 10.0;
const BACKGROUND: Color = Color::new(0.0, 0.0, 0.0, 0.7);
const TEXT: Color = Color::new(0.92, 0.93, 0.96, 1.0);
const TRACK: Color = Color::new(0.35, 0.38, 0.45, 1.0);
const HANDLE: Color = Color::new(1.0, 0.8, 0.35, 1.0);

/// One slider of the panel.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Knob {
    /// A material constant.
    Material(Tunable),
    /// The strength of gravity.
    Gravity,
    /// The sound's volume (the window's, not the world's: kept with the progress, not
    /// recorded).
    Volume,
}

/// Which slider the mouse is dragging, between frames.
#[derive(Clone, Debug, Default)]
pub struct Panel {
    dragging: Option<usize>,
}

/// The factor from a value in preset-file units to this world's, for `field`.
fn factor(game: &Game, field: Tunable) -> f32 {
    let params = game.session.world.params();
    let lambda = params.particle_radius / REFERENCE_RADIUS;
    let reference_substeps = game.session.preset.reference().params.substeps as f32;
    let tau = reference_substeps / params.substeps as f32;
    field.factor(lambda, tau)
}

/// The range a slider of `field` offers, in preset-file units: the loader's whole range, which
/// the world holds calm by running the substeps a value needs (`World::tune`,
/// `sim::stages::stability`); the spring stiffness up to 0.05 / Δt² and the tension up to 30 Δt² of
/// the world's substep; the viscosities up to `Tunable::calm_limit` (a stirred pool boils
/// above); always reaching the preset's own value.
fn range(game: &Game, field: Tunable) -> (f32, f32) {
    let params = game.session.world.params();
    let (low, mut high) = field.reference_range(&Scale::of(params));
    if matches!(field, Tunable::SpringStiffness | Tunable::SurfaceTension) {
        // At this world's substep, in file units.
        high = high / factor(game, field) * 0.999;
    }
    if let Some(calm) = field.calm_limit() {
        high = high.at_most(calm);
    }
    let own = game
        .initial_material(current(game))
        .map_or(0.0, |material| {
            field.get(material, params) / factor(game, field)
        });
    (low, high.at_least(own))
}

/// Where `value` sits on a slider from `low` to `high`, 0 to 1: the cube root of its share, so
/// that ranges that span three decades (stiffness 0 to 10, gravity 0 to 1000 m/s²) keep the
/// preset's values away from the left end. A range across 0 (temperature, −1000 to 1000) puts
/// 0 in the middle and each side's cube root either way, so that 20 and 100 °C stay apart.
fn share_of(value: f32, (low, high): (f32, f32)) -> f32 {
    let cube_root =
        |share: f32| crate::sim::numerics::portable::powf(share.clamp(0.0, 1.0), 1.0 / 3.0);
    if low < 0.0 && high > 0.0 {
        return if value < 0.0 {
            0.5 - 0.5 * cube_root(value / low)
        } else {
            0.5 + 0.5 * cube_root(value / high)
        };
    }
    cube_root((value - low) / (high - low))
}

/// The value at `share` (0 to 1) of a slider from `low` to `high` (`share_of`'s inverse).
fn value_at(share: f32, (low, high): (f32, f32)) -> f32 {
    let cube = |x: f32| x * x * x;
    if low < 0.0 && high > 0.0 {
        return if share < 0.5 {
            low * cube(1.0 - 2.0 * share)
        } else {
            high * cube(2.0 * share - 1.0)
        };
    }
    low + cube(share) * (high - low)
}

/// The sliders for the current material: every constant it has.
fn knobs(game: &Game) -> Vec<Knob> {
    let material = &game.session.world.materials()[current(game)];
    let mut knobs: Vec<Knob> = Tunable::ALL
        .iter()
        .copied()
        .filter(|field| field.applies_to(material))
        .map(Knob::Material)
        .collect();
    knobs.push(Knob::Gravity);
    knobs.push(Knob::Volume);
    knobs
}

fn current(game: &Game) -> usize {
    game.tools
        .material
        .min(game.session.world.materials().len() - 1)
}

/// The panel's rectangle on screen for `rows` sliders (and the title and button rows).
fn area(rows: usize) -> Rect {
    let height = (rows + 2) as f32 * ROW + MARGIN;
    Rect::new(screen_width() - WIDTH - MARGIN, MARGIN, WIDTH, height)
}

/// A slider's value (in file units), its range, and its label.
fn reading(game: &Game, knob: Knob) -> (f32, (f32, f32), String) {
    match knob {
        Knob::Material(field) => {
            let material = &game.session.world.materials()[current(game)];
            let value = field.get(material, game.session.world.params()) / factor(game, field);
            (value, range(game, field), field.label().into())
        }
        Knob::Gravity => (
            game.session.world.params().gravity.length(),
            // As strong as the loader takes (each component within ±1000); the world runs the
            // substeps a strong gravity needs.
            (0.0, MAX_GRAVITY),
            "gravity (m/s²)".into(),
        ),
        Knob::Volume => {
            let sound = game.progress.sound;
            let label = if sound.muted {
                "sound volume (muted: V)"
            } else {
                "sound volume (V: mute)"
            };
            (sound.volume, (0.0, 1.0), label.into())
        }
    }
}

/// Where `value` sits on `knob`'s slider from `low` to `high`, 0 to 1: the volume's linearly,
/// the others by `share_of`.
fn knob_share(knob: Knob, value: f32, range: (f32, f32)) -> f32 {
    match knob {
        Knob::Volume => value.clamp(0.0, 1.0),
        _ => share_of(value, range),
    }
}

/// The value at `share` of `knob`'s slider (`knob_share`'s inverse).
fn knob_value(knob: Knob, share: f32, range: (f32, f32)) -> f32 {
    match knob {
        Knob::Volume => share,
        _ => value_at(share, range),
    }
}

impl Panel {
    /// Whether the panel takes the mouse at `point` (pixels): it is over the panel, or dragging
    /// one of its sliders.
    pub fn captures(&self, game: &Game, point: Vec2) -> bool {
        game.display.panel && (self.dragging.is_some() || area(knobs(game).len()).contains(point))
    }

    /// Draws the panel and applies what the mouse changed on it.
    pub fn draw(&mut self, game: &mut Game) {
        if !game.display.panel {
            self.dragging = None;
            return;
        }
        let knobs = knobs(game);
        let frame = area(knobs.len());
        draw_rectangle(frame.x, frame.y, frame.w, frame.h, BACKGROUND);
        let name = game.session.world.materials()[current(game)].name.clone();
        draw_text(
            format!("tune {name}   (Tab: next, T: close)"),
            frame.x + MARGIN,
            frame.y + 24.0,
            18.0,
            TEXT,
        );
        let mouse = Vec2::from(mouse_position());
        let pressed = is_mouse_button_pressed(MouseButton::Left);
        if !is_mouse_button_down(MouseButton::Left) {
            // The volume is kept when its slider is let go, not at every step of the drag.
            if let Some(Knob::Volume) = self.dragging.and_then(|row| knobs.get(row).copied()) {
                game.keep_progress();
            }
            self.dragging = None;
        }
        let mut change = None;
        for (row, &knob) in knobs.iter().enumerate() {
            let top = frame.y + (row + 1) as f32 * ROW;
            let (value, (low, high), label) = reading(game, knob);
            let reads = match knob {
                Knob::Volume => format!("{:.0}%", value * 100.0),
                _ => shown(value),
            };
            draw_text(
                format!("{label}: {reads}"),
                frame.x + MARGIN,
                top + 16.0,
                16.0,
                TEXT,
            );
            let track = Rect::new(frame.x + MARGIN, top + 22.0, frame.w - 2.0 * MARGIN, 6.0);
            draw_rectangle(track.x, track.y, track.w, track.h, TRACK);
            let share = knob_share(knob, value, (low, high));
            let handle = track.x + share * track.w;
            draw_rectangle(handle - 4.0, track.y - 5.0, 8.0, track.h + 10.0, HANDLE);
            let grab = Rect::new(track.x - 6.0, top + 4.0, track.w + 12.0, ROW - 4.0);
            if pressed && grab.contains(mouse) {
                self.dragging = Some(row);
            }
            if self.dragging == Some(row) {
                let share = ((mouse.x - track.x) / track.w).clamp(0.0, 1.0);
                change = Some((knob, knob_value(knob, share, (low, high))));
            }
        }
        let button = Rect::new(
            frame.x + MARGIN,
            frame.y + (knobs.len() + 1) as f32 * ROW + 6.0,
            150.0,
            ROW - 10.0,
        );
        draw_rectangle_lines(button.x, button.y, button.w, button.h, 1.5, TEXT);
        draw_text(
            "preset values",
            button.x + 12.0,
            button.y + 17.0,
            18.0,
            TEXT,
        );
        if pressed && button.contains(mouse) {
            game.restore_material(current(game));
            return;
        }
        match change {
            Some((Knob::Material(field), value)) => {
                let world_value = value * factor(game, field);
                if let Err(error) = game.tune(current(game), field, world_value) {
                    game.say(error.to_string());
                }
            }
            Some((Knob::Gravity, value)) => game.set_gravity_strength(value),
            Some((Knob::Volume, value)) => game.set_volume(value),
            None => {}
        }
    }
}

/// A value with about three significant digits.
fn shown(value: f32) -> String {
    if value == 0.0 || (0.01..10_000.0).contains(&value.abs()) {
        format!("{}", (value * 1000.0).round() / 1000.0)
    } else {
        format!("{value:.2e}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slider_s_share_and_value_are_inverses_on_either_kind_of_range() {
        for range in [(0.0, 10.0), (-1000.0, 1000.0), (-20.0, 1000.0)] {
            for value in [range.0, 0.0, 0.2, 20.0, 100.0, range.1] {
                if value > range.1 {
                    continue;
                }
                let share = share_of(value, range);
                assert!(
                    (0.0..=1.0).contains(&share),
                    "{value} in {range:?}: {share}"
                );
                let back = value_at(share, range);
                let tolerance = 1e-4 * (range.1 - range.0);
                assert!(
                    (back - value).abs() <= tolerance,
                    "{value} in {range:?}: {back}"
                );
            }
        }
        // Across 0, 0 is the middle and 20 and 100 °C are well apart.
        let temperature = (-1000.0, 1000.0);
        assert_eq!(share_of(0.0, temperature), 0.5);
        let apart = share_of(100.0, temperature) - share_of(20.0, temperature);
        assert!(apart > 0.05, "{apart}");
        assert!(share_of(-20.0, temperature) < 0.5);
    }
}
