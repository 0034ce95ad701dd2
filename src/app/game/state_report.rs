//! The window's state as one JSON line, for scripts and tests that drive the window or the page
//! with synthetic keys and mouse: they wait until the state shows what they did (the scene, a
//! pause, the tool in hand, a frame drawn since), never for a length of time that a slow machine
//! may not keep.
//!
//! Natively `--report-state` prints `state {…}` on standard output after every frame drawn. A page
//! has no standard output: it logs `slosh: state {…}` on the browser's console whenever anything
//! but the frame count changed (a page counts its frames with `requestAnimationFrame`).

use crate::app::game::Game;
use serde::Serialize;

/// What a script can wait for, besides the frame count.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WindowState {
    /// The scene running: its preset's or level's name.
    pub preset: String,
    /// The level played, as its index in the level menu, if the scene is one of them.
    pub level: Option<usize>,
    /// The simulation is paused.
    pub paused: bool,
    /// The tool in hand (`Tool::name`).
    pub tool: &'static str,
    /// The material poured, as its index in the scene's materials.
    pub material: usize,
    /// How the liquid is coloured (`Shading::name`).
    pub view: &'static str,
    /// The live panel shows.
    pub panel: bool,
    /// The material palette is open (I).
    pub palette: bool,
    /// The engine's figures show (F3).
    pub stats: bool,
    /// The level menu shows.
    pub menu: bool,
    /// The touch toolbar shows.
    pub toolbar: bool,
    /// The left button is held over the world (the tool in hand is at work).
    pub held: bool,
    /// Edits that can be undone.
    pub undo: usize,
    /// Edits that can be redone.
    pub redo: usize,
    /// Files saved so far (screenshots, presets, snapshots, replays, GIFs).
    pub saved: usize,
    /// The message shown on the status line, if any.
    pub message: Option<String>,
    /// Where the sound stands: `on`, `waiting for a click` (a page before its first click or
    /// touch), `starting`, or `off: why`.
    pub sound: String,
    /// The sound is muted (V).
    pub muted: bool,
}

impl WindowState {
    /// The state of `game`, with the mouse's left button `held`, the touch toolbar `toolbar`
    /// shown or not, and the sound as `sound` says (`audio::Status::describe`).
    pub fn of(game: &Game, held: bool, toolbar: bool, sound: &str) -> Self {
        let (undo, redo) = game.recording.history.steps();
        Self {
            preset: game.session.preset.name.clone(),
            level: game.level_index(),
            paused: game.session.paused,
            tool: game.tools.tool.name(),
            material: game.tools.material,
            palette: game.display.palette,
            view: game.display.shading.name(),
            panel: game.display.panel,
            stats: game.display.stats,
            menu: game.menu.open,
            toolbar,
            held,
            undo,
            redo,
            saved: game.display.saved,
            message: game.message().map(str::to_owned),
            sound: sound.to_owned(),
            muted: game.progress.sound.muted,
        }
    }
}

/// One reported line: the frame and the state after it.
#[derive(Serialize)]
struct Line<'a> {
    /// Frames drawn so far, the first being 1.
    frame: u64,
    #[serde(flatten)]
    state: &'a WindowState,
}

/// Reports the state: every frame natively when asked (`--report-state`), on every change in a
/// page.
pub struct StateReport {
    /// Print every frame on standard output (natively, with `--report-state`).
    every_frame: bool,
    /// Log changes on the console (in a page).
    on_console: bool,
    last: Option<WindowState>,
}

impl StateReport {
    /// A report on standard output after every frame if `every_frame`, and on the console at
    /// every change if `on_console`.
    pub fn new(every_frame: bool, on_console: bool) -> Self {
        Self {
            every_frame,
            on_console,
            last: None,
        }
    }

    /// Reports the state after frame `frame`, which `state` gives; nothing is asked of it when
    /// nothing reports.
    pub fn note(&mut self, frame: u64, state: impl FnOnce() -> WindowState) {
        if !self.every_frame && !self.on_console {
            return;
        }
        let state = state();
        let changed = self.last.as_ref() != Some(&state);
        let line = serde_json::to_string(&Line {
            frame,
            state: &state,
        })
        .unwrap_or_default();
        if self.every_frame {
            println!("state {line}");
        }
        if self.on_console && changed {
            macroquad::logging::info!("slosh: state {}", line);
        }
        self.last = Some(state);
    }
}
