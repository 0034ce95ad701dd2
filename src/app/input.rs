//! Keys and mouse: key presses become `Command`s; the mouse becomes a stir (left drag, with its
//! smoothed world-space velocity), a pull (right button held), or a press and drag of the other
//! tools (pour, erase, heat, cool, draw, grab).

use super::game::Command;
use super::render::View;
use super::tools::Tool;
use crate::sim::Stir;
use macroquad::prelude::{
    is_key_down, is_key_pressed, is_mouse_button_down, is_mouse_button_pressed, mouse_position,
    mouse_wheel, KeyCode, MouseButton, Vec2,
};

/// Fastest stir the mouse may ask for, in world units per second.
const MAX_STIR_SPEED: f32 = 40.0;
/// How much of each frame's measured mouse velocity enters the smoothed one.
const SMOOTHING: f32 = 0.5;

/// Commands for the keys pressed this frame. While the level menu is open (`menu_open`) the keys
/// move through it instead: Up and Down choose, Enter or a digit plays, M or Esc closes it
/// (F12 still saves a screenshot).
pub fn commands(menu_open: bool) -> Vec<Command> {
    // Keys 1 to 9, then 0 for the tenth preset.
    const DIGITS: [KeyCode; 10] = [
        KeyCode::Key1,
        KeyCode::Key2,
        KeyCode::Key3,
        KeyCode::Key4,
        KeyCode::Key5,
        KeyCode::Key6,
        KeyCode::Key7,
        KeyCode::Key8,
        KeyCode::Key9,
        KeyCode::Key0,
    ];
    // With Shift the digits reach the second row of presets (Shift+1 is the eleventh). A Shift
    // pressed and let go within this frame counts too (scripted input does that).
    let shift = [KeyCode::LeftShift, KeyCode::RightShift]
        .iter()
        .any(|&key| is_key_down(key) || is_key_pressed(key));
    let row = if shift { 10 } else { 0 };
    if menu_open {
        let mut commands: Vec<Command> = DIGITS[..9]
            .iter()
            .enumerate()
            .filter(|(_, &key)| is_key_pressed(key))
            .map(|(index, _)| Command::PlayLevel(index))
            .collect();
        let keys = [
            (KeyCode::Up, Command::MenuMove(-1)),
            (KeyCode::Down, Command::MenuMove(1)),
            (KeyCode::Enter, Command::Confirm),
            (KeyCode::KpEnter, Command::Confirm),
            (KeyCode::M, Command::LevelMenu),
            (KeyCode::Escape, Command::LevelMenu),
            (KeyCode::F12, Command::Screenshot),
        ];
        commands.extend(
            keys.iter()
                .filter(|(key, _)| is_key_pressed(*key))
                .map(|&(_, command)| command),
        );
        return commands;
    }
    // Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes; Ctrl takes Z and Y from the tools.
    let ctrl = [KeyCode::LeftControl, KeyCode::RightControl]
        .iter()
        .any(|&key| is_key_down(key) || is_key_pressed(key));
    if ctrl {
        let mut commands = Vec::new();
        if is_key_pressed(KeyCode::Z) {
            commands.push(if shift { Command::Redo } else { Command::Undo });
        }
        if is_key_pressed(KeyCode::Y) {
            commands.push(Command::Redo);
        }
        return commands;
    }
    let mut commands: Vec<Command> = DIGITS
        .iter()
        .enumerate()
        .filter(|(_, &key)| is_key_pressed(key))
        .map(|(index, _)| Command::SwitchPreset(row + index + 1))
        .collect();
    let keys = [
        (KeyCode::R, Command::Reset),
        (KeyCode::LeftBracket, Command::Coarser),
        (KeyCode::RightBracket, Command::Finer),
        (KeyCode::Space, Command::TogglePause),
        (KeyCode::N, Command::SingleStep),
        (KeyCode::P, Command::ToggleParticleView),
        (KeyCode::H, Command::ToggleHelp),
        (KeyCode::C, Command::NextView),
        (KeyCode::S, Command::ToggleSmoke),
        (KeyCode::F5, Command::Reload),
        (KeyCode::L, Command::Reload),
        (KeyCode::F12, Command::Screenshot),
        (KeyCode::Escape, Command::Quit),
        (KeyCode::Q, Command::SelectTool(Tool::Stir)),
        (KeyCode::W, Command::SelectTool(Tool::Pour)),
        (KeyCode::E, Command::SelectTool(Tool::Erase)),
        (KeyCode::D, Command::SelectTool(Tool::Draw)),
        (KeyCode::F, Command::SelectTool(Tool::Grab)),
        (KeyCode::A, Command::SelectTool(Tool::Heat)),
        (KeyCode::Z, Command::SelectTool(Tool::Cool)),
        (KeyCode::Tab, Command::NextMaterial),
        (KeyCode::G, Command::TiltBack),
        (KeyCode::Up, Command::TiltBack),
        (KeyCode::T, Command::TogglePanel),
        (KeyCode::F6, Command::SaveSnapshot),
        (KeyCode::F7, Command::SavePreset),
        (KeyCode::F8, Command::SaveReplay),
        (KeyCode::F9, Command::SaveGif),
        (KeyCode::F10, Command::ShareLink),
        (KeyCode::M, Command::LevelMenu),
        (KeyCode::Enter, Command::Confirm),
        (KeyCode::KpEnter, Command::Confirm),
    ];
    commands.extend(
        keys.iter()
            .filter(|(key, _)| is_key_pressed(*key))
            .map(|&(_, command)| command),
    );
    commands
}

/// Which way the arrow keys tilt the box now: 1 anticlockwise (Left, the liquid runs left), −1
/// clockwise (Right).
pub fn tilt_direction() -> f32 {
    f32::from(u8::from(is_key_down(KeyCode::Left)))
        - f32::from(u8::from(is_key_down(KeyCode::Right)))
}

/// Wheel notches this frame: positive scrolls up (grows the stir radius).
pub fn wheel_notches() -> f32 {
    let (_, y) = mouse_wheel();
    if y.is_finite() {
        y.signum() * (y != 0.0) as u8 as f32
    } else {
        0.0
    }
}

/// The mouse over the world: position, smoothed velocity, buttons.
#[derive(Clone, Debug, Default)]
pub struct Mouse {
    /// Cursor in world units, when known.
    pub position: Option<Vec2>,
    /// Smoothed velocity in world units per second.
    pub velocity: Vec2,
    /// Left button held (stirring).
    pub stirring: bool,
    /// Right button held (pulling).
    pub pulling: bool,
    /// The left button went down this frame.
    pub pressed: bool,
    /// Where the left button went down, while it is held (the start of a drawn wall).
    pub pressed_at: Option<Vec2>,
    /// Start and end of a left drag that ended this frame.
    pub released: Option<(Vec2, Vec2)>,
}

impl Mouse {
    /// Reads the mouse for a frame that took `dt` seconds.
    pub fn update(&mut self, view: &View, dt: f32) {
        let (x, y) = mouse_position();
        let pixel = Vec2::new(x, y);
        let now = pixel.is_finite().then(|| view.to_world(pixel));
        let fresh_press = is_mouse_button_pressed(MouseButton::Left);
        self.stirring = is_mouse_button_down(MouseButton::Left);
        self.pulling = is_mouse_button_down(MouseButton::Right);
        let measured = match (self.position, now) {
            (Some(before), Some(now)) if !fresh_press && dt > 1e-4 && dt < 0.25 => {
                let velocity = (now - before) / dt;
                if velocity.is_finite() {
                    velocity.clamp_length_max(MAX_STIR_SPEED)
                } else {
                    Vec2::ZERO
                }
            }
            _ => Vec2::ZERO,
        };
        self.released = None;
        self.pressed = fresh_press;
        if fresh_press {
            self.pressed_at = now;
        }
        if !self.stirring {
            if let (Some(start), Some(end)) = (self.pressed_at.take(), now.or(self.position)) {
                self.released = Some((start, end));
            }
        }
        self.velocity += (measured - self.velocity) * SMOOTHING;
        if !self.velocity.is_finite() {
            self.velocity = Vec2::ZERO;
        }
        self.position = now;
    }

    /// Forgets the button state (the mouse went to the panel).
    pub fn release(&mut self) {
        self.stirring = false;
        self.pulling = false;
        self.pressed = false;
        self.pressed_at = None;
        self.released = None;
    }

    /// The stir to apply this frame, while the left button is held.
    pub fn stir(&self, radius: f32) -> Option<Stir> {
        let position = self.position?;
        self.stirring.then_some(Stir {
            position,
            velocity: self.velocity,
            radius,
        })
    }

    /// Where to pull toward, while the right button is held.
    pub fn pull(&self) -> Option<Vec2> {
        self.position.filter(|_| self.pulling)
    }
}
