//! Each frame's events as stereo samples.
//!
//! What each event becomes (docs/ENGINE.md, "Sound"):
//! - a splash (an `Impact`): a burst of band-passed noise, lower and longer for a bigger splash,
//!   and a few bubbles (`voices::Ring`) whose radius follows the splash's size and whose pitch
//!   is the radius's Minnaert frequency, damped and rising as van den Doel (2005) gives; the
//!   share against walls, obstacles and bodies is a slap, a short low burst;
//! - the births (a stream): a continuous low noise whose loudness follows the flow, with the
//!   gurgle of small bubbles;
//! - the sizzle, the reactions and the boiling: a high-passed hiss that follows their rate;
//!   boiling also blubs with large bubbles;
//! - freezing: a crackle of short high clicks;
//! - erasing: a soft rush;
//! - a body's knock: a low ring and a thud against a wall, a splash in the liquid.
//!
//! Voices beyond `MAX_VOICES` drop the quietest; the mix then goes through the `Limiter`.

use super::events::{FrameEvents, Impact};
use super::limiter::Limiter;
use super::voices::{Bed, Burst, Filter, Noise, Pan, Pass, Ring, Sound, Voice, RATE};
use super::CHANNELS;
use crate::sim::numerics::portable::{powf, Ordered};

/// The most voices that sound at once; a new voice louder than the quietest takes its place.
pub const MAX_VOICES: usize = 24;

/// The Minnaert resonance of an air bubble in water, f0 = (1 / 2πr) √(3γ p0 / ρ): about
/// 3.26 m/s / r at sea level (γ = 1.4, p0 = 101 kPa, ρ = 1000 kg/m³). Minnaert 1933; Zheng and
/// James 2009, eq. 1.
pub const MINNAERT: f32 = 3.26;

/// A bubble's damping d = 0.13 / r + 0.0072 r^(−3/2) per second, r in metres: viscous and
/// thermal losses and radiation (van den Doel 2005, eq. 6, after Leighton 1994).
pub fn bubble_damping(radius: f32) -> f32 {
    0.13 / radius + 0.0072 / (radius * radius.sqrt())
}

/// How much a bubble's pitch rises as it rings, ξ in σ = ξ d (van den Doel 2005: about 0.1 for
/// bubbles near the surface).
pub const RISE: f32 = 0.1;

/// The smallest and largest bubble radius made, in metres: 0.5 mm (6.5 kHz) to 8 mm (410 Hz).
const RADII: (f32, f32) = (0.0005, 0.008);

/// The energy (½ m |Δv|², in the particles' mass units) at which a splash is at half its
/// loudest. A drop of one particle at a few metres a second is about 2, a block of water
/// landing from a metre 50 to 150 a frame, a dam's wave against a wall a thousand.
const SPLASH_ENERGY: f32 = 1000.0;

/// Peak amplitudes, as fractions of full scale, of each sound at its loudest.
const SPLASH_GAIN: f32 = 0.6;
const SLAP_GAIN: f32 = 0.45;
const BUBBLE_GAIN: f32 = 0.3;
const STREAM_GAIN: f32 = 0.08;
const GURGLE_GAIN: f32 = 0.08;
const HISS_GAIN: f32 = 0.04;
const BLUB_GAIN: f32 = 0.2;
const CRACKLE_GAIN: f32 = 0.2;
const ERASE_GAIN: f32 = 0.1;
const KNOCK_GAIN: f32 = 0.5;

/// The flow (mass per second) at which a stream is at half its loudest: an emitter of the
/// presets makes 100 to 200.
const STREAM_RATE: f32 = 100.0;
/// The heat per second, from hot liquid into cold, at which the sizzle is at half its loudest.
const SIZZLE_RATE: f32 = 4000.0;
/// Reactions, or liquid turned into another, per second, at which the hiss is at half.
const REACTION_RATE: f32 = 40.0;
/// Liquid boiled off, mass per second, at which the hiss and the blubs are at half.
const BOIL_RATE: f32 = 40.0;
/// Liquid frozen, mass per second, at which the crackle is at half.
const FREEZE_RATE: f32 = 40.0;
/// Liquid erased, mass per second, at which the rush is at half.
const ERASE_RATE: f32 = 100.0;
/// A knock's energy at which it is at half its loudest.
const KNOCK_ENERGY: f32 = 50.0;

/// `amount` / `reference` pressed into 0..1: √s / (1 + √s), half at the reference. Loudness grows
/// with the square root of the energy (the amplitude of the sound it makes) and saturates, so a
/// big scene is full but not deafening, and a small one still heard.
fn level(amount: f32, reference: f32) -> f32 {
    let s = (amount.at_least(0.0) / reference).sqrt();
    if s.is_finite() {
        s / (1.0 + s)
    } else {
        1.0
    }
}

/// The synthesiser: voices started by the frames' events, mixed under a limiter.
#[derive(Clone, Debug)]
pub struct Synth {
    noise: Noise,
    voices: Vec<Voice>,
    stream: Bed,
    hiss: Bed,
    rush: Bed,
    limiter: Limiter,
}

impl Default for Synth {
    fn default() -> Self {
        Self::new(0)
    }
}

impl Synth {
    /// A silent synthesiser; `seed` starts its noise (the run's seed, for the same bytes).
    pub fn new(seed: u64) -> Self {
        let mut noise = Noise::new(seed);
        let stream = Bed::new(
            noise.split(),
            Filter::new(700.0, 1.2),
            Pass::Band,
            None,
            0.08,
        );
        let hiss = Bed::new(
            noise.split(),
            Filter::new(4500.0, 1.0),
            Pass::High,
            Some(Filter::new(4500.0, 1.4)),
            0.06,
        )
        .grainy(0.004);
        let rush = Bed::new(
            noise.split(),
            Filter::new(1400.0, 0.7),
            Pass::Band,
            None,
            0.05,
        );
        Self {
            noise,
            voices: Vec::with_capacity(MAX_VOICES),
            stream,
            hiss,
            rush,
            limiter: Limiter::default(),
        }
    }

    /// Voices sounding now (or waiting to start).
    pub fn voices(&self) -> usize {
        self.voices.len()
    }

    /// Starts the sounds of one simulation frame's events: from the next sample rendered, each
    /// at a place within the frame's time.
    pub fn push(&mut self, events: &FrameEvents) {
        let span = (events.seconds.clamp(0.0, 1.0) * RATE) as u32;
        for impact in &events.impacts {
            self.splash(impact, span);
        }
        for knock in &events.knocks {
            if knock.wall {
                self.knock(knock.x, knock.energy, span);
            } else {
                let impact = Impact {
                    x: knock.x,
                    energy: knock.energy,
                    mass: 0.5 * knock.energy.sqrt(),
                    hard: 0.0,
                };
                self.splash(&impact, span);
            }
        }
        let flow = level(events.births.rate, STREAM_RATE);
        self.stream.aim(STREAM_GAIN * flow, events.births.x);
        self.bubbles(
            8.0 * flow * events.seconds,
            (0.001, 0.004),
            GURGLE_GAIN * flow,
            events.births.x,
            span,
        );
        let heat = events.sizzle.rate / SIZZLE_RATE
            + events.reacted.rate / REACTION_RATE
            + events.boiled.rate / BOIL_RATE;
        let hissing = [events.sizzle, events.reacted, events.boiled];
        let weight: f32 = hissing.iter().map(|f| f.rate).sum();
        let x = if weight > 0.0 {
            hissing.iter().map(|f| f.rate * f.x).sum::<f32>() / weight
        } else {
            0.5
        };
        self.hiss.aim(HISS_GAIN * level(heat, 1.0), x);
        let boil = level(events.boiled.rate, BOIL_RATE);
        self.bubbles(
            12.0 * boil * events.seconds,
            (0.003, 0.008),
            BLUB_GAIN * boil,
            events.boiled.x,
            span,
        );
        self.crackle(events, span);
        let erase = level(events.erased.rate, ERASE_RATE);
        self.rush.aim(ERASE_GAIN * erase, events.erased.x);
    }

    /// Renders the next `out.len() / CHANNELS` stereo samples (interleaved left, right), each in
    /// -1..1 (an odd last sample is silence).
    pub fn render(&mut self, out: &mut [f32]) {
        out.fill(0.0);
        let whole = out.len() / CHANNELS * CHANNELS;
        let out = &mut out[..whole];
        self.voices.retain_mut(|voice| voice.add_to(out));
        self.stream.add_to(out);
        self.hiss.add_to(out);
        self.rush.add_to(out);
        self.limiter.apply(out);
    }

    /// A splash: its noise, its slap, its bubbles.
    fn splash(&mut self, impact: &Impact, span: u32) {
        let hard = impact.energy * impact.hard;
        let soft = impact.energy - hard;
        let mass = impact.mass.at_least(0.0);
        // The splash's bubbles: a radius that grows with the fourth root of its size (a drop of
        // one particle about 1 mm, 100 of them 3.2 mm, 1 000 of them 5.6 mm), so that a big
        // splash is deeper.
        let radius = (0.001 * powf(mass.at_least(1e-3), 0.25)).clamp(RADII.0, RADII.1);
        let size = mass / (mass + 50.0);
        let delay = self.delay(span);
        if soft > 0.0 {
            let loud = level(soft, SPLASH_ENERGY);
            let centre = (1.2 * MINNAERT / radius).clamp(600.0, 2500.0);
            let burst = Burst::new(
                self.noise.split(),
                Filter::new(centre, 1.0),
                Pass::Low,
                SPLASH_GAIN * loud,
                0.003,
                0.04 + 0.1 * size,
            );
            self.add(Sound::Burst(burst), impact.x, delay);
            let count = 1 + (4.0 * loud).at_most(3.0) as usize;
            for _ in 0..count {
                // Mostly smaller than the splash's radius, now and then larger: entrained
                // bubbles' radii spread widely, the small ones many.
                let u = self.noise.unit();
                let r = (radius * (0.3 + 1.2 * u * u)).clamp(RADII.0, RADII.1);
                let amplitude = BUBBLE_GAIN * loud * (r / radius).sqrt();
                let after = delay + (self.noise.unit() * 0.03 * RATE) as u32;
                self.bubble(r, amplitude, impact.x, after);
            }
        }
        if hard > 0.0 {
            let loud = level(hard, SPLASH_ENERGY);
            let burst = Burst::new(
                self.noise.split(),
                Filter::new(1200.0 - 500.0 * size, 1.3),
                Pass::Band,
                SLAP_GAIN * loud,
                0.001,
                0.025,
            );
            self.add(Sound::Burst(burst), impact.x, delay);
        }
    }

    /// One bubble of `radius` metres: a ring at the Minnaert frequency, damped and rising.
    fn bubble(&mut self, radius: f32, amplitude: f32, x: f32, delay: u32) {
        let damping = bubble_damping(radius);
        let ring = Ring::new(MINNAERT / radius, damping, RISE * damping, amplitude);
        self.add(Sound::Ring(ring), x, delay);
    }

    /// About `count` bubbles (the fraction by chance) with radii in `radii`, within the frame.
    fn bubbles(&mut self, count: f32, radii: (f32, f32), amplitude: f32, x: f32, span: u32) {
        if amplitude <= 0.0 || count.is_nan() {
            return;
        }
        let whole = count.at_most(4.0);
        let mut n = whole as usize;
        if self.noise.unit() < whole - n as f32 {
            n += 1;
        }
        for _ in 0..n {
            let r = radii.0 + (radii.1 - radii.0) * self.noise.unit();
            let delay = self.delay(span);
            // Spread a little around the flow's place.
            let x = x + 0.04 * self.noise.sample();
            let amplitude = amplitude * (0.5 + 0.5 * self.noise.unit());
            self.bubble(r, amplitude, x, delay);
        }
    }

    /// The crackle of freezing: a few short high clicks within the frame.
    fn crackle(&mut self, events: &FrameEvents, span: u32) {
        let loud = level(events.frozen.rate, FREEZE_RATE);
        if loud <= 0.0 {
            return;
        }
        let count = (30.0 * loud * events.seconds).at_most(6.0);
        let mut n = count as usize;
        if self.noise.unit() < count - n as f32 {
            n += 1;
        }
        for _ in 0..n {
            let centre = 2500.0 + 3500.0 * self.noise.unit();
            let burst = Burst::new(
                self.noise.split(),
                Filter::new(centre, 0.5),
                Pass::Band,
                CRACKLE_GAIN * loud * (0.3 + 0.7 * self.noise.unit()),
                0.0002,
                0.004,
            );
            let delay = self.delay(span);
            let x = events.frozen.x + 0.05 * self.noise.sample();
            self.add(Sound::Burst(burst), x, delay);
        }
    }

    /// A body against a wall: a low ring and a thud.
    fn knock(&mut self, x: f32, energy: f32, span: u32) {
        let loud = level(energy, KNOCK_ENERGY);
        let delay = self.delay(span);
        let pitch = 70.0 + 40.0 * self.noise.unit();
        self.add(
            Sound::Ring(Ring::new(pitch, 25.0, 0.0, KNOCK_GAIN * loud)),
            x,
            delay,
        );
        let thud = Burst::new(
            self.noise.split(),
            Filter::new(350.0, 1.2),
            Pass::Low,
            0.7 * KNOCK_GAIN * loud,
            0.0005,
            0.015,
        );
        self.add(Sound::Burst(thud), x, delay);
    }

    /// A place within the frame, in samples from its start.
    fn delay(&mut self, span: u32) -> u32 {
        (self.noise.unit() * span as f32) as u32
    }

    /// Adds a voice under the budget: past `MAX_VOICES` it takes the quietest's place if it is
    /// louder, else it is not heard.
    fn add(&mut self, sound: Sound, x: f32, delay: u32) {
        let voice = Voice {
            sound,
            pan: Pan::at(x),
            delay,
        };
        if voice.level() <= 0.0 {
            return;
        }
        if self.voices.len() < MAX_VOICES {
            self.voices.push(voice);
            return;
        }
        let quietest =
            (self.voices.iter().enumerate()).fold((0, f32::INFINITY), |(best, least), (i, v)| {
                let level = v.level();
                if level < least {
                    (i, level)
                } else {
                    (best, least)
                }
            });
        if voice.level() > quietest.1 {
            self.voices[quietest.0] = voice;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sound::events::Flow;

    fn frame() -> FrameEvents {
        FrameEvents {
            seconds: 0.05,
            ..FrameEvents::default()
        }
    }

    #[test]
    fn no_events_is_silence() {
        let mut synth = Synth::new(1);
        let mut out = vec![1.0; 4800];
        for _ in 0..10 {
            synth.push(&frame());
            synth.render(&mut out);
            assert!(out.iter().all(|&x| x == 0.0));
        }
    }

    #[test]
    fn the_same_samples_whatever_the_buffer_sizes() {
        let events = FrameEvents {
            impacts: vec![Impact {
                x: 0.3,
                energy: 500.0,
                mass: 30.0,
                hard: 0.3,
            }],
            births: Flow {
                rate: 150.0,
                x: 0.2,
            },
            sizzle: Flow {
                rate: 800.0,
                x: 0.7,
            },
            ..frame()
        };
        let render = |sizes: &[usize]| {
            let mut synth = Synth::new(3);
            synth.push(&events);
            let mut all = Vec::new();
            for &size in sizes {
                let mut out = vec![0.0; size];
                synth.render(&mut out);
                all.extend(out);
            }
            all
        };
        let one = render(&[4800]);
        let many = render(&[256, 1024, 2, 1518, 2000]);
        assert_eq!(one, many);
        assert!(one.iter().any(|&x| x != 0.0));
        assert!(one.iter().all(|&x| x.abs() < 1.0));
    }

    #[test]
    fn a_crowd_of_loud_events_stays_under_full_scale_and_the_budget() {
        let mut synth = Synth::new(5);
        let events = FrameEvents {
            impacts: (0..8)
                .map(|i| Impact {
                    x: i as f32 / 8.0,
                    energy: 1e7,
                    mass: 1e4,
                    hard: 0.5,
                })
                .collect(),
            births: Flow { rate: 1e6, x: 0.5 },
            boiled: Flow { rate: 1e6, x: 0.5 },
            frozen: Flow { rate: 1e6, x: 0.5 },
            erased: Flow { rate: 1e6, x: 0.5 },
            sizzle: Flow {
                rate: f32::INFINITY,
                x: f32::NAN,
            },
            ..frame()
        };
        let mut out = vec![0.0; 4800];
        for _ in 0..20 {
            synth.push(&events);
            synth.render(&mut out);
            assert!(synth.voices() <= MAX_VOICES);
            assert!(out.iter().all(|&x| x.is_finite() && x.abs() < 0.97));
        }
    }

    #[test]
    fn minnaert_and_the_damping_as_van_den_doel_gives_them() {
        // A bubble of 1 mm rings at about 3.3 kHz and is gone in a few milliseconds; one of
        // 1 cm at 330 Hz rings some 40 ms.
        assert!((MINNAERT / 0.001 - 3260.0).abs() < 1.0);
        assert!((bubble_damping(0.001) - 357.7).abs() < 1.0);
        assert!((bubble_damping(0.01) - 20.2).abs() < 0.5);
    }
}
