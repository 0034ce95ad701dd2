//! Record and replay: every input that reaches the simulation, frame by frame, as a versioned
//! text file, and a player that runs it again bit for bit, with or without a window.
//!
//! # Format (version 1)
//!
//! ```text
//! slosh-replay 1
//! seed 1
//! 0 preset seed own 5d1c3e0f2a9b4c77
//! 0 stir 5.1 3.2 1.5 -0.25 1.2
//! 12 pour lava 4 6 0.6 0 0
//! 30 heat 5 1.5 1.2 300
//! 40 draw capsule 2 2 5 2.5 0.15 0.5
//! 80 gravity 4.9 -8.487049
//! 95 tune 0 linear_viscosity 12.5
//! end 400 0f3a9c27d1e4b865
//! ```
//!
//! After the header and the seed, each line is `FRAME VERB ARGUMENTS`: the input is applied
//! after FRAME simulation frames have run since the recording started (frames only grow). Numbers
//! are written so that they read back to the same bits. The verbs:
//!
//! | verb | arguments | what the simulation gets |
//! |---|---|---|
//! | `preset` | source (a preset's or a level's `NAME`, or a `.toml` path), `own` or a particle count, the new world's checksum | a fresh world (a switch, a reset, a reload, `[`/`]`); in a level, a fresh go at it |
//! | `stir` | x y vx vy radius | `World::stir` |
//! | `pull` | x y radius speed | `World::pull` |
//! | `pour` | material (a name, in double quotes when it holds a space, or an index of the world's materials) x y radius vx vy | `World::pour`; a library material the world lacks joins it first (`World::add_materials`) |
//! | `body` | name (a library body's: `crate`, `ball`, `log`, `duck`) x y | `World::add_body` |
//! | `cap` | the most particles | `World::set_particle_cap` (the window's automatic resolution, when the world's frames came to cost more than it affords) |
//! | `erase` | x y radius | `World::erase` |
//! | `heat` | x y radius rate (degrees per second; negative cools) | `World::heat_under` |
//! | `push` | x y radius jx jy (the impulse each particle in the disc takes) | `World::push` (a game's force) |
//! | `tag` | x y radius tag (a whole number) | `World::tag` (a game's tag on each particle in the disc) |
//! | `draw` | `circle` x y radius friction, or `capsule` ax ay bx by radius friction | `World::add_obstacle` |
//! | `undraw` | obstacle index | `World::remove_obstacle` |
//! | `gravity` | x y | `World::set_gravity` |
//! | `grab` | x y | `World::grab_body` (the grab tool takes hold of the body under the point) |
//! | `drag` | x y | `World::drag_body` (the held body is pulled toward the point) |
//! | `release` | none | `World::release_body` (the held body is let go) |
//! | `tune` | material field value (in the world's units) | `World::tune` |
//! | `undo` | none | the world as it was before the last edit (`History`) |
//! | `redo` | none | the last edit undone, done again (`History`) |
//!
//! The last line, `end FRAMES CHECKSUM`, gives the frames run and the checksum the recorded run
//! ended with; a file without it is truncated and refused. Blank lines and lines starting with
//! `#` are ignored.

use crate::level::{Attempt, LevelError};
use crate::preset::{Preset, PresetError};
pub use crate::FileError;
mod history;

pub use crate::input::Input;
pub use history::{world_bytes, History};

use crate::sim::{EditError, World};
use std::io::Write as _;
use std::path::Path;

/// The first word of a replay file.
pub const FORMAT: &str = "slosh-replay";
/// The format version this build writes and reads.
pub const VERSION: u32 = 1;

/// The preset and fresh world a `preset` input names: `source` loaded (an embedded name or a
/// `.toml` path), rescaled to `particles` when given, built with `seed`.
pub fn build(
    source: &str,
    particles: Option<usize>,
    seed: u64,
) -> Result<(Preset, World), PresetError> {
    let preset = Preset::load_scaled(source, particles)?;
    let world = preset.build_world(seed);
    Ok((preset, world))
}

/// Records a run as it happens: the header at once, each input as it is applied, and the `end`
/// line when finished. The text is kept in memory, so a replay of the run so far can be had at
/// any frame ([`Recorder::so_far`], the window's F8), and written to a file as it grows when the
/// recorder was made for one ([`Recorder::create`]). Lines are buffered, so recording costs next
/// to nothing per frame.
pub struct Recorder {
    /// The recording so far (without its `end` line).
    text: String,
    /// The file it is written to, and the file's name for errors.
    file: Option<(std::io::BufWriter<std::fs::File>, String)>,
    /// Simulation frames run since the recording started.
    frame: u64,
    error: Option<String>,
}

impl Recorder {
    /// Starts a recording at `path` of a run with `seed`; refuses a path it cannot write.
    pub fn create(path: &Path, seed: u64) -> Result<Self, FileError> {
        let name = path.display().to_string();
        let file = std::fs::File::create(path).map_err(|error| {
            FileError::of(&name, format!("cannot write the recording: {error}"))
        })?;
        let mut recorder = Self::in_memory(seed);
        let mut out = std::io::BufWriter::new(file);
        if let Err(error) = out.write_all(recorder.text.as_bytes()) {
            recorder.error = Some(error.to_string());
        }
        recorder.file = Some((out, name));
        Ok(recorder)
    }

    /// Starts a recording of a run with `seed` kept in memory only.
    pub fn in_memory(seed: u64) -> Self {
        Self {
            text: format!("{FORMAT} {VERSION}\nseed {seed}\n"),
            file: None,
            frame: 0,
            error: None,
        }
    }

    /// The replay of the run so far, as if it ended now with `checksum` (the world's): a
    /// complete replay file's text. Recording goes on.
    pub fn so_far(&self, checksum: u64) -> String {
        format!("{}{}\n", self.text, end_line(self.frame, checksum))
    }

    /// Records `input`, applied now (after the frames counted so far).
    pub fn record(&mut self, input: &Input) {
        let line = format!("{} {}", self.frame, input.to_line());
        self.line(&line);
    }

    /// Counts one simulation frame run.
    pub fn frame_done(&mut self) {
        self.frame += 1;
    }

    /// Frames run since the recording started.
    pub fn frames(&self) -> u64 {
        self.frame
    }

    /// Writes the `end` line with the final checksum and closes the file; the first write error,
    /// if any happened, is returned instead.
    pub fn finish(mut self, checksum: u64) -> Result<(), FileError> {
        let line = end_line(self.frame, checksum);
        self.line(&line);
        let Some((mut out, path)) = self.file.take() else {
            return Ok(());
        };
        if let Err(error) = out.flush() {
            self.error.get_or_insert(error.to_string());
        }
        match self.error {
            Some(error) => Err(FileError::of(
                &path,
                format!("cannot write the recording: {error}"),
            )),
            None => Ok(()),
        }
    }

    fn line(&mut self, text: &str) {
        self.text.push_str(text);
        self.text.push('\n');
        if let (Some((out, _)), None) = (&mut self.file, &self.error) {
            if let Err(error) = writeln!(out, "{text}") {
                self.error = Some(error.to_string());
            }
        }
    }
}

/// The last line of a replay: the frames run and the checksum the run ended with.
fn end_line(frames: u64, checksum: u64) -> String {
    format!("end {frames} {checksum:016x}")
}

/// A replay file, read and checked.
#[derive(Clone, Debug, PartialEq)]
pub struct Replay {
    /// The file's name, for errors.
    pub file: String,
    /// Seed of the recorded run.
    pub seed: u64,
    /// Each input with the frames run before it and its line in the file.
    pub inputs: Vec<(u64, Input, usize)>,
    /// Frames the recorded run ran.
    pub frames: u64,
    /// Checksum the recorded run ended with.
    pub checksum: u64,
}

impl Replay {
    /// Reads a replay file; every problem names the file and, where it is on one, the line.
    pub fn load(path: &Path) -> Result<Self, FileError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|error| FileError::of(&file, format!("cannot read the replay: {error}")))?;
        Self::parse(&file, &text)
    }

    /// Reads replay text; `file` names it in errors.
    pub fn parse(file: &str, text: &str) -> Result<Self, FileError> {
        let fail = |line: usize, message: String| FileError::at(file, line, message);
        let mut lines = text
            .lines()
            .enumerate()
            .map(|(index, line)| (index + 1, line.trim()))
            .filter(|(_, line)| !line.is_empty() && !line.starts_with('#'));
        let (number, header) = lines
            .next()
            .ok_or_else(|| fail(1, "empty file, not a replay".into()))?;
        let words: Vec<&str> = header.split_whitespace().collect();
        match words.as_slice() {
            [FORMAT, version] if *version == VERSION.to_string() => {}
            [FORMAT, version] => {
                return Err(fail(
                    number,
                    format!("replay format version {version}, this build reads {VERSION}"),
                ))
            }
            _ => {
                return Err(fail(
                    number,
                    format!("not a replay (the first line must be `{FORMAT} {VERSION}`)"),
                ))
            }
        }
        let (number, seed_line) = lines
            .next()
            .ok_or_else(|| fail(number, "truncated: no `seed` line".into()))?;
        let seed = match seed_line.split_whitespace().collect::<Vec<_>>().as_slice() {
            ["seed", seed] => seed
                .parse::<u64>()
                .map_err(|_| fail(number, format!("`{seed}` is not a seed")))?,
            _ => return Err(fail(number, "expected `seed N`".into())),
        };
        let mut inputs = Vec::new();
        let mut last_line = number;
        let mut last_frame = 0;
        for (number, line) in lines {
            last_line = number;
            let words: Vec<&str> = line.split_whitespace().collect();
            if words[0] == "end" {
                let [_, frames, checksum] = words.as_slice() else {
                    return Err(fail(number, "expected `end FRAMES CHECKSUM`".into()));
                };
                let frames = frames
                    .parse::<u64>()
                    .map_err(|_| fail(number, format!("`{frames}` is not a frame count")))?;
                let checksum = u64::from_str_radix(checksum, 16)
                    .map_err(|_| fail(number, format!("`{checksum}` is not a checksum")))?;
                if frames < last_frame {
                    return Err(fail(
                        number,
                        format!("ends at frame {frames}, before its last input ({last_frame})"),
                    ));
                }
                if !matches!(inputs.first(), Some((0, Input::Preset { .. }, _))) {
                    return Err(fail(number, "no `preset` input at frame 0".into()));
                }
                return Ok(Self {
                    file: file.to_string(),
                    seed,
                    inputs,
                    frames,
                    checksum,
                });
            }
            let frame = words[0]
                .parse::<u64>()
                .map_err(|_| fail(number, format!("`{}` is not a frame number", words[0])))?;
            if frame < last_frame {
                return Err(fail(
                    number,
                    format!("frame {frame} comes after frame {last_frame}"),
                ));
            }
            last_frame = frame;
            let input = Input::parse(&words[1..]).map_err(|error| fail(number, error.message))?;
            inputs.push((frame, input, number));
        }
        Err(fail(
            last_line,
            "truncated: the file stops before its `end` line".into(),
        ))
    }
}

/// The inputs of a replay, handed out frame by frame (for a player that owns its own world, as
/// the window does).
#[derive(Clone)]
pub struct Feed {
    replay: Replay,
    next: usize,
    /// The frame of the inputs handed out last.
    frame: u64,
    /// The replay's undo history, as the recorded run kept it.
    history: History,
}

impl Feed {
    /// The inputs of `replay`, from its start.
    pub fn new(replay: Replay) -> Self {
        Self {
            replay,
            next: 0,
            frame: 0,
            history: History::new(),
        }
    }

    /// The replay fed.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// The inputs recorded after `frame` frames, with their lines, not handed out before.
    pub fn due(&mut self, frame: u64) -> Vec<(Input, usize)> {
        self.frame = frame;
        let mut due = Vec::new();
        while let Some((at, input, line)) = self.replay.inputs.get(self.next) {
            if *at > frame {
                break;
            }
            due.push((input.clone(), *line));
            self.next += 1;
        }
        due
    }

    /// True once `frame` frames cover the whole recording.
    pub fn finished(&self, frame: u64) -> bool {
        frame >= self.replay.frames
    }

    /// Applies a recorded `input` from `line` to `preset`, `world` and the go at its level, if
    /// it is one (a `preset` input builds all three anew and checks the new world's checksum),
    /// through the replay's undo history (`History`) as the recorded run did.
    /// Refusals name the line: the replay does not match this build, these presets or the
    /// level's rules.
    pub fn apply(
        &mut self,
        preset: &mut Preset,
        world: &mut World,
        attempt: &mut Option<Attempt>,
        input: &Input,
        line: usize,
    ) -> Result<(), FileError> {
        let file = &self.replay.file;
        if let Input::Preset { .. } = input {
            (*preset, *world) = self.build(input, line)?;
            self.history.clear();
            *attempt = (attempt_at(preset, world))
                .map_err(|error| FileError::at(file, line, error.to_string()))?;
            return Ok(());
        }
        self.history
            .apply(self.frame, attempt.as_mut(), input, world)
            .map_err(|error| match error {
                EditError::Refused(why) => {
                    FileError::at(file, line, format!("the level refuses it: {why}"))
                }
                error => FileError::at(file, line, format!("the world refused it: {error}")),
            })
    }

    /// The preset and world a recorded `preset` input from `line` names, checked against the
    /// checksum it recorded.
    fn build(&self, input: &Input, line: usize) -> Result<(Preset, World), FileError> {
        let file = &self.replay.file;
        let Input::Preset {
            source,
            particles,
            checksum,
        } = input
        else {
            return Err(FileError::at(file, line, "expected a `preset` input"));
        };
        let (preset, world) = build(source, *particles, self.replay.seed)
            .map_err(|error| FileError::at(file, line, error.to_string()))?;
        if world.checksum() != *checksum {
            return Err(FileError::at(
                file,
                line,
                format!(
                    "preset `{source}` builds a different world than the recording's (edited \
                     since it was recorded?)"
                ),
            ));
        }
        Ok((preset, world))
    }
}

/// A go at `preset`'s level in `world`, fresh from it (none when the preset is no level).
pub fn attempt_at(preset: &Preset, world: &World) -> Result<Option<Attempt>, LevelError> {
    preset
        .level
        .as_ref()
        .map(|level| Attempt::new(level.clone(), world))
        .transpose()
}

/// Plays a replay without a window: builds the worlds it names and applies its inputs at their
/// frames, and judges the level's goals when a world is a level.
pub struct Player {
    feed: Feed,
    frame: u64,
    /// The preset running now.
    pub preset: Preset,
    /// The world running now.
    pub world: World,
    /// The go at the level running now, if it is one.
    pub attempt: Option<Attempt>,
}

impl Player {
    /// A player at the start of `replay`: its first world built (from the `preset` input that
    /// `Replay::parse` makes sure comes first) and the other inputs of frame 0 applied.
    pub fn new(replay: Replay) -> Result<Self, FileError> {
        let mut feed = Feed::new(replay);
        let mut due = feed.due(0).into_iter();
        let Some((first, line)) = due.next() else {
            return Err(FileError::of(&feed.replay.file, "no preset to start from"));
        };
        let (preset, world) = feed.build(&first, line)?;
        let attempt = attempt_at(&preset, &world)
            .map_err(|error| FileError::at(&feed.replay.file, line, error.to_string()))?;
        let mut player = Self {
            feed,
            frame: 0,
            preset,
            world,
            attempt,
        };
        for (input, line) in due {
            let Self {
                feed,
                preset,
                world,
                attempt,
                ..
            } = &mut player;
            feed.apply(preset, world, attempt, &input, line)?;
        }
        Ok(player)
    }

    /// Frames run so far.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// True once every recorded frame has run.
    pub fn finished(&self) -> bool {
        self.feed.finished(self.frame)
    }

    /// Runs one frame, then applies the inputs recorded after it.
    pub fn step(&mut self) -> Result<(), FileError> {
        self.step_then(|_| {})
    }

    /// `step`, showing `after_frame` the world between its frame and the inputs recorded after
    /// it (where a headless run shows it: its sound hears the same worlds).
    pub fn step_then(&mut self, after_frame: impl FnOnce(&World)) -> Result<(), FileError> {
        self.world.step_frame();
        self.frame += 1;
        if let Some(attempt) = &mut self.attempt {
            attempt.observe(&self.world);
        }
        after_frame(&self.world);
        self.apply_due()
    }

    fn apply_due(&mut self) -> Result<(), FileError> {
        for (input, line) in self.feed.due(self.frame) {
            (self.feed).apply(
                &mut self.preset,
                &mut self.world,
                &mut self.attempt,
                &input,
                line,
            )?;
        }
        Ok(())
    }
}
