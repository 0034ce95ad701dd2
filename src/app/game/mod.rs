//! The demo's state without any window types: a thin composition of the running scene
//! (`Session`), the recording or replay (`Recording`), the player's tools (`Tools`) and what the
//! window shows (`Display`), which turns each command and mouse frame into calls on those parts.

pub(crate) mod display;
pub(crate) mod hearing;
pub(crate) mod levels;
pub(crate) mod page;
pub(crate) mod recording;
pub(crate) mod scenes;
pub(crate) mod session;
pub(crate) mod state_report;
pub(crate) mod tools;

use crate::level::{self, Attempt, Outcome, Tool};
use crate::preset::{Preset, BUILTIN};
use crate::replay::{Feed, Input, Recorder};
use crate::sim::{EditError, Material, Tunable, World};
use display::Display;
use glam::Vec2;
use hearing::Hearing;
use levels::{Menu, Progress, TOOLS};
use recording::Recording;
use scenes::SceneMenu;
use session::{checkout_differs, key_label, PresetSource, Resolution, Scale, Session, PRESET_KEYS};
use tools::{FrameInput, Tools};

/// True in a web page (`wasm32`): one thread, no files, no command line.
pub const WEB: bool = cfg!(target_arch = "wasm32");

/// One thing the player asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Command {
    /// The embedded preset on number key 1–12 (see `key_label`).
    SwitchPreset(usize),
    /// Half the particles of the current preset (coarser), restarting it.
    Coarser,
    /// Twice the particles of the current preset (finer), restarting it.
    Finer,
    /// A fresh world from the current preset.
    Reset,
    /// Pause or resume the simulation.
    TogglePause,
    /// One simulation frame while paused.
    SingleStep,
    /// Plain dots instead of the liquid surface.
    ToggleParticleView,
    /// The help overlay.
    ToggleHelp,
    /// The engine's figures (frame rate, milliseconds, substeps, solver).
    ToggleStats,
    /// The next view: shaded by pressure, by speed, or coloured by temperature.
    NextView,
    /// Sound off or on again (the volume is kept).
    ToggleMute,
    /// Show or hide the smoke (in scenes with air).
    ToggleSmoke,
    /// Read the preset file again.
    Reload,
    /// Save a PNG of the window.
    Screenshot,
    /// Pick the mouse's tool.
    SelectTool(Tool),
    /// The next of the preset's materials for pouring.
    NextMaterial,
    /// The world's material of this index for pouring (a swatch of the palette).
    SelectMaterial(usize),
    /// Open or close the material palette.
    TogglePalette,
    /// Gravity back to the preset's.
    TiltBack,
    /// Show or hide the live panel.
    TogglePanel,
    /// Write the scene, as edited, as a preset file.
    SavePreset,
    /// Write a snapshot of the whole state.
    SaveSnapshot,
    /// Save the replay of the session so far (in a page: download it).
    SaveReplay,
    /// Copy a link to the scene as edited (`crate::share`) and show it.
    ShareLink,
    /// Save the last seconds of the window as an animated GIF (`capture`).
    SaveGif,
    /// The world as it was before the last edit (`replay::History`).
    Undo,
    /// The last edit undone done again.
    Redo,
    /// Open or close the level menu.
    LevelMenu,
    /// Open or close the scene menu.
    SceneMenu,
    /// Move the scene menu's choice by this many cards.
    SceneMove(isize),
    /// Move the level menu's selection by this many rows.
    MenuMove(isize),
    /// Play level `index` (in `level::BUILTIN`'s order), if it is open.
    PlayLevel(usize),
    /// Enter: in the scene menu, open the scene chosen; in the level menu, play the level
    /// chosen; after a level ends, the next one (won) or
    /// the same again (lost).
    Confirm,
    /// Close the window.
    Quit,
}

/// Everything the demo knows besides how to draw it, in four parts with one job each; the
/// methods below are the window's calls, each handed to the parts it concerns.
pub struct Game {
    /// The scene running now: preset, world, clock, hot reload.
    pub session: Session,
    /// The inputs recorded, or the replay played instead.
    pub recording: Recording,
    /// The tool in hand, its ring, the material poured, the tilt.
    pub tools: Tools,
    /// What the window shows and how.
    pub display: Display,
    /// The stars earned in each level, kept between runs.
    pub progress: Progress,
    /// The level menu.
    pub menu: Menu,
    /// The scene menu.
    pub scenes: SceneMenu,
    /// The sound events of the frames run, while the window plays them (`hear`).
    hearing: Option<Hearing>,
    /// Whether the current go at a level has been counted in `progress` (once it is won).
    counted: bool,
    quit: bool,
    screenshot_requested: bool,
    save_requested: Option<Command>,
}

impl Game {
    /// A game on `preset` (already `rescaled`), loaded from `source`; `resolution` says how many
    /// particles every preset loaded later gets.
    pub fn new(preset: Preset, source: PresetSource, seed: u64, resolution: Resolution) -> Self {
        Self::with_inputs(
            preset,
            source,
            seed,
            resolution,
            Scale::default(),
            None,
            None,
        )
    }

    /// `new`, recording every input to `recorder` or playing `feed` instead of taking any;
    /// `scale` is how `preset` was rescaled (as `rescaled_to` gives it).
    pub fn with_inputs(
        preset: Preset,
        source: PresetSource,
        seed: u64,
        resolution: Resolution,
        scale: Scale,
        recorder: Option<Recorder>,
        feed: Option<Feed>,
    ) -> Self {
        let session = Session::new(preset, source, seed, resolution, scale);
        let mut game = Self {
            tools: Tools::new(&session.world),
            session,
            recording: Recording::new(recorder, feed),
            display: Display::default(),
            progress: Progress::default(),
            menu: Menu::default(),
            scenes: SceneMenu::default(),
            hearing: None,
            counted: false,
            quit: false,
            screenshot_requested: false,
            save_requested: None,
        };
        if game.recording.replaying() {
            game.play_due();
            return game;
        }
        game.record_preset();
        game.pick_allowed_tool();
        game.session.watch();
        if let PresetSource::Builtin { name, .. } = &game.session.source {
            // A checkout's edited file wins over the embedded text from the start.
            if checkout_differs(name, false) {
                game.reload();
            }
        }
        game
    }

    /// A short status line (preset switched, screenshot saved…), while it is fresh.
    pub fn message(&self) -> Option<&str> {
        self.display.message()
    }

    /// Shows `text` for a moment.
    pub fn say(&mut self, text: impl Into<String>) {
        self.display.say(text);
    }

    /// True once Esc was pressed.
    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    /// True (once) after F12.
    pub fn take_screenshot_request(&mut self) -> bool {
        std::mem::take(&mut self.screenshot_requested)
    }

    /// The save the player asked for (F6 to F10), once.
    pub fn take_save_request(&mut self) -> Option<Command> {
        self.save_requested.take()
    }

    /// Applies one command.
    pub fn apply(&mut self, command: Command) {
        let needs_files = matches!(
            command,
            Command::Screenshot | Command::SavePreset | Command::SaveSnapshot | Command::Reload
        );
        if WEB && needs_files {
            self.say("not in a web page: the page cannot write or read files");
            return;
        }
        match command {
            Command::SwitchPreset(key) => self.switch_to_key(key),
            Command::Coarser => self.rescale(0.5),
            Command::Finer => self.rescale(2.0),
            Command::Reset => {
                self.rebuild();
                self.say(format!("{}: reset", self.session.preset.name));
            }
            Command::TogglePause => self.session.toggle_pause(),
            Command::SingleStep => self.session.request_step(),
            Command::ToggleParticleView => {
                self.display.particle_view = !self.display.particle_view;
            }
            Command::ToggleHelp => self.display.help = !self.display.help,
            Command::ToggleStats => self.display.stats = !self.display.stats,
            Command::ToggleSmoke => {
                let has_air = self.session.world.air().is_some();
                self.display.toggle_smoke(has_air);
            }
            Command::NextView => self.display.next_view(),
            Command::ToggleMute => {
                let muted = !self.progress.sound.muted;
                self.progress.sound.muted = muted;
                self.say(if muted { "sound off (V)" } else { "sound on" });
                self.keep_progress();
            }
            Command::Reload => {
                if self.reload() {
                    self.say(format!("{}: reloaded", self.session.preset.name));
                }
            }
            Command::Screenshot => self.screenshot_requested = true,
            Command::Quit => self.quit = true,
            Command::LevelMenu => {
                self.scenes.open = false;
                self.toggle_menu()
            }
            Command::SceneMenu => {
                self.menu.open = false;
                self.scenes.toggle(&self.session.preset.name)
            }
            Command::SceneMove(cards) => self.scenes.step(cards),
            Command::MenuMove(rows) => self.menu.step(rows),
            Command::PlayLevel(index) => self.play_level(index),
            Command::Confirm => self.confirm(),
            Command::SelectTool(tool) => {
                if let Err(refused) = self.allows(tool) {
                    self.say(refused);
                    return;
                }
                self.release_body();
                self.tools.tool = tool;
                self.say(format!("tool: {}", tool.name()));
            }
            Command::NextMaterial => {
                let said = self.tools.next_material(&self.session.world);
                self.say(said);
            }
            Command::SelectMaterial(index) => {
                if let Some(said) = self.tools.select_material(&self.session.world, index) {
                    self.say(said);
                }
                // A body is placed by the pour tool's click.
                if self.tools.in_hand(&self.session.world).body {
                    self.tools.tool = Tool::Pour;
                }
            }
            Command::TogglePalette => self.display.palette = !self.display.palette,
            Command::TiltBack => {
                if self.allows(Tool::Tilt).is_err() {
                    return;
                }
                let gravity = self.session.preset.scene.params.gravity;
                let world = &mut self.session.world;
                self.tools.tilt_back(world, &mut self.recording, gravity);
            }
            Command::TogglePanel => self.display.panel = !self.display.panel,
            Command::Undo | Command::Redo => self.undo_or_redo(command == Command::Undo),
            Command::SavePreset
            | Command::SaveSnapshot
            | Command::SaveReplay
            | Command::ShareLink
            | Command::SaveGif => {
                self.save_requested = Some(command);
            }
        }
    }

    /// Undoes the last edit (`undo`) or redoes the last undone, and says what happened: the
    /// world goes back (or forward) whole, time with it, and goes on from there.
    fn undo_or_redo(&mut self, undo: bool) {
        self.release_body();
        let input = if undo { Input::Undo } else { Input::Redo };
        let said = match self.input(input) {
            Ok(()) => {
                let (undos, redos) = self.recording.history.steps();
                let megabytes = self.recording.history.bytes() as f64 / 1e6;
                let done = if undo { "undone" } else { "redone" };
                format!("{done} ({undos} to undo, {redos} to redo, {megabytes:.0} MB kept)")
            }
            Err(error) => error.to_string(),
        };
        self.tools.keep_stir_radius_in(&self.session.world);
        self.say(said);
    }

    /// Applies `input` to the world and records it; a refused input changes nothing and is not
    /// recorded. While a replay plays, live inputs are ignored.
    pub fn input(&mut self, input: Input) -> Result<(), EditError> {
        self.recording.input(&mut self.session.world, input)
    }

    /// Frames to simulate for `elapsed` real seconds: 0 while paused (1 after N).
    pub fn frames_due(&mut self, elapsed: f64) -> u32 {
        self.session.frames_due(elapsed)
    }

    /// Runs one simulation frame, first applying what the mouse asks (or, when playing a
    /// replay, nothing but the recorded inputs, after the frame). A replay that has played to
    /// its end runs no further, however many frames a slow display asks for at once.
    pub fn step(&mut self, input: FrameInput) {
        if self.recording.finished() {
            return;
        }
        if !self.recording.replaying() {
            let world = &mut self.session.world;
            if let Some(said) = self.tools.frame(world, &mut self.recording, input) {
                self.say(said);
            }
        }
        self.display.remember(&self.session.world);
        if let Some(hearing) = &mut self.hearing {
            hearing.before_frame(&mut self.session.world);
        }
        self.session.run_frame();
        if let Some(hearing) = &mut self.hearing {
            hearing.after_frame(&self.session.world);
        }
        self.recording.frame_done(&self.session.world);
        self.count_a_win();
        self.play_due();
        self.correct_auto();
        self.reprice();
    }

    /// Under `--particles auto`, once after materials join the world: where its frames came to
    /// cost more than the window affords, the world takes no more particles (`Session::reprice`,
    /// recorded as `Input::Cap`), and the HUD says so.
    fn reprice(&mut self) {
        if self.recording.replaying() {
            return;
        }
        let Some(cap) = self.session.reprice() else {
            return;
        };
        let world = &mut self.session.world;
        if self.recording.input(world, Input::Cap(cap)).is_ok() {
            self.say(format!(
                "what joined made frames dearer than real time affords: the pour now stops at \
                 {cap} particles"
            ));
        }
    }

    /// Under `--particles auto`, restarts the scene once, coarser, when its first seconds cost
    /// more than its model said (`Session::auto_correction`), and says so.
    fn correct_auto(&mut self) {
        if self.recording.replaying() {
            return;
        }
        let Some(count) = self.session.auto_correction() else {
            return;
        };
        match self.session.rescale_to(count) {
            Ok(()) => {
                self.rebuild();
                self.tools.reset_stir_radius(&self.session.world);
                let factor = self.session.correction().unwrap_or(1.0);
                let preset = &self.session.preset;
                self.say(format!(
                    "{}: frames cost {factor:.1}x what was measured; restarted with about {} particles",
                    preset.name,
                    preset.particles()
                ));
            }
            Err(error) => self.say(error),
        }
    }

    /// Listens to the world after each frame (`on`), for the window to play the events
    /// (`take_sounds`), or stops listening.
    pub fn hear(&mut self, on: bool) {
        match (on, self.hearing.is_some()) {
            (true, false) => self.hearing = Some(Hearing::default()),
            (false, true) => self.hearing = None,
            _ => {}
        }
    }

    /// Hands each frame's sound events heard since the last call to `each`; returns how many
    /// frames there were and the main thread's milliseconds spent listening to them.
    pub fn take_sounds(&mut self, each: impl FnMut(crate::sound::FrameEvents)) -> (usize, f64) {
        self.hearing
            .as_mut()
            .map_or((0, 0.0), |hearing| hearing.take(each))
    }

    /// The sound's volume, 0 to 1 (kept with the progress by `keep_progress`); moving it turns
    /// the sound on.
    pub fn set_volume(&mut self, volume: f32) {
        self.progress.sound.volume = volume.clamp(0.0, 1.0);
        self.progress.sound.muted = false;
    }

    /// Keeps the progress (the stars and the sound's settings) where it lives; says what went
    /// wrong, if anything.
    pub fn keep_progress(&mut self) {
        if let Err(error) = self.progress.keep() {
            self.say(error);
        }
    }

    /// Plays the inputs recorded at the current frame; a world they built starts afresh.
    fn play_due(&mut self) {
        let session = &mut self.session;
        if self
            .recording
            .play_due(&mut session.preset, &mut session.world)
        {
            session.restart_clock();
            self.display.forget();
            self.tools.reset_stir_radius(&session.world);
        }
    }

    /// Where particle `index` is drawn: between its previous and current position by
    /// `fraction` of a frame (its current position when it is new).
    pub fn drawn_position(&self, index: usize, fraction: f32) -> Vec2 {
        self.display
            .drawn_position(&self.session.world, index, fraction)
    }

    /// Where body `index` is drawn: its position and angle between the previous frame's and
    /// the current ones by `fraction` of a frame (the current ones when it has no previous).
    pub fn drawn_body_pose(&self, index: usize, fraction: f32) -> (Vec2, f32) {
        self.display
            .drawn_body_pose(&self.session.world, index, fraction)
    }

    /// Multiplies the stir radius by `factor`, kept between one interaction radius and half the
    /// box's smaller side.
    pub fn scale_stir_radius(&mut self, factor: f32) {
        self.tools.scale_stir_radius(&self.session.world, factor);
    }

    /// The grab tool pressed at `point`: takes hold of the body there. A press beside every body
    /// (or in a scene without bodies) changes nothing and says so.
    pub fn grab_body(&mut self, point: Vec2) {
        let world = &mut self.session.world;
        if let Some(said) = tools::grab_body(world, &mut self.recording, point) {
            self.say(said);
        }
    }

    /// The pour tool pressed at `point` with a body picked in the palette: places it there.
    pub fn place_body(&mut self, point: Vec2) {
        let world = &mut self.session.world;
        if let Some(said) = self.tools.place_body(world, &mut self.recording, point) {
            self.say(said);
        }
    }

    /// Lets go of the held body, if any: it flies on with the velocity it has.
    pub fn release_body(&mut self) {
        tools::release_body(&mut self.session.world, &mut self.recording);
    }

    /// True while the grab tool holds a body.
    pub fn holds_body(&self) -> bool {
        tools::holds_body(&self.session.world)
    }

    /// Lays a wall from `a` to `b` of the draw thickness (a circle for a click), shortened to
    /// keep its gap from the walls; a click on an obstacle removes it instead.
    pub fn draw(&mut self, a: Vec2, b: Vec2) {
        let world = &mut self.session.world;
        if let Some(said) = self.tools.draw(world, &mut self.recording, a, b) {
            self.say(said);
        }
    }

    /// Radius of the wall the draw tool lays: a share of the ring, at least a particle's.
    pub fn wall_radius(&self) -> f32 {
        self.tools.wall_radius(&self.session.world)
    }

    /// Turns gravity by `radians` more (clamped to a full turn either way); 0 keeps it. A
    /// level that does not allow tilting keeps gravity as it is.
    pub fn turn_gravity(&mut self, radians: f32) {
        if radians == 0.0 || self.allows(Tool::Tilt).is_err() {
            return;
        }
        let gravity = self.session.preset.scene.params.gravity;
        let world = &mut self.session.world;
        self.tools
            .turn_gravity(world, &mut self.recording, gravity, radians);
    }

    /// Sets a constant of material `material` (world units); refused values change nothing.
    pub fn tune(&mut self, material: usize, field: Tunable, value: f32) -> Result<(), EditError> {
        let world = &mut self.session.world;
        tools::tune(world, &mut self.recording, material, field, value)
    }

    /// Material `index` as the world was built (the panel's "preset values").
    pub fn initial_material(&self, index: usize) -> Option<&Material> {
        self.tools.initial_material(index)
    }

    /// Puts material `index`'s tunable constants back to the values the world was built with,
    /// and gravity's strength to the preset's.
    pub fn restore_material(&mut self, index: usize) {
        let gravity = self.session.preset.scene.params.gravity;
        let world = &mut self.session.world;
        let recording = &mut self.recording;
        if let Some(said) = self
            .tools
            .restore_material(world, recording, gravity, index)
        {
            self.say(said);
        }
    }

    /// Sets the strength of gravity (its direction stays the tilt's).
    pub fn set_gravity_strength(&mut self, strength: f32) {
        let gravity = self.session.preset.scene.params.gravity;
        let world = &mut self.session.world;
        self.tools
            .set_gravity_strength(world, &mut self.recording, gravity, strength);
    }

    /// True when a replay is playing.
    pub fn replaying(&self) -> bool {
        self.recording.replaying()
    }

    /// True once a replay has played to its end (or could not go on).
    pub fn replay_finished(&self) -> bool {
        self.recording.finished()
    }

    /// The replay of the session so far (F8): every input since the session (or the last
    /// preset after a snapshot) began, ending at this frame with the world's checksum.
    pub fn replay_so_far(&self) -> Result<String, &'static str> {
        self.recording.so_far(&self.session.world)
    }

    /// The recorded run's final checksum, when playing a replay.
    pub fn recorded_checksum(&self) -> Option<u64> {
        self.recording.recorded_checksum()
    }

    /// Ends the recording, if any, with the world's checksum; the error is one line.
    pub fn finish_recording(&mut self) -> Result<(), String> {
        self.recording.finish(&self.session.world)
    }

    /// Runs `world`, reopened from a snapshot of `preset` (`--load`, which the command line
    /// refuses together with `--record`: a replay starts from a preset, not a snapshot).
    pub fn open_snapshot(&mut self, preset: Preset, world: World) {
        // A replay starts from a preset: the recording so far does not lead to this world.
        self.recording.interrupt();
        self.session.open_snapshot(preset, world);
        self.display.forget();
        self.tools.remember_build(&self.session.world);
        self.tools.keep_stir_radius_in(&self.session.world);
        self.say(format!("{}: snapshot opened", self.session.preset.name));
    }

    /// The current preset with the person's edits (tuned materials, drawn obstacles, gravity),
    /// as a preset file would give it.
    pub fn edited_preset(&self) -> Preset {
        self.session.edited_preset()
    }

    /// Records that the world was just built from the current preset (a new recording when the
    /// last one ended at a snapshot).
    fn record_preset(&mut self) {
        let built = self.session.built();
        let session = &self.session;
        (self.recording).record_preset(session.seed(), &built, &session.preset, &session.world);
        // A level pours only its own materials; any other scene, the library's too.
        self.tools.library = self.attempt().is_none();
    }

    /// Polls the preset file; reloads it when it changed.
    pub fn poll_file(&mut self) {
        if self.session.file_changed() && self.reload() {
            self.say(format!("{}: reloaded", self.session.preset.name));
        }
    }

    fn switch_to_key(&mut self, key: usize) {
        let index = key.checked_sub(1).filter(|&index| index < PRESET_KEYS);
        let Some((name, _)) = index.and_then(|index| BUILTIN.get(index)) else {
            self.say(format!("no preset on key {}", key_label(key)));
            return;
        };
        if self.recording.replaying() || !self.session.load_builtin(name, key) {
            return;
        }
        self.rebuild();
        self.tools.reset_stir_radius(&self.session.world);
        // An edited checkout file replaces the embedded text.
        if checkout_differs(name, true) {
            self.reload();
        }
        self.say(format!("{}: {}", key_label(key), self.session.preset.name));
    }

    /// Reads the current preset's file again; on success rebuilds the world, on failure keeps
    /// the last good version running and records the error. True on success.
    pub fn reload(&mut self) -> bool {
        let Some(path) = self.session.file() else {
            self.say("no preset file to reload (embedded preset)");
            return false;
        };
        if self.recording.replaying() || !self.session.load_file(&path) {
            return false;
        }
        self.rebuild();
        true
    }

    /// The current preset with `factor` times its particles (within the engine's limits), from
    /// the start.
    fn rescale(&mut self, factor: f32) {
        if self.recording.replaying() {
            return;
        }
        match self.session.rescale(factor) {
            Ok(()) => {
                self.rebuild();
                let preset = &self.session.preset;
                let said = format!("{}: about {} particles", preset.name, preset.particles());
                self.say(said);
            }
            Err(error) => self.say(error),
        }
    }

    /// A fresh world from the current preset (recorded; gravity untilted).
    fn rebuild(&mut self) {
        if self.recording.replaying() {
            return;
        }
        self.release_body();
        self.session.build();
        self.tools.restart(&self.session.world);
        self.record_preset();
        self.display.forget();
        self.counted = false;
        self.pick_allowed_tool();
    }

    /// A level's tools: the one in hand if the level allows it, else the first it does.
    fn pick_allowed_tool(&mut self) {
        if self.allows(self.tools.tool).is_err() {
            if let Some(&tool) = TOOLS.iter().find(|&&tool| self.allows(tool).is_ok()) {
                self.tools.tool = tool;
            }
        }
    }

    /// The go at the level being played, if the scene is a level.
    pub fn attempt(&self) -> Option<&Attempt> {
        self.recording.attempt.as_ref()
    }

    /// Whether the level being played (if any) lets the player use `tool`; why not, if not.
    pub fn allows(&self, tool: Tool) -> Result<(), String> {
        match self.attempt() {
            Some(attempt) if !attempt.level().rules.tools.contains(&tool) => {
                Err(format!("{} is not a tool of this level", tool.name()))
            }
            _ => Ok(()),
        }
    }

    /// The index in `level::BUILTIN` of the level being played, if it is one of them.
    pub fn level_index(&self) -> Option<usize> {
        self.attempt()?;
        let name = &self.session.preset.name;
        level::BUILTIN.iter().position(|(level, _)| level == name)
    }

    /// Opens level `index` of `level::BUILTIN` when the levels before it are met; says why not
    /// otherwise.
    pub fn play_level(&mut self, index: usize) {
        let Some((name, _)) = level::BUILTIN.get(index) else {
            return;
        };
        if !self.progress.is_open(index) {
            self.say("locked: meet the levels before it first");
            return;
        }
        if self.recording.replaying() || !self.session.load_builtin(name, 0) {
            return;
        }
        self.menu.open = false;
        self.rebuild();
        self.tools.reset_stir_radius(&self.session.world);
        if let Some(attempt) = self.attempt() {
            let rules = &attempt.level().rules;
            let said = format!("{}: {}", rules.title, rules.hint);
            self.say(said);
        }
    }

    fn toggle_menu(&mut self) {
        self.menu.open = !self.menu.open;
        if self.menu.open {
            let first_unmet = (0..level::BUILTIN.len())
                .find(|&index| self.progress.stars(level::BUILTIN[index].0) == 0)
                .unwrap_or(0);
            self.menu.selected = self.level_index().unwrap_or(first_unmet);
        }
    }

    fn confirm(&mut self) {
        if self.scenes.open {
            self.scenes.open = false;
            if let Some(number) = self.scenes.chosen() {
                self.switch_to_key(number);
            }
            return;
        }
        if self.menu.open {
            self.play_level(self.menu.selected);
            return;
        }
        match (
            self.attempt().and_then(Attempt::outcome),
            self.level_index(),
        ) {
            (Some(Outcome::Won { .. }), Some(index)) if index + 1 < level::BUILTIN.len() => {
                self.play_level(index + 1)
            }
            (Some(Outcome::Won { .. }), _) => self.toggle_menu(),
            (Some(Outcome::Lost(_)), _) => {
                self.rebuild();
                self.say(format!("{}: again", self.session.preset.name));
            }
            _ => {}
        }
    }

    /// Counts a go just won in `progress` (once), and says so.
    fn count_a_win(&mut self) {
        if self.counted || self.recording.replaying() {
            return;
        }
        let Some(Outcome::Won { stars, .. }) = self.attempt().and_then(Attempt::outcome) else {
            return;
        };
        let stars = *stars;
        self.counted = true;
        let name = self.session.preset.name.clone();
        if let Err(error) = self.progress.earn(&name, stars) {
            self.say(error);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::numerics::portable::Ordered;

    #[test]
    fn keys_without_presets_do_nothing_and_ten_keys_hold_presets() {
        let preset = Preset::load("seed").unwrap();
        let source = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let mut game = Game::new(preset, source, 1, Resolution::Own);
        game.apply(Command::SwitchPreset(0));
        assert_eq!(game.session.preset.name, "seed");
        assert!(game.message().unwrap().contains("no preset"));
        game.apply(Command::SwitchPreset(9));
        assert_eq!(game.session.preset.name, BUILTIN[8].0);
        game.apply(Command::SwitchPreset(10));
        assert_eq!(game.session.preset.name, "flood");
        assert_eq!(game.message(), Some("0: flood"), "key 10 is the 0 key");
        game.apply(Command::SwitchPreset(11));
        assert_eq!(game.session.preset.name, "smoke");
        assert_eq!(game.message(), Some("Shift+1: smoke"));
        game.apply(Command::SwitchPreset(12));
        assert_eq!(game.session.preset.name, "lava");
        game.apply(Command::SwitchPreset(13));
        assert_eq!(game.session.preset.name, "bath");
        assert_eq!(game.message(), Some("Shift+3: bath"));
        game.apply(Command::SwitchPreset(14));
        assert_eq!(game.session.preset.name, "mill");
        game.apply(Command::SwitchPreset(15));
        assert_eq!(game.session.preset.name, "collapse");
        assert_eq!(game.message(), Some("Shift+5: collapse"));
        game.apply(Command::SwitchPreset(16));
        assert_eq!(game.session.preset.name, "volcano");
        game.apply(Command::SwitchPreset(18));
        assert_eq!(game.session.preset.name, "kettle");
        assert_eq!(game.message(), Some("Shift+8: kettle"));
        game.apply(Command::SwitchPreset(19));
        assert_eq!(game.session.preset.name, "fire");
        assert_eq!(game.message(), Some("Shift+9: fire"));
        game.apply(Command::SwitchPreset(20));
        assert_eq!(game.session.preset.name, "hourglass");
        assert_eq!(game.message(), Some("Shift+0: hourglass"));
        game.apply(Command::SwitchPreset(21));
        assert_eq!(game.session.preset.name, "sandbox");
        assert_eq!(game.message(), Some("B: sandbox"));
        // The benchmarks' tank comes after the keyed presets: no key reaches it.
        game.apply(Command::SwitchPreset(22));
        assert_eq!(game.session.preset.name, "sandbox");
        assert!(game.message().unwrap().contains("no preset on key 22"));
        game.apply(Command::SwitchPreset(2));
        assert_eq!(game.session.preset.name, "dam");
        assert_eq!(game.session.key(), Some(2));
    }

    #[test]
    fn a_broken_file_keeps_the_last_good_preset() {
        let dir = std::env::temp_dir().join(format!("slosh-reload-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("mine.toml");
        std::fs::write(&path, BUILTIN[0].1).unwrap();
        let preset = Preset::load(path.to_str().unwrap()).unwrap();
        let mut game = Game::new(preset, PresetSource::File(path.clone()), 1, Resolution::Own);
        std::fs::write(&path, "name = \"broken\"\n").unwrap();
        assert!(!game.reload());
        assert_eq!(game.session.preset.name, "seed");
        assert!(game
            .session
            .reload_error
            .as_deref()
            .unwrap()
            .contains("mine.toml"));
        std::fs::write(&path, BUILTIN[1].1).unwrap();
        assert!(game.reload());
        assert_eq!(game.session.preset.name, "dam");
        assert!(game.session.reload_error.is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A game of the embedded preset `name` (on `key`) at its own resolution, recording to a
    /// replay in a fresh temporary folder: (folder, replay path, game).
    fn recording(name: &str, key: usize) -> (std::path::PathBuf, std::path::PathBuf, Game) {
        let dir = std::env::temp_dir().join(format!("slosh-game-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.replay"));
        let recorder = crate::replay::Recorder::create(&path, 3).unwrap();
        let source = PresetSource::Builtin {
            name: name.into(),
            key,
        };
        let game = Game::with_inputs(
            Preset::load(name).unwrap(),
            source,
            3,
            Resolution::Own,
            Scale::default(),
            Some(recorder),
            None,
        );
        (dir, path, game)
    }

    #[test]
    fn what_the_tools_do_through_the_game_replays_to_the_same_checksum() {
        use crate::replay::{Player, Replay};
        use crate::sim::Stir;
        let (dir, path, mut game) = recording("seed", 1);
        let at = Vec2::new(5.0, 5.0);
        for frame in 0..120 {
            let input = match frame % 40 {
                0..=9 => FrameInput {
                    pour: Some((at, Vec2::new(1.0, 0.0))),
                    ..FrameInput::default()
                },
                10..=14 => FrameInput {
                    stir: Some(Stir {
                        position: Vec2::new(5.0, 1.0),
                        velocity: Vec2::new(3.0, 0.0),
                        radius: 1.0,
                    }),
                    pull: Some(Vec2::new(3.0, 2.0)),
                    ..FrameInput::default()
                },
                20 => FrameInput {
                    erase: Some(Vec2::new(7.0, 0.5)),
                    ..FrameInput::default()
                },
                25..=27 => FrameInput {
                    heat: Some((Vec2::new(5.0, 0.8), tools::HEAT_RATE)),
                    ..FrameInput::default()
                },
                28 => FrameInput {
                    heat: Some((Vec2::new(5.0, 0.8), -tools::HEAT_RATE)),
                    ..FrameInput::default()
                },
                _ => FrameInput::default(),
            };
            match frame {
                30 => game.draw(Vec2::new(2.0, 4.0), Vec2::new(4.0, 3.5)),
                50 => game.turn_gravity(0.4),
                60 => game.tune(0, Tunable::LinearViscosity, 3.0).unwrap(),
                70 => game.apply(Command::TiltBack),
                80 => game.apply(Command::Finer),
                90 => game.draw(Vec2::new(3.0, 4.0), Vec2::new(3.0, 4.0)),
                _ => {}
            }
            game.step(input);
        }
        assert_eq!(
            game.session.world.obstacles().len(),
            1,
            "`]` rebuilt the world, then a post"
        );
        let checksum = game.session.world.checksum();
        game.finish_recording().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        for verb in [
            " pour ",
            " stir ",
            " pull ",
            " erase ",
            " heat ",
            " draw ",
            " gravity ",
            " tune ",
        ] {
            assert!(text.contains(verb), "no {verb} in {text}");
        }
        assert_eq!(text.matches(" preset ").count(), 2, "start and ]");
        let mut player = Player::new(Replay::load(&path).unwrap()).unwrap();
        while !player.finished() {
            player.step().unwrap();
        }
        assert_eq!(player.world.checksum(), checksum);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The crate follows the cursor to within 0.014 m of the target (0.003 of its 3.9 m way:
    /// the bound is a half) and falls 1.24 m in the 10 frames after the release, the same over
    /// world seeds 1 to 5 and 7 (the held crate's path is the grab spring's); the replay is exact.
    #[test]
    fn the_grab_tool_through_the_game_replays_to_the_same_checksum() {
        use crate::replay::{Player, Replay};
        let (dir, path, mut game) = recording("bath", 13);
        game.apply(Command::SelectTool(Tool::Grab));
        let crate_at = |game: &Game| game.session.world.bodies().unwrap().state(0).position;
        for _ in 0..20 {
            game.step(FrameInput::default());
        }
        // A press on empty air holds nothing and records nothing.
        game.grab_body(Vec2::new(6.0, 7.5));
        assert!(!game.holds_body());
        assert_eq!(game.message(), Some("no body there"));
        // Take the crate by its centre and lift it out of the bath.
        let start = crate_at(&game);
        game.grab_body(start);
        assert!(game.holds_body(), "the crate at {start}");
        let target = Vec2::new(4.0, 6.0);
        for frame in 0..30 {
            let cursor = start.lerp(target, (frame as f32 / 10.0).at_most(1.0));
            game.step(FrameInput {
                drag: Some(cursor),
                ..FrameInput::default()
            });
        }
        let lifted = crate_at(&game);
        assert!(
            lifted.distance(target) < 0.5 * start.distance(target),
            "the crate followed the cursor from {start} toward {target}: at {lifted}"
        );
        // Let go: it falls back.
        game.release_body();
        assert!(!game.holds_body());
        for _ in 0..10 {
            game.step(FrameInput::default());
        }
        assert!(crate_at(&game).y < lifted.y, "the released crate falls");
        // Switching tools, and resetting, let go too.
        game.grab_body(crate_at(&game));
        assert!(game.holds_body());
        game.apply(Command::SelectTool(Tool::Stir));
        assert!(!game.holds_body());
        game.apply(Command::SelectTool(Tool::Grab));
        game.grab_body(crate_at(&game));
        game.step(FrameInput {
            drag: Some(crate_at(&game) + Vec2::new(1.0, 1.0)),
            ..FrameInput::default()
        });
        game.apply(Command::Reset);
        assert!(!game.holds_body());
        for _ in 0..5 {
            game.step(FrameInput {
                drag: Some(Vec2::new(6.0, 6.0)),
                ..FrameInput::default()
            });
        }
        assert!(!game.holds_body(), "a drag holds nothing after a reset");
        let checksum = game.session.world.checksum();
        game.finish_recording().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text.matches(" grab ").count(), 3, "{text}");
        assert!(text.contains(" drag "), "{text}");
        assert_eq!(text.matches(" release").count(), 3, "{text}");
        let mut player = Player::new(Replay::load(&path).unwrap()).unwrap();
        while !player.finished() {
            player.step().unwrap();
        }
        assert_eq!(player.world.checksum(), checksum);

        // A scene without bodies: the tool does nothing and says why.
        let preset = Preset::load("seed").unwrap();
        let source = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let mut game = Game::new(preset, source, 1, Resolution::Own);
        game.apply(Command::SelectTool(Tool::Grab));
        game.grab_body(Vec2::new(5.0, 1.0));
        assert!(!game.holds_body());
        assert!(game.message().unwrap().contains("no bodies"));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
