//! Keys and mouse: key presses become `Command`s; the mouse becomes a stir (left drag, with its
//! smoothed world-space velocity), a pull (right button held), or a press and drag of the other
//! tools (pour, erase, heat, cool, draw, grab).

use crate::app::draw::view::View;
use crate::app::game::Command;
use crate::level::Tool;
use crate::sim::Stir;
use macroquad::input::utils;
use macroquad::miniquad::{EventHandler, KeyMods};
use macroquad::prelude::{
    is_key_down, is_mouse_button_down, is_mouse_button_pressed, mouse_position, mouse_wheel,
    KeyCode, MouseButton, Vec2,
};

/// Fastest stir the mouse may ask for, in world units per second.
const MAX_STIR_SPEED: f32 = 40.0;
/// How much of each frame's measured mouse velocity enters the smoothed one.
const SMOOTHING: f32 = 0.5;

/// A key pressed, with the modifiers its own event carried. Shift, Ctrl and Alt are read from
/// the event, not from the keyboard's state when the frame runs: a Shift+3 whose Shift went up
/// before the frame read its keys is still Shift+3 (a quick hand on a slow frame, or a script).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KeyPress {
    /// The key that went down.
    pub key: KeyCode,
    /// Shift was held when it went down.
    pub shift: bool,
    /// Ctrl was held when it went down.
    pub ctrl: bool,
}

/// The keys pressed since the last frame, in the order they went down, from the window's key
/// events (macroquad's input subscriber). Auto-repeats are not presses.
pub struct Keyboard {
    subscriber: usize,
    events: KeyEvents,
}

/// Collects the key-down events handed over by `repeat_all_miniquad_input`.
#[derive(Default)]
struct KeyEvents(Vec<KeyPress>);

impl EventHandler for KeyEvents {
    fn update(&mut self) {}

    fn draw(&mut self) {}

    fn key_down_event(&mut self, key: KeyCode, modifiers: KeyMods, repeat: bool) {
        if !repeat {
            self.0.push(KeyPress {
                key,
                shift: modifiers.shift,
                ctrl: modifiers.ctrl,
            });
        }
    }
}

impl Keyboard {
    /// Subscribes to the window's key events; from then on `take` must be called every frame.
    pub fn new() -> Self {
        Self {
            subscriber: utils::register_input_subscriber(),
            events: KeyEvents::default(),
        }
    }

    /// The keys pressed since the last call.
    pub fn take(&mut self) -> Vec<KeyPress> {
        utils::repeat_all_miniquad_input(&mut self.events, self.subscriber);
        std::mem::take(&mut self.events.0)
    }
}

/// Keys 1 to 9, then 0 for the tenth preset.
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

/// Which menu, if any, is over the world and takes the keys.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Open {
    /// None: the keys work the world.
    Nothing,
    /// The level menu (M).
    Levels,
    /// The scene menu (O).
    Scenes,
}

/// The command of each key pressed this frame (`keys`, as `Keyboard::take` gives them). While
/// a menu is open (`open`) the keys move through it instead: in the level menu Up and Down
/// choose, Enter or a digit plays, M or Esc closes it; in the scene menu the arrows choose,
/// Enter opens, O or Esc closes it (F12 still saves a screenshot).
pub fn commands(open: Open, keys: &[KeyPress]) -> Vec<Command> {
    keys.iter()
        .filter_map(|&press| match open {
            Open::Nothing => command(press),
            Open::Levels => menu_command(press.key),
            Open::Scenes => scene_command(press.key),
        })
        .collect()
}

/// What `key` does while the scene menu is open.
fn scene_command(key: KeyCode) -> Option<Command> {
    Some(match key {
        KeyCode::Left | KeyCode::Up => Command::SceneMove(-1),
        KeyCode::Right | KeyCode::Down => Command::SceneMove(1),
        KeyCode::Enter | KeyCode::KpEnter => Command::Confirm,
        KeyCode::O | KeyCode::Escape => Command::SceneMenu,
        KeyCode::F12 => Command::Screenshot,
        _ => return None,
    })
}

/// What `key` does while the level menu is open.
fn menu_command(key: KeyCode) -> Option<Command> {
    if let Some(index) = DIGITS[..9].iter().position(|&digit| digit == key) {
        return Some(Command::PlayLevel(index));
    }
    Some(match key {
        KeyCode::Up => Command::MenuMove(-1),
        KeyCode::Down => Command::MenuMove(1),
        KeyCode::Enter | KeyCode::KpEnter => Command::Confirm,
        KeyCode::M | KeyCode::Escape => Command::LevelMenu,
        KeyCode::F12 => Command::Screenshot,
        _ => return None,
    })
}

/// What a key press does over the world.
fn command(press: KeyPress) -> Option<Command> {
    // Ctrl+Z undoes, Ctrl+Y or Ctrl+Shift+Z redoes; Ctrl takes Z and Y from the tools, and
    // every other key with it does nothing.
    if press.ctrl {
        return match press.key {
            KeyCode::Z if press.shift => Some(Command::Redo),
            KeyCode::Z => Some(Command::Undo),
            KeyCode::Y => Some(Command::Redo),
            _ => None,
        };
    }
    // With Shift the digits reach the second row of presets (Shift+1 is the eleventh).
    if let Some(index) = DIGITS.iter().position(|&digit| digit == press.key) {
        let row = if press.shift { 10 } else { 0 };
        return Some(Command::SwitchPreset(row + index + 1));
    }
    Some(match press.key {
        KeyCode::B => Command::SwitchPreset(sandbox_number()),
        KeyCode::R => Command::Reset,
        KeyCode::LeftBracket => Command::Coarser,
        KeyCode::RightBracket => Command::Finer,
        KeyCode::Space => Command::TogglePause,
        KeyCode::N => Command::SingleStep,
        KeyCode::P => Command::ToggleParticleView,
        KeyCode::H => Command::ToggleHelp,
        KeyCode::F3 => Command::ToggleStats,
        KeyCode::C => Command::NextView,
        KeyCode::S => Command::ToggleSmoke,
        KeyCode::F5 | KeyCode::L => Command::Reload,
        KeyCode::F12 => Command::Screenshot,
        KeyCode::Escape => Command::Quit,
        KeyCode::Q => Command::SelectTool(Tool::Stir),
        KeyCode::W => Command::SelectTool(Tool::Pour),
        KeyCode::E => Command::SelectTool(Tool::Erase),
        KeyCode::D => Command::SelectTool(Tool::Draw),
        KeyCode::F => Command::SelectTool(Tool::Grab),
        KeyCode::A => Command::SelectTool(Tool::Heat),
        KeyCode::Z => Command::SelectTool(Tool::Cool),
        KeyCode::Tab => Command::NextMaterial,
        KeyCode::I => Command::TogglePalette,
        KeyCode::G | KeyCode::Up => Command::TiltBack,
        KeyCode::T => Command::TogglePanel,
        KeyCode::V => Command::ToggleMute,
        KeyCode::F6 => Command::SaveSnapshot,
        KeyCode::F7 => Command::SavePreset,
        KeyCode::F8 => Command::SaveReplay,
        KeyCode::F9 => Command::SaveGif,
        KeyCode::F10 => Command::ShareLink,
        KeyCode::M => Command::LevelMenu,
        KeyCode::O => Command::SceneMenu,
        KeyCode::Enter | KeyCode::KpEnter => Command::Confirm,
        _ => return None,
    })
}

/// The sandbox's place among the presets, counted from 1 as `Command::SwitchPreset` counts.
fn sandbox_number() -> usize {
    crate::preset::BUILTIN
        .iter()
        .position(|(name, _)| *name == crate::preset::SANDBOX)
        .map_or(1, |index| index + 1)
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The key-down events of one frame, as the window hands them to `Keyboard`.
    fn one_frame(events: &[(KeyCode, KeyMods)]) -> Vec<KeyPress> {
        let mut collected = KeyEvents::default();
        for &(key, modifiers) in events {
            collected.key_down_event(key, modifiers, false);
            collected.key_up_event(key, modifiers);
        }
        collected.0
    }

    /// Modifiers with Shift and Ctrl as given, no Alt or logo key.
    const fn mods(shift: bool, ctrl: bool) -> KeyMods {
        KeyMods {
            shift,
            ctrl,
            alt: false,
            logo: false,
        }
    }
    const NONE: KeyMods = mods(false, false);
    const SHIFT: KeyMods = mods(true, false);
    const CTRL: KeyMods = mods(false, true);

    /// Regression: a Shift+3 whose Shift went down and up within one slow frame arrived as a
    /// plain 3 (the modifier was read from the keyboard's state when the frame ran, by then
    /// up again), and the browser test opened `layers` instead of `bath`.
    #[test]
    fn shift_pressed_and_released_within_one_frame_still_reaches_the_second_row() {
        let keys = one_frame(&[
            (KeyCode::LeftShift, NONE),
            (KeyCode::Key3, SHIFT),
            (KeyCode::Key1, NONE),
        ]);
        assert_eq!(
            commands(Open::Nothing, &keys),
            [Command::SwitchPreset(13), Command::SwitchPreset(1)]
        );
    }

    /// B opens the sandbox, Shift+0 the twentieth preset (the hourglass), and each is the
    /// preset its key's label names.
    #[test]
    fn b_opens_the_sandbox_and_shift_0_the_twentieth_preset() {
        use crate::app::game::session::{key_label, PRESET_KEYS};
        let keys = one_frame(&[(KeyCode::B, NONE), (KeyCode::Key0, SHIFT)]);
        let [Command::SwitchPreset(sandbox), Command::SwitchPreset(twentieth)] =
            commands(Open::Nothing, &keys)[..]
        else {
            panic!("B and Shift+0 switch presets");
        };
        assert_eq!(
            crate::preset::BUILTIN[sandbox - 1].0,
            crate::preset::SANDBOX
        );
        assert_eq!(
            (key_label(sandbox), sandbox),
            ("B".to_string(), PRESET_KEYS)
        );
        assert_eq!(crate::preset::BUILTIN[twentieth - 1].0, "hourglass");
    }

    #[test]
    fn ctrl_keys_undo_and_redo_and_take_z_from_the_tools() {
        let keys = one_frame(&[
            (KeyCode::Z, CTRL),
            (KeyCode::Z, mods(true, true)),
            (KeyCode::Y, CTRL),
            (KeyCode::Q, CTRL),
            (KeyCode::Z, NONE),
        ]);
        assert_eq!(
            commands(Open::Nothing, &keys),
            [
                Command::Undo,
                Command::Redo,
                Command::Redo,
                Command::SelectTool(Tool::Cool)
            ]
        );
    }

    #[test]
    fn the_level_menu_takes_digits_arrows_and_enter() {
        let keys = one_frame(&[
            (KeyCode::Key2, SHIFT),
            (KeyCode::Down, NONE),
            (KeyCode::Enter, NONE),
            (KeyCode::Q, NONE),
        ]);
        assert_eq!(
            commands(Open::Levels, &keys),
            [
                Command::PlayLevel(1),
                Command::MenuMove(1),
                Command::Confirm
            ]
        );
    }

    #[test]
    fn the_scene_menu_takes_arrows_enter_and_closes_on_o() {
        let keys = one_frame(&[
            (KeyCode::Right, NONE),
            (KeyCode::Up, NONE),
            (KeyCode::Enter, NONE),
            (KeyCode::Q, NONE),
            (KeyCode::O, NONE),
        ]);
        assert_eq!(
            commands(Open::Scenes, &keys),
            [
                Command::SceneMove(1),
                Command::SceneMove(-1),
                Command::Confirm,
                Command::SceneMenu
            ]
        );
        assert_eq!(
            commands(Open::Nothing, &one_frame(&[(KeyCode::O, NONE)])),
            [Command::SceneMenu]
        );
    }

    #[test]
    fn auto_repeated_keys_are_not_presses() {
        let mut collected = KeyEvents::default();
        collected.key_down_event(KeyCode::Space, NONE, false);
        collected.key_down_event(KeyCode::Space, NONE, true);
        assert_eq!(collected.0.len(), 1);
    }
}
