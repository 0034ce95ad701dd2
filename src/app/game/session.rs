//! The running scene, without any window types: the current preset and where it came from, its
//! world, the fixed-step clock and pause, how many particles presets get, and preset hot reload.

use crate::cost::{affordable_particles, CostModel, Load, Prediction, AUTO_FINEST, AUTO_SHARE};
use crate::preset::{Preset, BUILTIN, MAX_PARTICLES};
use crate::replay::Input;
use crate::sim::numerics::clock::Instant;
use crate::sim::numerics::portable::Ordered;
use crate::sim::World;
use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

/// Most simulation frames run for one displayed frame; time beyond that is dropped, so a slow
/// machine shows slow motion instead of falling ever further behind.
pub const MAX_FRAMES_PER_DISPLAY: u32 = 2;

/// Longest real time one displayed frame may account for (a stalled window resumes calmly).
const MAX_ELAPSED: f64 = 0.25;

/// Seconds between checks of the preset file's modification time.
const WATCH_INTERVAL: f64 = 0.5;

/// How many embedded presets have a key: keys 1 to 9, then 0 for the tenth
/// (`Command::SwitchPreset(10)`), then Shift with 1 to 9 and 0 for the eleventh to the
/// twentieth, then B for the twenty-first, the sandbox (`preset::SANDBOX`).
pub const PRESET_KEYS: usize = 21;

/// The key that switches to the preset `key` as printed on the keyboard: 10 is `0`, 11 is
/// `Shift+1`, 12 is `Shift+2`, 20 is `Shift+0`, 21 is `B`.
pub fn key_label(key: usize) -> String {
    match key {
        10 => "0".to_string(),
        11..=19 => format!("Shift+{}", key - 10),
        20 => "Shift+0".to_string(),
        21 => "B".to_string(),
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
    /// The finest resolution whose simulation, once the scene is poured, takes at most
    /// `AUTO_SHARE` of real time, by the scene's cost model on this machine (`crate::cost`),
    /// measured when each preset is loaded.
    Auto,
}

/// The fewest particles `[` goes down to.
pub const MIN_PARTICLES: usize = 100;

/// How a preset was rescaled for the window: the count it asked for (`None`: the preset's own)
/// and, under `Resolution::Auto`, the scene's cost model the count was chosen by.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scale {
    /// The particle count asked for (`None`: the preset's own).
    pub particles: Option<usize>,
    /// The scene's cost model on this machine, when it was measured.
    pub model: Option<CostModel>,
}

/// `preset` (at its own resolution) with the particles `resolution` gives it, and how it was
/// rescaled; an error is one line.
pub fn rescaled_to(preset: Preset, resolution: Resolution) -> Result<(Preset, Scale), String> {
    let (particles, model) = match resolution {
        Resolution::Own => return Ok((preset, Scale::default())),
        Resolution::Fixed(particles) => (particles, None),
        Resolution::Auto => match CostModel::measure(&preset) {
            Some(model) => (
                affordable_particles(&preset, &model, AUTO_SHARE),
                Some(model),
            ),
            // Without a clock there is nothing to measure: the preset's own count.
            None => return Ok((preset, Scale::default())),
        },
    };
    let preset = preset
        .with_particles(particles)
        .map_err(|e| e.to_string())?;
    let particles = Some(particles);
    Ok((preset, Scale { particles, model }))
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
    /// Wall-clock milliseconds of the last `SIM_KEPT` simulation frames of this world, oldest
    /// first.
    recent_sim_ms: VecDeque<f64>,
    /// When the current world was built (its clock restarted).
    built: Instant,
    seed: u64,
    resolution: Resolution,
    watcher: Option<Watcher>,
    step_requested: bool,
    /// Where the current preset was loaded from (a name or a path), as a replay names it.
    loaded_from: String,
    /// The particle count the current preset was rescaled to (`None`: its own).
    particles: Option<usize>,
    /// The current scene's cost model, when `Resolution::Auto` measured it.
    model: Option<CostModel>,
    /// How much dearer than its model the scene's first seconds were, when `auto_correction`
    /// went coarser for it.
    correction: Option<f64>,
    /// `auto_correction` has had its look at the current preset (or the person chose a count).
    checked: bool,
    /// The materials the world held when its frames' cost was last judged (`reprice`).
    priced_materials: usize,
    /// The milliseconds of the frames since materials last joined the world, while `reprice`
    /// watches them.
    since_joined: Option<Vec<f64>>,
}

/// Simulation frames `Session::auto_correction` leaves out after a world is built (its buffers
/// grow, its springs form), then the frames it watches: 2 simulated seconds at 20 frames a
/// second.
const CHECK_FRAMES: (usize, usize) = (10, 40);

/// How much dearer than its model a scene's first seconds may be before `--particles auto` goes
/// coarser: the model's own accuracy (`benches/auto_resolution.sh`).
pub const AUTO_TOLERANCE: f64 = 1.25;

/// The particle cap for a world of `particles` particles (under a cap of `cap`) whose frames
/// take `observed` milliseconds where `budget` is what the automatic resolution affords: a
/// frame's cost taken to go with its particles, the count whose frames would take the budget,
/// never below the particles there are (none is removed). `None` unless the frames cost over
/// `AUTO_TOLERANCE` times the budget and the new cap is under 90% of the old.
pub fn repriced_cap(particles: usize, cap: usize, observed: f64, budget: f64) -> Option<usize> {
    if !(observed.is_finite() && budget.is_finite() && budget > 0.0)
        || observed <= budget * AUTO_TOLERANCE
    {
        return None;
    }
    let affordable = (particles as f64 * budget / observed) as usize;
    let new = affordable.max(particles).max(1);
    (new * 10 < cap * 9).then_some(new)
}

/// How many simulation frames' costs `Session::sim_ms_median` goes over: the last 10 seconds
/// at 20 frames a second.
pub const SIM_KEPT: usize = 200;

impl Session {
    /// A world of `preset` (already rescaled, as `scale` says) from `seed`, loaded from
    /// `source`; `resolution` says how many particles every preset loaded later gets. Its file
    /// is not watched until `watch`.
    pub fn new(
        preset: Preset,
        source: PresetSource,
        seed: u64,
        resolution: Resolution,
        scale: Scale,
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
            recent_sim_ms: VecDeque::with_capacity(SIM_KEPT),
            built: Instant::now(),
            seed,
            resolution,
            watcher: None,
            step_requested: false,
            loaded_from,
            particles: scale.particles,
            model: scale.model,
            correction: None,
            checked: false,
            priced_materials: 0,
            since_joined: None,
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

    /// Steps the world one frame, timing it (`sim_ms`, `sim_ms_median`).
    pub fn run_frame(&mut self) {
        let start = Instant::now();
        self.world.step_frame();
        self.sim_ms = start.elapsed().as_secs_f64() * 1000.0;
        if self.recent_sim_ms.len() == SIM_KEPT {
            self.recent_sim_ms.pop_front();
        }
        self.recent_sim_ms.push_back(self.sim_ms);
        if let Some(frames) = &mut self.since_joined {
            frames.push(self.sim_ms);
        }
    }

    /// Under `Resolution::Auto`, once after materials join the world (a pour of one it lacked):
    /// the lower particle cap to record (`Input::Cap`) when its frames have come to cost more
    /// than the automatic resolution affords. It watches `CHECK_FRAMES` after the arrival (10
    /// left out, then 40), and where their median is over `AUTO_TOLERANCE` times `AUTO_SHARE` of
    /// a frame's real time, the world takes no more particles than it affords at that price
    /// (`repriced_cap`). The particle size stays: restarting the scene coarser would throw away
    /// what the player built. `None` otherwise, and without `Resolution::Auto`.
    pub fn reprice(&mut self) -> Option<usize> {
        let materials = self.world.materials().len();
        if self.resolution != Resolution::Auto || materials < self.priced_materials {
            // Undo took materials out, or the count is the player's: nothing to judge.
            self.priced_materials = materials;
            self.since_joined = None;
            return None;
        }
        if materials > self.priced_materials {
            // Nothing to judge at a fresh world's start; after an arrival, its frames.
            if self.priced_materials > 0 {
                self.since_joined = Some(Vec::new());
            }
            self.priced_materials = materials;
            return None;
        }
        let (skipped, watched) = CHECK_FRAMES;
        let frames = self.since_joined.as_ref()?;
        if frames.len() < skipped + watched {
            return None;
        }
        let mut watched: Vec<f64> = frames[skipped..skipped + watched].to_vec();
        self.since_joined = None;
        watched.sort_by(f64::total_cmp);
        let observed = watched[watched.len() / 2];
        let budget = AUTO_SHARE * 1000.0 / f64::from(self.world.params().frame_rate);
        let params = self.world.params();
        repriced_cap(
            self.world.particles().len(),
            params.max_particles,
            observed,
            budget,
        )
    }

    /// The median wall-clock milliseconds of the last `SIM_KEPT` simulation frames of this
    /// world (`None` before its first).
    pub fn sim_ms_median(&self) -> Option<f64> {
        let mut kept: Vec<f64> = self.recent_sim_ms.iter().copied().collect();
        kept.sort_by(f64::total_cmp);
        kept.get(kept.len() / 2).copied()
    }

    /// The particle count the current preset was rescaled to (`None`: its own).
    pub fn particles_asked(&self) -> Option<usize> {
        self.particles
    }

    /// The current scene's cost model, when `Resolution::Auto` measured it.
    pub fn cost_model(&self) -> Option<CostModel> {
        self.model
    }

    /// How much dearer than its model the current scene's first seconds were, when
    /// `auto_correction` went coarser for it.
    pub fn correction(&self) -> Option<f64> {
        self.correction
    }

    /// Under `Resolution::Auto`, once per preset loaded: the coarser count to restart the scene
    /// at when its first seconds cost more than its model says. The check comes after
    /// `CHECK_FRAMES` (10 frames left out, then 40 watched): the median of the frames watched,
    /// against what the model says a frame of the world as it is then costs (its particles and
    /// springs at that moment, not once poured). Frames more than `AUTO_TOLERANCE` times dearer
    /// (the drawing contending for the cores, a machine busy when the scene was measured) make
    /// every price of the model that many times dearer, and where that affords less than 90% of
    /// the count the scene has, that count is the answer. Restarting two and a half seconds in
    /// costs the person little of the scene; later, it would cost them what they did in it.
    pub fn auto_correction(&mut self) -> Option<usize> {
        let (skipped, watched) = CHECK_FRAMES;
        if self.resolution != Resolution::Auto
            || self.checked
            || self.recent_sim_ms.len() < skipped + watched
        {
            return None;
        }
        self.checked = true;
        let model = self.model?;
        let mut frames: Vec<f64> = self
            .recent_sim_ms
            .iter()
            .skip(skipped)
            .take(watched)
            .copied()
            .collect();
        frames.sort_by(f64::total_cmp);
        let observed = frames[frames.len() / 2];
        let predicted = model.frame_ms(Load::now(&self.world));
        let factor = observed / predicted;
        if !factor.is_finite() || factor <= AUTO_TOLERANCE {
            return None;
        }
        let count = affordable_particles(&self.preset, &model.times(factor), AUTO_SHARE);
        let asked = self.particles?;
        if count * 10 >= asked * 9 {
            return None;
        }
        self.correction = Some(factor);
        Some(count)
    }

    /// What the cost model `Resolution::Auto` measured says of the current scene at its
    /// current count; `None` without one.
    pub fn prediction(&self) -> Option<Prediction> {
        self.model.map(|model| model.prediction(&self.preset))
    }

    /// A new clock at the current preset's frame rate (a new world starts on a whole frame), no
    /// frames timed yet, and the wall clock of `wall_seconds` restarted.
    pub fn restart_clock(&mut self) {
        self.clock = FixedStep::new(self.preset.scene.params.frame_rate);
        self.recent_sim_ms.clear();
        self.built = Instant::now();
    }

    /// Wall-clock seconds since the current world was built (its clock restarted): with the
    /// world's simulated time, how near real time the window ran it.
    pub fn wall_seconds(&self) -> f64 {
        self.built.elapsed().as_secs_f64()
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
            Ok((preset, scale)) => {
                self.preset = preset;
                self.particles = scale.particles;
                self.model = scale.model;
                (self.correction, self.checked) = (None, false);
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
            Ok((preset, scale)) => {
                self.preset = preset;
                self.particles = scale.particles;
                self.model = scale.model;
                (self.correction, self.checked) = (None, false);
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
        self.rescale_to(wanted)?;
        // The person chose the count: `auto_correction` leaves it.
        self.checked = true;
        Ok(())
    }

    /// Makes the current preset with about `particles` particles the current one, keeping its
    /// cost model (the same scene); the world is left to `build`. The error is one line.
    pub fn rescale_to(&mut self, particles: usize) -> Result<(), String> {
        // Rescaled from the file as loaded, so that a replay builds the same preset.
        let preset =
            Preset::load_scaled(&self.loaded_from, Some(particles)).map_err(|e| e.to_string())?;
        self.preset = preset;
        self.particles = Some(particles);
        Ok(())
    }

    /// Runs `world`, reopened from a snapshot of `preset`, on a new clock; its file is not
    /// watched.
    pub fn open_snapshot(&mut self, preset: Preset, world: World) {
        self.preset = preset;
        // The snapshot's scene may have been edited: the model measured another.
        self.model = None;
        self.world = world;
        self.restart_clock();
        self.watcher = None;
    }

    /// The current preset with the person's edits (tuned materials, drawn obstacles, gravity)
    /// and the materials poured into it (`Preset::holding`), as a preset file would give it.
    pub fn edited_preset(&self) -> Preset {
        let world = &self.world;
        let preset = self.preset.holding(world);
        // Materials the preset could not take (none the library gives) stay the world's alone.
        let own = &world.materials()[..preset.scene.materials.len().min(world.materials().len())];
        let materials = preset.materials_of_world(own, world.params().substeps);
        preset.edited(&materials, world.obstacles(), world.params().gravity)
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
        let priced = |per_particle_us| CostModel {
            fixed_ms: 0.0,
            per_particle_us,
            elastic_share: 0.0,
            spring_us: 0.0,
        };
        assert_eq!(
            affordable_particles(&preset, &priced(1.0e-9), AUTO_SHARE),
            AUTO_FINEST * own
        );
        assert_eq!(
            affordable_particles(&preset, &priced(1.0e6), AUTO_SHARE),
            own / 4
        );
        let middling = affordable_particles(&preset, &priced(0.1), AUTO_SHARE);
        assert!(
            own / 4 < middling && middling < AUTO_FINEST * own,
            "{middling}"
        );
        let seed = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let auto = Resolution::Auto;
        let mut session = Session::new(preset.clone(), seed.clone(), 1, auto, Scale::default());
        session.particles = Some(AUTO_FINEST * own);
        assert!(session.auto_capped());
        session.particles = Some(middling);
        assert!(!session.auto_capped());
        let fine = Resolution::Fixed(AUTO_FINEST * own);
        let scale = Scale {
            particles: Some(AUTO_FINEST * own),
            model: None,
        };
        let fixed = Session::new(preset, seed, 1, fine, scale);
        assert!(!fixed.auto_capped(), "only auto caps");
    }

    /// The median of the frames timed goes over the last `SIM_KEPT` frames of the current
    /// world, and a new world starts with none.
    #[test]
    fn the_median_frame_cost_is_of_the_current_world() {
        let source = PresetSource::Builtin {
            name: "dam".into(),
            key: 0,
        };
        let preset = Preset::load("dam").unwrap();
        let mut session = Session::new(preset, source, 1, Resolution::Own, Scale::default());
        assert_eq!(session.sim_ms_median(), None);
        session.run_frame();
        assert!(session.sim_ms_median().is_some());
        for ms in 0..SIM_KEPT + 50 {
            session.recent_sim_ms.push_back(ms as f64);
            if session.recent_sim_ms.len() > SIM_KEPT {
                session.recent_sim_ms.pop_front();
            }
        }
        // The last SIM_KEPT values are 50 to 249: their upper median is 150.
        assert_eq!(session.sim_ms_median(), Some(150.0));
        session.build();
        assert_eq!(session.sim_ms_median(), None);
    }

    /// Frames far dearer than the model said restart auto's scene coarser, once per preset;
    /// frames as dear as it said, or a count the person chose, are left alone.
    #[test]
    fn auto_goes_coarser_once_when_the_first_seconds_cost_more() {
        let source = PresetSource::Builtin {
            name: "dam".into(),
            key: 0,
        };
        let model = CostModel {
            fixed_ms: 0.0,
            per_particle_us: 0.1,
            elastic_share: 0.0,
            spring_us: 0.0,
        };
        let own = Preset::load("dam").unwrap();
        let asked = affordable_particles(&own, &model, AUTO_SHARE);
        let preset = own.clone().with_particles(asked).unwrap();
        let scale = Scale {
            particles: Some(asked),
            model: Some(model),
        };
        let session = |ms_of_predicted: f64| {
            let mut session =
                Session::new(preset.clone(), source.clone(), 1, Resolution::Auto, scale);
            session.run_frame();
            let predicted = model.frame_ms(Load::now(&session.world));
            session.recent_sim_ms = vec![ms_of_predicted * predicted; 60].into();
            session
        };
        let mut slow = session(3.0);
        let coarser = slow.auto_correction().expect("three times dearer: coarser");
        assert!(coarser < asked * 9 / 10, "{coarser} of {asked}");
        assert_eq!(slow.correction(), Some(3.0));
        assert_eq!(slow.auto_correction(), None, "once per preset");
        let mut fair = session(1.1);
        assert_eq!(fair.auto_correction(), None);
        assert_eq!(fair.correction(), None);
        let mut chosen = session(3.0);
        chosen.rescale(1.0).unwrap();
        assert_eq!(chosen.auto_correction(), None, "the person chose the count");
        let mut early = session(3.0);
        early.recent_sim_ms.truncate(30);
        assert_eq!(early.auto_correction(), None, "not before 50 frames");
        assert!(early.auto_correction().is_none() && !early.checked);
    }

    /// Frames three times dearer than the budget after a material joined stop the pours where
    /// the world is (its particles stay); frames within the tolerance, or a cap already near,
    /// change nothing.
    #[test]
    fn dearer_frames_after_an_arrival_lower_the_cap_to_the_particles_there_are() {
        assert_eq!(repriced_cap(3000, 8000, 75.0, 25.0), Some(3000));
        assert_eq!(
            repriced_cap(3000, 8000, 30.0, 25.0),
            None,
            "within the tolerance"
        );
        assert_eq!(
            repriced_cap(7500, 8000, 75.0, 25.0),
            None,
            "the cap is near already"
        );
        assert_eq!(repriced_cap(3000, 8000, f64::NAN, 25.0), None);
        let mut session = Session::new(
            Preset::load("sandbox").unwrap(),
            PresetSource::Builtin {
                name: "sandbox".into(),
                key: 21,
            },
            1,
            Resolution::Auto,
            Scale::default(),
        );
        assert_eq!(session.reprice(), None, "the world as built is not judged");
        let pour = Input::Pour {
            material: crate::input::MaterialRef::Name("lava".into()),
            centre: glam::Vec2::new(8.0, 4.0),
            radius: 0.5,
            velocity: glam::Vec2::ZERO,
        };
        // The sandbox holds every material: an arrival needs a world without one.
        let mut world = Preset::load("dam").unwrap().build_world(1);
        // Room to pour, which the dearer frames take away.
        world.set_particle_cap(40_000).unwrap();
        let mut history = crate::replay::History::new();
        session.world = world.clone();
        assert_eq!(session.reprice(), None);
        history.apply(0, None, &pour, &mut world).unwrap();
        session.world = world;
        assert_eq!(session.reprice(), None, "the arrival starts the watch");
        let budget = AUTO_SHARE * 1000.0 / f64::from(session.world.params().frame_rate);
        for _ in 0..50 {
            session.since_joined.as_mut().unwrap().push(3.0 * budget);
        }
        let particles = session.world.particles().len();
        assert_eq!(session.reprice(), Some(particles));
        assert_eq!(session.reprice(), None, "once per arrival");
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
        let mut session = Session::new(preset, source, 6, Resolution::Own, Scale::default());
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
