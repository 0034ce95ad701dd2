//! The headless runner (`slosh --headless`): steps a preset without a window and reports timing
//! and the final state as JSON.

use crate::cost::{affordable_particles, CostModel, Prediction, AUTO_SHARE};
use crate::level::{self, Attempt};
use crate::preset::{one_line, Preset};
use crate::replay::{Input, Recorder};
use crate::sim::numerics::clock::Instant;
use crate::sim::subsystems::air::{Air, Method};
use crate::sim::{RandomStirrer, StageTimes, World, WorldStats};
use crate::sound::{Recording, SoundFigures};
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::collections::BTreeMap;
use std::time::Duration;

/// Frames a headless run takes when none are asked for.
pub const DEFAULT_FRAMES: u64 = 200;

/// How a headless run stirs the liquid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum StirMode {
    /// No stirring.
    #[default]
    None,
    /// Seeded random strokes, like a person dragging the mouse through the liquid.
    Random,
}

/// What a headless run does.
#[derive(Clone, Debug, PartialEq)]
pub struct HeadlessOptions {
    /// Preset name, or a path to a `.toml` file.
    pub preset: String,
    /// Frames to run (0 with `level`: to the level's time limit).
    pub frames: u64,
    /// Play the preset as a level (`crate::level`): refused unless it is one, and the report
    /// gains the goal.
    pub level: bool,
    /// Particle count (rescales presets that allow it, else caps the count).
    pub particles: Option<usize>,
    /// Seed of all randomness.
    pub seed: u64,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Stirring.
    pub stir: StirMode,
    /// Record the run's inputs (its stirs) to this replay file.
    pub record: Option<std::path::PathBuf>,
    /// Start from this snapshot instead of the preset.
    pub load: Option<std::path::PathBuf>,
    /// Measure the scene's cost model after the run and report it (`Report::cost_model`): the
    /// program does, tests and golden runs leave it out (it takes up to a third of a second).
    pub cost_model: bool,
    /// Write the run's sound to this WAV file (`crate::sound`); the report gains `sound`.
    pub wav: Option<std::path::PathBuf>,
}

impl Default for HeadlessOptions {
    fn default() -> Self {
        Self {
            preset: "seed".into(),
            frames: DEFAULT_FRAMES,
            level: false,
            particles: None,
            seed: 1,
            threads: None,
            stir: StirMode::None,
            record: None,
            load: None,
            cost_model: false,
            wav: None,
        }
    }
}

/// Result of a headless run; its JSON form is the report's documented fields.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// Preset name.
    pub preset: String,
    /// Frames run.
    pub frames: u64,
    /// Substeps this run took (not those a loaded snapshot ran before it was saved).
    pub substeps: u64,
    /// Particles at the end.
    pub particles: usize,
    /// Particle radius of the run (finer or coarser with `--particles`).
    pub radius: f32,
    /// Substeps per frame as configured (a frame may take more when particles are fast).
    pub substeps_per_frame: u32,
    /// The fields whose values made the world run more substeps per frame than the scene
    /// asked for, each with the substeps it needs (`stability::substeps_needed`): `{}` when the
    /// scene is calm at its own substeps, `{"stiffness": 38}` for a stiffness of 10.
    #[serde(serialize_with = "ordered_map")]
    pub stability_substeps: Vec<(&'static str, u32)>,
    /// Worker threads used.
    pub threads: usize,
    /// What ran the pair loops' eight lanes ("avx512", "avx", "2x4 sse2", "2x4 neon",
    /// "2x4 simd128"): the same bits whichever it was.
    pub lanes: &'static str,
    /// Seed used.
    pub seed: u64,
    /// Median over the last half of the frames of (frame time / substeps).
    pub ms_per_substep_median: f64,
    /// Median over the last half of the frames of the frame time, in milliseconds.
    pub ms_per_frame_median: f64,
    /// Particle-substeps per wall second over the last half of the frames.
    pub particle_substeps_per_s: f64,
    /// `World::checksum` at the end, as 16 hexadecimal digits.
    #[serde(serialize_with = "hex")]
    pub checksum: u64,
    /// Particles with a non-finite position or velocity.
    pub nan: usize,
    /// Particles outside the walls.
    pub escaped: usize,
    /// Fastest particle at the end (−1 if not finite).
    #[serde(serialize_with = "finite_f32")]
    pub max_speed: f32,
    /// Σ ½ m |v|² at the end (−1 if not finite).
    #[serde(serialize_with = "finite_f64")]
    pub kinetic_energy: f64,
    /// Whether the particle cap stopped emission.
    pub cap_reached: bool,
    /// Frames that took more substeps than configured to keep the step stable.
    pub adapted_frames: u64,
    /// Particle moves capped at the stability limit, over the whole run.
    pub capped_moves: u64,
    /// Where each material ended up, in material order.
    pub materials: Vec<MaterialReport>,
    /// How full the pair loops' lanes were in the last substep (`World::lane_use`).
    pub lane_use: crate::sim::LaneUse,
    /// Mean milliseconds per substep of each stage over the whole run, in substep order.
    #[serde(rename = "stage_ms_per_substep", serialize_with = "ordered_map")]
    pub stage_ms: Vec<(&'static str, f64)>,
    /// The air grid at the end, in scenes with air.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub air: Option<AirReport>,
    /// The particles' heat (scenes with heat only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub heat: Option<HeatReport>,
    /// How many times each reaction happened, by name (scenes with reactions only).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub reactions: BTreeMap<String, u64>,
    /// Every rigid body at the end, in scenes with bodies.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub bodies: Vec<BodyReport>,
    /// The level's goal at the end, in a level (`--level`, or a replay recorded in one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub goal: Option<level::Report>,
    /// The scene's cost model on this machine, measured after the run, and what it says a frame
    /// costs at the run's count (`HeadlessOptions::cost_model`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cost_model: Option<CostReport>,
    /// The run's sound, with `--wav`: its length, RMS level and peak.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sound: Option<SoundFigures>,
}

/// The headless report's `cost_model`: what the scene's model (`crate::cost`) says a frame of
/// the run's scene costs once poured, beside `ms_per_frame_median`, which the run measured, and
/// the count `--particles auto` would give the scene on this machine by the same model.
#[derive(Clone, Copy, Debug, Serialize)]
pub struct CostReport {
    /// The model's figures for the run's scene.
    #[serde(flatten)]
    pub prediction: Prediction,
    /// The count `--particles auto` gives the scene by this model (`AUTO_SHARE` of real time).
    pub auto_particles: usize,
}

impl CostReport {
    /// Measures `preset`'s cost model (`CostModel::measure`) and what it says of `preset` at its
    /// count; `None` when the clock did not move.
    pub fn measure(preset: &Preset) -> Option<Self> {
        let model = CostModel::measure(preset)?;
        Some(Self {
            prediction: model.prediction(preset),
            auto_particles: affordable_particles(preset, &model, AUTO_SHARE),
        })
    }
}

/// One rigid body at the end of a run.
#[derive(Clone, Debug, Serialize)]
pub struct BodyReport {
    /// The body's name.
    pub name: String,
    /// Where its frame's origin is.
    pub position: [f32; 2],
    /// Its turn, in radians.
    pub angle: f32,
    /// Velocity of its centre of mass.
    pub velocity: [f32; 2],
    /// Radians per second, counter-clockwise positive.
    pub angular_velocity: f32,
}

/// The air and smoke grid at the end of a run.
#[derive(Clone, Debug, Serialize)]
pub struct AirReport {
    /// Cells across and up.
    pub cells: [usize; 2],
    /// Mean milliseconds per air step (one per frame) over the run.
    pub ms_per_step: f64,
    /// The pressure solver: "multigrid" (preconditioned CG) or "gauss-seidel".
    pub solver: &'static str,
    /// Iterations of the last step's pressure solve.
    pub solver_iterations: u32,
    /// Mean iterations per pressure solve over the run.
    pub solver_iterations_mean: f64,
    /// Relative residual ‖b − Ap‖ / ‖b‖ of the last solve.
    pub relative_residual: f32,
    /// Largest |∇·u| over the open cells after the last projection, in 1/s.
    pub divergence_max: f32,
    /// Total smoke (density × area).
    pub smoke_total: f64,
    /// Centre of mass of the smoke.
    pub smoke_centroid: [f32; 2],
    /// Mass of the vapour the air carries, in scenes where a material boils.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vapour: Option<f64>,
}

/// One material's particles at the end of a run.
#[derive(Clone, Debug, Serialize)]
pub struct MaterialReport {
    /// The material's name.
    pub name: String,
    /// Its particles.
    pub particles: usize,
    /// Their mean position.
    pub centroid: [f32; 2],
    /// The 95th percentile of their heights (the top of a settled pool).
    pub top: f32,
    /// Their mean temperature, in °C.
    pub temperature: f32,
    /// Their mass, summed (a material that burns or boils loses it).
    pub mass: f32,
}

/// The particles' heat at the end of a run, in scenes with heat.
#[derive(Clone, Debug, Serialize)]
pub struct HeatReport {
    /// The particles' enthalpy Σ m (c T + latent + offset) (`sim::subsystems::heat::HeatTotals`).
    pub total: f64,
    /// The lowest temperature, in °C.
    pub min: f32,
    /// The highest temperature, in °C.
    pub max: f32,
}

impl Report {
    /// The report as one line of JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("a report always serialises")
    }

    /// The final state's counts and extremes.
    pub fn stats(&self) -> WorldStats {
        WorldStats {
            particles: self.particles,
            nan: self.nan,
            escaped: self.escaped,
            max_speed: self.max_speed,
            kinetic_energy: self.kinetic_energy,
        }
    }
}

fn hex<S: Serializer>(value: &u64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format!("{value:016x}"))
}

/// JSON has no NaN or infinity; such values (counted in `nan` anyway) are written as −1.
fn finite_f32<S: Serializer>(value: &f32, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f32(if value.is_finite() { *value } else { -1.0 })
}

/// As `finite_f32`.
fn finite_f64<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
    serializer.serialize_f64(if value.is_finite() { *value } else { -1.0 })
}

fn ordered_map<S: Serializer, V: Serialize>(
    entries: &[(&'static str, V)],
    serializer: S,
) -> Result<S::Ok, S::Error> {
    let mut map = serializer.serialize_map(Some(entries.len()))?;
    for (key, value) in entries {
        map.serialize_entry(key, value)?;
    }
    map.end()
}

/// Runs a preset without a window and reports timing and final state. Errors (a preset that
/// does not load, threads that cannot start) are one line.
pub fn run(options: &HeadlessOptions) -> Result<Report, String> {
    in_pool(options.threads, || run_here(options))
}

/// `run` on the current thread pool, whatever `options.threads` says (a test's pool, or the web
/// page's one thread, where no pool can be started).
pub fn run_here(options: &HeadlessOptions) -> Result<Report, String> {
    let (preset, world) = match &options.load {
        Some(path) => crate::snapshot::load(path)?,
        None => {
            let preset = if options.level {
                Preset::load_level(&options.preset).and_then(|preset| match options.particles {
                    Some(particles) => preset.with_particles(particles),
                    None => Ok(preset),
                })
            } else {
                Preset::load_scaled(&options.preset, options.particles)
            }
            .map_err(|error| error.to_string())?;
            let world = preset.build_world(options.seed);
            (preset, world)
        }
    };
    run_in_pool(&preset, world, options)
}

/// Runs `work` in a pool of `threads` workers (default: one per core). On wasm32 there are no
/// threads to start: it runs on the calling thread. The error is one line.
pub(crate) fn in_pool<T: Send>(
    threads: Option<usize>,
    work: impl FnOnce() -> Result<T, String> + Send,
) -> Result<T, String> {
    if cfg!(target_arch = "wasm32") {
        return work();
    }
    thread_pool(threads)?.install(work)
}

/// A pool of `threads` workers (default: one per core); the error is one line.
fn thread_pool(threads: Option<usize>) -> Result<rayon::ThreadPool, String> {
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        builder = builder.num_threads(threads);
    }
    builder
        .build()
        .map_err(|error| one_line(&format!("cannot start worker threads: {error}")))
}

/// `run` on the current thread pool.
fn run_in_pool(
    preset: &Preset,
    mut world: World,
    options: &HeadlessOptions,
) -> Result<Report, String> {
    // A level is played from a fresh world (a snapshot is a sandbox).
    let mut attempt = match (&preset.level, &options.load) {
        (Some(level), None) => Some(Attempt::new(level.clone(), &world)?),
        _ => None,
    };
    let frames = match (options.frames, &attempt) {
        (0, Some(attempt)) => {
            let rules = &attempt.level().rules;
            (rules.time_limit * world.params().frame_rate).ceil() as u64
        }
        (frames, _) => frames,
    };
    // A snapshot's world comes with the substeps and air steps it ran before it was saved.
    let before = Counted::of(&world);
    let mut recorder = match &options.record {
        Some(path) => {
            let mut recorder = Recorder::create(path, options.seed)?;
            recorder.record(&Input::Preset {
                source: options.preset.clone(),
                particles: options.particles,
                checksum: world.checksum(),
            });
            Some(recorder)
        }
        None => None,
    };
    let mut sound = match &options.wav {
        Some(path) => Some(Recording::create(path, &world, options.seed)?),
        None => None,
    };
    let mut stirrer = RandomStirrer::new(options.seed);
    let mut timed_ms = Vec::new();
    let mut frame_ms = Vec::new();
    let (mut timed_particle_substeps, mut timed_seconds) = (0.0_f64, 0.0_f64);
    let configured_substeps = world.params().substeps;
    let (mut adapted_frames, mut capped_moves) = (0, 0);
    for frame in 0..frames {
        if options.stir == StirMode::Random {
            let stir = stirrer.next(&world).filter(|&stir| {
                // A level's rules hold for the random stirring too.
                (attempt.as_ref()).is_none_or(|attempt| attempt.admits(&Input::Stir(stir)).is_ok())
            });
            if let Some(stir) = stir {
                world.stir(stir);
                if let Some(recorder) = &mut recorder {
                    recorder.record(&Input::Stir(stir));
                }
            }
        }
        if let (0, Some(sound)) = (frame, &mut sound) {
            // The sound plays the world's own events, from the world as the first frame's
            // inputs left it.
            world.record_events(true);
            sound.listen_from(&world);
        }
        let start = Instant::now();
        world.step_frame();
        let seconds = start.elapsed().as_secs_f64();
        if let Some(recorder) = &mut recorder {
            recorder.frame_done();
        }
        if let Some(attempt) = &mut attempt {
            attempt.observe(&world);
        }
        if let Some(sound) = &mut sound {
            sound.frame(&world);
        }
        let stepped = world.last_frame();
        adapted_frames += (stepped.substeps > configured_substeps) as u64;
        capped_moves += stepped.capped as u64;
        let substeps = stepped.substeps as f64;
        if frame >= frames / 2 {
            timed_ms.push(seconds * 1000.0 / substeps);
            frame_ms.push(seconds * 1000.0);
            timed_particle_substeps += world.particles().len() as f64 * substeps;
            timed_seconds += seconds;
        }
    }
    timed_ms.sort_by(f64::total_cmp);
    frame_ms.sort_by(f64::total_cmp);
    let timing = Timing {
        ms_per_substep_median: timed_ms.get(timed_ms.len() / 2).copied().unwrap_or(0.0),
        ms_per_frame_median: frame_ms.get(frame_ms.len() / 2).copied().unwrap_or(0.0),
        particle_substeps_per_s: if timed_seconds > 0.0 {
            timed_particle_substeps / timed_seconds
        } else {
            0.0
        },
        adapted_frames,
        capped_moves,
    };
    if let Some(recorder) = recorder {
        recorder.finish(world.checksum())?;
    }
    let mut report = report(preset, &world, frames, options.seed, timing, &before);
    report.goal = attempt.map(|attempt| attempt.report());
    // After the run, so that its timing is not disturbed by the samples.
    report.cost_model = options
        .cost_model
        .then(|| CostReport::measure(preset))
        .flatten();
    report.sound = sound.map(Recording::finish).transpose()?;
    Ok(report)
}

/// What a world had counted before a run began (a snapshot's earlier substeps, stage times and
/// air steps), so that a report counts only what the run itself did.
#[derive(Clone, Copy, Debug, Default)]
struct Counted {
    substeps: u64,
    stage_times: StageTimes,
    air_steps: u64,
    air_iterations: u64,
    air_elapsed: Duration,
}

impl Counted {
    fn of(world: &World) -> Self {
        let air = world.air();
        Self {
            substeps: world.substeps_done(),
            stage_times: world.stage_times(),
            air_steps: air.map_or(0, Air::steps),
            air_iterations: air.map_or(0, Air::solver_iterations),
            air_elapsed: air.map_or(Duration::ZERO, Air::elapsed),
        }
    }
}

/// What a run measured while it stepped.
#[derive(Clone, Copy, Debug, Default)]
struct Timing {
    ms_per_substep_median: f64,
    ms_per_frame_median: f64,
    particle_substeps_per_s: f64,
    adapted_frames: u64,
    capped_moves: u64,
}

/// The report of a run of `frames` frames that ended in `world`, which had counted `before` when
/// the run began.
fn report(
    preset: &Preset,
    world: &World,
    frames: u64,
    seed: u64,
    timing: Timing,
    before: &Counted,
) -> Report {
    let Timing {
        ms_per_substep_median,
        ms_per_frame_median,
        particle_substeps_per_s,
        adapted_frames,
        capped_moves,
    } = timing;
    let stats = world.stats();
    Report {
        preset: preset.name.clone(),
        frames,
        substeps: world.substeps_done() - before.substeps,
        particles: stats.particles,
        radius: world.params().particle_radius,
        substeps_per_frame: world.params().substeps,
        stability_substeps: world.stability_substeps().to_vec(),
        threads: rayon::current_num_threads(),
        lanes: crate::sim::lanes_name(),
        seed,
        ms_per_substep_median,
        ms_per_frame_median,
        particle_substeps_per_s,
        checksum: world.checksum(),
        nan: stats.nan,
        escaped: stats.escaped,
        max_speed: stats.max_speed,
        kinetic_energy: stats.kinetic_energy,
        cap_reached: world.cap_reached(),
        adapted_frames,
        capped_moves,
        lane_use: world.lane_use(),
        materials: world
            .materials()
            .iter()
            .zip(world.material_stats())
            .map(|(material, stats)| MaterialReport {
                name: material.name.clone(),
                particles: stats.particles,
                centroid: stats.centroid.to_array(),
                top: stats.top,
                temperature: stats.temperature,
                mass: stats.mass,
            })
            .collect(),
        heat: world.heat().map(|heat| HeatReport {
            total: heat.total,
            min: heat.min,
            max: heat.max,
        }),
        reactions: world
            .reaction_counts()
            .into_iter()
            .map(|(name, count)| (name.to_string(), count))
            .collect(),
        stage_ms: stage_ms_per_substep(world, before),
        air: world.air().map(|air| air_report(air, before)),
        bodies: body_reports(world),
        goal: None,
        cost_model: None,
        sound: None,
    }
}

/// Each body's name, pose and velocity, in order (none without bodies).
pub fn body_reports(world: &World) -> Vec<BodyReport> {
    let Some(bodies) = world.bodies() else {
        return Vec::new();
    };
    bodies
        .specs()
        .iter()
        .zip(bodies.states())
        .map(|(body, state)| BodyReport {
            name: body.name.clone(),
            position: state.position.to_array(),
            angle: state.angle,
            velocity: state.velocity.to_array(),
            angular_velocity: state.angular_velocity,
        })
        .collect()
}

/// Plays a replay file without a window (`slosh --headless --replay FILE`) on `threads` worker
/// threads. The report's `checksum` is the replayed run's; a replay that does not end with the
/// checksum it recorded is an error, as is any problem with the file (`FILE:LINE: message`).
pub fn replay(path: &std::path::Path, threads: Option<usize>) -> Result<Report, String> {
    replay_to(path, threads, None)
}

/// [`replay`], writing the run's sound to the WAV file `wav` if given (`--wav`): the same bytes
/// as the recorded run's `--wav`.
pub fn replay_to(
    path: &std::path::Path,
    threads: Option<usize>,
    wav: Option<&std::path::Path>,
) -> Result<Report, String> {
    play_to(crate::replay::Replay::load(path)?, threads, wav)
}

/// Plays `replay` without a window, as [`replay`] plays a file (one opened from a link, say).
pub fn play(replay: crate::replay::Replay, threads: Option<usize>) -> Result<Report, String> {
    play_to(replay, threads, None)
}

/// [`play`], writing the run's sound to the WAV file `wav` if given.
pub fn play_to(
    replay: crate::replay::Replay,
    threads: Option<usize>,
    wav: Option<&std::path::Path>,
) -> Result<Report, String> {
    in_pool(threads, || {
        let (frames, seed, recorded, file) = (
            replay.frames,
            replay.seed,
            replay.checksum,
            replay.file.clone(),
        );
        let mut player = crate::replay::Player::new(replay)?;
        let (mut timed_ms, mut frame_ms) = (Vec::new(), Vec::new());
        let mut sound = match wav {
            Some(path) => Some(Recording::create(path, &player.world, seed)?),
            None => None,
        };
        while !player.finished() {
            let start = Instant::now();
            player.step_then(|world| {
                if let Some(sound) = &mut sound {
                    sound.frame(world);
                }
            })?;
            let substeps = player.world.last_frame().substeps.max(1) as f64;
            let ms = start.elapsed().as_secs_f64() * 1000.0;
            timed_ms.push(ms / substeps);
            frame_ms.push(ms);
        }
        timed_ms.sort_by(f64::total_cmp);
        frame_ms.sort_by(f64::total_cmp);
        let world = &player.world;
        let timing = Timing {
            ms_per_substep_median: timed_ms.get(timed_ms.len() / 2).copied().unwrap_or(0.0),
            ms_per_frame_median: frame_ms.get(frame_ms.len() / 2).copied().unwrap_or(0.0),
            ..Timing::default()
        };
        // The player's world is built from the replay's presets: it counted nothing before.
        let mut report = report(
            &player.preset,
            world,
            frames,
            seed,
            timing,
            &Counted::default(),
        );
        report.goal = player.attempt.as_ref().map(Attempt::report);
        report.sound = sound.map(Recording::finish).transpose()?;
        if report.checksum != recorded {
            return Err(format!(
                "{file}: the replay ended with checksum {:016x}, the recorded run with \
                 {recorded:016x}",
                report.checksum
            ));
        }
        Ok(report)
    })
}

/// The air's summary for the report, over the steps since `before`.
fn air_report(air: &Air, before: &Counted) -> AirReport {
    let grid = air.grid();
    let steps = (air.steps() - before.air_steps).max(1) as f64;
    let last = air.last_step();
    AirReport {
        cells: [grid.nx, grid.ny],
        ms_per_step: (air.elapsed().saturating_sub(before.air_elapsed)).as_secs_f64() * 1000.0
            / steps,
        solver: match air.settings().solver {
            Method::MultigridPcg => "multigrid",
            Method::GaussSeidel => "gauss-seidel",
        },
        solver_iterations: last.solve.iterations,
        solver_iterations_mean: (air.solver_iterations() - before.air_iterations) as f64 / steps,
        relative_residual: last.solve.relative_residual,
        divergence_max: last.divergence_max,
        smoke_total: grid.smoke_total(),
        smoke_centroid: grid.smoke_centroid().to_array(),
        vapour: air.boils().then(|| air.vapour_total()),
    }
}

/// Mean milliseconds per substep of each stage since `before`.
fn stage_ms_per_substep(world: &World, before: &Counted) -> Vec<(&'static str, f64)> {
    let substeps = (world.substeps_done() - before.substeps).max(1) as f64;
    let earlier = before.stage_times.named();
    world
        .stage_times()
        .named()
        .iter()
        .zip(earlier)
        .map(|((stage, time), (_, earlier))| {
            let spent = time.saturating_sub(earlier);
            (*stage, spent.as_secs_f64() * 1000.0 / substeps)
        })
        .collect()
}
