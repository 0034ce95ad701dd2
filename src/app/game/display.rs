//! How the game is shown, without any window types: the display toggles, the status line, and
//! the previous frame's positions of particles and bodies, to draw between two frames.

use crate::sim::numerics::clock::Instant;
use crate::sim::World;
use glam::Vec2;

/// Seconds a status message stays on screen.
const MESSAGE_SECONDS: f64 = 2.5;

/// How the liquid is coloured: the views `C` cycles through. In the first two, hot particles
/// glow (`palette::glowing`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shading {
    /// Each material in its own colour and style, lit, with foam where the liquid is thin or
    /// fast (`draw::look`).
    Natural,
    /// Colour × (bias + scale · pressure), as the seed does.
    Pressure,
    /// Colour brightened toward foam with speed.
    Speed,
    /// Each particle by its temperature, on the HUD's cold-to-hot scale (`palette::THERMOMETER`),
    /// whatever its material.
    Temperature,
}

impl Shading {
    /// The view after this one, round the cycle.
    pub fn next(self) -> Self {
        match self {
            Self::Natural => Self::Pressure,
            Self::Pressure => Self::Speed,
            Self::Speed => Self::Temperature,
            Self::Temperature => Self::Natural,
        }
    }

    /// The view's name, as the HUD and the status line say it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Natural => "natural",
            Self::Pressure => "pressure",
            Self::Speed => "speed",
            Self::Temperature => "temperature",
        }
    }
}

/// What the window shows of the game and how: the toggles, the status line and the previous
/// frame, which the drawing blends with the current one.
pub struct Display {
    /// Plain dots instead of the liquid surface.
    pub particle_view: bool,
    /// Draw the air's smoke (scenes with air).
    pub smoke_view: bool,
    /// The help overlay is shown.
    pub help: bool,
    /// The engine's figures are shown (F3, `--stats`).
    pub stats: bool,
    /// The liquid is drawn from its colours alone, every material clear and without foam, and
    /// nothing glows (`--lite`): the two passes a slow GPU pays most for are skipped.
    pub lite: bool,
    /// How the liquid is coloured (also the dots of the particle view, in the temperature view).
    pub shading: Shading,
    /// The live panel is shown.
    pub panel: bool,
    /// The material palette is open (`draw::swatches`).
    pub palette: bool,
    /// Files the window has saved so far (screenshots, presets, snapshots, replays, GIFs).
    pub saved: usize,
    message: Option<(String, Instant)>,
    /// Positions of the previous frame by particle id, to draw between frames.
    previous_by_id: Vec<Vec2>,
    /// The bodies' poses (position, angle) at the previous frame, to draw between frames.
    previous_bodies: Vec<(Vec2, f32)>,
}

impl Default for Display {
    /// The liquid surface in its natural look, smoke shown, no overlay or engine figures, no
    /// message.
    fn default() -> Self {
        Self {
            particle_view: false,
            smoke_view: true,
            help: false,
            stats: false,
            lite: false,
            shading: Shading::Natural,
            panel: false,
            palette: false,
            saved: 0,
            message: None,
            previous_by_id: Vec::new(),
            previous_bodies: Vec::new(),
        }
    }
}

impl Display {
    /// A short status line (preset switched, screenshot saved…), while it is fresh.
    pub fn message(&self) -> Option<&str> {
        self.message
            .as_ref()
            .filter(|(_, at)| at.elapsed().as_secs_f64() < MESSAGE_SECONDS)
            .map(|(text, _)| text.as_str())
    }

    /// Shows `text` for a moment.
    pub fn say(&mut self, text: impl Into<String>) {
        self.message = Some((text.into(), Instant::now()));
    }

    /// Shows or hides the smoke, and says so (and that there is none when the scene has no air).
    pub fn toggle_smoke(&mut self, has_air: bool) {
        self.smoke_view = !self.smoke_view;
        let shown = if self.smoke_view { "shown" } else { "hidden" };
        if has_air {
            self.say(format!("smoke {shown}"));
        } else {
            self.say(format!("smoke {shown} (this preset has no air)"));
        }
    }

    /// The next view (pressure, speed, temperature, and round again), and says which.
    pub fn next_view(&mut self) {
        self.shading = self.shading.next();
        self.say(format!("view: {}", self.shading.name()));
    }

    /// Where particle `index` of `world` is drawn: between its previous and current position by
    /// `fraction` of a frame (its current position when it is new).
    pub fn drawn_position(&self, world: &World, index: usize, fraction: f32) -> Vec2 {
        let p = world.particles();
        let current = p.position[index];
        match self.previous_by_id.get(p.id[index] as usize) {
            Some(previous) if previous.is_finite() => previous.lerp(current, fraction),
            _ => current,
        }
    }

    /// Where body `index` of `world` is drawn: its position and angle between the previous
    /// frame's and the current ones by `fraction` of a frame (the current ones when it has no
    /// previous).
    pub fn drawn_body_pose(&self, world: &World, index: usize, fraction: f32) -> (Vec2, f32) {
        let Some(bodies) = world.bodies() else {
            return (Vec2::ZERO, 0.0);
        };
        let now = bodies.state(index);
        match self.previous_bodies.get(index) {
            Some(&(position, angle)) if position.is_finite() && angle.is_finite() => {
                // The shorter way round, so that a body passing ±π does not spin back.
                let turn = (now.angle - angle + std::f32::consts::PI)
                    .rem_euclid(std::f32::consts::TAU)
                    - std::f32::consts::PI;
                (
                    position.lerp(now.position, fraction),
                    angle + turn * fraction,
                )
            }
            _ => (now.position, now.angle),
        }
    }

    /// Notes where `world`'s particles and bodies are, before it steps: the previous frame.
    pub fn remember(&mut self, world: &World) {
        self.previous_bodies.clear();
        if let Some(bodies) = world.bodies() {
            self.previous_bodies.extend((0..bodies.len()).map(|index| {
                let state = bodies.state(index);
                (state.position, state.angle)
            }));
        }
        let p = world.particles();
        let highest = p.id.iter().copied().max().map_or(0, |id| id as usize + 1);
        self.previous_by_id.clear();
        self.previous_by_id.resize(highest, Vec2::NAN);
        for (&id, &position) in p.id.iter().zip(&p.position) {
            self.previous_by_id[id as usize] = position;
        }
    }

    /// Forgets the previous frame (a new world has none): everything is drawn where it is.
    pub fn forget(&mut self) {
        self.previous_by_id.clear();
        self.previous_bodies.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_views_cycle_through_natural_pressure_speed_and_temperature_and_say_which() {
        let mut display = Display::default();
        let mut seen = vec![display.shading];
        for _ in 0..4 {
            display.next_view();
            seen.push(display.shading);
        }
        use Shading::*;
        assert_eq!(seen, [Natural, Pressure, Speed, Temperature, Natural]);
        assert_eq!(display.message(), Some("view: natural"));
    }
}
