//! Command-line parsing and the headless runner (`slosh --headless …`).
//!
//! Errors are one line each; `main` prints them to standard error and exits with code 2.

use crate::preset::{Preset, MAX_PARTICLES};
use crate::sim::{Stir, World};
use glam::Vec2;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg32;
use std::ffi::OsString;
use std::path::PathBuf;
use std::time::Instant;

/// What the program was asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// Open the demo window.
    Window,
    /// Run without a window and print a JSON report.
    Headless,
    /// Print the presets, one per line.
    ListPresets,
    /// Print usage.
    Help,
}

/// How the headless run stirs the fluid.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StirMode {
    /// No stirring.
    None,
    /// Seeded random strokes through `World::stir`, like a person dragging the mouse.
    Random,
}

/// Parsed command line.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// What to do.
    pub mode: Mode,
    /// Preset name, or a path to a `.toml` file.
    pub preset: String,
    /// Frames to run (headless) or to render before a screenshot.
    pub frames: Option<u64>,
    /// Particle count (rescales presets that allow it, else caps the count).
    pub particles: Option<usize>,
    /// Seed of all randomness.
    pub seed: u64,
    /// Worker threads (default: one per core).
    pub threads: Option<usize>,
    /// Stirring in headless runs.
    pub stir: StirMode,
    /// Save a PNG of the window after `frames` frames, then exit.
    pub screenshot: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            mode: Mode::Window,
            preset: "seed".into(),
            frames: None,
            particles: None,
            seed: 1,
            threads: None,
            stir: StirMode::None,
            screenshot: None,
        }
    }
}

/// Usage text for `--help`.
pub const USAGE: &str = "\
slosh: a 2D particle fluid

usage:
  slosh [--preset NAME|FILE.toml] [--particles N] [--seed S] [--threads T]
        [--frames N --screenshot PATH]        open the demo window
  slosh --headless [--preset NAME|FILE.toml] [--frames N] [--particles N]
        [--seed S] [--threads T] [--stir random]
                                              run without a window, print JSON
  slosh --list-presets                        list presets, one per line
  slosh --help";

/// Frames a headless run takes when `--frames` is not given.
pub const DEFAULT_HEADLESS_FRAMES: u64 = 200;

/// Parses the arguments after the program name as the operating system gives them: an argument
/// that is not UTF-8 is an error, not a panic.
pub fn parse_os_args<I: IntoIterator<Item = OsString>>(args: I) -> Result<Options, String> {
    let args = args
        .into_iter()
        .map(|arg| {
            arg.into_string().map_err(|arg| {
                one_line(&format!(
                    "argument `{}` is not valid UTF-8",
                    arg.to_string_lossy()
                ))
            })
        })
        .collect::<Result<Vec<String>, String>>()?;
    parse_args(args)
}

/// Parses the arguments after the program name. Errors are one line: control characters in the
/// arguments they quote are escaped.
pub fn parse_args<I: IntoIterator<Item = String>>(args: I) -> Result<Options, String> {
    parse_args_unescaped(args).map_err(|message| one_line(&message))
}

/// `message` with every control character (line breaks included) escaped, so that it prints as
/// one line.
pub fn one_line(message: &str) -> String {
    message
        .chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

fn parse_args_unescaped<I: IntoIterator<Item = String>>(args: I) -> Result<Options, String> {
    let mut options = Options::default();
    let mut args = args.into_iter();
    while let Some(arg) = args.next() {
        let (flag, inline_value) = match arg.split_once('=') {
            Some((flag, value)) if flag.starts_with("--") => {
                (flag.to_string(), Some(value.to_string()))
            }
            _ => (arg.clone(), None),
        };
        // A flag's value: the text after `=`, else the next argument unless that is a flag.
        let mut value = |name: &str| -> Result<String, String> {
            inline_value
                .clone()
                .or_else(|| args.next())
                .filter(|value| !value.is_empty() && !value.starts_with("--"))
                .ok_or_else(|| format!("{name} needs a value (see --help)"))
        };
        match flag.as_str() {
            "--headless" => options.mode = Mode::Headless,
            "--list-presets" => options.mode = Mode::ListPresets,
            "--help" | "-h" => options.mode = Mode::Help,
            "--preset" => options.preset = value("--preset")?,
            "--frames" => options.frames = Some(number(&flag, &value(&flag)?, 1, 100_000_000)?),
            "--particles" => {
                options.particles =
                    Some(number(&flag, &value(&flag)?, 1, MAX_PARTICLES as u64)? as usize)
            }
            "--seed" => options.seed = number(&flag, &value(&flag)?, 0, u64::MAX)?,
            "--threads" => options.threads = Some(number(&flag, &value(&flag)?, 1, 1024)? as usize),
            "--stir" => {
                options.stir = match value(&flag)?.as_str() {
                    "random" => StirMode::Random,
                    "none" => StirMode::None,
                    other => {
                        return Err(format!(
                            "invalid value `{other}` for --stir: expected `random` or `none`"
                        ))
                    }
                }
            }
            "--screenshot" => options.screenshot = Some(PathBuf::from(value(&flag)?)),
            _ if flag.starts_with('-') => {
                return Err(format!("unknown flag `{flag}` (see --help)"))
            }
            _ => return Err(format!("unexpected argument `{arg}` (see --help)")),
        }
        if inline_value.is_some()
            && matches!(flag.as_str(), "--headless" | "--list-presets" | "--help")
        {
            return Err(format!("{flag} takes no value"));
        }
    }
    if options.screenshot.is_some() && options.mode == Mode::Headless {
        return Err("--screenshot needs the window; drop --headless".into());
    }
    Ok(options)
}

/// Parses a whole number in `low..=high`, naming the flag in the error.
fn number(flag: &str, text: &str, low: u64, high: u64) -> Result<u64, String> {
    let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
    let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match text.parse::<u64>() {
        Ok(value) if (low..=high).contains(&value) => Ok(value),
        // Negative, or too large for any count: out of range rather than not a number.
        _ if integer => Err(format!(
            "invalid value `{text}` for {flag}: must be from {low} to {high}"
        )),
        _ => Err(format!(
            "invalid value `{text}` for {flag}: expected a whole number"
        )),
    }
}

/// The preset the options name, rescaled by `--particles`; errors are one line.
pub fn load_preset(options: &Options) -> Result<Preset, String> {
    let preset = Preset::load(&options.preset).map_err(|error| one_line(&error.to_string()))?;
    match options.particles {
        Some(particles) => preset
            .with_particles(particles)
            .map_err(|error| one_line(&error.to_string())),
        None => Ok(preset),
    }
}

/// One line per preset: name, then description.
pub fn list_presets() -> String {
    Preset::builtins()
        .iter()
        .map(|preset| format!("{:<10} {}", preset.name, preset.description))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Seeded random stirring strokes, as a person dragging the mouse through the fluid would make.
pub struct RandomStirrer {
    rng: Pcg32,
    stroke: Option<(Stir, u32)>,
}

impl RandomStirrer {
    /// A stirrer whose strokes follow from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            rng: Pcg32::seed_from_u64(seed ^ 0x5717_5717),
            stroke: None,
        }
    }

    /// The stir for the next frame (strokes last a few frames, with pauses between them).
    pub fn next(&mut self, world: &World) -> Option<Stir> {
        let frame_time = 1.0 / world.params().frame_rate;
        if let Some((stir, frames_left)) = &mut self.stroke {
            stir.position += stir.velocity * frame_time;
            *frames_left -= 1;
            let stir = *stir;
            if *frames_left == 0 {
                self.stroke = None;
            }
            return Some(stir);
        }
        if self.rng.random_bool(0.3) {
            return None;
        }
        let (min, max) = (world.domain().min(), world.domain().max());
        let h = world.params().interaction_radius;
        let position = Vec2::new(
            self.rng.random_range(min.x..=max.x),
            self.rng.random_range(min.y..=max.y),
        );
        let angle = self.rng.random_range(0.0..std::f32::consts::TAU);
        let speed = self.rng.random_range(1.0..25.0);
        let stir = Stir {
            position,
            velocity: Vec2::from_angle(angle) * speed,
            radius: self.rng.random_range(2.0 * h..8.0 * h),
        };
        self.stroke = Some((stir, self.rng.random_range(2..12)));
        Some(stir)
    }
}

/// Result of a headless run.
#[derive(Clone, Debug)]
pub struct Report {
    /// Preset name.
    pub preset: String,
    /// Frames run.
    pub frames: u64,
    /// Substeps run in total.
    pub substeps: u64,
    /// Worker threads used.
    pub threads: usize,
    /// Seed used.
    pub seed: u64,
    /// Median over the last half of the frames of (frame time / substeps).
    pub ms_per_substep_median: f64,
    /// Particle-substeps per wall second over the last half of the frames.
    pub particle_substeps_per_s: f64,
    /// `World::checksum` at the end.
    pub checksum: u64,
    /// Whether the particle cap stopped emission.
    pub cap_reached: bool,
    /// Frames that took more substeps than configured to keep the step stable.
    pub adapted_frames: u64,
    /// Particle moves capped at the stability limit, over the whole run.
    pub capped_moves: u64,
    /// Final state.
    pub stats: crate::sim::WorldStats,
    /// Mean milliseconds per substep spent in each stage over the whole run.
    pub stage_ms: Vec<(&'static str, f64)>,
}

impl Report {
    /// The report as one line of JSON.
    pub fn to_json(&self) -> String {
        let s = &self.stats;
        format!(
            concat!(
                "{{\"preset\":\"{}\",\"frames\":{},\"substeps\":{},\"particles\":{},\"threads\":{},",
                "\"seed\":{},\"ms_per_substep_median\":{:.4},\"particle_substeps_per_s\":{:.0},",
                "\"checksum\":\"{:016x}\",\"nan\":{},\"escaped\":{},\"max_speed\":{:.4},",
                "\"kinetic_energy\":{:.4},\"cap_reached\":{},\"adapted_frames\":{},\"capped_moves\":{},\"stage_ms_per_substep\":{{{}}}}}"
            ),
            self.preset.replace('\\', "\\\\").replace('"', "\\\""),
            self.frames,
            self.substeps,
            s.particles,
            self.threads,
            self.seed,
            self.ms_per_substep_median,
            self.particle_substeps_per_s,
            self.checksum,
            s.nan,
            s.escaped,
            finite_or_zero(s.max_speed as f64),
            finite_or_zero(s.kinetic_energy),
            self.cap_reached,
            self.adapted_frames,
            self.capped_moves,
            self.stage_ms
                .iter()
                .map(|(stage, ms)| format!("\"{stage}\":{ms:.4}"))
                .collect::<Vec<_>>()
                .join(","),
        )
    }
}

/// JSON has no NaN or infinity; such values (counted in `nan` anyway) print as -1.
fn finite_or_zero(value: f64) -> f64 {
    if value.is_finite() {
        value
    } else {
        -1.0
    }
}

/// Runs a preset without a window and reports timing and final state.
pub fn run_headless(options: &Options) -> Result<Report, String> {
    let preset = load_preset(options)?;
    let mut builder = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = options.threads {
        builder = builder.num_threads(threads);
    }
    let pool = builder
        .build()
        .map_err(|error| format!("cannot start worker threads: {error}"))?;
    let frames = options.frames.unwrap_or(DEFAULT_HEADLESS_FRAMES);
    pool.install(|| {
        let mut world = preset.build_world(options.seed);
        let mut stirrer = RandomStirrer::new(options.seed);
        let mut timed_ms = Vec::new();
        let (mut timed_particle_substeps, mut timed_seconds) = (0.0_f64, 0.0_f64);
        let configured_substeps = world.params().substeps;
        let (mut adapted_frames, mut capped_moves) = (0, 0);
        for frame in 0..frames {
            if options.stir == StirMode::Random {
                if let Some(stir) = stirrer.next(&world) {
                    world.stir(stir);
                }
            }
            let start = Instant::now();
            world.step_frame();
            let seconds = start.elapsed().as_secs_f64();
            let stepped = world.last_frame();
            adapted_frames += (stepped.substeps > configured_substeps) as u64;
            capped_moves += stepped.capped as u64;
            let substeps = stepped.substeps as f64;
            if frame >= frames / 2 {
                timed_ms.push(seconds * 1000.0 / substeps);
                timed_particle_substeps += world.particles().len() as f64 * substeps;
                timed_seconds += seconds;
            }
        }
        timed_ms.sort_by(f64::total_cmp);
        Ok(Report {
            preset: preset.name.clone(),
            frames,
            substeps: world.substeps_done(),
            threads: rayon::current_num_threads(),
            seed: options.seed,
            ms_per_substep_median: timed_ms.get(timed_ms.len() / 2).copied().unwrap_or(0.0),
            particle_substeps_per_s: if timed_seconds > 0.0 {
                timed_particle_substeps / timed_seconds
            } else {
                0.0
            },
            checksum: world.checksum(),
            cap_reached: world.cap_reached(),
            adapted_frames,
            capped_moves,
            stats: world.stats(),
            stage_ms: {
                let t = world.stage_times();
                let per_substep = |d: std::time::Duration| {
                    d.as_secs_f64() * 1000.0 / world.substeps_done().max(1) as f64
                };
                vec![
                    ("emit", per_substep(t.emit)),
                    ("advance", per_substep(t.advance)),
                    ("grid", per_substep(t.grid)),
                    ("density", per_substep(t.density)),
                    ("relax", per_substep(t.relax)),
                    ("springs", per_substep(t.springs)),
                    ("walls", per_substep(t.walls)),
                ]
            },
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options, String> {
        parse_args(args.iter().map(|s| s.to_string()))
    }

    #[test]
    fn headless_flags_parse() {
        let options = parse(&[
            "--headless",
            "--preset",
            "dam",
            "--frames=30",
            "--particles",
            "6000",
            "--seed",
            "9",
            "--threads",
            "2",
            "--stir",
            "random",
        ])
        .unwrap();
        assert_eq!(options.mode, Mode::Headless);
        assert_eq!(options.preset, "dam");
        assert_eq!(options.frames, Some(30));
        assert_eq!(options.particles, Some(6000));
        assert_eq!(
            (options.seed, options.threads, options.stir),
            (9, Some(2), StirMode::Random)
        );
    }

    #[test]
    fn bad_flags_and_values_give_one_line_errors() {
        for args in [
            &["--bogus"][..],
            &["--frames"],
            &["--frames", "ten"],
            &["--frames", "0"],
            &["--particles", "-5"],
            &["--threads", "0"],
            &["--stir", "gently"],
            &["stray"],
            &["--headless=yes"],
            &["--headless", "--screenshot", "x.png"],
        ] {
            let error = parse(args).unwrap_err();
            assert!(
                !error.contains('\n') && !error.is_empty(),
                "{args:?}: {error}"
            );
        }
    }
}
