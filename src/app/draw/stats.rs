//! The engine's figures (F3, `--stats`): frame rate, the simulation's and the drawing's
//! milliseconds, particles, substeps, the air's solver, the sound and its cost, the scene's file
//! name and key. A panel under the HUD for the engine's work; the game's own HUD does without
//! them.

use super::layout::{LINE, PAD};
use super::render::Recent;
use super::text::{baseline, fit, FONT, PANEL, TEXT, WARN};
use crate::app::game::session::key_label;
use crate::app::game::Game;
use crate::cost::AUTO_FINEST;
use crate::sim::numerics::portable::Ordered;
use macroquad::prelude::{draw_rectangle, draw_text, measure_text, Color, Rect};

/// Display timing the figures show, averaged over half-second windows.
#[derive(Clone, Debug, Default)]
pub struct Timing {
    /// Frames per second over the last window.
    pub fps: f64,
    /// Simulation milliseconds per simulation frame, smoothed.
    pub sim_ms: f64,
    /// Simulation milliseconds per substep, smoothed.
    pub substep_ms: f64,
    /// CPU milliseconds to prepare and submit one frame's splats (`Renderer::splat_millis`).
    pub splat_ms: f32,
    /// The part of `splat_ms` before the draw calls (`Renderer::splat_prepare_millis`).
    pub splat_prepare_ms: f32,
    /// Main-thread milliseconds of the last `KEPT` frames the GIF capture took
    /// (`capture::Capture::take` and `collect`).
    captures: Recent<KEPT>,
    /// Main-thread milliseconds of the last `KEPT` frames, from the frame's start to its
    /// hand-over to the screen (`next_frame`), which waits for the GPU and the display.
    frames: Recent<KEPT>,
    /// Where the sound stands (`audio::Status::describe`): `on`, `off: why`, …
    pub sound: String,
    /// Main-thread milliseconds per simulation frame of the sound's events (listening to the
    /// world and sending the events) over the last `KEPT` displayed frames that ran any.
    sounds: Recent<KEPT>,
    window_frames: u32,
    window_seconds: f64,
}

/// How many frames' costs `Timing` keeps.
const KEPT: usize = 200;

impl Timing {
    /// Notes a capture that took `ms` of the main thread.
    pub fn note_capture(&mut self, ms: f64) {
        self.captures.push(ms as f32);
    }

    /// The median of the captures' main-thread milliseconds kept (0 with none).
    pub fn capture_ms(&self) -> f64 {
        self.captures.median().into()
    }

    /// Notes a frame that took `ms` of the main thread before its hand-over to the screen.
    pub fn note_frame(&mut self, ms: f64) {
        self.frames.push(ms as f32);
    }

    /// The median of the frames' main-thread milliseconds kept (0 with none).
    pub fn frame_ms(&self) -> f64 {
        self.frames.median().into()
    }

    /// Notes the sound's main-thread cost of a displayed frame: `ms` for `frames` simulation
    /// frames (nothing when it ran none).
    pub fn note_sound(&mut self, frames: usize, ms: f64) {
        if frames > 0 {
            self.sounds.push((ms / frames as f64) as f32);
        }
    }

    /// The median of the sound's main-thread milliseconds per simulation frame kept (0 with
    /// none).
    pub fn sound_ms(&self) -> f64 {
        self.sounds.median().into()
    }

    /// Adds one displayed frame of `dt` seconds and the last simulation frame's cost, which
    /// took `substeps` substeps.
    pub fn update(&mut self, dt: f64, sim_ms: f64, substeps: u32) {
        if dt.is_finite() && dt > 0.0 {
            self.window_frames += 1;
            self.window_seconds += dt;
            if self.window_seconds >= 0.5 {
                self.fps = f64::from(self.window_frames) / self.window_seconds;
                self.window_frames = 0;
                self.window_seconds = 0.0;
            }
        }
        if sim_ms.is_finite() && sim_ms > 0.0 {
            let smooth = |old: f64, new: f64| {
                if old == 0.0 {
                    new
                } else {
                    old + (new - old) * 0.1
                }
            };
            self.sim_ms = smooth(self.sim_ms, sim_ms);
            self.substep_ms = smooth(self.substep_ms, sim_ms / f64::from(substeps.max(1)));
        }
    }
}

/// "more for stability: stiffness 38" when the scene's values asked for more substeps than it
/// gives (`World::stability_substeps`).
fn stability_note(needs: &[(&'static str, u32)]) -> Option<String> {
    if needs.is_empty() {
        return None;
    }
    let said: Vec<String> = needs
        .iter()
        .map(|(field, substeps)| format!("{} {substeps}", field.replace('_', " ")))
        .collect();
    Some(format!("more for stability: {}", said.join(", ")))
}

/// How many lines the figures take for `game` (the layout makes room for them before they are
/// written).
pub fn rows(game: &Game) -> usize {
    lines(game, &Timing::default()).len()
}

/// The figures' lines and their colours, short enough for the HUD's column: the frame rate and
/// the frame's cost, the simulation's, the splats', the particles, the substeps (and what the
/// stability control did), the air, the scene and its key.
fn lines(game: &Game, timing: &Timing) -> Vec<(String, Color)> {
    let world = &game.session.world;
    let configured = world.params().substeps;
    let frame = world.last_frame();
    let adapted = frame.substeps > configured || frame.capped > 0;
    let key = match (game.session.key(), game.session.is_file()) {
        _ if game.attempt().is_some() => "a level".to_string(),
        (Some(key), _) => format!("key {}", key_label(key)),
        (None, true) => "a file".to_string(),
        (None, false) => "no key".to_string(),
    };
    let mut particles = format!("{} particles", world.particles().len());
    if world.cap_reached() {
        particles.push_str(" (cap reached)");
    }
    let mut lines: Vec<(String, Color)> = vec![
        (
            format!("{:.0} fps · frame {:.1} ms", timing.fps, timing.frame_ms()),
            TEXT,
        ),
        (
            format!(
                "sim {:.1} ms ({:.2} ms/substep)",
                timing.sim_ms, timing.substep_ms
            ),
            TEXT,
        ),
        (
            format!(
                "splats {:.1} ms + draw {:.1} ms",
                timing.splat_prepare_ms,
                (timing.splat_ms - timing.splat_prepare_ms).at_least(0.0)
            ),
            TEXT,
        ),
        (particles, TEXT),
    ];
    if game.session.auto_capped() {
        lines.push((
            format!("auto: capped at {AUTO_FINEST}x, the finest tested"),
            TEXT,
        ));
    }
    if adapted {
        lines.push((
            format!(
                "substeps {} ({configured} asked, {} capped)",
                frame.substeps, frame.capped
            ),
            WARN,
        ));
    } else {
        lines.push((format!("substeps {}", frame.substeps), TEXT));
    }
    if let Some(note) = stability_note(world.stability_substeps()) {
        lines.push((note, WARN));
    }
    if let Some(air) = world.air() {
        let grid = air.grid();
        let hidden = if game.display.smoke_view {
            ""
        } else {
            " (smoke hidden)"
        };
        lines.push((
            format!(
                "air {}x{} · {} solver iterations{hidden}",
                grid.nx,
                grid.ny,
                air.last_step().solve.iterations
            ),
            TEXT,
        ));
    }
    let sound = match (timing.sound.as_str(), game.progress.sound.muted) {
        ("on", true) => "sound muted".to_string(),
        ("on", false) => format!("sound on · {:.3} ms/frame", timing.sound_ms()),
        (said, _) => format!("sound {said}"),
    };
    lines.push((sound, TEXT));
    lines.push((format!("{} · {key}", game.session.preset.name), TEXT));
    lines
}

/// Draws the figures in `rect` (`layout::Layout::stats`), each line cut to its width; returns
/// the part of it drawn (as wide as the longest line).
pub fn draw(game: &Game, timing: &Timing, rect: Rect) -> Rect {
    let room = rect.w - 2.0 * PAD;
    let lines: Vec<(String, Color)> = lines(game, timing)
        .into_iter()
        .map(|(text, colour)| (fit(&text, room, FONT), colour))
        .collect();
    let widest = lines
        .iter()
        .map(|(text, _)| measure_text(text, None, FONT, 1.0).width)
        .fold(0.0, crate::sim::numerics::portable::max);
    let drawn = Rect::new(rect.x, rect.y, widest.at_most(room) + 2.0 * PAD, rect.h);
    draw_rectangle(drawn.x, drawn.y, drawn.w, drawn.h, PANEL);
    for (row, (text, colour)) in lines.iter().enumerate() {
        draw_text(
            text,
            rect.x + PAD,
            baseline(rect.y + PAD + row as f32 * LINE),
            f32::from(FONT),
            *colour,
        );
    }
    drawn
}
