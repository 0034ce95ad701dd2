//! Text over the world: the HUD (top left), the help overlay, status messages, the reload error
//! banner and the stir cursor.

use super::palette::{degrees, thermometer, THERMOMETER};
use super::render::Recent;
use super::view::View;
use crate::app::game::display::Shading;
use crate::app::game::session::{key_label, PRESET_KEYS};
use crate::app::game::{Game, WEB};
use crate::cost::AUTO_FINEST;
use crate::level::Tool;
use crate::preset::Preset;
use crate::sim::numerics::portable::Ordered;
use macroquad::prelude::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_text, measure_text, Color, Vec2,
};

/// The text's colour (the level's screens use it too).
pub(super) const TEXT: Color = Color::new(0.92, 0.93, 0.96, 1.0);
/// Dimmed text.
pub(super) const DIM: Color = Color::new(0.62, 0.65, 0.72, 1.0);
const WARN: Color = Color::new(1.0, 0.72, 0.25, 1.0);
const PANEL: Color = Color::new(0.0, 0.0, 0.0, 0.55);
const ERROR_PANEL: Color = Color::new(0.62, 0.08, 0.08, 0.92);
/// The text's size (every new size is a new set of glyphs in the font's atlas).
pub(super) const FONT: u16 = 18;
const LINE: f32 = 19.0;

/// The keys, for the help overlay (docs/GUIDE.md lists them for readers).
pub const CONTROLS: &[(&str, &str)] = &[
    (
        "left button",
        "use the tool (stir: drag through the liquid)",
    ),
    ("Q W E D", "tool: stir, pour, erase, draw"),
    (
        "A / Z",
        "tool: heat / cool the liquid under the ring (hold; 300 °C/s)",
    ),
    (
        "F",
        "grab & throw: press on a body, drag, let go (bodies in bath, mill, dam)",
    ),
    ("Tab", "next material to pour (and to tune)"),
    ("right button", "pull liquid toward the cursor"),
    (
        "mouse wheel",
        "ring size (the tool's reach; a drawn wall is a quarter of it thick)",
    ),
    (
        "draw tool",
        "drag to lay a wall; click an obstacle to remove it",
    ),
    (
        "Left / Right",
        "tilt the box (turn gravity); Up or G puts it back",
    ),
    ("T", "live panel: tune the material and gravity"),
    (
        "F6 / F7",
        "save a snapshot (--load) / the scene as a preset (--preset)",
    ),
    (
        "F8",
        "save the replay of the session so far (--replay; in a page: download)",
    ),
    (
        "Ctrl+Z / Ctrl+Y",
        "undo / redo an edit (Ctrl+Shift+Z redoes too)",
    ),
    ("F9", "save the last 10 seconds as a GIF"),
    (
        "F10",
        "copy a link to the scene (--open LINK; in a page: its address)",
    ),
    ("1-9, 0", "switch preset (Shift+1, Shift+2: the next two)"),
    (
        "M",
        "levels: Up / Down and Enter to play; Enter after a level: the next",
    ),
    ("[ ]", "half / twice the particles"),
    ("R", "reset the preset"),
    ("Space", "pause / resume"),
    ("N", "one frame while paused"),
    ("P", "particle view"),
    (
        "C",
        "view: shade by pressure / by speed / colour by temperature",
    ),
    ("S", "show / hide the smoke (scenes with air)"),
    ("F5 or L", "reload the preset file"),
    ("H", "this help"),
    ("F12", "screenshot (PNG)"),
    ("Esc", "quit"),
];

/// The keys of `CONTROLS` that need files, left out of the help in a web page.
const NOT_ON_THE_WEB: &[&str] = &["F6 / F7", "F5 or L", "F12"];

/// Display timing the HUD shows, averaged over half-second windows.
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

/// "  (more for stability: stiffness 38)" when the scene's values asked for more substeps than
/// it gives (`World::stability_substeps`), empty otherwise.
fn stability_note(needs: &[(&'static str, u32)]) -> String {
    if needs.is_empty() {
        return String::new();
    }
    let said: Vec<String> = needs
        .iter()
        .map(|(field, substeps)| format!("{} {substeps}", field.replace('_', " ")))
        .collect();
    format!("  (more for stability: {})", said.join(", "))
}

/// Widest the compact HUD's text goes, pixels (it fits a phone held upright).
const COMPACT_WIDTH: f32 = 300.0;
/// Rows the compact HUD keeps clear of the world: its four lines and two of the occasional ones
/// (the temperature under the ring, paused).
const COMPACT_ROWS: f32 = 6.0;

/// The panel the compact HUD takes at the top left of the screen, pixels: the view keeps the
/// world clear of it (`View::fit_clear_of`).
pub fn compact_panel() -> Vec2 {
    Vec2::new(
        6.0 + COMPACT_WIDTH + 16.0 + 6.0,
        6.0 + COMPACT_ROWS * LINE + 10.0 + 6.0,
    )
}

/// Draws the HUD, messages, the help overlay and the error banner (default camera);
/// `cursor` is the mouse in world units, where the HUD reads the temperature under the ring.
/// `compact` is the HUD of a touch screen (beside the toolbar): what a player reads, not the
/// engine's figures, within `compact_panel`; `bottom` is the pixels the toolbar takes along the
/// bottom, which messages stay above.
pub fn draw(
    game: &Game,
    timing: &Timing,
    presets: &[Preset],
    cursor: Option<Vec2>,
    compact: bool,
    bottom: f32,
) {
    let lines = lines(game, timing, cursor, compact);
    let lines: Vec<(String, Color)> = if compact {
        lines
            .into_iter()
            .map(|(text, colour)| (fit(&text, COMPACT_WIDTH, FONT), colour))
            .collect()
    } else {
        lines
    };
    let legend = game.display.shading == Shading::Temperature;
    let top = if game.session.reload_error.is_some() {
        34.0
    } else {
        0.0
    };
    let width = lines
        .iter()
        .map(|(text, _)| measure_text(text, None, FONT, 1.0).width)
        .fold(0.0, crate::sim::numerics::portable::max);
    draw_rectangle(
        6.0,
        top + 6.0,
        width + 16.0,
        lines.len() as f32 * LINE + 10.0,
        PANEL,
    );
    for (row, (text, colour)) in lines.iter().enumerate() {
        draw_text(
            text,
            14.0,
            top + 24.0 + row as f32 * LINE,
            FONT as f32,
            *colour,
        );
    }
    if legend {
        draw_temperature_scale(6.0, top + 22.0 + lines.len() as f32 * LINE);
    }

    if let Some(message) = game.message() {
        let (sw, sh) = (
            macroquad::prelude::screen_width(),
            macroquad::prelude::screen_height(),
        );
        let message = fit(message, sw - 40.0, 24);
        let size = measure_text(&message, None, 24, 1.0);
        let x = (sw - size.width) * 0.5;
        let y = sh - bottom - 40.0;
        draw_rectangle(x - 12.0, y - 26.0, size.width + 24.0, 36.0, PANEL);
        draw_text(&message, x, y, 24.0, TEXT);
    }

    if game.display.help {
        draw_help(presets);
    }

    if let Some(error) = &game.session.reload_error {
        let sw = macroquad::prelude::screen_width();
        draw_rectangle(0.0, 0.0, sw, 30.0, ERROR_PANEL);
        let text = format!("preset not reloaded: {error}");
        draw_text(fit(&text, sw - 20.0, FONT), 10.0, 20.0, FONT as f32, TEXT);
    }
}

/// The HUD's lines and their colours: in full, the frame rate and the engine's costs, the
/// particles, substeps and air, the scene and its key, the tool; compact, the frame rate and
/// simulation cost, the particles, the scene and the tool. Then either way what holds now (the
/// temperature under the ring, the view, a replay, pause).
fn lines(
    game: &Game,
    timing: &Timing,
    cursor: Option<Vec2>,
    compact: bool,
) -> Vec<(String, Color)> {
    let world = &game.session.world;
    let mut lines: Vec<(String, Color)> = if compact {
        vec![
            (
                format!("{:.0} fps   sim {:.1} ms", timing.fps, timing.sim_ms),
                TEXT,
            ),
            (format!("{} particles", world.particles().len()), TEXT),
            (game.session.preset.name.clone(), TEXT),
            (tool_line(game), TEXT),
        ]
    } else {
        full_lines(game, timing)
    };
    if let Some(line) = temperature_line(game, cursor) {
        lines.push((line, TEXT));
    }
    if game.display.shading == Shading::Temperature {
        lines.push(("view: temperature (C: next view)".into(), TEXT));
    }
    if game.replaying() {
        lines.push(("replaying a recording: input is ignored".into(), WARN));
    }
    if let Some(error) = &game.recording.replay_error {
        lines.push((format!("replay stopped: {error}"), WARN));
    }
    if game.session.paused {
        lines.push(("paused: Space resumes, N steps".into(), WARN));
    }
    if !compact {
        lines.push(("H: help".into(), DIM));
    }
    lines
}

/// The full HUD's first lines: frame rate and costs, particles, substeps, the air, the scene
/// and its key, the tool.
fn full_lines(game: &Game, timing: &Timing) -> Vec<(String, Color)> {
    let world = &game.session.world;
    let configured = world.params().substeps;
    let frame = world.last_frame();
    let adapted = frame.substeps > configured || frame.capped > 0;
    let key = match (game.session.key(), game.session.is_file()) {
        _ if game.attempt().is_some() => "level: M for the menu".to_string(),
        (Some(key), _) => format!("key {}", key_label(key)),
        (None, true) => "file".to_string(),
        (None, false) => "no key".to_string(),
    };
    let mut lines: Vec<(String, Color)> = vec![
        (
            format!(
                "{:.0} fps   sim {:.1} ms/frame ({:.2} ms/substep)   splats {:.1} ms + draw {:.1} ms",
                timing.fps,
                timing.sim_ms,
                timing.substep_ms,
                timing.splat_prepare_ms,
                (timing.splat_ms - timing.splat_prepare_ms).at_least(0.0)
            ),
            TEXT,
        ),
        (
            format!(
                "{} particles{}{}",
                world.particles().len(),
                if world.cap_reached() {
                    "  (cap reached)"
                } else {
                    ""
                },
                if game.session.auto_capped() {
                    format!("  (auto: capped at {AUTO_FINEST}x the preset's own, the finest tested)")
                } else {
                    String::new()
                }
            ),
            TEXT,
        ),
        (
            format!(
                "substeps {}{}{}",
                frame.substeps,
                if adapted {
                    format!("  (speed: {configured} asked, {} capped)", frame.capped)
                } else {
                    String::new()
                },
                stability_note(world.stability_substeps())
            ),
            if adapted { WARN } else { TEXT },
        ),
    ];
    if let Some(air) = world.air() {
        let grid = air.grid();
        let last = air.last_step();
        let hidden = if game.display.smoke_view {
            ""
        } else {
            "  (smoke hidden: S)"
        };
        lines.push((
            format!(
                "air {}x{}  {} solver iterations{hidden}",
                grid.nx, grid.ny, last.solve.iterations
            ),
            TEXT,
        ));
    }
    lines.push((format!("{} ({key})", game.session.preset.name), TEXT));
    lines.push((tool_line(game), TEXT));
    lines
}

/// The tool in hand, the material it pours and how far the box is tilted.
fn tool_line(game: &Game) -> String {
    let materials = game.session.world.materials();
    let material = &materials[game.tools.material.min(materials.len() - 1)].name;
    let mut line = format!("tool: {}", game.tools.tool.name());
    if game.tools.tool == Tool::Grab {
        match game.session.world.bodies() {
            None => line.push_str("  (no bodies in this scene: try bath, mill, dam)"),
            Some(bodies) => match bodies.held() {
                Some((index, _, _)) => {
                    line.push_str(&format!("  holding the {}", bodies.specs()[index].name));
                }
                None => line.push_str("  press on a body, drag, let go to throw"),
            },
        }
    } else if game.tools.tool == Tool::Pour || materials.len() > 1 {
        line.push_str(&format!("  material: {material} (Tab)"));
    }
    if game.tools.tilt != 0.0 {
        let side = if game.tools.tilt > 0.0 {
            "left"
        } else {
            "right"
        };
        line.push_str(&format!(
            "  tilted {:.0}° {side}",
            game.tools.tilt.abs().to_degrees()
        ));
    }
    line
}

/// "under the ring: 87.5 °C": the mean temperature of the particles within the ring around
/// `cursor` (`World::temperature_near`); `None` with no cursor or no particle there.
fn temperature_line(game: &Game, cursor: Option<Vec2>) -> Option<String> {
    let world = &game.session.world;
    let mean = world.temperature_near(cursor?, game.tools.stir_radius)?;
    Some(format!("under the ring: {}", degrees(mean)))
}

/// Width of one step of the temperature scale, in pixels.
const SCALE_STEP: f32 = 52.0;

/// The temperature view's legend, its top left corner at (`x`, `y`): a bar through the
/// thermometer's colours, a stop to each tick, each tick labelled with its temperature.
fn draw_temperature_scale(x: f32, y: f32) {
    let stops = &THERMOMETER;
    let width = (stops.len() - 1) as f32 * SCALE_STEP;
    let (pad, bar) = (12.0, 12.0);
    draw_rectangle(x, y, width + 2.0 * pad + 20.0, bar + 34.0, PANEL);
    let left = x + pad + 4.0;
    // Thin slices, each the colour of the scale at its middle.
    let slices = 16 * (stops.len() - 1);
    let slice = width / slices as f32;
    for k in 0..slices {
        let along = (k as f32 + 0.5) / slices as f32 * (stops.len() - 1) as f32;
        let (index, share) = (along.floor() as usize, along.fract());
        let (from, to) = (stops[index].0, stops[index + 1].0);
        let [r, g, b] = thermometer(from + (to - from) * share);
        draw_rectangle(
            left + k as f32 * slice,
            y + 8.0,
            slice + 0.5,
            bar,
            Color::new(r, g, b, 1.0),
        );
    }
    for (index, (temperature, _)) in stops.iter().enumerate() {
        let tick = left + index as f32 * SCALE_STEP;
        draw_line(tick, y + 6.0, tick, y + 10.0 + bar, 1.0, TEXT);
        let label = if index + 1 == stops.len() {
            format!("{temperature:.0} °C")
        } else {
            format!("{temperature:.0}")
        };
        let size = measure_text(&label, None, 14, 1.0);
        draw_text(
            &label,
            (tick - 0.5 * size.width).round(),
            y + bar + 26.0,
            14.0,
            TEXT,
        );
    }
}

/// The wall the draw tool would lay: from where the button went down to the cursor.
pub fn draw_wall_preview(view: &View, game: &Game, start: Option<Vec2>, end: Option<Vec2>) {
    let (Some(start), Some(end)) = (start, end) else {
        return;
    };
    let radius = game.wall_radius();
    let colour = Color::new(1.0, 0.85, 0.4, 0.6);
    let (a, b) = (view.to_screen(start), view.to_screen(end));
    let thickness = 2.0 * radius * view.scale;
    draw_line(a.x, a.y, b.x, b.y, thickness, colour);
    draw_circle(a.x, a.y, radius * view.scale, colour);
    draw_circle(b.x, b.y, radius * view.scale, colour);
}

/// The help overlay: every key, then each preset's key, name and description.
fn draw_help(presets: &[Preset]) {
    let (sw, sh) = (
        macroquad::prelude::screen_width(),
        macroquad::prelude::screen_height(),
    );
    let mut lines: Vec<(String, Color)> = vec![("Controls".into(), WARN)];
    lines.extend(
        CONTROLS
            .iter()
            .filter(|(key, _)| !(WEB && NOT_ON_THE_WEB.contains(key)))
            .map(|(key, what)| (format!("{key:<13} {what}"), TEXT)),
    );
    if WEB {
        lines.push((
            "In this page: one thread, no files (no screenshots, saves or reload), \
             no command line"
                .into(),
            WARN,
        ));
    }
    lines.push((String::new(), TEXT));
    lines.push(("Presets".into(), WARN));
    // The page leaves out the benchmarks' tank, which has no key, to keep the overlay on screen.
    let shown = if WEB {
        &presets[..presets.len().min(PRESET_KEYS)]
    } else {
        presets
    };
    for (index, preset) in shown.iter().enumerate() {
        let key = if index < PRESET_KEYS {
            key_label(index + 1)
        } else {
            "-".to_string()
        };
        let colour = if index < PRESET_KEYS { TEXT } else { DIM };
        lines.push((
            format!("{key:<7}  {:<9} {}", preset.name, preset.description),
            colour,
        ));
    }
    for key in presets.len() + 1..=PRESET_KEYS {
        lines.push((format!("{}  (no preset on this key)", key_label(key)), DIM));
    }
    // More lines than the window is tall: smaller type rather than lines off the bottom.
    let scale = ((sh - 8.0) / (lines.len() as f32 * LINE + 20.0)).clamp(0.6, 1.0);
    let font = ((f32::from(FONT) * scale).floor() as u16).max(10);
    let line = LINE * scale;
    let width = lines
        .iter()
        .map(|(text, _)| measure_text(text, None, font, 1.0).width)
        .fold(0.0, crate::sim::numerics::portable::max)
        .at_most(sw - 40.0);
    let height = lines.len() as f32 * line + 20.0 * scale;
    let (x, y) = (
        ((sw - width) * 0.5 - 16.0).at_least(4.0),
        ((sh - height) * 0.5).at_least(4.0),
    );
    draw_rectangle(x, y, width + 32.0, height, Color::new(0.0, 0.0, 0.0, 0.8));
    for (row, (text, colour)) in lines.iter().enumerate() {
        draw_text(
            fit(text, width, font),
            (x + 16.0).round(),
            // Whole pixels: smaller type drawn between them smears.
            (y + 26.0 * scale + row as f32 * line).round(),
            f32::from(font),
            *colour,
        );
    }
}

/// `text` cut with an ellipsis to fit `width` pixels.
fn fit(text: &str, width: f32, font: u16) -> String {
    if measure_text(text, None, font, 1.0).width <= width {
        return text.to_string();
    }
    let mut chars: Vec<char> = text.chars().collect();
    while !chars.is_empty() {
        chars.pop();
        let cut: String = chars.iter().collect::<String>() + "...";
        if measure_text(&cut, None, font, 1.0).width <= width {
            return cut;
        }
    }
    String::new()
}

/// The stir cursor: a ring of the stir radius at the mouse (brighter while stirring or pulling),
/// orange for the heat tool and blue for the cool tool, white for the others.
pub fn draw_cursor(view: &View, position: Option<Vec2>, radius: f32, active: bool, tool: Tool) {
    let Some(position) = position else {
        return;
    };
    let centre = view.to_screen(position);
    let [r, g, b] = match tool {
        Tool::Heat => [1.0, 0.6, 0.25],
        Tool::Cool => [0.45, 0.72, 1.0],
        _ => [1.0, 1.0, 1.0],
    };
    let alpha = if active { 0.85 } else { 0.35 };
    draw_circle_lines(
        centre.x,
        centre.y,
        radius * view.scale,
        1.5,
        Color::new(r, g, b, alpha),
    );
}

/// The grab tool's cursor: a small ring, bright with a dot over a body it can take (or while it
/// holds one), faint elsewhere.
pub fn draw_grab_cursor(view: &View, game: &Game, position: Option<Vec2>) {
    let Some(position) = position else {
        return;
    };
    let bodies = game.session.world.bodies();
    let live =
        bodies.is_some_and(|bodies| bodies.held().is_some() || bodies.body_at(position).is_some());
    let centre = view.to_screen(position);
    let (ring, alpha) = if live { (7.0, 0.9) } else { (5.0, 0.35) };
    let colour = Color::new(1.0, 1.0, 1.0, alpha);
    draw_circle_lines(centre.x, centre.y, ring, 1.5, colour);
    if live {
        draw_circle(centre.x, centre.y, 2.0, colour);
    }
}
