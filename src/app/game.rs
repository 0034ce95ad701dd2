//! The demo's state without any window types: the current preset and world, the fixed-step
//! clock, pause, stirring settings and preset hot reload.

use super::display::Display;
use super::recording::Recording;
use super::tools::{self, FrameInput, Tool, Tools};
use crate::preset::{Preset, BUILTIN, MAX_PARTICLES};
use crate::replay::{Feed, Input, Recorder};
use crate::sim::clock::Instant;
use crate::sim::portable::Ordered;
use crate::sim::{EditError, Tunable, World};
use glam::Vec2;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// True in a web page (`wasm32`): one thread, no files, no command line.
pub const WEB: bool = cfg!(target_arch = "wasm32");

/// Most simulation frames run for one displayed frame; time beyond that is dropped, so a slow
/// machine shows slow motion instead of falling ever further behind.
pub const MAX_FRAMES_PER_DISPLAY: u32 = 2;

/// Longest real time one displayed frame may account for (a stalled window resumes calmly).
const MAX_ELAPSED: f64 = 0.25;

/// Seconds between checks of the preset file's modification time.
const WATCH_INTERVAL: f64 = 0.5;

/// How many embedded presets have a number key: keys 1 to 9, then 0 for the tenth
/// (`Command::SwitchPreset(10)`), then Shift with 1 to 5 for the eleventh to the fifteenth.
pub const PRESET_KEYS: usize = 15;

/// The key that switches to the preset `key` as printed on the keyboard: 10 is `0`, 11 is
/// `Shift+1`, 12 is `Shift+2` (and so on, were there more).
pub fn key_label(key: usize) -> String {
    match key {
        10 => "0".to_string(),
        11..=19 => format!("Shift+{}", key - 10),
        20 => "Shift+0".to_string(),
        _ => key.to_string(),
    }
}

/// Turns real elapsed time into whole simulation frames of 1 / `frame_rate` seconds each.
#[derive(Clone, Debug, PartialEq)]
pub struct FixedStep {
    frame_time: f64,
    accumulator: f64,
}

impl FixedStep {
    /// A clock for `frame_rate` simulation frames per second.
    pub fn new(frame_rate: f32) -> Self {
        Self {
            frame_time: 1.0 / f64::from(frame_rate.at_least(1.0)),
            accumulator: 0.0,
        }
    }

    /// Adds `elapsed` real seconds and returns how many frames are due now (at most
    /// `MAX_FRAMES_PER_DISPLAY`; the backlog beyond that is dropped). Non-finite or negative
    /// times count as zero.
    pub fn advance(&mut self, elapsed: f64) -> u32 {
        let elapsed = if elapsed.is_finite() {
            elapsed.clamp(0.0, MAX_ELAPSED)
        } else {
            0.0
        };
        self.accumulator += elapsed;
        let due = (self.accumulator / self.frame_time).floor();
        if due > f64::from(MAX_FRAMES_PER_DISPLAY) {
            self.accumulator = self.accumulator.rem_euclid(self.frame_time);
            return MAX_FRAMES_PER_DISPLAY;
        }
        self.accumulator -= due * self.frame_time;
        due as u32
    }

    /// How far the clock is into the next frame, 0 to 1 (for drawing between two frames).
    pub fn fraction(&self) -> f32 {
        (self.accumulator / self.frame_time).clamp(0.0, 1.0) as f32
    }

    /// Forgets accumulated time (after a pause or a preset switch).
    pub fn reset(&mut self) {
        self.accumulator = 0.0;
    }
}

/// Where the current preset's text comes from, for reloading.
#[derive(Clone, Debug, PartialEq)]
pub enum PresetSource {
    /// An embedded preset (number key `key`), reloaded from `assets/presets/NAME.toml` when the
    /// program runs from a checkout.
    Builtin {
        /// Preset name.
        name: String,
        /// Number key (1-based), 0 when the name is on no key.
        key: usize,
    },
    /// A file given with `--preset FILE.toml`.
    File(PathBuf),
}

/// Polls a file's modification time.
#[derive(Clone, Debug)]
struct Watcher {
    path: PathBuf,
    modified: Option<SystemTime>,
    last_poll: Instant,
}

impl Watcher {
    fn new(path: PathBuf) -> Self {
        let modified = modified(&path);
        Self {
            path,
            modified,
            last_poll: Instant::now(),
        }
    }

    /// True when the file changed since the last poll (checked at most every `WATCH_INTERVAL`).
    fn changed(&mut self) -> bool {
        if self.last_poll.elapsed().as_secs_f64() < WATCH_INTERVAL {
            return false;
        }
        self.last_poll = Instant::now();
        let now = modified(&self.path);
        if now.is_some() && now != self.modified {
            self.modified = now;
            return true;
        }
        false
    }
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// The on-disk file of embedded preset `name`, when the program runs from a checkout (the
/// current folder or the one it was built in).
pub fn checkout_file(name: &str) -> Option<PathBuf> {
    let relative = Path::new("assets")
        .join("presets")
        .join(format!("{name}.toml"));
    [
        PathBuf::from("."),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    ]
    .into_iter()
    .map(|folder| folder.join(&relative))
    .find(|path| path.is_file())
}

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
    /// Shade by pressure or by speed.
    ToggleShading,
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
    /// Close the window.
    Quit,
}

/// How many particles each preset gets in the window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resolution {
    /// The preset's own count (screenshots, so that they stay reproducible).
    Own,
    /// About this many, whatever the preset (`--particles N`).
    Fixed(usize),
    /// The finest resolution whose simulation takes at most half of a 60 Hz frame per frame
    /// shown, from this machine's speed measured when each preset is loaded.
    Auto,
}

/// The share of real time the simulation may take under `Resolution::Auto`: half of each frame.
pub const AUTO_SHARE: f64 = 0.5;

/// This machine's simulation speed now, in particle-substeps per second: a few substeps of the
/// `dam` scene at 8,000 particles (settled liquid, the common case), on every thread. `None`
/// when the clock did not move (a page whose clock is not readable).
pub fn measure_speed() -> Option<f64> {
    let preset = Preset::load("dam")
        .and_then(|preset| preset.with_particles(8_000))
        .expect("the embedded dam preset scales");
    let mut world = preset.build_world(1);
    world.substep(); // caches and buffers warm
    let substeps = 12;
    let start = Instant::now();
    for _ in 0..substeps {
        world.substep();
    }
    let seconds = start.elapsed().as_secs_f64();
    (seconds > 0.0).then(|| world.particles().len() as f64 * f64::from(substeps) / seconds)
}

/// The finest `Resolution::Auto` goes: this many times a preset's own particles, the finest the
/// tests check a preset's behaviour at (`tests/resolution.rs`, `tests/jets.rs`).
pub const AUTO_FINEST: usize = 16;

/// The most particles `preset` can have while one simulated second costs at most `share` of a
/// wall second at `speed` particle-substeps per second (finer particles also need more substeps
/// per frame); at least a quarter of its own count, at most `AUTO_FINEST` times it (and
/// `MAX_PARTICLES`).
pub fn affordable_particles(preset: &Preset, speed: f64, share: f64) -> usize {
    let cost = |particles: usize| -> f64 {
        let Ok(scaled) = preset.clone().with_particles(particles) else {
            return f64::INFINITY;
        };
        let params = &scaled.scene.params;
        scaled.particles() as f64 * f64::from(params.substeps) * f64::from(params.frame_rate)
            / speed
    };
    let own = preset.own_particles().max(1);
    let (mut low, mut high) = ((own / 4).max(1), (AUTO_FINEST * own).min(MAX_PARTICLES));
    if cost(high) <= share {
        return high;
    }
    if cost(low) > share {
        return low;
    }
    // Bisection on the count, to about 2%.
    while high > low + low / 50 + 1 {
        let middle = low + (high - low) / 2;
        if cost(middle) <= share {
            low = middle;
        } else {
            high = middle;
        }
    }
    low
}

/// The fewest particles `[` goes down to.
pub const MIN_PARTICLES: usize = 100;

/// `preset` (at its own resolution) with the particles `resolution` gives it, and the count it
/// asked for (`None`: the preset's own); an error is one line.
pub fn rescaled_to(
    preset: Preset,
    resolution: Resolution,
) -> Result<(Preset, Option<usize>), String> {
    let particles = match resolution {
        Resolution::Own => return Ok((preset, None)),
        Resolution::Fixed(particles) => particles,
        Resolution::Auto => match measure_speed() {
            Some(speed) => affordable_particles(&preset, speed, AUTO_SHARE),
            // Without a clock there is nothing to measure: the preset's own count.
            None => return Ok((preset, None)),
        },
    };
    let preset = preset
        .with_particles(particles)
        .map_err(|e| e.to_string())?;
    Ok((preset, Some(particles)))
}

/// Everything the demo knows besides how to draw it.
pub struct Game {
    /// The scene running now (last good version).
    pub preset: Preset,
    /// Where the preset's text comes from (for reloading).
    pub source: PresetSource,
    /// The simulation.
    pub world: World,
    /// Real time turned into whole simulation frames.
    pub clock: FixedStep,
    /// The simulation is paused.
    pub paused: bool,
    /// What the window shows and how.
    pub display: Display,
    /// Error of the last reload, shown until a reload succeeds.
    pub reload_error: Option<String>,
    /// Wall-clock milliseconds the last simulation frame took.
    pub sim_ms: f64,
    seed: u64,
    resolution: Resolution,
    watcher: Option<Watcher>,
    step_requested: bool,
    quit: bool,
    screenshot_requested: bool,
    save_requested: Option<Command>,
    /// The tool in hand, its ring, the material poured, the tilt.
    pub tools: Tools,
    /// Where the current preset was loaded from (a name or a path), as a replay names it.
    loaded_from: String,
    /// The particle count the current preset was rescaled to (`None`: its own).
    particles: Option<usize>,
    /// The inputs recorded, or the replay played instead.
    pub recording: Recording,
}

impl Game {
    /// A game on `preset` (already `rescaled`), loaded from `source`; `resolution` says how many
    /// particles every preset loaded later gets.
    pub fn new(preset: Preset, source: PresetSource, seed: u64, resolution: Resolution) -> Self {
        Self::with_inputs(preset, source, seed, resolution, None, None, None)
    }

    /// `new`, recording every input to `recorder` or playing `feed` instead of taking any;
    /// `particles` is the count `preset` was rescaled to (as `rescaled_to` gives it).
    pub fn with_inputs(
        preset: Preset,
        source: PresetSource,
        seed: u64,
        resolution: Resolution,
        particles: Option<usize>,
        recorder: Option<Recorder>,
        feed: Option<Feed>,
    ) -> Self {
        let world = preset.build_world(seed);
        let loaded_from = match &source {
            PresetSource::File(path) => path.display().to_string(),
            PresetSource::Builtin { name, .. } => name.clone(),
        };
        let mut game = Self {
            clock: FixedStep::new(preset.scene.params.frame_rate),
            tools: Tools::new(&world),
            preset,
            source,
            world,
            paused: false,
            display: Display::default(),
            reload_error: None,
            sim_ms: 0.0,
            seed,
            resolution,
            watcher: None,
            step_requested: false,
            quit: false,
            screenshot_requested: false,
            save_requested: None,
            loaded_from,
            particles,
            recording: Recording::new(recorder, feed),
        };
        if game.recording.replaying() {
            game.play_due();
            return game;
        }
        game.record_preset();
        game.watch();
        if let PresetSource::Builtin { name, .. } = &game.source {
            // A checkout's edited file wins over the embedded text from the start.
            let name = name.clone();
            if let Some(path) = checkout_file(&name) {
                let embedded = BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t);
                let text = std::fs::read_to_string(&path).ok();
                if text.is_some() && text.as_deref() != embedded {
                    game.reload();
                }
            }
        }
        game
    }

    /// True when the current preset came from a file given on the command line.
    pub fn is_file(&self) -> bool {
        matches!(self.source, PresetSource::File(_))
    }

    /// Number key of the current preset, if it is an embedded one that has a key.
    pub fn key(&self) -> Option<usize> {
        match self.source {
            PresetSource::Builtin { key, .. } => (key <= PRESET_KEYS).then_some(key),
            PresetSource::File(_) => None,
        }
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
                self.say(format!("{}: reset", self.preset.name));
            }
            Command::TogglePause => {
                self.paused = !self.paused;
                self.clock.reset();
            }
            Command::SingleStep => {
                if self.paused {
                    self.step_requested = true;
                }
            }
            Command::ToggleParticleView => {
                self.display.particle_view = !self.display.particle_view;
            }
            Command::ToggleHelp => self.display.help = !self.display.help,
            Command::ToggleSmoke => self.display.toggle_smoke(self.world.air().is_some()),
            Command::ToggleShading => self.display.toggle_shading(),
            Command::Reload => {
                if self.reload() {
                    self.say(format!("{}: reloaded", self.preset.name));
                }
            }
            Command::Screenshot => self.screenshot_requested = true,
            Command::Quit => self.quit = true,
            Command::SelectTool(tool) => {
                self.release_body();
                self.tools.tool = tool;
                self.say(format!("tool: {}", tool.name()));
            }
            Command::NextMaterial => {
                let said = self.tools.next_material(&self.world);
                self.say(said);
            }
            Command::TiltBack => {
                let gravity = self.preset.scene.params.gravity;
                let world = &mut self.world;
                self.tools.tilt_back(world, &mut self.recording, gravity);
            }
            Command::TogglePanel => self.display.panel = !self.display.panel,
            Command::SavePreset | Command::SaveSnapshot | Command::SaveReplay => {
                self.save_requested = Some(command);
            }
        }
    }

    /// Multiplies the stir radius by `factor`, kept between one interaction radius and half the
    /// box's smaller side.
    pub fn scale_stir_radius(&mut self, factor: f32) {
        self.tools.scale_stir_radius(&self.world, factor);
    }

    /// Frames to simulate for `elapsed` real seconds: 0 while paused (1 after N).
    pub fn frames_due(&mut self, elapsed: f64) -> u32 {
        if self.paused {
            return u32::from(std::mem::take(&mut self.step_requested));
        }
        self.clock.advance(elapsed)
    }

    /// Runs one simulation frame, first applying what the mouse asks (or, when playing a
    /// replay, nothing but the recorded inputs, after the frame). A replay that has played to
    /// its end runs no further, however many frames a slow display asks for at once.
    pub fn step(&mut self, input: FrameInput) {
        if self.replay_finished() {
            return;
        }
        if !self.recording.replaying() {
            let world = &mut self.world;
            if let Some(said) = self.tools.frame(world, &mut self.recording, input) {
                self.say(said);
            }
        }
        self.display.remember(&self.world);
        let start = Instant::now();
        self.world.step_frame();
        self.sim_ms = start.elapsed().as_secs_f64() * 1000.0;
        self.recording.frame_done();
        self.play_due();
    }

    /// Applies `input` to the world and records it; a refused input changes nothing and is not
    /// recorded. While a replay plays, live inputs are ignored.
    pub fn input(&mut self, input: Input) -> Result<(), EditError> {
        self.recording.input(&mut self.world, input)
    }

    /// The grab tool pressed at `point`: takes hold of the body there. A press beside every body
    /// (or in a scene without bodies) changes nothing and says so.
    pub fn grab_body(&mut self, point: Vec2) {
        if let Some(said) = tools::grab_body(&mut self.world, &mut self.recording, point) {
            self.say(said);
        }
    }

    /// Pulls the held body toward `target` (nothing while none is held, or when it is pulled
    /// there already).
    pub fn drag_body(&mut self, target: Vec2) {
        tools::drag_body(&mut self.world, &mut self.recording, target);
    }

    /// Lets go of the held body, if any: it flies on with the velocity it has.
    pub fn release_body(&mut self) {
        tools::release_body(&mut self.world, &mut self.recording);
    }

    /// True while the grab tool holds a body.
    pub fn holds_body(&self) -> bool {
        tools::holds_body(&self.world)
    }

    /// Lays a wall from `a` to `b` of the draw thickness (a circle for a click), shortened to
    /// keep its gap from the walls; a click on an obstacle removes it instead.
    pub fn draw(&mut self, a: Vec2, b: Vec2) {
        let world = &mut self.world;
        if let Some(said) = self.tools.draw(world, &mut self.recording, a, b) {
            self.say(said);
        }
    }

    /// Radius of the wall the draw tool lays: a share of the ring, at least a particle's.
    pub fn wall_radius(&self) -> f32 {
        self.tools.wall_radius(&self.world)
    }

    /// Turns gravity by `radians` more (clamped to a full turn either way); 0 keeps it.
    pub fn turn_gravity(&mut self, radians: f32) {
        let gravity = self.preset.scene.params.gravity;
        let world = &mut self.world;
        self.tools
            .turn_gravity(world, &mut self.recording, gravity, radians);
    }

    /// Sets a constant of material `material` (world units); refused values change nothing.
    pub fn tune(&mut self, material: usize, field: Tunable, value: f32) -> Result<(), EditError> {
        tools::tune(&mut self.world, &mut self.recording, material, field, value)
    }

    /// True when `Resolution::Auto` could afford finer particles than it gave this preset: it
    /// stopped at `AUTO_FINEST` times the preset's own count (the HUD says so).
    pub fn auto_capped(&self) -> bool {
        let finest = AUTO_FINEST * self.preset.own_particles().max(1);
        self.resolution == Resolution::Auto && self.particles.is_some_and(|p| p >= finest)
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
        self.recording.so_far(&self.world)
    }

    /// The recorded run's final checksum, when playing a replay.
    pub fn recorded_checksum(&self) -> Option<u64> {
        self.recording.recorded_checksum()
    }

    /// Ends the recording, if any, with the world's checksum; the error is one line.
    pub fn finish_recording(&mut self) -> Result<(), String> {
        self.recording.finish(&self.world)
    }

    /// Plays the inputs recorded at the current frame; a world they built starts afresh.
    fn play_due(&mut self) {
        if self.recording.play_due(&mut self.preset, &mut self.world) {
            self.clock = FixedStep::new(self.preset.scene.params.frame_rate);
            self.display.forget();
            self.tools.reset_stir_radius(&self.world);
        }
    }

    /// Material `index` as the world was built (the panel's "preset values").
    pub fn initial_material(&self, index: usize) -> Option<&crate::sim::Material> {
        self.tools.initial_material(index)
    }

    /// Puts material `index`'s tunable constants back to the values the world was built with,
    /// and gravity's strength to the preset's.
    pub fn restore_material(&mut self, index: usize) {
        let gravity = self.preset.scene.params.gravity;
        let world = &mut self.world;
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
        let gravity = self.preset.scene.params.gravity;
        let world = &mut self.world;
        self.tools
            .set_gravity_strength(world, &mut self.recording, gravity, strength);
    }

    /// Runs `world`, reopened from a snapshot of `preset` (`--load`, which the command line
    /// refuses together with `--record`: a replay starts from a preset, not a snapshot).
    pub fn open_snapshot(&mut self, preset: Preset, world: World) {
        // A replay starts from a preset: the recording so far does not lead to this world.
        self.recording.interrupt();
        self.preset = preset;
        self.world = world;
        self.clock = FixedStep::new(self.preset.scene.params.frame_rate);
        self.display.forget();
        self.tools.remember_build(&self.world);
        self.watcher = None;
        self.tools.keep_stir_radius_in(&self.world);
        self.say(format!("{}: snapshot opened", self.preset.name));
    }

    /// The save the player asked for (F6, F7), once.
    pub fn take_save_request(&mut self) -> Option<Command> {
        self.save_requested.take()
    }

    /// The current preset with the person's edits (tuned materials, drawn obstacles, gravity),
    /// as a preset file would give it.
    pub fn edited_preset(&self) -> Preset {
        let world = &self.world;
        let materials = self
            .preset
            .materials_of_world(world.materials(), world.params().substeps);
        self.preset
            .edited(&materials, world.obstacles(), world.params().gravity)
    }

    /// Records that the world was just built from the current preset (a new recording when the
    /// last one ended at a snapshot).
    fn record_preset(&mut self) {
        let built = Input::Preset {
            source: self.loaded_from.clone(),
            particles: self.particles,
            checksum: self.world.checksum(),
        };
        self.recording.record_preset(self.seed, &built);
    }

    /// Where particle `index` is drawn: between its previous and current position by
    /// `fraction` of a frame (its current position when it is new).
    pub fn drawn_position(&self, index: usize, fraction: f32) -> Vec2 {
        self.display.drawn_position(&self.world, index, fraction)
    }

    /// Where body `index` is drawn: its position and angle between the previous frame's and
    /// the current ones by `fraction` of a frame (the current ones when it has no previous).
    pub fn drawn_body_pose(&self, index: usize, fraction: f32) -> (Vec2, f32) {
        self.display.drawn_body_pose(&self.world, index, fraction)
    }

    /// Polls the preset file; reloads it when it changed.
    pub fn poll_file(&mut self) {
        if self.watcher.as_mut().is_some_and(Watcher::changed) && self.reload() {
            self.say(format!("{}: reloaded", self.preset.name));
        }
    }

    fn switch_to_key(&mut self, key: usize) {
        let index = key.checked_sub(1).filter(|&index| index < PRESET_KEYS);
        let Some((name, _)) = index.and_then(|index| BUILTIN.get(index)) else {
            self.say(format!("no preset on key {}", key_label(key)));
            return;
        };
        let name = name.to_string();
        if self.recording.replaying() {
            return;
        }
        match Preset::load(&name)
            .map_err(|e| e.to_string())
            .and_then(|preset| rescaled_to(preset, self.resolution))
        {
            Ok((preset, particles)) => {
                self.preset = preset;
                self.particles = particles;
                self.loaded_from = name.clone();
                self.source = PresetSource::Builtin {
                    name: name.clone(),
                    key,
                };
                self.reload_error = None;
                self.watch();
                self.rebuild();
                self.tools.reset_stir_radius(&self.world);
                // An edited checkout file replaces the embedded text.
                if let Some(path) = checkout_file(&name) {
                    let embedded = BUILTIN.iter().find(|(n, _)| *n == name).map(|(_, t)| *t);
                    if std::fs::read_to_string(path).ok().as_deref() != embedded {
                        self.reload();
                    }
                }
                self.say(format!("{}: {}", key_label(key), self.preset.name));
            }
            Err(error) => self.reload_error = Some(error),
        }
    }

    /// Reads the current preset's file again; on success rebuilds the world, on failure keeps
    /// the last good version running and records the error. True on success.
    pub fn reload(&mut self) -> bool {
        let path = match &self.source {
            PresetSource::File(path) => Some(path.clone()),
            PresetSource::Builtin { name, .. } => checkout_file(name),
        };
        let Some(path) = path else {
            self.say("no preset file to reload (embedded preset)");
            return false;
        };
        if self.recording.replaying() {
            return false;
        }
        let loaded = Preset::load(&path.display().to_string())
            .map_err(|e| e.to_string())
            .and_then(|preset| rescaled_to(preset, self.resolution));
        match loaded {
            Ok((preset, particles)) => {
                self.preset = preset;
                self.particles = particles;
                self.loaded_from = path.display().to_string();
                self.reload_error = None;
                self.rebuild();
                true
            }
            Err(error) => {
                self.reload_error = Some(error);
                false
            }
        }
    }

    /// The current preset with `factor` times its particles (within the engine's limits), from
    /// the start.
    fn rescale(&mut self, factor: f32) {
        let now = self.preset.particles().max(1);
        let wanted = ((now as f32 * factor).round() as usize).clamp(MIN_PARTICLES, MAX_PARTICLES);
        if self.recording.replaying() {
            return;
        }
        // Rescaled from the file as loaded, so that a replay builds the same preset.
        match Preset::load_scaled(&self.loaded_from, Some(wanted)) {
            Ok(preset) => {
                self.preset = preset;
                self.particles = Some(wanted);
                self.rebuild();
                self.say(format!(
                    "{}: about {} particles",
                    self.preset.name,
                    self.preset.particles()
                ));
            }
            Err(error) => self.say(error.to_string()),
        }
    }

    /// A fresh world from the current preset (recorded; gravity untilted).
    fn rebuild(&mut self) {
        if self.recording.replaying() {
            return;
        }
        self.release_body();
        self.world = self.preset.build_world(self.seed);
        self.tools.restart(&self.world);
        self.record_preset();
        self.clock = FixedStep::new(self.preset.scene.params.frame_rate);
        self.display.forget();
    }

    fn watch(&mut self) {
        let path = match &self.source {
            PresetSource::File(path) => Some(path.clone()),
            PresetSource::Builtin { name, .. } => checkout_file(name),
        };
        self.watcher = path.map(Watcher::new);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However fast the machine, `auto` goes no finer than the tests check (16 times a preset's
    /// own particles), and the game says it capped; on a slow one it keeps a quarter.
    #[test]
    fn auto_goes_no_finer_than_the_tested_resolutions() {
        let preset = Preset::load("seed").unwrap();
        let own = preset.own_particles();
        let fast = 1.0e15;
        assert_eq!(
            affordable_particles(&preset, fast, AUTO_SHARE),
            AUTO_FINEST * own
        );
        assert_eq!(affordable_particles(&preset, 1.0, AUTO_SHARE), own / 4);
        let middling = affordable_particles(&preset, 1.0e7, AUTO_SHARE);
        assert!(
            own / 4 < middling && middling < AUTO_FINEST * own,
            "{middling}"
        );
        let seed = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let mut game = Game::new(preset.clone(), seed.clone(), 1, Resolution::Auto);
        game.particles = Some(AUTO_FINEST * own);
        assert!(game.auto_capped());
        game.particles = Some(middling);
        assert!(!game.auto_capped());
        let mut fixed = Game::new(preset, seed, 1, Resolution::Fixed(AUTO_FINEST * own));
        fixed.particles = Some(AUTO_FINEST * own);
        assert!(!fixed.auto_capped(), "only auto caps");
    }

    #[test]
    fn fixed_step_runs_the_same_frames_at_any_display_rate() {
        for display_rate in [30.0, 60.0, 144.0] {
            let mut clock = FixedStep::new(20.0);
            let frames: u32 = (0..(display_rate as usize * 10))
                .map(|_| clock.advance(1.0 / display_rate))
                .sum();
            assert!((199..=201).contains(&frames), "{display_rate}: {frames}");
        }
    }

    #[test]
    fn fixed_step_drops_time_it_cannot_catch_up() {
        let mut clock = FixedStep::new(20.0);
        assert_eq!(clock.advance(10.0), MAX_FRAMES_PER_DISPLAY);
        assert!(clock.advance(0.0) <= 1);
        assert_eq!(clock.advance(f64::NAN), 0);
        assert_eq!(clock.advance(-1.0), 0);
        assert!((0.0..=1.0).contains(&clock.fraction()));
    }

    #[test]
    fn keys_without_presets_do_nothing_and_ten_keys_hold_presets() {
        let preset = Preset::load("seed").unwrap();
        let source = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let mut game = Game::new(preset, source, 1, Resolution::Own);
        game.apply(Command::SwitchPreset(0));
        assert_eq!(game.preset.name, "seed");
        assert!(game.message().unwrap().contains("no preset"));
        game.apply(Command::SwitchPreset(9));
        assert_eq!(game.preset.name, BUILTIN[8].0);
        game.apply(Command::SwitchPreset(10));
        assert_eq!(game.preset.name, "flood");
        assert_eq!(game.message(), Some("0: flood"), "key 10 is the 0 key");
        game.apply(Command::SwitchPreset(11));
        assert_eq!(game.preset.name, "smoke");
        assert_eq!(game.message(), Some("Shift+1: smoke"));
        game.apply(Command::SwitchPreset(12));
        assert_eq!(game.preset.name, "lava");
        game.apply(Command::SwitchPreset(13));
        assert_eq!(game.preset.name, "bath");
        assert_eq!(game.message(), Some("Shift+3: bath"));
        game.apply(Command::SwitchPreset(14));
        assert_eq!(game.preset.name, "mill");
        game.apply(Command::SwitchPreset(15));
        assert_eq!(game.preset.name, "collapse");
        assert_eq!(game.message(), Some("Shift+5: collapse"));
        // The benchmarks' tank comes after the keyed presets: no key reaches it.
        game.apply(Command::SwitchPreset(16));
        assert_eq!(game.preset.name, "collapse");
        assert!(game.message().unwrap().contains("no preset on key Shift+6"));
        game.apply(Command::SwitchPreset(2));
        assert_eq!(game.preset.name, "dam");
        assert_eq!(game.key(), Some(2));
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
        assert_eq!(game.preset.name, "seed");
        assert!(game.reload_error.as_deref().unwrap().contains("mine.toml"));
        std::fs::write(&path, BUILTIN[1].1).unwrap();
        assert!(game.reload());
        assert_eq!(game.preset.name, "dam");
        assert!(game.reload_error.is_none());
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
            None,
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
            game.world.obstacles().len(),
            1,
            "`]` rebuilt the world, then a post"
        );
        let checksum = game.world.checksum();
        game.finish_recording().unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        for verb in [
            " pour ",
            " stir ",
            " pull ",
            " erase ",
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
        let crate_at = |game: &Game| game.world.bodies().unwrap().state(0).position;
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
        let checksum = game.world.checksum();
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
