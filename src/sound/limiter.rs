//! The last stage of the mix: a peak limiter that keeps every sample under full scale, so that a
//! loud scene is never clipped and stays pleasant.

use super::voices::decay_per_sample;
use crate::sim::numerics::portable::Ordered;

/// The level, as a fraction of full scale, above which the limiter turns the mix down (−6 dBFS).
pub const THRESHOLD: f32 = 0.5;

/// No sample leaves the limiter louder than this (−0.3 dBFS): the hard guarantee, whatever
/// comes in (a value that is not a finite number leaves as silence).
pub const CEILING: f32 = 0.966;

/// Seconds the limiter takes to let the level back up after a peak.
pub const RELEASE: f32 = 0.25;

/// A stereo-linked peak limiter (Giannoulis, Massberg and Reiss 2012, "Digital dynamic range
/// compressor design", the peak detector with instant attack and smooth release): an envelope
/// that jumps up to each sample's louder channel and falls back slowly, and a gain of
/// `THRESHOLD` / envelope above the threshold. As the envelope is never below the sample it
/// scales, the output stays at `THRESHOLD`; the final clamp to `CEILING` is only a guarantee.
#[derive(Clone, Debug)]
pub struct Limiter {
    envelope: f32,
    release: f32,
}

impl Default for Limiter {
    fn default() -> Self {
        Self {
            envelope: 0.0,
            release: decay_per_sample(RELEASE),
        }
    }
}

impl Limiter {
    /// Limits interleaved stereo samples in place.
    pub fn apply(&mut self, samples: &mut [f32]) {
        for frame in samples.chunks_exact_mut(2) {
            for sample in frame.iter_mut() {
                if !sample.is_finite() {
                    *sample = 0.0;
                }
            }
            let peak = frame[0].abs().at_least(frame[1].abs());
            // Decays, but never below this sample's peak.
            self.envelope = (self.envelope * self.release).at_least(peak);
            if self.envelope < 1e-20 {
                self.envelope = 0.0;
            }
            let gain = if self.envelope > THRESHOLD {
                THRESHOLD / self.envelope
            } else {
                1.0
            };
            for sample in frame {
                *sample = (*sample * gain).clamp(-CEILING, CEILING);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nothing_passes_the_ceiling_and_quiet_sound_passes_untouched() {
        let mut limiter = Limiter::default();
        let mut loud: Vec<f32> = (0..4800).map(|i| 40.0 * ((i % 7) as f32 - 3.0)).collect();
        loud.push(f32::NAN);
        loud.push(f32::INFINITY);
        limiter.apply(&mut loud);
        assert!(loud.iter().all(|x| x.abs() <= THRESHOLD + 1e-6), "{loud:?}");
        let mut limiter = Limiter::default();
        let mut quiet = vec![0.25, -0.25, 0.1, 0.0];
        limiter.apply(&mut quiet);
        assert_eq!(quiet, [0.25, -0.25, 0.1, 0.0]);
    }
}
