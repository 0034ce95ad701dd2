//! A run's sound as a WAV file (48 kHz, stereo, 16-bit PCM), and the figures the reports give of
//! it: a `Recording` listens to a world after each frame, synthesises the frame's samples and
//! keeps them in memory or writes them as they come.

use super::{FrameEvents, Listener, Synth, CHANNELS, SAMPLE_RATE};
use crate::sim::numerics::portable::Ordered;
use crate::sim::World;
use crate::FileError;
use serde::Serialize;
use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

/// What a run's sound measured: the report's `sound`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SoundFigures {
    /// Its length, in seconds.
    pub seconds: f64,
    /// Its RMS level over both channels, in dB below full scale (−120 for silence).
    pub rms_dbfs: f64,
    /// Its largest sample, as a fraction of full scale.
    pub peak: f64,
}

/// The quietest level a figure gives, in dBFS: silence.
pub const FLOOR_DBFS: f64 = -120.0;

/// Full scale of a 16-bit sample.
const FULL_SCALE: f32 = 32_767.0;

/// A sample in −1..1 as 16-bit PCM (rounded to the nearest step; beyond ±1, full scale).
pub fn pcm(sample: f32) -> i16 {
    (sample * FULL_SCALE).round().clamp(-FULL_SCALE, FULL_SCALE) as i16
}

/// `amplitude` (a fraction of full scale) in decibels below full scale, at least `FLOOR_DBFS`.
pub fn dbfs(amplitude: f64) -> f64 {
    if amplitude > 0.0 {
        (20.0 * libm::log10(amplitude)).at_least(FLOOR_DBFS)
    } else {
        FLOOR_DBFS
    }
}

/// Where a recording's samples go.
enum Sink {
    /// Kept, for tests and figures.
    Memory(Vec<i16>),
    /// Written to a file as they come.
    File(Box<hound::WavWriter<BufWriter<File>>>, String),
}

/// A run's sound, made frame by frame: `frame` after each `World::step_frame`.
pub struct Recording {
    listener: Listener,
    synth: Synth,
    sink: Sink,
    /// Frames heard so far.
    frames: u64,
    /// Stereo samples made so far.
    made: u64,
    buffer: Vec<f32>,
    squares: f64,
    peak: i16,
    /// The first write error, if any.
    error: Option<String>,
    /// The last frame's events, for those who want to look.
    last: FrameEvents,
}

impl std::fmt::Debug for Recording {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter
            .debug_struct("Recording")
            .field("frames", &self.frames)
            .field("made", &self.made)
            .finish_non_exhaustive()
    }
}

/// The WAV format slosh writes.
fn spec() -> hound::WavSpec {
    hound::WavSpec {
        channels: CHANNELS as u16,
        sample_rate: SAMPLE_RATE,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    }
}

impl Recording {
    /// A recording of `world` from now on, kept in memory; `seed` starts the synthesiser's noise
    /// (the run's seed).
    pub fn in_memory(world: &World, seed: u64) -> Self {
        Self::with_sink(world, seed, Sink::Memory(Vec::new()))
    }

    /// A recording of `world` from now on, written to the WAV file `path` as it goes; refused
    /// for a path that cannot be written.
    pub fn create(path: &Path, world: &World, seed: u64) -> Result<Self, FileError> {
        let name = path.display().to_string();
        let writer =
            hound::WavWriter::create(path, spec()).map_err(|error| unwritable(&name, error))?;
        Ok(Self::with_sink(
            world,
            seed,
            Sink::File(Box::new(writer), name),
        ))
    }

    fn with_sink(world: &World, seed: u64, sink: Sink) -> Self {
        Self {
            listener: Listener::new(world),
            synth: Synth::new(seed),
            sink,
            frames: 0,
            made: 0,
            buffer: Vec::new(),
            squares: 0.0,
            peak: 0,
            error: None,
            last: FrameEvents::default(),
        }
    }

    /// Listens from `world` as it is now: a headless run's first frame calls it once its inputs
    /// are applied, so that its first frame is heard as a replay of it hears it (a replay's
    /// player starts with the first frame's inputs applied).
    pub fn listen_from(&mut self, world: &World) {
        self.listener = Listener::new(world);
    }

    /// Hears the frame `world` just ran and makes its samples: SAMPLE_RATE / frame rate of them
    /// (a frame rate that does not divide it gives frames of whole samples that add up).
    pub fn frame(&mut self, world: &World) {
        let events = self.listener.listen(world);
        self.synth.push(&events);
        self.frames += 1;
        let rate = f64::from(world.params().frame_rate);
        let end = (self.frames as f64 * f64::from(SAMPLE_RATE) / rate).floor() as u64;
        let count = end.saturating_sub(self.made) as usize;
        self.made = self.made.max(end);
        self.buffer.resize(count * CHANNELS, 0.0);
        self.synth.render(&mut self.buffer);
        for &sample in &self.buffer {
            let value = pcm(sample);
            let level = f64::from(value) / f64::from(FULL_SCALE);
            self.squares += level * level;
            self.peak = self.peak.max(value.saturating_abs());
            match &mut self.sink {
                Sink::Memory(samples) => samples.push(value),
                Sink::File(writer, _) => {
                    if self.error.is_none() {
                        if let Err(error) = writer.write_sample(value) {
                            self.error = Some(format!("cannot write the sound: {error}"));
                        }
                    }
                }
            }
        }
        self.last = events;
    }

    /// The last frame's events.
    pub fn last_events(&self) -> &FrameEvents {
        &self.last
    }

    /// The samples so far, interleaved left, right (none when written to a file).
    pub fn samples(&self) -> &[i16] {
        match &self.sink {
            Sink::Memory(samples) => samples,
            Sink::File(..) => &[],
        }
    }

    /// The figures of the sound so far.
    pub fn figures(&self) -> SoundFigures {
        let values = (self.made as usize * CHANNELS).max(1) as f64;
        SoundFigures {
            seconds: self.made as f64 / f64::from(SAMPLE_RATE),
            rms_dbfs: dbfs((self.squares / values).sqrt()),
            peak: f64::from(self.peak) / f64::from(FULL_SCALE),
        }
    }

    /// Finishes the file (its header's lengths); the figures, or the first write error.
    pub fn finish(self) -> Result<SoundFigures, FileError> {
        let figures = self.figures();
        if let Sink::File(writer, name) = self.sink {
            if let Some(error) = self.error {
                return Err(FileError::of(&name, crate::preset::one_line(&error)));
            }
            writer
                .finalize()
                .map_err(|error| unwritable(&name, error))?;
        }
        Ok(figures)
    }
}

/// The refusal to write the sound to `file`.
fn unwritable(file: &str, error: hound::Error) -> FileError {
    let why = crate::preset::one_line(&error.to_string());
    FileError::of(file, format!("cannot write the sound: {why}"))
}

/// Writes interleaved stereo `samples` as a WAV file at `path`.
pub fn write(path: &Path, samples: &[i16]) -> Result<(), FileError> {
    let name = path.display().to_string();
    let fail = |error: hound::Error| unwritable(&name, error);
    let mut writer = hound::WavWriter::create(path, spec()).map_err(fail)?;
    for &sample in samples {
        writer.write_sample(sample).map_err(fail)?;
    }
    writer.finalize().map_err(fail)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pcm_rounds_and_never_wraps() {
        assert_eq!(pcm(0.0), 0);
        assert_eq!(pcm(1.0), 32_767);
        assert_eq!(pcm(-1.0), -32_767);
        assert_eq!(pcm(5.0), 32_767);
        assert_eq!(pcm(f32::NAN), 0);
        assert_eq!(dbfs(0.0), FLOOR_DBFS);
        assert!((dbfs(0.5) + 6.02).abs() < 0.01);
    }
}
