//! The `slosh` program's command line (clap): which of its jobs to do, and usage errors as one
//! line each (`main` prints them on standard error and exits with code 2).

use crate::headless::{HeadlessOptions, StirMode, DEFAULT_FRAMES};
use crate::preset::{one_line, Preset, MAX_PARTICLES};
use crate::replay::Replay;
use crate::share::{Opened, Shared};
use clap::builder::NonEmptyStringValueParser;
use clap::error::{ContextKind, ContextValue, ErrorKind};
use clap::Parser;
use std::ffi::OsString;
use std::path::PathBuf;

/// The command line as clap reads it.
#[derive(Parser, Debug)]
#[command(
    name = "slosh",
    about = "slosh: a 2D particle fluid (SPH with double density relaxation)",
    long_about = None,
    after_help = "Without --headless or --list-presets, opens the demo window."
)]
struct Args {
    /// Run without a window and print a JSON report as the last line
    #[arg(long, conflicts_with = "screenshot")]
    headless: bool,

    /// List the embedded presets, one per line
    #[arg(long)]
    list_presets: bool,

    /// List the levels, one per line: its name, then its title
    #[arg(long)]
    list_levels: bool,

    /// List the material library, one per line: its name, then what it is
    #[arg(long)]
    list_materials: bool,

    /// Play a level (a name from --list-levels, or a level file): in the window, or with
    /// --headless run it to its time limit (or --frames) and report its goal
    #[arg(long, value_name = "NAME|FILE.toml", conflicts_with_all = ["preset", "load", "replay"], value_parser = NonEmptyStringValueParser::new())]
    level: Option<String>,

    /// Preset name, or a path to a preset file
    #[arg(long, value_name = "NAME|FILE.toml", default_value = "seed", value_parser = NonEmptyStringValueParser::new())]
    preset: String,

    /// Frames to run headless, or to render before the screenshot
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = whole(1, 100_000_000))]
    frames: Option<u64>,

    /// About this many particles: the same scene with finer or coarser particles (`auto`, the
    /// window's default: the finest whose simulation, the scene timed on this machine as it
    /// loads, takes at most half of real time)
    #[arg(long, value_name = "N|auto", allow_negative_numbers = true, value_parser = particle_count)]
    particles: Option<ParticleCount>,

    /// Seed of all randomness
    #[arg(long, value_name = "S", default_value = "1", allow_negative_numbers = true, value_parser = whole(0, u64::MAX))]
    seed: u64,

    /// Worker threads (default: one per core)
    #[arg(long, value_name = "T", allow_negative_numbers = true, value_parser = whole(1, 1024))]
    threads: Option<u64>,

    /// Stirring of a headless run
    #[arg(long, value_enum, default_value_t = StirMode::None)]
    stir: StirMode,

    /// Save a PNG of the window after --frames frames (default 120), then exit
    #[arg(long, value_name = "PATH", value_parser = non_empty_path)]
    screenshot: Option<PathBuf>,

    /// Render --frames frames (default 120) into an animated GIF at 20 frames a second, then
    /// exit (screenshot mode, with or without --screenshot)
    #[arg(long, value_name = "PATH", value_parser = non_empty_path, conflicts_with = "headless")]
    gif: Option<PathBuf>,

    /// Print the window's state (frame, scene, pause, tool, view, …) as a `state {JSON}` line
    /// after every frame, for scripts that drive the window and wait for what they did
    #[arg(long, conflicts_with_all = ["headless", "share", "golden"])]
    report_state: bool,

    /// Show the engine's figures (frame rate, milliseconds, substeps, solver) from the start;
    /// F3 shows and hides them
    #[arg(long, conflicts_with = "headless")]
    stats: bool,

    /// Draw the liquid the cheap way, for a slow GPU: from its colours alone (lit and refracting,
    /// but every material clear, without foam), and without the glow of hot matter
    #[arg(long, conflicts_with = "headless")]
    lite: bool,

    /// The window's size in pixels, width by height
    #[arg(long, value_name = "WxH", default_value = "1280x720", value_parser = window_size, conflicts_with = "headless")]
    window_size: (u32, u32),

    /// Record every input that reaches the simulation to this replay file
    #[arg(long, value_name = "FILE", value_parser = non_empty_path, conflicts_with_all = ["replay", "load"])]
    record: Option<PathBuf>,

    /// With --headless (a preset, a level or --replay): write the run's sound to this WAV file
    /// (48 kHz, stereo, 16-bit), the same bytes at any thread count; the report gains `sound`
    #[arg(long, value_name = "PATH", value_parser = non_empty_path, requires = "headless")]
    wav: Option<PathBuf>,

    /// Play a replay file (in the window, or with --headless without one)
    #[arg(long, value_name = "FILE", value_parser = non_empty_path, conflicts_with = "load")]
    replay: Option<PathBuf>,

    /// Open a snapshot saved from the window (F6): the scene and every particle, exactly (with
    /// --headless, run on from it)
    #[arg(long, value_name = "FILE", value_parser = non_empty_path)]
    load: Option<PathBuf>,

    /// Print a link to the scene (--preset or --level: a name, or a file carried as its text,
    /// with --particles and --seed) or to the replay (--replay FILE), and exit
    #[arg(long, conflicts_with_all = ["headless", "screenshot", "record", "load", "golden", "open"])]
    share: bool,

    /// Open a link that --share printed (or a page address ending in `#LINK`): in the window,
    /// or with --headless run it (a replay plays to its end and checks its checksum)
    #[arg(long, value_name = "LINK", conflicts_with_all = ["preset", "level", "replay", "load"], value_parser = NonEmptyStringValueParser::new())]
    open: Option<String>,

    /// Run every case of a golden checksum file (tests/golden/checksums.tsv) and check that each
    /// ends with its checksum; exit code 2 unless all do
    #[arg(long, value_name = "FILE", value_parser = non_empty_path, conflicts_with_all = ["headless", "replay", "load", "record", "screenshot"])]
    golden: Option<PathBuf>,

    /// With --golden: write the checksums this build computes into the file instead
    #[arg(long, requires = "golden", conflicts_with = "cheaper_half")]
    update: bool,

    /// With --golden: only the cheaper half of the cases (slow machines, emulators)
    #[arg(long, requires = "golden")]
    cheaper_half: bool,
}

/// What `--particles` asked for.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ParticleCount {
    /// Measure this machine and pick (the window only).
    Auto,
    /// About this many.
    About(usize),
}

/// Parses `--particles`: `auto` or a whole number of particles.
fn particle_count(text: &str) -> Result<ParticleCount, String> {
    if text == "auto" {
        return Ok(ParticleCount::Auto);
    }
    whole(1, MAX_PARTICLES as u64)(text)
        .map(|n| ParticleCount::About(n as usize))
        .map_err(|error| format!("{error}, or auto"))
}

/// What the window is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub struct WindowOptions {
    /// Preset name, or a path to a `.toml` file.
    pub preset: String,
    /// `preset` is a level to play (`--level`): refused unless it is one.
    pub level: bool,
    /// Particle count every preset is rescaled to.
    pub particles: Option<usize>,
    /// Without a count: pick each preset's count from this machine's speed (`--particles
    /// auto`, the default); else run presets at their own resolution.
    pub auto_particles: bool,
    /// Seed of all randomness.
    pub seed: u64,
    /// Frames to render before quitting (and saving the screenshot).
    pub frames: Option<u64>,
    /// Save a PNG of the window after the last frame.
    pub screenshot: Option<PathBuf>,
    /// Save every frame rendered as an animated GIF (screenshot mode).
    pub gif: Option<PathBuf>,
    /// Record the inputs to this replay file.
    pub record: Option<PathBuf>,
    /// Play this replay file instead of taking input.
    pub replay: Option<PathBuf>,
    /// Open this snapshot.
    pub load: Option<PathBuf>,
    /// Play this replay, opened from a link (`--open`), as `replay` plays a file.
    pub linked_replay: Option<Replay>,
    /// Print the state after every frame (`--report-state`).
    pub report_state: bool,
    /// Show the engine's figures from the start (`--stats`).
    pub stats: bool,
    /// Draw the liquid without its looks pass and the glow (`--lite`).
    pub lite: bool,
    /// The window's size in pixels, width and height (`--window-size`).
    pub window_size: (u32, u32),
}

impl WindowOptions {
    /// Screenshot mode (`--screenshot` or `--gif`): one simulation step per rendered frame, the
    /// preset at its own resolution, no cursor, and the window closes after the last frame.
    pub fn screenshot_mode(&self) -> bool {
        self.screenshot.is_some() || self.gif.is_some()
    }
}

/// One job of the program.
#[derive(Clone, Debug, PartialEq)]
pub enum Job {
    /// Open the demo window.
    Window(WindowOptions),
    /// Run without a window and print a JSON report.
    Headless(HeadlessOptions),
    /// Print this link (`--share`).
    Share(String),
    /// Play a replay opened from a link without a window and print the JSON report.
    ReplayLink {
        /// The replay.
        replay: Replay,
        /// Worker threads (default: one per core).
        threads: Option<usize>,
        /// Write its sound to this WAV file (`--wav`).
        wav: Option<PathBuf>,
    },
    /// Play a replay without a window and print the JSON report.
    Replay {
        /// The replay file.
        path: PathBuf,
        /// Worker threads (default: one per core).
        threads: Option<usize>,
        /// Write its sound to this WAV file (`--wav`).
        wav: Option<PathBuf>,
    },
    /// Check (or update) a golden checksum file.
    Golden {
        /// The file.
        path: PathBuf,
        /// Worker threads (default: one per core).
        threads: Option<usize>,
        /// Write the checksums found instead of checking them.
        update: bool,
        /// Only the cheaper half of the cases.
        cheaper_half: bool,
    },
    /// Print the presets, one per line.
    ListPresets,
    /// Print the levels, one per line.
    ListLevels,
    /// Print the material library, one per line.
    ListMaterials,
    /// Print this text (usage) and exit 0.
    Help(String),
}

/// Reads the arguments after the program name, as the operating system gives them. A usage
/// error is one line naming the problem; an argument that is not UTF-8 is one too.
pub fn parse<I: IntoIterator<Item = OsString>>(args: I) -> Result<Job, String> {
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
    let program = std::iter::once("slosh".to_string());
    let args = match Args::try_parse_from(program.chain(args)) {
        Ok(args) => args,
        Err(error) if error.kind() == ErrorKind::DisplayHelp => {
            return Ok(Job::Help(error.render().to_string()))
        }
        Err(error) => return Err(one_line(&usage_error(&error))),
    };
    let particles = match args.particles {
        Some(ParticleCount::About(n)) => Some(n),
        _ => None,
    };
    let threads = args.threads.map(|n| n as usize);
    if args.load.is_some() && args.particles.is_some() {
        return Err("--load runs the snapshot's own particles; drop --particles".into());
    }
    if args.share {
        let shared = match &args.replay {
            Some(path) => Shared::of_replay(path)?,
            None => Shared::of_preset(
                args.level.as_deref().unwrap_or(&args.preset),
                particles,
                args.seed,
            )?,
        };
        return Ok(Job::Share(shared.encode()));
    }
    let mut playing_level = args.level.is_some();
    let mut preset = args.level.unwrap_or(args.preset);
    let (mut seed, mut particles, mut linked_replay) = (args.seed, particles, None);
    if let Some(link) = &args.open {
        match Shared::decode(link)?.open()? {
            Opened::Start {
                source,
                particles: linked,
                seed: linked_seed,
            } => {
                playing_level = Preset::load(&source)
                    .map(|opened| opened.level.is_some())
                    .unwrap_or(false);
                preset = source;
                seed = linked_seed;
                // --particles, when given, rescales what the link opens.
                particles = particles.or(linked);
            }
            Opened::Replay(replay) if args.headless => {
                return Ok(Job::ReplayLink {
                    replay,
                    threads,
                    wav: args.wav,
                })
            }
            Opened::Replay(replay) => linked_replay = Some(replay),
        }
    }
    Ok(if args.list_presets {
        Job::ListPresets
    } else if args.list_levels {
        Job::ListLevels
    } else if args.list_materials {
        Job::ListMaterials
    } else if let Some(path) = args.golden {
        Job::Golden {
            path,
            threads,
            update: args.update,
            cheaper_half: args.cheaper_half,
        }
    } else if let (true, Some(path)) = (args.headless, &args.replay) {
        Job::Replay {
            path: path.clone(),
            threads,
            wav: args.wav,
        }
    } else if args.headless {
        if args.particles == Some(ParticleCount::Auto) {
            return Err(
                "--particles auto is for the window; a headless run takes a count (default: \
                 the preset's own, so that results are reproducible)"
                    .into(),
            );
        }
        Job::Headless(HeadlessOptions {
            preset,
            // A level runs to its time limit.
            frames: args
                .frames
                .unwrap_or(if playing_level { 0 } else { DEFAULT_FRAMES }),
            level: playing_level,
            particles,
            seed,
            threads,
            stir: args.stir,
            record: args.record,
            load: args.load,
            // The program's report has the scene's cost model (`headless::CostReport`).
            cost_model: true,
            wav: args.wav,
        })
    } else {
        Job::Window(WindowOptions {
            preset,
            level: playing_level,
            particles,
            auto_particles: particles.is_none()
                && matches!(args.particles, None | Some(ParticleCount::Auto)),
            seed,
            frames: args.frames,
            screenshot: args.screenshot,
            gif: args.gif,
            record: args.record,
            replay: args.replay,
            load: args.load,
            linked_replay,
            report_state: args.report_state,
            stats: args.stats,
            lite: args.lite,
            window_size: args.window_size,
        })
    })
}

/// A value parser for a whole number in `low..=high` whose errors say which rule was broken.
fn whole(low: u64, high: u64) -> impl Fn(&str) -> Result<u64, String> + Clone {
    move |text: &str| {
        let digits = text.strip_prefix(['-', '+']).unwrap_or(text);
        let integer = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
        match text.parse::<u64>() {
            Ok(value) if (low..=high).contains(&value) => Ok(value),
            // Negative, or too large for any count: out of range rather than not a number.
            _ if integer => Err(format!("must be from {low} to {high}")),
            _ => Err("expected a whole number".into()),
        }
    }
}

/// Narrowest or lowest a window may be asked to be, pixels.
const SMALLEST_WINDOW: u32 = 100;
/// Widest or highest a window may be asked to be, pixels.
const LARGEST_WINDOW: u32 = 16_384;

/// A value parser for `--window-size`: `WIDTHxHEIGHT` in pixels, each within
/// `SMALLEST_WINDOW..=LARGEST_WINDOW`.
fn window_size(text: &str) -> Result<(u32, u32), String> {
    let (width, height) = text
        .split_once(['x', 'X'])
        .ok_or("expected WIDTHxHEIGHT, such as 1280x720")?;
    let side = |side: &str| {
        whole(u64::from(SMALLEST_WINDOW), u64::from(LARGEST_WINDOW))(side).map(|n| n as u32)
    };
    Ok((side(width)?, side(height)?))
}

/// A value parser for a path that is not empty.
fn non_empty_path(text: &str) -> Result<PathBuf, String> {
    if text.is_empty() {
        Err("needs a value".into())
    } else {
        Ok(PathBuf::from(text))
    }
}

/// A clap error as one sentence in slosh's words, naming the flag and value involved.
fn usage_error(error: &clap::Error) -> String {
    let context = |kind| match error.get(kind) {
        Some(ContextValue::String(text)) => Some(text.clone()),
        Some(ContextValue::Strings(texts)) => texts.first().cloned(),
        _ => None,
    };
    // The flag as written (`--frames <N>` → `--frames`).
    let flag = context(ContextKind::InvalidArg)
        .map(|arg| arg.split([' ', '=']).next().unwrap_or_default().to_string())
        .unwrap_or_default();
    let value = context(ContextKind::InvalidValue).unwrap_or_default();
    match error.kind() {
        ErrorKind::UnknownArgument if flag.starts_with('-') => {
            format!("unknown flag `{flag}` (see --help)")
        }
        ErrorKind::UnknownArgument => format!("unexpected argument `{flag}` (see --help)"),
        ErrorKind::MissingRequiredArgument if !flag.is_empty() => {
            format!("{flag} is needed with the flags given (see --help)")
        }
        ErrorKind::TooManyValues if !value.is_empty() && !flag.is_empty() => {
            format!("{flag} takes no value")
        }
        ErrorKind::InvalidValue | ErrorKind::ValueValidation if value.is_empty() => {
            format!("{flag} needs a value (see --help)")
        }
        ErrorKind::InvalidValue => {
            let valid: Vec<String> = match error.get(ContextKind::ValidValue) {
                Some(ContextValue::Strings(values)) => {
                    values.iter().map(|v| format!("`{v}`")).collect()
                }
                _ => Vec::new(),
            };
            format!(
                "invalid value `{value}` for {flag}: expected {}",
                valid.join(" or ")
            )
        }
        ErrorKind::ValueValidation => {
            let reason = std::error::Error::source(error)
                .map(|source| source.to_string())
                .unwrap_or_default();
            format!("invalid value `{value}` for {flag}: {reason}")
        }
        ErrorKind::ArgumentConflict => {
            let other = context(ContextKind::PriorArg).unwrap_or_default();
            let other = other
                .split([' ', '='])
                .next()
                .unwrap_or_default()
                .to_string();
            if [flag.as_str(), other.as_str()].contains(&"--screenshot") {
                "--screenshot needs the window; drop --headless".to_string()
            } else {
                format!("{flag} and {other} do not go together")
            }
        }
        _ => {
            let rendered = error.to_string();
            let first = rendered.lines().next().unwrap_or_default();
            first.trim_start_matches("error: ").to_string()
        }
    }
}

/// One line per level, in the order they are played: name, then title.
pub fn list_levels() -> String {
    crate::level::BUILTIN
        .iter()
        .map(|(name, _)| {
            let preset = crate::preset::Preset::load(name).expect("embedded levels are valid");
            let title = preset
                .level
                .map(|level| level.rules.title)
                .unwrap_or_default();
            format!("{name:<12} {title}")
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line per library material, in the palette's order: name, then description.
pub fn list_materials() -> String {
    crate::preset::library::library()
        .materials()
        .iter()
        .map(|material| format!("{:<10} {}", material.name, material.description))
        .collect::<Vec<_>>()
        .join("\n")
}

/// One line per preset: name, then description.
pub fn list_presets() -> String {
    crate::preset::Preset::builtins()
        .iter()
        .map(|preset| format!("{:<10} {}", preset.name, preset.description))
        .collect::<Vec<_>>()
        .join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn job(args: &[&str]) -> Result<Job, String> {
        parse(args.iter().map(OsString::from))
    }

    #[test]
    fn headless_flags_parse() {
        let Job::Headless(options) = job(&[
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
        .unwrap() else {
            panic!("not headless")
        };
        assert_eq!(options.preset, "dam");
        assert_eq!(options.frames, 30);
        assert_eq!(options.particles, Some(6000));
        assert_eq!(
            (options.seed, options.threads, options.stir),
            (9, Some(2), StirMode::Random)
        );
    }

    #[test]
    fn no_flags_open_the_seed_preset_in_the_window() {
        let Job::Window(options) = job(&[]).unwrap() else {
            panic!("not the window")
        };
        assert_eq!((options.preset.as_str(), options.seed), ("seed", 1));
        assert_eq!(
            (options.window_size, options.stats, options.lite),
            ((1280, 720), false, false)
        );
    }

    #[test]
    fn the_window_takes_a_size_the_engine_figures_and_the_lite_look() {
        let Job::Window(options) = job(&["--window-size", "390x844", "--stats", "--lite"]).unwrap()
        else {
            panic!("not the window")
        };
        assert_eq!(
            (options.window_size, options.stats, options.lite),
            ((390, 844), true, true)
        );
        assert!(job(&["--headless", "--lite"]).is_err());
        for bad in [
            "390",
            "390x",
            "x844",
            "390x844x2",
            "0x844",
            "390x99999",
            "wide",
        ] {
            let error = job(&["--window-size", bad]).unwrap_err();
            assert!(error.contains("--window-size"), "{bad}: {error}");
        }
    }

    #[test]
    fn help_is_a_job_not_an_error() {
        let Job::Help(text) = job(&["--help"]).unwrap() else {
            panic!("no help")
        };
        assert!(text.contains("--headless") && text.contains("--preset"));
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
            &["--headless", "--stats"],
        ] {
            let error = job(args).unwrap_err();
            assert!(
                !error.contains('\n') && !error.is_empty(),
                "{args:?}: {error}"
            );
        }
    }
}
