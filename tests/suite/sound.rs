//! The sound of a run (`slosh::sound`), tested on its samples as a WAV holds them: a pool at
//! rest is silent; a dam break is loud; a block dropped from higher lands louder; a splash by the
//! left wall is on the left; lava hisses where water pouring into water does not; nothing reaches
//! full scale; and the same run gives the same bytes at any thread count and from its replay.

use crate::common::{box_walls, on_threads, step_frames};
use glam::Vec2;
use slosh::preset::Preset;
use slosh::sim::numerics::portable::{max, sin_cos_f64, Ordered};
use slosh::sim::{Pour, World};
use slosh::sound::{Recording, SAMPLE_RATE};

const LAVA: &str = include_str!("../../assets/presets/lava.toml");

/// Stereo samples in 50 ms.
const WINDOW: usize = SAMPLE_RATE as usize / 20;

/// `world`'s sound over `seconds` of its frames (seed 1), interleaved left, right.
fn sound_of(mut world: World, seconds: f32) -> Vec<i16> {
    let mut recording = Recording::in_memory(&world, 1);
    let frames = (seconds * world.params().frame_rate).round() as usize;
    for _ in 0..frames {
        world.step_frame();
        recording.frame(&world);
    }
    recording.samples().to_vec()
}

/// The stereo samples from `from` to `to` seconds.
fn between(samples: &[i16], from: f32, to: f32) -> &[i16] {
    let at = |t: f32| ((t * SAMPLE_RATE as f32) as usize * 2).min(samples.len());
    &samples[at(from)..at(to)]
}

/// RMS in dBFS of interleaved samples (one channel: `channel` 0 or 1; both: `None`), −120 for
/// silence.
fn rms_dbfs(samples: &[i16], channel: Option<usize>) -> f64 {
    let values: Vec<f64> = samples
        .iter()
        .enumerate()
        .filter(|(i, _)| channel.is_none_or(|c| i % 2 == c))
        .map(|(_, &s)| f64::from(s) / 32_767.0)
        .collect();
    let mean = values.iter().map(|v| v * v).sum::<f64>() / values.len().max(1) as f64;
    if mean > 0.0 {
        (10.0 * mean.log10()).at_least(-120.0)
    } else {
        -120.0
    }
}

/// The loudest `window` stereo samples of `samples`, as RMS in dBFS.
fn peak_loudness(samples: &[i16], window: usize) -> f64 {
    samples
        .chunks(2 * window)
        .map(|window| rms_dbfs(window, None))
        .fold(-120.0, max)
}

/// An in-place radix-2 FFT of (re, im) pairs; the length is a power of two.
fn fft(data: &mut [(f64, f64)]) {
    let n = data.len();
    let mut j = 0;
    for i in 1..n {
        let mut bit = n >> 1;
        while j & bit != 0 {
            j ^= bit;
            bit >>= 1;
        }
        j |= bit;
        if i < j {
            data.swap(i, j);
        }
    }
    let mut length = 2;
    while length <= n {
        let angle = -2.0 * std::f64::consts::PI / length as f64;
        for start in (0..n).step_by(length) {
            for k in 0..length / 2 {
                let (sin, cos) = sin_cos_f64(angle * k as f64);
                let (a, b) = (data[start + k], data[start + k + length / 2]);
                let turned = (b.0 * cos - b.1 * sin, b.0 * sin + b.1 * cos);
                data[start + k] = (a.0 + turned.0, a.1 + turned.1);
                data[start + k + length / 2] = (a.0 - turned.0, a.1 - turned.1);
            }
        }
        length *= 2;
    }
}

/// The share of the energy of `samples` (both channels summed) above `hz`: Hann-windowed FFTs
/// of 2048 samples.
fn share_above(samples: &[i16], hz: f64) -> f64 {
    const N: usize = 2048;
    let mono: Vec<f64> = samples
        .chunks_exact(2)
        .map(|pair| f64::from(pair[0]) + f64::from(pair[1]))
        .collect();
    let (mut above, mut all) = (0.0, 0.0);
    for block in mono.chunks_exact(N) {
        let mut data: Vec<(f64, f64)> = block
            .iter()
            .enumerate()
            .map(|(i, &x)| {
                let hann =
                    0.5 - 0.5 * sin_cos_f64(2.0 * std::f64::consts::PI * i as f64 / N as f64).1;
                (x * hann, 0.0)
            })
            .collect();
        fft(&mut data);
        for (k, &(re, im)) in data.iter().enumerate().take(N / 2).skip(1) {
            let energy = re * re + im * im;
            all += energy;
            if k as f64 * f64::from(SAMPLE_RATE) / N as f64 > hz {
                above += energy;
            }
        }
    }
    above / all.at_least(f64::MIN_POSITIVE)
}

/// The preset text of a `width` × 5 box with a pool `depth` deep.
fn pool_text(width: f32, depth: f32) -> String {
    let walls = box_walls(width, 5.0);
    let right = width - 0.1;
    format!(
        r#"
name = "pool"
description = "a pool"
[params]
max_particles = 4000
{walls}[[materials]]
name = "water"
colour = [0.2, 0.5, 0.9]
mass = 1.0
pressure_scale = 0.08
pressure_bias = 0.9
[[blocks]]
material = "water"
min = [0.1, 0.1]
max = [{right:?}, {depth:?}]
spacing = 0.1
"#
    )
}

/// The sound of a disc of water 0.6 across poured (the pour tool) with its bottom `height` above
/// the settled surface of a pool `depth` deep in a `width` × 5 box, at `x`: 2 s from the pour,
/// from seed `seed`; and the seconds it falls before it lands. The pool settles for 2 s first,
/// unheard.
fn dropped(width: f32, depth: f32, x: f32, height: f32, seed: u64) -> (Vec<i16>, f32) {
    let preset = Preset::parse("pool.toml", &pool_text(width, depth)).unwrap();
    let mut world = preset.build_world(seed);
    step_frames(&mut world, 40);
    let surface = world.material_stats()[0].top + world.params().particle_radius;
    let mut recording = Recording::in_memory(&world, seed);
    world
        .pour(Pour {
            material: 0,
            centre: Vec2::new(x, surface + height + 0.3),
            radius: 0.3,
            velocity: Vec2::ZERO,
        })
        .unwrap();
    for _ in 0..40 {
        world.step_frame();
        recording.frame(&world);
    }
    let fall = (2.0 * height / 9.8).sqrt();
    (recording.samples().to_vec(), fall)
}

/// A pool at rest is silent once it has settled: below −60 dBFS.
#[test]
fn a_pool_at_rest_is_silent() {
    let world = Preset::parse("pool.toml", &pool_text(4.0, 1.0))
        .unwrap()
        .build_world(1);
    let samples = sound_of(world, 5.0);
    let settled = rms_dbfs(between(&samples, 2.0, 5.0), None);
    assert!(settled < -60.0, "{settled:.1} dBFS");
}

/// `dam` in its first 2 s is at least 20 dB louder than the same water at rest (a pool as deep
/// as the dam's water spreads across its box).
#[cfg(feature = "bodies")]
#[test]
fn a_dam_break_is_loud() {
    let dam = Preset::load("dam").unwrap().with_particles(1500).unwrap();
    let breaking = rms_dbfs(&sound_of(dam.build_world(1), 2.0), None);
    let text = include_str!("../../assets/presets/dam.toml")
        .replace("max = [7.6, 4.1]", "max = [15.9, 2.0]");
    let rest = Preset::parse("rest.toml", &text)
        .unwrap()
        .with_particles(1500)
        .unwrap();
    let samples = sound_of(rest.build_world(1), 4.0);
    let resting = rms_dbfs(between(&samples, 2.0, 4.0), None);
    assert!(
        breaking > resting + 20.0,
        "dam {breaking:.1} dBFS, at rest {resting:.1} dBFS"
    );
    assert!(breaking > -40.0, "dam {breaking:.1} dBFS");
}

/// A block of water dropped into a pool from 0.5 m, 1 m and 2 m above it: the impact's loudest
/// 100 ms is louder from higher (the mean over three seeds, which change the pool's jitter and
/// the noise).
#[test]
fn a_block_dropped_from_higher_lands_louder() {
    let loudness: Vec<f64> = [0.5, 1.0, 2.0]
        .iter()
        .map(|&height| {
            (1..=3)
                .map(|seed| {
                    let (samples, fall) = dropped(4.0, 1.0, 2.0, height, seed);
                    peak_loudness(between(&samples, 0.8 * fall, 2.0), 2 * WINDOW)
                })
                .sum::<f64>()
                / 3.0
        })
        .collect();
    assert!(
        loudness[0] + 1.0 < loudness[1] && loudness[1] + 1.0 < loudness[2],
        "{loudness:.1?} dBFS"
    );
}

/// A splash by the left wall sounds on the left: its left channel at least 6 dB louder than its
/// right, over the second after it lands (before its wave reaches the far wall).
#[test]
fn a_splash_by_the_left_wall_is_on_the_left() {
    let (samples, fall) = dropped(8.0, 0.8, 0.5, 1.0, 1);
    let splash = between(&samples, fall - 0.1, fall + 1.0);
    let (left, right) = (rms_dbfs(splash, Some(0)), rms_dbfs(splash, Some(1)));
    assert!(left > -60.0, "left {left:.1} dBFS");
    assert!(
        left > right + 6.0,
        "left {left:.1} dBFS, right {right:.1} dBFS"
    );
}

/// `lava` hisses: the share of its sound's energy above 4 kHz is at least twice that of the
/// same scene pouring water into its water.
#[test]
fn lava_hisses_where_water_into_water_does_not() {
    let share = |text: &str| {
        let preset = Preset::parse("lava.toml", text)
            .unwrap()
            .with_particles(1500)
            .unwrap();
        let samples = sound_of(preset.build_world(1), 5.0);
        share_above(between(&samples, 1.5, 5.0), 4000.0)
    };
    let lava = share(LAVA);
    let water = share(&LAVA.replace(
        "[[emitters]]\nmaterial = \"lava\"",
        "[[emitters]]\nmaterial = \"water\"",
    ));
    assert!(lava > 2.0 * water, "lava {lava:.4}, water {water:.4}");
}

/// No sample reaches full scale in the first 10 s of any embedded preset (at about 800
/// particles, or 5,000 where its solids leave no room for coarser ones: `flood` at its own
/// 52,000 took half the test's time; each scene's first pour, fall or burst comes within it), nor
/// in a dam stirred at random.
#[test]
fn nothing_reaches_full_scale() {
    for preset in Preset::builtins() {
        if !cfg!(feature = "bodies") && !preset.scene.bodies.is_empty() {
            continue;
        }
        let name = preset.name.clone();
        // Coarser where the scene allows it (a preset whose solids leave no room for any of
        // these keeps its own count).
        let preset = [800, 5_000]
            .into_iter()
            .find_map(|count| preset.clone().with_particles(count).ok())
            .unwrap_or(preset);
        let samples = on_threads(2, || sound_of(preset.build_world(1), 10.0));
        let peak = samples.iter().map(|s| s.unsigned_abs()).max().unwrap_or(0);
        assert!(peak < 32_767, "{name}: a sample at full scale");
    }
}

/// Random stirring of a pool for 10 s reaches no full-scale sample either.
#[test]
fn stirring_reaches_no_full_scale() {
    let mut world = Preset::parse("pool.toml", &pool_text(4.0, 1.5))
        .unwrap()
        .build_world(1);
    let mut stirrer = slosh::sim::RandomStirrer::new(3);
    let mut recording = Recording::in_memory(&world, 3);
    for _ in 0..200 {
        if let Some(stir) = stirrer.next(&world) {
            world.stir(stir);
        }
        world.step_frame();
        recording.frame(&world);
    }
    let figures = recording.figures();
    assert!(figures.peak < 1.0, "{figures:?}");
    assert!(figures.rms_dbfs > -60.0, "stirring is heard: {figures:?}");
}

#[cfg(feature = "cli")]
mod program {
    use slosh::headless::{self, HeadlessOptions, StirMode};
    use std::path::PathBuf;
    use std::process::Command;

    fn temp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("slosh-sound-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// The same stirred run writes the same WAV bytes at 1 and 2 threads, and its replay
    /// writes them again; the report gives the sound's figures.
    #[test]
    fn the_same_bytes_at_any_thread_count_and_from_the_replay() {
        let run = |threads: usize| {
            let (wav, replay) = (
                temp(&format!("run-{threads}.wav")),
                temp(&format!("run-{threads}.replay")),
            );
            let report = headless::run(&HeadlessOptions {
                preset: "dam".into(),
                frames: 60,
                particles: Some(1200),
                threads: Some(threads),
                stir: StirMode::Random,
                record: Some(replay.clone()),
                wav: Some(wav.clone()),
                ..HeadlessOptions::default()
            })
            .unwrap();
            (std::fs::read(&wav).unwrap(), replay, report)
        };
        let (one, replay, report) = run(1);
        let (two, _, _) = run(2);
        assert!(one == two, "the WAVs at 1 and 2 threads differ");
        let sound = report.sound.unwrap();
        assert!((sound.seconds - 3.0).abs() < 1e-9, "{sound:?}");
        assert!(sound.peak < 1.0 && sound.rms_dbfs > -60.0, "{sound:?}");
        assert_eq!(one.len(), 44 + 3 * 48_000 * 4);
        let replayed = temp("replayed.wav");
        headless::replay_to(&replay, Some(2), Some(&replayed)).unwrap();
        assert!(
            std::fs::read(&replayed).unwrap() == one,
            "the replay's WAV differs"
        );
    }

    /// A WAV path that cannot be written is a one-line error and exit code 2; `--wav` without
    /// `--headless` is a usage error.
    #[test]
    fn a_bad_wav_path_is_a_clear_error() {
        let output = Command::new(env!("CARGO_BIN_EXE_slosh"))
            .args([
                "--headless",
                "--frames",
                "2",
                "--wav",
                "/nonexistent/dir/x.wav",
            ])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let error = String::from_utf8_lossy(&output.stderr);
        assert_eq!(error.lines().count(), 1, "{error}");
        assert!(error.contains("cannot write the sound"), "{error}");
        let output = Command::new(env!("CARGO_BIN_EXE_slosh"))
            .args(["--wav", "x.wav"])
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let error = String::from_utf8_lossy(&output.stderr);
        assert!(error.contains("--headless"), "{error}");
    }
}
