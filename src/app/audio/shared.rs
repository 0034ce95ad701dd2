//! What the outputs share: where the sound stands, and the volume applied to the samples.

/// Where the sound stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// Playing (or silent only because muted).
    On,
    /// Not yet: a page waits for the first click or touch, or for the browser to start it.
    Waiting(&'static str),
    /// No sound this run, and why.
    Off(String),
}

impl Status {
    /// One line: `on`, what it waits for, or `off: why` (the window's final line and the engine
    /// figures give it).
    pub fn describe(&self) -> String {
        match self {
            Self::On => "on".into(),
            Self::Waiting(what) => (*what).into(),
            Self::Off(why) => format!("off: {why}"),
        }
    }
}

/// Scales `samples` by a gain that moves from `from` to `to` across them (a change of volume
/// without a click), and puts every sample within -1..1 (a non-finite one becomes silence).
pub fn apply_gain(samples: &mut [f32], from: f32, to: f32) {
    let step = (to - from) / samples.len().max(1) as f32;
    for (index, sample) in samples.iter_mut().enumerate() {
        let gain = from + step * index as f32;
        let scaled = *sample * gain;
        *sample = if scaled.is_finite() {
            scaled.clamp(-1.0, 1.0)
        } else {
            0.0
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_gain_ramps_and_keeps_samples_within_range() {
        let mut samples = [1.0, 1.0, 1.0, 1.0, 2.0, f32::NAN, -3.0, 0.5];
        apply_gain(&mut samples, 0.0, 1.0);
        assert_eq!(samples[0], 0.0);
        assert!(samples[1] > 0.0 && samples[1] < samples[2] && samples[2] < samples[3]);
        assert!(
            samples.iter().all(|s| (-1.0..=1.0).contains(s)),
            "{samples:?}"
        );
        assert_eq!(samples[5], 0.0, "NaN becomes silence");
    }
}
