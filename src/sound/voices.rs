//! The synthesiser's sound makers, each a few operations a sample: the seeded noise, the pan, the
//! ringing bubble (`Ring`), the filtered noise burst (`Burst`) and the continuous textures
//! (`Bed`). Only +, −, ×, ÷ run per sample; the coefficients come from the portable functions
//! (`sim::numerics::portable`) once per voice, so every machine and the web page give the same
//! bits.

use super::SAMPLE_RATE;
use crate::sim::numerics::portable::{exp, unit_vector, Ordered};
use glam::Vec2;
use std::f32::consts::PI;

/// Samples per second, as a float.
pub const RATE: f32 = SAMPLE_RATE as f32;

/// Below this a voice is over (−100 dBFS): it is dropped, which also keeps denormal numbers out
/// of the filters.
pub const SILENT: f32 = 1e-5;

/// A seeded noise generator: xorshift64* (Marsaglia 2003; Vigna 2016), integers only, so its
/// numbers are the same everywhere.
#[derive(Clone, Debug)]
pub struct Noise(u64);

impl Noise {
    /// A generator started from `seed` (any value: it is mixed by SplitMix64 first, so that
    /// nearby seeds give unrelated streams and none gives the all-zero state).
    pub fn new(seed: u64) -> Self {
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        Self(if z == 0 { 1 } else { z })
    }

    /// The next 32 random bits.
    pub fn bits(&mut self) -> u32 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        (x.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 32) as u32
    }

    /// Uniform in 0..1.
    pub fn unit(&mut self) -> f32 {
        (self.bits() >> 8) as f32 * (1.0 / 16_777_216.0)
    }

    /// Uniform in −1..1: white noise.
    pub fn sample(&mut self) -> f32 {
        self.unit() * 2.0 - 1.0
    }

    /// A new generator for a voice, seeded from this one's numbers.
    pub fn split(&mut self) -> Noise {
        Noise::new(u64::from(self.bits()) << 32 | u64::from(self.bits()))
    }
}

/// Equal-power stereo gains for a place across the box (0 at its left wall, 1 at its right):
/// left = cos θ, right = sin θ, so left² + right² = 1 wherever the sound is. θ spans 5 % to
/// 95 % of a quarter turn: a sound at a wall is mostly, not only, on its side.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pan {
    /// Gain of the left channel.
    pub left: f32,
    /// Gain of the right channel.
    pub right: f32,
}

impl Pan {
    /// The pan of `x` (clamped to 0..1).
    pub fn at(x: f32) -> Self {
        let x = if x.is_nan() { 0.5 } else { x.clamp(0.0, 1.0) };
        let gains = unit_vector((0.05 + 0.9 * x) * 0.5 * PI);
        Self {
            left: gains.x,
            right: gains.y,
        }
    }
}

/// The factor a level is multiplied by each sample to fall by e in `seconds`.
pub fn decay_per_sample(seconds: f32) -> f32 {
    exp(-1.0 / (seconds.at_least(1e-4) * RATE))
}

/// A damped sinusoid whose pitch rises as it rings: one bubble (van den Doel 2005, eq. 5:
/// p(t) = a sin(2π f(t) t) e^(−d t), f(t) = f0 (1 + σ t)), or, without the rise, the ring of a
/// knock. Run as a rotating complex number z ← z w (a quadrature oscillator: w = e^(−d/R) e^(iω/R)),
/// whose turn w itself turns a little each sample for the rise, so no sine is taken per sample.
#[derive(Clone, Debug)]
pub struct Ring {
    z: Vec2,
    turn: Vec2,
    rise: Vec2,
    level: f32,
    decay: f32,
}

impl Ring {
    /// A ring at `frequency` Hz, losing amplitude at `damping` per second (d), its pitch rising
    /// by `rise` of itself per second (σ), starting at `amplitude`.
    pub fn new(frequency: f32, damping: f32, rise: f32, amplitude: f32) -> Self {
        let omega = 2.0 * PI * frequency.clamp(20.0, 0.45 * RATE) / RATE;
        let decay = exp(-damping.at_least(0.0) / RATE);
        Self {
            z: Vec2::new(amplitude, 0.0),
            turn: unit_vector(omega) * decay,
            rise: unit_vector(omega * rise / RATE),
            level: amplitude.abs(),
            decay,
        }
    }

    /// The next sample.
    #[inline]
    pub fn sample(&mut self) -> f32 {
        let out = self.z.y;
        self.z = complex(self.z, self.turn);
        self.turn = complex(self.turn, self.rise);
        self.level *= self.decay;
        out
    }

    /// Its amplitude now.
    pub fn level(&self) -> f32 {
        self.level
    }
}

/// The product of two complex numbers held as (re, im).
#[inline]
fn complex(a: Vec2, b: Vec2) -> Vec2 {
    Vec2::new(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x)
}

/// A state-variable filter (Chamberlin 1985): low-, band- and high-pass at once, two
/// multiplications a sample. Stable for centre frequencies below about a sixth of the rate.
#[derive(Clone, Debug, Default)]
pub struct Filter {
    low: f32,
    band: f32,
    f: f32,
    q: f32,
}

/// Which of a `Filter`'s outputs a sound takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Below the centre.
    Low,
    /// Around the centre.
    Band,
    /// Above the centre.
    High,
}

impl Filter {
    /// A filter centred on `frequency` Hz with damping `q` (1/Q: 1.4 broad, 0.2 narrow).
    pub fn new(frequency: f32, q: f32) -> Self {
        let frequency = frequency.clamp(20.0, RATE / 6.5);
        Self {
            low: 0.0,
            band: 0.0,
            f: 2.0 * unit_vector(PI * frequency / RATE).y,
            q: q.clamp(0.05, 1.9),
        }
    }

    /// Filters one sample; gives the output `pass`.
    #[inline]
    pub fn next(&mut self, input: f32, pass: Pass) -> f32 {
        self.low += self.f * self.band;
        let high = input - self.low - self.q * self.band;
        self.band += self.f * high;
        match pass {
            Pass::Low => self.low,
            Pass::Band => self.band,
            Pass::High => high,
        }
    }

    /// Forgets the signal (at silence, so that no denormal number lingers).
    pub fn clear(&mut self) {
        self.low = 0.0;
        self.band = 0.0;
    }
}

/// A burst of filtered noise: the rush of a splash, the slap of liquid on a wall, a click of
/// crackle. Its envelope is the difference of two decays, a (e^(−t/τ) − e^(−t/τa)): it rises from
/// nothing in about τa and falls away in τ, with no click at either end.
#[derive(Clone, Debug)]
pub struct Burst {
    noise: Noise,
    filter: Filter,
    pass: Pass,
    amplitude: f32,
    slow: f32,
    fast: f32,
    slow_decay: f32,
    fast_decay: f32,
}

impl Burst {
    /// Noise through `filter`'s output `pass`, rising in `attack` seconds, falling in `length`,
    /// at about `amplitude` at its height.
    pub fn new(
        noise: Noise,
        filter: Filter,
        pass: Pass,
        amplitude: f32,
        attack: f32,
        length: f32,
    ) -> Self {
        Self {
            noise,
            filter,
            pass,
            amplitude,
            slow: 1.0,
            fast: 1.0,
            slow_decay: decay_per_sample(length),
            fast_decay: decay_per_sample(attack.at_most(0.5 * length)),
        }
    }

    /// The next sample.
    #[inline]
    pub fn sample(&mut self) -> f32 {
        let envelope = self.amplitude * (self.slow - self.fast);
        self.slow *= self.slow_decay;
        self.fast *= self.fast_decay;
        let white = self.noise.sample();
        envelope * self.filter.next(white, self.pass)
    }

    /// Its envelope's amplitude now (an upper bound once it has risen).
    pub fn level(&self) -> f32 {
        self.amplitude * self.slow
    }
}

/// A continuous texture: noise through a filter at a gain that follows the events' rate, glided
/// toward each frame's target so that a frame boundary makes no step, and placed by a pan that
/// glides too (the stream, the hiss, the erase tool's rush).
#[derive(Clone, Debug)]
pub struct Bed {
    noise: Noise,
    filter: Filter,
    pass: Pass,
    /// A second, gentler filter after the first (the hiss's second pole), if any.
    second: Option<Filter>,
    gain: f32,
    target: f32,
    pan: Pan,
    pan_target: Pan,
    glide: f32,
    /// Samples per grain (0: none): a grainy texture's loudness jumps at random every grain, as
    /// a sizzle of tiny bursting bubbles does.
    grain: u32,
    countdown: u32,
    grit: f32,
    grit_target: f32,
    grit_glide: f32,
}

impl Bed {
    /// A silent texture of noise through `filter`'s `pass` (then `second`'s, if any), whose gain
    /// and pan glide to their targets in about `glide` seconds.
    pub fn new(
        noise: Noise,
        filter: Filter,
        pass: Pass,
        second: Option<Filter>,
        glide: f32,
    ) -> Self {
        Self {
            noise,
            filter,
            pass,
            second,
            gain: 0.0,
            target: 0.0,
            pan: Pan::at(0.5),
            pan_target: Pan::at(0.5),
            glide: 1.0 - decay_per_sample(glide),
            grain: 0,
            countdown: 0,
            grit: 1.0,
            grit_target: 1.0,
            grit_glide: 1.0,
        }
    }

    /// The same texture made grainy: a new random loudness (the cube of a uniform number, so
    /// mostly quiet with loud grains) every `seconds`, glided over a fifth of it.
    pub fn grainy(mut self, seconds: f32) -> Self {
        self.grain = ((seconds * RATE) as u32).max(1);
        self.grit_glide = 1.0 - decay_per_sample(0.2 * seconds);
        self
    }

    /// Sets where the gain and pan glide to.
    pub fn aim(&mut self, gain: f32, x: f32) {
        self.target = gain.at_least(0.0);
        if gain > 0.0 {
            self.pan_target = Pan::at(x);
        }
    }

    /// Adds its next `out.len() / 2` stereo samples to `out`.
    pub fn add_to(&mut self, out: &mut [f32]) {
        for frame in out.chunks_exact_mut(2) {
            // Checked each sample, so that it falls silent at the same sample however the
            // output is cut into buffers.
            if self.target == 0.0 && self.gain < SILENT {
                self.gain = 0.0;
                self.filter.clear();
                if let Some(second) = &mut self.second {
                    second.clear();
                }
                return;
            }
            self.gain += (self.target - self.gain) * self.glide;
            self.pan.left += (self.pan_target.left - self.pan.left) * self.glide;
            self.pan.right += (self.pan_target.right - self.pan.right) * self.glide;
            let mut sample = self.filter.next(self.noise.sample(), self.pass);
            if let Some(second) = &mut self.second {
                sample = second.next(sample, self.pass);
            }
            if self.grain > 0 {
                if self.countdown == 0 {
                    self.countdown = self.grain;
                    let u = self.noise.unit();
                    self.grit_target = 2.0 * u * u * u;
                }
                self.countdown -= 1;
                self.grit += (self.grit_target - self.grit) * self.grit_glide;
                sample *= self.grit;
            }
            sample *= self.gain;
            frame[0] += sample * self.pan.left;
            frame[1] += sample * self.pan.right;
        }
    }
}

/// The sound one voice makes.
#[derive(Clone, Debug)]
pub enum Sound {
    /// A ringing bubble or knock.
    Ring(Ring),
    /// A burst of noise.
    Burst(Burst),
}

/// One voice: a sound at a place, starting after a delay.
#[derive(Clone, Debug)]
pub struct Voice {
    /// What it sounds.
    pub sound: Sound,
    /// Where.
    pub pan: Pan,
    /// Samples to wait before it starts (its place within the frame that started it).
    pub delay: u32,
}

impl Voice {
    /// How loud it is now: the voice budget drops the quietest.
    pub fn level(&self) -> f32 {
        match &self.sound {
            Sound::Ring(ring) => ring.level(),
            Sound::Burst(burst) => burst.level(),
        }
    }

    /// Adds its next `out.len() / 2` stereo samples to `out`; false once it is over.
    pub fn add_to(&mut self, out: &mut [f32]) -> bool {
        let wait = (self.delay as usize).min(out.len() / 2);
        self.delay -= wait as u32;
        let out = &mut out[2 * wait..];
        let Pan { left, right } = self.pan;
        // Each sample checks the level, so that a voice ends at the same sample however the
        // output is cut into buffers.
        match &mut self.sound {
            Sound::Ring(ring) => {
                for frame in out.chunks_exact_mut(2) {
                    if ring.level() < SILENT {
                        return false;
                    }
                    let sample = ring.sample();
                    frame[0] += sample * left;
                    frame[1] += sample * right;
                }
            }
            Sound::Burst(burst) => {
                for frame in out.chunks_exact_mut(2) {
                    if burst.level() < SILENT {
                        return false;
                    }
                    let sample = burst.sample();
                    frame[0] += sample * left;
                    frame[1] += sample * right;
                }
            }
        }
        self.delay > 0 || self.level() >= SILENT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ring_rings_at_its_frequency_and_dies_away() {
        let mut ring = Ring::new(1000.0, 100.0, 0.0, 1.0);
        let samples: Vec<f32> = (0..4800).map(|_| ring.sample()).collect();
        // Zero crossings upward in the first 10 ms: 10 cycles of 1 kHz.
        let rising = samples[..480]
            .windows(2)
            .filter(|pair| pair[0] < 0.0 && pair[1] >= 0.0)
            .count();
        assert!((9..=11).contains(&rising), "{rising} cycles");
        // e^(−100 × 0.1) after 0.1 s.
        assert!(
            ring.level() < 1e-4 && ring.level() > 1e-5,
            "{}",
            ring.level()
        );
    }

    #[test]
    fn a_rising_ring_rises() {
        let mut ring = Ring::new(1000.0, 10.0, 2.0, 1.0);
        let samples: Vec<f32> = (0..24_000).map(|_| ring.sample()).collect();
        let cycles = |part: &[f32]| {
            part.windows(2)
                .filter(|p| p[0] < 0.0 && p[1] >= 0.0)
                .count()
        };
        // f(t) = 1000 (1 + 2 t): about 1000 Hz at first, 1900 Hz 0.45 s later.
        assert!((9..=11).contains(&cycles(&samples[..480])));
        assert!((18..=20).contains(&cycles(&samples[21_600..22_080])));
    }

    #[test]
    fn noise_is_the_same_for_a_seed_and_spans_minus_one_to_one() {
        let (mut a, mut b) = (Noise::new(7), Noise::new(7));
        let xs: Vec<f32> = (0..10_000).map(|_| a.sample()).collect();
        assert!(xs.iter().all(|&x| (-1.0..1.0).contains(&x)));
        assert!(xs
            .iter()
            .zip((0..).map(|_| b.sample()))
            .all(|(x, y)| *x == y));
        let mean = xs.iter().sum::<f32>() / xs.len() as f32;
        assert!(mean.abs() < 0.03, "{mean}");
        assert_ne!(Noise::new(8).bits(), Noise::new(7).bits());
    }

    #[test]
    fn the_pan_keeps_the_power_and_leans_to_the_side() {
        for x in [0.0, 0.3, 0.5, 1.0] {
            let pan = Pan::at(x);
            assert!((pan.left * pan.left + pan.right * pan.right - 1.0).abs() < 1e-5);
        }
        let left = Pan::at(0.0);
        assert!(left.left > 6.0 * left.right);
        assert!((Pan::at(0.5).left - Pan::at(0.5).right).abs() < 1e-6);
    }
}
