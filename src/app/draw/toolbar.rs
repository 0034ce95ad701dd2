//! The touch toolbar: buttons along the bottom of the window for a device without keys (a
//! phone), shown once the screen has been touched, or on a narrow screen. One finger uses the
//! tool in hand (macroquad turns a touch into the mouse); the buttons give the keys' commands:
//! the tools, the material palette, the scene menu, the level menu, pause, reset, share and the
//! sound on or off.

use super::text::{DIM, TEXT};
use crate::app::game::{Command, Game};
use crate::level::Tool;
use crate::sim::numerics::portable::Ordered as _;
use macroquad::prelude::{
    draw_rectangle, draw_rectangle_lines, draw_text, measure_text, screen_height, screen_width,
    touches, Color, Rect, Vec2,
};

/// What a button does.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Action {
    /// Pick this tool.
    Tool(Tool),
    /// Open or close the material palette.
    Palette,
    /// The scene menu.
    Scenes,
    /// The level menu.
    Levels,
    /// Pause or resume.
    Pause,
    /// Reset the scene.
    Reset,
    /// Copy a link to the scene.
    Share,
    /// Sound off or on.
    Sound,
}

/// The buttons, in order, with their labels.
const BUTTONS: &[(&str, Action)] = &[
    ("stir", Action::Tool(Tool::Stir)),
    ("pour", Action::Tool(Tool::Pour)),
    ("erase", Action::Tool(Tool::Erase)),
    ("wall", Action::Tool(Tool::Draw)),
    ("grab", Action::Tool(Tool::Grab)),
    ("heat", Action::Tool(Tool::Heat)),
    ("cool", Action::Tool(Tool::Cool)),
    ("palette", Action::Palette),
    ("scenes", Action::Scenes),
    ("levels", Action::Levels),
    ("pause", Action::Pause),
    ("reset", Action::Reset),
    ("share", Action::Share),
    ("sound", Action::Sound),
];

/// Height of a button, pixels (a fingertip).
const BUTTON_HEIGHT: f32 = 44.0;
/// Narrowest a button gets, pixels.
const NARROWEST: f32 = 56.0;
/// Screens narrower than this show the toolbar without a touch first.
const NARROW_SCREEN: f32 = 700.0;
const BACKGROUND: Color = Color::new(0.0, 0.0, 0.0, 0.72);
const CHOSEN: Color = Color::new(0.25, 0.45, 0.8, 0.9);

/// The toolbar, and whether it shows.
#[derive(Clone, Debug, Default)]
pub struct Toolbar {
    touched: bool,
}

impl Toolbar {
    /// Notes a touch this frame: from then on the toolbar shows.
    pub fn update(&mut self) {
        self.touched |= !touches().is_empty();
    }

    /// True when the toolbar shows.
    pub fn shown(&self) -> bool {
        self.touched || shown_untouched(screen_width())
    }

    /// True when `point` (pixels) is on the toolbar: the mouse (or finger) there is the
    /// toolbar's, not the tool's.
    pub fn captures(&self, point: Vec2) -> bool {
        self.shown() && layout().iter().any(|(rect, _, _)| rect.contains(point))
    }

    /// The command of the button at `point`, if one is there.
    pub fn command_at(&self, point: Vec2) -> Option<Command> {
        if !self.shown() {
            return None;
        }
        let (_, _, action) = layout()
            .into_iter()
            .find(|(rect, _, _)| rect.contains(point))?;
        Some(match action {
            Action::Tool(tool) => Command::SelectTool(tool),
            Action::Palette => Command::TogglePalette,
            Action::Scenes => Command::SceneMenu,
            Action::Levels => Command::LevelMenu,
            Action::Pause => Command::TogglePause,
            Action::Reset => Command::Reset,
            Action::Share => Command::ShareLink,
            Action::Sound => Command::ToggleMute,
        })
    }

    /// Draws the toolbar (when it shows), the tool in hand, a pause and the sound (while on)
    /// marked.
    pub fn draw(&self, game: &Game) {
        if !self.shown() {
            return;
        }
        for (rect, label, action) in layout() {
            let chosen = match action {
                Action::Tool(tool) => game.tools.tool == tool,
                Action::Pause => game.session.paused,
                Action::Sound => !game.progress.sound.muted,
                Action::Palette => game.display.palette,
                Action::Scenes => game.scenes.open,
                _ => false,
            };
            let fill = if chosen { CHOSEN } else { BACKGROUND };
            draw_rectangle(rect.x, rect.y, rect.w, rect.h, fill);
            draw_rectangle_lines(rect.x, rect.y, rect.w, rect.h, 1.0, DIM);
            let size = measure_text(label, None, 18, 1.0);
            draw_text(
                label,
                rect.x + (rect.w - size.width) / 2.0,
                rect.y + (rect.h + size.offset_y) / 2.0,
                18.0,
                TEXT,
            );
        }
    }
}

/// Where each button goes, with its label: rows along the bottom of the screen, as many to a
/// row as fit at `NARROWEST` pixels or more, the lowest row full.
fn layout() -> Vec<(Rect, &'static str, Action)> {
    let width = screen_width().at_least(1.0);
    let (columns, rows) = (columns(width), rows(width));
    let button = width / columns as f32;
    let bottom = screen_height();
    BUTTONS
        .iter()
        .enumerate()
        .map(|(index, &(label, action))| {
            let (row, column) = (index / columns, index % columns);
            let y = bottom - (rows - row) as f32 * BUTTON_HEIGHT;
            (
                Rect::new(column as f32 * button, y, button, BUTTON_HEIGHT),
                label,
                action,
            )
        })
        .collect()
}

/// Whether the toolbar shows on a screen `width` pixels wide before it has been touched (a
/// narrow screen: a phone held upright).
pub fn shown_untouched(width: f32) -> bool {
    width < NARROW_SCREEN
}

/// Pixels the toolbar takes along the bottom of a screen `width` pixels wide, when it shows.
pub fn height_on(width: f32) -> f32 {
    rows(width) as f32 * BUTTON_HEIGHT
}

/// Rows of buttons on a screen `width` pixels wide.
fn rows(width: f32) -> usize {
    BUTTONS.len().div_ceil(columns(width))
}

/// Buttons to a row on a screen `width` pixels wide.
fn columns(width: f32) -> usize {
    ((width.at_least(1.0) / NARROWEST).floor() as usize).clamp(1, BUTTONS.len())
}
