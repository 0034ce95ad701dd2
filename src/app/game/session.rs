//! The running scene, without any window types: the current preset and where it came from, its
//! world, the fixed-step clock and pause, how many particles presets get, and preset hot reload.

use crate::preset::{Preset, BUILTIN, MAX_PARTICLES};
use crate::replay::Input;
use crate::sim::numerics::clock::Instant;
use crate::sim::numerics::portable::Ordered;
use crate::sim::World;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Most simulation frames run for one displayed frame; time beyond that is dropped, so a slow
/// machine shows slow motion instead of falling ever further behind.
pub const MAX_FRAMES_PER_DISPLAY: u32 = 2;

/// Longest real time one displayed frame may account for (a stalled window resumes calmly).
const MAX_ELAPSED: f64 = 0.25;

/// Seconds between checks of the preset file's modification time.
const WATCH_INTERVAL: f64 = 0.5;

/// How many embedded presets have a number key: keys 1 to 9, then 0 for the tenth
/// (`Command::SwitchPreset(10)`), then Shift with 1 to 8 for the eleventh to the eighteenth.
pub const PRESET_KEYS: usize = 18;

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
    let folder = if crate::level::BUILTIN
        .iter()
        .any(|(level, _)| *level == name)
    {
        "levels"
    } else {
        "presets"
    };
    let relative = Path::new("assets")
        .join(folder)
        .join(format!("{name}.toml"));
    [
        PathBuf::from("."),
        PathBuf::from(env!("CARGO_MANIFEST_DIR")),
    ]
    .into_iter()
    .map(|folder| folder.join(&relative))
    .find(|path| path.is_file())
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

/// About how many particles `measure_speed` times a scene with.
const SPEED_SAMPLE: usize = 8_000;

/// This machine's speed at simulating `preset` now, in particle-substeps per second: a few
/// substeps of the scene itself with about 8,000 particles, on every thread, after two that warm
/// the caches and form its springs. What a particle costs in this scene is what gets priced:
/// each particle of a jelly keeps up to 16 springs and looks for more every substep, so a jelly
/// simulates fewer particles in the same time than a liquid does. A scene that starts with
/// fewer than 1,000 particles (its liquid still to pour from emitters) is timed on `dam`, a
/// settled liquid. `None` when the clock did not move (a page whose clock is not readable).
pub fn measure_speed(preset: &Preset) -> Option<f64> {
    let sample = |preset: &Preset| {
        let scaled = preset.clone().with_particles(SPEED_SAMPLE).ok()?;
        let world = scaled.build_world(1);
        (world.particles().len() >= 1_000).then_some(world)
    };
    let mut world = sample(preset).unwrap_or_else(|| {
        let dam = Preset::load("dam").expect("the embedded dam preset loads");
        sample(&dam).expect("the embedded dam preset scales")
    });
    // Caches and buffers warm, springs formed.
    world.substep();
    world.substep();
    let substeps = 12;
    let start = Instant::now();
    for _ in 0..substeps {
        world.substep();
    }
    let seconds = start.elapsed().as_secs_f64();
    (seconds > 0.0).then(|| world.particles().len() as f64 * f64::from(substeps) / seconds)
}

/// The finest `Resolution::Auto` goes: this many times a preset's own particles, the finest the
/// tests check a preset's behaviour at (`tests/suite/resolution.rs`, `tests/suite/jets.rs`).
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
        Resolution::Auto => match measure_speed(&preset) {
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

/// True when the program runs from a checkout whose file of embedded preset `name` differs from
/// the embedded text; `unreadable` is the answer when that file cannot be read.
pub fn checkout_differs(name: &str, unreadable: bool) -> bool {
    let Some(path) = checkout_file(name) else {
        return false;
    };
    let embedded = BUILTIN
        .iter()
        .chain(crate::level::BUILTIN)
        .find(|(n, _)| *n == name)
        .map(|(_, t)| *t);
    match std::fs::read_to_string(path) {
        Ok(text) => Some(text.as_str()) != embedded,
        Err(_) => unreadable && embedded.is_some(),
    }
}

/// The scene running now: its preset (the last good version) and where it came from, its
/// world, and the clock that steps it.
pub struct Session {
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
    /// Error of the last reload, shown until a reload succeeds.
    pub reload_error: Option<String>,
    /// Wall-clock milliseconds the last simulation frame took.
    pub sim_ms: f64,
    seed: u64,
    resolution: Resolution,
    watcher: Option<Watcher>,
    step_requested: bool,
    /// Where the current preset was loaded from (a name or a path), as a replay names it.
    loaded_from: String,
    /// The particle count the current preset was rescaled to (`None`: its own).
    particles: Option<usize>,
}

impl Session {
    /// A world of `preset` (already rescaled, to `particles`: `None` for its own count) from
    /// `seed`, loaded from `source`; `resolution` says how many particles every preset loaded
    /// later gets. Its file is not watched until `watch`.
    pub fn new(
        preset: Preset,
        source: PresetSource,
        seed: u64,
        resolution: Resolution,
        particles: Option<usize>,
    ) -> Self {
        let world = preset.build_world(seed);
        let loaded_from = match &source {
            PresetSource::File(path) => path.display().to_string(),
            PresetSource::Builtin { name, .. } => name.clone(),
        };
        Self {
            clock: FixedStep::new(preset.scene.params.frame_rate),
            preset,
            source,
            world,
            paused: false,
            reload_error: None,
            sim_ms: 0.0,
            seed,
            resolution,
            watcher: None,
            step_requested: false,
            loaded_from,
            particles,
        }
    }

    /// The seed every world of the session is built from.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// The replay's line for the world as just built: where its preset was loaded from, with
    /// how many particles, and the world's checksum.
    pub fn built(&self) -> Input {
        Input::Preset {
            source: self.loaded_from.clone(),
            particles: self.particles,
            checksum: self.world.checksum(),
        }
    }

    /// True when the current preset came from a file given on the command line.
    pub fn is_file(&self) -> bool {
        matches!(self.source, PresetSource::File(_))
    }

    /// Number key of the current preset, if it is an embedded one that has a key.
    pub fn key(&self) -> Option<usize> {
        match self.source {
            PresetSource::Builtin { key, .. } => (1..=PRESET_KEYS).contains(&key).then_some(key),
            PresetSource::File(_) => None,
        }
    }

    /// True when `Resolution::Auto` could afford finer particles than it gave this preset: it
    /// stopped at `AUTO_FINEST` times the preset's own count (the HUD says so).
    pub fn auto_capped(&self) -> bool {
        let finest = AUTO_FINEST * self.preset.own_particles().max(1);
        self.resolution == Resolution::Auto && self.particles.is_some_and(|p| p >= finest)
    }

    /// Pauses or resumes the simulation.
    pub fn toggle_pause(&mut self) {
        self.paused = !self.paused;
        self.clock.reset();
    }

    /// One simulation frame, when paused.
    pub fn request_step(&mut self) {
        if self.paused {
            self.step_requested = true;
        }
    }

    /// Frames to simulate for `elapsed` real seconds: 0 while paused (1 after `request_step`).
    pub fn frames_due(&mut self, elapsed: f64) -> u32 {
        if self.paused {
            return u32::from(std::mem::take(&mut self.step_requested));
        }
        self.clock.advance(elapsed)
    }

    /// Steps the world one frame, timing it (`sim_ms`).
    pub fn run_frame(&mut self) {
        let start = Instant::now();
        self.world.step_frame();
        self.sim_ms = start.elapsed().as_secs_f64() * 1000.0;
    }

    /// A new clock at the current preset's frame rate (a new world starts on a whole frame).
    pub fn restart_clock(&mut self) {
        self.clock = FixedStep::new(self.preset.scene.params.frame_rate);
    }

    /// A fresh world from the current preset, on a new clock.
    pub fn build(&mut self) {
        self.world = self.preset.build_world(self.seed);
        self.restart_clock();
    }

    /// The file the current preset reloads from: the command line's, or an embedded preset's
    /// file in the checkout (none when the program runs elsewhere).
    pub fn file(&self) -> Option<PathBuf> {
        match &self.source {
            PresetSource::File(path) => Some(path.clone()),
            PresetSource::Builtin { name, .. } => checkout_file(name),
        }
    }

    /// Starts watching the current preset's file, if it has one.
    pub fn watch(&mut self) {
        self.watcher = self.file().map(Watcher::new);
    }

    /// True when the watched file changed since the last poll.
    pub fn file_changed(&mut self) -> bool {
        self.watcher.as_mut().is_some_and(Watcher::changed)
    }

    /// Makes embedded preset `name` (on number key `key`) the current one, at the session's
    /// resolution, and watches its file; the world is left to `build`. On failure keeps the
    /// current preset and notes the error. True on success.
    pub fn load_builtin(&mut self, name: &str, key: usize) -> bool {
        match Preset::load(name)
            .map_err(|e| e.to_string())
            .and_then(|preset| rescaled_to(preset, self.resolution))
        {
            Ok((preset, particles)) => {
                self.preset = preset;
                self.particles = particles;
                self.loaded_from = name.to_string();
                self.source = PresetSource::Builtin {
                    name: name.to_string(),
                    key,
                };
                self.reload_error = None;
                self.watch();
                true
            }
            Err(error) => {
                self.reload_error = Some(error);
                false
            }
        }
    }

    /// Makes the preset in `path` the current one, at the session's resolution; the world is
    /// left to `build`. On failure keeps the last good version and notes the error. True on
    /// success.
    pub fn load_file(&mut self, path: &Path) -> bool {
        let loaded = Preset::load(&path.display().to_string())
            .map_err(|e| e.to_string())
            .and_then(|preset| rescaled_to(preset, self.resolution));
        match loaded {
            Ok((preset, particles)) => {
                self.preset = preset;
                self.particles = particles;
                self.loaded_from = path.display().to_string();
                self.reload_error = None;
                true
            }
            Err(error) => {
                self.reload_error = Some(error);
                false
            }
        }
    }

    /// Makes the current preset with `factor` times its particles (within the engine's limits)
    /// the current one; the world is left to `build`. The error is one line.
    pub fn rescale(&mut self, factor: f32) -> Result<(), String> {
        let now = self.preset.particles().max(1);
        let wanted = ((now as f32 * factor).round() as usize).clamp(MIN_PARTICLES, MAX_PARTICLES);
        // Rescaled from the file as loaded, so that a replay builds the same preset.
        let preset =
            Preset::load_scaled(&self.loaded_from, Some(wanted)).map_err(|e| e.to_string())?;
        self.preset = preset;
        self.particles = Some(wanted);
        Ok(())
    }

    /// Runs `world`, reopened from a snapshot of `preset`, on a new clock; its file is not
    /// watched.
    pub fn open_snapshot(&mut self, preset: Preset, world: World) {
        self.preset = preset;
        self.world = world;
        self.restart_clock();
        self.watcher = None;
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

    /// The scene as a link (`crate::share`), at the session's particle count and seed: by name
    /// when it is an embedded preset or level as it loads, else as the text F7 saves (with the
    /// person's edits).
    pub fn link(&self) -> crate::share::Shared {
        let edited = self.edited_preset().to_toml();
        if crate::share::is_embedded(&self.loaded_from) && edited == self.preset.to_toml() {
            crate::share::Shared::Preset {
                name: self.loaded_from.clone(),
                particles: self.particles,
                seed: self.seed,
            }
        } else {
            crate::share::Shared::Scene {
                toml: edited,
                particles: self.particles,
                seed: self.seed,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// However fast the machine, `auto` goes no finer than the tests check (16 times a preset's
    /// own particles), and the session says it capped; on a slow one it keeps a quarter.
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
        let mut session = Session::new(preset.clone(), seed.clone(), 1, Resolution::Auto, None);
        session.particles = Some(AUTO_FINEST * own);
        assert!(session.auto_capped());
        session.particles = Some(middling);
        assert!(!session.auto_capped());
        let fine = Resolution::Fixed(AUTO_FINEST * own);
        let fixed = Session::new(preset, seed, 1, fine, Some(AUTO_FINEST * own));
        assert!(!fixed.auto_capped(), "only auto caps");
    }

    /// F10's link: an embedded preset as it loads goes by name; once a wall is drawn it goes as
    /// the text F7 saves, and that text builds a world with the wall, at the same seed.
    #[test]
    fn a_scene_goes_by_name_until_it_is_edited_then_as_text() {
        use crate::share::{Opened, Shared};
        let source = PresetSource::Builtin {
            name: "dam".into(),
            key: 0,
        };
        let preset = Preset::load("dam").unwrap();
        let mut session = Session::new(preset, source, 6, Resolution::Own, None);
        assert_eq!(
            session.link(),
            Shared::Preset {
                name: "dam".into(),
                particles: None,
                seed: 6
            }
        );
        let wall = crate::sim::Obstacle::capsule(
            glam::Vec2::new(3.0, 4.0),
            glam::Vec2::new(5.0, 4.5),
            0.1,
            0.5,
        );
        session.world.add_obstacle(wall).unwrap();
        let link = session.link();
        assert!(matches!(link, Shared::Scene { seed: 6, .. }), "{link:?}");
        let Ok(Opened::Start { source, seed, .. }) = Shared::decode(&link.encode()).unwrap().open()
        else {
            panic!("a scene");
        };
        let opened = Preset::load(&source).unwrap().build_world(seed);
        assert_eq!(
            opened.obstacles().len(),
            session.world.obstacles().len(),
            "the drawn wall is in the link"
        );
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
}
