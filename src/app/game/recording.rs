//! Recording and replay in the window, without any window types: every input the player gives
//! goes to the world through here, into the recording, and a replay being played feeds its
//! recorded inputs to the world at their frames instead.

use crate::level::Attempt;
use crate::preset::Preset;
use crate::replay::{attempt_at, Feed, History, Input, Recorder};
use crate::sim::{EditError, World};

/// The window's recording of the inputs, or the replay it plays instead of taking any.
pub struct Recording {
    /// Simulation frames run since the window opened (the recording's clock).
    frame: u64,
    recorder: Option<Recorder>,
    /// Whether the session is recorded: after a snapshot is opened (which a replay cannot start
    /// from) the next fresh world starts a new recording.
    records: bool,
    feed: Option<Feed>,
    /// A replay that could not go on, shown in the HUD.
    pub replay_error: Option<String>,
    /// The go at the level being played, if the world is one: it admits every input by the
    /// level's rules and judges the goals after each frame.
    pub attempt: Option<Attempt>,
    /// The worlds before each edit, for undo and redo.
    pub history: History,
}

impl Recording {
    /// Recording every input to `recorder` (none: no recording), or playing `feed` instead of
    /// taking any.
    pub fn new(recorder: Option<Recorder>, feed: Option<Feed>) -> Self {
        Self {
            frame: 0,
            records: recorder.is_some(),
            recorder,
            feed,
            replay_error: None,
            attempt: None,
            history: History::new(),
        }
    }

    /// Applies `input` to `world` through the undo history and records it; a refused input
    /// changes nothing and is not recorded. While a replay plays, live inputs are ignored.
    pub fn input(&mut self, world: &mut World, input: Input) -> Result<(), EditError> {
        if self.feed.is_some() {
            return Ok(());
        }
        self.history
            .apply(self.frame, self.attempt.as_mut(), &input, world)?;
        if let Some(recorder) = &mut self.recorder {
            recorder.record(&input);
        }
        Ok(())
    }

    /// Records `built`, the `Input::Preset` of `world` just built from `preset` (a new
    /// recording from `seed` when the last one ended at a snapshot), and starts a go at the
    /// preset's level when it is one.
    pub fn record_preset(&mut self, seed: u64, built: &Input, preset: &Preset, world: &World) {
        self.attempt = attempt_at(preset, world).ok().flatten();
        self.history.clear();
        if self.recorder.is_none() && self.records && self.feed.is_none() {
            self.recorder = Some(Recorder::in_memory(seed));
        }
        if let Some(recorder) = &mut self.recorder {
            recorder.record(built);
        }
    }

    /// Counts a simulation frame run in `world`, and judges the level's goals after it.
    pub fn frame_done(&mut self, world: &World) {
        self.frame += 1;
        if let Some(attempt) = &mut self.attempt {
            attempt.observe(world);
        }
        if let Some(recorder) = &mut self.recorder {
            recorder.frame_done();
        }
    }

    /// Plays the inputs recorded at the current frame on `preset` and `world`; true when one
    /// of them built a new world (the window then starts it afresh).
    pub fn play_due(&mut self, preset: &mut Preset, world: &mut World) -> bool {
        let Some(mut feed) = self.feed.take() else {
            return false;
        };
        let mut rebuilt = false;
        if self.replay_error.is_none() {
            for (input, line) in feed.due(self.frame) {
                let builds = matches!(input, Input::Preset { .. });
                if let Err(error) = feed.apply(preset, world, &mut self.attempt, &input, line) {
                    self.replay_error = Some(error.to_string());
                    break;
                }
                rebuilt |= builds;
            }
        }
        self.feed = Some(feed);
        rebuilt
    }

    /// True when a replay is playing.
    pub fn replaying(&self) -> bool {
        self.feed.is_some()
    }

    /// True once a replay has played to its end (or could not go on).
    pub fn finished(&self) -> bool {
        match &self.feed {
            Some(feed) => feed.finished(self.frame) || self.replay_error.is_some(),
            None => false,
        }
    }

    /// The replay so far, ending at this frame with `world`'s checksum: every input since the
    /// window opened (or the last preset after a snapshot).
    pub fn so_far(&self, world: &World) -> Result<String, &'static str> {
        match &self.recorder {
            Some(recorder) => Ok(recorder.so_far(world.checksum())),
            None if self.feed.is_some() => Err("no replay to save: a replay is playing"),
            None => Err("no replay to save: a snapshot was opened (a replay starts from a preset)"),
        }
    }

    /// The recorded run's final checksum, when playing a replay.
    pub fn recorded_checksum(&self) -> Option<u64> {
        self.feed.as_ref().map(|feed| feed.replay().checksum)
    }

    /// Ends the recording, if any, with `world`'s checksum; the error is one line.
    pub fn finish(&mut self, world: &World) -> Result<(), String> {
        match self.recorder.take() {
            Some(recorder) => recorder.finish(world.checksum()).map_err(String::from),
            None => Ok(()),
        }
    }

    /// Stops recording until the next fresh world: a snapshot was opened, and the recording so
    /// far does not lead to its world.
    pub fn interrupt(&mut self) {
        self.recorder = None;
        self.history.clear();
    }
}

#[cfg(test)]
mod tests {
    use crate::app::{Command, FrameInput, Game, PresetSource, Resolution};
    use crate::preset::Preset;
    use glam::Vec2;

    /// A game of the seed preset recording in memory (as the window does without `--record`).
    fn recording_in_memory() -> Game {
        let source = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let recorder = crate::replay::Recorder::in_memory(4);
        let preset = Preset::load("seed").unwrap();
        Game::with_inputs(
            preset,
            source,
            4,
            Resolution::Own,
            crate::app::Scale::default(),
            Some(recorder),
            None,
        )
    }

    /// Stirs `game` for `frames` frames.
    fn stir_for(game: &mut Game, frames: usize) {
        for frame in 0..frames {
            game.step(FrameInput {
                stir: Some(crate::sim::Stir {
                    position: Vec2::new(3.0 + 0.05 * frame as f32, 1.0),
                    velocity: Vec2::new(2.0, 1.0),
                    radius: 1.0,
                }),
                ..FrameInput::default()
            });
        }
    }

    #[test]
    fn the_replay_so_far_plays_to_the_session_s_checksum_and_recording_goes_on() {
        use crate::replay::{Player, Replay};
        let mut game = recording_in_memory();
        stir_for(&mut game, 25);
        let first = Replay::parse("f8", &game.replay_so_far().unwrap()).unwrap();
        assert_eq!(
            (first.frames, first.checksum),
            (25, game.session.world.checksum())
        );
        stir_for(&mut game, 10);
        let second = Replay::parse("f8", &game.replay_so_far().unwrap()).unwrap();
        assert_eq!(second.frames, 35);
        let mut player = Player::new(second).unwrap();
        while !player.finished() {
            player.step().unwrap();
        }
        assert_eq!(player.world.checksum(), game.session.world.checksum());
        // A snapshot's world does not follow from the recording: none until a fresh world.
        let (preset, world) = (game.session.preset.clone(), game.session.world.clone());
        game.open_snapshot(preset, world);
        assert!(game.replay_so_far().unwrap_err().contains("snapshot"));
        game.apply(Command::Reset);
        let fresh = Replay::parse("f8", &game.replay_so_far().unwrap()).unwrap();
        assert_eq!(fresh.frames, 0);
    }

    /// Regression: a page that drew slower than the simulation's frame rate asked for two
    /// frames at once, and a replay's last display frame ran one frame past its end, so the
    /// page ended a native replay at another checksum than the recorded one.
    #[test]
    fn a_replay_stops_at_its_end_when_the_display_asks_for_more_frames() {
        use crate::replay::{Feed, Replay};
        let mut recorded = recording_in_memory();
        stir_for(&mut recorded, 30);
        let replay = Replay::parse("r", &recorded.replay_so_far().unwrap()).unwrap();
        let source = PresetSource::Builtin {
            name: "seed".into(),
            key: 1,
        };
        let preset = Preset::load("seed").unwrap();
        let feed = Some(Feed::new(replay));
        let mut game = Game::with_inputs(
            preset,
            source,
            4,
            Resolution::Own,
            crate::app::Scale::default(),
            None,
            feed,
        );
        for _ in 0..40 {
            game.step(FrameInput::default());
        }
        assert!(game.replay_finished());
        assert_eq!(
            game.session.world.checksum(),
            recorded.session.world.checksum()
        );
        assert_eq!(
            game.replay_so_far().unwrap_err(),
            "no replay to save: a replay is playing"
        );
    }
}
