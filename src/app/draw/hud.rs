//! Text over the world: the HUD (the scene's title and the tool in hand, top left, where
//! `layout` puts it), the temperature view's scale, the help overlay, status messages, the
//! reload error banner and the cursors.

use super::layout::{Layout, BANNER, BAR, LINE, PAD};
use super::palette::{degrees, thermometer, THERMOMETER};
use super::text::{baseline, fit, DIM, FONT, PANEL, TEXT, WARN};
use super::view::View;
use crate::app::game::display::Shading;
use crate::app::game::session::{key_label, PRESET_KEYS};
use crate::app::game::{Game, WEB};
use crate::level::Tool;
use crate::preset::Preset;
use crate::sim::numerics::portable::Ordered;
use macroquad::prelude::{
    draw_circle, draw_circle_lines, draw_line, draw_rectangle, draw_text, measure_text, Color,
    Rect, Vec2,
};

/// The HUD's quieter second line.
const SOFT: Color = Color::new(0.78, 0.8, 0.85, 1.0);
/// Behind the HUD's two lines (and the temperature scale): a faint band, quieter than `PANEL`.
const STRIP: Color = Color::new(0.0, 0.0, 0.0, 0.35);
const ERROR_PANEL: Color = Color::new(0.62, 0.08, 0.08, 0.92);
/// Height of a line of the help overlay at the full size.
const HELP_LINE: f32 = 19.0;
/// The help overlay's sizes of type, largest first: the largest its lines fit the window in.
pub(crate) const HELP_SIZES: [u16; 4] = [FONT, 14, 12, 10];

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
    (
        "Tab",
        "next material to pour: the scene's, then the library's",
    ),
    (
        "I",
        "material palette: click a swatch to pour it (any material, into any scene)",
    ),
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
    (
        "T",
        "live panel: tune the material and gravity; the sound's volume",
    ),
    ("V", "sound off / on (the volume is kept)"),
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
    (
        "1-9, 0",
        "switch preset (Shift+1 to Shift+0: the eleventh to the twentieth)",
    ),
    (
        "B",
        "the sandbox: an empty box with every material (Tab picks one)",
    ),
    ("O", "scenes: each scene as a picture; click one to open it"),
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
        "view: natural / shade by pressure / by speed / colour by temperature",
    ),
    ("S", "show / hide the smoke (scenes with air)"),
    (
        "F3",
        "engine figures: frame rate, ms, substeps, solver (--stats)",
    ),
    ("F5 or L", "reload the preset file"),
    ("H", "this help"),
    ("F12", "screenshot (PNG)"),
    ("Esc", "quit"),
];

/// The keys of `CONTROLS` that need files, left out of the help in a web page.
const NOT_ON_THE_WEB: &[&str] = &["F6 / F7", "F5 or L", "F12"];

/// The scene's title as the HUD shows it: a level's own title; else the words of the preset's
/// description before its colon when they are few ("Dam break"), else its name with a capital
/// ("Layers").
pub fn title(preset: &Preset) -> String {
    if let Some(level) = &preset.level {
        return level.rules.title.clone();
    }
    match preset.description.split_once(':') {
        Some((words, _)) if words.split_whitespace().count() <= TITLE_WORDS => words.to_string(),
        _ => capitalised(&preset.name),
    }
}

/// What the HUD's first line says in the sandbox, after its title: how to start building.
const SANDBOX_HINT: &str = " · I: materials, W: pour";

/// Most words a description's part before its colon may have to be a title.
const TITLE_WORDS: usize = 3;

/// `text` with its first letter a capital.
fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_uppercase().chain(chars).collect()
    })
}

/// A piece of a HUD line in its colour.
type Piece = (String, Color);

/// The HUD's first line: the scene's title (a level's with the seconds left), then "paused".
fn title_line(game: &Game) -> Vec<Piece> {
    let mut title = title(&game.session.preset);
    if let Some(attempt) = game.attempt() {
        title.push_str(&format!(
            " · {:.0} s",
            attempt.seconds_left().ceil().at_least(0.0)
        ));
    }
    let mut line = vec![(title, TEXT)];
    if game.session.preset.name == crate::preset::SANDBOX && game.attempt().is_none() {
        line.push((SANDBOX_HINT.into(), DIM));
    }
    if game.session.paused {
        line.push((" · paused".into(), WARN));
    }
    if game.progress.sound.muted {
        line.push((" · muted".into(), DIM));
    }
    line
}

/// The HUD's second line: the tool in hand and what it works on (the material poured where
/// there is a choice, the body held, the temperature under the ring where heat matters), the
/// box's tilt, a level's budget left, then the help key where there are keys (`keys`). A
/// replay playing, which takes no input, says so instead, or why it stopped.
fn tool_line(game: &Game, cursor: Option<Vec2>, keys: bool) -> Vec<Piece> {
    if let Some(error) = &game.recording.replay_error {
        return vec![(format!("Replay stopped: {error}"), WARN)];
    }
    if game.replaying() {
        return vec![("Replaying a recording".into(), WARN)];
    }
    let tool = game.tools.tool;
    let mut said = vec![format!("Tool: {}", capitalised(tool.name()))];
    if tool == Tool::Grab {
        said.push(match game.session.world.bodies() {
            None => "no bodies here".into(),
            Some(bodies) => match bodies.held() {
                Some((index, _, _)) => format!("holding the {}", bodies.specs()[index].name),
                None => "press on a body".into(),
            },
        });
    } else if tool == Tool::Pour && game.tools.offered(&game.session.world).len() > 1 {
        said.push(game.tools.material_name(&game.session.world));
    }
    let heat_matters =
        matches!(tool, Tool::Heat | Tool::Cool) || game.display.shading == Shading::Temperature;
    if let Some(mean) = cursor.filter(|_| heat_matters).and_then(|at| {
        game.session
            .world
            .temperature_near(at, game.tools.stir_radius)
    }) {
        said.push(degrees(mean));
    }
    if game.tools.tilt != 0.0 {
        let side = if game.tools.tilt > 0.0 {
            "left"
        } else {
            "right"
        };
        said.push(format!(
            "tilted {:.0}° {side}",
            game.tools.tilt.abs().to_degrees()
        ));
    }
    said.extend(super::level_hud::budgets(game));
    let mut line = vec![(said.join(" · "), SOFT)];
    if keys {
        line.push((" · H help".into(), DIM));
    }
    line
}

/// Draws the HUD at the top left of `layout`: the scene's title and the tool in hand, a
/// level's progress between them, and the temperature view's scale under them. `cursor` is the
/// mouse in world units, where the HUD reads the temperature under the ring; `keys` says whether
/// there are keys to name (not on a touch screen). Returns the HUD's part of the window as
/// drawn: within the strip and the scale's room.
pub fn draw(game: &Game, cursor: Option<Vec2>, layout: &Layout, keys: bool) -> Rect {
    let strip = layout.strip;
    let lines = [title_line(game), tool_line(game, cursor, keys)];
    let room = strip.w - 2.0 * PAD;
    let widest = lines
        .iter()
        .map(|line| width_of(line).at_most(room))
        .fold(0.0, crate::sim::numerics::portable::max);
    let level = game.attempt().is_some();
    // The bar wants some length even under a short line.
    let inner = if level {
        widest.at_least(room.at_most(LEVEL_BAR))
    } else {
        widest
    };
    let drawn = Rect::new(strip.x, strip.y, inner + 2.0 * PAD, strip.h);
    draw_rectangle(drawn.x, drawn.y, drawn.w, drawn.h, STRIP);
    let mut top = strip.y + PAD;
    for (row, line) in lines.iter().enumerate() {
        draw_pieces(line, strip.x + PAD, baseline(top), room);
        top += LINE;
        if row == 0 && level {
            super::level_hud::draw_progress(game, Rect::new(strip.x + PAD, top, inner, BAR));
            top += BAR;
        }
    }
    let mut shown = drawn;
    if let Some(legend) = layout.legend {
        draw_temperature_scale(legend);
        shown = shown.combine_with(legend);
    }
    shown
}

/// Draws what goes over everything else: the status message over the bottom (above the
/// toolbar), the help overlay and the reload error's banner across the top.
pub fn draw_overlays(game: &Game, presets: &[Preset], layout: &Layout) {
    if let Some(message) = game.message() {
        let (sw, sh) = (
            macroquad::prelude::screen_width(),
            macroquad::prelude::screen_height(),
        );
        let bottom = layout.toolbar.map_or(0.0, |toolbar| toolbar.h);
        let message = fit(message, sw - 40.0, 24);
        let size = measure_text(&message, None, 24, 1.0);
        let x = (sw - size.width) * 0.5;
        let y = sh - bottom - 40.0;
        draw_rectangle(x - 12.0, y - 26.0, size.width + 24.0, 36.0, PANEL);
        draw_text(&message, x, y, 24.0, TEXT);
    }

    if game.display.help {
        draw_help(game, presets);
    }

    if let Some(error) = &game.session.reload_error {
        let sw = macroquad::prelude::screen_width();
        draw_rectangle(0.0, 0.0, sw, BANNER, ERROR_PANEL);
        let text = format!("preset not reloaded: {error}");
        draw_text(fit(&text, sw - 20.0, FONT), 10.0, 20.0, FONT as f32, TEXT);
    }
}

/// The shortest a level's progress bar gets, pixels.
const LEVEL_BAR: f32 = 200.0;

/// Width of a line's pieces drawn side by side, pixels.
fn width_of(line: &[Piece]) -> f32 {
    line.iter()
        .map(|(text, _)| measure_text(text, None, FONT, 1.0).width)
        .sum()
}

/// Draws a line's pieces side by side from (`x`, `y`), within `room` pixels: the first piece is
/// cut to leave room for the others.
fn draw_pieces(line: &[Piece], x: f32, y: f32, room: f32) {
    let Some(((first, colour), rest)) = line.split_first() else {
        return;
    };
    let first = (fit(first, room - width_of(rest), FONT), *colour);
    let mut x = x;
    for (text, colour) in std::iter::once(&first).chain(rest) {
        draw_text(text, x, y, f32::from(FONT), *colour);
        x += measure_text(text, None, FONT, 1.0).width;
    }
}

/// The temperature view's legend in `rect`: a bar through the thermometer's colours, a stop to
/// each tick, each tick labelled with its temperature.
fn draw_temperature_scale(rect: Rect) {
    let stops = &THERMOMETER;
    let (pad, bar) = (12.0, 12.0);
    let (x, y) = (rect.x, rect.y);
    let step = (rect.w - 2.0 * pad - 20.0) / (stops.len() - 1) as f32;
    let width = (stops.len() - 1) as f32 * step;
    draw_rectangle(rect.x, rect.y, rect.w, rect.h, STRIP);
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
        let tick = left + index as f32 * step;
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

/// The help overlay: in a level, its goals and how far each is; every key, then each preset's
/// key, name and description.
fn draw_help(game: &Game, presets: &[Preset]) {
    let (sw, sh) = (
        macroquad::prelude::screen_width(),
        macroquad::prelude::screen_height(),
    );
    let mut lines = super::level_hud::help_lines(game);
    if !lines.is_empty() {
        lines.push((String::new(), TEXT));
    }
    lines.push(("Controls".into(), WARN));
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
    // The scenes on keys: the benchmarks' scenes after them are no player's.
    for (index, preset) in presets.iter().take(PRESET_KEYS).enumerate() {
        let key = key_label(index + 1);
        lines.push((
            format!("{key:<7}  {:<9} {}", preset.name, preset.description),
            TEXT,
        ));
    }
    for key in presets.len() + 1..=PRESET_KEYS {
        lines.push((format!("{}  (no preset on this key)", key_label(key)), DIM));
    }
    // More lines than the window is tall: smaller type rather than lines off the bottom.
    // Of the sizes the font's atlas holds from the start (`HELP_SIZES`): a size first drawn
    // mid-frame grows the atlas, and the glyphs drawn before from the old one go missing.
    let fits = (sh - 8.0) / (lines.len() as f32 * HELP_LINE + 20.0);
    let font = HELP_SIZES
        .iter()
        .copied()
        .find(|&size| f32::from(size) <= f32::from(FONT) * fits)
        .unwrap_or(HELP_SIZES[HELP_SIZES.len() - 1]);
    let scale = f32::from(font) / f32::from(FONT);
    let line = HELP_LINE * scale;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scene_has_a_short_title() {
        let level = Preset::load_level("first-pour").expect("embedded");
        assert_eq!(title(&level), "First pour");
        for (name, _) in crate::preset::BUILTIN {
            let preset = Preset::load(name).expect("embedded");
            let title = title(&preset);
            let capital = title.chars().next().is_some_and(char::is_uppercase);
            assert!(capital && title.chars().count() <= 20, "{name}: {title:?}");
            let expected = match *name {
                "dam" => "Dam break",
                "seed" => "The seed's scene",
                "layers" => "Layers",
                "jelly" => "Jelly",
                _ => continue,
            };
            assert_eq!(title, expected);
        }
    }

    /// The words of a list of keys: letters, digits, `+` and brackets held together
    /// ("Ctrl+Z", "F12", "["), everything else apart.
    fn words(text: &str) -> Vec<&str> {
        text.split(|c: char| !(c.is_alphanumeric() || "+[]".contains(c)))
            .filter(|word| !word.is_empty())
            .collect()
    }

    #[test]
    fn the_help_and_the_guide_name_the_same_keys() {
        let guide = include_str!("../../../docs/GUIDE.md");
        let table = &guide[guide.find("### Keys and mouse").expect("the keys' section")..];
        let table = &table[..table.find("\n### ").expect("a section after it")];
        let guide_words = words(table);
        let help_words: Vec<&str> = CONTROLS
            .iter()
            .flat_map(|(key, what)| words(key).into_iter().chain(words(what)))
            .collect();
        for (key, _) in CONTROLS {
            for word in words(key) {
                assert!(
                    guide_words.contains(&word),
                    "GUIDE.md's keys lack {word} ({key})"
                );
            }
        }
        // Each key of the guide's first column, without what it says in brackets.
        for row in table.lines().filter(|line| line.starts_with("| ")).skip(2) {
            let key = row.split('|').nth(1).unwrap_or_default();
            let key = key.split('(').next().unwrap_or_default();
            for word in words(key).into_iter().filter(|&word| word != "or") {
                assert!(help_words.contains(&word), "the help lacks {word} ({row})");
            }
        }
    }
}
